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

/* tsr_load_safetensors that also returns a copy of the string
 * __metadata__[meta_key] in *meta_value (free it; a file without it is
 * TSR_ERR_FORMAT). meta_key NULL: no metadata asked for. */
int tsr__safetensors_load_meta(const char *path, tsr_backend *backend, const char *meta_key,
                               char **meta_value, char ***names, tsr_tensor ***tensors,
                               size_t *count);
/* tsr_save_safetensors writing __metadata__ {meta_key: meta_value} when
 * meta_key is not NULL. */
int tsr__safetensors_save_meta(const char *path, const char *const *names,
                               const tsr_tensor *const *tensors, size_t count, const char *meta_key,
                               const char *meta_value);

#endif
