/* What a backend claims, and so when a refusal is a skip rather than a
 * verdict (see docs/conformance.md, "Partial backends"). */
#ifndef CONF_CLAIMS_H
#define CONF_CLAIMS_H

#include "bindings/bind.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether `backend` has a kernel of `op` taking `in`, for any output dtype. */
bool conf_backend_has_kernel_from(const tsr_backend *backend, tsr_op op, tsr_dtype in);

/* Whether `backend` has a kernel of `op` for any dtype pair. */
bool conf_backend_has_op(const tsr_backend *backend, tsr_op op);

/* Whether the backend of `call` claims what a refusal with `status` of the
 * call's op needs, so that the refusal of a case expecting an error counts
 * as the backend's answer. The rule, by the adapter's kernel K (-1 for ops
 * computed in the core from other kernels, and views):
 *  - K < 0: claimed unless the status is TSR_ERR_UNIMPLEMENTED (the core
 *    needed a kernel the backend lacks);
 *  - the backend has no K kernel at all: not claimed;
 *  - a status other than TSR_ERR_UNIMPLEMENTED (the core's checks, made
 *    before any kernel is looked up): claimed;
 *  - TSR_ERR_UNIMPLEMENTED: claimed when the backend has a K kernel from one
 *    of the call's dtypes (an input's, or the operands' result type), or when
 *    the reference backend has none either (PyTorch has no such op for those
 *    dtypes: refusing is the op's answer).
 * When not claimed, writes "not claimed: ..." to `why`. */
bool conf_claims_refusal(const conf_call *call, int status, const char *error, char *why,
                         size_t capacity);

#endif
