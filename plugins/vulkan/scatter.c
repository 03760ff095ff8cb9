/* scatter (every reduce), index_add and index_copy (shaders/scatter.comp),
 * with the index checks and dispatch of index.c: every index is checked
 * before anything is written. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"
#include "scalar.h"

/* scatter.comp restates these. */
_Static_assert(TSR_REDUCE_NONE == 0 && TSR_REDUCE_SUM == 1 && TSR_REDUCE_PROD == 2 &&
                   TSR_REDUCE_MEAN == 3 && TSR_REDUCE_AMAX == 4 && TSR_REDUCE_AMIN == 5,
               "scatter.comp's R_* values");

/* The scatter shader: the wide one (int64 and double arithmetic, as the
 * reference) wherever the device has it. */
int tsr__vk_scatter_shader(const struct tsr__vk_device *dev)
{
    return tsr__vk_rows_wide(dev, TSR__VK_SHADER_SCATTER_WIDE) ? TSR__VK_SHADER_SCATTER_WIDE
                                                               : TSR__VK_SHADER_SCATTER;
}

/* Dtypes scatter.comp combines (every reduce, index_add): int64, float64
 * and the complex ones only in the wide variant. */
int tsr__vk_combines(const struct tsr__vk_device *dev, int32_t dtype)
{
    if (dtype == TSR_INT64 || dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 ||
        dtype == TSR_COMPLEX128)
        return tsr__vk_scatter_shader(dev) == TSR__VK_SHADER_SCATTER_WIDE;
    return dtype == TSR_BOOL || dtype == TSR_UINT8 || dtype == TSR_INT8 || dtype == TSR_INT16 ||
           dtype == TSR_INT32 || dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 ||
           dtype == TSR_FLOAT32;
}

/* The scalar (scatter's value, index_add's alpha) as the dtype's bits:
 * integers keep their low bits, as the reference's wrapping conversion. */
static int tsr__vk_index_scalar(struct tsr__vk_backend *b, const tsr_scalar *value, int32_t dtype,
                                uint32_t scalar[4])
{
    uint64_t bits[2] = {0, 0};
    if (dtype == TSR_BOOL) {
        bits[0] = tsr__vk_scalar_as_double(value) != 0.0;
    } else if (dtype == TSR_UINT8 || dtype == TSR_INT8 || dtype == TSR_INT16 ||
               dtype == TSR_INT32 || dtype == TSR_INT64) {
        bits[0] = (uint64_t)tsr__vk_scalar_as_int(value);
    } else {
        char why[128];
        int status = tsr__vk_scalar_bits(value, dtype, bits, why, sizeof why);
        if (status != TSR_OK)
            return tsr__vk_error(b->host, status, "%s", why);
    }
    tsr__vk_put64(&scalar[0], bits[0]);
    tsr__vk_put64(&scalar[2], bits[1]);
    return TSR_OK;
}

/* Shapes of scatter (self, index, src?) and index_add/index_copy (self,
 * index [n], source): `walk` is the tensor whose positions are visited. */
static int tsr__vk_scatter_shapes(const tsr_kernel_args *args, int dim, int scatter, int has_src)
{
    const tsr_tensor_desc *self = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *src = has_src ? &args->inputs[2] : NULL, *out = &args->outputs[0];
    int nd = out->ndim;
    if (dim < 0 || dim >= nd || self->ndim != nd || (src && src->ndim != nd) ||
        index->ndim != (scatter ? nd : 1))
        return 0;
    for (int d = 0; d < nd; ++d) {
        if (self->shape[d] != out->shape[d])
            return 0;
        if (scatter && ((d != dim && index->shape[d] > out->shape[d]) ||
                        (src && index->shape[d] > src->shape[d])))
            return 0;
        if (!scatter && src->shape[d] != (d == dim ? index->shape[0] : out->shape[d]))
            return 0;
    }
    return self->dtype == out->dtype && (!src || src->dtype == out->dtype);
}

