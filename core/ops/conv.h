/* Convolution internals shared by conv.c (arguments, public functions),
 * conv_compute.c (kernels or their composition) and conv_grad.c (nodes).
 *
 * Every function here takes batched tensors ([N, C, spatial...]) and a
 * complete tsr_conv_attrs; the public functions check arguments first. The
 * five computations are differentiable: each records its node when
 * tsr__grad_wanted says so, and the nodes' formulas call the others, so
 * gradients of any order use the same kernels. */
#ifndef TSR_CORE_OPS_CONV_H
#define TSR_CORE_OPS_CONV_H

#include "tensor/tensor.h"

/* Windows along spatial dim d of an input of extent `in` (may be < 1 when
 * the kernel does not fit). */
int64_t tsr__conv_windows(const tsr_conv_attrs *a, int d, int64_t in);

/* ---- differentiable computations (conv_compute.c) ---------------------- */

/* x [N, C, in...] -> [N, C*K, L]. */
tsr_status tsr__conv_im2col(const char *name, const tsr_tensor *x, const tsr_conv_attrs *a,
                            tsr_tensor **out);
/* cols [N, C*K, L] -> [N, C, spatial...]. */
tsr_status tsr__conv_col2im(const char *name, const tsr_tensor *cols, const tsr_conv_attrs *a,
                            const int64_t *spatial, tsr_tensor **out);
/* (x, w, bias or NULL) -> y, the TSR_OP_CONVOLUTION contract. */
tsr_status tsr__conv_forward(const char *name, const tsr_tensor *x, const tsr_tensor *w,
                             const tsr_tensor *bias, const tsr_conv_attrs *a, tsr_tensor **out);
/* (dy, w) -> dx with dx's spatial extents `spatial`. */
tsr_status tsr__conv_backward_data(const char *name, const tsr_tensor *dy, const tsr_tensor *w,
                                   const tsr_conv_attrs *a, const int64_t *spatial,
                                   tsr_tensor **out);
/* (dy, x) -> dw [Cout, Cin/groups, kernel...], Cout = dy's dim 1. */
tsr_status tsr__conv_backward_weight(const char *name, const tsr_tensor *dy, const tsr_tensor *x,
                                     const tsr_conv_attrs *a, tsr_tensor **out);

/* ---- their nodes (conv_grad.c); each does nothing unless wanted -------- */

tsr_status tsr__grad_record_im2col(const tsr_tensor *x, const tsr_conv_attrs *a, tsr_tensor *out);
tsr_status tsr__grad_record_col2im(const tsr_tensor *cols, const tsr_conv_attrs *a,
                                   tsr_tensor *out);
tsr_status tsr__grad_record_conv(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                                 const tsr_conv_attrs *a, tsr_tensor *out);
tsr_status tsr__grad_record_conv_backward_data(const tsr_tensor *dy, const tsr_tensor *w,
                                               const tsr_conv_attrs *a, tsr_tensor *out);
tsr_status tsr__grad_record_conv_backward_weight(const tsr_tensor *dy, const tsr_tensor *x,
                                                 const tsr_conv_attrs *a, tsr_tensor *out);

#endif
