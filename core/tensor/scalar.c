/* Scalars and operands: constructors, their widest dtypes and PyTorch's
 * checked conversion of a scalar to a dtype. */
#include "tensor/scalar.h"

#include "runtime/error.h"

#include <float.h>
#include <math.h>
#include <string.h>

tsr_scalar tsr_scalar_bool(bool value)
{
    return (tsr_scalar){.kind = TSR_SCALAR_BOOL, .v.i = value ? 1 : 0};
}

tsr_scalar tsr_scalar_int(int64_t value)
{
    return (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = value};
}

tsr_scalar tsr_scalar_float(double value)
{
    return (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = value};
}

tsr_scalar tsr_scalar_complex(double re, double im)
{
    return (tsr_scalar){.kind = TSR_SCALAR_COMPLEX, .v.c = {re, im}};
}

/* A NULL tensor must not read as the scalar False (the zeroed scalar): it
 * gets a kind no scalar has, so every op refuses it by name. */
tsr_operand tsr_operand_tensor(const tsr_tensor *tensor)
{
    if (!tensor)
        return (tsr_operand){.scalar = {.kind = TSR__SCALAR_NULL_TENSOR}};
    return (tsr_operand){.tensor = tensor};
}

tsr_operand tsr_operand_scalar(tsr_scalar scalar)
{
    return (tsr_operand){.tensor = NULL, .scalar = scalar};
}

tsr_dtype tsr__scalar_dtype(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL:
        return TSR_BOOL;
    case TSR_SCALAR_INT:
        return TSR_INT64;
    case TSR_SCALAR_FLOAT:
        return TSR_FLOAT64;
    default:
        return TSR_COMPLEX128;
    }
}

bool tsr__scalar_valid(tsr_scalar s)
{
    return s.kind >= TSR_SCALAR_BOOL && s.kind <= TSR_SCALAR_COMPLEX;
}

tsr_status tsr__check_operand(const char *op, const char *arg, tsr_operand o)
{
    if (o.tensor || tsr__scalar_valid(o.scalar))
        return TSR_OK;
    if (o.scalar.kind == TSR__SCALAR_NULL_TENSOR)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s is a NULL tensor", op, arg);
    return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s has an invalid scalar kind %d", op,
                          arg, (int)o.scalar.kind);
}

double tsr__scalar_to_double(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL:
    case TSR_SCALAR_INT:
        return (double)s.v.i;
    case TSR_SCALAR_FLOAT:
        return s.v.f;
    default:
        return s.v.c.re;
    }
}

/* Largest finite value of each non-bool dtype's (component) type. */
static void dtype_range(tsr_dtype d, double *lowest, double *highest)
{
    static const double max_of[TSR_DTYPE_COUNT] = {
        [TSR_UINT8] = 255, [TSR_INT8] = 127, [TSR_INT16] = 32767, [TSR_INT32] = 2147483647.0,
        [TSR_INT64] = 9223372036854775807.0, [TSR_FLOAT16] = 65504.0,
        [TSR_BFLOAT16] = 3.38953138925153547590e38, [TSR_FLOAT32] = 3.40282346638528859812e38,
        [TSR_FLOAT64] = DBL_MAX, [TSR_COMPLEX64] = 3.40282346638528859812e38,
        [TSR_COMPLEX128] = DBL_MAX};
    *highest = max_of[d];
    *lowest = d == TSR_UINT8 ? 0 : d == TSR_INT64 ? -9223372036854775808.0 : -max_of[d] - (tsr_dtype_is_integral(d, false) ? 1 : 0);
}

static bool real_fits(double v, bool from_integer, tsr_dtype d)
{
    double lowest, highest;
    dtype_range(d, &lowest, &highest);
    bool floating = tsr__dtype_category(d) >= TSR__CATEGORY_FLOATING;
    if (floating && isinf(v))
        return true;
    if (isnan(v))
        return floating;
    if (d == TSR_UINT8 && from_integer && v < 0)
        return -v <= highest; /* two's complement wrap, as PyTorch allows */
    return v >= lowest && v <= highest;
}

bool tsr__scalar_fits(tsr_scalar s, tsr_dtype dtype)
{
    if (dtype == TSR_BOOL || s.kind == TSR_SCALAR_BOOL)
        return true;
    if (s.kind == TSR_SCALAR_INT && dtype == TSR_INT64)
        return true;
    if (s.kind == TSR_SCALAR_COMPLEX)
        return real_fits(s.v.c.re, false, dtype) && real_fits(s.v.c.im, false, dtype);
    return real_fits(tsr__scalar_to_double(s), s.kind == TSR_SCALAR_INT, dtype);
}
