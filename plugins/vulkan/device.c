#include "device.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

#define TSR__VK_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

const char *tsr__vk_result_name(VkResult result)
{
    switch (result) {
    case VK_SUCCESS:
        return "VK_SUCCESS";
    case VK_NOT_READY:
        return "VK_NOT_READY";
    case VK_TIMEOUT:
        return "VK_TIMEOUT";
    case VK_INCOMPLETE:
        return "VK_INCOMPLETE";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
        return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
        return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
        return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
        return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
        return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
        return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS:
        return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FRAGMENTED_POOL:
        return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY:
        return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default:
        return "VkResult (unlisted)";
    }
}

/* ------------------------------------------------------------------------ */
/* Validation messages                                                       */
/* ------------------------------------------------------------------------ */

static VKAPI_ATTR VkBool32 VKAPI_CALL tsr__vk_debug_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    struct tsr__vk_device *dev = user;
    int level = TSR_LOG_DEBUG;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
        level = TSR_LOG_ERROR;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        level = TSR_LOG_WARN;
    if (level <= TSR_LOG_WARN)
        atomic_fetch_add(&dev->messages, 1);
    tsr__vk_log(dev->host, level, "validation: %s",
                data && data->pMessage ? data->pMessage : "(no text)");
    return VK_FALSE;
}

static int tsr__vk_has_layer(struct tsr__vk_fns *fns, const char *name)
{
    uint32_t count = 0;
    if (fns->vkEnumerateInstanceLayerProperties(&count, NULL) != VK_SUCCESS || count == 0)
        return 0;
    VkLayerProperties *layers = calloc(count, sizeof *layers);
    if (!layers)
        return 0;
    int found = 0;
    if (fns->vkEnumerateInstanceLayerProperties(&count, layers) >= VK_SUCCESS)
        for (uint32_t i = 0; i < count && !found; ++i)
            found = strcmp(layers[i].layerName, name) == 0;
    free(layers);
    return found;
}

static int tsr__vk_has_instance_extension(struct tsr__vk_fns *fns, const char *layer,
                                          const char *name)
{
    uint32_t count = 0;
    if (fns->vkEnumerateInstanceExtensionProperties(layer, &count, NULL) != VK_SUCCESS ||
        count == 0)
        return 0;
    VkExtensionProperties *exts = calloc(count, sizeof *exts);
    if (!exts)
        return 0;
    int found = 0;
    if (fns->vkEnumerateInstanceExtensionProperties(layer, &count, exts) >= VK_SUCCESS)
        for (uint32_t i = 0; i < count && !found; ++i)
            found = strcmp(exts[i].extensionName, name) == 0;
    free(exts);
    return found;
}

static int tsr__vk_has_device_extension(struct tsr__vk_fns *fns, VkPhysicalDevice physical,
                                        const char *name)
{
    uint32_t count = 0;
    if (fns->vkEnumerateDeviceExtensionProperties(physical, NULL, &count, NULL) != VK_SUCCESS ||
        count == 0)
        return 0;
    VkExtensionProperties *exts = calloc(count, sizeof *exts);
    if (!exts)
        return 0;
    int found = 0;
    if (fns->vkEnumerateDeviceExtensionProperties(physical, NULL, &count, exts) >= VK_SUCCESS)
        for (uint32_t i = 0; i < count && !found; ++i)
            found = strcmp(exts[i].extensionName, name) == 0;
    free(exts);
    return found;
}

/* ------------------------------------------------------------------------ */
/* Instance                                                                  */
/* ------------------------------------------------------------------------ */

static int tsr__vk_validation_wanted(void)
{
    const char *v = getenv("TESSERA_VULKAN_VALIDATION");
    return v && *v && strcmp(v, "0") != 0;
}

/* What the instance enables for validation, decided before creating it. */
struct tsr__vk_layers {
    const char *layers[1];
    const char *extensions[2];
    uint32_t layer_count, extension_count;
    int sync_validation; /* VK_EXT_validation_features: synchronisation checks */
};

/* Enables the Khronos layer and debug utils when asked for and installed;
 * says why not through the log otherwise (validation is a debugging aid, so
 * its absence is no reason to fail). */
