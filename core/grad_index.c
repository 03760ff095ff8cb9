/* Gradients of the indexing, joining and sorting ops, as PyTorch's
 * derivatives.yaml writes them. Every formula is written with public ops
 * (narrow, index_add, scatter_add, gather, scatter, pad, where, tril), which
 * record their own nodes under create_graph, so each gradient is itself
 * differentiable. */
#include "grad_index.h"

#include "autograd.h"
#include "error.h"
#include "index_util.h"

#include <string.h>

/* A node for `name` with its inputs (NULL entries and tensors that need no
 * gradient get no edge), or NULL in *out when no gradient is wanted. */
static tsr_status start(const char *name, tsr__backward_fn fn, const tsr_tensor *const *inputs,
                        int count, int saved, size_t attrs_size, const tsr_tensor *out,
                        tsr__node **node)
{
    *node = NULL;
    if (!tsr__grad_wanted(inputs, count) || !tsr_dtype_is_floating(out->dtype))
        return TSR_OK;
    tsr_status st = tsr__node_create(name, fn, count, 1, saved, attrs_size, node);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_set_input(*node, i, inputs[i]);
    if (st != TSR_OK) {
        tsr__node_release(*node);
        *node = NULL;
    }
    return st;
}

/* Saves `saved` (may be NULL), attaches out and lets out own the node. */
static tsr_status finish(tsr__node *node, tsr_status st, const tsr_tensor *saved, tsr_tensor *out)
{
    if (!node)
        return st;
    if (st == TSR_OK && saved)
        st = tsr__node_save(node, 0, saved, "index");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

/* zeros with the shape of input i and g's dtype and backend. */
static tsr_status zeros_for(tsr__node *node, int i, const tsr_tensor *g, tsr_tensor **out)
{
    const tsr__grad_meta *m = tsr__node_input_meta(node, i);
    return tsr_zeros(m->ndim, m->shape, tsr_tensor_dtype(g), tsr_tensor_backend(g), out);
}

static tsr_status retain_as(const tsr_tensor *g, tsr_tensor **out)
{
    tsr_tensor_retain(g);
    *out = (tsr_tensor *)g;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* cat                                                                       */
/* ------------------------------------------------------------------------ */

typedef struct cat_attrs {
    int dim;
    int64_t sizes[]; /* along dim; -1 for a skipped input */
} cat_attrs;

static tsr_status cat_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const cat_attrs *at = tsr__node_attrs(node);
    int64_t offset = 0;
    tsr_status st = TSR_OK;
    for (int i = 0; i < tsr__node_num_inputs(node) && st == TSR_OK; i++) {
        int64_t size = at->sizes[i];
        if (size < 0)
            continue;
        if (tsr__node_needs_grad(node, i))
            st = tsr_narrow(grads[0], at->dim, offset, size, &gi[i]);
        offset += size;
    }
    return st;
}

tsr_status tsr__grad_record_cat(const tsr_tensor *const *tensors, size_t count, int dim,
                                tsr_tensor *out)
{
    if (count > INT32_MAX)
        return tsr__set_error(TSR_ERR_AUTOGRAD, "cat: too many tensors to record");
    tsr__node *node;
    tsr_status st = start("cat", cat_backward, tensors, (int)count, 0,
                          sizeof(cat_attrs) + count * sizeof(int64_t), out, &node);
    if (node) {
        cat_attrs *at = tsr__node_attrs(node);
        at->dim = dim;
        for (size_t i = 0; i < count; i++) {
            const tsr_tensor *t = tensors[i];
            bool skipped = t->ndim == 1 && t->shape[0] == 0;
            at->sizes[i] = skipped ? -1 : t->shape[dim];
        }
    }
    return finish(node, st, NULL, out);
}

/* ------------------------------------------------------------------------ */
/* index_select, gather, embedding                                           */
/* ------------------------------------------------------------------------ */

typedef struct dim_attrs {
    int dim;
} dim_attrs;

static tsr_status index_select_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const dim_attrs *at = tsr__node_attrs(node);
    if (tsr__node_input_meta(node, 0)->ndim == 0)
        return retain_as(grads[0], &gi[0]); /* a 0-d input is its own result */
    tsr_tensor *index = NULL, *z = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK)
        st = zeros_for(node, 0, grads[0], &z);
    if (st == TSR_OK)
        st = tsr_index_add(z, at->dim, index, grads[0], tsr_scalar_int(1), &gi[0]);
    tsr_tensor_release(index);
    tsr_tensor_release(z);
    return st;
}

