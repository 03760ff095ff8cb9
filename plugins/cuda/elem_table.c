/* The claimed elementwise ops and their attribute binding (elem_table.h).
 * The dtype sets are PyTorch 1.13's, as the reference backend registers
 * them, except complex dtypes of ops whose reference formula calls C's
 * complex library (clog, csqrt, csin, cpow, ...): those are not claimed. */
#include "elem_table.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#define B_(d) TSR__CU_BIT(TSR_##d)
#define S_BOOL B_(BOOL)
#define S_INT (B_(UINT8) | B_(INT8) | B_(INT16) | B_(INT32) | B_(INT64))
#define S_FLOATING (B_(BFLOAT16) | B_(FLOAT32) | B_(FLOAT64)) /* no float16 kernel in 1.13 */
#define S_REAL (S_FLOATING | B_(FLOAT16))
#define S_CPLX (B_(COMPLEX64) | B_(COMPLEX128))
#define S_ALL (S_BOOL | S_INT | S_REAL | S_CPLX)

#define OP_(name, arity, result, dtypes)                                                           \
    {                                                                                              \
        TSR_OP_##name, arity, TSR__CU_RESULT_##result, dtypes                                      \
    }

static const tsr__cu_elem_op ops[] = {
    OP_(FILL, 0, SAME, S_ALL),
    OP_(ADD, 2, SAME, S_ALL),
    OP_(SUB, 2, SAME, S_ALL & ~S_BOOL),
    OP_(MUL, 2, SAME, S_ALL),
    OP_(DIV, 2, SAME, S_INT | S_REAL | S_CPLX),
    OP_(FLOOR_DIVIDE, 2, SAME, S_INT | S_REAL),
    OP_(REMAINDER, 2, SAME, S_INT | S_REAL),
    OP_(POW, 2, SAME, S_INT | S_REAL),
    OP_(MAXIMUM, 2, SAME, S_ALL & ~S_CPLX),
    OP_(MINIMUM, 2, SAME, S_ALL & ~S_CPLX),
    OP_(EQ, 2, BOOL, S_ALL),
    OP_(NE, 2, BOOL, S_ALL),
    OP_(LT, 2, BOOL, S_ALL & ~S_CPLX),
    OP_(LE, 2, BOOL, S_ALL & ~S_CPLX),
    OP_(GT, 2, BOOL, S_ALL & ~S_CPLX),
    OP_(GE, 2, BOOL, S_ALL & ~S_CPLX),
    OP_(LOGICAL_AND, 2, BOOL, S_ALL),
    OP_(LOGICAL_OR, 2, BOOL, S_ALL),
    OP_(LOGICAL_XOR, 2, BOOL, S_ALL),
    OP_(LOGICAL_NOT, 1, BOOL, S_ALL),
    OP_(NEG, 1, SAME, S_ALL & ~S_BOOL),
    OP_(ABS, 1, REAL, S_ALL & ~S_BOOL),
    OP_(SIGN, 1, SAME, S_BOOL | S_INT | S_REAL),
    OP_(EXP, 1, SAME, S_FLOATING | S_CPLX),
    OP_(LOG, 1, SAME, S_FLOATING),
    OP_(LOG1P, 1, SAME, S_FLOATING),
    OP_(EXPM1, 1, SAME, S_FLOATING),
    OP_(SQRT, 1, SAME, S_FLOATING),
    OP_(RSQRT, 1, SAME, S_FLOATING),
    OP_(SIN, 1, SAME, S_FLOATING),
    OP_(COS, 1, SAME, S_FLOATING),
    OP_(TANH, 1, SAME, S_FLOATING),
    OP_(SIGMOID, 1, SAME, S_FLOATING | S_CPLX),
    OP_(RELU, 1, SAME, S_INT | S_FLOATING),
    OP_(GELU, 1, SAME, S_FLOATING),
    OP_(ERF, 1, SAME, S_FLOATING),
    OP_(CLAMP, 3, SAME, S_INT | B_(BFLOAT16) | B_(FLOAT32) | B_(FLOAT64)),
    OP_(FMOD, 2, SAME, S_INT | S_REAL),
    OP_(ATAN2, 2, SAME, S_FLOATING),
    OP_(HYPOT, 2, SAME, S_FLOATING),
    OP_(COPYSIGN, 2, SAME, S_REAL),
    OP_(FMAX, 2, SAME, S_ALL & ~S_CPLX),
    OP_(FMIN, 2, SAME, S_ALL & ~S_CPLX),
    OP_(BITWISE_AND, 2, SAME, S_BOOL | S_INT),
    OP_(BITWISE_OR, 2, SAME, S_BOOL | S_INT),
    OP_(BITWISE_XOR, 2, SAME, S_BOOL | S_INT),
    OP_(BITWISE_NOT, 1, SAME, S_BOOL | S_INT),
    OP_(BITWISE_LEFT_SHIFT, 2, SAME, S_INT),
    OP_(BITWISE_RIGHT_SHIFT, 2, SAME, S_INT),
    OP_(EXP2, 1, SAME, S_REAL),
    OP_(LOG2, 1, SAME, S_FLOATING),
    OP_(LOG10, 1, SAME, S_FLOATING),
    OP_(TAN, 1, SAME, S_FLOATING),
    OP_(ASIN, 1, SAME, S_FLOATING),
    OP_(ACOS, 1, SAME, S_FLOATING),
    OP_(ATAN, 1, SAME, S_FLOATING),
    OP_(SINH, 1, SAME, S_FLOATING),
    OP_(COSH, 1, SAME, S_FLOATING),
    OP_(ASINH, 1, SAME, S_FLOATING),
    OP_(ACOSH, 1, SAME, S_FLOATING),
    OP_(ATANH, 1, SAME, S_FLOATING),
    OP_(ERFC, 1, SAME, S_FLOATING),
    OP_(SILU, 1, SAME, S_FLOATING | S_CPLX),
    OP_(SOFTPLUS, 1, SAME, S_FLOATING),
    OP_(LEAKY_RELU, 1, SAME, S_FLOATING),
    OP_(ELU, 1, SAME, S_FLOATING),
    OP_(HARDTANH, 1, SAME, S_INT | S_FLOATING),
    OP_(FLOOR, 1, SAME, S_FLOATING),
    OP_(CEIL, 1, SAME, S_FLOATING),
    OP_(ROUND, 1, SAME, S_FLOATING),
    OP_(TRUNC, 1, SAME, S_FLOATING),
    OP_(FRAC, 1, SAME, S_REAL),
    OP_(RECIPROCAL, 1, SAME, S_REAL | S_CPLX),
    OP_(SQUARE, 1, SAME, S_ALL & ~S_BOOL),
    OP_(ISNAN, 1, BOOL, S_ALL),
    OP_(ISINF, 1, BOOL, S_ALL),
    OP_(ISFINITE, 1, BOOL, S_ALL),
    OP_(NAN_TO_NUM, 1, SAME, S_REAL),
    OP_(LERP, 3, SAME, S_FLOATING),
    OP_(ADDCMUL, 3, SAME, S_INT | S_FLOATING),
    OP_(ADDCDIV, 3, SAME, S_FLOATING),
};

