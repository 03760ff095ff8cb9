/* fmod, atan2, hypot, copysign, fmax, fmin: binary functions of real
 * numbers (fmod, fmax and fmin also of integers).
 *
 * Reals call the C library in double; each result is exact or correctly
 * rounded there, so rounding once to the computation dtype matches the
 * float function PyTorch calls within an ulp. fmod takes the dividend's
 * sign (unlike remainder); integer fmod by zero fails before anything is
 * written, as PyTorch raises ZeroDivisionError. fmax and fmin return the
 * other operand when one is NaN (C's fmax and fmin, which PyTorch calls). */
#include <math.h>

#include "elementwise.h"

/* ------------------------------------------------------------------------ */
/* fmod                                                                      */
/* ------------------------------------------------------------------------ */

/* C's %: truncated, sign of the dividend. INT64_MIN % -1 is undefined in C
 * (and traps on x86); every x % -1 is 0. */
static void fmod_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[1].i == -1 ? 0 : in[0].i % in[1].i;
}

static void fmod_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = fmod(in[0].f, in[1].f);
}

static int bind_fmod(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    call->check_zero_divisor = args->category == TSR__REF_INTEGER;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* atan2, hypot, copysign                                                    */
/* ------------------------------------------------------------------------ */

static void atan2_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = atan2(in[0].f, in[1].f);
}

/* hypot(inf, NaN) is inf, as in C and PyTorch. */
static void hypot_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = hypot(in[0].f, in[1].f);
}

/* The sign bit of b, NaN's and -0.0's included. */
static void copysign_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = copysign(in[0].f, in[1].f);
}

/* ------------------------------------------------------------------------ */
/* fmax, fmin                                                                */
/* ------------------------------------------------------------------------ */

/* Integers and bool have no NaN: plain max and min (PyTorch runs maximum). */
static void fmax_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[0].i < in[1].i ? in[1].i : in[0].i;
}

static void fmin_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[1].i < in[0].i ? in[1].i : in[0].i;
}

/* A NaN operand gives the other one. Between equal values (+0 and -0)
 * PyTorch 1.13 returns the first operand in float32 and float64 (glibc's
 * fmax) but the second in float16 and bfloat16 (its reduced-precision
 * path), so the tie goes to ctx->mode: 0 picks a, 1 picks b. */
static void fmax_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double a = in[0].f, b = in[1].f;
    if (isnan(a) || isnan(b)) {
        out->f = isnan(a) ? b : a;
    } else {
        out->f = a > b ? a : b > a ? b : ctx->mode ? b : a;
    }
}

static void fmin_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double a = in[0].f, b = in[1].f;
    if (isnan(a) || isnan(b)) {
        out->f = isnan(a) ? b : a;
    } else {
        out->f = a < b ? a : b < a ? b : ctx->mode ? b : a;
    }
}

static int bind_fmax_fmin(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    call->ctx.mode = args->dtype == TSR_FLOAT16 || args->dtype == TSR_BFLOAT16;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 on CPU: fmod takes integers and every real type but not
 * bool; atan2 and hypot have no float16 kernel (the core turns integer
 * atan2 operands into float32; hypot refuses them); copysign takes every
 * real type; fmax and fmin take everything but complex. */
#define REAL_NO_HALF (TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264)

static const tsr__ref_elementwise_op binary_math_ops[] = {
    {.op = TSR_OP_FMOD,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | TSR__REF_SET_REAL,
     .fn = {fmod_integer, fmod_real, NULL},
     .bind = bind_fmod},
    {.op = TSR_OP_ATAN2,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = REAL_NO_HALF,
     .fn = {NULL, atan2_real, NULL}},
    {.op = TSR_OP_HYPOT,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = REAL_NO_HALF,
     .fn = {NULL, hypot_real, NULL}},
    {.op = TSR_OP_COPYSIGN,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_REAL,
     .fn = {NULL, copysign_real, NULL}},
    {.op = TSR_OP_FMAX,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX,
     .fn = {fmax_integer, fmax_real, NULL},
     .bind = bind_fmax_fmin},
    {.op = TSR_OP_FMIN,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX,
     .fn = {fmin_integer, fmin_real, NULL},
     .bind = bind_fmax_fmin},
};

const tsr__ref_op_family tsr__ref_binary_math_family = {
    binary_math_ops, sizeof binary_math_ops / sizeof binary_math_ops[0]};
