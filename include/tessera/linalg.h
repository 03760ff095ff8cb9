/* tessera: linear algebra (torch.linalg and the older torch forms):
 * Cholesky, LU, triangular and general solves, inverses, determinants.
 * Included by tessera/tessera.h; the conventions stated there apply.
 *
 * Every op takes matrices in the last two dims and batches over the dims
 * before them (broadcast between operands where PyTorch broadcasts), in
 * float32, float64, complex64 or complex128 (an integer, bool or half
 * input is refused as PyTorch refuses it). The factorisations run as
 * kernels (TSR_OP_LIST_LINALG in tessera/plugin.h); the rest are written
 * with them and other ops, so gradients follow (real dtypes; see
 * docs/linalg.md for each op's algorithm, bound and deviations).
 * Errors: a matrix that is not positive-definite (cholesky) or singular
 * (solve, inv, lu_factor) fails with TSR_ERR_VALUE and PyTorch's message,
 * naming the batch element and the failing minor or pivot; the _ex forms
 * with check_errors false return info instead (int32, one per matrix). */
#ifndef TESSERA_LINALG_H
#define TESSERA_LINALG_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Cholesky                                                                 */
/* ======================================================================== */

/* torch.linalg.cholesky(A, upper): L with A = L L^H (U = L^H with upper,
 * from A's upper triangle). Reads one triangle of A only. */
TSR_API tsr_status tsr_linalg_cholesky(const tsr_tensor *a, bool upper, tsr_tensor **out);
/* torch.linalg.cholesky_ex(A, upper, check_errors): L and info (int32, the
 * order of the first leading minor that is not positive-definite, 0 if
 * none). With check_errors a nonzero info fails as tsr_linalg_cholesky. */
TSR_API tsr_status tsr_linalg_cholesky_ex(const tsr_tensor *a, bool upper, bool check_errors,
                                          tsr_tensor **l, tsr_tensor **info);
/* torch.cholesky(A, upper): the older form, its errors named "cholesky". */
TSR_API tsr_status tsr_cholesky(const tsr_tensor *a, bool upper, tsr_tensor **out);
/* torch.cholesky_solve(B, L, upper): X with (L L^H) X = B (U^H U with upper). */
TSR_API tsr_status tsr_cholesky_solve(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                                      tsr_tensor **out);
/* torch.cholesky_inverse(L, upper): (L L^H)^-1 (U^H U with upper). */
TSR_API tsr_status tsr_cholesky_inverse(const tsr_tensor *l, bool upper, tsr_tensor **out);

/* ======================================================================== */
/* Triangular solves                                                        */
/* ======================================================================== */

/* torch.linalg.solve_triangular(A, B, upper, left, unitriangular): X with
 * A X = B (X A = B when left is false), A read as its upper or lower
 * triangle, with ones on its diagonal when unitriangular. */
TSR_API tsr_status tsr_linalg_solve_triangular(const tsr_tensor *a, const tsr_tensor *b, bool upper,
                                               bool left, bool unitriangular, tsr_tensor **out);
/* torch.triangular_solve(b, A, upper, transpose, unitriangular): the
 * solution of A X = b (A^T X = b with transpose) and a copy of A. */
TSR_API tsr_status tsr_triangular_solve(const tsr_tensor *b, const tsr_tensor *a, bool upper,
                                        bool transpose, bool unitriangular, tsr_tensor **solution,
                                        tsr_tensor **cloned_coefficient);

/* ======================================================================== */
/* LU                                                                       */
/* ======================================================================== */

/* torch.linalg.lu_factor_ex(A, pivot, check_errors): LU (L's multipliers
 * below the diagonal, U on and above), pivots (int32, 1-based, min(m, n)
 * per matrix) and info (the first zero U_kk, 1-based, 0 if none). Partial
 * pivoting only: pivot false is refused as on PyTorch's CPU. */
TSR_API tsr_status tsr_linalg_lu_factor_ex(const tsr_tensor *a, bool pivot, bool check_errors,
                                           tsr_tensor **lu, tsr_tensor **pivots, tsr_tensor **info);
/* torch.linalg.lu_factor(A, pivot): fails on a zero pivot as PyTorch. */
TSR_API tsr_status tsr_linalg_lu_factor(const tsr_tensor *a, bool pivot, tsr_tensor **lu,
                                        tsr_tensor **pivots);
/* torch.linalg.lu(A, pivot): A = P L U with P a permutation (A's dtype),
 * L unit lower triangular m x k and U upper triangular k x n. */
TSR_API tsr_status tsr_linalg_lu(const tsr_tensor *a, bool pivot, tsr_tensor **p, tsr_tensor **l,
                                 tsr_tensor **u);
/* torch.lu_unpack(LU, pivots, unpack_data, unpack_pivots): P, L and U of a
 * factorisation; an output not unpacked is an empty tensor, as PyTorch. */
TSR_API tsr_status tsr_lu_unpack(const tsr_tensor *lu, const tsr_tensor *pivots, bool unpack_data,
                                 bool unpack_pivots, tsr_tensor **p, tsr_tensor **l,
                                 tsr_tensor **u);