static const char *const OP_NAMES[] = {
#define TSR_CU_OP_NAME_(id, name) name,
    TSR_OP_LIST(TSR_CU_OP_NAME_)
#undef TSR_CU_OP_NAME_
};

const char *tsr__cu_op_name(int32_t op)
{
    return op >= 0 && op < (int32_t)(sizeof OP_NAMES / sizeof OP_NAMES[0]) ? OP_NAMES[op] : "?";
}

const tsr__cu_elem_op *tsr__cu_elem_op_at(size_t index)
{
    return index < sizeof ops / sizeof ops[0] ? &ops[index] : NULL;
}

const tsr__cu_elem_op *tsr__cu_elem_op_find(int32_t op)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (ops[i].op == op)
            return &ops[i];
    return NULL;
}

int32_t tsr__cu_elem_result_dtype(const tsr__cu_elem_op *op, int32_t dtype)
{
    if (op->result == TSR__CU_RESULT_BOOL)
        return TSR_BOOL;
    if (op->result == TSR__CU_RESULT_REAL)
        return dtype == TSR_COMPLEX64 ? TSR_FLOAT32 : dtype == TSR_COMPLEX128 ? TSR_FLOAT64 : dtype;
    return dtype;
}

tsr__cu_value tsr__cu_scalar_as_dtype(const tsr_scalar *scalar, int32_t dtype)
{
    tsr__cu_value wide;
    tsr__cu_category from = TSR__CU_INTEGER;
    wide.c.re = wide.c.im = 0.0;
    if (scalar->kind == TSR_SCALAR_FLOAT) {
        wide.f = scalar->v.f;
        from = TSR__CU_REAL;
    } else if (scalar->kind == TSR_SCALAR_COMPLEX) {
        wide = tsr__cu_complex(scalar->v.c.re, scalar->v.c.im);
        from = TSR__CU_COMPLEX;
    } else {
        wide.i = scalar->v.i;
    }
    unsigned char element[16] = {0};
    tsr__cu_store(dtype, from, element, wide);
    return tsr__cu_load(dtype, element);
}

