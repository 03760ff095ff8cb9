/* A valid table whose init fails cleanly with a message, as a device
 * backend's would when the driver is present but no device is. */
#include "stub_backend.h"

static int failing_init(const tsr_host_api *host, void **backend)
{
    (void)backend;
    return host->set_error(TSR_ERR_BACKEND, "initfail: no device found on bus 0");
}

static const tsr_plugin plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "initfail",
    .version = "0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .init = failing_init,
    .shutdown = stub_shutdown,
    .kernels = stub_kernels,
    .memory_alloc = stub_alloc,
    .memory_free = stub_free,
    .copy_from_host = stub_copy_from_host,
    .copy_to_host = stub_copy_to_host,
};

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    (void)host;
    (void)host_abi;
    return &plugin;
}
