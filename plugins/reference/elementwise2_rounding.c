/* Rounding (floor, ceil, round with decimals, trunc, frac), the float
 * classification predicates (isnan, isinf, isfinite, writing bool) and
 * nan_to_num.
 *
 * floor, ceil, round, trunc and nan_to_num register floating dtypes only:
 * on integers they are the identity, which the core answers with a copy as
 * PyTorch does. round breaks ties to even (nearbyint in the default
 * rounding mode). */
#include <float.h>
#include <math.h>

#include "elementwise.h"

/* ------------------------------------------------------------------------ */
/* floor, ceil, trunc, round, frac                                           */
/* ------------------------------------------------------------------------ */

static void floor_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = floor(in[0].f);
}

static void ceil_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = ceil(in[0].f);
}

static void trunc_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = trunc(in[0].f);
}

static void round_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = nearbyint(in[0].f);
}

/* PyTorch's round(decimals=d), each step in the element type: for d > 0
 * nearbyint(x * 10^d) / 10^d, for d < 0 nearbyint(x / 10^-d) * 10^-d, with
 * 10^|d| itself rounded to the element type (so it may be inf, and the
 * result NaN). params[0] holds that power. */
static void round_decimals_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                                const tsr__ref_elem_ctx *ctx)
{
    double power = ctx->params[0].f;
    double scaled = ctx->round(in[0].f * power);
    out->f = nearbyint(scaled) / power;
}

static void round_negative_decimals_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                                         const tsr__ref_elem_ctx *ctx)
{
    double power = ctx->params[0].f;
    double scaled = ctx->round(in[0].f / power);
    out->f = nearbyint(scaled) * power;
}

static int bind_round(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    int32_t decimals = args->attrs != NULL ? args->attrs->mode : 0;
    if (decimals == 0) {
        return TSR_OK;
    }
    double magnitude = decimals < 0 ? -(double)decimals : (double)decimals;
    call->ctx.params[0].f = call->ctx.round(pow(10.0, magnitude));
    call->fn = decimals > 0 ? round_decimals_real : round_negative_decimals_real;
    return TSR_OK;
}

/* x - trunc(x): inf gives NaN, -0.0 gives +0.0. */
static void frac_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = in[0].f - trunc(in[0].f);
}

/* ------------------------------------------------------------------------ */
/* isnan, isinf, isfinite                                                    */
/* ------------------------------------------------------------------------ */

static void false_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)in;
    (void)ctx;
    out->i = 0;
}

static void true_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)in;
    (void)ctx;
    out->i = 1;
}

static void isnan_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = isnan(in[0].f) != 0;
}

static void isnan_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = isnan(creal(in[0].c)) || isnan(cimag(in[0].c));
}

static void isinf_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = isinf(in[0].f) != 0;
}

static void isinf_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = isinf(creal(in[0].c)) || isinf(cimag(in[0].c));
}

static void isfinite_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = isfinite(in[0].f) != 0;
}

static void isfinite_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                             const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = isfinite(creal(in[0].c)) && isfinite(cimag(in[0].c));
}

/* ------------------------------------------------------------------------ */
/* nan_to_num: params {nan, posinf, neginf} in the element type              */
/* ------------------------------------------------------------------------ */

static void nan_to_num_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    double x = in[0].f;
    if (isnan(x)) {
        out->f = ctx->params[0].f;
    } else if (isinf(x)) {
        out->f = x > 0.0 ? ctx->params[1].f : ctx->params[2].f;
    } else {
        out->f = x;
    }
}

static double largest_finite(int32_t dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return 65504.0;
    case TSR_BFLOAT16:
        return 3.38953138925153547590e38;
    case TSR_FLOAT32:
        return FLT_MAX;
    default:
        return DBL_MAX;
    }
}

/* Absent attributes mean PyTorch's defaults: 0, the largest and the lowest
 * finite value. The values are converted as static_cast<scalar_t>(double). */
static int bind_nan_to_num(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    double largest = largest_finite(args->dtype);
    const double defaults[3] = {0.0, largest, -largest};
    for (int k = 0; k < 3; k++) {
        tsr_scalar fallback = {.kind = TSR_SCALAR_FLOAT, .v.f = defaults[k]};
        tsr_scalar value = tsr__ref_bind_scalar(args, k, fallback);
        tsr__ref_scalar_as_dtype(&value, args->dtype, &call->ctx.params[k]);
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 on CPU: floor, ceil, round and trunc have no float16
 * kernels, frac and nan_to_num do; the predicates take every dtype. */
#define FLOATING (TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264)

#define ROUNDING_OP(id, dtype_set, real_fn)                                                        \
    {                                                                                              \
        .op = (id), .arity = 1, .result = TSR__REF_RESULT_SAME, .dtypes = (dtype_set),             \
        .fn = {NULL, (real_fn), NULL},                                                             \
    }

static const tsr__ref_elementwise_op rounding_ops[] = {
    ROUNDING_OP(TSR_OP_FLOOR, FLOATING, floor_real),
    ROUNDING_OP(TSR_OP_CEIL, FLOATING, ceil_real),
    {.op = TSR_OP_ROUND,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING,
     .fn = {NULL, round_real, NULL},
     .bind = bind_round},
    ROUNDING_OP(TSR_OP_TRUNC, FLOATING, trunc_real),
    ROUNDING_OP(TSR_OP_FRAC, TSR__REF_SET_REAL, frac_real),
    {.op = TSR_OP_ISNAN,
     .arity = 1,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = {false_integer, isnan_real, isnan_complex}},
    {.op = TSR_OP_ISINF,
     .arity = 1,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = {false_integer, isinf_real, isinf_complex}},
    {.op = TSR_OP_ISFINITE,
     .arity = 1,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = {true_integer, isfinite_real, isfinite_complex}},
    {.op = TSR_OP_NAN_TO_NUM,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_REAL,
     .fn = {NULL, nan_to_num_real, NULL},
     .bind = bind_nan_to_num},
};

const tsr__ref_op_family tsr__ref_rounding_family = {rounding_ops,
                                                     sizeof rounding_ops / sizeof rounding_ops[0]};
