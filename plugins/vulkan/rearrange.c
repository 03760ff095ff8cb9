/* tril and triu (shaders/tri.comp), with the dispatch of index.c. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

/* tril and triu over the last two dims; the diagonal in attrs->offset. */
int tsr__vk_kernel_tri(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    const tsr_index_attrs *attrs;
    int status = tsr__vk_index_args(b, args, 1, &attrs);
    if (status != TSR_OK)
        return status;
    const tsr_tensor_desc *x = &args->inputs[0], *out = &args->outputs[0];
    int nd = out->ndim;
    int fits = nd >= 2 && x->ndim == nd && x->dtype == out->dtype;
    for (int d = 0; fits && d < nd; ++d)
        fits = x->shape[d] == out->shape[d];
    if (!fits)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "tril/triu need one dtype and matching shapes of rank >= 2");
    if (out->shape[nd - 1] > INT32_MAX || out->shape[nd - 2] > INT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "tril/triu: matrices too large");
    struct tsr__vk_custom c;
    tsr__vk_custom_over(&c, out);
    for (int d = 0; d < nd; ++d)
        c.stride[1][d] = x->strides[d];
    /* Column - row lies in (-2^31, 2^31): any diagonal beyond acts alike. */
    int64_t k = attrs->offset;
    k = k > INT32_MAX ? INT32_MAX : k < -INT32_MAX ? -INT32_MAX : k;
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_TRI,
                               .spec = {args->op, x->dtype, x->dtype, 0},
                               .out = out,
                               .in = {x},
                               .num_in = 1,
                               .scalar = {(uint32_t)(int32_t)k}};
    status = tsr__vk_elements(b, tsr__vk_desc_numel(out), &c);
    if (status != TSR_OK)
        return status;
    return tsr__vk_index_run(b, "tril/triu", NULL, 0, 0, NULL, &l, &c);
}
