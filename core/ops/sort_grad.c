/* The gradient of sort's values, written with scatter (a public op, so
 * that the gradient is itself differentiable). The family's ops built from
 * other public ops (topk, ...) need no node of their own. */
#include "ops/sort_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"

typedef struct sort_attrs {
    int dim;
} sort_attrs;

/* Each value goes back to where it came from: a scatter through the
 * indices (a permutation along dim). */
static tsr_status sort_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const sort_attrs *at = tsr__node_attrs(node);
    if (tsr__node_input_meta(node, 0)->ndim == 0)
        return tsr__grad_retain(grads[0], &gi[0]);
    tsr_tensor *indices = NULL, *z = NULL;
    tsr_status st = tsr__node_saved(node, 0, &indices);
    if (st == TSR_OK)
        st = tsr__grad_zeros_for(node, 0, grads[0], &z);
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
    tsr_status st =
        tsr__grad_node_start("sort", sort_backward, &t, 1, 1, sizeof(sort_attrs), values, &node);
    if (node)
        ((sort_attrs *)tsr__node_attrs(node))->dim = dim;
    return tsr__grad_node_finish(node, st, indices, values);
}
