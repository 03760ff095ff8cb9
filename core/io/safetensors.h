/* safetensors (internal): the reader over any byte source, exposed so that
 * the fuzzer can feed it memory buffers. */
#ifndef TSR_CORE_SAFETENSORS_H
#define TSR_CORE_SAFETENSORS_H

#include "tessera/tessera.h"

#include <stddef.h>
#include <stdint.h>

/* Longest header accepted: what the format's reference reader allows. */
#define TSR__SAFETENSORS_MAX_HEADER 100000000ull

/* Loads a whole .safetensors image held in memory, with the checks of
 * tsr_load_safetensors; `name` names it in messages. */
int tsr__safetensors_load_buffer(const void *data, size_t size, const char *name,
                                 tsr_backend *backend, char ***names, tsr_tensor ***tensors,
                                 size_t *count);

#endif