tsr_status tsr__grad_record_index_select(const tsr_tensor *t, int dim, const tsr_tensor *index,
                                         tsr_tensor *out)
{
    tsr__node *node;
    tsr_status st =
        start("index_select", index_select_backward, &t, 1, 1, sizeof(dim_attrs), out, &node);
    if (node)
        ((dim_attrs *)tsr__node_attrs(node))->dim = dim;
    return finish(node, st, index, out);
}

static tsr_status gather_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const dim_attrs *at = tsr__node_attrs(node);
    tsr_tensor *index = NULL, *z = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK)
        st = zeros_for(node, 0, grads[0], &z);
    if (st == TSR_OK)
        st = tsr_scatter_add(z, at->dim, index, grads[0], &gi[0]);
    tsr_tensor_release(index);
    tsr_tensor_release(z);
    return st;
}

tsr_status tsr__grad_record_gather(const tsr_tensor *t, int dim, const tsr_tensor *index,
                                   tsr_tensor *out)
{
    tsr__node *node;
    tsr_status st = start("gather", gather_backward, &t, 1, 1, sizeof(dim_attrs), out, &node);
    if (node)
        ((dim_attrs *)tsr__node_attrs(node))->dim = dim;
    return finish(node, st, index, out);
}

typedef struct embedding_attrs {
    bool has_padding;
    int64_t padding_idx; /* wrapped into [0, rows) */
} embedding_attrs;

/* Zeros row `row` of g (an index_copy of a zero row, so it stays recorded). */
static tsr_status zero_row(tsr_tensor *g, int64_t row, tsr_tensor **out)
{
    const int64_t *shape = tsr_tensor_shape(g);
    int64_t one_row[2] = {1, shape[1]};
    tsr_tensor *index = NULL, *zeros = NULL;
    tsr_status st = tsr__index_from_host("embedding", tsr_tensor_backend(g), &row, 1, &index);
    if (st == TSR_OK)
        st = tsr_zeros(2, one_row, tsr_tensor_dtype(g), tsr_tensor_backend(g), &zeros);
    if (st == TSR_OK)
        st = tsr_index_copy(g, 0, index, zeros, out);
    tsr_tensor_release(index);
    tsr_tensor_release(zeros);
    return st;
}

static tsr_status embedding_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const embedding_attrs *at = tsr__node_attrs(node);
    const tsr__grad_meta *m = tsr__node_input_meta(node, 0);
    int64_t rows_shape[2] = {-1, m->shape[1]};
    tsr_tensor *index = NULL, *rows = NULL, *z = NULL, *sum = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK)
        st = tsr_reshape(grads[0], 2, rows_shape, &rows);
    if (st == TSR_OK)
        st = zeros_for(node, 0, grads[0], &z);
    if (st == TSR_OK)
        st = tsr_index_add(z, 0, index, rows, tsr_scalar_int(1), &sum);
    if (st == TSR_OK && at->has_padding)
        st = zero_row(sum, at->padding_idx, &gi[0]);
    else if (st == TSR_OK)
        st = retain_as(sum, &gi[0]);
    tsr_tensor_release(index);
    tsr_tensor_release(rows);
    tsr_tensor_release(z);
    tsr_tensor_release(sum);
    return st;
}

tsr_status tsr__grad_record_embedding(const tsr_tensor *weight, const tsr_tensor *flat_indices,
                                      const int64_t *padding_idx, tsr_tensor *out)
{
    tsr__node *node;
    tsr_status st =
        start("embedding", embedding_backward, &weight, 1, 1, sizeof(embedding_attrs), out, &node);
    if (node && padding_idx) {
        embedding_attrs *at = tsr__node_attrs(node);
        at->has_padding = true;
        at->padding_idx = *padding_idx < 0 ? *padding_idx + weight->shape[0] : *padding_idx;
    }
    return finish(node, st, flat_indices, out);
}

/* ------------------------------------------------------------------------ */
/* tril, triu, masked_fill, pad                                              */
/* ------------------------------------------------------------------------ */

