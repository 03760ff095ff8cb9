/* index_select, gather, scatter, index_add, index_copy, tril and triu
 * (shaders/index_gather.comp, scatter.comp, tri.comp).
 *
 * Every index is checked before anything is written: a first pass
 * (shaders/index_check.comp) records the first out-of-range position in the
 * status word and the host waits for it, as integer division does for zero
 * divisors. On failure the bad value is read back and the call fails with
 * TSR_ERR_INDEX, the output untouched. Index tensors are int64, read as two
 * words, so no shaderInt64 is needed beyond holding int64 tensors at all. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"
#include "scalar.h"
#include "transfer.h"

/* scatter.comp restates these. */
_Static_assert(TSR_REDUCE_NONE == 0 && TSR_REDUCE_SUM == 1 && TSR_REDUCE_PROD == 2 &&
                   TSR_REDUCE_MEAN == 3 && TSR_REDUCE_AMAX == 4 && TSR_REDUCE_AMIN == 5,
               "scatter.comp's R_* values");

/* The scatter shader: the wide one (int64 and double arithmetic, as the
 * reference) wherever the device has it. */
static int tsr__vk_scatter_shader(const struct tsr__vk_device *dev)
{
    return tsr__vk_rows_wide(dev, TSR__VK_SHADER_SCATTER_WIDE) ? TSR__VK_SHADER_SCATTER_WIDE
                                                               : TSR__VK_SHADER_SCATTER;
}

/* Dtypes scatter.comp combines (every reduce, index_add): int64, float64
 * and the complex ones only in the wide variant. */
static int tsr__vk_combines(const struct tsr__vk_device *dev, int32_t dtype)
{
    if (dtype == TSR_INT64 || dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 ||
        dtype == TSR_COMPLEX128)
        return tsr__vk_scatter_shader(dev) == TSR__VK_SHADER_SCATTER_WIDE;
    return dtype == TSR_BOOL || dtype == TSR_UINT8 || dtype == TSR_INT8 || dtype == TSR_INT16 ||
           dtype == TSR_INT32 || dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 ||
           dtype == TSR_FLOAT32;
}

tsr_kernel_fn tsr__vk_index_kernel(const struct tsr__vk_backend *b, int32_t op, int32_t dtype)
{
    const struct tsr__vk_device *dev = &b->device;
    if (!tsr__vk_dtype_held(dev, dtype) || !tsr__vk_shader_supported(dev, TSR__VK_SHADER_COPY))
        return NULL;
    int indexed = tsr__vk_dtype_held(dev, TSR_INT64) &&
                  tsr__vk_shader_supported(dev, TSR__VK_SHADER_INDEX_CHECK);
    switch (op) {
    case TSR_OP_INDEX_SELECT:
    case TSR_OP_GATHER:
        return indexed && tsr__vk_shader_supported(dev, TSR__VK_SHADER_INDEX_GATHER)
                   ? tsr__vk_kernel_gather
                   : NULL;
    case TSR_OP_SCATTER:
    case TSR_OP_INDEX_ADD:
    case TSR_OP_INDEX_COPY:
        if (op != TSR_OP_INDEX_COPY && !tsr__vk_combines(dev, dtype))
            return NULL;
        return indexed && tsr__vk_shader_supported(dev, tsr__vk_scatter_shader(dev))
                   ? tsr__vk_kernel_scatter
                   : NULL;
    case TSR_OP_TRIL:
    case TSR_OP_TRIU:
        return tsr__vk_shader_supported(dev, TSR__VK_SHADER_TRI) ? tsr__vk_kernel_tri : NULL;
    }
    return NULL;
}

/* Argument block, attributes and descriptors (rank 1..TSR_MAX_DIMS, known
 * dtype, no negative extents or strides). */
