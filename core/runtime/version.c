/* The library's version, from the project's version in CMakeLists.txt. */
#include "tessera/tessera.h"

#ifndef TSR_VERSION_STRING
#error "TSR_VERSION_STRING comes from core/CMakeLists.txt"
#endif

const char *tsr_version(uint32_t *plugin_abi)
{
    if (plugin_abi)
        *plugin_abi = TSR_PLUGIN_ABI_VERSION;
    return TSR_VERSION_STRING;
}
