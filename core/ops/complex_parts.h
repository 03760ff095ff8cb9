/* The parts of complex tensors that backward formulas need: the conjugate,
 * the real part and the imaginary part, each recorded for autograd so that
 * a formula using them is differentiable (internal; no public op yet). */
#ifndef TSR_CORE_OPS_COMPLEX_PARTS_H
#define TSR_CORE_OPS_COMPLEX_PARTS_H

#include "tensor/tensor.h"

/* torch.conj_physical: a new contiguous tensor with the imaginary parts
 * negated; t itself (a new reference) when t is not complex. Recorded as
 * "conj_physical" (gradient: conj(g)). */
tsr_status tsr__conj_physical(const tsr_tensor *t, tsr_tensor **out);
/* torch.real / torch.imag as copies: the real dtype's contiguous tensor of
 * the parts. real of a real tensor is t itself; imag of a real tensor is an
 * error (as PyTorch). Recorded as "real" (gradient g, made complex by the
 * engine) and "imag" (gradient g * 1i). */
tsr_status tsr__real_part(const tsr_tensor *t, tsr_tensor **out);
tsr_status tsr__imag_part(const tsr_tensor *t, tsr_tensor **out);

#endif
