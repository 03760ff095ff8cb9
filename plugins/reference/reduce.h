/* Reductions and scans: tables of the ops and the dtypes each implements,
 * and the two kernels that run them.
 *
 * Every floating or complex sum-like reduction (sum, nansum, prod, mean,
 * nanmean, var, std, norms, logsumexp) combines each output's terms in one
 * fixed order that depends on the terms' logical positions only
 * (docs/determinism.md):
 *   - terms are numbered in row-major order over the reduced dims;
 *   - numbers are cut into blocks of TSR__REF_REDUCE_BLOCK; in a block, term
 *     k goes to lane k % TSR__REF_REDUCE_LANES, each lane folding its terms
 *     in increasing order from the identity; lanes then combine pairwise,
 *     lane i taking lane i + 8, then i + 4, i + 2 and i + 1;
 *   - block results combine in a binary tree whose left part holds the
 *     largest power of two of blocks smaller than the count.
 * Floating terms are carried in double, complex ones in double complex and
 * integers in wrapping int64, then rounded once into the output dtype. */
#ifndef TSR_REFERENCE_REDUCE_H
#define TSR_REFERENCE_REDUCE_H

#include <stdint.h>

#include <tessera/plugin.h>

#define TSR__REF_REDUCE_BLOCK 1024
#define TSR__REF_REDUCE_LANES 16

/* Whether reduction `op` has a kernel for input `dtype`; when it has,
 * writes the dtype of its (first) output. reduce.c. */
int tsr__ref_reduce_supports(int32_t op, int32_t dtype, int32_t *dtype_out);
/* Whether (op, dtype) also has an int64 output: sum, nansum and prod of
 * bool and integers narrower than int64 accumulate in int64 anyway, so the
 * core need not widen their input first (a copy 8 times its size). */
int tsr__ref_reduce_widens(int32_t op, int32_t dtype);
/* Runs any reduction of the TSR_OP_LIST_REDUCE family over any strides. */
int tsr__ref_kernel_reduce(void *backend, const tsr_kernel_args *args);

/* Whether scan `op` has a kernel for `dtype` (its output dtype is the
 * same; cummax/cummin add int64 indices). scan.c. */
int tsr__ref_scan_supports(int32_t op, int32_t dtype);
/* Runs any scan of the TSR_OP_LIST_SCAN family over any strides. */
int tsr__ref_kernel_scan(void *backend, const tsr_kernel_args *args);

#endif /* TSR_REFERENCE_REDUCE_H */