static int tsr__vk_index_args(struct tsr__vk_backend *b, const tsr_kernel_args *args, int inputs,
                              const tsr_index_attrs **attrs)
{
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != inputs ||
        args->num_outputs != 1 || !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "expected %d inputs and 1 output",
                             inputs);
    *attrs = args->attrs;
    if (!*attrs || (*attrs)->struct_size < offsetof(tsr_index_attrs, value) + sizeof(tsr_scalar))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "missing or too small tsr_index_attrs");
    for (int k = 0; k <= inputs; ++k) {
        const tsr_tensor_desc *t = k < inputs ? &args->inputs[k] : &args->outputs[0];
        if (!tsr__vk_dtype_held(&b->device, t->dtype))
            return tsr__vk_error(b->host, TSR_ERR_DTYPE, "operand %d: dtype %s is not held here", k,
                                 tsr__vk_dtype_name(t->dtype));
        if (t->ndim < 1 || t->ndim > TSR_MAX_DIMS || !t->shape || !t->strides)
            return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                 "operand %d: rank %d outside 1..%d", k, t->ndim, TSR_MAX_DIMS);
        for (int d = 0; d < t->ndim; ++d)
            if (t->shape[d] < 0 || t->strides[d] < 0)
                return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                                     "operand %d: negative extent or stride", k);
    }
    return TSR_OK;
}

static int tsr__vk_dims_error(struct tsr__vk_backend *b, const char *name)
{
    return tsr__vk_error(b->host, TSR_ERR_SHAPE, "%s: operand shapes or dim do not fit", name);
}

/* Records the check pass, waits, and names the first index outside
 * [0, size) in C order. Called with the lock held. */
static int tsr__vk_check_indices(struct tsr__vk_backend *b, const char *name,
                                 const tsr_tensor_desc *index, int dim, int64_t size)
{
    if (index->dtype != TSR_INT64)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: index is %s, expected int64", name,
                             tsr__vk_dtype_name(index->dtype));
    int64_t n = tsr__vk_desc_numel(index);
    if (n == 0)
        return TSR_OK;
    if ((uint64_t)size >= UINT32_MAX || (uint64_t)n >= UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "%s: %lld indices into %lld", name,
                             (long long)n, (long long)size);
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_INDEX_CHECK,
                               .spec = {TSR_OP_INDEX_SELECT, TSR_INT64, TSR_INT64, 0},
                               .out = index,
                               .scalar = {(uint32_t)size}};
    int status = tsr__vk_launch(b, &l);
    if (status == TSR_OK)
        status = tsr__vk_submit_wait(&b->submit);
    volatile uint32_t *word = (volatile uint32_t *)b->submit.status.mapped + 1;
    uint32_t seen = *word;
    *word = 0;
    if (status != TSR_OK || seen == 0)
        return status;
    uint64_t pos = ~seen, offset = 0;
    for (int d = index->ndim - 1; d >= 0; --d) {
        offset += pos % (uint64_t)index->shape[d] * (uint64_t)index->strides[d];
        pos /= (uint64_t)index->shape[d];
    }
    int64_t value = 0;
    status = tsr__vk_transfer_download(
        b, &value, index->data, (size_t)index->byte_offset + offset * sizeof value, sizeof value);
    if (status != TSR_OK)
        return status;
    return tsr__vk_error(b->host, TSR_ERR_INDEX,
                         "%s: index %lld is out of bounds for dimension %d with size %lld", name,
                         (long long)value, dim, (long long)size);
}

/* Copies self into the output unless they are the same view. */
static int tsr__vk_copy_self(struct tsr__vk_backend *b, const tsr_tensor_desc *out,
                             const tsr_tensor_desc *self)
{
    if (tsr__vk_same_view(out, self) || tsr__vk_desc_numel(out) == 0)
        return TSR_OK;
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_COPY,
                               .spec = {TSR_OP_COPY, out->dtype, out->dtype, 0},
                               .out = out,
                               .in = {self},
                               .num_in = 1};
    return tsr__vk_launch(b, &l);
}

/* A byte stride that shaders hold in 32 bits. */
static int tsr__vk_byte_stride(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int dim,
                               uint32_t *out)
{
    int64_t bytes = t->shape[dim] > 1 ? t->strides[dim] * tsr__vk_dtype_size(t->dtype) : 0;
    if ((uint64_t)bytes > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "a stride of %lld bytes",
                             (long long)bytes);
    *out = (uint32_t)bytes;
    return TSR_OK;
}

