/* The gradient of cat: each input's slice of the gradient, cut with
 * narrow (a public op, so that the gradient is itself differentiable). The
 * family's ops built from other public ops (stack, ...) need no node. */
#include "ops/join_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "runtime/error.h"

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
    tsr_status st = tsr__grad_node_start("cat", cat_backward, tensors, (int)count, 0,
                                         sizeof(cat_attrs) + count * sizeof(int64_t), out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node) {
        cat_attrs *at = tsr__node_attrs(node);
        at->dim = dim;
        for (size_t i = 0; i < count; i++) {
            const tsr_tensor *t = tensors[i];
            bool skipped = t->ndim == 1 && t->shape[0] == 0;
            at->sizes[i] = skipped ? -1 : t->shape[dim];
        }
    }
    return tsr__grad_node_finish(node, st, NULL, out);
}
