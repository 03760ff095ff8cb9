/* The copy family: contiguous, clone, dtype conversion, moves between
 * backends and copy_, each recorded for autograd. */
#include "tensor/copy.h"
#include "tensor/launch.h"

#include "autograd/graph.h"
#include "ops/inplace.h"
#include "ops/views_grad.h"
#include "runtime/error.h"
#include "tensor/scalar.h"
#include "tensor/shape.h"
#include "ops/elementwise_grad.h"

tsr_status tsr_contiguous(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "contiguous: input and out must not be NULL");
    if (tsr_tensor_is_contiguous(t)) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    tsr_tensor *result = NULL;
    tsr_status st = tsr__materialize("contiguous", t, &result);
    return tsr__grad_copy(st, "contiguous", t, result, out);
}

tsr_status tsr_clone(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "clone: input and out must not be NULL");
    tsr_tensor *result = NULL;
    tsr_status st = tsr__materialize("clone", t, &result);
    return tsr__grad_copy(st, "clone", t, result, out);
}

tsr_status tsr_to_dtype(const tsr_tensor *t, tsr_dtype dtype, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "to: input and out must not be NULL");
    if (!tsr__dtype_valid(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "to: invalid dtype id %d", (int)dtype);
    if (dtype == t->dtype) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    tsr_tensor *result = NULL;
    tsr_status st = tsr__convert("to", t, dtype, &result);
    return tsr__grad_copy(st, "to", t, result, out);
}

tsr_status tsr_to_backend(const tsr_tensor *t, tsr_backend *backend, tsr_tensor **out)
{
    if (!t || !backend || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "to: tensor, backend and out must not be NULL");
    if (backend == t->storage->backend) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    tsr_tensor *result = NULL;
    tsr_status st = tsr__move_across("to", t, backend, &result);
    return tsr__grad_copy(st, "to", t, result, out);
}

tsr_status tsr_copy_(tsr_tensor *self, const tsr_tensor *src)
{
    if (!self || !src)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "copy_: self and src must not be NULL");
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    tsr_status st = tsr__broadcast_shapes("copy_", self->ndim, self->shape, src->ndim, src->shape,
                                          &ndim, shape);
    if (st != TSR_OK)
        return st;
    if (ndim != self->ndim || tsr__numel(ndim, shape) != tsr_tensor_numel(self)) {
        char a[160], b[160];
        return tsr__set_error(TSR_ERR_SHAPE, "copy_: src of shape %s cannot be broadcast to self's shape %s",
                              tsr__shape_str(src->ndim, src->shape, a, sizeof a),
                              tsr__shape_str(self->ndim, self->shape, b, sizeof b));
    }
    if (tsr__has_internal_overlap(self))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "copy_: self has internal overlap (more than one element refers to "
                              "the same memory, as after expand); clone it first");
    if (tsr__partially_overlaps(self, src))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, TSR__PARTIAL_OVERLAP_MESSAGE, "copy_");
    tsr_backend *b = self->storage->backend;
    if ((st = tsr__require_kernel("copy_", b, TSR_OP_COPY, src->dtype, self->dtype)) != TSR_OK)
        return st;
    tsr__inplace ip;
    tsr_operand other = tsr_operand_tensor(src);
    if ((st = tsr__inplace_begin("copy_", self, &other, 1, false, &ip)) != TSR_OK)
        return st;
    src = tsr__inplace_operands(&ip, &other)[0].tensor;
    /* A source on another backend, or overlapping self in another layout,
     * is read completely before self is written. */
    tsr_tensor *source = NULL;
    if (src->storage->backend != b)
        st = tsr__move_across("copy_", src, b, &source);
    else if (src->storage == self->storage && !tsr__same_layout(src, self))
        st = tsr__materialize("copy_", src, &source);
    if (st == TSR_OK)
        st = tsr__copy_same_backend("copy_", self, source ? source : src);
    tsr_tensor_release(source);
    if (st == TSR_OK) {
        tsr__bump_version(self);
        st = tsr__grad_record_inplace(TSR_OP_COPY, &ip, NULL, self);
    }
    tsr__inplace_end(&ip);
    return st;
}