typedef struct triangle_attrs {
    bool lower;
    int64_t diagonal;
} triangle_attrs;

static tsr_status triangle_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const triangle_attrs *at = tsr__node_attrs(node);
    return at->lower ? tsr_tril(grads[0], at->diagonal, &gi[0])
                     : tsr_triu(grads[0], at->diagonal, &gi[0]);
}

tsr_status tsr__grad_record_triangle(tsr_op op, const tsr_tensor *t, int64_t diagonal,
                                     tsr_tensor *out)
{
    tsr__node *node;
    const char *name = op == TSR_OP_TRIL ? "tril" : "triu";
    tsr_status st = start(name, triangle_backward, &t, 1, 0, sizeof(triangle_attrs), out, &node);
    if (node) {
        triangle_attrs *at = tsr__node_attrs(node);
        at->lower = op == TSR_OP_TRIL;
        at->diagonal = diagonal;
    }
    return finish(node, st, NULL, out);
}

/* self: g where the mask is false; value: the sum of g where it is true. */
static tsr_status masked_fill_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_tensor *mask = tsr__gx_saved(&x, node, 0);
    tsr_operand zero = tsr_operand_scalar(tsr_scalar_int(0));
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], tsr__gx_where(&x, mask, zero, tsr_operand_tensor(grads[0])));
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *picked = tsr__gx_mask(&x, mask, grads[0]), *sum = NULL;
        if (picked) {
            /* its own statement: sum is read only after tsr_sum wrote it */
            tsr_status st = tsr_sum(picked, NULL, 0, false, TSR_DTYPE_INFER, &sum);
            sum = tsr__gx_keep(&x, st, sum);
        }
        tsr__gx_result(&x, &gi[1], sum);
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_masked_fill(const tsr_tensor *t, const tsr_tensor *mask,
                                        const tsr_tensor *value, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {t, value};
    tsr__node *node;
    tsr_status st = start("masked_fill", masked_fill_backward, inputs, 2, 1, 0, out, &node);
    return finish(node, st, mask, out);
}

typedef struct pad_attrs {
    int npad;
    int64_t pad[2 * TSR_MAX_DIMS];
} pad_attrs;

/* The constant pad's gradient is the pad that undoes it. */
static tsr_status pad_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const pad_attrs *at = tsr__node_attrs(node);
    int64_t undo[2 * TSR_MAX_DIMS];
    for (int i = 0; i < at->npad; i++)
        undo[i] = -at->pad[i];
    return tsr_pad(grads[0], undo, at->npad, TSR_PAD_CONSTANT, tsr_scalar_int(0), &gi[0]);
}

tsr_status tsr__grad_record_pad(const tsr_tensor *t, const int64_t *pad, int npad, tsr_tensor *out)
{
    tsr__node *node;
    tsr_status st = start("pad", pad_backward, &t, 1, 0, sizeof(pad_attrs), out, &node);
    if (node) {
        pad_attrs *at = tsr__node_attrs(node);
        at->npad = npad;
        memcpy(at->pad, pad, (size_t)npad * sizeof *pad);
    }
    return finish(node, st, NULL, out);
}

/* ------------------------------------------------------------------------ */
/* scatter, scatter_add, scatter_reduce (sum), index_add, index_copy         */
/* ------------------------------------------------------------------------ */

/* g gathered at index, zero-padded at the end of each dim to `shape` (src
 * may be larger than index). */
static tsr_status gather_padded(const tsr_tensor *g, int dim, const tsr_tensor *index,
                                const tsr__grad_meta *shape, tsr_tensor **out)
{
    tsr_tensor *picked = NULL;
    tsr_status st = tsr_gather(g, dim, index, &picked);
    int64_t pad[2 * TSR_MAX_DIMS];
    int n = shape->ndim;
    for (int i = 0; i < n; i++) {
        pad[2 * i] = 0;
        pad[2 * i + 1] = shape->shape[n - 1 - i] - tsr_tensor_shape(index)[n - 1 - i];
    }
    if (st == TSR_OK)
        st = tsr_pad(picked, pad, 2 * n, TSR_PAD_CONSTANT, tsr_scalar_int(0), out);
    tsr_tensor_release(picked);
    return st;
}

