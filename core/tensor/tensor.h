/* Tensor and storage internals. */
#ifndef TSR_CORE_TENSOR_H
#define TSR_CORE_TENSOR_H

#include "tessera/tessera.h"

#include <stdatomic.h>

/* A block of backend memory shared by every view of it. */
typedef struct tsr__storage {
    atomic_long refcount;
    tsr_backend *backend;
    void *handle; /* the backend's memory handle */
    size_t nbytes;
    atomic_uint_least64_t version; /* bumped by every in-place write */
    /* Memory the storage does not own (tsr_from_blob, DLPack): freed by
     * calling release(release_context) once, instead of the backend's free. */
    void (*release)(void *release_context);
    void *release_context;
} tsr__storage;

/* Autograd's record of a tensor: opaque here (autograd/graph.h). */
struct tsr__autograd_meta;

struct tsr_tensor {
    atomic_long refcount;
    tsr__storage *storage;
    struct tsr__autograd_meta *autograd; /* owned, opaque; NULL until autograd needs one */
    tsr_tensor *view_base; /* strong: the tensor a view op made this one of, or NULL */
    uint64_t view_history; /* set by autograd: view_base's history count then (graph.h) */
    tsr_dtype dtype;
    int ndim;
    int64_t offset; /* elements from the start of storage */
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS];
};

/* Allocates storage of `nbytes` on `backend`. */
tsr_status tsr__storage_create(tsr_backend *backend, size_t nbytes, tsr__storage **out);
/* Storage over `handle`, memory of `backend` that someone else owns: the
 * last release calls release(context) (not NULL) and never the backend's
 * free. On failure release is not called. */
tsr_status tsr__storage_wrap(tsr_backend *backend, void *handle, size_t nbytes,
                             void (*release)(void *context), void *context, tsr__storage **out);
void tsr__storage_retain(tsr__storage *s);
void tsr__storage_release(tsr__storage *s);

/* A new tensor viewing `storage` (retained) with the given geometry. */
tsr_status tsr__tensor_wrap(tsr__storage *storage, tsr_dtype dtype, int ndim,
                            const int64_t *shape, const int64_t *strides, int64_t offset,
                            tsr_tensor **out);
/* A contiguous uninitialised tensor. `op` names the caller in errors. */
tsr_status tsr__tensor_empty(const char *op, tsr_backend *backend, tsr_dtype dtype, int ndim,
                             const int64_t *shape, tsr_tensor **out);
/* A view of t sharing its storage with new geometry. */
tsr_status tsr__tensor_restride(const tsr_tensor *t, int ndim, const int64_t *shape,
                                const int64_t *strides, int64_t offset, tsr_tensor **out);

/* Whether distinct indices of t can reach the same element. */
bool tsr__has_internal_overlap(const tsr_tensor *t);
/* Whether a and b cover exactly the same elements in the same order. */
bool tsr__same_layout(const tsr_tensor *a, const tsr_tensor *b);
/* Whether an in-place op writing a must refuse reading b (PyTorch's partial
 * overlap: both dense over ranges of one storage that meet but differ). */
bool tsr__partially_overlaps(const tsr_tensor *a, const tsr_tensor *b);
/* PyTorch's words for that refusal; the one argument is the op's name. */
#define TSR__PARTIAL_OVERLAP_MESSAGE                                                       \
    "%s: unsupported operation: some elements of the input tensor and the written-to "   \
    "tensor refer to a single memory location. Please clone() the tensor before "         \
    "performing the operation."
void tsr__bump_version(tsr_tensor *t);
/* Who frees a tensor's autograd record (the autograd layer, before it makes
 * the first one); the tensor layer only calls it. */
void tsr__tensor_set_autograd_release(void (*release)(struct tsr__autograd_meta *meta));

#endif
