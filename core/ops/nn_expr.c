/* Helpers the neural-network composites share: public ops as steps of a
 * tsr__gx chain (so a formula reads as one line per step and releases its
 * temporaries once), the parameter dtype check and releasing arrays. */
#include "ops/nn.h"
#include "ops/grad_expr.h"
#include "runtime/error.h"

void tsr__release_all(tsr_tensor **tensors, int count)
{
    for (int i = 0; i < count; i++) {
        tsr_tensor_release(tensors[i]);
        tensors[i] = NULL;
    }
}

tsr_status tsr__nn_same_dtype(const char *name, const char *arg, const tsr_tensor *param,
                              tsr_dtype expected)
{
    if (!param || param->dtype == expected)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_DTYPE, "%s: expected %s of dtype %s (the input's), but found %s",
                          name, arg, tsr_dtype_name(expected), tsr_dtype_name(param->dtype));
}

tsr_tensor *tsr__nn_sum(tsr__gx *x, const tsr_tensor *t, const int64_t *dims, int ndims,
                        bool keepdim)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_sum(t, dims, ndims, keepdim, TSR_DTYPE_INFER, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_mean(tsr__gx *x, const tsr_tensor *t)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_mean(t, NULL, 0, false, TSR_DTYPE_INFER, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_amax(tsr__gx *x, const tsr_tensor *t, int64_t dim, bool keepdim)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_amax(t, &dim, 1, keepdim, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_matmul(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    if (x->status != TSR_OK || !a || !b)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_matmul(a, b, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_reshape(tsr__gx *x, const tsr_tensor *t, int ndim, const int64_t *shape)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_reshape(t, ndim, shape, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_transpose(tsr__gx *x, const tsr_tensor *t, int64_t dim0, int64_t dim1)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_transpose(t, dim0, dim1, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_unsqueeze(tsr__gx *x, const tsr_tensor *t, int64_t dim)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_unsqueeze(t, dim, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_narrow(tsr__gx *x, const tsr_tensor *t, int64_t dim, int64_t start,
                           int64_t length)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_narrow(t, dim, start, length, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_to(tsr__gx *x, const tsr_tensor *t, tsr_dtype dtype)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_to_dtype(t, dtype, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__nn_clamp_min(tsr__gx *x, const tsr_tensor *t, double min)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_operand bound = tsr_operand_scalar(tsr_scalar_float(min));
    tsr_tensor *r = NULL;
    tsr_status st = tsr_clamp(t, &bound, NULL, &r);
    return tsr__gx_keep(x, st, r);
}
