/* Backward formulas of the linalg kernels (internal). Each records a node
 * on the kernel's differentiable output when an input wants a gradient. */
#ifndef TSR_CORE_OPS_LINALG_GRAD_H
#define TSR_CORE_OPS_LINALG_GRAD_H

#include "tensor/tensor.h"

tsr_status tsr__grad_record_linalg_cholesky(const tsr_tensor *a, bool upper, tsr_tensor *l);
tsr_status tsr__grad_record_linalg_lu(const tsr_tensor *a, tsr_tensor *lu,
                                      const tsr_tensor *pivots);
tsr_status tsr__grad_record_linalg_trsm(const tsr_tensor *a, const tsr_tensor *b, int32_t flags,
                                        tsr_tensor *x);
/* cholesky_solve's own node (PyTorch differentiates the whole factor, not
 * the triangle the forward reads): x solves (L L^H) x = b. */
tsr_status tsr__grad_record_cholesky_solve(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                                           tsr_tensor *x);
/* eigh's node on (w, v) and the SVD's on (u, s, vh): PyTorch's real
 * formulas; the SVD's reads the first k columns of u and rows of vh. */
tsr_status tsr__grad_record_linalg_eigh(const tsr_tensor *a, tsr_tensor *w, tsr_tensor *v);
tsr_status tsr__grad_record_linalg_svd(const tsr_tensor *a, tsr_tensor *u, tsr_tensor *s,
                                       tsr_tensor *vh);
/* qr's node on (q, r): PyTorch's real formula for m >= n (reduced, or
 * square); other shapes and mode 'r' record an unimplemented node. */
tsr_status tsr__grad_record_linalg_qr(const tsr_tensor *a, tsr_tensor *q, tsr_tensor *r,
                                      bool q_computed);

#endif
