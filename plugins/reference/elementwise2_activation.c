/* Activations with PyTorch's formulas: silu, softplus (beta, threshold),
 * leaky_relu (negative_slope), elu (alpha, scale, input_scale) and
 * hardtanh (min_val, max_val).
 *
 * PyTorch evaluates these step by step in the element type (float for
 * float32), and the steps' roundings show: silu(-90) is -0.0 because
 * exp(90) overflows float, elu(-1e-7) is -1.19e-7 because exp(-1e-7) - 1
 * cancels in float. Each step here is therefore rounded with
 * ctx->opmath_round (the identity for float64). The parameters are
 * converted to the computation dtype, as PyTorch's Scalar::to<scalar_t>(). */
#include <math.h>

#include "complex_ops.h"
#include "elementwise.h"
#include "scalar_ops.h"

/* ------------------------------------------------------------------------ */
/* silu                                                                      */
/* ------------------------------------------------------------------------ */

/* x / (1 + exp(-x)). */
static void silu_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double x = in[0].f;
    double denominator = ctx->opmath_round(1.0 + ctx->opmath_round(exp(-x)));
    out->f = x / denominator;
}

/* As sigmoid: PyTorch's exp formula, 1 + 0i added, textbook division. */
static void silu_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    double complex x = in[0].c;
    double complex e = tsr__ref_complex_exp(tsr__ref_complex_make(-creal(x), -cimag(x)));
    out->c = tsr__ref_complex_div(x, tsr__ref_complex_make(1.0 + creal(e), 0.0 + cimag(e)));
}

/* ------------------------------------------------------------------------ */
/* softplus: params {beta, threshold}                                        */
/* ------------------------------------------------------------------------ */

/* x when beta x > threshold (the linear regime), else log1p(exp(beta x)) / beta. */
static void softplus_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double x = in[0].f, beta = ctx->params[0].f;
    double scaled = ctx->opmath_round(x * beta);
    if (scaled > ctx->params[1].f) {
        out->f = x;
        return;
    }
    double soft = ctx->opmath_round(log1p(ctx->opmath_round(exp(scaled))));
    out->f = soft / beta;
}

static void bind_param(const tsr__ref_bind_args *args, tsr__ref_elem_call *call, int index,
                       double fallback)
{
    tsr_scalar scalar =
        tsr__ref_bind_scalar(args, index, (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = fallback});
    tsr__ref_scalar_as_dtype(&scalar, args->dtype, &call->ctx.params[index]);
}

static int bind_softplus(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    bind_param(args, call, 0, 1.0);
    bind_param(args, call, 1, 20.0);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* leaky_relu: params {negative_slope}                                       */
/* ------------------------------------------------------------------------ */

/* x > 0 ? x : x * slope: NaN and -0.0 take the second branch. */
static void leaky_relu_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    double x = in[0].f;
    out->f = x > 0.0 ? x : x * ctx->params[0].f;
}

static int bind_leaky_relu(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    bind_param(args, call, 0, 0.01);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* elu: params {alpha * scale, scale, input_scale}                           */
/* ------------------------------------------------------------------------ */

/* x <= 0 ? (exp(x * input_scale) - 1) * alpha * scale : x * scale, with
 * exp(..) - 1 rather than expm1, as PyTorch writes it. */
static void elu_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double x = in[0].f;
    if (x <= 0.0) {
        double e = ctx->opmath_round(exp(ctx->opmath_round(x * ctx->params[2].f)));
        out->f = ctx->opmath_round(e - 1.0) * ctx->params[0].f;
    } else {
        out->f = x * ctx->params[1].f;
    }
}

/* PyTorch multiplies alpha and scale once, in the element type. */
static int bind_elu(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    bind_param(args, call, 0, 1.0);
    bind_param(args, call, 1, 1.0);
    bind_param(args, call, 2, 1.0);
    call->ctx.params[0].f = call->ctx.round(call->ctx.params[0].f * call->ctx.params[1].f);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* hardtanh: params {min_val, max_val}; clamp with both bounds               */
/* ------------------------------------------------------------------------ */

static void hardtanh_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                             const tsr__ref_elem_ctx *ctx)
{
    int64_t v = in[0].i;
    if (v < ctx->params[0].i) {
        v = ctx->params[0].i;
    }
    if (ctx->params[1].i < v) {
        v = ctx->params[1].i;
    }
    out->i = v;
}

/* NaN in x or a bound gives NaN; min_val > max_val gives max_val. */
static void hardtanh_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double v = tsr__ref_real_maximum(in[0].f, ctx->params[0].f);
    out->f = tsr__ref_real_minimum(v, ctx->params[1].f);
}

static int bind_hardtanh(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    bind_param(args, call, 0, -1.0);
    bind_param(args, call, 1, 1.0);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 on CPU: no float16 kernels; silu also takes complex;
 * hardtanh (clamp) also takes integers (the core refuses negative bounds
 * for uint8, as PyTorch does). */
#define FLOATING (TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264)

static const tsr__ref_elementwise_op activation_ops[] = {
    {.op = TSR_OP_SILU,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING | TSR__REF_SET_COMPLEX,
     .fn = {NULL, silu_real, silu_complex}},
    {.op = TSR_OP_SOFTPLUS,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING,
     .fn = {NULL, softplus_real, NULL},
     .bind = bind_softplus},
    {.op = TSR_OP_LEAKY_RELU,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING,
     .fn = {NULL, leaky_relu_real, NULL},
     .bind = bind_leaky_relu},
    {.op = TSR_OP_ELU,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING,
     .fn = {NULL, elu_real, NULL},
     .bind = bind_elu},
    {.op = TSR_OP_HARDTANH,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | FLOATING,
     .fn = {hardtanh_integer, hardtanh_real, NULL},
     .bind = bind_hardtanh},
};

const tsr__ref_op_family tsr__ref_activation_family = {
    activation_ops, sizeof activation_ops / sizeof activation_ops[0]};
