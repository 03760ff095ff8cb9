/* lerp, addcmul and addcdiv: three inputs, one output.
 *
 * The roundings follow PyTorch 1.13's CPU kernels, which were compared
 * element by element (100000 random float32 values, every one equal):
 *  - lerp(s, e, w) = w < 0.5 ? s + w (e - s) : e - (e - s)(1 - w), with
 *    the multiply-add fused (e - s and 1 - w rounded first); a complex
 *    weight takes the first form when |w| < 0.5;
 *  - addcmul(s, a, b, v) = s + (v a) b, the last multiply-add fused;
 *  - addcdiv(s, a, b, v) = s + (v a) / b, every step rounded.
 * Steps round to ctx->opmath_round (float for float32 and bfloat16); fma
 * in double followed by the storer's rounding to float is the float fma
 * except in astronomically rare double-rounding ties. */
#include <math.h>

#include "complex_ops.h"
#include "elementwise.h"
#include "scalar_ops.h"

/* ------------------------------------------------------------------------ */
/* lerp: inputs (start, end, weight) or, with TSR_LERP_SCALAR_WEIGHT,        */
/* (start, end, ignored) and the weight in params[0]                         */
/* ------------------------------------------------------------------------ */

static double lerp_real_value(double start, double end, double weight, const tsr__ref_elem_ctx *ctx)
{
    double difference = ctx->opmath_round(end - start);
    if (weight < 0.5) {
        return fma(weight, difference, start);
    }
    return fma(-difference, ctx->opmath_round(1.0 - weight), end);
}

static void lerp_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    out->f = lerp_real_value(in[0].f, in[1].f, in[2].f, ctx);
}

static void lerp_scalar_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                             const tsr__ref_elem_ctx *ctx)
{
    out->f = lerp_real_value(in[0].f, in[1].f, ctx->params[0].f, ctx);
}

static double complex lerp_complex_value(double complex start, double complex end,
                                         double complex weight)
{
    double complex difference = end - start;
    if (cabs(weight) < 0.5) {
        return start + tsr__ref_complex_mul(weight, difference);
    }
    double complex rest = tsr__ref_complex_make(1.0 - creal(weight), -cimag(weight));
    return end - tsr__ref_complex_mul(difference, rest);
}

static void lerp_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = lerp_complex_value(in[0].c, in[1].c, in[2].c);
}

static void lerp_scalar_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                                const tsr__ref_elem_ctx *ctx)
{
    out->c = lerp_complex_value(in[0].c, in[1].c, ctx->params[0].c);
}

/* A scalar weight keeps the precision of PyTorch's opmath type (float for
 * bfloat16), where a weight tensor would have the tensors' dtype. */
static int bind_lerp(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    int32_t mode = args->attrs != NULL ? args->attrs->mode : 0;
    if ((mode & ~TSR_LERP_SCALAR_WEIGHT) != 0) {
        return tsr__ref_error(args->backend, TSR_ERR_INVALID_ARGUMENT,
                              "unknown lerp mode bits 0x%x", (unsigned)mode);
    }
    if (mode & TSR_LERP_SCALAR_WEIGHT) {
        tsr_scalar weight = tsr__ref_bind_scalar(args, 0, (tsr_scalar){.kind = TSR_SCALAR_INT});
        tsr__ref_bind_opmath(&weight, args->dtype, &call->ctx.params[0]);
        call->fn = args->category == TSR__REF_COMPLEX ? lerp_scalar_complex : lerp_scalar_real;
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* addcmul, addcdiv: inputs (self, tensor1, tensor2), params[0] = value      */
/* ------------------------------------------------------------------------ */

static void addcmul_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    int64_t product = tsr__ref_wrap_mul(tsr__ref_wrap_mul(ctx->params[0].i, in[1].i), in[2].i);
    out->i = tsr__ref_wrap_add(in[0].i, product);
}

static void addcmul_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double scaled = ctx->opmath_round(ctx->params[0].f * in[1].f);
    out->f = fma(scaled, in[2].f, in[0].f);
}

static void addcmul_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    double complex scaled = tsr__ref_complex_mul(ctx->params[0].c, in[1].c);
    out->c = in[0].c + tsr__ref_complex_mul(scaled, in[2].c);
}

static void addcdiv_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double scaled = ctx->opmath_round(ctx->params[0].f * in[1].f);
    out->f = in[0].f + ctx->opmath_round(scaled / in[2].f);
}

static void addcdiv_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    double complex scaled = tsr__ref_complex_mul(ctx->params[0].c, in[1].c);
    out->c = in[0].c + tsr__ref_complex_div(scaled, in[2].c);
}

/* value.to<scalar_t>(): truncated for integers, rounded to the dtype. */
static int bind_value(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    tsr_scalar value =
        tsr__ref_bind_scalar(args, 0, (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 1});
    tsr__ref_scalar_as_dtype(&value, args->dtype, &call->ctx.params[0]);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 on CPU: no float16 kernels; addcmul also takes integers
 * (not bool); addcdiv refuses integer division (the core says so). */
#define FLOATING_COMPLEX (TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264 | TSR__REF_SET_COMPLEX)

static const tsr__ref_elementwise_op ternary_ops[] = {
    {.op = TSR_OP_LERP,
     .arity = 3,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING_COMPLEX,
     .fn = {NULL, lerp_real, lerp_complex},
     .bind = bind_lerp},
    {.op = TSR_OP_ADDCMUL,
     .arity = 3,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | FLOATING_COMPLEX,
     .fn = {addcmul_integer, addcmul_real, addcmul_complex},
     .bind = bind_value},
    {.op = TSR_OP_ADDCDIV,
     .arity = 3,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = FLOATING_COMPLEX,
     .fn = {NULL, addcdiv_real, addcdiv_complex},
     .bind = bind_value},
};

const tsr__ref_op_family tsr__ref_ternary_family = {ternary_ops,
                                                    sizeof ternary_ops / sizeof ternary_ops[0]};
