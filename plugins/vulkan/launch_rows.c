#include "launch_rows.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "kernels.h"

int tsr__vk_rows_wide(const struct tsr__vk_device *dev, int shader)
{
    const char *narrow = getenv("TESSERA_VULKAN_NARROW_ROWS");
    return !(narrow && narrow[0] == '1') && tsr__vk_shader_supported(dev, shader);
}

int64_t tsr__vk_desc_numel(const tsr_tensor_desc *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; ++d) {
        if (t->shape[d] < 0)
            return -1;
        n *= t->shape[d];
    }
    return n;
}

int tsr__vk_same_view(const tsr_tensor_desc *a, const tsr_tensor_desc *b)
{
    if (a->data != b->data || a->byte_offset != b->byte_offset || a->ndim != b->ndim ||
        a->dtype != b->dtype)
        return 0;
    for (int d = 0; d < a->ndim; ++d)
        if (a->shape[d] != b->shape[d] || (a->shape[d] > 1 && a->strides[d] != b->strides[d]))
            return 0;
    return 1;
}

/* The window covering all of operand k. */
static int tsr__vk_whole_window(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                                struct tsr__vk_window *w)
{
    if (!t->data)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "operand %d has no memory", k);
    int64_t size = tsr__vk_dtype_size(t->dtype);
    if (size == 0)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "operand %d has dtype id %d", k, t->dtype);
    if (t->ndim < 0 || t->ndim > TSR_MAX_DIMS || t->byte_offset < 0 || t->byte_offset % size)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "operand %d: rank %d or byte offset %lld is invalid", k, t->ndim,
                             (long long)t->byte_offset);
    int64_t stride[TSR_MAX_DIMS];
    for (int d = 0; d < t->ndim; ++d) {
        if (t->strides[d] < 0)
            return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                 "operand %d has a negative stride", k);
        stride[d] = t->shape[d] == 1 ? 0 : t->strides[d] * size;
    }
    return tsr__vk_window_for(b, t, k, t->shape, stride, t->ndim, w);
}

int tsr__vk_launch_custom(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                          const struct tsr__vk_custom *c)
{
    const tsr_tensor_desc *ops[4] = {l->out, l->in[0], l->in[1], l->in[2]};
    int count = 1 + l->num_in;
    if (c->ndim < 1 || c->ndim > TSR_MAX_DIMS || count > 4)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "a dispatch of rank %d", c->ndim);
    struct tsr__vk_window windows[4];
    uint32_t meta[TSR__VK_META_WORDS];
    memset(meta, 0, sizeof meta);
    for (int k = 0; k < count; ++k) {
        int64_t n = tsr__vk_desc_numel(ops[k]);
        if (n < 0)
            return tsr__vk_error(b->host, TSR_ERR_SHAPE, "operand %d has a negative extent", k);
        if (n == 0 && k > 0) {
            windows[k] = windows[0];
            windows[k].base = 0;
            continue;
        }
        int status = tsr__vk_whole_window(b, ops[k], k, &windows[k]);
        if (status != TSR_OK)
            return status;
        meta[TSR__VK_META_BASE + k] = windows[k].base;
        int64_t size = tsr__vk_dtype_size(ops[k]->dtype);
        for (int d = 0; d < c->ndim; ++d) {
            int64_t bytes = c->shape[d] > 1 ? c->stride[k][d] * size : 0;
            if (bytes < 0 || (uint64_t)bytes > UINT32_MAX)
                return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                                     "operand %d: a stride of %lld bytes", k, (long long)bytes);
            meta[TSR__VK_META_STRIDES + k * TSR_MAX_DIMS + d] = (uint32_t)bytes;
        }
    }
    for (int d = 0; d < c->ndim; ++d) {
        if (c->shape[d] < 0 || (uint64_t)c->shape[d] > UINT32_MAX)
            return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "an extent of %lld",
                                 (long long)c->shape[d]);
        meta[TSR__VK_META_SHAPE + d] = (uint32_t)c->shape[d];
    }
    if (count < 4)
        memcpy(&meta[TSR__VK_META_STRIDES + 3 * TSR_MAX_DIMS], c->extra, sizeof c->extra);
    struct tsr__vk_push push = {.numel = c->numel, .ndim = (uint32_t)c->ndim};
    memcpy(push.scalar, l->scalar, sizeof push.scalar);
    return tsr__vk_record_raw(b, l, meta, windows, count, &push, c->groups);
}

