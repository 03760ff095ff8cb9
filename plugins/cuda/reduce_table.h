/* The reductions this backend claims and the host side of one call: the
 * plan (which terms each output reduces) built from the descriptors, and
 * the kernels' sequence emulated on the host for the tests. Plain C. */
#ifndef TSR_CUDA_REDUCE_TABLE_H
#define TSR_CUDA_REDUCE_TABLE_H

#include <stddef.h>

#include "reduce_ops.h"

/* Whether `op` is a claimed reduction for input `dtype`; when it is, sets
 * the (first) output's dtype. */
int tsr__cu_reduce_supports(int32_t op, int32_t dtype, int32_t *dtype_out);

/* Checks a call (one input, the op's outputs shaped like the input with
 * the reduced dims of size 1, tsr_reduce_attrs) and fills the plan, with
 * `in` and `out` the operands' base addresses (byte offsets applied).
 * Returns TSR_OK or a TSR_ERR_* with `message` set (naming the op). */
int tsr__cu_reduce_plan_init(tsr__cu_reduce_plan *plan, int32_t op, const tsr_tensor_desc *input,
                             const tsr_tensor_desc *outputs, int32_t num_outputs, const void *attrs,
                             const char *in, char *const *out, char *message, size_t capacity);

/* Runs the plan on the host exactly as reduce.cu's kernels run it on the
 * device: per phase, every block's partial into parts[o * blocks + b],
 * then every output's finish (kept[o] carrying phase 0's value). */
void tsr__cu_reduce_emulate(const tsr__cu_reduce_plan *plan, tsr__cu_partial *parts,
                            tsr__cu_value *kept);

#endif
