/* Instance, physical device selection, logical device and queue.
 *
 * One instance and one device per plugin init. The device is chosen by
 * TESSERA_VULKAN_DEVICE (an index into the enumeration, or a case-insensitive
 * substring of the device name); unset, the first device with a compute queue
 * and Vulkan 1.1 wins. TESSERA_VULKAN_VALIDATION=1 enables the Khronos
 * validation layer (with synchronisation validation) when it is installed,
 * and a debug-utils messenger that counts warnings and errors and prints
 * every message through the host's log.
 */
#ifndef TSR_VULKAN_DEVICE_H
#define TSR_VULKAN_DEVICE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <tessera/plugin.h>

#include "vk_loader.h"

/* What the device offers beyond Vulkan 1.1's baseline, as far as the plugin
 * cares. Only shaderInt64 and shaderFloat64 change what runs; the others are
 * reported by describe. */
struct tsr__vk_features {
    int int64;     /* shaderInt64: int64 kernels */
    int float64;   /* shaderFloat64: float64 kernels, float32 pow */
    int int16;     /* shaderInt16 */
    int float16;   /* shaderFloat16 arithmetic */
    int int8;      /* shaderInt8 arithmetic */
    int storage8;  /* storageBuffer8BitAccess */
    int storage16; /* storageBuffer16BitAccess */
};

struct tsr__vk_device {
    struct tsr__vk_fns fns;
    const tsr_host_api *host;
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint32_t api_version; /* min(instance version asked for, device version) */
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    char driver[2 * VK_MAX_DRIVER_NAME_SIZE];
    struct tsr__vk_features features;
    int validation;                 /* the Khronos layer is enabled */
    atomic_uint_least64_t messages; /* validation warnings and errors so far */
};

/* Opens the loader, creates the instance and picks the physical device; with
 * `create_device` also creates the logical device and its queue. `dev` must
 * stay at its address until closed (the messenger points at it). On failure
 * everything is released, `reason` says why ("no Vulkan loader: ...",
 * "no Vulkan device: ...") and a negative tsr_status is returned. */
int tsr__vk_device_open(struct tsr__vk_device *dev, const tsr_host_api *host, int create_device,
                        char *reason, size_t capacity);

/* Destroys what open created, in reverse order, and closes the loader. */
void tsr__vk_device_close(struct tsr__vk_device *dev);

/* One line: name, API and driver versions, features, validation state. */
void tsr__vk_device_describe(struct tsr__vk_device *dev, char *text, size_t capacity);

/* Short name of a VkResult for messages ("VK_ERROR_OUT_OF_DEVICE_MEMORY"). */
const char *tsr__vk_result_name(VkResult result);

#endif /* TSR_VULKAN_DEVICE_H */
