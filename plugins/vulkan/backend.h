/* The state behind the `void *backend` every plugin call receives.
 *
 * Calls may come from several threads (the public API is thread-safe for
 * distinct tensors), while a Vulkan queue, command buffer and descriptor
 * pool must not be used concurrently: every entry point takes `lock` for its
 * whole duration. Nothing inside calls back into the core with it held,
 * except host->log and host->set_error.
 */
#ifndef TSR_VULKAN_BACKEND_H
#define TSR_VULKAN_BACKEND_H

#include <pthread.h>
#include <stddef.h>

#include <tessera/plugin.h>

#include "device.h"
#include "memory.h"
#include "pipeline.h"
#include "submit.h"

struct tsr__vk_backend {
    const tsr_host_api *host;
    pthread_mutex_t lock;
    struct tsr__vk_device device;
    struct tsr__vk_memory memory;
    struct tsr__vk_submit submit;
    struct tsr__vk_pipelines pipelines;
    tsr_kernel_entry *kernels; /* built at init for the device found */
    size_t kernel_count;
};

/* Builds backend->kernels from what the device can run (kernel_table.c). */
int tsr__vk_kernel_table_build(struct tsr__vk_backend *b);

#endif /* TSR_VULKAN_BACKEND_H */
