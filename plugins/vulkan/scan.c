/* The scans (shaders/scan.comp): one invocation per short slice along the
 * dim, long slices in three stages by chunks, always in the reference
 * backend's chunked order; cummax/cummin as two such launches (indices,
 * then values). The rows are the reference's
 * (PyTorch 1.13's CPU dtypes) without complex ones; logcumsumexp only with
 * the wide shader, cummax/cummin where int64 indices can be held. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"

#define TSR__VK_SB(dtype) (1u << (dtype))
#define TSR__VK_SCAN_DTYPES                                                                        \
    (TSR__VK_SB(TSR_UINT8) | TSR__VK_SB(TSR_INT8) | TSR__VK_SB(TSR_INT16) |                        \
     TSR__VK_SB(TSR_INT32) | TSR__VK_SB(TSR_INT64) | TSR__VK_SB(TSR_BFLOAT16) |                    \
     TSR__VK_SB(TSR_FLOAT32) | TSR__VK_SB(TSR_FLOAT64))
#define TSR__VK_SCAN_ORDERED (TSR__VK_SCAN_DTYPES | TSR__VK_SB(TSR_BOOL))
#define TSR__VK_SCAN_LSE                                                                           \
    (TSR__VK_SB(TSR_BFLOAT16) | TSR__VK_SB(TSR_FLOAT32) | TSR__VK_SB(TSR_FLOAT64))

static uint32_t tsr__vk_scan_dtypes(int32_t op)
{
    switch (op) {
    case TSR_OP_CUMSUM:
    case TSR_OP_CUMPROD:
        return TSR__VK_SCAN_DTYPES;
    case TSR_OP_CUMMAX:
    case TSR_OP_CUMMIN:
        return TSR__VK_SCAN_ORDERED;
    case TSR_OP_LOGCUMSUMEXP:
        return TSR__VK_SCAN_LSE;
    default:
        return 0;
    }
}

/* reduce.comp's variants, doubled for the scans: wide wherever possible. */
static int tsr__vk_scan_shader(const struct tsr__vk_backend *b, int32_t dtype)
{
    if (tsr__vk_reduce_wide(b, TSR__VK_SHADER_SCAN_WIDE))
        return TSR__VK_SHADER_SCAN_WIDE;
    if (dtype == TSR_INT64 || dtype == TSR_FLOAT64)
        return -1;
    return TSR__VK_SHADER_SCAN;
}

int tsr__vk_scan_supported(const struct tsr__vk_backend *b, int32_t op, int32_t dtype)
{
    if (dtype < 0 || dtype >= TSR_DTYPE_COUNT || !(tsr__vk_scan_dtypes(op) & TSR__VK_SB(dtype)))
        return 0;
    if ((op == TSR_OP_CUMMAX || op == TSR_OP_CUMMIN) && !tsr__vk_dtype_held(&b->device, TSR_INT64))
        return 0;
    int shader = tsr__vk_scan_shader(b, dtype);
    if (op == TSR_OP_LOGCUMSUMEXP && shader != TSR__VK_SHADER_SCAN_WIDE)
        return 0;
    return shader >= 0 && tsr__vk_shader_supported(&b->device, shader);
}

static int tsr__vk_scan_check(struct tsr__vk_backend *b, const tsr_tensor_desc *in,
                              const tsr_tensor_desc *out, int32_t dim)
{
    if (in->ndim < 0 || in->ndim > TSR_MAX_DIMS || out->ndim != in->ndim)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "input of rank %d and output of rank %d",
                             in->ndim, out->ndim);
    if (dim < 0 || dim >= (in->ndim > 0 ? in->ndim : 1))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "dim %d is not a dim of a rank-%d input", dim, in->ndim);
    const tsr_tensor_desc *ops[2] = {out, in};
    for (int k = 0; k < 2; ++k) {
        /* Known dtypes by now: tsr__vk_kernel_scan checked them. */
        int status = tsr__vk_check_element_offset(b, ops[k], k);
        if (status != TSR_OK)
            return status;
        for (int d = 0; d < in->ndim; ++d)
            if (ops[k]->shape[d] != in->shape[d] || ops[k]->shape[d] < 0 ||
                ops[k]->strides[d] < 0)
                return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                                     "operand %d: dim %d has extent %lld and stride %lld (the "
                                     "output must have the input's shape)",
                                     k, d, (long long)ops[k]->shape[d],
                                     (long long)ops[k]->strides[d]);
    }
    return TSR_OK;
}