/* g with the slices index names along dim set to zero (index_copy's self). */
static tsr_status index_fill_zero(const tsr_tensor *g, int dim, const tsr_tensor *index,
                                  tsr_tensor **out)
{
    int ndim = tsr_tensor_ndim(g);
    int64_t shape[TSR_MAX_DIMS];
    memcpy(shape, tsr_tensor_shape(g), (size_t)ndim * sizeof *shape);
    if (ndim > 0)
        shape[dim] = tsr_tensor_numel(index);
    tsr_tensor *zeros = NULL;
    tsr_status st = tsr_zeros(ndim, shape, tsr_tensor_dtype(g), tsr_tensor_backend(g), &zeros);
    if (st == TSR_OK)
        st = tsr_index_copy(g, dim, index, zeros, out);
    tsr_tensor_release(zeros);
    return st;
}

/* The gradient for self of a scatter: g, or g with the scattered positions
 * zeroed when they did not keep (or reduce into) self's value. */
static tsr_status scatter_self_grad(const tsr__scatter_grad *at, const tsr_tensor *g,
                                    const tsr_tensor *index, tsr_tensor **out)
{
    bool replaced = at->reduce == TSR_REDUCE_NONE || !at->include_self;
    if (!replaced)
        return retain_as(g, out);
    return tsr_scatter_value(g, at->dim, index, tsr_scalar_int(0), TSR_REDUCE_NONE, out);
}

static tsr_status scatter_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const tsr__scatter_grad *at = tsr__node_attrs(node);
    const tsr_tensor *g = grads[0];
    tsr_tensor *index = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK && tsr__node_needs_grad(node, 0))
        st = at->kernel == TSR_OP_SCATTER     ? scatter_self_grad(at, g, index, &gi[0])
             : at->kernel == TSR_OP_INDEX_ADD ? retain_as(g, &gi[0])
                                              : index_fill_zero(g, at->dim, index, &gi[0]);
    if (st == TSR_OK && tsr__node_needs_grad(node, 1)) {
        if (at->kernel == TSR_OP_SCATTER) {
            st = gather_padded(g, at->dim, index, tsr__node_input_meta(node, 1), &gi[1]);
        } else {
            tsr_tensor *picked = NULL;
            st = tsr_index_select(g, at->dim, index, &picked);
            if (st == TSR_OK && at->kernel == TSR_OP_INDEX_ADD)
                st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(picked),
                                tsr_operand_scalar(at->alpha), &gi[1]);
            else if (st == TSR_OK)
                st = retain_as(picked, &gi[1]);
            tsr_tensor_release(picked);
        }
    }
    tsr_tensor_release(index);
    return st;
}

/* ---- scatter_reduce: prod, mean, amax, amin ---------------------------- */

/* As PyTorch 1.13's scatter_reduce_backward. Saved: the index (slot 0),
 * self, src and the result (prod, amax, amin). */
enum { SR_INDEX, SR_SELF, SR_SRC, SR_RESULT, SR_COUNT };

static tsr_operand T(const tsr_tensor *t)
{
    return tsr_operand_tensor(t);
}

static tsr_operand F(double v)
{
    return tsr_operand_scalar(tsr_scalar_float(v));
}

