/* Tensors and their reference-counted storage. */
#include "tensor/tensor.h"

#include "runtime/backend.h"
#include "runtime/error.h"
#include "tensor/scalar.h"
#include "tensor/record_cache.h"
#include "tensor/shape.h"

#include <string.h>

tsr_status tsr__storage_create(tsr_backend *backend, size_t nbytes, tsr__storage **out)
{
    tsr__storage *s = tsr__record_alloc(TSR__RECORD_STORAGE);
    if (!s)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "out of host memory for a storage record");
    tsr_status st = tsr__backend_alloc(backend, nbytes, &s->handle);
    if (st != TSR_OK) {
        tsr__record_free(TSR__RECORD_STORAGE, s);
        return st;
    }
    atomic_init(&s->refcount, 1);
    atomic_init(&s->version, 0);
    s->backend = backend;
    s->nbytes = nbytes;
    *out = s;
    return TSR_OK;
}

tsr_status tsr__storage_wrap(tsr_backend *backend, void *handle, size_t nbytes,
                             void (*release)(void *context), void *context, tsr__storage **out)
{
    tsr__storage *s = tsr__record_alloc(TSR__RECORD_STORAGE);
    if (!s)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "out of host memory for a storage record");
    atomic_init(&s->refcount, 1);
    atomic_init(&s->version, 0);
    s->backend = backend;
    s->handle = handle;
    s->nbytes = nbytes;
    s->release = release;
    s->release_context = context;
    *out = s;
    return TSR_OK;
}

void tsr__storage_retain(tsr__storage *s)
{
    atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
}

void tsr__storage_release(tsr__storage *s)
{
    if (!s || atomic_fetch_sub_explicit(&s->refcount, 1, memory_order_acq_rel) != 1)
        return;
    if (s->release)
        s->release(s->release_context);
    else
        tsr__backend_free(s->backend, s->handle);
    tsr__record_free(TSR__RECORD_STORAGE, s);
}

/* Takes over the caller's reference to storage, also when it fails. */
static tsr_status wrap_owned(tsr__storage *storage, tsr_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, int64_t offset, tsr_tensor **out)
{
    tsr_tensor *t = tsr__record_alloc(TSR__RECORD_TENSOR);
    if (!t) {
        tsr__storage_release(storage);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "out of host memory for a tensor record");
    }
    atomic_init(&t->refcount, 1);
    t->storage = storage;
    t->dtype = dtype;
    t->ndim = ndim;
    t->offset = offset;
    if (ndim > 0) {
        memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
        memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    }
    *out = t;
    return TSR_OK;
}

tsr_status tsr__tensor_wrap(tsr__storage *storage, tsr_dtype dtype, int ndim,
                            const int64_t *shape, const int64_t *strides, int64_t offset,
                            tsr_tensor **out)
{
    tsr__storage_retain(storage);
    return wrap_owned(storage, dtype, ndim, shape, strides, offset, out);
}

