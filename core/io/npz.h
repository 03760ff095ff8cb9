/* .npz (internal): the archive reader over a memory buffer, exposed so that
 * the fuzzer can feed it bytes without a file. */
#ifndef TSR_CORE_NPZ_H
#define TSR_CORE_NPZ_H

#include "tessera/tessera.h"

#include <stddef.h>

/* Loads a whole .npz archive held in memory, with every check of
 * tsr_load_npz; `name` names it in messages. On failure the outputs are
 * left untouched. */
int tsr__npz_load_buffer(const void *data, size_t size, const char *name, tsr_backend *backend,
                         char ***names, tsr_tensor ***tensors, size_t *count);

#endif
