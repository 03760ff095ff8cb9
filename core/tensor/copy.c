/* Raw copies: layout, dtype and backend changes through the backends' copy
 * kernel, with no autograd record (the public, differentiable copies are
 * the copy family in ops/copy.c). */
#include "tensor/copy.h"

#include "runtime/alloc.h"
#include "runtime/backend.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <stdlib.h>
#include <string.h>

/* A view of t broadcast to `shape` (0 strides where t has size 1 or lacks
 * the dim), as expand makes it but without recording anything. */
static tsr_status broadcast_to(const char *op, const tsr_tensor *t, int ndim, const int64_t *shape,
                               tsr_tensor **out)
{
    int64_t strides[TSR_MAX_DIMS];
    int lead = ndim - t->ndim;
    if (lead < 0)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: cannot broadcast %d dims to %d", op, t->ndim,
                              ndim);
    for (int d = 0; d < ndim; d++) {
        int64_t size = d < lead ? 1 : t->shape[d - lead];
        if (size == shape[d])
            strides[d] = d < lead ? 0 : t->strides[d - lead];
        else if (size == 1)
            strides[d] = 0;
        else
            return tsr__set_error(TSR_ERR_SHAPE, "%s: size %lld of dim %d cannot be broadcast "
                                  "to %lld", op, (long long)size, d, (long long)shape[d]);
    }
    return tsr__tensor_restride(t, ndim, shape, strides, t->offset, out);
}

tsr_status tsr__copy_same_backend(const char *op, tsr_tensor *dst, const tsr_tensor *src)
{
    tsr_tensor *expanded = NULL;
    tsr_status st = broadcast_to(op, src, dst->ndim, dst->shape, &expanded);
    if (st != TSR_OK)
        return st;
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

tsr_status tsr__convert_if_needed(const char *op, const tsr_tensor *t, tsr_dtype dtype,
                                  tsr_tensor **out)
{
    if (dtype != t->dtype)
        return tsr__convert(op, t, dtype, out);
    tsr_tensor_retain(t);
    *out = (tsr_tensor *)t;
    return TSR_OK;
}

tsr_status tsr__contiguous_raw(const char *op, const tsr_tensor *t, tsr_tensor **out)
{
    if (!tsr_tensor_is_contiguous(t))
        return tsr__materialize(op, t, out);
    tsr_tensor_retain(t);
    *out = (tsr_tensor *)t;
    return TSR_OK;
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
    /* PyTorch's checked_convert: a complex value with an imaginary part
     * overflows every real type (bool only asks whether it is nonzero). */
    if (value.kind == TSR_SCALAR_COMPLEX && value.v.c.im != 0 && t->dtype != TSR_BOOL &&
        !tsr_dtype_is_complex(t->dtype))
        return tsr__set_error(TSR_ERR_OVERFLOW, "%s: value (%g%+gj) cannot be converted to type "
                                                "%s without overflow", op, value.v.c.re,
                              value.v.c.im, tsr_dtype_name(t->dtype));
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

/* Through host memory: the only path that every pair of backends shares. */
tsr_status tsr__move_across(const char *op, const tsr_tensor *t, tsr_backend *dst,
                            tsr_tensor **out)
{
    size_t bytes = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(t->dtype);
    void *host = tsr__malloc(bytes ? bytes : 1);
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

/* The elements of t's storage that t reaches: [*lo, *hi), empty for an
 * empty t. */
static void storage_span(const tsr_tensor *t, int64_t *lo, int64_t *hi)
{
    int64_t first = t->offset, last = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] == 0) {
            *lo = *hi = t->offset;
            return;
        }
        int64_t reach = (t->shape[d] - 1) * t->strides[d];
        if (reach < 0)
            first += reach;
        else
            last += reach;
    }
    *lo = first;
    *hi = last + 1;
}

tsr_status tsr__move_view_across(const char *op, const tsr_tensor *t, tsr_backend *dst,
                                 tsr_tensor **out)
{
    int64_t lo, hi;
    storage_span(t, &lo, &hi);
    size_t esize = tsr_dtype_size(t->dtype), bytes = (size_t)(hi - lo) * esize;
    void *host = tsr__malloc(bytes ? bytes : 1);
    if (!host)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory (%zu bytes)", op,
                              bytes);
    int64_t count = hi - lo;
    tsr_tensor *flat = NULL;
    tsr_status st = tsr__backend_download(op, t->storage->backend, host, t->storage->handle,
                                          (size_t)lo * esize, bytes);
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, dst, t->dtype, 1, &count, &flat);
    if (st == TSR_OK)
        st = tsr__backend_upload(op, dst, flat->storage->handle, 0, host, bytes);
    free(host);
    if (st == TSR_OK)
        st = tsr__tensor_restride(flat, t->ndim, t->shape, t->strides, t->offset - lo, out);
    tsr_tensor_release(flat);
    return st;
}

tsr_status tsr__move_view_back(const char *op, const tsr_tensor *moved, tsr_tensor *view)
{
    int64_t lo, hi;
    storage_span(view, &lo, &hi);
    size_t esize = tsr_dtype_size(view->dtype), bytes = (size_t)(hi - lo) * esize;
    void *host = tsr__malloc(bytes ? bytes : 1);
    if (!host)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory (%zu bytes)", op,
                              bytes);
    /* moved's storage starts where view's span does */
    size_t start = (size_t)(moved->offset - (view->offset - lo)) * esize;
    tsr_status st = tsr__backend_download(op, moved->storage->backend, host,
                                          moved->storage->handle, start, bytes);
    if (st == TSR_OK)
        st = tsr__backend_upload(op, view->storage->backend, view->storage->handle,
                                 (size_t)lo * esize, host, bytes);
    free(host);
    return st;
}
