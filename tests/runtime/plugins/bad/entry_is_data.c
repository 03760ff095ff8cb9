/* Exports tsr_plugin_entry as a data object, not a function: calling it
 * would jump into non-executable memory, so the core must refuse it. */
#include <tessera/plugin.h>

TSR_PLUGIN_EXPORT const unsigned char tsr_plugin_entry[16] = {0xff, 0xff, 0xff, 0xff};
