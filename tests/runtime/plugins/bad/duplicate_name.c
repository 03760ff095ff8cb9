/* A second, different file whose table is also named "toy". Built into its
 * own directory; when that directory follows the toy plugin's on
 * TESSERA_PLUGIN_PATH, the first one found wins and this one is refused. */
#include "stub_backend.h"

static const tsr_plugin plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "toy",
    .version = "impostor",
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
