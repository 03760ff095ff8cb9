/* Vulkan entry points, loaded at run time from libvulkan.so.1.
 *
 * The plugin never links the Vulkan loader: it opens it with dlopen when a
 * probe or an init asks for it, so the shared object loads on machines that
 * have no Vulkan at all and reports that through probe's reason instead of
 * failing in the dynamic linker. Every function pointer is fetched through
 * vkGetInstanceProcAddr / vkGetDeviceProcAddr.
 */
#ifndef TSR_VULKAN_VK_LOADER_H
#define TSR_VULKAN_VK_LOADER_H

#include <stddef.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

/* Functions resolved with a NULL instance. */
#define TSR__VK_GLOBAL_FNS(X)                                                                      \
    X(vkEnumerateInstanceVersion)                                                                  \
    X(vkEnumerateInstanceLayerProperties)                                                          \
    X(vkEnumerateInstanceExtensionProperties)                                                      \
    X(vkCreateInstance)

/* Functions resolved against the instance. */
#define TSR__VK_INSTANCE_FNS(X)                                                                    \
    X(vkDestroyInstance)                                                                           \
    X(vkEnumeratePhysicalDevices)                                                                  \
    X(vkGetPhysicalDeviceProperties)                                                               \
    X(vkGetPhysicalDeviceProperties2)                                                              \
    X(vkGetPhysicalDeviceFeatures2)                                                                \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                                                    \
    X(vkGetPhysicalDeviceMemoryProperties)                                                         \
    X(vkEnumerateDeviceExtensionProperties)                                                        \
    X(vkCreateDevice)                                                                              \
    X(vkGetDeviceProcAddr)

/* Instance functions of extensions that may be absent (left NULL). */
#define TSR__VK_OPTIONAL_INSTANCE_FNS(X)                                                           \
    X(vkCreateDebugUtilsMessengerEXT)                                                              \
    X(vkDestroyDebugUtilsMessengerEXT)

/* Functions resolved against the logical device. */
#define TSR__VK_DEVICE_FNS(X)                                                                      \
    X(vkDestroyDevice)                                                                             \
    X(vkGetDeviceQueue)                                                                            \
    X(vkDeviceWaitIdle)                                                                            \
    X(vkQueueSubmit)                                                                               \
    X(vkCreateBuffer)                                                                              \
    X(vkDestroyBuffer)                                                                             \
    X(vkGetBufferMemoryRequirements)                                                               \
    X(vkAllocateMemory)                                                                            \
    X(vkFreeMemory)                                                                                \
    X(vkBindBufferMemory)                                                                          \
    X(vkMapMemory)                                                                                 \
    X(vkUnmapMemory)                                                                               \
    X(vkCreateCommandPool)                                                                         \
    X(vkDestroyCommandPool)                                                                        \
    X(vkResetCommandPool)                                                                          \
    X(vkAllocateCommandBuffers)                                                                    \
    X(vkBeginCommandBuffer)                                                                        \
    X(vkEndCommandBuffer)                                                                          \
    X(vkCmdCopyBuffer)                                                                             \
    X(vkCmdPipelineBarrier)                                                                        \
    X(vkCmdBindPipeline)                                                                           \
    X(vkCmdBindDescriptorSets)                                                                     \
    X(vkCmdPushConstants)                                                                          \
    X(vkCmdDispatch)                                                                               \
    X(vkCreateFence)                                                                               \
    X(vkDestroyFence)                                                                              \
    X(vkResetFences)                                                                               \
    X(vkWaitForFences)                                                                             \
    X(vkCreateDescriptorSetLayout)                                                                 \
    X(vkDestroyDescriptorSetLayout)                                                                \
    X(vkCreatePipelineLayout)                                                                      \
    X(vkDestroyPipelineLayout)                                                                     \
    X(vkCreateDescriptorPool)                                                                      \
    X(vkDestroyDescriptorPool)                                                                     \
    X(vkResetDescriptorPool)                                                                       \
    X(vkAllocateDescriptorSets)                                                                    \
    X(vkUpdateDescriptorSets)                                                                      \
    X(vkCreateShaderModule)                                                                        \
    X(vkDestroyShaderModule)                                                                       \
    X(vkCreatePipelineCache)                                                                       \
    X(vkDestroyPipelineCache)                                                                      \
    X(vkCreateComputePipelines)                                                                    \
    X(vkDestroyPipeline)

#define TSR__VK_FN_MEMBER(name) PFN_##name name;

/* The loader library and every entry point the plugin calls. */
struct tsr__vk_fns {
    void *library; /* dlopen handle of libvulkan.so.1 */
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    TSR__VK_GLOBAL_FNS(TSR__VK_FN_MEMBER)
    TSR__VK_INSTANCE_FNS(TSR__VK_FN_MEMBER)
    TSR__VK_OPTIONAL_INSTANCE_FNS(TSR__VK_FN_MEMBER)
    TSR__VK_DEVICE_FNS(TSR__VK_FN_MEMBER)
};

/* Opens libvulkan.so.1 and resolves the global functions. On failure writes
 * "no Vulkan loader: ..." into `reason` and returns a negative tsr_status. */
int tsr__vk_loader_open(struct tsr__vk_fns *fns, char *reason, size_t capacity);

/* Resolves the instance-level functions; optional ones may stay NULL. */
int tsr__vk_loader_instance(struct tsr__vk_fns *fns, VkInstance instance, char *reason,
                            size_t capacity);

/* Resolves the device-level functions. */
int tsr__vk_loader_device(struct tsr__vk_fns *fns, VkDevice device, char *reason, size_t capacity);

/* Closes the library; every Vulkan object must already be destroyed. */
void tsr__vk_loader_close(struct tsr__vk_fns *fns);

#endif /* TSR_VULKAN_VK_LOADER_H */
