/* Reading a kernel call's arguments: the checks every kernel makes before
 * touching memory, with messages for the host. */
#ifndef TSR_REFERENCE_KERNEL_ARGS_H
#define TSR_REFERENCE_KERNEL_ARGS_H

#include <tessera/plugin.h>

#include "backend.h"
#include "strided_loop.h"

/* Checks the argument block itself (non-NULL, large enough, one output,
 * `num_inputs` inputs) and prepares the loop over output and inputs.
 * Returns TSR_OK or an error already reported to the host. */
int tsr__ref_args_prepare(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                          int32_t num_inputs, tsr__ref_loop *loop);

/* The op's tsr_elementwise_attrs, or NULL when the call has none or one
 * too small to hold mode and scalars[0], the only members read here. */
const tsr_elementwise_attrs *tsr__ref_args_attrs(const tsr_kernel_args *args);

/* Reports that input `index` (-1: the output) has `dtype` where `expected`
 * was required; returns TSR_ERR_DTYPE. */
int tsr__ref_args_dtype_error(const tsr__ref_backend *backend, int32_t index, int32_t dtype,
                              int32_t expected);

#endif /* TSR_REFERENCE_KERNEL_ARGS_H */
