/* tessera: Reductions and scans: sum, mean, var, amax, argmax, cumsum, ...
 * Included by tessera/tessera.h; the conventions stated there apply.
 *
 * Conventions of this family:
 *  - A dim list is `dims` with `ndims` entries, each possibly negative
 *    (counted from the end). ndims 0 (dims may then be NULL) reduces every
 *    dim, as PyTorch's dim=None and dim=[] do. A dim named twice is an
 *    error. A 0-d tensor accepts the dims 0 and -1.
 *  - keepdim keeps reduced dims with size 1; otherwise they are removed.
 *  - `dtype` is TSR_DTYPE_INFER for PyTorch's default, or the dtype the
 *    input is converted to before the op computes (PyTorch's dtype=).
 *  - Results are deterministic: each output reduces its elements in their
 *    logical order with a fixed blocked scheme, so the bits never depend on
 *    the operand's layout (docs/determinism.md).
 *  - Ops without an identity (amax, max, argmax, aminmax, inf norms) refuse
 *    a reduced dim of size 0, naming the op.
 */
#ifndef TESSERA_REDUCE_H
#define TESSERA_REDUCE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Sums and products                                                         */
/* ======================================================================== */

/* torch.sum(t, dims, keepdim, dtype=dtype). Bool and integer inputs sum in
 * int64 unless dtype says otherwise; integer sums wrap. An empty reduction
 * gives 0. */
TSR_API tsr_status tsr_sum(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                           tsr_dtype dtype, tsr_tensor **out);
/* torch.nansum: sum treating NaN as zero. Complex inputs are refused. */
TSR_API tsr_status tsr_nansum(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                              tsr_dtype dtype, tsr_tensor **out);
/* torch.prod(t, dim, keepdim, dtype=dtype). PyTorch 1.13 reduces one dim or
 * all of them, so ndims is 0 or 1. An empty reduction gives 1. */
TSR_API tsr_status tsr_prod(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                            tsr_dtype dtype, tsr_tensor **out);
/* torch.mean: floating or complex inputs, or a floating/complex dtype. An
 * empty reduction gives NaN. */
TSR_API tsr_status tsr_mean(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                            tsr_dtype dtype, tsr_tensor **out);
/* torch.nanmean: the mean of the elements that are not NaN (floating only). */
TSR_API tsr_status tsr_nanmean(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                               tsr_dtype dtype, tsr_tensor **out);
/* torch.logsumexp: log(sum(exp(t))) computed stably, in float32 for bool and
 * integer inputs. dims must name at least one dim unless t is 0-d, as in
 * PyTorch 1.13. */
TSR_API tsr_status tsr_logsumexp(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                                 tsr_tensor **out);

/* ======================================================================== */
/* Extrema                                                                   */
/* ======================================================================== */

/* torch.amax / torch.amin: the dtype is kept; NaN propagates. */
TSR_API tsr_status tsr_amax(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                            tsr_tensor **out);
TSR_API tsr_status tsr_amin(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                            tsr_tensor **out);
/* torch.max(t) / torch.min(t): one 0-d value; an empty t is an error. */
TSR_API tsr_status tsr_max(const tsr_tensor *t, tsr_tensor **out);
TSR_API tsr_status tsr_min(const tsr_tensor *t, tsr_tensor **out);
/* torch.max(t, dim, keepdim) / torch.min: the extreme values and their
 * int64 indices along dim; ties give the first index, a NaN the first NaN. */
TSR_API tsr_status tsr_max_dim(const tsr_tensor *t, int64_t dim, bool keepdim, tsr_tensor **values,
                               tsr_tensor **indices);
TSR_API tsr_status tsr_min_dim(const tsr_tensor *t, int64_t dim, bool keepdim, tsr_tensor **values,
                               tsr_tensor **indices);
/* torch.argmax / torch.argmin (int64). ndims 0 indexes the flattened
 * tensor (dim=None); otherwise one dim. First index on ties, first NaN. */
TSR_API tsr_status tsr_argmax(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                              tsr_tensor **out);
TSR_API tsr_status tsr_argmin(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                              tsr_tensor **out);
/* torch.aminmax(t, dim=..., keepdim=...): (min, max) over one dim or, with
 * ndims 0, over everything. */
TSR_API tsr_status tsr_aminmax(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                               tsr_tensor **min, tsr_tensor **max);

/* ======================================================================== */
/* Statistics and norms                                                      */
/* ======================================================================== */

/* torch.var / torch.std with correction: the divisor is max(N - correction,
 * 0), so too few elements give inf or NaN as in PyTorch. Floating and
 * complex inputs; complex ones give a real result. unbiased=True is
 * correction 1, unbiased=False correction 0. Two passes (mean, then the
 * squared deviations). */
TSR_API tsr_status tsr_var(const tsr_tensor *t, const int64_t *dims, int ndims, double correction,
                           bool keepdim, tsr_tensor **out);
TSR_API tsr_status tsr_std(const tsr_tensor *t, const int64_t *dims, int ndims, double correction,
                           bool keepdim, tsr_tensor **out);
/* torch.var_mean / torch.std_mean: both results of one call. */
TSR_API tsr_status tsr_var_mean(const tsr_tensor *t, const int64_t *dims, int ndims,
                                double correction, bool keepdim, tsr_tensor **var,
                                tsr_tensor **mean);
TSR_API tsr_status tsr_std_mean(const tsr_tensor *t, const int64_t *dims, int ndims,
                                double correction, bool keepdim, tsr_tensor **std,
                                tsr_tensor **mean);
/* torch.linalg.vector_norm(t, ord, dims, keepdim, dtype=dtype); torch.norm
 * with a numeric p (or "fro") is the same function. ord 0 counts nonzeros,
 * +-HUGE_VAL give the largest/smallest magnitude, any other p is
 * (sum |x|^p)^(1/p). Floating and complex inputs; complex ones give a real
 * result. dtype may widen the input within its kind, never narrow it. */
TSR_API tsr_status tsr_linalg_vector_norm(const tsr_tensor *t, double ord, const int64_t *dims,
                                          int ndims, bool keepdim, tsr_dtype dtype,
                                          tsr_tensor **out);
/* torch.norm(t, p='fro', dim, keepdim): the 2-norm over dims (all of them
 * when ndims is 0), which may name at most 2 dims (TSR_ERR_SHAPE otherwise).
 * torch.norm(p='nuc') is tsr_linalg_matrix_norm with "nuc" (tessera/linalg.h). */
TSR_API tsr_status tsr_norm_fro(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                                tsr_tensor **out);

/* ======================================================================== */
/* Logical and counting                                                      */
/* ======================================================================== */

/* torch.all / torch.any over one dim or everything (ndims 0 or 1): bool,
 * but uint8 for uint8 inputs (PyTorch 1.13). Complex inputs test their real
 * part, as PyTorch 1.13's conversion to bool does. */
TSR_API tsr_status tsr_all(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                           tsr_tensor **out);
TSR_API tsr_status tsr_any(const tsr_tensor *t, const int64_t *dims, int ndims, bool keepdim,
                           tsr_tensor **out);
/* torch.count_nonzero: int64; NaN counts as nonzero. No keepdim, as PyTorch. */
TSR_API tsr_status tsr_count_nonzero(const tsr_tensor *t, const int64_t *dims, int ndims,
                                     tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#include "tessera/scan.h"

#endif /* TESSERA_REDUCE_H */
