/* The gradient of masked_fill, written with where and sum (public ops, so
 * that it is itself differentiable). */
#include "ops/mask_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"

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
    tsr_status st =
        tsr__grad_node_start("masked_fill", masked_fill_backward, inputs, 2, 1, 0, out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    return tsr__grad_node_finish(node, st, mask, out);
}