int tsr__vk_kernel_scatter(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    const tsr_index_attrs *attrs;
    int scatter = args && args->op == TSR_OP_SCATTER;
    int has_src = !(scatter && args->num_inputs == 2);
    int status = tsr__vk_index_args(b, args, has_src ? 3 : 2, &attrs);
    if (status != TSR_OK)
        return status;
    const char *name = scatter                        ? "scatter"
                       : args->op == TSR_OP_INDEX_ADD ? "index_add"
                                                      : "index_copy";
    int scalar_src = scatter && (attrs->flags & TSR_INDEX_SCALAR_SRC);
    if (scalar_src == has_src)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "%s: TSR_INDEX_SCALAR_SRC goes with 2 inputs, a src tensor with 3",
                             name);
    int dim = attrs->dim, reduce = scatter ? attrs->reduce : TSR_REDUCE_NONE;
    if (!tsr__vk_scatter_shapes(args, dim, scatter, has_src))
        return tsr__vk_dims_error(b, name);
    const tsr_tensor_desc *out = &args->outputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *walk = scatter ? index : &args->inputs[2];
    int32_t dtype = out->dtype;
    if (reduce < TSR_REDUCE_NONE || reduce > TSR_REDUCE_AMIN)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s: unknown reduce %d", name,
                             reduce);
    if ((reduce != TSR_REDUCE_NONE || args->op == TSR_OP_INDEX_ADD) &&
        !tsr__vk_combines(&b->device, dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: cannot combine %s here", name,
                             tsr__vk_dtype_name(dtype));
    int include = reduce != TSR_REDUCE_NONE && (attrs->flags & TSR_INDEX_INCLUDE_SELF);
    struct tsr__vk_launch l = {
        .shader = tsr__vk_scatter_shader(&b->device),
        .spec = {args->op, dtype, dtype, reduce | (include ? 8 : 0) | (scalar_src ? 16 : 0)},
        .out = out,
        .in = {index, has_src ? &args->inputs[2] : NULL},
        .num_in = has_src ? 2 : 1};
    if (scalar_src || args->op == TSR_OP_INDEX_ADD)
        status = tsr__vk_index_scalar(b, &attrs->value, dtype, l.scalar);
    /* One invocation per slice: the walked tensor with dim of extent 1. */
    struct tsr__vk_custom c;
    memset(&c, 0, sizeof c);
    c.ndim = out->ndim;
    int64_t slices = 1;
    for (int d = 0; d < c.ndim; ++d) {
        c.shape[d] = d == dim ? 1 : walk->shape[d];
        c.stride[0][d] = out->strides[d];
        c.stride[1][d] = scatter ? index->strides[d] : 0;
        c.stride[2][d] = has_src ? args->inputs[2].strides[d] : 0;
        slices *= c.shape[d];
    }
    c.extra[0] = (uint32_t)walk->shape[dim];
    if (status == TSR_OK)
        status = tsr__vk_byte_stride(b, out, dim, &c.extra[1]);
    if (status == TSR_OK)
        status = tsr__vk_byte_stride(b, index, scatter ? dim : 0, &c.extra[2]);
    if (status == TSR_OK && has_src)
        status = tsr__vk_byte_stride(b, &args->inputs[2], dim, &c.extra[3]);
    c.extra[4] = (uint32_t)out->shape[dim];
    if (status == TSR_OK)
        status = tsr__vk_elements(b, walk->shape[dim] == 0 ? 0 : slices, &c);
    /* One invocation walks its slice's index positions in order (twice
     * without self, and once per target for mean): too long for llvmpipe's
     * loop limit, it fails cleanly rather than stopping short. */
    uint64_t w = b->pipelines.local_size, len = (uint64_t)walk->shape[dim];
    uint64_t walks = len * (reduce != TSR_REDUCE_NONE && !include ? 2 : 1) +
                     (reduce == TSR_REDUCE_MEAN ? len * (uint64_t)out->shape[dim] : 0);
    if (status == TSR_OK)
        status = tsr__vk_loop_budget(b, name, (slices + (int64_t)w - 1) / (int64_t)w,
                                     (int64_t)len, walks + 40);
    if (status != TSR_OK)
        return status;
    return tsr__vk_index_run(b, name, index, dim, out->shape[dim], &args->inputs[0], &l, &c);
}
