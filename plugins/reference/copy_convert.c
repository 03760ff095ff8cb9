/* Element conversions between every pair of dtypes, with PyTorch's rules on
 * x86-64:
 *  - float to integer truncates toward zero. int32 and int64 targets follow
 *    cvttsd2si: NaN, infinities and out-of-range values give the type's
 *    minimum. int8 and int16 go through int32 and uint8 through int64, then
 *    wrap, so 300.0 -> uint8 is 44 and NaN -> uint8 is 0.
 *  - float to bool is x != 0 (NaN is true); complex to anything, bool
 *    included, uses the real part only.
 *  - integers to float32/float16/bfloat16 round once to float (as the
 *    hardware converts int64 to float), then float to the half types.
 *  - float64 to float16/bfloat16 rounds to float first, as c10 does.
 * None of it relies on behaviour C leaves undefined: ranges are checked
 * before casting and narrowing goes through unsigned types. */
#include "wide.h"

#include <string.h>

#include "half.h"

/* ------------------------------------------------------------------------ */
/* Integer helpers                                                           */
/* ------------------------------------------------------------------------ */

/* cvttsd2si with a 32-bit destination. */
static int32_t truncate_to_int32(double x)
{
    if (x > -2147483649.0 && x < 2147483648.0) {
        return (int32_t)x;
    }
    return INT32_MIN;
}

/* cvttsd2si with a 64-bit destination. */
static int64_t truncate_to_int64(double x)
{
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0) {
        return (int64_t)x;
    }
    return INT64_MIN;
}

/* Two's complement reinterpretation of the low bits, without relying on
 * the implementation-defined conversion of out-of-range values. */
static int8_t int8_from_bits(uint8_t bits)
{
    return (int8_t)(bits < 0x80u ? (int)bits : (int)bits - 0x100);
}

static int16_t int16_from_bits(uint16_t bits)
{
    return (int16_t)(bits < 0x8000u ? (int32_t)bits : (int32_t)bits - 0x10000);
}

static int32_t int32_from_bits(uint32_t bits)
{
    return bits < UINT32_C(0x80000000) ? (int32_t)bits
                                       : (int32_t)(bits - UINT32_C(0x80000000)) + INT32_MIN;
}

/* ------------------------------------------------------------------------ */
/* Loads                                                                     */
/* ------------------------------------------------------------------------ */

/* memcpy keeps unaligned and type-punned accesses defined; compilers turn
 * it into a plain load. */

static void load_bool(const void *src, tsr__ref_wide *out)
{
    uint8_t v;
    memcpy(&v, src, sizeof v);
    out->i = v != 0;
}

static void load_uint8(const void *src, tsr__ref_wide *out)
{
    uint8_t v;
    memcpy(&v, src, sizeof v);
    out->i = v;
}

static void load_int8(const void *src, tsr__ref_wide *out)
{
    int8_t v;
    memcpy(&v, src, sizeof v);
    out->i = v;
}

static void load_int16(const void *src, tsr__ref_wide *out)
{
    int16_t v;
    memcpy(&v, src, sizeof v);
    out->i = v;
}

static void load_int32(const void *src, tsr__ref_wide *out)
{
    int32_t v;
    memcpy(&v, src, sizeof v);
    out->i = v;
}

static void load_int64(const void *src, tsr__ref_wide *out)
{
    memcpy(&out->i, src, sizeof out->i);
}

static void load_float16(const void *src, tsr__ref_wide *out)
{
    uint16_t v;
    memcpy(&v, src, sizeof v);
    out->f = tsr__ref_half_to_float(v);
}

static void load_bfloat16(const void *src, tsr__ref_wide *out)
{
    uint16_t v;
    memcpy(&v, src, sizeof v);
    out->f = tsr__ref_bfloat16_to_float(v);
}

static void load_float32(const void *src, tsr__ref_wide *out)
{
    float v;
    memcpy(&v, src, sizeof v);
    out->f = v;
}

static void load_float64(const void *src, tsr__ref_wide *out)
{
    memcpy(&out->f, src, sizeof out->f);
}