static void tsr__vk_choose_validation(struct tsr__vk_device *dev, struct tsr__vk_layers *l)
{
    struct tsr__vk_fns *fns = &dev->fns;
    memset(l, 0, sizeof *l);
    if (!tsr__vk_validation_wanted())
        return;
    if (!tsr__vk_has_layer(fns, TSR__VK_VALIDATION_LAYER)) {
        tsr__vk_log(dev->host, TSR_LOG_WARN,
                    "TESSERA_VULKAN_VALIDATION is set but %s is not installed",
                    TSR__VK_VALIDATION_LAYER);
        return;
    }
    if (!tsr__vk_has_instance_extension(fns, NULL, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !tsr__vk_has_instance_extension(fns, TSR__VK_VALIDATION_LAYER,
                                        VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
        tsr__vk_log(dev->host, TSR_LOG_WARN,
                    "validation needs %s, which neither the loader nor the layer offers",
                    VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        return;
    }
    l->layers[l->layer_count++] = TSR__VK_VALIDATION_LAYER;
    l->extensions[l->extension_count++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    l->sync_validation = tsr__vk_has_instance_extension(fns, TSR__VK_VALIDATION_LAYER,
                                                        VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    if (l->sync_validation)
        l->extensions[l->extension_count++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
    dev->validation = 1;
}

static int tsr__vk_create_instance(struct tsr__vk_device *dev, int allow_validation, char *reason,
                                   size_t capacity)
{
    struct tsr__vk_fns *fns = &dev->fns;
    uint32_t version = VK_API_VERSION_1_0;
    if (fns->vkEnumerateInstanceVersion)
        fns->vkEnumerateInstanceVersion(&version);
    if (version < VK_API_VERSION_1_1) {
        snprintf(reason, capacity,
                 "no Vulkan device: the Vulkan loader offers only 1.0, "
                 "the plugin needs 1.1");
        return TSR_ERR_BACKEND;
    }
    /* Ask for 1.2 where the loader has it, so 1.2 property structs are valid. */
    uint32_t asked = version >= VK_API_VERSION_1_2 ? VK_API_VERSION_1_2 : VK_API_VERSION_1_1;
    struct tsr__vk_layers l;
    memset(&l, 0, sizeof l);
    if (allow_validation)
        tsr__vk_choose_validation(dev, &l);

    VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = tsr__vk_debug_message,
        .pUserData = dev,
    };
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
    };
    VkValidationFeaturesEXT validation_features = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = &messenger_info,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "tessera",
        .pEngineName = "tessera",
        .apiVersion = asked,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
        .enabledLayerCount = l.layer_count,
        .ppEnabledLayerNames = l.layers,
        .enabledExtensionCount = l.extension_count,
        .ppEnabledExtensionNames = l.extensions,
    };
    if (dev->validation)
        info.pNext =
            l.sync_validation ? (const void *)&validation_features : (const void *)&messenger_info;

    VkResult r = fns->vkCreateInstance(&info, NULL, &dev->instance);
    if (r != VK_SUCCESS) {
        dev->instance = VK_NULL_HANDLE;
        snprintf(reason, capacity, "no Vulkan device: vkCreateInstance failed (%s%s)",
                 tsr__vk_result_name(r),
                 r == VK_ERROR_INCOMPATIBLE_DRIVER ? ": no Vulkan driver is installed" : "");
        return TSR_ERR_BACKEND;
    }
    dev->api_version = asked;
    int status = tsr__vk_loader_instance(fns, dev->instance, reason, capacity);
    if (status != TSR_OK)
        return status;
    if (dev->validation && fns->vkCreateDebugUtilsMessengerEXT) {
        messenger_info.pNext = NULL;
        if (fns->vkCreateDebugUtilsMessengerEXT(dev->instance, &messenger_info, NULL,
                                                &dev->messenger) != VK_SUCCESS)
            dev->messenger = VK_NULL_HANDLE;
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Physical device                                                           */
/* ------------------------------------------------------------------------ */

/* A queue family with compute; one without graphics is preferred, since
 * compute-only families are the ones drivers keep for compute work. */
static int tsr__vk_compute_family(struct tsr__vk_fns *fns, VkPhysicalDevice physical,
                                  uint32_t *family)
{
    uint32_t count = 0;
    fns->vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, NULL);
    if (count == 0)
        return 0;
    VkQueueFamilyProperties *families = calloc(count, sizeof *families);
    if (!families)
        return 0;
    fns->vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families);
    int found = 0;
    for (int pass = 0; pass < 2 && !found; ++pass) {
        for (uint32_t i = 0; i < count && !found; ++i) {
            VkQueueFlags flags = families[i].queueFlags;
            if (!(flags & VK_QUEUE_COMPUTE_BIT) || families[i].queueCount == 0)
                continue;
            if (pass == 0 && (flags & VK_QUEUE_GRAPHICS_BIT))
                continue;
            *family = i;
            found = 1;
        }
    }
    free(families);
    return found;
}

static int tsr__vk_usable(struct tsr__vk_fns *fns, VkPhysicalDevice physical, uint32_t *family)
{
    VkPhysicalDeviceProperties props;
    fns->vkGetPhysicalDeviceProperties(physical, &props);
    return props.apiVersion >= VK_API_VERSION_1_1 && tsr__vk_compute_family(fns, physical, family);
}

static int tsr__vk_name_matches(const char *name, const char *want)
{
    size_t n = strlen(want);
    for (const char *p = name; *p; ++p) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)want[i]))
            ++i;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static int tsr__vk_all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

/* Lists the devices' names into `text` for "matches none of" messages. */
static void tsr__vk_list_names(struct tsr__vk_fns *fns, VkPhysicalDevice *devices, uint32_t count,
                               char *text, size_t capacity)
{
    size_t used = 0;
    text[0] = '\0';
    for (uint32_t i = 0; i < count && used + 1 < capacity; ++i) {
        VkPhysicalDeviceProperties props;
        fns->vkGetPhysicalDeviceProperties(devices[i], &props);
        int n =
            snprintf(text + used, capacity - used, "%s%u: %s", i ? "; " : "", i, props.deviceName);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* TESSERA_VULKAN_MAX_BINDING=N (a test hook) lowers maxStorageBufferRange
 * to N bytes (at least 256 and 4 offset alignments, so a window always
 * holds an element), so that the tiling of operands past the limit
 * (launch.c) runs on small tensors and can be compared bit for bit
 * with the untiled result of a second, unlowered instance. */
static void tsr__vk_lower_binding_limit(struct tsr__vk_device *dev)
{
    const char *v = getenv("TESSERA_VULKAN_MAX_BINDING");
    if (!v || !*v)
        return;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    unsigned long long floor =
        4 * (unsigned long long)dev->props.limits.minStorageBufferOffsetAlignment;
    if (floor < 256)
        floor = 256;
    if (*end != '\0' || n == 0)
        return;
    if (n < floor)
        n = floor;
    if (n < dev->props.limits.maxStorageBufferRange)
        dev->props.limits.maxStorageBufferRange = (uint32_t)n;
}

static int tsr__vk_pick_physical(struct tsr__vk_device *dev, char *reason, size_t capacity)
{
    struct tsr__vk_fns *fns = &dev->fns;
    uint32_t count = 0;
    VkResult r = fns->vkEnumeratePhysicalDevices(dev->instance, &count, NULL);
    if (r != VK_SUCCESS || count == 0) {
        snprintf(reason, capacity, "no Vulkan device: the loader found no physical device%s%s",
                 r != VK_SUCCESS ? " " : "", r != VK_SUCCESS ? tsr__vk_result_name(r) : "");
        return TSR_ERR_BACKEND;
    }
    VkPhysicalDevice *devices = calloc(count, sizeof *devices);
    if (!devices) {
        snprintf(reason, capacity, "out of host memory listing Vulkan devices");
        return TSR_ERR_OUT_OF_MEMORY;
    }
    fns->vkEnumeratePhysicalDevices(dev->instance, &count, devices);

    const char *want = getenv("TESSERA_VULKAN_DEVICE");
    int chosen = -1;
    uint32_t family = 0;
    char names[512];
    for (uint32_t i = 0; i < count && chosen < 0; ++i) {
        VkPhysicalDeviceProperties props;
        fns->vkGetPhysicalDeviceProperties(devices[i], &props);
        int named = !want || !*want ||
                    (tsr__vk_all_digits(want) ? strtoul(want, NULL, 10) == i
                                              : tsr__vk_name_matches(props.deviceName, want));
        if (!named)
            continue;
        if (tsr__vk_usable(fns, devices[i], &family)) {
            chosen = (int)i;
        } else if (want && *want) {
            snprintf(reason, capacity,
                     "no Vulkan device: TESSERA_VULKAN_DEVICE=%s names %s, which lacks a "
                     "compute queue or Vulkan 1.1",
                     want, props.deviceName);
            free(devices);
            return TSR_ERR_BACKEND;
        }
    }
    if (chosen < 0) {
        tsr__vk_list_names(fns, devices, count, names, sizeof names);
        if (want && *want)
            snprintf(reason, capacity,
                     "no Vulkan device: TESSERA_VULKAN_DEVICE=%s matches none "
                     "of: %s",
                     want, names);
        else
            snprintf(reason, capacity,
                     "no Vulkan device: none has a compute queue and Vulkan "
                     "1.1 (found: %s)",
                     names);
        free(devices);
        return TSR_ERR_BACKEND;
    }
    dev->physical = devices[chosen];
    dev->queue_family = family;
    free(devices);
    fns->vkGetPhysicalDeviceProperties(dev->physical, &dev->props);
    fns->vkGetPhysicalDeviceMemoryProperties(dev->physical, &dev->memory);
    if (dev->props.apiVersion < dev->api_version)
        dev->api_version = dev->props.apiVersion;
    tsr__vk_lower_binding_limit(dev);
    return TSR_OK;
}

static void tsr__vk_query_features(struct tsr__vk_device *dev)
{
    struct tsr__vk_fns *fns = &dev->fns;
    int v12 = dev->api_version >= VK_API_VERSION_1_2;
    VkPhysicalDevice16BitStorageFeatures storage16 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
    };
    VkPhysicalDevice8BitStorageFeatures storage8 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
    };
    VkPhysicalDeviceShaderFloat16Int8Features float16_int8 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
    };
    VkPhysicalDeviceFeatures2 features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &storage16,
    };
    void **tail = &storage16.pNext;
    if (v12 ||
        tsr__vk_has_device_extension(fns, dev->physical, VK_KHR_8BIT_STORAGE_EXTENSION_NAME)) {
        *tail = &storage8;
        tail = &storage8.pNext;
    }
    if (v12 || tsr__vk_has_device_extension(fns, dev->physical,
                                            VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME)) {
        *tail = &float16_int8;
        tail = &float16_int8.pNext;
    }
    fns->vkGetPhysicalDeviceFeatures2(dev->physical, &features);
    dev->features.int64 = features.features.shaderInt64 == VK_TRUE;
    dev->features.float64 = features.features.shaderFloat64 == VK_TRUE;
    dev->features.int16 = features.features.shaderInt16 == VK_TRUE;
    dev->features.float16 = float16_int8.shaderFloat16 == VK_TRUE;
    dev->features.int8 = float16_int8.shaderInt8 == VK_TRUE;
    dev->features.storage8 = storage8.storageBuffer8BitAccess == VK_TRUE;
    dev->features.storage16 = storage16.storageBuffer16BitAccess == VK_TRUE;

    dev->driver[0] = '\0';
    if (v12 ||
        tsr__vk_has_device_extension(fns, dev->physical, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME)) {
        VkPhysicalDeviceDriverProperties driver = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
        };
        VkPhysicalDeviceProperties2 props = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
            .pNext = &driver,
        };
        fns->vkGetPhysicalDeviceProperties2(dev->physical, &props);
        snprintf(dev->driver, sizeof dev->driver, "%.*s %.*s", (int)VK_MAX_DRIVER_NAME_SIZE,
                 driver.driverName, (int)VK_MAX_DRIVER_INFO_SIZE, driver.driverInfo);
    }
}