/* ------------------------------------------------------------------------ */
/* The row ops (softmax.c, norm.c)                                          */
/* ------------------------------------------------------------------------ */

/* The shader running `op` (softmax or norm family) on `dtype`, -1 if none. */
int tsr__vk_nn_shader(const struct tsr__vk_device *dev, int32_t op, int32_t dtype)
{
    int norm = op == TSR_OP_LAYER_NORM || op == TSR_OP_RMS_NORM;
    int wide = norm ? TSR__VK_SHADER_NORM_WIDE : TSR__VK_SHADER_SOFTMAX_WIDE;
    if (tsr__vk_rows_wide(dev, wide))
        return wide;
    if (dtype == TSR_FLOAT64)
        return -1;
    int narrow = norm ? TSR__VK_SHADER_NORM : TSR__VK_SHADER_SOFTMAX;
    return tsr__vk_shader_supported(dev, narrow) ? narrow : -1;
}

/* The dtypes the reference registers: PyTorch 1.13's CPU kernels (bfloat16,
 * float32, float64), and for rms_norm, whose composite form also runs in
 * float16, every floating dtype. */
tsr_kernel_fn tsr__vk_nn_kernel(const struct tsr__vk_backend *b, int32_t op, int32_t dtype)
{
    int cpu113 = dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64;
    int ok = cpu113 || (op == TSR_OP_RMS_NORM && dtype == TSR_FLOAT16);
    if (!ok || !tsr__vk_dtype_held(&b->device, dtype) ||
        tsr__vk_nn_shader(&b->device, op, dtype) < 0)
        return NULL;
    if (op == TSR_OP_SOFTMAX || op == TSR_OP_LOG_SOFTMAX)
        return tsr__vk_kernel_softmax;
    if (op == TSR_OP_LAYER_NORM || op == TSR_OP_RMS_NORM)
        return tsr__vk_kernel_norm;
    return NULL;
}

int tsr__vk_nn_dtype(struct tsr__vk_backend *b, int32_t op, const char *name,
                     const tsr_tensor_desc *t)
{
    if (!tsr__vk_nn_kernel(b, op, t->dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: dtype %s is not supported here", name,
                             tsr__vk_dtype_name(t->dtype));
    return TSR_OK;
}

int tsr__vk_same_extents(const tsr_tensor_desc *a, const tsr_tensor_desc *b, int from, int count)
{
    for (int d = 0; d < count; ++d)
        if (a->shape[from + d] != b->shape[d])
            return 0;
    return 1;
}

/* Rows of at most 2^32 - 1 elements, at most 2^32 - 1 of them. */
int tsr__vk_loop_budget(struct tsr__vk_backend *b, const char *name, int64_t rows, int64_t len,
                        uint64_t per_row)
{
    if (b->device.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU)
        return TSR_OK;
    uint64_t groups = rows < 65535 ? (uint64_t)rows : 65535;
    uint64_t rows_per_group = groups ? ((uint64_t)rows + groups - 1) / groups : 0;
    if (rows_per_group * per_row <= TSR__VK_LOOP_BUDGET)
        return TSR_OK;
    return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                         "%s: %lld rows of %lld elements take about %llu loop iterations per "
                         "invocation; this CPU device (llvmpipe) stops shader loops after "
                         "65535, and splitting rows is not implemented",
                         name, (long long)rows, (long long)len,
                         (unsigned long long)(rows_per_group * per_row));
}

int tsr__vk_row_sizes(struct tsr__vk_backend *b, const char *name, int64_t rows, int64_t len)
{
    if (rows < 0 || len < 0)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "%s: a negative extent", name);
    if ((uint64_t)rows > UINT32_MAX || (uint64_t)len > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "%s: %lld rows of %lld; this backend handles at most 2^32 - 1", name,
                             (long long)rows, (long long)len);
    return TSR_OK;
}
