/* One call into a plugin's kernel, on descriptors (internal). */
#ifndef TSR_CORE_RUNTIME_DISPATCH_H
#define TSR_CORE_RUNTIME_DISPATCH_H

#include "runtime/backend.h"

enum { TSR__MAX_OPERANDS = 8 };

/* Writes "backend 'x' has no K kernel for D" (or "for D -> E") into text. */
void tsr__describe_missing_kernel(char *text, size_t capacity, const tsr_backend *b,
                                  tsr_op kernel, tsr_dtype in, tsr_dtype out);

/* Whether backend b has a kernel, with an error naming op, dtypes and backend if not. */
tsr_status tsr__require_kernel(const char *op, tsr_backend *b, tsr_op kernel, tsr_dtype in,
                               tsr_dtype out);

/* Runs kernel fn of backend b for `op` on prepared descriptors. A failure
 * carries the plugin's message (or "kernel failed") prefixed with
 * `op_name` and the backend's name. */
tsr_status tsr__kernel_call(const char *op_name, tsr_backend *b, tsr_kernel_fn fn, tsr_op op,
                            const tsr_tensor_desc *inputs, int num_inputs,
                            const tsr_tensor_desc *outputs, int num_outputs, const void *attrs);

#endif
