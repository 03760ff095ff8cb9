/* The element functions behind tsr__cu_elem_apply's default branch: the
 * unary functions, the elementwise2 binaries, bitwise ops, rounding and
 * predicates, activations and the ternaries, with the reference backend's
 * semantics (each comment names the rule it keeps). Included by
 * elem_ops.h only. */
#ifndef TSR_CUDA_ELEM_OPS_MATH_H
#define TSR_CUDA_ELEM_OPS_MATH_H

/* A step PyTorch computes in its opmath type: float, or double for float64. */
TSR_CU_HD static inline double tsr__cu_opmath(const tsr__cu_elem_ctx *ctx, double x)
{
    return ctx->dtype == TSR_FLOAT64 ? x : (double)(float)x;
}

/* maximum/minimum propagate NaN; fmax/fmin return the other operand, and
 * break +0/-0 ties toward b when ctx->mode is 1 (PyTorch's half paths). */
TSR_CU_HD static inline tsr__cu_value tsr__cu_elem_minmax(const tsr__cu_elem_ctx *ctx,
                                                          const tsr__cu_value *in)
{
    tsr__cu_value out = in[0];
    const int is_max = ctx->op == TSR_OP_MAXIMUM || ctx->op == TSR_OP_FMAX;
    if (ctx->category == TSR__CU_INTEGER) {
        int take_b = is_max ? in[0].i < in[1].i : in[1].i < in[0].i;
        out.i = take_b ? in[1].i : in[0].i;
        return out;
    }
    double a = in[0].f, b = in[1].f;
    if (ctx->op == TSR_OP_MAXIMUM)
        out.f = tsr__cu_maximum(a, b);
    else if (ctx->op == TSR_OP_MINIMUM)
        out.f = tsr__cu_minimum(a, b);
    else if (isnan(a) || isnan(b))
        out.f = isnan(a) ? b : a;
    else if (is_max)
        out.f = a > b ? a : b > a ? b : ctx->mode ? b : a;
    else
        out.f = a < b ? a : b < a ? b : ctx->mode ? b : a;
    return out;
}

/* Inputs (x, min, max), mode TSR_CLAMP_* bits. Tensor bounds go through
 * maximum/minimum (NaN gives NaN); one Python-scalar bound is std::max/min,
 * which ignores a NaN bound. */
TSR_CU_HD static inline tsr__cu_value tsr__cu_elem_clamp(const tsr__cu_elem_ctx *ctx,
                                                         const tsr__cu_value *in)
{
    tsr__cu_value out = in[0];
    const int has_min = ctx->mode & TSR_CLAMP_HAS_MIN, has_max = ctx->mode & TSR_CLAMP_HAS_MAX;
    if (ctx->category == TSR__CU_INTEGER) {
        if (has_min && out.i < in[1].i)
            out.i = in[1].i;
        if (has_max && in[2].i < out.i)
            out.i = in[2].i;
        return out;
    }
    int one_scalar = (ctx->mode & TSR_CLAMP_SCALAR_BOUNDS) && (!has_min != !has_max);
    if (one_scalar) {
        if (has_min && out.f < in[1].f)
            out.f = in[1].f;
        if (has_max && in[2].f < out.f)
            out.f = in[2].f;
        return out;
    }
    if (has_min)
        out.f = tsr__cu_maximum(out.f, in[1].f);
    if (has_max)
        out.f = tsr__cu_minimum(out.f, in[2].f);
    return out;
}

/* Integer ops of the bitwise family (mode: the shift count mask). */
TSR_CU_HD static inline int64_t tsr__cu_bitwise(const tsr__cu_elem_ctx *ctx,
                                                const tsr__cu_value *in)
{
    int64_t a = in[0].i, b = in[1].i;
    switch (ctx->op) {
    case TSR_OP_BITWISE_AND:
        return a & b;
    case TSR_OP_BITWISE_OR:
        return a | b;
    case TSR_OP_BITWISE_XOR:
        return a ^ b;
    case TSR_OP_BITWISE_NOT:
        return ctx->dtype == TSR_BOOL ? a == 0 : ~a;
    case TSR_OP_BITWISE_LEFT_SHIFT:
        return (int64_t)((uint64_t)a << ((uint64_t)b & (uint64_t)ctx->mode));
    default: /* right shift: arithmetic on the widened value */
        return a >> ((uint64_t)b & (uint64_t)ctx->mode);
    }
}

