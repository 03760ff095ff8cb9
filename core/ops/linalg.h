/* The linalg family's shared pieces (internal): argument checks, PyTorch's
 * error messages for info, the three kernel calls with their autograd
 * records, and small view helpers. */
#ifndef TSR_CORE_OPS_LINALG_H
#define TSR_CORE_OPS_LINALG_H

#include "tensor/tensor.h"

/* What a nonzero info means, for its message. */
typedef enum tsr__linalg_failure {
    TSR__LINALG_NOT_PD,    /* cholesky: leading minor not positive-definite */
    TSR__LINALG_SINGULAR,  /* solve: "The solver failed ..." */
    TSR__LINALG_INV,       /* inv: "The diagonal element k is zero ..." */
    TSR__LINALG_LU_FACTOR, /* lu_factor: "U[k,k] is zero ..." */
} tsr__linalg_failure;

/* t is a batch of matrices (ndim >= 2; square when `square`) of a dtype the
 * linalg ops take, with PyTorch's messages otherwise. */
tsr_status tsr__linalg_check_matrix(const char *api, const char *arg, const tsr_tensor *t,
                                    bool square);
/* a and b have one dtype ("Expected A and B to have the same dtype ..."). */
tsr_status tsr__linalg_check_same_dtype(const char *api, const char *an, const tsr_tensor *a,
                                        const char *bn, const tsr_tensor *b);
/* Fails with PyTorch's message for the first nonzero element of info
 * (int32, the batch shape); `batched` adds "(Batch element i): ". */
tsr_status tsr__linalg_check_info(const char *api, const tsr_tensor *info, bool batched,
                                  tsr__linalg_failure failure);

/* t with its last two dims swapped (a view). */
tsr_status tsr__linalg_mT(const tsr_tensor *t, tsr_tensor **out);
/* a and b expanded to their broadcast batch dims (a view each): a keeps its
 * last `a_mat` dims, b its last `b_mat`. */
tsr_status tsr__linalg_broadcast_batch(const char *api, const tsr_tensor *a, int a_mat,
                                       const tsr_tensor *b, int b_mat, tsr_tensor **a_out,
                                       tsr_tensor **b_out);
/* The n x n identity of t's dtype and backend expanded to batch dims `shape`
 * [ndim - 2] and [n, n]. */
tsr_status tsr__linalg_eye_like(const tsr_tensor *t, int ndim, const int64_t *shape,
                                tsr_tensor **out);

/* The kernels. Each checks nothing the callers checked (square, dtypes,
 * batch dims equal) and records its gradient. */
tsr_status tsr__linalg_cholesky_kernel(const tsr_tensor *a, bool upper, tsr_tensor **l,
                                       tsr_tensor **info);
tsr_status tsr__linalg_lu_kernel(const tsr_tensor *a, tsr_tensor **lu, tsr_tensor **pivots,
                                 tsr_tensor **info);
/* x = op(a)^-1 b, left only, flags TSR_LINALG_*; a and b of equal batch dims. */
tsr_status tsr__linalg_trsm_kernel(const tsr_tensor *a, const tsr_tensor *b, int32_t flags,
                                   tsr_tensor **x);

/* The permutation of each matrix's pivots as int64 row indices, perm [..., m]
 * (row i of L U is row perm[i] of A) and its inverse, shaped pivots' batch
 * dims + [m]; either may be NULL. Checks that each pivot is in [1, m]. */
tsr_status tsr__linalg_pivots_to_perm(const char *api, const tsr_tensor *pivots, int64_t m,
                                      tsr_tensor **perm, tsr_tensor **inverse);
/* The permutation matrix P [..., m, m] (A = P L U) of pivots, in dtype. */
tsr_status tsr__linalg_pivots_to_matrix(const char *api, const tsr_tensor *pivots, int64_t m,
                                        tsr_dtype dtype, tsr_tensor **out);

/* X with op(A) X = B (X op(A) = B unless left; op = ^H with adjoint) for
 * A = P L U in lu and pivots, batch dims broadcast; checks done. */
tsr_status tsr__linalg_lu_solve_named(const char *api, const tsr_tensor *lu,
                                      const tsr_tensor *pivots, const tsr_tensor *b, bool left,
                                      bool adjoint, tsr_tensor **out);

#endif
