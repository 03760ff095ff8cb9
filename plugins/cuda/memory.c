/* Device memory, pinned staging and stream positions (fences).
 *
 * Handles are allocator blocks (allocator.h): the device pool's blocks hold
 * device pointers. Frees return blocks to the pool at once: the backend has
 * one stream, so any later use of a reused block is queued after the last
 * use of its previous owner. Pinned staging blocks are written by the host,
 * so they carry the fence of the copy that read them and are reused only
 * once the stream has passed it. */
#include <stdlib.h>

#include "backend.h"

static int device_malloc(void *ctx, size_t bytes, void **ptr)
{
    (void)ctx;
    return cudaMalloc(ptr, bytes) == cudaSuccess ? 0 : 1;
}

static void device_free(void *ctx, void *ptr)
{
    (void)ctx;
    cudaFree(ptr);
}

static int pinned_malloc(void *ctx, size_t bytes, void **ptr)
{
    (void)ctx;
    return cudaMallocHost(ptr, bytes) == cudaSuccess ? 0 : 1;
}

static void pinned_free(void *ctx, void *ptr)
{
    (void)ctx;
    cudaFreeHost(ptr);
}

int tsr__cu_memory_init(struct tsr__cu_backend *b, int caching)
{
    tsr__cu_allocator_init(&b->device_pool, (tsr__cu_alloc_ops){device_malloc, device_free, b},
                           caching, 1);
    tsr__cu_allocator_init(&b->pinned_pool, (tsr__cu_alloc_ops){pinned_malloc, pinned_free, b},
                           caching, 0);
    for (int i = 0; i < TSR__CU_FENCE_RING; i++) {
        cudaError_t err = cudaEventCreateWithFlags(&b->fences.events[i], cudaEventDisableTiming);
        if (err != cudaSuccess)
            return tsr__cu_error(b->host, err, "cudaEventCreateWithFlags");
    }
    cudaError_t err = cudaMalloc((void **)&b->flag_device, sizeof(int));
    if (err == cudaSuccess)
        err = cudaMallocHost((void **)&b->flag_host, sizeof(int));
    if (err != cudaSuccess)
        return tsr__cu_error(b->host, err, "allocating the divisor scan's flag");
    return TSR_OK;
}

void tsr__cu_memory_shutdown(struct tsr__cu_backend *b)
{
    tsr__cu_allocator_trim(&b->device_pool, UINT64_MAX);
    tsr__cu_allocator_trim(&b->pinned_pool, UINT64_MAX);
    if (b->flag_device)
        cudaFree(b->flag_device);
    if (b->flag_host)
        cudaFreeHost(b->flag_host);
    for (int i = 0; i < TSR__CU_FENCE_RING; i++) {
        if (b->fences.events[i])
            cudaEventDestroy(b->fences.events[i]);
    }
}

uint64_t tsr__cu_fence_poll(struct tsr__cu_backend *b)
{
    struct tsr__cu_fences *f = &b->fences;
    while (f->count > 0 && cudaEventQuery(f->events[f->head]) == cudaSuccess) {
        f->completed = f->serials[f->head];
        f->head = (f->head + 1) % TSR__CU_FENCE_RING;
        f->count--;
    }
    return f->completed;
}

/* A full ring waits for its oldest event: back-pressure on a host that
 * queues staging copies faster than the device runs them. */
int tsr__cu_fence_record(struct tsr__cu_backend *b, uint64_t *serial)
{
    struct tsr__cu_fences *f = &b->fences;
    if (f->count == TSR__CU_FENCE_RING) {
        cudaError_t err = cudaEventSynchronize(f->events[f->head]);
        if (err != cudaSuccess)
            return tsr__cu_error(b->host, err, "cudaEventSynchronize");
        tsr__cu_fence_poll(b);
    }
    int slot = (f->head + f->count) % TSR__CU_FENCE_RING;
    cudaError_t err = cudaEventRecord(f->events[slot], b->stream);
    if (err != cudaSuccess)
        return tsr__cu_error(b->host, err, "cudaEventRecord");
    f->serials[slot] = ++f->next;
    f->count++;
    *serial = f->next;
    return TSR_OK;
}

int tsr__cu_wait_all(struct tsr__cu_backend *b)
{
    cudaError_t err = cudaStreamSynchronize(b->stream);
    if (err != cudaSuccess)
        return tsr__cu_error(b->host, err, "cudaStreamSynchronize");
    b->fences.completed = b->fences.next;
    b->fences.count = 0;
    return TSR_OK;
}
