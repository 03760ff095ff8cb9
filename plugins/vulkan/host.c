#include "host.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define TSR__VK_HOST_HAS(host, member)                                                             \
    ((host) && (host)->struct_size >= offsetof(tsr_host_api, member) + sizeof((host)->member) &&   \
     (host)->member)

void tsr__vk_log(const tsr_host_api *host, int level, const char *fmt, ...)
{
    if (!TSR__VK_HOST_HAS(host, log))
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    host->log(level, TSR__VK_PLUGIN_NAME, "%s", text);
}

int tsr__vk_error(const tsr_host_api *host, int status, const char *fmt, ...)
{
    if (!TSR__VK_HOST_HAS(host, set_error))
        return status;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    host->set_error(status, "%s", text);
    return status;
}
