/* The caching allocator's bookkeeping, in plain C with no CUDA in sight, so
 * that its rules are unit-tested without a device (tests/test_cuda_allocator.c
 * drives it with a fake device malloc).
 *
 * Blocks are rounded to size classes and kept on per-class free lists when
 * freed. Each free block carries a fence: the stream position after its last
 * use. A stream-ordered pool (device memory used by the backend's one stream)
 * may hand a block out again at once, since everything later on that stream
 * runs after its last use, as PyTorch's allocator does; a host-visible pool
 * (pinned staging that the host writes) reuses a block only when the stream
 * has passed its fence. */
#ifndef TSR_CUDA_ALLOCATOR_H
#define TSR_CUDA_ALLOCATOR_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsr__cu_alloc_ops {
    /* Returns 0 and a pointer, or nonzero when the device is out of memory. */
    int (*malloc)(void *ctx, size_t bytes, void **ptr);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} tsr__cu_alloc_ops;

typedef struct tsr__cu_block {
    void *ptr;
    size_t size;    /* the size class, what ops.malloc was asked for */
    size_t request; /* what the caller asked for */
    uint64_t fence; /* stream position after the last use, once freed */
    struct tsr__cu_block *next;
} tsr__cu_block;

enum { TSR__CU_CLASS_COUNT = 40 };

typedef struct tsr__cu_allocator {
    tsr__cu_alloc_ops ops;
    int caching;        /* 0: TESSERA_CUDA_ALLOC=plain, every free goes to the device */
    int stream_ordered; /* 1: free blocks are reusable before their fence passes */
    tsr__cu_block *free_lists[TSR__CU_CLASS_COUNT];
    size_t cached_bytes; /* in free lists */
    size_t live_bytes;   /* handed out */
    uint64_t device_mallocs, reuses;
} tsr__cu_allocator;

void tsr__cu_allocator_init(tsr__cu_allocator *a, tsr__cu_alloc_ops ops, int caching,
                            int stream_ordered);
/* The size class of a request: 512 bytes at least, powers of two up to
 * 1 MiB, multiples of 2 MiB beyond (at most one round up in 2^k). */
size_t tsr__cu_size_class(size_t bytes);
/* Returns 0 and a block, or nonzero when out of memory (after releasing
 * every cached block whose fence has passed and trying again). `completed`
 * is the last stream position known to be finished. */
int tsr__cu_allocator_alloc(tsr__cu_allocator *a, size_t bytes, uint64_t completed,
                            tsr__cu_block **block);
/* `fence`: the stream position after the block's last use. */
void tsr__cu_allocator_free(tsr__cu_allocator *a, tsr__cu_block *block, uint64_t fence);
/* Gives back to the device every cached block whose fence <= completed. */
void tsr__cu_allocator_trim(tsr__cu_allocator *a, uint64_t completed);

/* The address `byte_offset` bytes into a handle's (a block's) memory;
 * NULL for a NULL handle (an empty tensor's). */
void *tsr__cu_ptr(const void *handle, int64_t byte_offset);

#endif
