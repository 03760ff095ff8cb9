/* Pooling (shaders/pool.comp): the seven kernels of TSR_OP_LIST_POOL on
 * float32, one invocation per written element. The rows take contiguous
 * operands only (the core copies strided ones), so the shader finds every
 * element from the sizes; max pooling's values and indices are two
 * dispatches. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

static int is_backward(int32_t op)
{
    return op == TSR_OP_POOL_MAX_BACKWARD || op == TSR_OP_POOL_AVG_BACKWARD ||
           op == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
}

static int contiguous(const tsr_tensor_desc *t)
{
    int64_t expect = 1;
    for (int d = t->ndim - 1; d >= 0; --d) {
        if (t->shape[d] != 1 && t->strides[d] != expect)
            return 0;
        expect *= t->shape[d];
    }
    return 1;
}

static int pool_check(struct tsr__vk_backend *b, const tsr_kernel_args *args)
{
    int32_t op = args ? args->op : -1;
    int two_in = op == TSR_OP_POOL_MAX_BACKWARD;
    int two_out = op == TSR_OP_POOL_MAX || op == TSR_OP_POOL_ADAPTIVE_MAX;
    const tsr_pool_attrs *a = args ? args->attrs : NULL;
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || !args->inputs || !args->outputs ||
        args->num_inputs != (two_in ? 2 : 1) || args->num_outputs != (two_out ? 2 : 1) || !a ||
        a->struct_size < sizeof(tsr_pool_attrs) || a->spatial < 1 || a->spatial > 3)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "pooling: wrong operands or attributes");
    const tsr_tensor_desc *small = is_backward(op) ? &args->inputs[0] : &args->outputs[0];
    const tsr_tensor_desc *big = is_backward(op) ? &args->outputs[0] : &args->inputs[0];
    int nd = 2 + a->spatial, ok = small->ndim == nd && big->ndim == nd &&
                                  small->dtype == TSR_FLOAT32 && big->dtype == TSR_FLOAT32;
    for (int d = 0; ok && d < 2; ++d)
        ok = small->shape[d] == big->shape[d];
    for (int k = 0; ok && k < args->num_inputs + args->num_outputs; ++k) {
        const tsr_tensor_desc *t = k < args->num_inputs ? &args->inputs[k]
                                                        : &args->outputs[k - args->num_inputs];
        ok = contiguous(t) && tsr__vk_check_element_offset(b, t, k) == TSR_OK;
    }
    if (!ok)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "pooling: float32 contiguous operands of matching shapes expected");
    int64_t plane = 1;
    for (int k = 0; k < a->spatial; ++k)
        plane *= big->shape[2 + k] > small->shape[2 + k] ? big->shape[2 + k] : small->shape[2 + k];
    if (plane > INT32_MAX / 8 || tsr__vk_desc_numel(big) > UINT32_MAX / 8)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "pooling: planes too large here");
    return TSR_OK;
}

int tsr__vk_kernel_pool(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    int status = pool_check(b, args);
    if (status != TSR_OK)
        return status;
    const tsr_pool_attrs *a = args->attrs;
    int32_t op = args->op;
    const tsr_tensor_desc *small = is_backward(op) ? &args->inputs[0] : &args->outputs[0];
    const tsr_tensor_desc *big = is_backward(op) ? &args->outputs[0] : &args->inputs[0];
    struct tsr__vk_custom c;
    memset(&c, 0, sizeof c);
    c.ndim = 1;
    c.stride[0][0] = 1; /* the written operand; inputs contribute their bases */
    uint32_t out_sizes[3];
    for (int k = 0; k < 3; ++k) {
        int from = k - (3 - a->spatial), real = from >= 0;
        c.extra[k] = (uint32_t)(real ? a->kernel[from] : 1);
        c.extra[3 + k] = (uint32_t)(real ? a->stride[from] : 1);
        c.extra[6 + k] = (uint32_t)(real ? a->padding[from] : 0);
        c.extra[9 + k] = (uint32_t)(real && a->dilation[from] > 0 ? a->dilation[from] : 1);
        c.extra[12 + k] = (uint32_t)(real ? big->shape[2 + from] : 1);
        out_sizes[k] = (uint32_t)(real ? small->shape[2 + from] : 1);
    }
    c.extra[15] = (uint32_t)(int32_t)a->divisor;
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_POOL,
                               .num_in = args->num_inputs,
                               .in = {&args->inputs[0], args->num_inputs > 1 ? &args->inputs[1]
                                                                             : NULL},
                               .scalar = {out_sizes[0], out_sizes[1], out_sizes[2],
                                          (uint32_t)(a->count_include_pad != 0)}};
    int writes = args->num_outputs;
    pthread_mutex_lock(&b->lock);
    for (int w = 0; w < writes && status == TSR_OK; ++w) {
        l.out = &args->outputs[w];
        c.shape[0] = tsr__vk_desc_numel(l.out);
        /* mode bit 1: a max backward without a window (adaptive max) */
        int windowless = op == TSR_OP_POOL_MAX_BACKWARD && a->kernel[0] <= 0;
        l.spec = (struct tsr__vk_spec){op, TSR_FLOAT32, l.out->dtype, w | (windowless ? 2 : 0)};
        if (c.shape[0] == 0)
            continue;
        status = tsr__vk_elements(b, c.shape[0], &c);
        if (status == TSR_OK)
            status = tsr__vk_launch_custom(b, &l, &c);
    }
    pthread_mutex_unlock(&b->lock);
    return status;
}

int tsr__vk_pool_supported(const struct tsr__vk_backend *b, int32_t op)
{
    if (op < TSR_OP_POOL_MAX || op > TSR_OP_POOL_ADAPTIVE_MAX)
        return 0;
    return tsr__vk_dtype_held(&b->device, TSR_INT64) &&
           tsr__vk_shader_supported(&b->device, TSR__VK_SHADER_POOL);
}
