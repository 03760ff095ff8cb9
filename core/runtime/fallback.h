/* TESSERA_FALLBACK: the host backend that runs kernels another backend
 * lacks (internal). */
#ifndef TSR_CORE_RUNTIME_FALLBACK_H
#define TSR_CORE_RUNTIME_FALLBACK_H

#include "runtime/backend.h"

/* The backend that runs (op, in, out) for b, which has no kernel for it:
 * *fallback is NULL when TESSERA_FALLBACK is unset, names b itself, or names
 * a backend without that kernel either. A setting that cannot be used (an
 * unknown name, a device-memory backend) is an error naming the variable. */
tsr_status tsr__fallback_find(tsr_backend *b, tsr_op op, tsr_dtype in, tsr_dtype out,
                              tsr_backend **fallback);

/* Logs, once per (b, op, in, out), that the op ran on `fallback`
 * (TESSERA_LOG=fallback). */
void tsr__fallback_note(const tsr_backend *b, const tsr_backend *fallback, tsr_op op,
                        tsr_dtype in, tsr_dtype out);

#endif
