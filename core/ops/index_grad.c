/* Gradients of index_select, gather and embedding, as PyTorch's
 * derivatives.yaml writes them. Every formula is written with public ops
 * (index_add, scatter_add, index_copy), which record their own nodes under
 * create_graph, so each gradient is itself differentiable. */
#include "ops/index_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "ops/index_util.h"

typedef struct dim_attrs {
    int dim;
} dim_attrs;

static tsr_status index_select_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const dim_attrs *at = tsr__node_attrs(node);
    if (tsr__node_input_meta(node, 0)->ndim == 0)
        return tsr__grad_retain(grads[0], &gi[0]); /* a 0-d input is its own result */
    tsr_tensor *index = NULL, *z = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK)
        st = tsr__grad_zeros_for(node, 0, grads[0], &z);
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
    tsr_status st = tsr__grad_node_start("index_select", index_select_backward, &t, 1, 1,
                                         sizeof(dim_attrs), out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node)
        ((dim_attrs *)tsr__node_attrs(node))->dim = dim;
    return tsr__grad_node_finish(node, st, index, out);
}

static tsr_status gather_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const dim_attrs *at = tsr__node_attrs(node);
    tsr_tensor *index = NULL, *z = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK)
        st = tsr__grad_zeros_for(node, 0, grads[0], &z);
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
    tsr_status st =
        tsr__grad_node_start("gather", gather_backward, &t, 1, 1, sizeof(dim_attrs), out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node)
        ((dim_attrs *)tsr__node_attrs(node))->dim = dim;
    return tsr__grad_node_finish(node, st, index, out);
}

typedef struct embedding_attrs {
    bool has_padding;
    bool scale_grad_by_freq;
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

/* rows [n, D] each divided by the count of its index in index [n], as
 * PyTorch's embedding_backward: 1 / count in float64, converted to rows'
 * dtype, multiplies each row (the counts need no gradient). */
static tsr_status scale_by_frequency(const tsr_tensor *index, int64_t num_weights,
                                     const tsr_tensor *rows, tsr_tensor **out)
{
    tsr_backend *b = tsr_tensor_backend(rows);
    int64_t n = tsr_tensor_shape(index)[0];
    tsr_tensor *zeros = NULL, *ones = NULL, *counts = NULL, *each = NULL, *inverse = NULL;
    tsr_tensor *factor = NULL, *column = NULL;
    tsr_status st = tsr_zeros(1, &num_weights, TSR_FLOAT64, b, &zeros);
    if (st == TSR_OK)
        st = tsr_ones(1, &n, TSR_FLOAT64, b, &ones);
    if (st == TSR_OK)
        st = tsr_index_add(zeros, 0, index, ones, tsr_scalar_int(1), &counts);
    if (st == TSR_OK)
        st = tsr_index_select(counts, 0, index, &each);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_DIV, tsr_operand_scalar(tsr_scalar_float(1.0)),
                        tsr_operand_tensor(each), &inverse);
    if (st == TSR_OK)
        st = tsr_to_dtype(inverse, tsr_tensor_dtype(rows), &factor);
    if (st == TSR_OK)
        st = tsr_unsqueeze(factor, 1, &column);
    if (st == TSR_OK)
        st = tsr_mul(rows, column, out);
    tsr_tensor *all[] = {zeros, ones, counts, each, inverse, factor, column};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
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
    if (st == TSR_OK && at->scale_grad_by_freq) {
        tsr_tensor *scaled = NULL;
        st = scale_by_frequency(index, m->shape[0], rows, &scaled);
        tsr_tensor_release(rows);
        rows = scaled;
    }
    if (st == TSR_OK)
        st = tsr__grad_zeros_for(node, 0, grads[0], &z);
    if (st == TSR_OK)
        st = tsr_index_add(z, 0, index, rows, tsr_scalar_int(1), &sum);
    if (st == TSR_OK && at->has_padding)
        st = zero_row(sum, at->padding_idx, &gi[0]);
    else if (st == TSR_OK)
        st = tsr__grad_retain(sum, &gi[0]);
    tsr_tensor_release(index);
    tsr_tensor_release(rows);
    tsr_tensor_release(z);
    tsr_tensor_release(sum);
    return st;
}

tsr_status tsr__grad_record_embedding(const tsr_tensor *weight, const tsr_tensor *flat_indices,
                                      const int64_t *padding_idx, bool scale_grad_by_freq,
                                      tsr_tensor *out)
{
    tsr__node *node;
    tsr_status st = tsr__grad_node_start("embedding", embedding_backward, &weight, 1, 1,
                                         sizeof(embedding_attrs), out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node)
        ((embedding_attrs *)tsr__node_attrs(node))->scale_grad_by_freq = scale_grad_by_freq;
    if (node && padding_idx) {
        embedding_attrs *at = tsr__node_attrs(node);
        at->has_padding = true;
        at->padding_idx = *padding_idx < 0 ? *padding_idx + weight->shape[0] : *padding_idx;
    }
    return tsr__grad_node_finish(node, st, flat_indices, out);
}
