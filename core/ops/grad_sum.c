/* Summing a gradient back to an operand's shape, undoing broadcasting. */
#include "autograd/graph.h"

#include "runtime/error.h"
#include "ops/grad_expr.h"


/* One reduction over the broadcast dims; tsr_sum records its own node, so
 * the result stays differentiable under create_graph. */
tsr_status tsr__sum_to_shape(const tsr_tensor *t, int ndim, const int64_t *shape, tsr_tensor **out)
{
    int lead = t->ndim - ndim;
    if (lead < 0)
        return tsr__set_error(TSR_ERR_SHAPE, "sum_to_size: target has more dims than the tensor");
    int64_t dims[TSR_MAX_DIMS];
    int ndims = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] != 1 && (d < lead || shape[d - lead] == 1))
            dims[ndims++] = d;
    }
    tsr_tensor *cur = (tsr_tensor *)t;
    tsr_status st = TSR_OK;
    if (ndims > 0)
        st = tsr_sum(t, dims, ndims, true, TSR_DTYPE_INFER, &cur);
    else
        tsr_tensor_retain(cur);
    if (st != TSR_OK)
        return st;
    tsr_tensor *shaped = NULL;
    st = tsr_reshape(cur, ndim, shape, &shaped);
    tsr_tensor_release(cur);
    return tsr__deliver(st, shaped, out);
}
