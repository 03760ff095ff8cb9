/* The linalg family's three kernel calls (TSR_OP_LIST_LINALG): outputs
 * allocated, the kernel launched (on the fallback backend where the
 * tensors' own has none), the gradient recorded. info starts as zeros so
 * that a batch of 0 x 0 matrices, whose kernel call is skipped, reports
 * success. */
#include "autograd/graph.h"
#include "ops/linalg.h"
#include "ops/linalg_grad.h"
#include "tensor/launch.h"

static tsr_status zeros_int32(const tsr_tensor *like, int ndim, tsr_tensor **out)
{
    return tsr_zeros(ndim, like->shape, TSR_INT32, like->storage->backend, out);
}

static tsr_status launch(tsr_op op, const tsr_tensor *const *inputs, int num_inputs,
                         tsr_tensor *const *outputs, int num_outputs, int32_t flags)
{
    tsr_linalg_attrs attrs = {.struct_size = sizeof attrs, .flags = flags};
    return tsr__launch(op, inputs[0]->dtype, inputs[0]->dtype, inputs, num_inputs, outputs,
                       num_outputs, &attrs);
}

tsr_status tsr__linalg_cholesky_kernel(const tsr_tensor *a, bool upper, tsr_tensor **l,
                                       tsr_tensor **info)
{
    const char *name = "linalg_cholesky";
    tsr_tensor *outs[2] = {NULL, NULL};
    tsr_status st =
        tsr__tensor_empty(name, a->storage->backend, a->dtype, a->ndim, a->shape, &outs[0]);
    if (st == TSR_OK)
        st = zeros_int32(a, a->ndim - 2, &outs[1]);
    if (st == TSR_OK)
        st = launch(TSR_OP_LINALG_CHOLESKY, &a, 1, outs, 2, upper ? TSR_LINALG_UPPER : 0);
    if (st == TSR_OK)
        st = tsr__grad_record_linalg_cholesky(a, upper, outs[0]);
    if (st != TSR_OK) {
        tsr_tensor_release(outs[0]);
        tsr_tensor_release(outs[1]);
        return st;
    }
    *l = outs[0];
    *info = outs[1];
    return TSR_OK;
}

tsr_status tsr__linalg_lu_kernel(const tsr_tensor *a, tsr_tensor **lu, tsr_tensor **pivots,
                                 tsr_tensor **info)
{
    const char *name = "linalg_lu_factor";
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; i < a->ndim - 2; i++)
        shape[i] = a->shape[i];
    shape[a->ndim - 2] = m < n ? m : n;
    tsr_tensor *outs[3] = {NULL, NULL, NULL};
    tsr_status st =
        tsr__tensor_empty(name, a->storage->backend, a->dtype, a->ndim, a->shape, &outs[0]);
    if (st == TSR_OK)
        st = tsr_zeros(a->ndim - 1, shape, TSR_INT32, a->storage->backend, &outs[1]);
    if (st == TSR_OK)
        st = zeros_int32(a, a->ndim - 2, &outs[2]);
    if (st == TSR_OK)
        st = launch(TSR_OP_LINALG_LU, &a, 1, outs, 3, 0);
    if (st == TSR_OK)
        st = tsr__grad_record_linalg_lu(a, outs[0], outs[1]);
    if (st != TSR_OK) {
        for (int i = 0; i < 3; i++)
            tsr_tensor_release(outs[i]);
        return st;
    }
    *lu = outs[0];
    *pivots = outs[1];
    *info = outs[2];
    return TSR_OK;
}

tsr_status tsr__linalg_trsm_kernel(const tsr_tensor *a, const tsr_tensor *b, int32_t flags,
                                   tsr_tensor **x)
{
    const char *name = "linalg_solve_triangular";
    tsr_tensor *outs[2] = {NULL, NULL};
    tsr_status st =
        tsr__tensor_empty(name, b->storage->backend, b->dtype, b->ndim, b->shape, &outs[0]);
    if (st == TSR_OK)
        st = zeros_int32(b, b->ndim - 2, &outs[1]);
    const tsr_tensor *inputs[2] = {a, b};
    if (st == TSR_OK)
        st = launch(TSR_OP_LINALG_SOLVE_TRIANGULAR, inputs, 2, outs, 2, flags);
    tsr_tensor_release(outs[1]);
    if (st == TSR_OK)
        st = tsr__grad_record_linalg_trsm(a, b, flags, outs[0]);
    return tsr__deliver(st, outs[0], x);
}
