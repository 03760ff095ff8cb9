/* bitwise_and, bitwise_or, bitwise_xor, bitwise_not and the shifts, on bool
 * and integer dtypes (the shifts on integers only).
 *
 * Values arrive sign-extended (or zero-extended for uint8) to int64, and the
 * storer keeps the low bits, so and/or/xor/not on int64 give each dtype's
 * answer. bool is the exception for not: ~1 has nonzero low bits, so bool
 * gets logical negation.
 *
 * Shift counts outside [0, width) are undefined in C. PyTorch 1.13 writes
 * `(unsigned)a << b` and `a >> b` in C++, which x86-64 compiles to shifts
 * that use the count's low bits: 6 bits for int64, and 5 bits for every
 * narrower dtype, because C++ promotes int8, int16 and uint8 operands to
 * 32-bit int before shifting. So int8 1 << 9 is 0 (bit 9 falls outside the
 * byte), 1 << 32 is 1, and a negative count -1 shifts by 31 (or 63). The
 * count's low bits are kept here explicitly; arithmetic right shifts of
 * the widened value give the same low bits as the 32-bit shift would. */
#include "elementwise.h"

/* ------------------------------------------------------------------------ */
/* and, or, xor, not                                                         */
/* ------------------------------------------------------------------------ */

static void and_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[0].i & in[1].i;
}

static void or_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[0].i | in[1].i;
}

static void xor_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[0].i ^ in[1].i;
}

static void not_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = ~in[0].i;
}

static void not_bool(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = in[0].i == 0;
}

static int bind_not(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    if (args->dtype == TSR_BOOL) {
        call->fn = not_bool;
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Shifts: ctx->mode is the mask of count bits the hardware uses             */
/* ------------------------------------------------------------------------ */

/* Through uint64_t: shifting a negative value left is undefined in C. */
static void left_shift_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                               const tsr__ref_elem_ctx *ctx)
{
    unsigned count = (unsigned)((uint64_t)in[1].i & (uint64_t)ctx->mode);
    out->i = (int64_t)((uint64_t)in[0].i << count);
}

/* Arithmetic for negative values: GCC and Clang define >> on negative
 * signed integers as an arithmetic shift. */
static void right_shift_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                                const tsr__ref_elem_ctx *ctx)
{
    unsigned count = (unsigned)((uint64_t)in[1].i & (uint64_t)ctx->mode);
    out->i = in[0].i >> count;
}

static int bind_shift(const tsr__ref_bind_args *args, tsr__ref_elem_call *call)
{
    call->ctx.mode = args->dtype == TSR_INT64 ? 63 : 31;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

#define INTEGRAL (TSR__REF_SET_BOOL | TSR__REF_SET_INTEGER)

static const tsr__ref_elementwise_op bitwise_ops[] = {
    {.op = TSR_OP_BITWISE_AND,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = INTEGRAL,
     .fn = {and_integer, NULL, NULL}},
    {.op = TSR_OP_BITWISE_OR,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = INTEGRAL,
     .fn = {or_integer, NULL, NULL}},
    {.op = TSR_OP_BITWISE_XOR,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = INTEGRAL,
     .fn = {xor_integer, NULL, NULL}},
    {.op = TSR_OP_BITWISE_NOT,
     .arity = 1,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = INTEGRAL,
     .fn = {not_integer, NULL, NULL},
     .bind = bind_not},
    {.op = TSR_OP_BITWISE_LEFT_SHIFT,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER,
     .fn = {left_shift_integer, NULL, NULL},
     .bind = bind_shift},
    {.op = TSR_OP_BITWISE_RIGHT_SHIFT,
     .arity = 2,
     .result = TSR__REF_RESULT_SAME,
     .dtypes = TSR__REF_SET_INTEGER,
     .fn = {right_shift_integer, NULL, NULL},
     .bind = bind_shift},
};

const tsr__ref_op_family tsr__ref_bitwise_family = {bitwise_ops,
                                                    sizeof bitwise_ops / sizeof bitwise_ops[0]};
