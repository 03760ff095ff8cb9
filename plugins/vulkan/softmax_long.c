/* softmax and log_softmax rows too long for one workgroup on a CPU device
 * (llvmpipe stops an invocation's loops after 65535 iterations, silently),
 * or operands past maxStorageBufferRange, which the row shader's windows
 * cannot split: the row op is composed from whole-tensor kernels, each of
 * which stays within the loop limit and tiles past the binding one. In the working
 * dtype W (float64 where the device holds it and the wide row shaders are
 * allowed, float32 otherwise):
 *
 *   w = W(x); m = amax(w, dim); w = w - m; e = exp(w); s = sum(e, dim);
 *   softmax: y = e / s;  log_softmax: y = w - log(s);  rounded once to y.
 *
 * That is the row shader's formula (and the reference's, computing in
 * double); the fixed order is the reductions' (docs/determinism.md: blocks
 * of 1024 terms, 16 lanes, a binary counter) instead of the row shader's
 * strided fold and tree, so a long row's bits may differ in the last place
 * of W from a short row's path. A row with NaN, +inf or only -inf gives
 * NaN as there: inf - inf and exp(NaN) are NaN. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

/* A contiguous scratch descriptor of x's shape (dim of extent 1 when
 * `kept`), or a view of one broadcast along dim (`broadcast`). */
struct tsr__vk_scratch {
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    tsr_tensor_desc d;
};

static void tsr__vk_scratch_desc(struct tsr__vk_scratch *s, struct tsr__vk_buffer *buffer,
                                 const tsr_tensor_desc *x, int dim, int32_t dtype, int kept,
                                 int broadcast)
{
    int64_t step = 1;
    for (int d = x->ndim - 1; d >= 0; --d) {
        int64_t n = kept && d == dim ? 1 : x->shape[d];
        s->strides[d] = step;
        step *= n;
    }
    for (int d = 0; d < x->ndim; ++d)
        s->shape[d] = x->shape[d];
    if (kept && !broadcast)
        s->shape[dim] = 1;
    if (kept && broadcast)
        s->strides[dim] = 0;
    s->d = (tsr_tensor_desc){buffer, 0, dtype, x->ndim, s->shape, s->strides};
}

static int tsr__vk_call(struct tsr__vk_backend *b, int32_t op, tsr_kernel_fn fn,
                        const tsr_tensor_desc *out, const tsr_tensor_desc *in0,
                        const tsr_tensor_desc *in1, const void *attrs)
{
    tsr_tensor_desc inputs[2] = {*in0, in1 ? *in1 : *in0};
    tsr_kernel_args args = {
        .struct_size = sizeof args,
        .op = op,
        .num_inputs = in1 ? 2 : 1,
        .num_outputs = 1,
        .inputs = inputs,
        .outputs = out,
        .attrs = attrs,
    };
    return fn(b, &args);
}

int tsr__vk_softmax_composed(struct tsr__vk_backend *b, const tsr_kernel_args *args, int dim)
{
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    int wide = tsr__vk_dtype_held(&b->device, TSR_FLOAT64) &&
               tsr__vk_rows_wide(&b->device, TSR__VK_SHADER_SOFTMAX_WIDE);
    int32_t w = wide ? TSR_FLOAT64 : TSR_FLOAT32;
    int64_t numel = tsr__vk_desc_numel(x), kept = numel / x->shape[dim];
    size_t esize = (size_t)tsr__vk_dtype_size(w);
    struct tsr__vk_buffer *mem[3] = {NULL, NULL, NULL};
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_memory_alloc(&b->memory, (size_t)numel * esize, &mem[0]);
    if (status == TSR_OK)
        status = tsr__vk_memory_alloc(&b->memory, (size_t)numel * esize, &mem[1]);
    if (status == TSR_OK)
        status = tsr__vk_memory_alloc(&b->memory, (size_t)kept * esize, &mem[2]);
    pthread_mutex_unlock(&b->lock);
    struct tsr__vk_scratch xw, ew, sw, sb;
    tsr__vk_scratch_desc(&xw, mem[0], x, dim, w, 0, 0);
    tsr__vk_scratch_desc(&ew, mem[1], x, dim, w, 0, 0);
    tsr__vk_scratch_desc(&sw, mem[2], x, dim, w, 1, 0);
    tsr__vk_scratch_desc(&sb, mem[2], x, dim, w, 1, 1);
    tsr_reduce_attrs over = {.struct_size = sizeof over, .dims_mask = 1u << dim};
    tsr_elementwise_attrs one = {.struct_size = sizeof one};
    one.scalars[0].kind = TSR_SCALAR_FLOAT;
    one.scalars[0].v.f = 1.0;
    tsr_kernel_fn ew_fn = tsr__vk_kernel_elementwise, red = tsr__vk_kernel_reduce;
    if (status == TSR_OK)
        status = tsr__vk_call(b, TSR_OP_COPY, tsr__vk_kernel_copy, &xw.d, x, NULL, NULL);
    if (status == TSR_OK)
        status = tsr__vk_call(b, TSR_OP_AMAX, red, &sw.d, &xw.d, NULL, &over);
    if (status == TSR_OK)
        status = tsr__vk_call(b, TSR_OP_SUB, ew_fn, &xw.d, &xw.d, &sb.d, &one);
    if (status == TSR_OK)
        status = tsr__vk_call(b, TSR_OP_EXP, ew_fn, &ew.d, &xw.d, NULL, NULL);
    if (status == TSR_OK)
        status = tsr__vk_call(b, TSR_OP_SUM, red, &sw.d, &ew.d, NULL, &over);
    const tsr_tensor_desc *result = &ew.d;
    if (status == TSR_OK && args->op == TSR_OP_SOFTMAX) {
        status = tsr__vk_call(b, TSR_OP_DIV, ew_fn, &ew.d, &ew.d, &sb.d, NULL);
    } else if (status == TSR_OK) {
        status = tsr__vk_call(b, TSR_OP_LOG, ew_fn, &sw.d, &sw.d, NULL, NULL);
        if (status == TSR_OK)
            status = tsr__vk_call(b, TSR_OP_SUB, ew_fn, &xw.d, &xw.d, &sb.d, &one);
        result = &xw.d;
    }
    if (status == TSR_OK)
        status = tsr__vk_call(b, TSR_OP_COPY, tsr__vk_kernel_copy, y, result, NULL, NULL);
    pthread_mutex_lock(&b->lock);
    for (int i = 0; i < 3; ++i)
        if (mem[i])
            tsr__vk_submit_release(&b->submit, mem[i]); /* once the batch is done */
    pthread_mutex_unlock(&b->lock);
    return status;
}