/* Attribute scalar `index`, or `fallback` when the block is too short. */
static tsr_scalar attr_scalar(const tsr_elementwise_attrs *attrs, int index, tsr_scalar fallback)
{
    size_t needed =
        offsetof(tsr_elementwise_attrs, scalars) + (size_t)(index + 1) * sizeof(tsr_scalar);
    return attrs && attrs->struct_size >= needed ? attrs->scalars[index] : fallback;
}

static tsr_scalar float_scalar(double value)
{
    tsr_scalar s = {0};
    s.kind = TSR_SCALAR_FLOAT;
    s.v.f = value;
    return s;
}

static tsr_scalar int_scalar(int64_t value)
{
    tsr_scalar s = {0};
    s.kind = TSR_SCALAR_INT;
    s.v.i = value;
    return s;
}

static double scalar_real(const tsr_scalar *s)
{
    return s->kind == TSR_SCALAR_FLOAT     ? s->v.f
           : s->kind == TSR_SCALAR_COMPLEX ? s->v.c.re
                                           : (double)s->v.i;
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

static int has_attr_mode(const tsr_elementwise_attrs *attrs)
{
    return attrs && attrs->struct_size >= offsetof(tsr_elementwise_attrs, mode) + sizeof(int32_t);
}

/* Comparison outcome sets and logical truth tables (bit 2a + b). */
static int32_t op_constant(int32_t op)
{
    switch (op) {
    case TSR_OP_EQ:
        return TSR__CU_EQUAL;
    case TSR_OP_NE:
        return TSR__CU_LESS | TSR__CU_GREATER | TSR__CU_UNORDERED;
    case TSR_OP_LT:
        return TSR__CU_LESS;
    case TSR_OP_LE:
        return TSR__CU_LESS | TSR__CU_EQUAL;
    case TSR_OP_GT:
        return TSR__CU_GREATER;
    case TSR_OP_GE:
        return TSR__CU_GREATER | TSR__CU_EQUAL;
    case TSR_OP_LOGICAL_AND:
        return 0x8;
    case TSR_OP_LOGICAL_OR:
        return 0xe;
    case TSR_OP_LOGICAL_XOR:
        return 0x6;
    default:
        return 0;
    }
}

int tsr__cu_elem_bind(const tsr__cu_elem_op *op, int32_t dtype, const void *attrs_ptr,
                      tsr__cu_elem_ctx *ctx, int *check_zero_divisor, char *message,
                      size_t capacity)
{
    const tsr_elementwise_attrs *attrs = attrs_ptr;
    const int32_t mode = has_attr_mode(attrs) ? attrs->mode : 0;
    const tsr__cu_category cat = tsr__cu_dtype_category(dtype);
    tsr__cu_value *p = ctx->params;
    memset(ctx, 0, sizeof *ctx);
    ctx->op = op->op;
    ctx->dtype = dtype;
    ctx->category = cat;
    ctx->mode = op_constant(op->op);
    *check_zero_divisor = 0;
    switch (op->op) {
    case TSR_OP_FILL:
        if (!attrs ||
            attrs->struct_size < offsetof(tsr_elementwise_attrs, scalars) + sizeof(tsr_scalar)) {
            snprintf(message, capacity, "fill: attrs must hold the value (scalars[0])");
            return TSR_ERR_INVALID_ARGUMENT;
        }
        p[0] = tsr__cu_scalar_as_dtype(&attrs->scalars[0], dtype);
        break;
    case TSR_OP_ADD:
    case TSR_OP_SUB: {
        tsr_scalar alpha = attr_scalar(attrs, 0, int_scalar(1));
        if (op->op == TSR_OP_SUB) {
            if (alpha.kind == TSR_SCALAR_FLOAT) {
                alpha.v.f = -alpha.v.f;
            } else if (alpha.kind == TSR_SCALAR_COMPLEX) {
                alpha.v.c.re = -alpha.v.c.re;
                alpha.v.c.im = -alpha.v.c.im;
            } else {
                alpha.kind = TSR_SCALAR_INT;
                alpha.v.i = tsr__cu_wrap_neg(alpha.v.i);
            }
        }
        ctx->alpha = tsr__cu_scalar_as_dtype(&alpha, dtype);
        break;
    }
    case TSR_OP_DIV:
        if (mode != TSR_ROUND_NONE && mode != TSR_ROUND_TRUNC && mode != TSR_ROUND_FLOOR) {
            snprintf(message, capacity, "div: unknown rounding mode %d", (int)mode);
            return TSR_ERR_INVALID_ARGUMENT;
        }
        if ((mode != TSR_ROUND_NONE && cat == TSR__CU_COMPLEX) ||
            (mode == TSR_ROUND_NONE && cat == TSR__CU_INTEGER)) {
            snprintf(message, capacity, "div with rounding mode %d is not defined for dtype %d",
                     (int)mode, (int)dtype);
            return TSR_ERR_DTYPE;
        }
        ctx->mode = mode;
        *check_zero_divisor = cat == TSR__CU_INTEGER;
        break;
    case TSR_OP_FLOOR_DIVIDE:
    case TSR_OP_REMAINDER:
    case TSR_OP_FMOD:
        *check_zero_divisor = cat == TSR__CU_INTEGER;
        break;
    case TSR_OP_CLAMP:
        if (mode & ~(TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX | TSR_CLAMP_SCALAR_BOUNDS)) {
            snprintf(message, capacity, "clamp: unknown mode bits 0x%x", (unsigned)mode);
            return TSR_ERR_INVALID_ARGUMENT;
        }
        ctx->mode = mode;
        break;
    case TSR_OP_GELU:
        if (mode != TSR_GELU_NONE && mode != TSR_GELU_TANH) {
            snprintf(message, capacity, "gelu: unknown approximation %d", (int)mode);
            return TSR_ERR_INVALID_ARGUMENT;
        }
        ctx->mode = mode;
        break;
    case TSR_OP_FMAX:
    case TSR_OP_FMIN:
        ctx->mode = dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16;
        break;
    case TSR_OP_BITWISE_LEFT_SHIFT:
    case TSR_OP_BITWISE_RIGHT_SHIFT:
        ctx->mode = dtype == TSR_INT64 ? 63 : 31;
        break;
    case TSR_OP_ROUND:
        ctx->mode = mode; /* decimals */
        if (mode != 0)
            p[0].f = tsr__cu_round_to(dtype, pow(10.0, mode < 0 ? -(double)mode : (double)mode));
        break;
    case TSR_OP_NAN_TO_NUM: {
        const double defaults[3] = {0.0, largest_finite(dtype), -largest_finite(dtype)};
        for (int k = 0; k < 3; k++) {
            tsr_scalar s = attr_scalar(attrs, k, float_scalar(defaults[k]));
            p[k] = tsr__cu_scalar_as_dtype(&s, dtype);
        }
        break;
    }
    case TSR_OP_SOFTPLUS:
    case TSR_OP_LEAKY_RELU:
    case TSR_OP_ELU:
    case TSR_OP_HARDTANH: {
        double defaults[3] = {1.0, 1.0, 1.0};
        if (op->op == TSR_OP_SOFTPLUS)
            defaults[1] = 20.0;
        if (op->op == TSR_OP_LEAKY_RELU)
            defaults[0] = 0.01;
        if (op->op == TSR_OP_HARDTANH)
            defaults[0] = -1.0;
        for (int k = 0; k < 3; k++) {
            tsr_scalar s = attr_scalar(attrs, k, float_scalar(defaults[k]));
            p[k] = tsr__cu_scalar_as_dtype(&s, dtype);
        }
        if (op->op == TSR_OP_ELU) /* alpha * scale, once, in the element type */
            p[0].f = tsr__cu_round_to(dtype, p[0].f * p[1].f);
        break;
    }
    case TSR_OP_LERP:
        if (mode & ~TSR_LERP_SCALAR_WEIGHT) {
            snprintf(message, capacity, "lerp: unknown mode bits 0x%x", (unsigned)mode);
            return TSR_ERR_INVALID_ARGUMENT;
        }
        ctx->mode = mode;
        if (mode & TSR_LERP_SCALAR_WEIGHT) { /* the opmath precision: float but for float64 */
            tsr_scalar w = attr_scalar(attrs, 0, int_scalar(0));
            p[0].f = dtype == TSR_FLOAT64 ? scalar_real(&w) : (double)(float)scalar_real(&w);
        }
        break;
    case TSR_OP_ADDCMUL:
    case TSR_OP_ADDCDIV: {
        tsr_scalar v = attr_scalar(attrs, 0, int_scalar(1));
        p[0] = tsr__cu_scalar_as_dtype(&v, dtype);
        break;
    }
    default:
        break;
    }
    return TSR_OK;
}
