/* Loads, but its probe fills the whole reason buffer without a terminating
 * NUL: the core must terminate it itself and never read past it. */
#include "stub_backend.h"

#include <string.h>

static int probe(const tsr_host_api *host, char *reason, size_t capacity)
{
    (void)host;
    memset(reason, 'x', capacity);
    return 0;
}

static const tsr_plugin plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "probenonul",
    .version = "0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .probe = probe,
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
