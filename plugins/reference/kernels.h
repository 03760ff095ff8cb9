/* Kernels that are not table-driven elementwise ops: they move or pick
 * whole elements instead of computing on widened values. */
#ifndef TSR_REFERENCE_KERNELS_H
#define TSR_REFERENCE_KERNELS_H

#include <tessera/plugin.h>

/* copy: converts input 0 into the output's dtype (copy.c). */
int tsr__ref_kernel_copy(void *backend, const tsr_kernel_args *args);
/* fill: writes attrs scalars[0], converted as copy would, everywhere (copy.c). */
int tsr__ref_kernel_fill(void *backend, const tsr_kernel_args *args);
/* where: inputs (condition bool, a, b), a and b in the output's dtype (elementwise_select.c). */
int tsr__ref_kernel_where(void *backend, const tsr_kernel_args *args);
/* softmax and log_softmax along attrs->dim, (dtype, dtype) (softmax.c). */
int tsr__ref_kernel_softmax(void *backend, const tsr_kernel_args *args);
/* layer_norm and rms_norm over the last attrs->offset dims (norm.c). */
int tsr__ref_kernel_norm(void *backend, const tsr_kernel_args *args);
/* cross_entropy with class indices -> (loss, lse, picked) (loss_cross_entropy.c). */
int tsr__ref_kernel_cross_entropy(void *backend, const tsr_kernel_args *args);
/* matmul: inputs (a, b[, c]) and output of one dtype, (dtype, dtype), for
 * the dtypes in tsr__ref_matmul_dtypes (products.c). */
extern const uint32_t tsr__ref_matmul_dtypes;
int tsr__ref_kernel_matmul(void *backend, const tsr_kernel_args *args);
/* The pooling kernels of TSR_OP_LIST_POOL, (dtype, dtype) for the dtypes
 * in tsr__ref_pool_dtypes(op) (pool.c). */
uint32_t tsr__ref_pool_dtypes(int32_t op);
int tsr__ref_kernel_pool(void *backend, const tsr_kernel_args *args);
/* im2col and col2im with tsr_conv_attrs, (dtype, dtype): im2col copies any
 * dtype, col2im sums floating and complex ones (conv.c). */
int tsr__ref_kernel_im2col(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_col2im(void *backend, const tsr_kernel_args *args);
/* Windows along spatial dim d of an extent `in` under attrs a (conv.c). */
int64_t tsr__ref_conv_windows(const tsr_conv_attrs *a, int d, int64_t in);
/* convolution, convolution_backward_data and convolution_backward_weight
 * from the definition, floating and complex dtypes (conv_direct.c). */
int tsr__ref_kernel_convolution(void *backend, const tsr_kernel_args *args);
/* upsample and upsample_backward, (dtype, dtype): nearest modes for uint8,
 * bfloat16, float32 and float64, the others floating only (resample.c). */
int tsr__ref_kernel_upsample(void *backend, const tsr_kernel_args *args);
/* grid_sampler and grid_sampler_backward, float32 and float64 (resample_grid.c). */
int tsr__ref_kernel_grid_sampler(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_grid_sampler_backward(void *backend, const tsr_kernel_args *args);
/* fft_c2c, fft_r2c, fft_c2r over attrs->axes_mask, in double (fft.c). */
int tsr__ref_kernel_fft(void *backend, const tsr_kernel_args *args);
/* linalg_cholesky, linalg_lu, linalg_solve_triangular: float32, float64,
 * complex64, complex128, operands as TSR_OP_LIST_LINALG states
 * (linalg_factor.c). */
#define TSR__REF_LINALG_DTYPES (TSR__REF_SET_FLOAT3264 | TSR__REF_SET_COMPLEX)
int tsr__ref_kernel_linalg_cholesky(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_linalg_lu(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_linalg_solve_triangular(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_linalg_qr(void *backend, const tsr_kernel_args *args);    /* linalg_qr.c */
int tsr__ref_kernel_linalg_geqrf(void *backend, const tsr_kernel_args *args); /* linalg_qr.c */
/* linalg_eig: (dtype, its complex counterpart) (linalg_eig.c) */
int tsr__ref_kernel_linalg_eig(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_linalg_eigh(void *backend, const tsr_kernel_args *args);  /* linalg_spectral.c */
int tsr__ref_kernel_linalg_svd(void *backend, const tsr_kernel_args *args);   /* linalg_spectral.c */

#endif /* TSR_REFERENCE_KERNELS_H */
