/* index_select and gather (shaders/index_gather.comp), the kernel lookup of
 * the indexing ops, and what they share with scatter.c and rearrange.c
 * (launch_rows.h).
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
#include "transfer.h"

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
int tsr__vk_index_args(struct tsr__vk_backend *b, const tsr_kernel_args *args, int inputs,
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

int tsr__vk_dims_error(struct tsr__vk_backend *b, const char *name)
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
                               .scalar = {(uint32_t)size},
                               .untiled = 1};
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
int tsr__vk_byte_stride(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int dim, uint32_t *out)
{
    int64_t bytes = t->shape[dim] > 1 ? t->strides[dim] * tsr__vk_dtype_size(t->dtype) : 0;
    if ((uint64_t)bytes > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "a stride of %lld bytes",
                             (long long)bytes);
    *out = (uint32_t)bytes;
    return TSR_OK;
}

int tsr__vk_elements(struct tsr__vk_backend *b, int64_t n, struct tsr__vk_custom *c)
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
void tsr__vk_custom_over(struct tsr__vk_custom *c, const tsr_tensor_desc *out)
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
int tsr__vk_index_run(struct tsr__vk_backend *b, const char *name, const tsr_tensor_desc *index,
                      int dim, int64_t size, const tsr_tensor_desc *self,
                      const struct tsr__vk_launch *l, const struct tsr__vk_custom *c)
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
