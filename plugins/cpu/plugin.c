/* The cpu backend's entry point, plugin table and memory.
 *
 * Memory handles are host pointers (TSR_PLUGIN_HOST_MEMORY) from the caching
 * allocator, at least 64-byte aligned. Kernels finish before they return, so
 * there is nothing to wait for and freeing is always safe. */
#include <stdio.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_blas.h"

static const char PLUGIN_NAME[] = "cpu";

/* Above reference (0) and a Vulkan CPU device such as lavapipe (10), below
 * any GPU: the default on hosts without one. */
enum { CPU_SCORE = 20 };

static int cpu_probe(const tsr_host_api *host, char *reason, size_t reason_capacity)
{
    (void)host;
    tsr__cpu_options options = {0};
    tsr__cpu_options_from_env(&options);
    if (reason != NULL && reason_capacity > 0) {
        snprintf(reason, reason_capacity, "host CPU, %s kernels, %d threads",
                 tsr__cpu_isa_name(tsr__cpu_isa_detect()), options.threads);
    }
    return CPU_SCORE;
}

static int cpu_init(const tsr_host_api *host, void **backend_out)
{
    tsr__cpu_options options = {0};
    tsr__cpu_options_from_env(&options);
    tsr__cpu_backend *backend = NULL;
    int status = tsr__cpu_backend_create(host, &options, &backend);
    if (status == TSR_OK) {
        *backend_out = backend;
    }
    return status;
}

static void cpu_shutdown(void *backend)
{
    tsr__cpu_backend_destroy(backend);
}

static int cpu_describe(void *backend_ptr, char *text, size_t capacity)
{
    const tsr__cpu_backend *backend = backend_ptr;
    if (text != NULL && capacity > 0) {
        snprintf(text, capacity, "host CPU, %s kernels, %d threads; %s", backend->simd->name,
                 backend->threads, tsr__cpu_blas_config());
    }
    return TSR_OK;
}

static int cpu_kernels(void *backend_ptr, const tsr_kernel_entry **entries, size_t *count)
{
    const tsr__cpu_backend *backend = backend_ptr;
    *entries = backend->ref.entries;
    *count = backend->ref.entry_count;
    return TSR_OK;
}

static int cpu_memory_alloc(void *backend_ptr, size_t bytes, void **handle)
{
    tsr__cpu_backend *backend = backend_ptr;
    void *memory = tsr__cpu_alloc(backend->cache, bytes);
    if (memory == NULL) {
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes", bytes);
    }
    *handle = memory;
    return TSR_OK;
}

static void cpu_memory_free(void *backend_ptr, void *handle)
{
    tsr__cpu_backend *backend = backend_ptr;
    tsr__cpu_free(backend->cache, handle);
}

static int cpu_copy_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                              size_t bytes)
{
    (void)backend;
    if (bytes > 0) {
        memcpy((char *)dst + dst_offset, src, bytes);
    }
    return TSR_OK;
}

static int cpu_copy_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                            size_t bytes)
{
    (void)backend;
    if (bytes > 0) {
        memcpy(dst, (const char *)src + src_offset, bytes);
    }
    return TSR_OK;
}

/* memmove: source and destination may be ranges of one block. */
static int cpu_copy_on_device(void *backend, void *dst, size_t dst_offset, const void *src,
                              size_t src_offset, size_t bytes)
{
    (void)backend;
    if (bytes > 0) {
        memmove((char *)dst + dst_offset, (const char *)src + src_offset, bytes);
    }
    return TSR_OK;
}

static const tsr_plugin cpu_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = PLUGIN_NAME,
    .version = "1.0.0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .probe = cpu_probe,
    .init = cpu_init,
    .shutdown = cpu_shutdown,
    .describe = cpu_describe,
    .kernels = cpu_kernels,
    .memory_alloc = cpu_memory_alloc,
    .memory_free = cpu_memory_free,
    .copy_from_host = cpu_copy_from_host,
    .copy_to_host = cpu_copy_to_host,
    .copy_on_device = cpu_copy_on_device,
    .synchronize = NULL, /* kernels finish before they return */
};

/* A host of another major version may lay out tsr_host_api differently, so
 * set_error is only called when the struct is large enough to hold it. */
TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if ((host_abi >> 16) != TSR_PLUGIN_ABI_MAJOR) {
        if (host != NULL && host->struct_size >= sizeof(tsr_host_api) && host->set_error != NULL) {
            host->set_error(TSR_ERR_PLUGIN, "cpu plugin speaks ABI %d.%d, host speaks %u.%u",
                            TSR_PLUGIN_ABI_MAJOR, TSR_PLUGIN_ABI_MINOR, (unsigned)(host_abi >> 16),
                            (unsigned)(host_abi & 0xffffu));
        }
        return NULL;
    }
    return &cpu_plugin;
}