static int tsr__vk_elements(struct tsr__vk_backend *b, int64_t n, struct tsr__vk_custom *c)
{
    if ((uint64_t)n > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "%lld elements; this backend handles at most 2^32 - 1 per kernel",
                             (long long)n);
    c->numel = (uint32_t)n;
    c->groups = ((uint64_t)n + b->pipelines.local_size - 1) / b->pipelines.local_size;
    return TSR_OK;
}

/* c walking out's own shape, out's strides for operand 0, the rest zero. */
static void tsr__vk_custom_over(struct tsr__vk_custom *c, const tsr_tensor_desc *out)
{
    memset(c, 0, sizeof *c);
    c->ndim = out->ndim;
    for (int d = 0; d < out->ndim; ++d) {
        c->shape[d] = out->shape[d];
        c->stride[0][d] = out->strides[d];
    }
}

/* Under the lock, each step only once the one before has succeeded: the
 * index check (when `index` is given, against extent `size`), self copied
 * into the output (when `self` is given), the dispatch (when it has any
 * elements). */
static int tsr__vk_index_run(struct tsr__vk_backend *b, const char *name,
                             const tsr_tensor_desc *index, int dim, int64_t size,
                             const tsr_tensor_desc *self, const struct tsr__vk_launch *l,
                             const struct tsr__vk_custom *c)
{
    pthread_mutex_lock(&b->lock);
    int status = index ? tsr__vk_check_indices(b, name, index, dim, size) : TSR_OK;
    if (status == TSR_OK && self)
        status = tsr__vk_copy_self(b, l->out, self);
    if (status == TSR_OK && c->numel > 0)
        status = tsr__vk_launch_custom(b, l, c);
    pthread_mutex_unlock(&b->lock);
    return status;
}

/* index_select (input, index [n]) and gather (input, index): out[p] is
 * input[p with dim replaced by the index]. */
int tsr__vk_kernel_gather(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    const tsr_index_attrs *attrs;
    int status = tsr__vk_index_args(b, args, 2, &attrs);
    if (status != TSR_OK)
        return status;
    int select = args->op == TSR_OP_INDEX_SELECT;
    const char *name = select ? "index_select" : "gather";
    const tsr_tensor_desc *x = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *out = &args->outputs[0];
    int nd = out->ndim, dim = attrs->dim;
    int fits =
        x->ndim == nd && dim >= 0 && dim < nd && (select ? index->ndim == 1 : index->ndim == nd);
    for (int d = 0; fits && d < nd; ++d) {
        int64_t want = select ? (d == dim ? index->shape[0] : x->shape[d]) : index->shape[d];
        fits = out->shape[d] == want && (select || d == dim || index->shape[d] <= x->shape[d]);
    }
    if (!fits)
        return tsr__vk_dims_error(b, name);
    if (x->dtype != out->dtype)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: output is %s, input %s", name,
                             tsr__vk_dtype_name(out->dtype), tsr__vk_dtype_name(x->dtype));
    struct tsr__vk_custom c;
    tsr__vk_custom_over(&c, out);
    for (int d = 0; d < nd; ++d) {
        c.stride[1][d] = d == dim ? 0 : x->strides[d];
        c.stride[2][d] = select ? (d == dim ? index->strides[0] : 0) : index->strides[d];
    }
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_INDEX_GATHER,
                               .spec = {TSR_OP_GATHER, x->dtype, x->dtype, 0},
                               .out = out,
                               .in = {x, index},
                               .num_in = 2};
    status = tsr__vk_byte_stride(b, x, dim, &l.scalar[0]);
    if (status == TSR_OK)
        status = tsr__vk_elements(b, tsr__vk_desc_numel(out), &c);
    if (status != TSR_OK)
        return status;
    return tsr__vk_index_run(b, name, index, dim, x->shape[dim], NULL, &l, &c);
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
    if (status != TSR_OK)
        return status;
    return tsr__vk_index_run(b, name, index, dim, out->shape[dim], &args->inputs[0], &l, &c);
}

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
