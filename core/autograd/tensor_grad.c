/* Autograd on tensors: requires_grad, .grad, detach (the leaf API; the
 * engine's accumulation into .grad is accumulate.c). */
#include "autograd/node.h"

#include "runtime/error.h"
#include "tensor/shape.h"

#include <string.h>

static tsr_status out_of_memory(const char *name)
{
    return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory for autograd", name);
}

tsr_status tsr_tensor_set_requires_grad(tsr_tensor *t, bool requires_grad)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "requires_grad_: tensor must not be NULL");
    tsr__autograd_meta *meta = t->autograd;
    if (!requires_grad) {
        if (meta && meta->grad_fn)
            return tsr__set_error(TSR_ERR_AUTOGRAD,
                                  "requires_grad_: you can only change requires_grad flags of "
                                  "leaf tensors; use tsr_detach for a tensor without history");
        if (meta)
            meta->requires_grad = false;
        return TSR_OK;
    }
    if (!tsr__grad_dtype(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "requires_grad_: only Tensors of floating point and complex dtype "
                              "can require gradients, got %s",
                              tsr_dtype_name(t->dtype));
    if (!(meta = tsr__autograd_meta_get(t)))
        return out_of_memory("requires_grad_");
    meta->requires_grad = true;
    return TSR_OK;
}

bool tsr_tensor_requires_grad(const tsr_tensor *t)
{
    return tsr__requires_grad(t);
}

bool tsr_tensor_is_leaf(const tsr_tensor *t)
{
    if (!t)
        return false; /* as every getter answers for NULL (tessera.h) */
    if (!tsr__view_is_stale(t))
        return !t->autograd || !t->autograd->grad_fn;
    return !tsr__requires_grad(t); /* a stale view gets history when used */
}

const char *tsr_tensor_grad_fn_name(const tsr_tensor *t)
{
    if (t && tsr__view_refresh(t) != TSR_OK)
        tsr_clear_error(); /* the old name is all there is to report */
    return t && t->autograd && t->autograd->grad_fn ? tsr__node_name(t->autograd->grad_fn) : NULL;
}

tsr_status tsr_tensor_grad(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "grad: tensor and out must not be NULL");
    tsr_tensor *grad = t->autograd ? t->autograd->grad : NULL;
    tsr_tensor_retain(grad);
    *out = grad;
    return TSR_OK;
}

static bool same_shape(int ndim_a, const int64_t *a, int ndim_b, const int64_t *b)
{
    return ndim_a == ndim_b && memcmp(a, b, (size_t)ndim_a * sizeof *a) == 0;
}

tsr_status tsr_tensor_set_grad(tsr_tensor *t, const tsr_tensor *grad)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "set_grad: tensor must not be NULL");
    /* t holding a reference to itself would never be freed */
    if (grad == t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "set_grad: can't assign Variable as its own grad");
    if (grad) {
        char a[160], b[160];
        if (!same_shape(t->ndim, t->shape, grad->ndim, grad->shape))
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "set_grad: assigned grad has shape %s, but the "
                                  "tensor has shape %s",
                                  tsr__shape_str(grad->ndim, grad->shape, a, sizeof a),
                                  tsr__shape_str(t->ndim, t->shape, b, sizeof b));
        if (grad->dtype != t->dtype)
            return tsr__set_error(TSR_ERR_DTYPE,
                                  "set_grad: assigned grad has dtype %s, but the "
                                  "tensor has dtype %s",
                                  tsr_dtype_name(grad->dtype), tsr_dtype_name(t->dtype));
        if (grad->storage->backend != t->storage->backend)
            return tsr__set_error(TSR_ERR_DEVICE_MISMATCH, "set_grad: assigned grad lives on "
                                                           "another backend than the tensor");
    }
    tsr__autograd_meta *meta = grad ? tsr__autograd_meta_get(t) : t->autograd;
    if (grad && !meta)
        return out_of_memory("set_grad");
    if (!meta)
        return TSR_OK;
    tsr_tensor_retain(grad);
    tsr_tensor_release(meta->grad);
    meta->grad = (tsr_tensor *)grad;
    return TSR_OK;
}

tsr_status tsr_tensor_zero_grad(tsr_tensor *t)
{
    return tsr_tensor_set_grad(t, NULL);
}

tsr_status tsr_detach(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "detach: input and out must not be NULL");
    return tsr__tensor_restride(t, t->ndim, t->shape, t->strides, t->offset, out);
}
