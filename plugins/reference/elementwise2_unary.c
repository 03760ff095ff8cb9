/* exp2, log2, log10, the trigonometric and hyperbolic functions beyond
 * sin/cos/tanh (tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh),
 * erfc, reciprocal and square.
 *
 * Reals call the C library in double and round once. Complex numbers use
 * the C functions PyTorch's scalar code reaches through std:: (ctan, csinh,
 * ...), except asin, acos and atan (see below); log2 and log10 are the
 * complex log divided by ln 2 and ln 10;
 * reciprocal divides with the textbook formula, so 1 / 0 is NaN + NaN i. */
#include <math.h>

#include "complex_ops.h"
#include "elementwise.h"
#include "scalar_ops.h"

static const double LN2 = 0.69314718055994530942;
static const double LN10 = 2.30258509299404568402;

/* ------------------------------------------------------------------------ */
/* Exponentials and logarithms                                               */
/* ------------------------------------------------------------------------ */

static void exp2_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = exp2(in[0].f);
}

static void log2_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = log2(in[0].f);
}

static void log2_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    double complex z = clog(in[0].c);
    out->c = tsr__ref_complex_make(creal(z) / LN2, cimag(z) / LN2);
}

static void log10_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = log10(in[0].f);
}

static void log10_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    double complex z = clog(in[0].c);
    out->c = tsr__ref_complex_make(creal(z) / LN10, cimag(z) / LN10);
}

/* ------------------------------------------------------------------------ */
/* Trigonometric and hyperbolic                                              */
/* ------------------------------------------------------------------------ */

static void tan_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = tan(in[0].f);
}

static void tan_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = ctan(in[0].c);
}

static void asin_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = asin(in[0].f);
}

/* PyTorch 1.13's complex asin and atan (and acos for complex128) are its
 * AVX2 formulas (its vml functions run them even for a single element),
 * which differ from C's casin, cacos and catan at infinities:
 * asin(z) = -i log(iz + sqrt(1 - z^2)) with 1 - z^2 formed from its parts,
 * acos(z) = pi/2 - asin(z), atan(z) = i/2 log((i + z) / (i - z)). The
 * imaginary part of 1 - z^2 is (a * -b) doubled, as there: on x86 inf * -0
 * is the default NaN, whose sign bit is set and steers csqrt's result.
 * complex64 acos is C's cacos, as PyTorch's float vector code calls it. */
static double complex asin_formula(double complex z)
{
    double a = creal(z), b = cimag(z);
    double product = a * -b;
    double complex root = csqrt(tsr__ref_complex_make(1.0 - (a * a - b * b), product + product));
    double complex ln = clog(tsr__ref_complex_make(-b + creal(root), a + cimag(root)));
    return tsr__ref_complex_make(cimag(ln), -creal(ln));
}

static void asin_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = asin_formula(in[0].c);
}

static void acos_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = acos(in[0].f);
}

static void acos_complex64(tsr__ref_wide *out, const tsr__ref_wide *in,
                           const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = cacos(in[0].c);
}

static int bind_acos(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    if (args->dtype == TSR_COMPLEX64) {
        call->fn = acos_complex64;
    }
    return TSR_OK;
}

static void acos_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    const double pi_2 = 1.57079632679489661923;
    double complex t = asin_formula(in[0].c);
    out->c = tsr__ref_complex_make(pi_2 - creal(t), 0.0 - cimag(t));
}

static void atan_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = atan(in[0].f);
}

static void atan_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    double a = creal(in[0].c), b = cimag(in[0].c);
    double complex sum = tsr__ref_complex_make(0.0 + a, 1.0 + b);
    double complex difference = tsr__ref_complex_make(0.0 - a, 1.0 - b);
    double complex ln = clog(tsr__ref_complex_div(sum, difference));
    out->c = tsr__ref_complex_mul(tsr__ref_complex_make(0.0, 0.5), ln);
}

static void sinh_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = sinh(in[0].f);
}

static void sinh_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = csinh(in[0].c);
}

static void cosh_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = cosh(in[0].f);
}

static void cosh_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = ccosh(in[0].c);
}

