/* add, sub, mul, pow, maximum, minimum.
 *
 * add computes a + alpha * b with alpha first rounded to the computation
 * dtype (PyTorch's alpha.to<scalar_t>()); sub is add with -alpha, as in
 * PyTorch. Real add uses fma: one rounding, like PyTorch's vectorised fmadd.
 * Complex add multiplies alpha out with the textbook formula even when
 * alpha is 1, so 0 + (inf + 0i) is inf + NaN i, as PyTorch gives. */
#include <math.h>

#include "complex_ops.h"
#include "elementwise.h"
#include "scalar_ops.h"

/* ------------------------------------------------------------------------ */
/* add, sub                                                                  */
/* ------------------------------------------------------------------------ */

/* For bool the sum is stored as (sum != 0): logical or when alpha is true. */
static void add_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    out->i = tsr__ref_wrap_add(in[0].i, tsr__ref_wrap_mul(ctx->alpha.i, in[1].i));
}

static void add_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    out->f = fma(ctx->alpha.f, in[1].f, in[0].f);
}

static void add_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    out->c = in[0].c + tsr__ref_complex_mul(ctx->alpha.c, in[1].c);
}

static int bind_alpha(const tsr__ref_bind_args *args, tsr__ref_elem_call *call, int negate)
{
    tsr_scalar alpha = {.kind = TSR_SCALAR_INT, .v.i = 1};
    if (args->attrs != NULL) {
        alpha = args->attrs->scalars[0];
    }
    if (negate) {
        switch (alpha.kind) {
        case TSR_SCALAR_FLOAT:
            alpha.v.f = -alpha.v.f;
            break;
        case TSR_SCALAR_COMPLEX:
            alpha.v.c.re = -alpha.v.c.re;
            alpha.v.c.im = -alpha.v.c.im;
            break;
        default:
            alpha.kind = TSR_SCALAR_INT;
            alpha.v.i = tsr__ref_wrap_neg(alpha.v.i);
            break;
        }
    }
    tsr__ref_scalar_as_dtype(&alpha, args->dtype, &call->ctx.alpha);
    return TSR_OK;
}

static int bind_add(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    return bind_alpha(args, call, 0);
}

static int bind_sub(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    return bind_alpha(args, call, 1);
}

/* ------------------------------------------------------------------------ */
/* mul                                                                       */
/* ------------------------------------------------------------------------ */

static void mul_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = tsr__ref_wrap_mul(in[0].i, in[1].i);
}

static void mul_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = in[0].f * in[1].f;
}

static void mul_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = tsr__ref_complex_mul(in[0].c, in[1].c);
}

/* ------------------------------------------------------------------------ */
/* pow                                                                       */
/* ------------------------------------------------------------------------ */

/* Exponentiation by squaring, wrapping. A negative exponent has an integer
 * result only for bases 1 and -1; every other base (0 included) gives 0,
 * the truncation PyTorch returns. */
static void pow_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    int64_t base = in[0].i;
    int64_t exponent = in[1].i;
    if (exponent < 0) {
        if (base == 1) {
            out->i = 1;
        } else if (base == -1) {
            out->i = ((uint64_t)exponent & 1) ? -1 : 1;
        } else {
            out->i = 0;
        }
        return;
    }
    int64_t result = 1;
    for (uint64_t e = (uint64_t)exponent; e != 0; e >>= 1) {
        if (e & 1) {
            result = tsr__ref_wrap_mul(result, base);
        }
        base = tsr__ref_wrap_mul(base, base);
    }
    out->i = result;
}

static void pow_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = pow(in[0].f, in[1].f);
}

/* PyTorch calls std::pow, which is C's cpow. */
static void pow_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = cpow(in[0].c, in[1].c);
}

/* ------------------------------------------------------------------------ */
/* maximum, minimum (NaN propagates)                                         */
/* ------------------------------------------------------------------------ */

static void maximum_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[0].i < in[1].i ? in[1].i : in[0].i;
}

static void maximum_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = tsr__ref_real_maximum(in[0].f, in[1].f);
}

static void minimum_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[1].i < in[0].i ? in[1].i : in[0].i;
}

static void minimum_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = tsr__ref_real_minimum(in[0].f, in[1].f);
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* Dtype sets as PyTorch 1.13 accepts them on CPU: sub refuses bool, pow
 * refuses bool, maximum/minimum refuse complex. */
static const tsr__ref_elementwise_op arith_ops[] = {
    {.op = TSR_OP_ADD,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL,
     .fn = {add_integer, add_real, add_complex},
     .bind = bind_add},
    {.op = TSR_OP_SUB,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_BOOL,
     .fn = {add_integer, add_real, add_complex},
     .bind = bind_sub},
    {.op = TSR_OP_MUL,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL,
     .fn = {mul_integer, mul_real, mul_complex}},
    {.op = TSR_OP_POW,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_BOOL,
     .fn = {pow_integer, pow_real, pow_complex}},
    {.op = TSR_OP_MAXIMUM,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX,
     .fn = {maximum_integer, maximum_real, NULL}},
    {.op = TSR_OP_MINIMUM,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX,
     .fn = {minimum_integer, minimum_real, NULL}},
};

const tsr__ref_op_family tsr__ref_arith_family = {arith_ops,
                                                  sizeof arith_ops / sizeof arith_ops[0]};
