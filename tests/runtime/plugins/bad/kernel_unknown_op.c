/* Registers a valid row, then a row whose op id no core knows: the whole
 * table is refused, naming the row. */
#include "stub_backend.h"

static const tsr_kernel_entry rows[] = {
    {TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32, 0, stub_kernel},
    {9999, TSR_FLOAT32, TSR_FLOAT32, 0, stub_kernel},
};

static int list_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    (void)backend;
    *entries = rows;
    *count = sizeof rows / sizeof rows[0];
    return TSR_OK;
}

static const tsr_plugin plugin = {
    .struct_size = sizeof(tsr_plugin),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .name = "badop",
    .version = "0",
    .flags = TSR_PLUGIN_HOST_MEMORY,
    .init = stub_init,
    .shutdown = stub_shutdown,
    .kernels = list_kernels,
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
