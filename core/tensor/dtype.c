/* Dtype properties and the scalar/operand constructors. */
#include "tensor/dtype.h"

#include "runtime/error.h"

#include <float.h>
#include <math.h>
#include <string.h>

static const char *const dtype_names[TSR_DTYPE_COUNT] = {
#define DTYPE_NAME_(id, name, size) name,
    TSR_DTYPE_LIST(DTYPE_NAME_)
#undef DTYPE_NAME_
};

static const size_t dtype_sizes[TSR_DTYPE_COUNT] = {
#define DTYPE_SIZE_(id, name, size) size,
    TSR_DTYPE_LIST(DTYPE_SIZE_)
#undef DTYPE_SIZE_
};

bool tsr__dtype_valid(int dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT;
}

const char *tsr_dtype_name(tsr_dtype dtype)
{
    return tsr__dtype_valid(dtype) ? dtype_names[dtype] : NULL;
}

tsr_status tsr_dtype_from_name(const char *name, tsr_dtype *out)
{
    if (!name || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_dtype_from_name: name and out must not be NULL");
    for (int i = 0; i < TSR_DTYPE_COUNT; i++) {
        if (strcmp(name, dtype_names[i]) == 0) {
            *out = (tsr_dtype)i;
            return TSR_OK;
        }
    }
    return tsr__set_error(TSR_ERR_DTYPE, "tsr_dtype_from_name: unknown dtype '%s'", name);
}

size_t tsr_dtype_size(tsr_dtype dtype)
{
    return tsr__dtype_valid(dtype) ? dtype_sizes[dtype] : 0;
}

bool tsr_dtype_is_floating(tsr_dtype dtype)
{
    return dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 ||
           dtype == TSR_FLOAT64;
}

bool tsr_dtype_is_complex(tsr_dtype dtype)
{
    return dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128;
}

bool tsr_dtype_is_integral(tsr_dtype dtype, bool include_bool)
{
    if (dtype == TSR_BOOL)
        return include_bool;
    return dtype >= TSR_UINT8 && dtype <= TSR_INT64;
}

tsr__category tsr__dtype_category(tsr_dtype dtype)
{
    if (dtype == TSR_BOOL)
        return TSR__CATEGORY_BOOL;
    if (tsr_dtype_is_integral(dtype, false))
        return TSR__CATEGORY_INTEGER;
    if (tsr_dtype_is_floating(dtype))
        return TSR__CATEGORY_FLOATING;
    return TSR__CATEGORY_COMPLEX;
}

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

tsr_operand tsr_operand_tensor(const tsr_tensor *tensor)
{
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
