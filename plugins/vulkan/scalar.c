#include "scalar.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The shaders' float16/bfloat16 rounding, compiled as C: fill's host-side
 * conversion and the device's copies round identically. */
#include "tm_prelude.h"

#include "shaders/tm_convert.glsl"

struct tsr__vk_int_range {
    double lo, hi; /* for float values: PyTorch checks f < lowest || f > max */
    int64_t ilo, ihi;
};

static int tsr__vk_int_range(int32_t dtype, struct tsr__vk_int_range *r)
{
    switch (dtype) {
    case TSR_UINT8:
        *r = (struct tsr__vk_int_range){0, 255, -255, 255};
        return 1;
    case TSR_INT8:
        *r = (struct tsr__vk_int_range){-128, 127, -128, 127};
        return 1;
    case TSR_INT16:
        *r = (struct tsr__vk_int_range){-32768, 32767, -32768, 32767};
        return 1;
    case TSR_INT32:
        *r = (struct tsr__vk_int_range){-2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX};
        return 1;
    case TSR_INT64:
        /* 2^63 itself is out of range for the conversion below. */
        *r = (struct tsr__vk_int_range){-9223372036854775808.0, 9223372036854774784.0, INT64_MIN,
                                        INT64_MAX};
        return 1;
    default:
        return 0;
    }
}

double tsr__vk_float_largest(int32_t dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return 65504.0;
    case TSR_BFLOAT16:
        return 3.3895313892515355e38;
    case TSR_FLOAT32:
        return 3.4028234663852886e38;
    case TSR_FLOAT64:
        return 1.7976931348623157e308;
    default:
        return 0.0;
    }
}

double tsr__vk_scalar_as_double(const tsr_scalar *value)
{
    if (value->kind == TSR_SCALAR_FLOAT)
        return value->v.f;
    if (value->kind == TSR_SCALAR_COMPLEX)
        return value->v.c.re;
    return (double)value->v.i;
}

float tsr__vk_scalar_as_float(const tsr_scalar *value)
{
    if (value->kind == TSR_SCALAR_INT || value->kind == TSR_SCALAR_BOOL)
        return (float)value->v.i;
    return (float)tsr__vk_scalar_as_double(value);
}

uint64_t tsr__vk_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

uint64_t tsr__vk_double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

void tsr__vk_put64(uint32_t words[2], uint64_t bits)
{
    words[0] = (uint32_t)bits;
    words[1] = (uint32_t)(bits >> 32);
}

int64_t tsr__vk_scalar_as_int(const tsr_scalar *value)
{
    if (value->kind == TSR_SCALAR_BOOL || value->kind == TSR_SCALAR_INT)
        return value->v.i;
    double f = tsr__vk_scalar_as_double(value);
    if (!(f > -9223372036854775808.0 && f < 9223372036854775808.0))
        return 0;
    return (int64_t)f;
}

static int tsr__vk_overflow(int32_t dtype, char *why, size_t capacity)
{
    static const char *const names[] = {
#define TSR__VK_SCALAR_NAME_(id, name, size) name,
        TSR_DTYPE_LIST(TSR__VK_SCALAR_NAME_)
#undef TSR__VK_SCALAR_NAME_
    };
    snprintf(why, capacity, "value cannot be converted to type %s without overflow",
             dtype >= 0 && dtype < TSR_DTYPE_COUNT ? names[dtype] : "?");
    return TSR_ERR_VALUE;
}

static int tsr__vk_to_int(const tsr_scalar *value, int is_float, double f, int32_t dtype,
                          uint64_t *bits, char *why, size_t capacity)
{
    struct tsr__vk_int_range r;
    tsr__vk_int_range(dtype, &r);
    int64_t v;
    if (is_float) {
        if (isnan(f) || f < r.lo || f > r.hi)
            return tsr__vk_overflow(dtype, why, capacity);
        v = (int64_t)f;
    } else {
        v = value->v.i;
        if (v < r.ilo || v > r.ihi)
            return tsr__vk_overflow(dtype, why, capacity);
    }
    *bits = (uint64_t)v;
    return TSR_OK;
}

/* One real part (or a real value) to a floating dtype, with fill_'s range
 * check: finite values beyond the dtype's largest overflow. */
