/* The per-element functions of the elementwise kernels, written once for
 * the device and the host (TSR_CU_HD), with the reference backend's exact
 * semantics per category (plugins/reference/elementwise*.c):
 * tests/test_cuda_elementwise.c runs tsr__cu_elem_apply on the host against
 * the reference's element functions on many values, bit for bit.
 *
 * One function switches on the op: the op is uniform across a launch, so
 * every thread of a warp takes the same branch, and one kernel body serves
 * every op instead of one instantiation per op (nvcc time and code size). */
#ifndef TSR_CUDA_ELEM_OPS_H
#define TSR_CUDA_ELEM_OPS_H

#include "value.h"

/* Per-launch constants, filled on the host by tsr__cu_elem_bind. */
typedef struct tsr__cu_elem_ctx {
    int32_t op;       /* tsr_op */
    int32_t dtype;    /* the computation dtype (inputs' dtype) */
    int32_t category; /* tsr__cu_category of dtype */
    int32_t mode;     /* op-specific: see tsr__cu_elem_bind */
    tsr__cu_value alpha;
    tsr__cu_value params[4];
} tsr__cu_elem_ctx;

/* Comparison outcomes (ctx->mode of eq ... ge holds the accepted ones). */
enum { TSR__CU_LESS = 1, TSR__CU_EQUAL = 2, TSR__CU_GREATER = 4, TSR__CU_UNORDERED = 8 };

TSR_CU_HD static inline int64_t tsr__cu_wrap_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}

TSR_CU_HD static inline int64_t tsr__cu_wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

TSR_CU_HD static inline int64_t tsr__cu_wrap_neg(int64_t a)
{
    return (int64_t)(UINT64_C(0) - (uint64_t)a);
}

/* maximum/minimum: NaN wins; otherwise std::max/min (first on ties). */
TSR_CU_HD static inline double tsr__cu_maximum(double a, double b)
{
    return isnan(a) || isnan(b) ? (double)NAN : a < b ? b : a;
}

