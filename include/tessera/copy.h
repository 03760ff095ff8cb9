/* tessera: Copies: contiguous, clone, to (dtype, backend), copy_.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_COPY_H
#define TESSERA_COPY_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A contiguous tensor with the same values (a new reference to t itself when
 * t is already contiguous). */
TSR_API tsr_status tsr_contiguous(const tsr_tensor *t, tsr_tensor **out);
TSR_API tsr_status tsr_clone(const tsr_tensor *t, tsr_tensor **out);
/* Tensor.to(dtype): a converted copy (a new reference to t if the dtype is the same). */
TSR_API tsr_status tsr_to_dtype(const tsr_tensor *t, tsr_dtype dtype, tsr_tensor **out);
/* Tensor.to(backend): a copy on another backend (a new reference to t if the same). */
TSR_API tsr_status tsr_to_backend(const tsr_tensor *t, tsr_backend *backend, tsr_tensor **out);

/* self.copy_(src): src broadcast to self's shape, converted to self's dtype,
 * moved from another backend if needed. */
TSR_API tsr_status tsr_copy_(tsr_tensor *self, const tsr_tensor *src);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_COPY_H */
