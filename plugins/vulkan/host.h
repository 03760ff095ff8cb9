/* Talking to the host: logging and error reporting through tsr_host_api.
 *
 * Both helpers format on the plugin side and pass a finished string, so a
 * host whose struct is older (smaller) or whose members are NULL is handled
 * in one place.
 */
#ifndef TSR_VULKAN_HOST_H
#define TSR_VULKAN_HOST_H

#include <tessera/plugin.h>

#define TSR__VK_PLUGIN_NAME "vulkan"

/* Writes one line to the host's log at `level` (TSR_LOG_*). */
void tsr__vk_log(const tsr_host_api *host, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets the calling thread's error through host->set_error and returns
 * `status`, so callers can `return tsr__vk_error(...)`. */
int tsr__vk_error(const tsr_host_api *host, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* TSR_VULKAN_HOST_H */