TSR_CU_HD static inline double tsr__cu_minimum(double a, double b)
{
    return isnan(a) || isnan(b) ? (double)NAN : b < a ? b : a;
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_complex(double re, double im)
{
    tsr__cu_value v;
    v.c.re = re;
    v.c.im = im;
    return v;
}

/* c10::complex's textbook formulas (not C's Annex G recovery). */
TSR_CU_HD static inline tsr__cu_value tsr__cu_cmul(tsr__cu_value x, tsr__cu_value y)
{
    return tsr__cu_complex(x.c.re * y.c.re - x.c.im * y.c.im, x.c.re * y.c.im + x.c.im * y.c.re);
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_cdiv(tsr__cu_value x, tsr__cu_value y)
{
    double d = y.c.re * y.c.re + y.c.im * y.c.im;
    return tsr__cu_complex((x.c.re * y.c.re + x.c.im * y.c.im) / d,
                           (x.c.im * y.c.re - x.c.re * y.c.im) / d);
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_cexp(tsr__cu_value z)
{
    double m = exp(z.c.re);
    return tsr__cu_complex(m * cos(z.c.im), m * sin(z.c.im));
}

/* Integer quotients; the divisor is known nonzero (checked first). */
TSR_CU_HD static inline int64_t tsr__cu_floor_quotient(int64_t a, int64_t b)
{
    if (b == -1)
        return tsr__cu_wrap_neg(a);
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

TSR_CU_HD static inline int64_t tsr__cu_int_remainder(int64_t a, int64_t b)
{
    int64_t r = b == -1 ? 0 : a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/* PyTorch's div_floor_floating: the exact multiple a - fmod(a, b), then
 * corrected toward -inf and rounded to remove the division's error. */
TSR_CU_HD static inline double tsr__cu_floor_divide(double a, double b)
{
    if (b == 0.0)
        return a / b;
    double rest = fmod(a, b);
    double q = (a - rest) / b;
    if (rest != 0.0 && ((b < 0.0) != (rest < 0.0)))
        q -= 1.0;
    if (q == 0.0)
        return copysign(0.0, a / b);
    double f = floor(q);
    return q - f > 0.5 ? f + 1.0 : f;
}

TSR_CU_HD static inline int64_t tsr__cu_int_pow(int64_t base, int64_t e)
{
    if (e < 0)
        return base == 1 ? 1 : base == -1 ? (((uint64_t)e & 1) ? -1 : 1) : 0;
    int64_t result = 1;
    for (uint64_t k = (uint64_t)e; k != 0; k >>= 1) {
        if (k & 1)
            result = tsr__cu_wrap_mul(result, base);
        base = tsr__cu_wrap_mul(base, base);
    }
    return result;
}

TSR_CU_HD static inline int tsr__cu_truth(int32_t category, tsr__cu_value v)
{
    return category == TSR__CU_INTEGER ? v.i != 0
           : category == TSR__CU_REAL  ? v.f != 0.0
                                       : (v.c.re != 0.0 || v.c.im != 0.0);
}

TSR_CU_HD static inline int tsr__cu_outcome(int32_t category, tsr__cu_value a, tsr__cu_value b)
{
    if (category == TSR__CU_INTEGER)
        return a.i < b.i ? TSR__CU_LESS : a.i == b.i ? TSR__CU_EQUAL : TSR__CU_GREATER;
    if (category == TSR__CU_REAL)
        return a.f < b.f    ? TSR__CU_LESS
               : a.f == b.f ? TSR__CU_EQUAL
               : a.f > b.f  ? TSR__CU_GREATER
                            : TSR__CU_UNORDERED;
    return a.c.re == b.c.re && a.c.im == b.c.im ? TSR__CU_EQUAL : TSR__CU_UNORDERED;
}

#include "elem_ops_math.h"

/* One element of ctx->op from its inputs (all in ctx->category). */
TSR_CU_HD static inline tsr__cu_value tsr__cu_elem_apply(const tsr__cu_elem_ctx *ctx,
                                                         const tsr__cu_value *in)
{
    const int32_t cat = ctx->category;
    tsr__cu_value out;
    out.c.re = out.c.im = 0.0;
    switch (ctx->op) {
    case TSR_OP_FILL:
        return ctx->params[0];
    case TSR_OP_COPY:
        return in[0];
    case TSR_OP_ADD:
    case TSR_OP_SUB: /* sub is bound as add with -alpha, as PyTorch does */
        if (cat == TSR__CU_INTEGER)
            out.i = tsr__cu_wrap_add(in[0].i, tsr__cu_wrap_mul(ctx->alpha.i, in[1].i));
        else if (cat == TSR__CU_REAL)
            out.f = fma(ctx->alpha.f, in[1].f, in[0].f);
        else {
            tsr__cu_value p = tsr__cu_cmul(ctx->alpha, in[1]);
            out = tsr__cu_complex(in[0].c.re + p.c.re, in[0].c.im + p.c.im);
        }
        return out;
    case TSR_OP_MUL:
        if (cat == TSR__CU_INTEGER)
            out.i = tsr__cu_wrap_mul(in[0].i, in[1].i);
        else if (cat == TSR__CU_REAL)
            out.f = in[0].f * in[1].f;
        else
            out = tsr__cu_cmul(in[0], in[1]);
        return out;
    case TSR_OP_DIV: /* mode: TSR_ROUND_* */
        if (cat == TSR__CU_COMPLEX)
            return tsr__cu_cdiv(in[0], in[1]);
        if (ctx->mode == TSR_ROUND_FLOOR && cat == TSR__CU_INTEGER)
            out.i = tsr__cu_floor_quotient(in[0].i, in[1].i);
        else if (ctx->mode == TSR_ROUND_FLOOR)
            out.f = tsr__cu_floor_divide(in[0].f, in[1].f);
        else if (cat == TSR__CU_INTEGER) /* trunc: true division of integers never comes */
            out.i = in[1].i == -1 ? tsr__cu_wrap_neg(in[0].i) : in[0].i / in[1].i;
        else if (ctx->mode == TSR_ROUND_TRUNC)
            out.f = trunc(tsr__cu_round_to(ctx->dtype, in[0].f / in[1].f));
        else
            out.f = in[0].f / in[1].f;
        return out;
    case TSR_OP_FLOOR_DIVIDE:
        if (cat == TSR__CU_INTEGER)
            out.i = tsr__cu_floor_quotient(in[0].i, in[1].i);
        else
            out.f = tsr__cu_floor_divide(in[0].f, in[1].f);
        return out;
    case TSR_OP_REMAINDER:
        if (cat == TSR__CU_INTEGER)
            out.i = tsr__cu_int_remainder(in[0].i, in[1].i);
        else {
            double r = fmod(in[0].f, in[1].f);
            out.f = (r != 0.0 && ((in[1].f < 0.0) != (r < 0.0))) ? r + in[1].f : r;
        }
        return out;
    case TSR_OP_POW:
        if (cat == TSR__CU_INTEGER)
            out.i = tsr__cu_int_pow(in[0].i, in[1].i);
        else
            out.f = pow(in[0].f, in[1].f);
        return out;
    case TSR_OP_MAXIMUM:
    case TSR_OP_FMAX:
    case TSR_OP_MINIMUM:
    case TSR_OP_FMIN:
        return tsr__cu_elem_minmax(ctx, in);
    case TSR_OP_EQ:
    case TSR_OP_NE:
    case TSR_OP_LT:
    case TSR_OP_LE:
    case TSR_OP_GT:
    case TSR_OP_GE:
        out.i = (ctx->mode & tsr__cu_outcome(cat, in[0], in[1])) != 0;
        return out;
    case TSR_OP_LOGICAL_AND:
    case TSR_OP_LOGICAL_OR:
    case TSR_OP_LOGICAL_XOR:
        /* mode is a truth table: bit (2a + b) */
        out.i = (ctx->mode >> (2 * tsr__cu_truth(cat, in[0]) + tsr__cu_truth(cat, in[1]))) & 1;
        return out;
    case TSR_OP_LOGICAL_NOT:
        out.i = !tsr__cu_truth(cat, in[0]);
        return out;
    case TSR_OP_WHERE: /* raw elements: in[0] is the bool condition */
        return in[0].i ? in[1] : in[2];
    case TSR_OP_CLAMP:
        return tsr__cu_elem_clamp(ctx, in);
    default:
        return tsr__cu_elem_math(ctx, in);
    }
}

#endif