tsr_status tsr__tensor_empty(const char *op, tsr_backend *backend, tsr_dtype dtype, int ndim,
                             const int64_t *shape, tsr_tensor **out)
{
    if (!tsr__dtype_valid(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: invalid dtype id %d", op, (int)dtype);
    int64_t numel;
    tsr_status st = tsr__check_shape(op, "size", ndim, shape, tsr_dtype_size(dtype), &numel);
    if (st != TSR_OK)
        return st;
    tsr_backend *b;
    if ((st = tsr__backend_resolve(op, backend, &b)) != TSR_OK)
        return st;
    tsr__storage *storage = NULL;
    if ((st = tsr__storage_create(b, (size_t)numel * tsr_dtype_size(dtype), &storage)) != TSR_OK) {
        tsr__prefix_error("%s", op);
        return st;
    }
    int64_t strides[TSR_MAX_DIMS];
    tsr__contiguous_strides(ndim, shape, strides);
    if ((st = wrap_owned(storage, dtype, ndim, shape, strides, 0, out)) != TSR_OK)
        tsr__prefix_error("%s", op);
    return st;
}

tsr_status tsr__tensor_restride(const tsr_tensor *t, int ndim, const int64_t *shape,
                                const int64_t *strides, int64_t offset, tsr_tensor **out)
{
    return tsr__tensor_wrap(t->storage, t->dtype, ndim, shape, strides, offset, out);
}

void tsr_tensor_retain(const tsr_tensor *tensor)
{
    if (tensor)
        atomic_fetch_add_explicit(&((tsr_tensor *)tensor)->refcount, 1, memory_order_relaxed);
}

/* Set by the autograd layer before it fills the first slot: tensors carry
 * autograd's record without knowing what is in it. */
static void (*_Atomic autograd_release)(struct tsr__autograd_meta *);

void tsr__tensor_set_autograd_release(void (*release)(struct tsr__autograd_meta *meta))
{
    /* Called for every record made: a store only the first time keeps the
     * cache line shared between threads. */
    if (atomic_load_explicit(&autograd_release, memory_order_acquire) != release)
        atomic_store_explicit(&autograd_release, release, memory_order_release);
}

void tsr_tensor_release(const tsr_tensor *tensor)
{
    tsr_tensor *t = (tsr_tensor *)tensor;
    if (!t || atomic_fetch_sub_explicit(&t->refcount, 1, memory_order_acq_rel) != 1)
        return;
    if (t->autograd)
        atomic_load_explicit(&autograd_release, memory_order_acquire)(t->autograd);
    tsr_tensor_release(t->view_base);
    tsr__storage_release(t->storage);
    tsr__record_free(TSR__RECORD_TENSOR, t);
}

/* The getters take NULL, as tsr_tensor_release does, and answer "nothing":
 * a caller checking a result it did not get must not crash. */
tsr_dtype tsr_tensor_dtype(const tsr_tensor *t)
{
    return t ? t->dtype : TSR_DTYPE_COUNT;
}

int tsr_tensor_ndim(const tsr_tensor *t)
{
    return t ? t->ndim : 0;
}

const int64_t *tsr_tensor_shape(const tsr_tensor *t)
{
    return t ? t->shape : NULL;
}

const int64_t *tsr_tensor_strides(const tsr_tensor *t)
{
    return t ? t->strides : NULL;
}

int64_t tsr_tensor_offset(const tsr_tensor *t)
{
    return t ? t->offset : 0;
}

int64_t tsr_tensor_numel(const tsr_tensor *t)
{
    return t ? tsr__numel(t->ndim, t->shape) : 0;
}

bool tsr_tensor_is_contiguous(const tsr_tensor *t)
{
    return t && tsr__is_contiguous(t->ndim, t->shape, t->strides);
}

tsr_backend *tsr_tensor_backend(const tsr_tensor *t)
{
    return t ? t->storage->backend : NULL;
}

bool tsr_tensor_shares_storage(const tsr_tensor *a, const tsr_tensor *b)
{
    return a && b && a->storage == b->storage;
}

uint64_t tsr_tensor_version(const tsr_tensor *t)
{
    return t ? atomic_load(&t->storage->version) : 0;
}

void tsr__bump_version(tsr_tensor *t)
{
    atomic_fetch_add(&t->storage->version, 1);
}

/* Sorting dims by stride and checking that each stride exceeds the span of
 * the smaller ones detects overlap exactly for the strides views produce. */
bool tsr__has_internal_overlap(const tsr_tensor *t)
{
    int order[TSR_MAX_DIMS], n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0)
            return false;
        if (t->shape[i] > 1) {
            if (t->strides[i] == 0)
                return true;
            order[n++] = i;
        }
    }
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && t->strides[order[j]] < t->strides[order[j - 1]]; j--) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    }
    int64_t span = 0; /* highest element offset reachable by the smaller dims */
    for (int i = 0; i < n; i++) {
        int d = order[i];
        if (t->strides[d] <= span)
            return true;
        span += t->strides[d] * (t->shape[d] - 1);
    }
    return false;
}

bool tsr__same_layout(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->storage != b->storage || a->offset != b->offset || a->ndim != b->ndim ||
        a->dtype != b->dtype)
        return false;
    for (int i = 0; i < a->ndim; i++) {
        if (a->shape[i] != b->shape[i])
            return false;
        if (a->shape[i] > 1 && a->strides[i] != b->strides[i])
            return false;
    }
    return true;
}

/* Non-overlapping and dense: the strides, sorted, are those of a contiguous
 * tensor of some permutation of the dims, so the elements fill one range. */
static bool is_dense(const tsr_tensor *t)
{
    int order[TSR_MAX_DIMS], n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] > 1)
            order[n++] = i;
    }
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && t->strides[order[j]] < t->strides[order[j - 1]]; j--) {
            int d = order[j];
            order[j] = order[j - 1];
            order[j - 1] = d;
        }
    }
    int64_t expected = 1;
    for (int i = 0; i < n; i++) {
        if (t->strides[order[i]] != expected)
            return false;
        expected *= t->shape[order[i]];
    }
    return true;
}

/* PyTorch's get_overlap_status == PARTIAL: both dense, on one storage, with
 * ranges that intersect but differ. Ranges that are equal (the same view, or
 * a transposed square) are a full overlap, which in-place ops take. */
bool tsr__partially_overlaps(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a == b || a->storage != b->storage)
        return false;
    int64_t na = tsr__numel(a->ndim, a->shape), nb = tsr__numel(b->ndim, b->shape);
    if (na == 0 || nb == 0 || !is_dense(a) || !is_dense(b))
        return false;
    int64_t sa = (int64_t)tsr_dtype_size(a->dtype), sb = (int64_t)tsr_dtype_size(b->dtype);
    int64_t a_begin = a->offset * sa, a_end = a_begin + na * sa;
    int64_t b_begin = b->offset * sb, b_end = b_begin + nb * sb;
    if (a_begin == b_begin && a_end == b_end)
        return false;
    return a_begin < b_end && b_begin < a_end;
}
