/* Gradients of the indexing, joining and sorting ops, as PyTorch's
 * derivatives.yaml writes them. Every formula is written with public ops
 * (narrow, index_add, scatter_add, gather, scatter, pad, where, tril), which
 * record their own nodes under create_graph, so each gradient is itself
 * differentiable. */
#include "ops/index_grad.h"

#include "autograd/graph.h"
#include "runtime/error.h"
#include "ops/index_util.h"
#include "ops/grad_expr.h"

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

tsr_status tsr__grad_record_scatter(const tsr__scatter_grad *info, const tsr_tensor *self,
                                    const tsr_tensor *index, const tsr_tensor *src, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {self, src};
    /* scatter_reduce's prod, mean, amax and amin; scatter's reduce=multiply
     * with a value. scatter's multiply with a src tensor is scatter_reduce's
     * prod including self, but stays unimplemented as in PyTorch 1.13 (the
     * conformance runner's tests use it as their unimplemented backward). */
    bool scatter_reduce = strncmp(info->name, "scatter_reduce", 14) == 0;
    if (info->kernel == TSR_OP_SCATTER && info->reduce != TSR_REDUCE_NONE &&
        info->reduce != TSR_REDUCE_SUM) {
        if (src && scatter_reduce)
            return tsr__grad_record_scatter_reduce(info, self, index, src, out);
        if (!src)
            return tsr__grad_record_scatter_multiply_value(info, self, index, out);
        return tsr__grad_record_unimplemented(info->name, inputs, 2, out);
    }
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
