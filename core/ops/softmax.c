/* softmax and log_softmax: one fused row kernel each, after the optional
 * dtype= conversion, and one autograd node. */
#include "autograd/graph.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/softmax.h"
#include "ops/softmax_grad.h"
#include "tensor/shape.h"

/* The forward pass; *wrapped receives the dim in [0, ndim). */
static tsr_status softmax_run(tsr_op op, const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                              int *wrapped, tsr_tensor **out)
{
    const char *name = tsr_op_name(op);
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    tsr_dtype compute = dtype == TSR_DTYPE_INFER ? t->dtype : dtype;
    if (!tsr__dtype_valid(compute))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: dtype %d is not a tessera dtype", name,
                              (int)compute);
    int d;
    tsr_status st = tsr__wrap_dim(name, "dim", dim, t->ndim, &d);
    if (st != TSR_OK)
        return st;
    tsr_backend *b = t->storage->backend;
    if ((st = tsr__require_kernel(name, b, op, compute, compute)) != TSR_OK)
        return st;
    tsr_tensor *x = NULL, *result = NULL;
    if (compute == t->dtype)
        tsr_tensor_retain(x = (tsr_tensor *)t);
    else if ((st = tsr__convert(name, t, compute, &x)) != TSR_OK)
        return st;
    st = tsr__tensor_empty(name, b, compute, t->ndim, t->shape, &result);
    tsr_scan_attrs attrs = {.struct_size = sizeof attrs, .dim = d};
    if (st == TSR_OK) {
        const tsr_tensor *inputs[1] = {x};
        st = tsr__launch(op, compute, compute, inputs, 1, &result, 1, &attrs);
    }
    tsr_tensor_release(x);
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *wrapped = d;
    *out = result;
    return TSR_OK;
}

tsr_status tsr__softmax_forward(tsr_op op, const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                                tsr_tensor **out)
{
    int d;
    return softmax_run(op, t, dim, dtype, &d, out);
}

static tsr_status softmax_op(tsr_op op, const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                             tsr_tensor **out)
{
    int d = 0;
    tsr_tensor *y = NULL;
    tsr_status st = softmax_run(op, t, dim, dtype, &d, &y);
    if (st == TSR_OK)
        st = tsr__grad_record_softmax(op, t, d, y);
    return tsr__deliver(st, y, out);
}

tsr_status tsr_softmax(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out)
{
    return softmax_op(TSR_OP_SOFTMAX, t, dim, dtype, out);
}

tsr_status tsr_log_softmax(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out)
{
    return softmax_op(TSR_OP_LOG_SOFTMAX, t, dim, dtype, out);
}