/* Integer-category ops outside elem_ops.h's switch. */
TSR_CU_HD static inline int64_t tsr__cu_integer_math(const tsr__cu_elem_ctx *ctx,
                                                     const tsr__cu_value *in)
{
    int64_t x = in[0].i;
    switch (ctx->op) {
    case TSR_OP_NEG:
        return tsr__cu_wrap_neg(x);
    case TSR_OP_ABS:
        return x < 0 ? tsr__cu_wrap_neg(x) : x;
    case TSR_OP_SIGN:
        return (x > 0) - (x < 0);
    case TSR_OP_RELU:
        return x < 0 ? 0 : x;
    case TSR_OP_SQUARE:
        return tsr__cu_wrap_mul(x, x);
    case TSR_OP_FMOD:
        return in[1].i == -1 ? 0 : x % in[1].i;
    case TSR_OP_ISNAN:
    case TSR_OP_ISINF:
        return 0;
    case TSR_OP_ISFINITE:
        return 1;
    case TSR_OP_HARDTANH: {
        int64_t v = x < ctx->params[0].i ? ctx->params[0].i : x;
        return ctx->params[1].i < v ? ctx->params[1].i : v;
    }
    case TSR_OP_ADDCMUL:
        return tsr__cu_wrap_add(
            x, tsr__cu_wrap_mul(tsr__cu_wrap_mul(ctx->params[0].i, in[1].i), in[2].i));
    default:
        return tsr__cu_bitwise(ctx, in);
    }
}

/* lerp's two forms, each with its fused multiply-add. */
TSR_CU_HD static inline double tsr__cu_lerp(const tsr__cu_elem_ctx *ctx, double s, double e,
                                            double w)
{
    double d = tsr__cu_opmath(ctx, e - s);
    return w < 0.5 ? fma(w, d, s) : fma(-d, tsr__cu_opmath(ctx, 1.0 - w), e);
}

/* Real ops, in double, rounded once by the store unless a comment says
 * PyTorch rounds a step (tsr__cu_opmath). */
TSR_CU_HD static inline double tsr__cu_real_math(const tsr__cu_elem_ctx *ctx,
                                                 const tsr__cu_value *in)
{
    const double x = in[0].f, y = in[1].f;
    const tsr__cu_value *p = ctx->params;
    switch (ctx->op) {
    case TSR_OP_NEG:
        return -x;
    case TSR_OP_ABS:
        return fabs(x);
    case TSR_OP_SIGN:
        return (double)((0.0 < x) - (x < 0.0)); /* sign(NaN) = 0, sign(-0) = +0 */
    case TSR_OP_RELU:
        return x < 0.0 ? 0.0 : x; /* NaN and -0 pass */
    case TSR_OP_EXP:
        return exp(x);
    case TSR_OP_LOG:
        return log(x);
    /* SLEEF's log1p, which PyTorch uses, answers inf past 1e38 (float) or
     * 1e307 (double). */
    case TSR_OP_LOG1P:
        return x > (ctx->dtype == TSR_FLOAT64 ? 1e307 : 1e38) ? (double)INFINITY : log1p(x);
    case TSR_OP_EXPM1:
        return expm1(x);
    case TSR_OP_SQRT:
        return sqrt(x);
    case TSR_OP_RSQRT:
        return 1.0 / sqrt(x);
    case TSR_OP_SIN:
        return sin(x);
    case TSR_OP_COS:
        return cos(x);
    case TSR_OP_TANH:
        return tanh(x);
    case TSR_OP_SIGMOID:
        return 1.0 / (1.0 + exp(-x));
    case TSR_OP_GELU:
        if (ctx->mode == TSR_GELU_TANH)
            return 0.5 * x * (1.0 + tanh(0.79788456080286535588 * (x + 0.044715 * (x * x * x))));
        return x * 0.5 * (1.0 + erf(x * 0.70710678118654752440));
    case TSR_OP_ERF:
        return erf(x);
    case TSR_OP_FMOD:
        return fmod(x, y);
    case TSR_OP_ATAN2:
        return atan2(x, y);
    case TSR_OP_HYPOT:
        return hypot(x, y);
    case TSR_OP_COPYSIGN:
        return copysign(x, y);
    case TSR_OP_EXP2:
        return exp2(x);
    case TSR_OP_LOG2:
        return log2(x);
    case TSR_OP_LOG10:
        return log10(x);
    case TSR_OP_TAN:
        return tan(x);
    case TSR_OP_ASIN:
        return asin(x);
    case TSR_OP_ACOS:
        return acos(x);
    case TSR_OP_ATAN:
        return atan(x);
    case TSR_OP_SINH:
        return sinh(x);
    case TSR_OP_COSH:
        return cosh(x);
    case TSR_OP_ASINH:
        return asinh(x);
    case TSR_OP_ACOSH:
        return acosh(x);
    case TSR_OP_ATANH:
        return atanh(x);
    /* float dtypes call erfcf, as PyTorch does (it differs near x = 10). */
    case TSR_OP_ERFC:
        return ctx->dtype == TSR_FLOAT64 ? erfc(x) : (double)erfcf((float)x);
    case TSR_OP_RECIPROCAL:
        return 1.0 / x;
    case TSR_OP_SQUARE:
        return x * x;
    case TSR_OP_FLOOR:
        return floor(x);
    case TSR_OP_CEIL:
        return ceil(x);
    case TSR_OP_TRUNC:
        return trunc(x);
    case TSR_OP_FRAC:
        return x - trunc(x);
    /* decimals in mode, 10^|decimals| rounded to the dtype in params[0];
     * rint is nearbyint in the default rounding mode (ties to even). */
    case TSR_OP_ROUND:
        if (ctx->mode > 0)
            return rint(tsr__cu_round_to(ctx->dtype, x * p[0].f)) / p[0].f;
        if (ctx->mode < 0)
            return rint(tsr__cu_round_to(ctx->dtype, x / p[0].f)) * p[0].f;
        return rint(x);
    case TSR_OP_NAN_TO_NUM:
        return isnan(x) ? p[0].f : isinf(x) ? (x > 0.0 ? p[1].f : p[2].f) : x;
    case TSR_OP_SILU:
        return x / tsr__cu_opmath(ctx, 1.0 + tsr__cu_opmath(ctx, exp(-x)));
    case TSR_OP_SOFTPLUS: {
        double scaled = tsr__cu_opmath(ctx, x * p[0].f);
        if (scaled > p[1].f)
            return x;
        return tsr__cu_opmath(ctx, log1p(tsr__cu_opmath(ctx, exp(scaled)))) / p[0].f;
    }
    case TSR_OP_LEAKY_RELU:
        return x > 0.0 ? x : x * p[0].f;
    case TSR_OP_ELU: /* params {alpha * scale, scale, input_scale}; exp - 1, not expm1 */
        if (x <= 0.0) {
            double e = tsr__cu_opmath(ctx, exp(tsr__cu_opmath(ctx, x * p[2].f)));
            return tsr__cu_opmath(ctx, e - 1.0) * p[0].f;
        }
        return x * p[1].f;
    case TSR_OP_HARDTANH:
        return tsr__cu_minimum(tsr__cu_maximum(x, p[0].f), p[1].f);
    case TSR_OP_LERP: /* mode 1: the weight is the scalar params[0] */
        return tsr__cu_lerp(ctx, x, y, ctx->mode & TSR_LERP_SCALAR_WEIGHT ? p[0].f : in[2].f);
    case TSR_OP_ADDCMUL:
        return fma(tsr__cu_opmath(ctx, p[0].f * y), in[2].f, x);
    case TSR_OP_ADDCDIV:
        return x + tsr__cu_opmath(ctx, tsr__cu_opmath(ctx, p[0].f * y) / in[2].f);
    default:
        return (double)NAN;
    }
}