static int tsr__vk_to_float(double f, int is_float, int64_t i, int32_t dtype, uint64_t *bits,
                            char *why, size_t capacity)
{
    if (dtype == TSR_FLOAT64) {
        double d = is_float ? f : (double)i;
        memcpy(bits, &d, sizeof d);
        return TSR_OK;
    }
    double max = tsr__vk_float_largest(dtype);
    if ((is_float && isfinite(f) && (f < -max || f > max)) ||
        (!is_float && ((double)i < -max || (double)i > max)))
        return tsr__vk_overflow(dtype, why, capacity);
    float v = is_float ? (float)f : (float)i;
    if (dtype == TSR_FLOAT16)
        *bits = tm_f32_to_f16(v);
    else if (dtype == TSR_BFLOAT16)
        *bits = tm_f32_to_bf16(v);
    else
        *bits = floatBitsToUint(v);
    return TSR_OK;
}

static int tsr__vk_to_complex(const tsr_scalar *value, int32_t dtype, uint64_t bits[2], char *why,
                              size_t capacity)
{
    int is_float = value->kind != TSR_SCALAR_BOOL && value->kind != TSR_SCALAR_INT;
    double re = tsr__vk_scalar_as_double(value);
    double im = value->kind == TSR_SCALAR_COMPLEX ? value->v.c.im : 0.0;
    int32_t part = dtype == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64;
    uint64_t r, j;
    int status = tsr__vk_to_float(re, is_float, value->v.i, part, &r, why, capacity);
    if (status == TSR_OK)
        status = tsr__vk_to_float(im, 1, 0, part, &j, why, capacity);
    if (status != TSR_OK)
        return tsr__vk_overflow(dtype, why, capacity);
    if (dtype == TSR_COMPLEX64) {
        bits[0] = r | j << 32;
    } else {
        bits[0] = r;
        bits[1] = j;
    }
    return TSR_OK;
}

int tsr__vk_scalar_bits(const tsr_scalar *value, int32_t dtype, uint64_t bits[2], char *why,
                        size_t capacity)
{
    bits[0] = bits[1] = 0;
    if (dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128)
        return tsr__vk_to_complex(value, dtype, bits, why, capacity);
    int is_float = value->kind == TSR_SCALAR_FLOAT || value->kind == TSR_SCALAR_COMPLEX;
    if (value->kind == TSR_SCALAR_COMPLEX && value->v.c.im != 0.0) {
        snprintf(why, capacity, "a complex value with an imaginary part cannot fill a real tensor");
        return TSR_ERR_VALUE;
    }
    double f = tsr__vk_scalar_as_double(value);
    struct tsr__vk_int_range range;
    if (dtype == TSR_BOOL) {
        bits[0] = is_float ? (f != 0.0 || isnan(f)) : value->v.i != 0;
        return TSR_OK;
    }
    if (tsr__vk_int_range(dtype, &range))
        return tsr__vk_to_int(value, is_float, f, dtype, &bits[0], why, capacity);
    if (tsr__vk_float_largest(dtype) == 0.0) {
        snprintf(why, capacity, "dtype id %d cannot be filled here", dtype);
        return TSR_ERR_DTYPE;
    }
    return tsr__vk_to_float(f, is_float, value->v.i, dtype, &bits[0], why, capacity);
}

/* A static cast, as Scalar::to<scalar_t>() and static_cast<scalar_t>(double)
 * do: float16 and bfloat16 go through float32 (c10::Half(double) does),
 * out-of-range values become infinities rather than errors. */
double tsr__vk_double_in_dtype(double v, int32_t dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return tm_f16_to_f32(tm_f32_to_f16((float)v));
    case TSR_BFLOAT16:
        return tm_bf16_to_f32(tm_f32_to_bf16((float)v));
    case TSR_FLOAT32:
        return (float)v;
    default:
        return v;
    }
}

int64_t tsr__vk_scalar_in_int_dtype(const tsr_scalar *value, int32_t dtype)
{
    uint64_t bits = (uint64_t)tsr__vk_scalar_as_int(value);
    switch (dtype) {
    case TSR_BOOL:
        return bits != 0;
    case TSR_UINT8:
        return (uint8_t)bits;
    case TSR_INT8:
        return (int8_t)(uint8_t)bits;
    case TSR_INT16:
        return (int16_t)(uint16_t)bits;
    case TSR_INT32:
        return (int32_t)(uint32_t)bits;
    default:
        return (int64_t)bits;
    }
}