/* torch.linalg.lu_solve(LU, pivots, B, left, adjoint): X with A X = B
 * (A^H X = B with adjoint; X A = B, X A^H = B when left is false) for the
 * A that LU and pivots factor. */
TSR_API tsr_status tsr_linalg_lu_solve(const tsr_tensor *lu, const tsr_tensor *pivots,
                                       const tsr_tensor *b, bool left, bool adjoint,
                                       tsr_tensor **out);
/* torch.lu_solve(b, LU_data, LU_pivots): the older form of the above. */
TSR_API tsr_status tsr_lu_solve(const tsr_tensor *b, const tsr_tensor *lu, const tsr_tensor *pivots,
                                tsr_tensor **out);

/* ======================================================================== */
/* General solves, inverses, determinants                                   */
/* ======================================================================== */

/* torch.linalg.solve_ex(A, B, left, check_errors): X with A X = B (X A = B
 * when left is false) through LU, and info as lu_factor_ex's. B may be a
 * vector (1-d, or A's shape without its last dim) as in PyTorch 1.13. */
TSR_API tsr_status tsr_linalg_solve_ex(const tsr_tensor *a, const tsr_tensor *b, bool left,
                                       bool check_errors, tsr_tensor **result, tsr_tensor **info);
/* torch.linalg.solve(A, B, left): fails on a singular A. */
TSR_API tsr_status tsr_linalg_solve(const tsr_tensor *a, const tsr_tensor *b, bool left,
                                    tsr_tensor **out);
/* torch.linalg.inv_ex(A, check_errors): A^-1 and info. */
TSR_API tsr_status tsr_linalg_inv_ex(const tsr_tensor *a, bool check_errors, tsr_tensor **inverse,
                                     tsr_tensor **info);
/* torch.linalg.inv(A): fails on a singular A. */
TSR_API tsr_status tsr_linalg_inv(const tsr_tensor *a, tsr_tensor **out);
/* torch.linalg.det(A): the product of U's diagonal, signed by P. */
TSR_API tsr_status tsr_linalg_det(const tsr_tensor *a, tsr_tensor **out);
/* torch.linalg.slogdet(A): sign (A's dtype: +-1, a unit complex number or
 * 0) and log|det A| (real). */
TSR_API tsr_status tsr_linalg_slogdet(const tsr_tensor *a, tsr_tensor **sign,
                                      tsr_tensor **logabsdet);
/* torch.logdet(A): log det A; NaN where a real det is negative. */
TSR_API tsr_status tsr_logdet(const tsr_tensor *a, tsr_tensor **out);

/* ======================================================================== */
/* QR, eigh, SVD (no gradients yet: a backward through them fails)          */
/* ======================================================================== */

/* torch.linalg.qr(A, mode): mode "reduced" (NULL), "complete" or "r" (Q
 * then an empty tensor). Householder QR; R's diagonal is real, of either
 * sign, so Q and R are unique only up to the signs (phases) of Q's columns. */
TSR_API tsr_status tsr_linalg_qr(const tsr_tensor *a, const char *mode, tsr_tensor **q,
                                 tsr_tensor **r);
/* torch.linalg.eigh(A, UPLO): ascending real eigenvalues and orthonormal
 * eigenvectors of the Hermitian matrix A's lower ("L", NULL) or upper ("U")
 * triangle names. */
TSR_API tsr_status tsr_linalg_eigh(const tsr_tensor *a, const char *uplo, tsr_tensor **eigenvalues,
                                   tsr_tensor **eigenvectors);
/* torch.linalg.eigvalsh(A, UPLO): the eigenvalues alone. */
TSR_API tsr_status tsr_linalg_eigvalsh(const tsr_tensor *a, const char *uplo, tsr_tensor **out);
/* torch.linalg.eig(A): complex eigenvalues and unit-norm eigenvectors of a
 * square A (complex64 for float32 A, complex128 for float64), in the order
 * the backend's Schur form leaves them; no gradient yet. */
TSR_API tsr_status tsr_linalg_eig(const tsr_tensor *a, tsr_tensor **eigenvalues,
                                  tsr_tensor **eigenvectors);
/* torch.linalg.eigvals(A): the eigenvalues alone. */
TSR_API tsr_status tsr_linalg_eigvals(const tsr_tensor *a, tsr_tensor **out);
/* torch.linalg.svd(A, full_matrices): U, S (descending, real) and Vh. */
TSR_API tsr_status tsr_linalg_svd(const tsr_tensor *a, bool full_matrices, tsr_tensor **u,
                                  tsr_tensor **s, tsr_tensor **vh);
/* torch.linalg.svdvals(A): the singular values alone. */
TSR_API tsr_status tsr_linalg_svdvals(const tsr_tensor *a, tsr_tensor **out);

/* ======================================================================== */
/* Norms and the ops on singular values                                     */
/* ======================================================================== */