/* Complex ops the CUDA backend claims: only those whose reference formula
 * is arithmetic plus exp/sin/cos (C's clog, csqrt, csin ... are not
 * reproduced on the device). */
TSR_CU_HD static inline tsr__cu_value tsr__cu_complex_math(const tsr__cu_elem_ctx *ctx,
                                                           const tsr__cu_value *in)
{
    tsr__cu_value z = in[0], out;
    switch (ctx->op) {
    case TSR_OP_NEG:
        return tsr__cu_complex(-z.c.re, -z.c.im);
    case TSR_OP_ABS:
        out.f = hypot(z.c.re, z.c.im);
        return out; /* real result */
    case TSR_OP_EXP:
        return tsr__cu_cexp(z);
    case TSR_OP_SIGMOID:
    case TSR_OP_SILU: {
        /* PyTorch answers 1 for sigmoid at re = +inf whatever im is. */
        if (ctx->op == TSR_OP_SIGMOID && z.c.re == (double)INFINITY)
            return tsr__cu_complex(1.0, 0.0);
        tsr__cu_value e = tsr__cu_cexp(tsr__cu_complex(-z.c.re, -z.c.im));
        tsr__cu_value den = tsr__cu_complex(1.0 + e.c.re, 0.0 + e.c.im);
        return tsr__cu_cdiv(ctx->op == TSR_OP_SIGMOID ? tsr__cu_complex(1.0, 0.0) : z, den);
    }
    case TSR_OP_RECIPROCAL:
        return tsr__cu_cdiv(tsr__cu_complex(1.0, 0.0), z);
    case TSR_OP_SQUARE:
        return tsr__cu_cmul(z, z);
    case TSR_OP_ISNAN:
        out.i = isnan(z.c.re) || isnan(z.c.im);
        return out;
    case TSR_OP_ISINF:
        out.i = isinf(z.c.re) || isinf(z.c.im);
        return out;
    case TSR_OP_ISFINITE:
        out.i = isfinite(z.c.re) && isfinite(z.c.im);
        return out;
    default:
        return tsr__cu_complex((double)NAN, (double)NAN);
    }
}

/* Predicates on reals write bool (the integer category). */
TSR_CU_HD static inline tsr__cu_value tsr__cu_elem_math(const tsr__cu_elem_ctx *ctx,
                                                        const tsr__cu_value *in)
{
    tsr__cu_value out;
    if (ctx->category == TSR__CU_INTEGER) {
        out.i = tsr__cu_integer_math(ctx, in);
    } else if (ctx->category == TSR__CU_COMPLEX) {
        out = tsr__cu_complex_math(ctx, in);
    } else if (ctx->op == TSR_OP_ISNAN) {
        out.i = isnan(in[0].f) != 0;
    } else if (ctx->op == TSR_OP_ISINF) {
        out.i = isinf(in[0].f) != 0;
    } else if (ctx->op == TSR_OP_ISFINITE) {
        out.i = isfinite(in[0].f) != 0;
    } else {
        out.f = tsr__cu_real_math(ctx, in);
    }
    return out;
}

#endif
