/* The exported entry point and the plugin table. Every table function takes
 * the backend lock for its whole duration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "kernel_matmul.h"
#include "transfer.h"

#define TSR__CU_VERSION "0.1.0"

/* Below the cpu backend's 20 while reductions, matmul and the nn ops are
 * not claimed: a program that
 * asks for no backend keeps a complete one; name it (TESSERA_BACKEND=cuda). */
enum { TSR__CU_PROBE_SCORE = 15 };

static int tsr__cu_probe(const tsr_host_api *host, char *reason, size_t capacity)
{
    (void)host;
    int device;
    return tsr__cu_probe_device(reason, capacity, &device) == 0 ? TSR__CU_PROBE_SCORE : -1;
}

static void tsr__cu_destroy(struct tsr__cu_backend *b)
{
    if (b->stream) {
        cudaStreamSynchronize(b->stream);
        tsr__cu_cublas_shutdown(b);
        tsr__cu_memory_shutdown(b);
        cudaStreamDestroy(b->stream);
    }
    free(b->kernels);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static int tsr__cu_init(const tsr_host_api *host, void **backend)
{
    char reason[512];
    int device;
    if (tsr__cu_probe_device(reason, sizeof reason, &device) != 0)
        return host->set_error(TSR_ERR_BACKEND, "%s", reason);
    struct tsr__cu_backend *b = calloc(1, sizeof *b);
    if (!b)
        return host->set_error(TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    b->host = host;
    b->device = device;
    snprintf(b->name, sizeof b->name, "%s", reason);
    pthread_mutex_init(&b->lock, NULL);
    cudaError_t err = cudaSetDevice(device);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&b->stream, cudaStreamNonBlocking);
    if (err != cudaSuccess) {
        tsr__cu_destroy(b);
        return tsr__cu_error(host, err, "creating the stream");
    }
    const char *alloc = getenv("TESSERA_CUDA_ALLOC");
    int caching = !(alloc && strcmp(alloc, "plain") == 0);
    int status = tsr__cu_memory_init(b, caching);
    if (status == TSR_OK)
        status = tsr__cu_kernel_table_build(b);
    if (status != TSR_OK) {
        tsr__cu_destroy(b);
        return status;
    }
    host->log(TSR_LOG_INFO, "cuda", "%s; %s allocator; %zu kernels", b->name,
              caching ? "caching" : "plain", b->kernel_count);
    *backend = b;
    return TSR_OK;
}

static void tsr__cu_shutdown(void *backend)
{
    if (backend)
        tsr__cu_destroy(backend);
}

static int tsr__cu_describe(void *backend, char *text, size_t capacity)
{
    struct tsr__cu_backend *b = backend;
    snprintf(text, capacity, "%s", b->name);
    return TSR_OK;
}

static int tsr__cu_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    struct tsr__cu_backend *b = backend;
    *entries = b->kernels;
    *count = b->kernel_count;
    return TSR_OK;
}

static int tsr__cu_alloc(void *backend, size_t bytes, void **handle)
{
    struct tsr__cu_backend *b = backend;
    tsr__cu_block *block;
    pthread_mutex_lock(&b->lock);
    int failed = tsr__cu_allocator_alloc(&b->device_pool, bytes, tsr__cu_fence_poll(b), &block);
    pthread_mutex_unlock(&b->lock);
    if (failed)
        return b->host->set_error(TSR_ERR_OUT_OF_MEMORY, "cudaMalloc of %zu bytes failed", bytes);
    *handle = block;
    return TSR_OK;
}

/* Safe with queued work: the block goes back to the stream-ordered pool. */
static void tsr__cu_free(void *backend, void *handle)
{
    struct tsr__cu_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    tsr__cu_allocator_free(&b->device_pool, handle, b->fences.next);
    pthread_mutex_unlock(&b->lock);
}

static int tsr__cu_copy_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                                  size_t bytes)
{
    struct tsr__cu_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__cu_upload(b, dst, dst_offset, src, bytes);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static int tsr__cu_copy_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                                size_t bytes)
{
    struct tsr__cu_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__cu_download(b, dst, src, src_offset, bytes);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static int tsr__cu_copy_on_device(void *backend, void *dst, size_t dst_offset, const void *src,
                                  size_t src_offset, size_t bytes)
{
    struct tsr__cu_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__cu_device_copy(b, dst, dst_offset, src, src_offset, bytes);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static int tsr__cu_synchronize(void *backend)
{
    struct tsr__cu_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__cu_wait_all(b);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static const tsr_plugin tsr__cu_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "cuda",
    .version = TSR__CU_VERSION,
    .flags = 0, /* handles are allocator blocks over device memory */
    .probe = tsr__cu_probe,
    .init = tsr__cu_init,
    .shutdown = tsr__cu_shutdown,
    .describe = tsr__cu_describe,
    .kernels = tsr__cu_kernels,
    .memory_alloc = tsr__cu_alloc,
    .memory_free = tsr__cu_free,
    .copy_from_host = tsr__cu_copy_from_host,
    .copy_to_host = tsr__cu_copy_to_host,
    .copy_on_device = tsr__cu_copy_on_device,
    .synchronize = tsr__cu_synchronize,
};

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if ((host_abi >> 16) != TSR_PLUGIN_ABI_MAJOR) {
        host->set_error(TSR_ERR_PLUGIN, "cuda plugin speaks ABI %d.x; the host speaks %u.%u",
                        TSR_PLUGIN_ABI_MAJOR, host_abi >> 16, host_abi & 0xffffu);
        return NULL;
    }
    return &tsr__cu_plugin;
}
