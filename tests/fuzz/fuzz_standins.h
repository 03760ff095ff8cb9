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

/* The loaders' contract, checked on one result (aborts when broken): a
 * failure has a message and leaves the outputs as the target set them
 * (NULL, NULL, FUZZ_UNTOUCHED_COUNT); a success names every tensor, whose
 * bytes together are at most `max_bytes`. Frees what loaded. */
#define FUZZ_UNTOUCHED_COUNT ((size_t)12345)
void fuzz_check_named_result(int status, char **names, tsr_tensor **tensors, size_t count,
                             size_t max_bytes);

#endif