/* torch.linalg.matrix_norm(A, ord, dim, keepdim): ord_name "fro" or "nuc",
 * or NULL for the number ord (+-1, +-2, +-inf); dim NULL is (-2, -1). */
TSR_API tsr_status tsr_linalg_matrix_norm(const tsr_tensor *a, const char *ord_name, double ord,
                                          const int64_t *dim, bool keepdim, tsr_tensor **out);
/* torch.linalg.cond(A, p): p None (has_p false) or +-2 from the singular
 * values, any other matrix_norm order as norm(A) norm(A^-1). */
TSR_API tsr_status tsr_linalg_cond(const tsr_tensor *a, const char *p_name, double p, bool has_p,
                                   tsr_tensor **out);
/* torch.linalg.matrix_rank(A, atol, rtol, hermitian): the number of singular
 * values above max(atol, rtol * largest), int64; NULL tolerances are None
 * (PyTorch's defaults: rtol = eps max(m, n) unless atol > 0). */
TSR_API tsr_status tsr_linalg_matrix_rank(const tsr_tensor *a, const double *atol,
                                          const double *rtol, bool hermitian, tsr_tensor **out);
/* torch.linalg.pinv(A, atol, rtol, hermitian): the pseudoinverse through
 * the SVD (eigh with hermitian), values below the cut-off dropped. Real
 * dtypes only for now. */
TSR_API tsr_status tsr_linalg_pinv(const tsr_tensor *a, const double *atol, const double *rtol,
                                   bool hermitian, tsr_tensor **out);
/* torch.linalg.lstsq(A, B, rcond, driver): solution, residuals, rank and
 * singular_values as the driver ("gelsy" for NULL, "gelsd", "gelss",
 * "gels") returns them, through the SVD (the minimum-norm solution, every
 * driver's on full-rank matrices). rcond NULL is None. Real dtypes. */
TSR_API tsr_status tsr_linalg_lstsq(const tsr_tensor *a, const tsr_tensor *b, const double *rcond,
                                    const char *driver, tsr_tensor **solution,
                                    tsr_tensor **residuals, tsr_tensor **rank,
                                    tsr_tensor **singular_values);
/* torch.pinverse(input, rcond): pinv with rtol = rcond. */
TSR_API tsr_status tsr_pinverse(const tsr_tensor *a, double rcond, tsr_tensor **out);

/* torch.linalg.norm(A, ord, dim, keepdim): matrix_norm for ord_name
 * ("fro", "nuc"), two dims, or a 2-d A with an order (has_ord) and no dims;
 * vector_norm (2 by default) otherwise. dim NULL is None. */
TSR_API tsr_status tsr_linalg_norm(const tsr_tensor *a, const char *ord_name, double ord,
                                   bool has_ord, const int64_t *dim, int ndim, bool keepdim,
                                   tsr_tensor **out);
/* torch.linalg.tensorinv(A, ind): inv of A as a prod(shape[:ind]) square
 * matrix, shaped shape[ind:] + shape[:ind]. */
TSR_API tsr_status tsr_linalg_tensorinv(const tsr_tensor *a, int64_t ind, tsr_tensor **out);
/* torch.linalg.tensorsolve(A, B, dims): X with tensordot(A, X, X.ndim) = B;
 * dims (NULL: None) names A's dims moved last first. */
TSR_API tsr_status tsr_linalg_tensorsolve(const tsr_tensor *a, const tsr_tensor *b,
                                          const int64_t *dims, int ndims, tsr_tensor **out);
/* torch.linalg.householder_product(A, tau): the first n columns of the
 * product of the reflectors I - tau_i v_i v_i^T that A's columns and tau
 * name (as geqrf leaves them). Real dtypes for now. */
TSR_API tsr_status tsr_linalg_householder_product(const tsr_tensor *a, const tsr_tensor *tau,
                                                  tsr_tensor **out);

/* torch.geqrf(input): LAPACK's compact QR, (a, tau): R above the diagonal,
 * the Householder vectors below it (see linalg_householder_product). */
TSR_API tsr_status tsr_geqrf(const tsr_tensor *a, tsr_tensor **qr, tsr_tensor **tau);
/* torch.ormqr(A, tau, C, left, transpose): Q C, Q^T C, C Q or C Q^T for
 * the full m x m product Q of the reflectors in A and tau (geqrf's layout).
 * Real dtypes for now. */
TSR_API tsr_status tsr_ormqr(const tsr_tensor *a, const tsr_tensor *tau, const tsr_tensor *c,
                             bool left, bool transpose, tsr_tensor **out);

/* torch.linalg.matrix_exp(A) / torch.matrix_exp: scaling and squaring with
 * the [13/13] Pade approximant, the scaling taken from the batch's largest
 * 1-norm (docs/linalg.md). */
TSR_API tsr_status tsr_linalg_matrix_exp(const tsr_tensor *a, tsr_tensor **out);
TSR_API tsr_status tsr_matrix_exp(const tsr_tensor *a, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_LINALG_H */
