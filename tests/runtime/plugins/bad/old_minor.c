/* Not broken: a plugin built against ABI 1.0, with the 1.0 table's size.
 * Whatever minor version the core has reached, it must load this one and
 * read no member past the size it declares. */
#include "stub_backend.h"

static const tsr_plugin plugin = {
    .struct_size = (uint32_t)STUB_PLUGIN_V1_0_SIZE,
    .abi_version = (uint32_t)(TSR_PLUGIN_ABI_MAJOR << 16 | 0),
    .name = "oldminor",
    .version = "1.0-era",
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
