/* One element as the CUDA kernels hold it, and the conversions between
 * dtypes, written once for the device and the host.
 *
 * Everything here is C that nvcc also compiles as C++ with __host__
 * __device__ (TSR_CU_HD), so tests/test_cuda_elementwise.c runs the same
 * functions on the host against the reference backend's loaders and
 * storers. Like the reference, every dtype widens to a category: bool and
 * integers to int64_t, real floating types to double, complex types to a
 * pair of doubles; results are rounded once when stored. Conversions follow
 * PyTorch 1.13 on x86-64 (plugins/reference/copy_convert.c states them):
 * float to int32/int64 truncates, and NaN, infinities and out-of-range
 * values give the minimum (cvttsd2si); int8/int16 go through int32 and
 * uint8 through int64, then wrap; float to bool is x != 0 (NaN is true);
 * complex to anything else takes the real part; integers round to float
 * once before float16/bfloat16, and float64 rounds to float first. */
#ifndef TSR_CUDA_VALUE_H
#define TSR_CUDA_VALUE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <tessera/plugin.h>

#ifdef __CUDACC__
#define TSR_CU_HD __host__ __device__
#else
#define TSR_CU_HD
#endif

typedef enum tsr__cu_category {
    TSR__CU_INTEGER, /* bool, uint8 ... int64 as int64_t */
    TSR__CU_REAL,    /* float16 ... float64 as double */
    TSR__CU_COMPLEX, /* complex64, complex128 as two doubles */
} tsr__cu_category;

typedef union tsr__cu_value {
    int64_t i;
    double f;
    struct {
        double re, im;
    } c;
    uint64_t w[2]; /* where and same-dtype copy move elements as raw words */
} tsr__cu_value;

#define TSR__CU_BIT(dtype) (UINT32_C(1) << (dtype))

TSR_CU_HD static inline int tsr__cu_dtype_size(int32_t dtype)
{
    switch (dtype) {
    case TSR_BOOL:
    case TSR_UINT8:
    case TSR_INT8:
        return 1;
    case TSR_INT16:
    case TSR_FLOAT16:
    case TSR_BFLOAT16:
        return 2;
    case TSR_INT32:
    case TSR_FLOAT32:
        return 4;
    case TSR_INT64:
    case TSR_FLOAT64:
    case TSR_COMPLEX64:
        return 8;
    case TSR_COMPLEX128:
        return 16;
    default:
        return 0;
    }
}

TSR_CU_HD static inline tsr__cu_category tsr__cu_dtype_category(int32_t dtype)
{
    if (dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128)
        return TSR__CU_COMPLEX;
    if (dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 ||
        dtype == TSR_FLOAT64)
        return TSR__CU_REAL;
    return TSR__CU_INTEGER;
}

/* ------------------------------------------------------------------------ */
/* Bit patterns                                                              */
/* ------------------------------------------------------------------------ */

TSR_CU_HD static inline uint32_t tsr__cu_float_bits(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

TSR_CU_HD static inline float tsr__cu_bits_float(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* float16 -> float is exact; built from bits, so no flush-to-zero mode can
 * touch subnormals. */
TSR_CU_HD static inline float tsr__cu_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f)
        return tsr__cu_bits_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        if (man == 0)
            return tsr__cu_bits_float(sign);
        /* Normalise: shift the leading one up to bit 10. */
        uint32_t e = 113;
        while ((man & 0x400u) == 0) {
            man <<= 1;
            e--;
        }
        return tsr__cu_bits_float(sign | (e << 23) | ((man & 0x3ffu) << 13));
    }
    return tsr__cu_bits_float(sign | ((exp + 112) << 23) | (man << 13));
}

/* Round to nearest, ties to even, of x / 2^shift. */
TSR_CU_HD static inline uint32_t tsr__cu_round_shift(uint32_t x, uint32_t shift)
{
    uint32_t kept = x >> shift, dropped = x & ((1u << shift) - 1), half = 1u << (shift - 1);
    return kept + (dropped > half || (dropped == half && (kept & 1u)));
}