/* A slice longer than this many chunks of 1024 is scanned in stages
 * (scan.comp: TOTALS, CARRIES, APPLY): llvmpipe ends an invocation's loops
 * after 65535 iterations in all, and one invocation walking a long slice
 * leaves a GPU idle. Each CARRIES dispatch walks at most
 * TSR__VK_SCAN_CARRY_CHUNKS chunks per slice. */
#define TSR__VK_SCAN_CHUNK 1024
#define TSR__VK_SCAN_SHORT_CHUNKS 8u
#define TSR__VK_SCAN_CARRY_CHUNKS 32768
enum { TSR__VK_SCAN_TOTALS = 1, TSR__VK_SCAN_CARRIES = 2, TSR__VK_SCAN_APPLY = 3 };

static int tsr__vk_scan_staged(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                               const uint32_t *meta, const struct tsr__vk_window *io,
                               uint64_t slices, uint64_t length)
{
    uint64_t chunks = (length + TSR__VK_SCAN_CHUNK - 1) / TSR__VK_SCAN_CHUNK;
    uint64_t items = slices * chunks, bytes = (items + slices) * 16;
    if (bytes > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "%llu slices of %llu elements need more scratch than 4 GiB",
                             (unsigned long long)slices, (unsigned long long)length);
    struct tsr__vk_buffer *scratch;
    int status = tsr__vk_memory_alloc(&b->memory, (size_t)bytes, &scratch);
    if (status != TSR_OK)
        return status;
    /* A fresh allocation starts aligned: the shader addresses it from 0. */
    struct tsr__vk_window s = {scratch, scratch->offset, bytes, 0};
    struct tsr__vk_window windows[3] = {s, io[1], s};
    struct tsr__vk_launch stage = *l;
    struct tsr__vk_push push = {.numel = (uint32_t)slices, .scalar = {(uint32_t)chunks}};
    uint32_t local = b->pipelines.local_size;
    stage.spec.mode = l->spec.mode | TSR__VK_SCAN_TOTALS << 1;
    status = tsr__vk_record_raw(b, &stage, meta, windows, 2, &push, (items + local - 1) / local);
    stage.spec.mode = l->spec.mode | TSR__VK_SCAN_CARRIES << 1;
    for (uint64_t c = 0; c < chunks && status == TSR_OK; c += TSR__VK_SCAN_CARRY_CHUNKS) {
        push.scalar[1] = (uint32_t)c;
        push.scalar[2] = (uint32_t)(c + TSR__VK_SCAN_CARRY_CHUNKS < chunks
                                        ? c + TSR__VK_SCAN_CARRY_CHUNKS
                                        : chunks);
        status = tsr__vk_record_raw(b, &stage, meta, windows, 2, &push,
                                    (slices + local - 1) / local);
    }
    windows[0] = io[0];
    stage.spec.mode = l->spec.mode | TSR__VK_SCAN_APPLY << 1;
    if (status == TSR_OK)
        status =
            tsr__vk_record_raw(b, &stage, meta, windows, 3, &push, (items + local - 1) / local);
    tsr__vk_submit_release(&b->submit, scratch); /* once the batch is done */
    return status;
}

