/* The services the core lends to plugins. */
#include "runtime/backend.h"
#include "runtime/error.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const level_names[] = {"error", "warning", "info", "debug"};

/* Plugin messages go to stderr when TESSERA_LOG names the plugin or
 * "plugins"; errors also reach the caller through set_error. */
static void host_log(int level, const char *plugin, const char *fmt, ...)
{
    if (!plugin)
        plugin = "plugin";
    if (!tsr__log_enabled(plugin) && !tsr__log_enabled("plugins"))
        return;
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "tessera[%s] %s: ", plugin,
            level >= 0 && level <= TSR_LOG_DEBUG ? level_names[level] : "log");
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

static int host_set_error(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    tsr__set_error_v(status, fmt, args);
    va_end(args);
    return status;
}

static const tsr_host_api host_api = {
    .struct_size = sizeof(tsr_host_api),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .log = host_log,
    .set_error = host_set_error,
};

const tsr_host_api *tsr__host_api(void)
{
    return &host_api;
}