static int tsr__vk_create_logical(struct tsr__vk_device *dev, char *reason, size_t capacity)
{
    struct tsr__vk_fns *fns = &dev->fns;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = dev->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkPhysicalDeviceFeatures enabled = {
        .shaderInt64 = dev->features.int64 ? VK_TRUE : VK_FALSE,
        .shaderFloat64 = dev->features.float64 ? VK_TRUE : VK_FALSE,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .pEnabledFeatures = &enabled,
    };
    VkResult r = fns->vkCreateDevice(dev->physical, &info, NULL, &dev->device);
    if (r != VK_SUCCESS) {
        dev->device = VK_NULL_HANDLE;
        snprintf(reason, capacity, "vkCreateDevice failed on %s: %s", dev->props.deviceName,
                 tsr__vk_result_name(r));
        return TSR_ERR_BACKEND;
    }
    int status = tsr__vk_loader_device(fns, dev->device, reason, capacity);
    if (status != TSR_OK)
        return status;
    fns->vkGetDeviceQueue(dev->device, dev->queue_family, 0, &dev->queue);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Open, close, describe                                                     */
/* ------------------------------------------------------------------------ */

int tsr__vk_device_open(struct tsr__vk_device *dev, const tsr_host_api *host, int create_device,
                        char *reason, size_t capacity)
{
    memset(dev, 0, sizeof *dev);
    atomic_init(&dev->messages, 0);
    dev->host = host;
    int status = tsr__vk_loader_open(&dev->fns, reason, capacity);
    if (status != TSR_OK)
        return status;
    status = tsr__vk_create_instance(dev, create_device, reason, capacity);
    if (status == TSR_OK)
        status = tsr__vk_pick_physical(dev, reason, capacity);
    if (status == TSR_OK)
        tsr__vk_query_features(dev);
    if (status == TSR_OK && create_device)
        status = tsr__vk_create_logical(dev, reason, capacity);
    if (status != TSR_OK)
        tsr__vk_device_close(dev);
    else if (create_device) /* what the dispatches and bindings are tiled within */
        tsr__vk_log(host, TSR_LOG_INFO,
                    "limits: maxComputeWorkGroupCount %u x %u x %u (dispatches use at most "
                    "65535 along x), maxStorageBufferRange %u bytes, "
                    "maxComputeWorkGroupInvocations %u, minStorageBufferOffsetAlignment %llu",
                    dev->props.limits.maxComputeWorkGroupCount[0],
                    dev->props.limits.maxComputeWorkGroupCount[1],
                    dev->props.limits.maxComputeWorkGroupCount[2],
                    dev->props.limits.maxStorageBufferRange,
                    dev->props.limits.maxComputeWorkGroupInvocations,
                    (unsigned long long)dev->props.limits.minStorageBufferOffsetAlignment);
    return status;
}

void tsr__vk_device_close(struct tsr__vk_device *dev)
{
    struct tsr__vk_fns *fns = &dev->fns;
    if (dev->device)
        fns->vkDestroyDevice(dev->device, NULL);
    if (dev->messenger && fns->vkDestroyDebugUtilsMessengerEXT)
        fns->vkDestroyDebugUtilsMessengerEXT(dev->instance, dev->messenger, NULL);
    if (dev->instance)
        fns->vkDestroyInstance(dev->instance, NULL);
    dev->device = VK_NULL_HANDLE;
    dev->messenger = VK_NULL_HANDLE;
    dev->instance = VK_NULL_HANDLE;
    tsr__vk_loader_close(fns);
}

static const char *tsr__vk_type_name(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "CPU device";
    default:
        return "other device";
    }
}

void tsr__vk_device_describe(struct tsr__vk_device *dev, char *text, size_t capacity)
{
    const struct tsr__vk_features *f = &dev->features;
    uint32_t v = dev->props.apiVersion;
    char validation[64];
    if (dev->validation)
        snprintf(validation, sizeof validation, "validation on, %llu messages",
                 (unsigned long long)atomic_load(&dev->messages));
    else
        snprintf(validation, sizeof validation, "validation off");
    snprintf(text, capacity,
             "%s (%s, Vulkan %u.%u.%u, driver %s); int64 %s, float64 %s, float16 %s, "
             "int8 %s, int16 %s, 8-bit storage %s, 16-bit storage %s; %s",
             dev->props.deviceName, tsr__vk_type_name(dev->props.deviceType),
             VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v),
             dev->driver[0] ? dev->driver : "unknown", f->int64 ? "yes" : "no",
             f->float64 ? "yes" : "no", f->float16 ? "yes" : "no", f->int8 ? "yes" : "no",
             f->int16 ? "yes" : "no", f->storage8 ? "yes" : "no", f->storage16 ? "yes" : "no",
             validation);
}
