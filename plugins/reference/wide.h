/* How kernels hold one element while computing on it.
 *
 * Every dtype widens to one of three categories: bool and integers to
 * int64_t, real floating types to double, complex types to double complex.
 * A kernel picks, once per call, a loader for each input dtype, an element
 * function for the category and a storer for the output dtype; the element
 * loop then runs without switching on dtypes.
 *
 * double is wide enough that float32 results of + - * / and sqrt, computed in
 * double and rounded once to float, equal the float32 operation (double has
 * more than 2*24+2 bits). float16 and bfloat16 go through float on the way
 * out, as PyTorch computes them in float and rounds once. */
#ifndef TSR_REFERENCE_WIDE_H
#define TSR_REFERENCE_WIDE_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tessera/plugin.h>

typedef enum tsr__ref_category {
    TSR__REF_INTEGER, /* bool, uint8 ... int64 as int64_t */
    TSR__REF_REAL,    /* float16 ... float64 as double */
    TSR__REF_COMPLEX, /* complex64, complex128 as double complex */
    TSR__REF_CATEGORY_COUNT
} tsr__ref_category;

typedef union tsr__ref_wide {
    int64_t i;
    double f;
    double complex c;
} tsr__ref_wide;

/* re + im i without arithmetic (re + im * I turns an infinite part into NaN),
 * through the array layout C11 guarantees for complex types; C11's CMPLX is
 * missing from some compiler and libc pairs. */
static inline double complex tsr__ref_complex_make(double re, double im)
{
    double parts[2] = {re, im};
    double complex z;
    memcpy(&z, parts, sizeof z);
    return z;
}

typedef void (*tsr__ref_load_fn)(const void *src, tsr__ref_wide *out);
typedef void (*tsr__ref_store_fn)(void *dst, const tsr__ref_wide *value);

/* ------------------------------------------------------------------------ */
/* Dtype sets, as bit masks over tsr_dtype ids                               */
/* ------------------------------------------------------------------------ */

#define TSR__REF_DTYPE_BIT(dtype) (UINT32_C(1) << (dtype))
#define TSR__REF_SET_BOOL TSR__REF_DTYPE_BIT(TSR_BOOL)
#define TSR__REF_SET_INTEGER                                                                       \
    (TSR__REF_DTYPE_BIT(TSR_UINT8) | TSR__REF_DTYPE_BIT(TSR_INT8) |                                \
     TSR__REF_DTYPE_BIT(TSR_INT16) | TSR__REF_DTYPE_BIT(TSR_INT32) |                               \
     TSR__REF_DTYPE_BIT(TSR_INT64))
#define TSR__REF_SET_FLOAT16 TSR__REF_DTYPE_BIT(TSR_FLOAT16)
#define TSR__REF_SET_BFLOAT16 TSR__REF_DTYPE_BIT(TSR_BFLOAT16)
#define TSR__REF_SET_FLOAT3264 (TSR__REF_DTYPE_BIT(TSR_FLOAT32) | TSR__REF_DTYPE_BIT(TSR_FLOAT64))
#define TSR__REF_SET_REAL (TSR__REF_SET_FLOAT16 | TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264)
#define TSR__REF_SET_COMPLEX                                                                       \
    (TSR__REF_DTYPE_BIT(TSR_COMPLEX64) | TSR__REF_DTYPE_BIT(TSR_COMPLEX128))
#define TSR__REF_SET_ALL                                                                           \
    (TSR__REF_SET_BOOL | TSR__REF_SET_INTEGER | TSR__REF_SET_REAL | TSR__REF_SET_COMPLEX)

/* ------------------------------------------------------------------------ */
/* Dtypes and element conversion (copy_convert.c)                            */
/* ------------------------------------------------------------------------ */

/* Nonzero for ids inside TSR_DTYPE_LIST. */
int tsr__ref_dtype_valid(int32_t dtype);
/* "float32" etc.; "invalid" for an id outside the list. */
const char *tsr__ref_dtype_name(int32_t dtype);
/* Bytes per element; 0 for an invalid id. */
size_t tsr__ref_dtype_size(int32_t dtype);
tsr__ref_category tsr__ref_dtype_category(int32_t dtype);
/* float32 for complex64, float64 for complex128, the dtype itself otherwise. */
int32_t tsr__ref_dtype_real_part(int32_t dtype);

/* Reads one element of `dtype` into its category. */
tsr__ref_load_fn tsr__ref_loader(int32_t dtype);
/* Writes a value of category `from` as `dtype`, with the rules of copy.
 * NULL for complex values into non-complex dtypes: take the real part
 * first (tsr__ref_wide_real_part) and store it as TSR__REF_REAL. */
tsr__ref_store_fn tsr__ref_storer(tsr__ref_category from, int32_t dtype);

/* Rounds a double to the precision of a real dtype (the identity for
 * float64 and non-real dtypes): for steps whose result PyTorch rounds to the
 * computation dtype before going on. */
typedef double (*tsr__ref_round_fn)(double value);
tsr__ref_round_fn tsr__ref_real_rounder(int32_t dtype);

/* Converts a value from a complex to the real category (PyTorch drops the
 * imaginary part, even when converting to bool). */
void tsr__ref_wide_real_part(tsr__ref_wide *value);

/* Writes `scalar` into one element of `dtype`, converted as copy converts. */
void tsr__ref_scalar_store(const tsr_scalar *scalar, int32_t dtype, void *dst);
/* The scalar rounded to `dtype` and widened again: the value PyTorch's
 * Scalar::to<T>() gives a kernel (used for alpha). */
void tsr__ref_scalar_as_dtype(const tsr_scalar *scalar, int32_t dtype, tsr__ref_wide *out);

#endif /* TSR_REFERENCE_WIDE_H */
