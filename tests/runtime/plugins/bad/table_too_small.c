/* Claims a table that ends before the kernel list: smaller than any ABI 1.x
 * table can be, so the core must not read the members it lacks. */
#include "stub_backend.h"

static const tsr_plugin plugin = {
    .struct_size = (uint32_t)offsetof(tsr_plugin, kernels),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "small",
    .version = "0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .init = stub_init,
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
