/* tsr_from_blob: a tensor over the caller's host memory, no copy.
 *
 * The storage points at the lowest byte the view can reach and does not
 * own it: its last release calls the owner's release function instead of
 * the backend's free. Only host-memory backends qualify, since their memory
 * handles are plain pointers that kernels read directly. */
#include "io/blob.h"
#include "runtime/alloc.h"

#include "runtime/backend.h"
#include "runtime/error.h"
#include "tensor/shape.h"
#include "tensor/tensor.h"

#include <stdint.h>
#include <stdlib.h>

/* The default backend if it uses host memory, else cpu, else reference. */
static tsr_status pick_host_backend(const char *op, tsr_backend *backend, tsr_backend **out)
{
    if (backend) {
        if (!backend->host_memory)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: backend '%s' does not use host memory; wrap host memory "
                                  "on a host backend (cpu, reference)",
                                  op, backend->name);
        *out = backend;
        return TSR_OK;
    }
    static const char *const names[] = {NULL, "cpu", "reference"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        tsr_backend *b = NULL;
        if (tsr_backend_get(names[i], &b) == TSR_OK && b->host_memory) {
            tsr_clear_error();
            *out = b;
            return TSR_OK;
        }
    }
    return tsr__set_error(TSR_ERR_BACKEND, "%s: no host-memory backend (cpu, reference) loads", op);
}

/* The number of elements from the first to the last reachable element,
 * plus one (0 for an empty view), with every stride checked. */
static tsr_status blob_extent(const char *op, int ndim, const int64_t *shape,
                              const int64_t *strides, int64_t numel, int64_t *out)
{
    int64_t last = 0;
    for (int d = 0; d < ndim; d++) {
        if (strides[d] < 0)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: strides[%d] is %lld; negative strides are not supported", op,
                                  d, (long long)strides[d]);
        int64_t span = 0;
        if (shape[d] > 0 && (__builtin_mul_overflow(strides[d], shape[d] - 1, &span) ||
                             __builtin_add_overflow(last, span, &last)))
            return tsr__set_error(TSR_ERR_OVERFLOW, "%s: strides[%d] reaches past int64", op, d);
    }
    *out = numel == 0 ? 0 : last + 1;
    return TSR_OK;
}

static void keep_memory(void *context)
{
    (void)context;
}

tsr_status tsr__blob_wrap(const char *op, void *data, int ndim, const int64_t *shape,
                          const int64_t *strides, tsr_dtype dtype, void (*release)(void *context),
                          void *context, tsr_backend *backend, tsr_tensor **out)
{
    size_t elem = tsr_dtype_size(dtype);
    if (elem == 0)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: dtype %d is invalid", op, (int)dtype);
    if (!data)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: data must not be NULL", op);
    if ((uintptr_t)data % elem != 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: data %p is not aligned to %s's %zu-byte elements", op, data,
                              tsr_dtype_name(dtype), elem);
    if (ndim > 0 && !shape)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: shape must not be NULL", op);
    int64_t numel = 0, extent = 0;
    tsr_status st = tsr__check_shape(op, "shape", ndim, shape, elem, &numel);
    if (st != TSR_OK)
        return st;
    int64_t dense[TSR_MAX_DIMS];
    if (!strides) {
        tsr__contiguous_strides(ndim, shape, dense);
        strides = dense;
    }
    st = blob_extent(op, ndim, shape, strides, numel, &extent);
    if (st == TSR_OK && (uint64_t)extent > (uint64_t)INT64_MAX / elem)
        st = tsr__set_error(TSR_ERR_OVERFLOW, "%s: the strides reach past int64 bytes", op);
    tsr_backend *b = NULL;
    if (st == TSR_OK)
        st = pick_host_backend(op, backend, &b);
    tsr__storage *storage = NULL;
    if (st == TSR_OK)
        st = tsr__storage_wrap(b, data, (size_t)extent * elem, release, context, &storage);
    if (st != TSR_OK)
        return st;
    st = tsr__tensor_wrap(storage, dtype, ndim, shape, strides, 0, out);
    /* wrap took its own reference; on failure this drops the only one, and
     * the caller keeps ownership, so the release must not run. */
    if (st != TSR_OK)
        storage->release = keep_memory;
    tsr__storage_release(storage);
    return st;
}

typedef struct blob_owner {
    tsr_blob_deleter deleter;
    void *data;
    void *context;
} blob_owner;

static void blob_release(void *context)
{
    blob_owner *owner = context;
    if (owner->deleter)
        owner->deleter(owner->data, owner->context);
    free(owner);
}

tsr_status tsr_from_blob(void *data, int ndim, const int64_t *shape, const int64_t *strides,
                         tsr_dtype dtype, tsr_blob_deleter deleter, void *context,
                         tsr_backend *backend, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_from_blob: out must not be NULL");
    blob_owner *owner = tsr__malloc(sizeof *owner);
    if (!owner)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tsr_from_blob: out of memory");
    *owner = (blob_owner){deleter, data, context};
    tsr_status st = tsr__blob_wrap("tsr_from_blob", data, ndim, shape, strides, dtype, blob_release,
                                   owner, backend, out);
    if (st != TSR_OK)
        free(owner);
    return st;
}