static tsr_tensor *gx_gather(tsr__gx *x, const tsr_tensor *t, int dim, const tsr_tensor *index)
{
    if (x->status != TSR_OK || !t || !index)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_gather(t, dim, index, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_scatter_add(tsr__gx *x, const tsr_tensor *t, int dim, const tsr_tensor *index,
                                  const tsr_tensor *src)
{
    if (x->status != TSR_OK || !t || !src)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_scatter_add(t, dim, index, src, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_scatter_reduce(tsr__gx *x, const tsr_tensor *t, int dim,
                                     const tsr_tensor *index, const tsr_tensor *src, int reduce,
                                     bool include_self)
{
    if (x->status != TSR_OK || !t || !src)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_scatter_reduce(t, dim, index, src, reduce, include_self, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_to(tsr__gx *x, const tsr_tensor *t, tsr_dtype dtype)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_to_dtype(t, dtype, &r);
    return tsr__gx_keep(x, st, r);
}

/* ones (or zeros) of t's shape in `dtype`. */
static tsr_tensor *gx_filled(tsr__gx *x, const tsr_tensor *t, double value, tsr_dtype dtype)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_full(tsr_tensor_ndim(t), tsr_tensor_shape(t), tsr_scalar_float(value),
                             dtype, tsr_tensor_backend(t), &r);
    return tsr__gx_keep(x, st, r);
}

/* src cut to index's shape (src may be larger along any dim). */
static tsr_tensor *gx_src_part(tsr__gx *x, const tsr_tensor *src, const tsr_tensor *index)
{
    if (x->status != TSR_OK || !src)
        return NULL;
    tsr_tensor_retain(src);
    tsr_tensor *cur = tsr__gx_keep(x, TSR_OK, (tsr_tensor *)src);
    for (int d = 0; d < tsr_tensor_ndim(index) && cur; d++) {
        int64_t want = tsr_tensor_shape(index)[d];
        if (tsr_tensor_shape(cur)[d] == want)
            continue;
        tsr_tensor *r = NULL;
        tsr_status st = tsr_narrow(cur, d, 0, want, &r);
        cur = tsr__gx_keep(x, st, r);
    }
    return cur;
}

/* The gradient for self before the !include_self zeroing. */
static tsr_tensor *sr_self_grad(tsr__gx *x, const tsr__scatter_grad *at, const tsr_tensor *g,
                                const tsr_tensor *index, const tsr_tensor *self,
                                const tsr_tensor *src, const tsr_tensor *result,
                                const tsr_tensor *count)
{
    int dim = at->dim;
    switch (at->reduce) {
    case TSR_REDUCE_PROD: {
        tsr_tensor *self_zero = tsr__gx_binary(x, TSR_OP_EQ, T(self), F(0.0));
        tsr_tensor *masked_self = self_zero ? tsr__gx_where(x, self_zero, F(1.0), T(self)) : NULL;
        tsr_tensor *masked_result =
            gx_scatter_reduce(x, masked_self, dim, index, src, TSR_REDUCE_PROD, at->include_self);
        return tsr__gx_div(x, tsr__gx_mul(x, g, masked_result), masked_self);
    }
    case TSR_REDUCE_MEAN:
        return tsr__gx_div(x, g, count);
    default: /* amax, amin: count is the number of elements equal to the result */
        return tsr__gx_mul(x, tsr__gx_binary(x, TSR_OP_EQ, T(self), T(result)),
                           tsr__gx_div(x, g, count));
    }
}

/* The gradient for the part of src that index covers. */
static tsr_tensor *sr_src_grad(tsr__gx *x, const tsr__scatter_grad *at, const tsr_tensor *g,
                               const tsr_tensor *index, const tsr_tensor *self,
                               const tsr_tensor *src_part, const tsr_tensor *result,
                               const tsr_tensor *count)
{
    int dim = at->dim;
    switch (at->reduce) {
    case TSR_REDUCE_PROD: {
        tsr_tensor *src_zero = tsr__gx_binary(x, TSR_OP_EQ, T(src_part), F(0.0));
        tsr_tensor *zeros = gx_filled(x, g, 0.0, tsr_tensor_dtype(self));
        tsr_tensor *zero_counts =
            gx_scatter_add(x, zeros, dim, index, gx_to(x, src_zero, tsr_tensor_dtype(self)));
        tsr_tensor *src_zeros = gx_gather(x, zero_counts, dim, index);
        tsr_tensor *one_zero =
            src_zeros ? tsr__gx_binary(x, TSR_OP_EQ, T(src_zeros), F(1.0)) : NULL;
        tsr_tensor *single =
            one_zero ? tsr__gx_binary(x, TSR_OP_LOGICAL_AND, T(src_zero), T(one_zero)) : NULL;
        tsr_tensor *masked_src = single ? tsr__gx_where(x, single, F(1.0), T(src_part)) : NULL;
        tsr_tensor *masked_result =
            gx_scatter_reduce(x, self, dim, index, masked_src, TSR_REDUCE_PROD, at->include_self);
        tsr_tensor *at_single = gx_gather(x, tsr__gx_mul(x, g, masked_result), dim, index);
        tsr_tensor *divisor = src_zero ? tsr__gx_where(x, src_zero, F(1.0), T(src_part)) : NULL;
        tsr_tensor *others =
            tsr__gx_div(x, gx_gather(x, tsr__gx_mul(x, g, result), dim, index), divisor);
        /* PyTorch 1.13 also makes double backward an error where more than
         * one zero of src meets at one place; this gives its first backward. */
        return at_single ? tsr__gx_where(x, single, T(at_single), T(others)) : NULL;
    }
    case TSR_REDUCE_MEAN:
        return tsr__gx_div(x, gx_gather(x, g, dim, index), gx_gather(x, count, dim, index));
    default: {
        tsr_tensor *value = gx_gather(x, result, dim, index);
        tsr_tensor *src_is = value ? tsr__gx_binary(x, TSR_OP_EQ, T(src_part), T(value)) : NULL;
        return tsr__gx_mul(x, src_is, gx_gather(x, tsr__gx_div(x, g, count), dim, index));
    }
    }
}

/* mean: how many values each position averaged (at least 1); amax, amin:
 * how many of self and src equal the result there. */
static tsr_tensor *sr_count(tsr__gx *x, const tsr__scatter_grad *at, const tsr_tensor *g,
                            const tsr_tensor *index, const tsr_tensor *self,
                            const tsr_tensor *src_part, const tsr_tensor *result)
{
    if (at->reduce == TSR_REDUCE_PROD || x->status != TSR_OK)
        return NULL;
    tsr_dtype dtype = tsr_tensor_dtype(g);
    if (at->reduce == TSR_REDUCE_MEAN) {
        tsr_tensor *start = gx_filled(x, g, at->include_self ? 1.0 : 0.0, dtype);
        tsr_tensor *n = gx_scatter_add(x, start, at->dim, index, gx_filled(x, index, 1.0, dtype));
        tsr_tensor *none = n ? tsr__gx_binary(x, TSR_OP_EQ, T(n), F(0.0)) : NULL;
        return none ? tsr__gx_where(x, none, F(1.0), T(n)) : NULL;
    }
    tsr_dtype self_dtype = tsr_tensor_dtype(self);
    tsr_tensor *value = gx_gather(x, result, at->dim, index);
    tsr_tensor *self_is = gx_to(x, tsr__gx_binary(x, TSR_OP_EQ, T(self), T(result)), self_dtype);
    tsr_tensor *src_is =
        value ? gx_to(x, tsr__gx_binary(x, TSR_OP_EQ, T(src_part), T(value)), self_dtype) : NULL;
    return gx_scatter_add(x, self_is, at->dim, index, src_is);
}

static tsr_status scatter_reduce_backward(tsr__node *node, tsr_tensor *const *grads,
                                          tsr_tensor **gi)
{
    const tsr__scatter_grad *at = tsr__node_attrs(node);
    const tsr_tensor *g = grads[0];
    bool values = at->reduce != TSR_REDUCE_MEAN;
    tsr__gx x = {0};
    tsr_tensor *index = tsr__gx_saved(&x, node, SR_INDEX);
    tsr_tensor *self = values ? tsr__gx_saved(&x, node, SR_SELF) : NULL;
    tsr_tensor *src = values ? tsr__gx_saved(&x, node, SR_SRC) : NULL;
    tsr_tensor *result = values ? tsr__gx_saved(&x, node, SR_RESULT) : NULL;
    tsr_tensor *src_part = values ? gx_src_part(&x, src, index) : NULL;
    tsr_tensor *count = sr_count(&x, at, g, index, self, src_part, result);
    if (tsr__node_needs_grad(node, 0)) {
        tsr__gx local = {0}, *l = &local;
        tsr_tensor *r = NULL;
        tsr__gx_result(l, &r, sr_self_grad(l, at, g, index, self, src, result, count));
        tsr_status st = tsr__gx_finish(l);
        r = tsr__gx_keep(&x, st, r);
        if (r && !at->include_self) {
            tsr_tensor *zeroed = NULL;
            st = tsr_scatter_value(r, at->dim, index, tsr_scalar_int(0), TSR_REDUCE_NONE, &zeroed);
            r = tsr__gx_keep(&x, st, zeroed);
        }
        tsr__gx_result(&x, &gi[0], r);
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr__gx local = {0}, *l = &local;
        tsr_tensor *r = NULL;
        tsr__gx_result(l, &r, sr_src_grad(l, at, g, index, self, src_part, result, count));
        tsr_status st = tsr__gx_finish(l);
        r = tsr__gx_keep(&x, st, r);
        /* zero-padded to src's shape where src is larger than index */
        const tsr__grad_meta *m = tsr__node_input_meta(node, 1);
        int64_t pad[2 * TSR_MAX_DIMS];
        bool padded = false;
        for (int i = 0; r && i < m->ndim; i++) {
            pad[2 * i] = 0;
            pad[2 * i + 1] = m->shape[m->ndim - 1 - i] - tsr_tensor_shape(index)[m->ndim - 1 - i];
            padded = padded || pad[2 * i + 1] != 0;
        }
        if (r && padded) {
            tsr_tensor *p = NULL;
            st = tsr_pad(r, pad, 2 * m->ndim, TSR_PAD_CONSTANT, tsr_scalar_int(0), &p);
            r = tsr__gx_keep(&x, st, p);
        }
        tsr__gx_result(&x, &gi[1], r);
    }
    return tsr__gx_finish(&x);
}

static tsr_status record_scatter_reduce(const tsr__scatter_grad *info, const tsr_tensor *self,
                                        const tsr_tensor *index, const tsr_tensor *src,
                                        tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {self, src};
    tsr__node *node;
    tsr_status st =
        start(info->name, scatter_reduce_backward, inputs, 2, SR_COUNT, sizeof *info, out, &node);
    if (!node)
        return st;
    memcpy(tsr__node_attrs(node), info, sizeof *info);
    bool values = info->reduce != TSR_REDUCE_MEAN;
    if (st == TSR_OK)
        st = tsr__node_save(node, SR_INDEX, index, "index");
    if (st == TSR_OK && values)
        st = tsr__node_save(node, SR_SELF, self, "self");
    if (st == TSR_OK && values)
        st = tsr__node_save(node, SR_SRC, src, "src");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    if (st == TSR_OK && values)
        st = tsr__node_save_output(node, SR_RESULT, out, 0);
    tsr__node_release(node);
    return st;
}

tsr_status tsr__grad_record_scatter(const tsr__scatter_grad *info, const tsr_tensor *self,
                                    const tsr_tensor *index, const tsr_tensor *src, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {self, src};
    /* scatter_reduce's prod, mean, amax and amin (scatter's own reduce=
     * multiply has no formula) */
    if (info->kernel == TSR_OP_SCATTER && src && info->reduce != TSR_REDUCE_NONE &&
        info->reduce != TSR_REDUCE_SUM && strncmp(info->name, "scatter_reduce", 14) == 0)
        return record_scatter_reduce(info, self, index, src, out);
    bool formula = info->kernel != TSR_OP_SCATTER || info->reduce == TSR_REDUCE_NONE ||
                   info->reduce == TSR_REDUCE_SUM;
    if (!formula)
        return tsr__grad_record_unimplemented(info->name, inputs, 2, out);
    tsr__node *node;
    tsr_status st = start(info->name, scatter_backward, inputs, 2, 1, sizeof *info, out, &node);
    if (node)
        memcpy(tsr__node_attrs(node), info, sizeof *info);
    return finish(node, st, index, out);
}

/* ------------------------------------------------------------------------ */
/* sort                                                                      */
/* ------------------------------------------------------------------------ */

/* Each value goes back to where it came from: a scatter through the
 * indices (a permutation along dim). */
static tsr_status sort_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const dim_attrs *at = tsr__node_attrs(node);
    if (tsr__node_input_meta(node, 0)->ndim == 0)
        return retain_as(grads[0], &gi[0]);
    tsr_tensor *indices = NULL, *z = NULL;
    tsr_status st = tsr__node_saved(node, 0, &indices);
    if (st == TSR_OK)
        st = zeros_for(node, 0, grads[0], &z);
    if (st == TSR_OK)
        st = tsr_scatter(z, at->dim, indices, grads[0], TSR_REDUCE_NONE, &gi[0]);
    tsr_tensor_release(indices);
    tsr_tensor_release(z);
    return st;
}

tsr_status tsr__grad_record_sort(const tsr_tensor *t, int dim, const tsr_tensor *indices,
                                 tsr_tensor *values)
{
    tsr__node *node;
    tsr_status st = start("sort", sort_backward, &t, 1, 1, sizeof(dim_attrs), values, &node);
    if (node)
        ((dim_attrs *)tsr__node_attrs(node))->dim = dim;
    return finish(node, st, indices, values);
}
