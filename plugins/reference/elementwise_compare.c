/* Comparisons (eq ne lt le gt ge) and logical ops (and or xor not), all
 * writing bool.
 *
 * Each comparison is a set of outcomes it accepts (less, equal, greater,
 * unordered), so one function per category serves all six: NaN is
 * unordered, so only ne accepts it. Each logical op is likewise a truth
 * table over the truth values of its inputs. As a truth value NaN is true,
 * and a complex number is true when either part is nonzero (unlike a
 * complex -> bool copy, which PyTorch bases on the real part only). */
#include "elementwise.h"

enum { LESS = 1 << 0, EQUAL = 1 << 1, GREATER = 1 << 2, UNORDERED = 1 << 3 };

/* ------------------------------------------------------------------------ */
/* Comparisons: ctx->mode holds the accepted outcomes                        */
/* ------------------------------------------------------------------------ */

static void compare_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    int64_t a = in[0].i, b = in[1].i;
    int outcome = a < b ? LESS : a == b ? EQUAL : GREATER;
    out->i = (ctx->mode & outcome) != 0;
}

static void compare_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    double a = in[0].f, b = in[1].f;
    int outcome = a < b ? LESS : a == b ? EQUAL : a > b ? GREATER : UNORDERED;
    out->i = (ctx->mode & outcome) != 0;
}

/* Complex numbers are only compared for (in)equality. */
static void compare_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    int outcome = in[0].c == in[1].c ? EQUAL : UNORDERED;
    out->i = (ctx->mode & outcome) != 0;
}

/* ------------------------------------------------------------------------ */
/* Logical ops: ctx->mode is a truth table, bit (2 * a + b) for inputs a, b  */
/* ------------------------------------------------------------------------ */

static int truth_integer(const tsr__ref_wide *v)
{
    return v->i != 0;
}

static int truth_real(const tsr__ref_wide *v)
{
    return v->f != 0.0;
}

static int truth_complex(const tsr__ref_wide *v)
{
    return creal(v->c) != 0.0 || cimag(v->c) != 0.0;
}

static void logical_integer(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    int row = 2 * truth_integer(&in[0]) + truth_integer(&in[1]);
    out->i = (ctx->mode >> row) & 1;
}

static void logical_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    int row = 2 * truth_real(&in[0]) + truth_real(&in[1]);
    out->i = (ctx->mode >> row) & 1;
}

static void logical_complex(tsr__ref_wide *out, const tsr__ref_wide *in,
                            const tsr__ref_elem_ctx *ctx)
{
    int row = 2 * truth_complex(&in[0]) + truth_complex(&in[1]);
    out->i = (ctx->mode >> row) & 1;
}

/* logical_not has one input: its table has rows 0 and 1. */
static void not_integer(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = !truth_integer(&in[0]);
}

static void not_real(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = !truth_real(&in[0]);
}

static void not_complex(tsr__ref_wide *out, const tsr__ref_wide *in, const tsr__ref_elem_ctx *ctx)
{
    (void)ctx;
    out->i = !truth_complex(&in[0]);
}

/* ------------------------------------------------------------------------ */
/* Table                                                                     */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 orders no complex numbers; everything else takes every dtype. */
#define ORDERED (TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX)
#define COMPARE                                                                                    \
    {                                                                                              \
        compare_integer, compare_real, compare_complex                                             \
    }
#define LOGICAL                                                                                    \
    {                                                                                              \
        logical_integer, logical_real, logical_complex                                             \
    }

/* Truth tables: bit 0 is (false, false), bit 3 is (true, true). */
enum { TABLE_AND = 0x8, TABLE_OR = 0xe, TABLE_XOR = 0x6 };

static const tsr__ref_elementwise_op compare_ops[] = {
    {.op = TSR_OP_EQ,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = COMPARE,
     .constant = EQUAL},
    {.op = TSR_OP_NE,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = COMPARE,
     .constant = LESS | GREATER | UNORDERED},
    {.op = TSR_OP_LT,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = ORDERED,
     .fn = COMPARE,
     .constant = LESS},
    {.op = TSR_OP_LE,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = ORDERED,
     .fn = COMPARE,
     .constant = LESS | EQUAL},
    {.op = TSR_OP_GT,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = ORDERED,
     .fn = COMPARE,
     .constant = GREATER},
    {.op = TSR_OP_GE,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = ORDERED,
     .fn = COMPARE,
     .constant = GREATER | EQUAL},
    {.op = TSR_OP_LOGICAL_AND,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = LOGICAL,
     .constant = TABLE_AND},
    {.op = TSR_OP_LOGICAL_OR,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = LOGICAL,
     .constant = TABLE_OR},
    {.op = TSR_OP_LOGICAL_XOR,
     .arity = 2,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = LOGICAL,
     .constant = TABLE_XOR},
    {.op = TSR_OP_LOGICAL_NOT,
     .arity = 1,
     .result = TSR__REF_RESULT_BOOL,
     .dtypes = TSR__REF_SET_ALL,
     .fn = {not_integer, not_real, not_complex}},
};

const tsr__ref_op_family tsr__ref_compare_family = {compare_ops,
                                                    sizeof compare_ops / sizeof compare_ops[0]};
