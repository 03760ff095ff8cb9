/* The exported entry point and the plugin table.
 *
 * Every table function takes the backend lock (backend.h) for its whole
 * duration; the kernels take it in their own files (copy.c, elementwise.c, ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tessera/plugin.h>

#include "backend.h"
#include "host.h"
#include "transfer.h"
#include "vk_loader.h"

#define TSR__VK_VERSION "0.1.0"

static void tsr__vk_destroy(struct tsr__vk_backend *b)
{
    if (b->device.device) {
        tsr__vk_submit_shutdown(&b->submit);
        tsr__vk_pipelines_shutdown(&b->pipelines);
        tsr__vk_memory_shutdown(&b->memory);
    }
    if (b->device.validation)
        tsr__vk_log(b->host, TSR_LOG_INFO, "validation: %llu warnings and errors in this session",
                    (unsigned long long)atomic_load(&b->device.messages));
    tsr__vk_device_close(&b->device);
    free(b->kernels);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

/* Side-effect free and cheap: only whether a Vulkan loader is present.
 * Creating an instance would load every driver (lavapipe brings LLVM, about
 * 100 ms) in every program that merely looks for plugins; devices are
 * enumerated at init. The score stays below the cpu backend's, so a GPU is
 * chosen by naming it (TESSERA_BACKEND=vulkan). */
/* Below the cpu backend's score: see tsr__vk_probe. */
enum { TSR__VK_PROBE_SCORE = 10 };

static int tsr__vk_probe(const tsr_host_api *host, char *reason, size_t capacity)
{
    (void)host;
    struct tsr__vk_fns fns;
    if (tsr__vk_loader_open(&fns, reason, capacity) != TSR_OK)
        return -1;
    tsr__vk_loader_close(&fns);
    snprintf(reason, capacity, "Vulkan loader present; devices are enumerated at init");
    return TSR__VK_PROBE_SCORE;
}

static int tsr__vk_init(const tsr_host_api *host, void **backend)
{
    struct tsr__vk_backend *b = calloc(1, sizeof *b);
    if (!b)
        return tsr__vk_error(host, TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    b->host = host;
    pthread_mutex_init(&b->lock, NULL);
    char reason[512];
    int status = tsr__vk_device_open(&b->device, host, 1, reason, sizeof reason);
    if (status != TSR_OK) {
        tsr__vk_destroy(b);
        return tsr__vk_error(host, status, "%s", reason);
    }
    tsr__vk_memory_init(&b->memory, &b->device);
    status = tsr__vk_pipelines_init(&b->pipelines, &b->device);
    if (status == TSR_OK)
        status = tsr__vk_submit_init(&b->submit, &b->device, &b->memory);
    if (status == TSR_OK)
        status = tsr__vk_kernel_table_build(b);
    if (status != TSR_OK) {
        tsr__vk_destroy(b);
        return status;
    }
    char text[512];
    tsr__vk_device_describe(&b->device, text, sizeof text);
    tsr__vk_log(host, TSR_LOG_INFO, "%s; %zu kernels", text, b->kernel_count);
    *backend = b;
    return TSR_OK;
}

static void tsr__vk_shutdown(void *backend)
{
    if (backend)
        tsr__vk_destroy(backend);
}

static int tsr__vk_describe(void *backend, char *text, size_t capacity)
{
    struct tsr__vk_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    tsr__vk_device_describe(&b->device, text, capacity);
    pthread_mutex_unlock(&b->lock);
    return TSR_OK;
}

static int tsr__vk_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    struct tsr__vk_backend *b = backend;
    *entries = b->kernels;
    *count = b->kernel_count;
    return TSR_OK;
}

static int tsr__vk_alloc(void *backend, size_t bytes, void **handle)
{
    struct tsr__vk_backend *b = backend;
    struct tsr__vk_buffer *buffer;
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_memory_alloc(&b->memory, bytes, &buffer);
    pthread_mutex_unlock(&b->lock);
    if (status == TSR_OK)
        *handle = buffer;
    return status;
}

static void tsr__vk_free(void *backend, void *handle)
{
    struct tsr__vk_backend *b = backend;
    if (!handle)
        return;
    pthread_mutex_lock(&b->lock);
    tsr__vk_submit_release(&b->submit, handle);
    pthread_mutex_unlock(&b->lock);
}

static int tsr__vk_copy_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                                  size_t bytes)
{
    struct tsr__vk_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_transfer_upload(b, dst, dst_offset, src, bytes);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static int tsr__vk_copy_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                                size_t bytes)
{
    struct tsr__vk_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    /* The handle is const in the ABI; the record's last-use serial is not. */
    int status = tsr__vk_transfer_download(b, dst, (struct tsr__vk_buffer *)src, src_offset, bytes);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static int tsr__vk_copy_on_device(void *backend, void *dst, size_t dst_offset, const void *src,
                                  size_t src_offset, size_t bytes)
{
    struct tsr__vk_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_transfer_device(b, dst, dst_offset, (struct tsr__vk_buffer *)src,
                                         src_offset, bytes);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static int tsr__vk_synchronize(void *backend)
{
    struct tsr__vk_backend *b = backend;
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_submit_wait(&b->submit);
    pthread_mutex_unlock(&b->lock);
    return status;
}

static const tsr_plugin tsr__vk_plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "vulkan",
    .version = TSR__VK_VERSION,
    .flags = 0, /* handles are device buffer records, not host pointers */
    .probe = tsr__vk_probe,
    .init = tsr__vk_init,
    .shutdown = tsr__vk_shutdown,
    .describe = tsr__vk_describe,
    .kernels = tsr__vk_kernels,
    .memory_alloc = tsr__vk_alloc,
    .memory_free = tsr__vk_free,
    .copy_from_host = tsr__vk_copy_from_host,
    .copy_to_host = tsr__vk_copy_to_host,
    .copy_on_device = tsr__vk_copy_on_device,
    .synchronize = tsr__vk_synchronize,
};

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    if ((host_abi >> 16) != TSR_PLUGIN_ABI_MAJOR) {
        tsr__vk_error(host, TSR_ERR_PLUGIN, "vulkan plugin speaks ABI %d.x; the host speaks %u.%u",
                      TSR_PLUGIN_ABI_MAJOR, host_abi >> 16, host_abi & 0xffffu);
        return NULL;
    }
    return &tsr__vk_plugin;
}
