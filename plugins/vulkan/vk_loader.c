#include "vk_loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <tessera/plugin.h>

/* The soname, not libvulkan.so: the unversioned name exists only where the
 * development package is installed. */
#define TSR__VK_LOADER_SONAME "libvulkan.so.1"

int tsr__vk_loader_open(struct tsr__vk_fns *fns, char *reason, size_t capacity)
{
    memset(fns, 0, sizeof *fns);
    /* RTLD_NODELETE: the Vulkan loader keeps process-lifetime allocations
     * (and drivers do not expect to be unloaded); staying mapped lets leak
     * reports name the library instead of an unknown module. */
    fns->library = dlopen(TSR__VK_LOADER_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!fns->library) {
        const char *why = dlerror();
        snprintf(reason, capacity, "no Vulkan loader: %s", why ? why : TSR__VK_LOADER_SONAME);
        return TSR_ERR_BACKEND;
    }
    void *sym = dlsym(fns->library, "vkGetInstanceProcAddr");
    if (!sym) {
        snprintf(reason, capacity, "no Vulkan loader: %s has no vkGetInstanceProcAddr",
                 TSR__VK_LOADER_SONAME);
        tsr__vk_loader_close(fns);
        return TSR_ERR_BACKEND;
    }
    memcpy(&fns->vkGetInstanceProcAddr, &sym, sizeof sym);

#define TSR__VK_LOAD_GLOBAL(name)                                                                  \
    fns->name = (PFN_##name)fns->vkGetInstanceProcAddr(VK_NULL_HANDLE, #name);
    TSR__VK_GLOBAL_FNS(TSR__VK_LOAD_GLOBAL)
#undef TSR__VK_LOAD_GLOBAL

    /* vkEnumerateInstanceVersion is absent from 1.0 loaders; the caller reads
     * that as "Vulkan 1.0" and refuses, so only the others are required. */
    if (!fns->vkCreateInstance || !fns->vkEnumerateInstanceExtensionProperties ||
        !fns->vkEnumerateInstanceLayerProperties) {
        snprintf(reason, capacity, "no Vulkan loader: %s lacks the 1.0 global functions",
                 TSR__VK_LOADER_SONAME);
        tsr__vk_loader_close(fns);
        return TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

int tsr__vk_loader_instance(struct tsr__vk_fns *fns, VkInstance instance, char *reason,
                            size_t capacity)
{
    const char *missing = NULL;
#define TSR__VK_LOAD_INSTANCE(name)                                                                \
    fns->name = (PFN_##name)fns->vkGetInstanceProcAddr(instance, #name);                           \
    if (!fns->name && !missing)                                                                    \
        missing = #name;
    TSR__VK_INSTANCE_FNS(TSR__VK_LOAD_INSTANCE)
#undef TSR__VK_LOAD_INSTANCE
#define TSR__VK_LOAD_OPTIONAL(name)                                                                \
    fns->name = (PFN_##name)fns->vkGetInstanceProcAddr(instance, #name);
    TSR__VK_OPTIONAL_INSTANCE_FNS(TSR__VK_LOAD_OPTIONAL)
#undef TSR__VK_LOAD_OPTIONAL
    if (missing) {
        snprintf(reason, capacity, "Vulkan instance lacks %s (Vulkan 1.1 is required)", missing);
        return TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

int tsr__vk_loader_device(struct tsr__vk_fns *fns, VkDevice device, char *reason, size_t capacity)
{
    const char *missing = NULL;
#define TSR__VK_LOAD_DEVICE(name)                                                                  \
    fns->name = (PFN_##name)fns->vkGetDeviceProcAddr(device, #name);                               \
    if (!fns->name && !missing)                                                                    \
        missing = #name;
    TSR__VK_DEVICE_FNS(TSR__VK_LOAD_DEVICE)
#undef TSR__VK_LOAD_DEVICE
    if (missing) {
        snprintf(reason, capacity, "Vulkan device lacks %s", missing);
        return TSR_ERR_BACKEND;
    }
    return TSR_OK;
}

void tsr__vk_loader_close(struct tsr__vk_fns *fns)
{
    if (fns->library)
        dlclose(fns->library);
    memset(fns, 0, sizeof *fns);
}
