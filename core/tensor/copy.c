/* Copies: contiguous, clone, dtype conversion, cross-backend moves, copy_. */
#include "tensor/copy.h"

#include "autograd/graph.h"
#include "runtime/backend.h"
#include "runtime/dispatch.h"
#include "tensor/dtype.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <stdlib.h>
#include <string.h>

tsr_status tsr__copy_same_backend(const char *op, tsr_tensor *dst, const tsr_tensor *src)
{
    tsr_tensor *expanded = NULL;
    bool grad_mode = tsr_grad_mode_set(false); /* a step of the caller's op, not history */
    tsr_status st = tsr_expand(src, dst->ndim, dst->shape, &expanded);
    tsr_grad_mode_set(grad_mode);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", op);
        return st;
    }
    const tsr_tensor *in[1] = {expanded};
    st = tsr__launch(TSR_OP_COPY, src->dtype, dst->dtype, in, 1, &dst, 1, NULL);
    tsr_tensor_release(expanded);
    return st;
}

tsr_status tsr__convert(const char *op, const tsr_tensor *t, tsr_dtype dtype, tsr_tensor **out)
{
    tsr_backend *b = t->storage->backend;
    tsr_status st = tsr__require_kernel(op, b, TSR_OP_COPY, t->dtype, dtype);
    if (st != TSR_OK)
        return st;
    tsr_tensor *result;
    if ((st = tsr__tensor_empty(op, b, dtype, t->ndim, t->shape, &result)) != TSR_OK)
        return st;
    if ((st = tsr__copy_same_backend(op, result, t)) != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}

tsr_status tsr__materialize(const char *op, const tsr_tensor *t, tsr_tensor **out)
{
    return tsr__convert(op, t, t->dtype, out);
}

/* The widest dtype of the scalar's kind, uploaded as is, then converted by
 * the backend's copy kernel so scalars round exactly like tensors do. */
tsr_status tsr__scalar_tensor(const char *op, tsr_scalar value, tsr_dtype dtype, tsr_backend *b,
                              tsr_tensor **out)
{
    tsr_dtype wide = tsr__scalar_dtype(value);
    unsigned char bytes[16];
    size_t n = tsr_dtype_size(wide);
    if (wide == TSR_BOOL)
        bytes[0] = value.v.i != 0;
    else
        memcpy(bytes, &value.v, n);
    tsr_tensor *raw;
    tsr_status st = tsr__tensor_empty(op, b, wide, 0, NULL, &raw);
    if (st != TSR_OK)
        return st;
    st = tsr__backend_upload(op, b, raw->storage->handle, 0, bytes, n);
    if (st == TSR_OK && wide == dtype) {
        *out = raw;
        return TSR_OK;
    }
    if (st == TSR_OK)
        st = tsr__convert(op, raw, dtype, out);
    tsr_tensor_release(raw);
    return st;
}

tsr_status tsr__fill(const char *op, tsr_tensor *t, tsr_scalar value)
{
    if (!tsr__scalar_fits(value, t->dtype))
        return tsr__set_error(TSR_ERR_OVERFLOW, "%s: value %g cannot be converted to %s without "
                                                "overflow", op, tsr__scalar_to_double(value),
                              tsr_dtype_name(t->dtype));
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {value}};
    tsr_status st = tsr__launch(TSR_OP_FILL, t->dtype, t->dtype, NULL, 0, &t, 1, &attrs);
    if (st != TSR_OK)
        tsr__prefix_error("%s", op);
    return st;
}

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

/* Through host memory: the only path that every pair of backends shares. */
static tsr_status move_across(const char *op, const tsr_tensor *t, tsr_backend *dst,
                              tsr_tensor **out)
{
    size_t bytes = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(t->dtype);
    void *host = malloc(bytes ? bytes : 1);
    if (!host)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory (%zu bytes)", op,
                              bytes);
    tsr_status st = tsr_to_host(t, host, bytes);
    tsr_tensor *moved = NULL;
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, dst, t->dtype, t->ndim, t->shape, &moved);
    if (st == TSR_OK)
        st = tsr__backend_upload(op, dst, moved->storage->handle, 0, host, bytes);
    free(host);
    if (st != TSR_OK) {
        tsr_tensor_release(moved);
        return st;
    }
    *out = moved;
    return TSR_OK;
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
    tsr_status st = move_across("to", t, backend, &result);
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
        st = move_across("copy_", src, b, &source);
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
