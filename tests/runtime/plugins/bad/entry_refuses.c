/* Refuses every host from its entry point, after explaining why through
 * set_error; the core must carry that explanation into the refusal. */
#include "stub_backend.h"

TSR_PLUGIN_EXPORT const tsr_plugin *tsr_plugin_entry(const tsr_host_api *host, uint32_t host_abi)
{
    (void)host_abi;
    host->set_error(TSR_ERR_PLUGIN, "refuses: this host lacks the frobnicator extension");
    return NULL;
}
