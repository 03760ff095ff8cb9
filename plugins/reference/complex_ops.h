/* Complex arithmetic written out the way PyTorch's c10::complex computes
 * it, not with C's `*` and `/`: C's versions recover infinities per C11
 * Annex G (and GCC's division rescales), so they differ from PyTorch on
 * infinities, NaNs and at overflow. PyTorch's are the textbook formulas. */
#ifndef TSR_REFERENCE_COMPLEX_OPS_H
#define TSR_REFERENCE_COMPLEX_OPS_H

#include <complex.h>
#include <math.h>

#include "wide.h"

/* (a + bi)(c + di) = (ac - bd) + (ad + bc)i */
static inline double complex tsr__ref_complex_mul(double complex x, double complex y)
{
    double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
    return tsr__ref_complex_make(a * c - b * d, a * d + b * c);
}

/* (a + bi)/(c + di) = ((ac + bd) + (bc - ad)i) / (c^2 + d^2), so x / 0 is
 * NaN + NaN i as in PyTorch. */
static inline double complex tsr__ref_complex_div(double complex x, double complex y)
{
    double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
    double denominator = c * c + d * d;
    return tsr__ref_complex_make((a * c + b * d) / denominator, (b * c - a * d) / denominator);
}

/* exp(a) (cos b + i sin b): exp(inf + 0i) is inf + NaN i in PyTorch,
 * where C's cexp gives inf + 0i. */
static inline double complex tsr__ref_complex_exp(double complex z)
{
    double magnitude = exp(creal(z));
    return tsr__ref_complex_make(magnitude * cos(cimag(z)), magnitude * sin(cimag(z)));
}

#endif /* TSR_REFERENCE_COMPLEX_OPS_H */
