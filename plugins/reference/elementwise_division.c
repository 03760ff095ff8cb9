/* div (true, trunc, floor), floor_divide and remainder.
 *
 * Integers: division by zero fails before anything is written (the kernel
 * scans the divisor first); the minimum value divided by -1 wraps to
 * itself; floor division and remainder follow Python, the remainder taking
 * the divisor's sign.
 * Reals: floor division is PyTorch's fmod-based div_floor_floating, which
 * gets exact multiples and signed zeros right; remainder is fmod moved
 * into the divisor's sign (so 1 % -inf is -inf, as in PyTorch). */
#include <math.h>

#include "complex_ops.h"
#include "elementwise.h"
#include "scalar_ops.h"

/* ------------------------------------------------------------------------ */
/* Integers (divisors are known to be nonzero)                               */
/* ------------------------------------------------------------------------ */

/* INT64_MIN / -1 overflows in C; negating through unsigned wraps instead.
 * Narrower types never overflow here, because they are widened to int64. */
static int64_t truncated_quotient(int64_t a, int64_t b)
{
    return b == -1 ? tsr__ref_wrap_neg(a) : a / b;
}

static int64_t floored_quotient(int64_t a, int64_t b)
{
    if (b == -1) {
        return tsr__ref_wrap_neg(a);
    }
    int64_t quotient = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
        quotient--;
    }
    return quotient;
}

static void div_trunc_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                              const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = truncated_quotient(in[0].i, in[1].i);
}

static void div_floor_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                              const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = floored_quotient(in[0].i, in[1].i);
}

static void remainder_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                              const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    int64_t a = in[0].i;
    int64_t b = in[1].i;
    int64_t rest = b == -1 ? 0 : a % b; /* INT64_MIN % -1 is undefined in C */
    if (rest != 0 && ((rest < 0) != (b < 0))) {
        rest += b;
    }
    out->i = rest;
}

/* ------------------------------------------------------------------------ */
/* Reals                                                                     */
/* ------------------------------------------------------------------------ */

static void div_true_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = in[0].f / in[1].f;
}

/* trunc(a / b) truncates the quotient as rounded to the computation dtype,
 * as PyTorch does: 5 / 0.1f is 49.9999993 exactly but 50.0f in float, so
 * the answer is 50; in float16, 10000 / 3 rounds to 3334 before truncation.
 * A double quotient rounded to float is the correctly rounded float
 * quotient (double has more than 2*24+2 bits). */
static void div_trunc_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                           const tsr__ref_elem_ctx *ctx)
{
    out->f = trunc(ctx->round(in[0].f / in[1].f));
}

/* The quotient is computed from a - fmod(a, b), an exact multiple of b, then
 * corrected towards -inf; rounding the corrected quotient to the nearest
 * integer removes the division's rounding error. A zero quotient keeps the
 * sign of a / b. Division by zero gives IEEE's a / b. */
static double floor_divide_double(double a, double b)
{
    if (b == 0.0) {
        return a / b;
    }
    double rest = fmod(a, b);
    double quotient = (a - rest) / b;
    if (rest != 0.0 && ((b < 0.0) != (rest < 0.0))) {
        quotient -= 1.0;
    }
    if (quotient == 0.0) {
        return copysign(0.0, a / b);
    }
    double floored = floor(quotient);
    if (quotient - floored > 0.5) {
        floored += 1.0;
    }
    return floored;
}

static void div_floor_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                           const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->f = floor_divide_double(in[0].f, in[1].f);
}

static void remainder_real(tsr__ref_wide *out, const tsr__ref_wide *in,
                           const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    double b = in[1].f;
    double rest = fmod(in[0].f, b);
    if (rest != 0.0 && ((b < 0.0) != (rest < 0.0))) {
        rest += b;
    }
    out->f = rest;
}

/* ------------------------------------------------------------------------ */
/* Complex (true division only)                                              */
/* ------------------------------------------------------------------------ */

static void div_true_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                             const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->c = tsr__ref_complex_div(in[0].c, in[1].c);
}

/* ------------------------------------------------------------------------ */
/* Binding and table                                                         */
/* ------------------------------------------------------------------------ */

static const tsr__ref_elem_fn trunc_fns[TSR__REF_CATEGORY_COUNT] = {div_trunc_integer,
                                                                    div_trunc_real, NULL};
static const tsr__ref_elem_fn floor_fns[TSR__REF_CATEGORY_COUNT] = {div_floor_integer,
                                                                    div_floor_real, NULL};

/* True division of integers never reaches a kernel: the core promotes it to
 * float. Rounded division of complex numbers does not exist in PyTorch. */
static int bind_div(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    int32_t mode = args->attrs != NULL ? args->attrs->mode : TSR_ROUND_NONE;
    switch (mode) {
    case TSR_ROUND_NONE:
        break; /* the table's true-division functions */
    case TSR_ROUND_TRUNC:
        call->fn = trunc_fns[args->category];
        break;
    case TSR_ROUND_FLOOR:
        call->fn = floor_fns[args->category];
        break;
    default:
        return tsr__ref_error(args->backend, TSR_ERR_INVALID_ARGUMENT, "unknown rounding mode %d",
                              (int)mode);
    }
    if (call->fn == NULL) {
        return tsr__ref_error(args->backend, TSR_ERR_DTYPE,
                              "div with rounding mode %d is not defined for %s", (int)mode,
                              tsr__ref_dtype_name(args->dtype));
    }
    call->check_zero_divisor = args->category == TSR__REF_INTEGER;
    return TSR_OK;
}

static int bind_integer_division(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    call->check_zero_divisor = args->category == TSR__REF_INTEGER;
    return TSR_OK;
}

/* PyTorch 1.13: true division for floating and complex types; trunc and
 * floor for integers and reals; nothing for bool. floor_divide and
 * remainder take integers and reals. */
static const tsr__ref_elementwise_op division_ops[] = {
    {.op = TSR_OP_DIV,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | TSR__REF_SET_REAL | TSR__REF_SET_COMPLEX,
     .fn = {NULL, div_true_real, div_true_complex},
     .bind = bind_div},
    {.op = TSR_OP_FLOOR_DIVIDE,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | TSR__REF_SET_REAL,
     .fn = {div_floor_integer, div_floor_real, NULL},
     .bind = bind_integer_division},
    {.op = TSR_OP_REMAINDER,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER | TSR__REF_SET_REAL,
     .fn = {remainder_integer, remainder_real, NULL},
     .bind = bind_integer_division},
};

const tsr__ref_op_family tsr__ref_division_family = {division_ops,
                                                     sizeof division_ops / sizeof division_ops[0]};