static void asinh_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = asinh(in[0].f);
}

static void asinh_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = casinh(in[0].c);
}

static void acosh_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = acosh(in[0].f);
}

static void acosh_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = cacosh(in[0].c);
}

static void atanh_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = atanh(in[0].f);
}

static void atanh_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = catanh(in[0].c);
}

static void erfc_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = erfc(in[0].f);
}

/* erfc of float types is C's erfcf, as PyTorch computes it: in the
 * subnormal range (x near 10) it differs from erfc rounded to float. */
static void erfc_float(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = erfcf((float)in[0].f);
}

static int bind_erfc(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    if (args->dtype != TSR_FLOAT64) {
        call->fn = erfc_float;
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* reciprocal, square                                                        */
/* ------------------------------------------------------------------------ */

/* 1 / x: 1 / -0.0 is -inf. */
static void reciprocal_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = 1.0 / in[0].f;
}

static void reciprocal_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                               const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = tsr__ref_complex_div(1.0, in[0].c);
}

/* x * x, wrapping for integers (PyTorch's pow(x, 2)). */
static void square_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                           const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = tsr__ref_wrap_mul(in[0].i, in[0].i);
}

/* Exact in double for every narrower type, so one rounding. */
static void square_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = in[0].f * in[0].f;
}

static void square_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                           const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = tsr__ref_complex_mul(in[0].c, in[0].c);
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 on CPU: exp2 and reciprocal have float16 kernels, the
 * others none; exp2 and erfc have no complex ones; square (pow) takes every
 * dtype but bool, which the core turns into int64 first. */
#define FLOATING (TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264)
#define FLOATING_COMPLEX (FLOATING | TSR__REF_SET_COMPLEX)

#define MATH_OP(id, dtype_set, real_fn, complex_fn)                                                \
    {                                                                                              \
        .op = (id), .arity = 1, .result = TSR__REF_RESULT_SAME, .dtypes = (dtype_set),             \
        .fn = {NULL, (real_fn), (complex_fn)},                                                     \
    }

static const tsr__ref_elementwise_op unary_math2_ops[] = {
    MATH_OP(TSR_OP_EXP2, TSR__REF_SET_REAL, exp2_real, NULL),
    MATH_OP(TSR_OP_LOG2, FLOATING_COMPLEX, log2_real, log2_complex),
    MATH_OP(TSR_OP_LOG10, FLOATING_COMPLEX, log10_real, log10_complex),
    MATH_OP(TSR_OP_TAN, FLOATING_COMPLEX, tan_real, tan_complex),
    MATH_OP(TSR_OP_ASIN, FLOATING_COMPLEX, asin_real, asin_complex),
    {.op = TSR_OP_ACOS,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING_COMPLEX,
     .fn = {NULL, acos_real, acos_complex},
     .bind = bind_acos},
    MATH_OP(TSR_OP_ATAN, FLOATING_COMPLEX, atan_real, atan_complex),
    MATH_OP(TSR_OP_SINH, FLOATING_COMPLEX, sinh_real, sinh_complex),
    MATH_OP(TSR_OP_COSH, FLOATING_COMPLEX, cosh_real, cosh_complex),
    MATH_OP(TSR_OP_ASINH, FLOATING_COMPLEX, asinh_real, asinh_complex),
    MATH_OP(TSR_OP_ACOSH, FLOATING_COMPLEX, acosh_real, acosh_complex),
    MATH_OP(TSR_OP_ATANH, FLOATING_COMPLEX, atanh_real, atanh_complex),
    {.op = TSR_OP_ERFC,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING,
     .fn = {NULL, erfc_real, NULL},
     .bind = bind_erfc},
    MATH_OP(TSR_OP_RECIPROCAL, TSR__REF_SET_REAL | TSR__REF_SET_COMPLEX, reciprocal_real,
            reciprocal_complex),
    {.op = TSR_OP_SQUARE,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_BOOL,
     .fn = {square_integer, square_real, square_complex}},
};

const tsr__ref_op_family tsr__ref_unary_math2_family = {
    unary_math2_ops, sizeof unary_math2_ops / sizeof unary_math2_ops[0]};
