/* The fft family's one recorded kernel call and its gradients (internal).
 *
 * Every public transform pads, trims, converts and transposes with public
 * ops (all recorded) and then makes exactly one call below, which records
 * PyTorch's primitive node (_fft_c2c, _fft_r2c, _fft_c2r). The backward
 * formulas call the primitive again, so derivatives of every order exist. */
#ifndef TSR_CORE_OPS_FFT_GRAD_H
#define TSR_CORE_OPS_FFT_GRAD_H

#include "tensor/tensor.h"

typedef struct tsr__fft_call {
    int kind;            /* TSR_OP_FFT_C2C, _R2C or _C2R */
    int32_t direction;   /* TSR_FFT_FORWARD or TSR_FFT_INVERSE */
    int32_t norm;        /* TSR_FFT_NORM_* */
    uint32_t axes_mask;  /* the transformed dims; the kernel halves the highest */
    int64_t last_points; /* c2r: the points of the highest dim's result */
} tsr__fft_call;

/* One kernel call on x (already in the kernel's input dtype), recorded:
 * r2c gives the onesided half of the highest dim, c2r the real signal of
 * call->last_points points there. `name` names the public op in errors. */
tsr_status tsr__fft_primitive(const char *name, const tsr__fft_call *call, const tsr_tensor *x,
                              tsr_tensor **out);

#endif
