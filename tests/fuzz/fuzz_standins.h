/* Host-memory stand-ins for the few core functions the file readers call
 * (fuzz_standins.c), shared by the fuzz targets that compile one reader
 * with the fuzzer's instrumentation and no libtessera. tsr_from_host aborts
 * when a reader hands over an inconsistent description, or bool bytes other
 * than 0 and 1. */
#ifndef TSR_FUZZ_STANDINS_H
#define TSR_FUZZ_STANDINS_H

#include "runtime/error.h"

#include <stddef.h>

/* The last message tsr__set_error wrote; a target clears it per input. */
extern char fuzz_message[1024];
/* Element sizes per dtype, from TSR_DTYPE_LIST. */
extern const size_t fuzz_sizes[TSR_DTYPE_COUNT];

#endif
