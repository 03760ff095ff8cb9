/* The reference backend's entry point, plugin table and memory.
 *
 * Memory handles are plain host pointers (TSR_PLUGIN_HOST_MEMORY), 64-byte
 * aligned so any dtype and any vector width the core may use is aligned.
 * Work runs synchronously inside each kernel call, so there is nothing to
 * wait for and freeing is always safe. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

enum { ALIGNMENT = 64 };

static const char PLUGIN_NAME[] = "reference";

int tsr__ref_error(const tsr__ref_backend *backend, int status, const char *fmt, ...)
{
    if (backend == NULL || backend->host == NULL || backend->host->set_error == NULL) {
        return status;
    }
    char message[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    return backend->host->set_error(status, "%s", message);
}

static int reference_probe(const tsr_host_api *host, char *reason, size_t reason_capacity)
{
    (void)host;
    if (reason != NULL && reason_capacity > 0) {
        snprintf(reason, reason_capacity, "portable C, always usable, slow");
    }
    return 0;
}

static int reference_init(const tsr_host_api *host, void **backend_out)
{
    tsr__ref_backend *backend = calloc(1, sizeof *backend);
    if (backend == NULL) {
        return host != NULL && host->set_error != NULL
                   ? host->set_error(TSR_ERR_OUT_OF_MEMORY, "reference: no memory for state")
                   : TSR_ERR_OUT_OF_MEMORY;
    }
    backend->host = host;
    int status = tsr__ref_kernel_table_build(&backend->entries, &backend->entry_count);
    if (status != TSR_OK) {
        free(backend);
        return host != NULL && host->set_error != NULL
                   ? host->set_error(status, "reference: no memory for the kernel table")
                   : status;
    }
    *backend_out = backend;
    return TSR_OK;
}

static void reference_shutdown(void *backend_ptr)
{
    tsr__ref_backend *backend = backend_ptr;
    if (backend != NULL) {
        free(backend->entries);
        free(backend);
    }
}

static int reference_describe(void *backend, char *text, size_t capacity)
{
    (void)backend;
    if (text != NULL && capacity > 0) {
        snprintf(text, capacity, "host CPU, portable C11 reference kernels (single thread)");
    }
    return TSR_OK;
}

static int reference_kernels(void *backend_ptr, const tsr_kernel_entry **entries, size_t *count)
{
    const tsr__ref_backend *backend = backend_ptr;
    *entries = backend->entries;
    *count = backend->entry_count;
    return TSR_OK;
}

/* A zero-byte request still gets a real, distinct block. */
static int reference_memory_alloc(void *backend, size_t bytes, void **handle)
{
    size_t rounded = bytes == 0 ? ALIGNMENT : bytes;
    if (rounded > SIZE_MAX - (ALIGNMENT - 1)) {
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes", bytes);
    }
    /* aligned_alloc wants a multiple of the alignment. */
    rounded = (rounded + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    void *memory = aligned_alloc(ALIGNMENT, rounded);
    if (memory == NULL) {
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "cannot allocate %zu bytes", bytes);
    }
    *handle = memory;
    return TSR_OK;
}

static void reference_memory_free(void *backend, void *handle)
{
    (void)backend;
    free(handle);
}

static int reference_copy_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                                    size_t bytes)
{
    (void)backend;
    if (bytes > 0) {
        memcpy((char *)dst + dst_offset, src, bytes);
    }
    return TSR_OK;
}

static int reference_copy_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                                  size_t bytes)
{
    (void)backend;
    if (bytes > 0) {
        memcpy(dst, (const char *)src + src_offset, bytes);
    }
    return TSR_OK;
}

/* memmove: source and destination may be ranges of one block. */
static int reference_copy_on_device(void *backend, void *dst, size_t dst_offset, const void *src,
                                    size_t src_offset, size_t bytes)
{
    (void)backend;
    if (bytes > 0) {
        memmove((char *)dst + dst_offset, (const char *)src + src_offset, bytes);
    }
    return TSR_OK;
}

static const tsr_plugin reference_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = PLUGIN_NAME,
    .version = "1.0.0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .probe = reference_probe,
    .init = reference_init,
    .shutdown = reference_shutdown,
    .describe = reference_describe,
    .kernels = reference_kernels,
    .memory_alloc = reference_memory_alloc,
    .memory_free = reference_memory_free,
    .copy_from_host = reference_copy_from_host,
    .copy_to_host = reference_copy_to_host,
    .copy_on_device = reference_copy_on_device,
    .synchronize = NULL, /* kernels finish before they return */
};

/* A host of another major version may lay out tsr_host_api differently, so
 * set_error is only called when the struct is large enough to hold it. */
TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if ((host_abi >> 16) != TSR_PLUGIN_ABI_MAJOR) {
        if (host != NULL && host->struct_size >= sizeof(tsr_host_api) && host->set_error != NULL) {
            host->set_error(TSR_ERR_PLUGIN, "reference plugin speaks ABI %d.%d, host speaks %u.%u",
                            TSR_PLUGIN_ABI_MAJOR, TSR_PLUGIN_ABI_MINOR, (unsigned)(host_abi >> 16),
                            (unsigned)(host_abi & 0xffffu));
        }
        return NULL;
    }
    return &reference_plugin;
}
