/* Gradients of softmax and log_softmax, PyTorch 1.13's formulas written
 * with public ops so that they can be differentiated again:
 *
 *   softmax       gx = y * (g - sum(g * y, dim))
 *   log_softmax   gx = g - exp(y) * sum(g, dim)
 */
#include "ops/softmax_grad.h"

#include "autograd/graph.h"
#include "ops/nn.h"
#include "ops/grad_expr.h"

typedef struct softmax_attrs {
    int64_t dim;
    bool log_form;
} softmax_attrs;

static tsr_status softmax_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const softmax_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *g = grads[0], *y = tsr__gx_saved(&x, node, 0);
    if (at->log_form) {
        tsr_tensor *total = tsr__nn_sum(&x, g, &at->dim, 1, true);
        tsr__gx_result(
            &x, &gi[0],
            tsr__gx_sub(&x, g, tsr__gx_mul(&x, tsr__gx_unary(&x, TSR_OP_EXP, y), total)));
    } else {
        tsr_tensor *total = tsr__nn_sum(&x, tsr__gx_mul(&x, g, y), &at->dim, 1, true);
        tsr__gx_result(&x, &gi[0], tsr__gx_mul(&x, y, tsr__gx_sub(&x, g, total)));
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_softmax(tsr_op op, const tsr_tensor *t, int dim, tsr_tensor *y)
{
    tsr__node *node = NULL;
    bool log_form = op == TSR_OP_LOG_SOFTMAX;
    tsr_status st = tsr__grad_node_start(log_form ? "log_softmax" : "softmax", softmax_backward, &t,
                                         1, 1, sizeof(softmax_attrs), y, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    softmax_attrs *at = tsr__node_attrs(node);
    at->dim = dim;
    at->log_form = log_form;
    st = tsr__node_attach(node, 0, y);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 0, y, 0);
    tsr__node_release(node);
    return st;
}
