/* Small arithmetic helpers shared by the op families.
 *
 * Integer arithmetic runs on int64_t values that the storers later truncate
 * to the element width. Wrapping in 64 bits and then truncating gives the
 * same bits as wrapping in the narrower type for + - * and powers, so one
 * set of helpers serves every integer dtype. The unsigned detour keeps
 * overflow defined. */
#ifndef TSR_REFERENCE_SCALAR_OPS_H
#define TSR_REFERENCE_SCALAR_OPS_H

#include <math.h>
#include <stdint.h>

static inline int64_t tsr__ref_wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t tsr__ref_wrap_sub(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t tsr__ref_wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

static inline int64_t tsr__ref_wrap_neg(int64_t a)
{
    return (int64_t)(UINT64_C(0) - (uint64_t)a);
}

/* PyTorch's maximum/minimum: NaN if either side is NaN; otherwise
 * std::max/std::min, which return the first argument on ties (so
 * maximum(-0.0, 0.0) is -0.0). */
static inline double tsr__ref_real_maximum(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        return NAN;
    }
    return a < b ? b : a;
}

static inline double tsr__ref_real_minimum(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        return NAN;
    }
    return b < a ? b : a;
}

#endif /* TSR_REFERENCE_SCALAR_OPS_H */