/* Metadata as scan.comp reads it; see there. */
static int tsr__vk_launch_scan(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                               int32_t dim)
{
    const tsr_tensor_desc *in = l->in[0], *out = l->out;
    int status = tsr__vk_scan_check(b, in, out, dim);
    if (status != TSR_OK)
        return status;
    int64_t shape[TSR_MAX_DIMS + 1], s_out[TSR_MAX_DIMS + 1], s_in[TSR_MAX_DIMS + 1];
    int outer = 0;
    int64_t length = in->ndim > 0 ? in->shape[dim] : 1, step_out = 0, step_in = 0;
    uint64_t slices = 1;
    int64_t so = tsr__vk_dtype_size(out->dtype), si = tsr__vk_dtype_size(in->dtype);
    for (int d = 0; d < in->ndim; ++d) {
        int64_t n = in->shape[d];
        if (d == dim) {
            step_out = n > 1 ? out->strides[d] * so : 0;
            step_in = n > 1 ? in->strides[d] * si : 0;
            continue;
        }
        slices = (uint64_t)n > UINT32_MAX || slices * (uint64_t)n > UINT32_MAX
                     ? (uint64_t)UINT32_MAX + 1
                     : slices * (uint64_t)n;
        if (n == 1)
            continue;
        int last = outer - 1;
        if (last >= 0 && s_out[last] == out->strides[d] * so * n &&
            s_in[last] == in->strides[d] * si * n) {
            shape[last] *= n;
            s_out[last] = out->strides[d] * so;
            s_in[last] = in->strides[d] * si;
            continue;
        }
        shape[outer] = n;
        s_out[outer] = out->strides[d] * so;
        s_in[outer++] = in->strides[d] * si;
    }
    if (length == 0 || slices == 0)
        return TSR_OK;
    if (slices > UINT32_MAX || (uint64_t)length > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "scans handle at most 2^32 - 1 slices and elements per slice");
    if (!in->data || !out->data)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "an operand has no memory");
    /* The windows cover the other dims and the scanned one. */
    struct tsr__vk_window windows[2];
    shape[outer] = length;
    s_out[outer] = step_out;
    s_in[outer] = step_in;
    status = tsr__vk_window_for(b, out, 0, shape, s_out, outer + 1, &windows[0]);
    if (status == TSR_OK)
        status = tsr__vk_window_for(b, in, 1, shape, s_in, outer + 1, &windows[1]);
    if (status != TSR_OK)
        return status;
    uint32_t meta[TSR__VK_META_WORDS];
    memset(meta, 0, sizeof meta);
    meta[0] = windows[0].base;
    meta[1] = windows[1].base;
    meta[2] = (uint32_t)outer;
    meta[3] = (uint32_t)length;
    for (int d = 0; d < outer; ++d) {
        meta[4 + d] = (uint32_t)shape[d];
        meta[20 + d] = (uint32_t)s_out[d];
        meta[36 + d] = (uint32_t)s_in[d];
    }
    meta[52] = (uint32_t)step_out;
    meta[53] = (uint32_t)step_in;
    if ((uint64_t)length > TSR__VK_SCAN_SHORT_CHUNKS * TSR__VK_SCAN_CHUNK)
        return tsr__vk_scan_staged(b, l, meta, windows, slices, (uint64_t)length);
    struct tsr__vk_push push = {.numel = (uint32_t)slices, .ndim = (uint32_t)outer};
    uint64_t groups = (slices + b->pipelines.local_size - 1) / b->pipelines.local_size;
    return tsr__vk_record_raw(b, l, meta, windows, 2, &push, groups);
}

int tsr__vk_kernel_scan(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    int two = args && (args->op == TSR_OP_CUMMAX || args->op == TSR_OP_CUMMIN);
    int status =
        tsr__vk_one_input_args(b, args, 1 + two, sizeof(tsr_scan_attrs), "scans", "tsr_scan_attrs");
    if (status != TSR_OK)
        return status;
    const tsr_scan_attrs *attrs = args->attrs;
    int32_t dtype = args->inputs[0].dtype;
    if (!tsr__vk_scan_supported(b, args->op, dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "no kernel for input dtype %s",
                             tsr__vk_dtype_name(dtype));
    if (args->outputs[0].dtype != dtype)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "output is %s, expected %s",
                             tsr__vk_dtype_name(args->outputs[0].dtype),
                             tsr__vk_dtype_name(dtype));
    if (two && args->outputs[1].dtype != TSR_INT64)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "output 1 (indices) is %s, expected int64",
                             tsr__vk_dtype_name(args->outputs[1].dtype));
    /* Both outputs checked before either is recorded. */
    for (int k = 0; k <= two; ++k) {
        status = tsr__vk_scan_check(b, &args->inputs[0], &args->outputs[k], attrs->dim);
        if (status != TSR_OK)
            return status;
    }
    struct tsr__vk_launch l;
    memset(&l, 0, sizeof l);
    l.shader = tsr__vk_scan_shader(b, dtype);
    l.in[0] = &args->inputs[0];
    l.num_in = 1;
    pthread_mutex_lock(&b->lock);
    if (two) { /* indices first: the values may overwrite the input in place */
        l.spec = (struct tsr__vk_spec){args->op, dtype, TSR_INT64, 1};
        l.out = &args->outputs[1];
        status = tsr__vk_launch_scan(b, &l, attrs->dim);
    }
    l.spec = (struct tsr__vk_spec){args->op, dtype, dtype, 0};
    l.out = &args->outputs[0];
    if (status == TSR_OK)
        status = tsr__vk_launch_scan(b, &l, attrs->dim);
    pthread_mutex_unlock(&b->lock);
    return status;
}