/* float -> float16 as c10::Half: NaN becomes 0x7e00 with the sign, overflow
 * infinity, tiny values subnormals or zero. */
TSR_CU_HD static inline uint16_t tsr__cu_half_from_float(float x)
{
    uint32_t bits = tsr__cu_float_bits(x);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    uint32_t mag = bits & 0x7fffffffu;
    if (mag > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u);
    int32_t exp = (int32_t)(mag >> 23) - 112; /* float16's biased exponent */
    if (exp >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10)
            return sign;
        uint32_t significand = (mag & 0x7fffffu) | 0x800000u;
        return (uint16_t)(sign | tsr__cu_round_shift(significand, (uint32_t)(14 - exp)));
    }
    /* A carry out of the mantissa moves to the exponent, up to infinity. */
    return (uint16_t)(sign | tsr__cu_round_shift(((uint32_t)exp << 23) | (mag & 0x7fffffu), 13));
}

TSR_CU_HD static inline float tsr__cu_bfloat16_to_float(uint16_t b)
{
    return tsr__cu_bits_float((uint32_t)b << 16);
}

/* NaN becomes 0x7fc0, as c10::BFloat16's conversion. */
TSR_CU_HD static inline uint16_t tsr__cu_bfloat16_from_float(float x)
{
    uint32_t bits = tsr__cu_float_bits(x);
    if ((bits & 0x7fffffffu) > 0x7f800000u)
        return 0x7fc0u;
    return (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

/* ------------------------------------------------------------------------ */
/* Narrowing without undefined behaviour                                     */
/* ------------------------------------------------------------------------ */

TSR_CU_HD static inline int32_t tsr__cu_trunc_int32(double x)
{
    return x > -2147483649.0 && x < 2147483648.0 ? (int32_t)x : INT32_MIN;
}

TSR_CU_HD static inline int64_t tsr__cu_trunc_int64(double x)
{
    return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}

/* The low bits of v as a two's-complement integer of `bits` bits. */
TSR_CU_HD static inline int64_t tsr__cu_wrap_bits(uint64_t v, int bits)
{
    uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    uint64_t low = v & mask, top = UINT64_C(1) << (bits - 1);
    return low & top ? -(int64_t)((~low & mask) + 1) : (int64_t)low;
}

/* The precision of a real dtype: what PyTorch rounds a step's result to. */
TSR_CU_HD static inline double tsr__cu_round_to(int32_t dtype, double x)
{
    switch (dtype) {
    case TSR_FLOAT32:
        return (float)x;
    case TSR_FLOAT16:
        return tsr__cu_half_to_float(tsr__cu_half_from_float((float)x));
    case TSR_BFLOAT16:
        return tsr__cu_bfloat16_to_float(tsr__cu_bfloat16_from_float((float)x));
    default:
        return x;
    }
}

/* ------------------------------------------------------------------------ */
/* Loads and stores                                                          */
/* ------------------------------------------------------------------------ */

/* Device pointers are element-aligned, so typed loads are plain loads there;
 * the host test passes arbitrary buffers, so it copies. */
#ifdef __CUDA_ARCH__
#define TSR__CU_GET(T, p) (*(const T *)(p))
#define TSR__CU_PUT(T, p, v) (*(T *)(p) = (T)(v))
#else
#define TSR__CU_GET(T, p) tsr__cu_get_##T(p)
#define TSR__CU_PUT(T, p, v) tsr__cu_put_##T(p, (T)(v))
#define TSR__CU_HOST_IO(T)                                                                         \
    static inline T tsr__cu_get_##T(const void *p)                                                 \
    {                                                                                              \
        T v;                                                                                       \
        memcpy(&v, p, sizeof v);                                                                   \
        return v;                                                                                  \
    }                                                                                              \
    static inline void tsr__cu_put_##T(void *p, T v)                                               \
    {                                                                                              \
        memcpy(p, &v, sizeof v);                                                                   \
    }
TSR__CU_HOST_IO(uint8_t)
TSR__CU_HOST_IO(int8_t)
TSR__CU_HOST_IO(int16_t)
TSR__CU_HOST_IO(uint16_t)
TSR__CU_HOST_IO(int32_t)
TSR__CU_HOST_IO(int64_t)
TSR__CU_HOST_IO(float)
TSR__CU_HOST_IO(double)
#undef TSR__CU_HOST_IO
#endif

TSR_CU_HD static inline tsr__cu_value tsr__cu_load(int32_t dtype, const void *p)
{
    tsr__cu_value v;
    v.c.re = 0.0;
    v.c.im = 0.0;
    const char *b = (const char *)p;
    switch (dtype) {
    case TSR_BOOL:
        v.i = TSR__CU_GET(uint8_t, b) != 0;
        break;
    case TSR_UINT8:
        v.i = TSR__CU_GET(uint8_t, b);
        break;
    case TSR_INT8:
        v.i = TSR__CU_GET(int8_t, b);
        break;
    case TSR_INT16:
        v.i = TSR__CU_GET(int16_t, b);
        break;
    case TSR_INT32:
        v.i = TSR__CU_GET(int32_t, b);
        break;
    case TSR_INT64:
        v.i = TSR__CU_GET(int64_t, b);
        break;
    case TSR_FLOAT16:
        v.f = tsr__cu_half_to_float(TSR__CU_GET(uint16_t, b));
        break;
    case TSR_BFLOAT16:
        v.f = tsr__cu_bfloat16_to_float(TSR__CU_GET(uint16_t, b));
        break;
    case TSR_FLOAT32:
        v.f = TSR__CU_GET(float, b);
        break;
    case TSR_FLOAT64:
        v.f = TSR__CU_GET(double, b);
        break;
    case TSR_COMPLEX64:
        v.c.re = TSR__CU_GET(float, b);
        v.c.im = TSR__CU_GET(float, b + 4);
        break;
    case TSR_COMPLEX128:
        v.c.re = TSR__CU_GET(double, b);
        v.c.im = TSR__CU_GET(double, b + 8);
        break;
    default:
        break;
    }
    return v;
}

/* Stores a value of category `from` as `dtype`, with copy's rules. */
TSR_CU_HD static inline void tsr__cu_store(int32_t dtype, tsr__cu_category from, void *p,
                                           tsr__cu_value v)
{
    char *b = (char *)p;
    if (from == TSR__CU_COMPLEX && tsr__cu_dtype_category(dtype) != TSR__CU_COMPLEX) {
        v.f = v.c.re;
        from = TSR__CU_REAL;
    }
    if (from == TSR__CU_INTEGER) {
        int64_t x = v.i;
        switch (dtype) {
        case TSR_BOOL:
            TSR__CU_PUT(uint8_t, b, x != 0);
            return;
        case TSR_UINT8:
            TSR__CU_PUT(uint8_t, b, (uint64_t)x & 0xffu);
            return;
        case TSR_INT8:
            TSR__CU_PUT(int8_t, b, tsr__cu_wrap_bits((uint64_t)x, 8));
            return;
        case TSR_INT16:
            TSR__CU_PUT(int16_t, b, tsr__cu_wrap_bits((uint64_t)x, 16));
            return;
        case TSR_INT32:
            TSR__CU_PUT(int32_t, b, tsr__cu_wrap_bits((uint64_t)x, 32));
            return;
        case TSR_INT64:
            TSR__CU_PUT(int64_t, b, x);
            return;
        case TSR_FLOAT16:
            TSR__CU_PUT(uint16_t, b, tsr__cu_half_from_float((float)x));
            return;
        case TSR_BFLOAT16:
            TSR__CU_PUT(uint16_t, b, tsr__cu_bfloat16_from_float((float)x));
            return;
        /* int64 -> float directly: through double it could round twice. */
        case TSR_FLOAT32:
            TSR__CU_PUT(float, b, (float)x);
            return;
        case TSR_FLOAT64:
            TSR__CU_PUT(double, b, (double)x);
            return;
        case TSR_COMPLEX64:
            TSR__CU_PUT(float, b, (float)x);
            TSR__CU_PUT(float, b + 4, 0.0f);
            return;
        case TSR_COMPLEX128:
            TSR__CU_PUT(double, b, (double)x);
            TSR__CU_PUT(double, b + 8, 0.0);
            return;
        default:
            return;
        }
    }
    if (from == TSR__CU_REAL) {
        double x = v.f;
        switch (dtype) {
        case TSR_BOOL:
            TSR__CU_PUT(uint8_t, b, x != 0.0);
            return;
        case TSR_UINT8:
            TSR__CU_PUT(uint8_t, b, (uint64_t)tsr__cu_trunc_int64(x) & 0xffu);
            return;
        case TSR_INT8:
            TSR__CU_PUT(int8_t, b, tsr__cu_wrap_bits((uint32_t)tsr__cu_trunc_int32(x), 8));
            return;
        case TSR_INT16:
            TSR__CU_PUT(int16_t, b, tsr__cu_wrap_bits((uint32_t)tsr__cu_trunc_int32(x), 16));
            return;
        case TSR_INT32:
            TSR__CU_PUT(int32_t, b, tsr__cu_trunc_int32(x));
            return;
        case TSR_INT64:
            TSR__CU_PUT(int64_t, b, tsr__cu_trunc_int64(x));
            return;
        case TSR_FLOAT16:
            TSR__CU_PUT(uint16_t, b, tsr__cu_half_from_float((float)x));
            return;
        case TSR_BFLOAT16:
            TSR__CU_PUT(uint16_t, b, tsr__cu_bfloat16_from_float((float)x));
            return;
        case TSR_FLOAT32:
            TSR__CU_PUT(float, b, (float)x);
            return;
        case TSR_FLOAT64:
            TSR__CU_PUT(double, b, x);
            return;
        case TSR_COMPLEX64:
            TSR__CU_PUT(float, b, (float)x);
            TSR__CU_PUT(float, b + 4, 0.0f);
            return;
        case TSR_COMPLEX128:
            TSR__CU_PUT(double, b, x);
            TSR__CU_PUT(double, b + 8, 0.0);
            return;
        default:
            return;
        }
    }
    if (dtype == TSR_COMPLEX64) {
        TSR__CU_PUT(float, b, (float)v.c.re);
        TSR__CU_PUT(float, b + 4, (float)v.c.im);
    } else {
        TSR__CU_PUT(double, b, v.c.re);
        TSR__CU_PUT(double, b + 8, v.c.im);
    }
}

/* Bitwise element moves (where, same-dtype copy): NaN payloads survive. */
TSR_CU_HD static inline tsr__cu_value tsr__cu_load_raw(int size, const void *p)
{
    tsr__cu_value v;
    v.c.re = 0.0;
    v.c.im = 0.0;
    const char *b = (const char *)p;
    switch (size) {
    case 1:
        v.i = TSR__CU_GET(uint8_t, b);
        break;
    case 2:
        v.i = TSR__CU_GET(uint16_t, b);
        break;
    case 4:
        v.i = TSR__CU_GET(int32_t, b);
        break;
    case 8:
        v.i = TSR__CU_GET(int64_t, b);
        break;
    default:
        v.w[0] = (uint64_t)TSR__CU_GET(int64_t, b);
        v.w[1] = (uint64_t)TSR__CU_GET(int64_t, b + 8);
        break;
    }
    return v;
}

TSR_CU_HD static inline void tsr__cu_store_raw(int size, void *p, tsr__cu_value v)
{
    char *b = (char *)p;
    switch (size) {
    case 1:
        TSR__CU_PUT(uint8_t, b, (uint64_t)v.i & 0xffu);
        break;
    case 2:
        TSR__CU_PUT(uint16_t, b, (uint64_t)v.i & 0xffffu);
        break;
    case 4:
        TSR__CU_PUT(int32_t, b, tsr__cu_wrap_bits((uint64_t)v.i, 32));
        break;
    case 8:
        TSR__CU_PUT(int64_t, b, v.i);
        break;
    default:
        TSR__CU_PUT(int64_t, b, v.w[0]);
        TSR__CU_PUT(int64_t, b + 8, v.w[1]);
        break;
    }
}

#endif