static void load_complex64(const void *src, tsr__ref_wide *out)
{
    float v[2];
    memcpy(v, src, sizeof v);
    out->c = tsr__ref_complex_make(v[0], v[1]);
}

static void load_complex128(const void *src, tsr__ref_wide *out)
{
    double v[2];
    memcpy(v, src, sizeof v);
    out->c = tsr__ref_complex_make(v[0], v[1]);
}

/* ------------------------------------------------------------------------ */
/* Typed writes shared by the storers                                        */
/* ------------------------------------------------------------------------ */

static void put_u8(void *dst, uint8_t v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_i8(void *dst, int8_t v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_i16(void *dst, int16_t v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_i32(void *dst, int32_t v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_i64(void *dst, int64_t v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_u16(void *dst, uint16_t v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_f32(void *dst, float v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_f64(void *dst, double v)
{
    memcpy(dst, &v, sizeof v);
}

static void put_c64(void *dst, float re, float im)
{
    float v[2] = {re, im};
    memcpy(dst, v, sizeof v);
}

static void put_c128(void *dst, double re, double im)
{
    double v[2] = {re, im};
    memcpy(dst, v, sizeof v);
}

/* ------------------------------------------------------------------------ */
/* Stores from the integer category                                          */
/* ------------------------------------------------------------------------ */

static void store_integer_bool(void *dst, const tsr__ref_wide *v)
{
    put_u8(dst, v->i != 0);
}

static void store_integer_uint8(void *dst, const tsr__ref_wide *v)
{
    put_u8(dst, (uint8_t)(uint64_t)v->i);
}

static void store_integer_int8(void *dst, const tsr__ref_wide *v)
{
    put_i8(dst, int8_from_bits((uint8_t)(uint64_t)v->i));
}

static void store_integer_int16(void *dst, const tsr__ref_wide *v)
{
    put_i16(dst, int16_from_bits((uint16_t)(uint64_t)v->i));
}

static void store_integer_int32(void *dst, const tsr__ref_wide *v)
{
    put_i32(dst, int32_from_bits((uint32_t)(uint64_t)v->i));
}

static void store_integer_int64(void *dst, const tsr__ref_wide *v)
{
    put_i64(dst, v->i);
}

static void store_integer_float16(void *dst, const tsr__ref_wide *v)
{
    put_u16(dst, tsr__ref_half_from_float((float)v->i));
}

static void store_integer_bfloat16(void *dst, const tsr__ref_wide *v)
{
    put_u16(dst, tsr__ref_bfloat16_from_float((float)v->i));
}

/* Direct int64 -> float rounding; through double it could round twice. */
static void store_integer_float32(void *dst, const tsr__ref_wide *v)
{
    put_f32(dst, (float)v->i);
}

static void store_integer_float64(void *dst, const tsr__ref_wide *v)
{
    put_f64(dst, (double)v->i);
}

static void store_integer_complex64(void *dst, const tsr__ref_wide *v)
{
    put_c64(dst, (float)v->i, 0.0f);
}

static void store_integer_complex128(void *dst, const tsr__ref_wide *v)
{
    put_c128(dst, (double)v->i, 0.0);
}

/* ------------------------------------------------------------------------ */
/* Stores from the real category                                             */
/* ------------------------------------------------------------------------ */

static void store_real_bool(void *dst, const tsr__ref_wide *v)
{
    put_u8(dst, v->f != 0.0);
}

/* uint8 is converted through int64, unlike int8 and int16: 2147483653.0
 * gives 5, not 0 (how the compiler PyTorch used converts to unsigned). */
static void store_real_uint8(void *dst, const tsr__ref_wide *v)
{
    put_u8(dst, (uint8_t)(uint64_t)truncate_to_int64(v->f));
}

static void store_real_int8(void *dst, const tsr__ref_wide *v)
{
    put_i8(dst, int8_from_bits((uint8_t)(uint32_t)truncate_to_int32(v->f)));
}

static void store_real_int16(void *dst, const tsr__ref_wide *v)
{
    put_i16(dst, int16_from_bits((uint16_t)(uint32_t)truncate_to_int32(v->f)));
}

static void store_real_int32(void *dst, const tsr__ref_wide *v)
{
    put_i32(dst, truncate_to_int32(v->f));
}

static void store_real_int64(void *dst, const tsr__ref_wide *v)
{
    put_i64(dst, truncate_to_int64(v->f));
}

static void store_real_float16(void *dst, const tsr__ref_wide *v)
{
    put_u16(dst, tsr__ref_half_from_float((float)v->f));
}

static void store_real_bfloat16(void *dst, const tsr__ref_wide *v)
{
    put_u16(dst, tsr__ref_bfloat16_from_float((float)v->f));
}

static void store_real_float32(void *dst, const tsr__ref_wide *v)
{
    put_f32(dst, (float)v->f);
}

static void store_real_float64(void *dst, const tsr__ref_wide *v)
{
    put_f64(dst, v->f);
}

static void store_real_complex64(void *dst, const tsr__ref_wide *v)
{
    put_c64(dst, (float)v->f, 0.0f);
}

static void store_real_complex128(void *dst, const tsr__ref_wide *v)
{
    put_c128(dst, v->f, 0.0);
}

/* ------------------------------------------------------------------------ */
/* Stores from the complex category                                          */
/* ------------------------------------------------------------------------ */

static void store_complex_complex64(void *dst, const tsr__ref_wide *v)
{
    put_c64(dst, (float)creal(v->c), (float)cimag(v->c));
}

static void store_complex_complex128(void *dst, const tsr__ref_wide *v)
{
    put_c128(dst, creal(v->c), cimag(v->c));
}

/* ------------------------------------------------------------------------ */
/* The dtype table                                                           */
/* ------------------------------------------------------------------------ */

typedef struct dtype_info {
    size_t size;
    tsr__ref_category category;
    int32_t real_part; /* the dtype of a complex dtype's parts; itself otherwise */
    tsr__ref_load_fn load;
    tsr__ref_store_fn store_from[TSR__REF_CATEGORY_COUNT];
} dtype_info;

static const dtype_info dtype_infos[TSR_DTYPE_COUNT] = {
    [TSR_BOOL] =
        {1, TSR__REF_INTEGER, TSR_BOOL, load_bool, {store_integer_bool, store_real_bool, NULL}},
    [TSR_UINT8] =
        {1, TSR__REF_INTEGER, TSR_UINT8, load_uint8, {store_integer_uint8, store_real_uint8, NULL}},
    [TSR_INT8] =
        {1, TSR__REF_INTEGER, TSR_INT8, load_int8, {store_integer_int8, store_real_int8, NULL}},
    [TSR_INT16] =
        {2, TSR__REF_INTEGER, TSR_INT16, load_int16, {store_integer_int16, store_real_int16, NULL}},
    [TSR_INT32] =
        {4, TSR__REF_INTEGER, TSR_INT32, load_int32, {store_integer_int32, store_real_int32, NULL}},
    [TSR_INT64] =
        {8, TSR__REF_INTEGER, TSR_INT64, load_int64, {store_integer_int64, store_real_int64, NULL}},
    [TSR_FLOAT16] = {2,
                     TSR__REF_REAL,
                     TSR_FLOAT16,
                     load_float16,
                     {store_integer_float16, store_real_float16, NULL}},
    [TSR_BFLOAT16] = {2,
                      TSR__REF_REAL,
                      TSR_BFLOAT16,
                      load_bfloat16,
                      {store_integer_bfloat16, store_real_bfloat16, NULL}},
    [TSR_FLOAT32] = {4,
                     TSR__REF_REAL,
                     TSR_FLOAT32,
                     load_float32,
                     {store_integer_float32, store_real_float32, NULL}},
    [TSR_FLOAT64] = {8,
                     TSR__REF_REAL,
                     TSR_FLOAT64,
                     load_float64,
                     {store_integer_float64, store_real_float64, NULL}},
    [TSR_COMPLEX64] = {8,
                       TSR__REF_COMPLEX,
                       TSR_FLOAT32,
                       load_complex64,
                       {store_integer_complex64, store_real_complex64, store_complex_complex64}},
    [TSR_COMPLEX128] = {16,
                        TSR__REF_COMPLEX,
                        TSR_FLOAT64,
                        load_complex128,
                        {store_integer_complex128, store_real_complex128,
                         store_complex_complex128}},
};

int tsr__ref_dtype_valid(int32_t dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT;
}

const char *tsr__ref_dtype_name(int32_t dtype)
{
    static const char *const names[] = {
#define TSR_REF_DTYPE_NAME_(id, name, size) name,
        TSR_DTYPE_LIST(TSR_REF_DTYPE_NAME_)
#undef TSR_REF_DTYPE_NAME_
    };
    return tsr__ref_dtype_valid(dtype) ? names[dtype] : "invalid";
}

size_t tsr__ref_dtype_size(int32_t dtype)
{
    return tsr__ref_dtype_valid(dtype) ? dtype_infos[dtype].size : 0;
}

tsr__ref_category tsr__ref_dtype_category(int32_t dtype)
{
    return dtype_infos[dtype].category;
}

int32_t tsr__ref_dtype_real_part(int32_t dtype)
{
    return dtype_infos[dtype].real_part;
}

tsr__ref_load_fn tsr__ref_loader(int32_t dtype)
{
    return dtype_infos[dtype].load;
}

tsr__ref_store_fn tsr__ref_storer(tsr__ref_category from, int32_t dtype)
{
    return dtype_infos[dtype].store_from[from];
}

static double round_identity(double value)
{
    return value;
}

static double round_to_float32(double value)
{
    return (float)value;
}

static double round_to_float16(double value)
{
    return tsr__ref_half_to_float(tsr__ref_half_from_float((float)value));
}

static double round_to_bfloat16(double value)
{
    return tsr__ref_bfloat16_to_float(tsr__ref_bfloat16_from_float((float)value));
}

tsr__ref_round_fn tsr__ref_real_rounder(int32_t dtype)
{
    switch (dtype) {
    case TSR_FLOAT32:
        return round_to_float32;
    case TSR_FLOAT16:
        return round_to_float16;
    case TSR_BFLOAT16:
        return round_to_bfloat16;
    default:
        return round_identity;
    }
}

void tsr__ref_wide_real_part(tsr__ref_wide *value)
{
    value->f = creal(value->c);
}

/* ------------------------------------------------------------------------ */
/* Scalars                                                                   */
/* ------------------------------------------------------------------------ */

static tsr__ref_category scalar_widen(const tsr_scalar *scalar, tsr__ref_wide *out)
{
    switch (scalar->kind) {
    case TSR_SCALAR_FLOAT:
        out->f = scalar->v.f;
        return TSR__REF_REAL;
    case TSR_SCALAR_COMPLEX:
        out->c = tsr__ref_complex_make(scalar->v.c.re, scalar->v.c.im);
        return TSR__REF_COMPLEX;
    default: /* bool (0 or 1) and int */
        out->i = scalar->v.i;
        return TSR__REF_INTEGER;
    }
}

void tsr__ref_scalar_store(const tsr_scalar *scalar, int32_t dtype, void *dst)
{
    tsr__ref_wide value;
    tsr__ref_category category = scalar_widen(scalar, &value);
    tsr__ref_store_fn store = tsr__ref_storer(category, dtype);
    if (store == NULL) {
        tsr__ref_wide_real_part(&value);
        store = tsr__ref_storer(TSR__REF_REAL, dtype);
    }
    store(dst, &value);
}

void tsr__ref_scalar_as_dtype(const tsr_scalar *scalar, int32_t dtype, tsr__ref_wide *out)
{
    unsigned char element[16];
    tsr__ref_scalar_store(scalar, dtype, element);
    tsr__ref_loader(dtype)(element, out);
}
