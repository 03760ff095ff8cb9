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
/* fft_c2c, fft_r2c, fft_c2r over attrs->axes_mask, in double (fft.c). */
int tsr__ref_kernel_fft(void *backend, const tsr_kernel_args *args);

#endif /* TSR_REFERENCE_KERNELS_H */
