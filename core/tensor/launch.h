/* Running one kernel on tensors (internal). */
#ifndef TSR_CORE_TENSOR_LAUNCH_H
#define TSR_CORE_TENSOR_LAUNCH_H

#include "runtime/dispatch.h"
#include "tensor/tensor.h"

/* Runs `op` on `backend` with inputs already converted to `dtype_in` and
 * broadcast to the outputs' shape, writing `outputs` (of dtype_out). Prepares
 * operands the kernel does not accept as they are (strided, broadcast or
 * aliased), names the op in every error, and skips the call when the
 * outputs are empty. */
tsr_status tsr__launch(tsr_op op, tsr_dtype dtype_in, tsr_dtype dtype_out,
                       const tsr_tensor *const *inputs, int num_inputs, tsr_tensor *const *outputs,
                       int num_outputs, const void *attrs);

/* tsr__launch for an op the outputs' backend has no kernel for: on the
 * TESSERA_FALLBACK backend when it has one (operands moved there through
 * host memory, outputs moved back), else the "no kernel" error. */
tsr_status tsr__launch_fallback(tsr_op op, tsr_dtype dtype_in, tsr_dtype dtype_out,
                                const tsr_tensor *const *inputs, int num_inputs,
                                tsr_tensor *const *outputs, int num_outputs, const void *attrs);

/* Checks that every tensor lives on the same backend and returns it. */
tsr_status tsr__common_backend(const char *op, const tsr_tensor *const *tensors, int count,
                               tsr_backend **out);

#endif
