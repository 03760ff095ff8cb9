/* Every differentiable foundation op: autograd's Jacobian against central
 * finite differences in float64 (tsr_gradcheck), and the Jacobian of the
 * gradient itself (double backward) for the ops whose formula is built from
 * differentiable ops. Inputs stay away from kinks (abs, relu and clamp at
 * their corners, ties of maximum) where the two cannot agree. */
#include "check.h"
#include "grad_harness.h"

#include <stdlib.h>

/* ---- inputs ------------------------------------------------------------- */

typedef struct input_spec {
    int ndim;
    int64_t shape[4];
    const double *values; /* NULL: a fixed pseudo-random pattern */
    bool constant;        /* does not require grad */
    double low, high;     /* range of the pattern (default -1.5 .. 1.5) */
} input_spec;

static tsr_tensor *make_input(const input_spec *spec, int salt)
{
    int64_t n = 1;
    for (int i = 0; i < spec->ndim; i++)
        n *= spec->shape[i];
    double v[64];
    double low = spec->low, high = spec->high;
    if (low == 0 && high == 0)
        low = -1.5, high = 1.5;
    for (int64_t i = 0; i < n && i < 64; i++) {
        /* distinct values spread over [low, high], no two equal */
        double u = (double)((i * 37 + salt * 11) % 61) / 61.0 + 0.003 * (double)i;
        v[i] = spec->values ? spec->values[i] : low + (high - low) * (u - (double)(int)u);
    }
    tsr_tensor *t = NULL;
    CHECK_OK(
        tsr_from_host(v, (size_t)n * sizeof *v, spec->ndim, spec->shape, TSR_FLOAT64, NULL, &t));
    if (t && !spec->constant)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* ---- the functions under test ------------------------------------------ */

typedef tsr_status (*op_fn)(const tsr_tensor *const *in, tsr_tensor **out);

typedef struct grad_case {
    const char *name;
    op_fn fn;
    int n;
    input_spec inputs[3];
    bool no_double; /* the gradient is not differentiable (or trivially zero) */
    double eps;
} grad_case;

static tsr_operand T(const tsr_tensor *t)
{
    return tsr_operand_tensor(t);
}

static tsr_operand F(double v)
{
    return tsr_operand_scalar(tsr_scalar_float(v));
}

static tsr_status f_add(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_add(in[0], in[1], out);
}
static tsr_status f_add_alpha(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_add_scaled(T(in[0]), T(in[1]), tsr_scalar_float(2.5), out);
}
static tsr_status f_add_scalar(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_ADD, F(0.75), T(in[0]), out);
}
static tsr_status f_sub(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_sub(in[0], in[1], out);
}
static tsr_status f_sub_alpha(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_sub_scaled(T(in[0]), T(in[1]), tsr_scalar_int(3), out);
}
static tsr_status f_mul(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_mul(in[0], in[1], out);
}
static tsr_status f_mul_scalar(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_MUL, T(in[0]), F(-1.25), out);
}
static tsr_status f_div(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_div(in[0], in[1], out);
}
static tsr_status f_div_scalar_numerator(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_DIV, F(2.0), T(in[0]), out);
}
static tsr_status f_div_floor(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_div_rounding(T(in[0]), T(in[1]), TSR_ROUND_FLOOR, out);
}
static tsr_status f_floor_divide(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_FLOOR_DIVIDE, T(in[0]), T(in[1]), out);
}
static tsr_status f_remainder(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_REMAINDER, T(in[0]), T(in[1]), out);
}
static tsr_status f_pow(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_POW, T(in[0]), T(in[1]), out);
}
static tsr_status f_pow_float(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_POW, T(in[0]), F(2.5), out);
}
static tsr_status f_pow_int(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_POW, T(in[0]), tsr_operand_scalar(tsr_scalar_int(3)), out);
}
static tsr_status f_pow_scalar_base(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_POW, F(1.7), T(in[0]), out);
}
static tsr_status f_maximum(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_MAXIMUM, T(in[0]), T(in[1]), out);
}
static tsr_status f_minimum(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_MINIMUM, T(in[0]), T(in[1]), out);
}

#define UNARY(fname, op)                                                                           \
    static tsr_status fname(const tsr_tensor *const *in, tsr_tensor **out)                         \
    {                                                                                              \
        return tsr_unary(op, in[0], out);                                                          \
    }
UNARY(f_neg, TSR_OP_NEG)
UNARY(f_abs, TSR_OP_ABS)
UNARY(f_sign, TSR_OP_SIGN)
UNARY(f_exp, TSR_OP_EXP)
UNARY(f_log, TSR_OP_LOG)
UNARY(f_log1p, TSR_OP_LOG1P)
UNARY(f_expm1, TSR_OP_EXPM1)
UNARY(f_sqrt, TSR_OP_SQRT)
UNARY(f_rsqrt, TSR_OP_RSQRT)
UNARY(f_sin, TSR_OP_SIN)
UNARY(f_cos, TSR_OP_COS)
UNARY(f_tanh, TSR_OP_TANH)
UNARY(f_sigmoid, TSR_OP_SIGMOID)
UNARY(f_relu, TSR_OP_RELU)
UNARY(f_erf, TSR_OP_ERF)

static tsr_status f_gelu(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_gelu(in[0], TSR_GELU_NONE, out);
}
static tsr_status f_gelu_tanh(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_gelu(in[0], TSR_GELU_TANH, out);
}

static tsr_status f_where(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *cond = NULL;
    tsr_status st = tsr_binary(TSR_OP_GT, T(in[0]), F(0), &cond);
    if (st == TSR_OK)
        st = tsr_where(cond, T(in[1]), T(in[2]), out);
    tsr_tensor_release(cond);
    return st;
}
static tsr_status f_where_scalar(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *cond = NULL;
    tsr_status st = tsr_binary(TSR_OP_LT, T(in[0]), F(0.2), &cond);
    if (st == TSR_OK)
        st = tsr_where(cond, F(4), T(in[0]), out);
    tsr_tensor_release(cond);
    return st;
}
static tsr_status f_clamp(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_operand lo = F(-0.52), hi = F(0.61);
    return tsr_clamp(in[0], &lo, &hi, out);
}
static tsr_status f_clamp_min(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_operand lo = F(0.13);
    return tsr_clamp(in[0], &lo, NULL, out);
}
static tsr_status f_clamp_tensors(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_operand lo = T(in[1]), hi = T(in[2]);
    return tsr_clamp(in[0], &lo, &hi, out);
}

static tsr_status f_to_float32(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *narrow = NULL;
    tsr_status st = tsr_to_dtype(in[0], TSR_FLOAT32, &narrow);
    tsr_tensor *sq = NULL;
    if (st == TSR_OK)
        st = tsr_mul(narrow, narrow, &sq); /* in float32 */
    if (st == TSR_OK)
        st = tsr_to_dtype(sq, TSR_FLOAT64, out);
    tsr_tensor_release(narrow);
    tsr_tensor_release(sq);
    return st;
}
static tsr_status f_contiguous(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *t = NULL, *c = NULL;
    tsr_status st = tsr_transpose(in[0], 0, 1, &t);
    if (st == TSR_OK)
        st = tsr_contiguous(t, &c);
    if (st == TSR_OK)
        st = tsr_mul(c, c, out);
    tsr_tensor_release(t);
    tsr_tensor_release(c);
    return st;
}
static tsr_status f_clone(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *c = NULL;
    tsr_status st = tsr_clone(in[0], &c);
    if (st == TSR_OK)
        st = tsr_mul(c, in[0], out);
    tsr_tensor_release(c);
    return st;
}

/* Views are linear: each is followed by a product with a fixed pattern so
 * that every element of the result has its own weight. */
static tsr_status weighted(tsr_tensor *v, tsr_tensor **out)
{
    if (!v)
        return TSR_ERR_INVALID_ARGUMENT;
    int64_t n = tsr_tensor_numel(v);
    double w[64];
    for (int64_t i = 0; i < n && i < 64; i++)
        w[i] = 1 + 0.5 * (double)i;
    tsr_tensor *wt = NULL;
    tsr_status st = tsr_from_host(w, (size_t)n * sizeof *w, tsr_tensor_ndim(v), tsr_tensor_shape(v),
                                  TSR_FLOAT64, NULL, &wt);
    if (st == TSR_OK)
        st = tsr_mul(v, wt, out);
    tsr_tensor_release(wt);
    tsr_tensor_release(v);
    return st;
}

#define VIEW(fname, call)                                                                          \
    static tsr_status fname(const tsr_tensor *const *in, tsr_tensor **out)                         \
    {                                                                                              \
        tsr_tensor *v = NULL;                                                                      \
        tsr_status st = call;                                                                      \
        return st == TSR_OK ? weighted(v, out) : st;                                               \
    }
VIEW(f_view, tsr_view(in[0], 2, (int64_t[]){3, 2}, &v))
VIEW(f_reshape_copy, tsr_reshape(in[0], 1, (int64_t[]){-1}, &v))
VIEW(f_transpose, tsr_transpose(in[0], 0, 1, &v))
VIEW(f_permute, tsr_permute(in[0], 3, (int64_t[]){2, 0, 1}, &v))
VIEW(f_expand, tsr_expand(in[0], 3, (int64_t[]){2, 3, -1}, &v))
VIEW(f_narrow, tsr_narrow(in[0], 1, 1, 2, &v))
VIEW(f_slice_step, tsr_slice(in[0], 0, 0, 5, 2, &v))
VIEW(f_squeeze, tsr_squeeze(in[0], &v))
VIEW(f_squeeze_dim, tsr_squeeze_dim(in[0], 1, &v))
VIEW(f_unsqueeze, tsr_unsqueeze(in[0], -1, &v))
VIEW(f_diagonal, tsr_diagonal(in[0], 1, 0, 1, &v))
VIEW(f_diagonal_below, tsr_diagonal(in[0], -1, 1, 0, &v))
VIEW(f_flatten, tsr_flatten(in[0], 0, -1, &v))
VIEW(f_unflatten, tsr_unflatten(in[0], 1, 2, (int64_t[]){2, 2}, &v))

/* reshape of a transposed tensor copies instead of viewing */
static tsr_status f_reshape_of_transpose(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *t = NULL;
    tsr_status st = tsr_transpose(in[0], 0, 1, &t);
    if (st == TSR_OK)
        st = f_reshape_copy((const tsr_tensor *const *)&t, out);
    tsr_tensor_release(t);
    return st;
}

/* In-place ops on a non-leaf: y = x * 1.5 (a fresh tensor with history),
 * then y.OP_(other). */
static tsr_status inplace(const tsr_tensor *const *in, tsr_op op, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = tsr_binary(TSR_OP_MUL, T(in[0]), F(1.5), &y);
    if (st == TSR_OK) {
        if (op == TSR_OP_ADD)
            st = tsr_add_(y, T(in[1]), tsr_scalar_float(-0.5));
        else if (op == TSR_OP_CLAMP) {
            tsr_operand lo = F(-0.4), hi = T(in[1]);
            st = tsr_clamp_(y, &lo, &hi);
        } else if (op == TSR_OP_COPY)
            st = tsr_copy_(y, in[1]);
        else if (op == TSR_OP_FILL)
            st = tsr_fill_(y, tsr_scalar_float(2));
        else
            st = tsr_binary_(op, y, T(in[1]));
    }
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

#define INPLACE(fname, op)                                                                         \
    static tsr_status fname(const tsr_tensor *const *in, tsr_tensor **out)                         \
    {                                                                                              \
        return inplace(in, op, out);                                                               \
    }
INPLACE(f_add_, TSR_OP_ADD)
INPLACE(f_sub_, TSR_OP_SUB)
INPLACE(f_mul_, TSR_OP_MUL)
INPLACE(f_div_, TSR_OP_DIV)
INPLACE(f_pow_, TSR_OP_POW)
INPLACE(f_maximum_, TSR_OP_MAXIMUM)
INPLACE(f_clamp_, TSR_OP_CLAMP)
INPLACE(f_copy_, TSR_OP_COPY)
INPLACE(f_fill_, TSR_OP_FILL)

/* ---- the table ---------------------------------------------------------- */

#define IN(nd, ...)                                                                                \
    {                                                                                              \
        .ndim = nd, .shape = { __VA_ARGS__ }                                                       \
    }
#define POS(nd, ...)                                                                               \
    {                                                                                              \
        .ndim = nd, .shape = {__VA_ARGS__}, .low = 0.3, .high = 2.5                                \
    }
#define CONST_POS(nd, ...)                                                                         \
    {                                                                                              \
        .ndim = nd, .shape = {__VA_ARGS__}, .low = 0.3, .high = 2.5, .constant = true              \
    }

static const double AWAY_FROM_ZERO[6] = {-1.3, -0.7, -0.2, 0.3, 0.9, 1.4};
static const double AWAY_FROM_BOUNDS[6] = {-1.1, -0.45, -0.1, 0.2, 0.58, 1.2};
static const double MAX_LEFT[6] = {0.1, -0.4, 0.9, 1.3, -1.2, 0.5};
static const double MAX_RIGHT[6] = {0.3, -0.9, 0.2, 1.5, -0.8, 0.0};

static const grad_case CASES[] = {
    {.name = "add (broadcast)", .fn = f_add, .n = 2, .inputs = {IN(2, 2, 3), IN(1, 3)}},
    {.name = "add alpha", .fn = f_add_alpha, .n = 2, .inputs = {IN(2, 2, 3), IN(2, 2, 1)}},
    {.name = "add scalar", .fn = f_add_scalar, .n = 1, .inputs = {IN(1, 4)}},
    {.name = "sub", .fn = f_sub, .n = 2, .inputs = {IN(1, 3), IN(2, 2, 3)}},
    {.name = "sub alpha", .fn = f_sub_alpha, .n = 2, .inputs = {IN(1, 3), IN(1, 3)}},
    {.name = "mul (broadcast)", .fn = f_mul, .n = 2, .inputs = {IN(2, 2, 1), IN(2, 1, 3)}},
    {.name = "mul 0-d", .fn = f_mul, .n = 2, .inputs = {IN(0), IN(2, 2, 2)}},
    {.name = "mul scalar", .fn = f_mul_scalar, .n = 1, .inputs = {IN(1, 3)}},
    {.name = "div", .fn = f_div, .n = 2, .inputs = {IN(2, 2, 3), POS(1, 3)}},
    {.name = "div scalar numerator", .fn = f_div_scalar_numerator, .n = 1, .inputs = {POS(1, 4)}},
    {.name = "div floor",
     .fn = f_div_floor,
     .n = 2,
     .inputs = {{.ndim = 1, .shape = {3}, .values = (const double[]){1.3, -2.6, 4.2}},
                CONST_POS(1, 3)},
     .no_double = true},
    {.name = "floor_divide",
     .fn = f_floor_divide,
     .n = 2,
     .inputs = {{.ndim = 1, .shape = {3}, .values = (const double[]){1.3, -2.6, 4.2}},
                CONST_POS(1, 3)},
     .no_double = true},
    {.name = "remainder",
     .fn = f_remainder,
     .n = 2,
     .inputs = {{.ndim = 1, .shape = {3}, .values = (const double[]){1.3, -2.6, 4.2}},
                {.ndim = 1, .shape = {3}, .values = (const double[]){0.7, 0.9, 1.9}}}},
    {.name = "pow", .fn = f_pow, .n = 2, .inputs = {POS(2, 2, 3), IN(1, 3)}},
    {.name = "pow float exponent", .fn = f_pow_float, .n = 1, .inputs = {POS(1, 4)}},
    {.name = "pow int exponent", .fn = f_pow_int, .n = 1, .inputs = {IN(1, 4)}},
    {.name = "pow scalar base", .fn = f_pow_scalar_base, .n = 1, .inputs = {IN(1, 4)}},
    {.name = "maximum",
     .fn = f_maximum,
     .n = 2,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = MAX_LEFT},
                {.ndim = 2, .shape = {2, 3}, .values = MAX_RIGHT}}},
    {.name = "minimum",
     .fn = f_minimum,
     .n = 2,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = MAX_LEFT},
                {.ndim = 2, .shape = {2, 3}, .values = MAX_RIGHT}}},
    {.name = "neg", .fn = f_neg, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "abs",
     .fn = f_abs,
     .n = 1,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_ZERO}}},
    {.name = "sign",
     .fn = f_sign,
     .n = 1,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_ZERO}},
     .no_double = true},
    {.name = "exp", .fn = f_exp, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "log", .fn = f_log, .n = 1, .inputs = {POS(2, 2, 3)}},
    {.name = "log1p", .fn = f_log1p, .n = 1, .inputs = {POS(2, 2, 3)}},
    {.name = "expm1", .fn = f_expm1, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "sqrt", .fn = f_sqrt, .n = 1, .inputs = {POS(2, 2, 3)}},
    {.name = "rsqrt", .fn = f_rsqrt, .n = 1, .inputs = {POS(2, 2, 3)}},
    {.name = "sin", .fn = f_sin, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "cos", .fn = f_cos, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "tanh", .fn = f_tanh, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "sigmoid", .fn = f_sigmoid, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "relu",
     .fn = f_relu,
     .n = 1,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_ZERO}},
     .no_double = true},
    {.name = "gelu", .fn = f_gelu, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "gelu tanh", .fn = f_gelu_tanh, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "erf", .fn = f_erf, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "where",
     .fn = f_where,
     .n = 3,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_ZERO}, IN(2, 2, 3), IN(1, 3)}},
    {.name = "where scalar",
     .fn = f_where_scalar,
     .n = 1,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_ZERO}}},
    {.name = "clamp",
     .fn = f_clamp,
     .n = 1,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_BOUNDS}},
     .no_double = true},
    {.name = "clamp min",
     .fn = f_clamp_min,
     .n = 1,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_BOUNDS}},
     .no_double = true},
    {.name = "clamp tensors",
     .fn = f_clamp_tensors,
     .n = 3,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_BOUNDS},
                {.ndim = 1, .shape = {3}, .values = (const double[]){-0.5, 0.0, -2.0}},
                {.ndim = 2, .shape = {2, 1}, .values = (const double[]){0.4, 1.0}}},
     .no_double = true},
    {.name = "to float32 and back",
     .fn = f_to_float32,
     .n = 1,
     .inputs = {IN(1, 4)},
     .eps = 1e-2,
     .no_double = true},
    {.name = "contiguous", .fn = f_contiguous, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "clone", .fn = f_clone, .n = 1, .inputs = {IN(2, 3, 2)}},
    {.name = "view", .fn = f_view, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "reshape (copy)", .fn = f_reshape_of_transpose, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "transpose", .fn = f_transpose, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "permute", .fn = f_permute, .n = 1, .inputs = {IN(3, 2, 1, 3)}},
    {.name = "expand", .fn = f_expand, .n = 1, .inputs = {IN(2, 3, 1)}},
    {.name = "narrow", .fn = f_narrow, .n = 1, .inputs = {IN(2, 2, 4)}},
    {.name = "slice with step", .fn = f_slice_step, .n = 1, .inputs = {IN(2, 5, 2)}},
    {.name = "squeeze", .fn = f_squeeze, .n = 1, .inputs = {IN(3, 2, 1, 3)}},
    {.name = "squeeze dim", .fn = f_squeeze_dim, .n = 1, .inputs = {IN(3, 2, 1, 3)}},
    {.name = "unsqueeze", .fn = f_unsqueeze, .n = 1, .inputs = {IN(2, 2, 3)}},
    {.name = "diagonal", .fn = f_diagonal, .n = 1, .inputs = {IN(2, 3, 4)}},
    {.name = "diagonal below", .fn = f_diagonal_below, .n = 1, .inputs = {IN(3, 3, 4, 2)}},
    {.name = "flatten", .fn = f_flatten, .n = 1, .inputs = {IN(3, 2, 2, 2)}},
    {.name = "unflatten", .fn = f_unflatten, .n = 1, .inputs = {IN(2, 2, 4)}},
    {.name = "add_", .fn = f_add_, .n = 2, .inputs = {IN(2, 2, 3), IN(1, 3)}},
    {.name = "sub_", .fn = f_sub_, .n = 2, .inputs = {IN(2, 2, 3), IN(2, 2, 3)}},
    {.name = "mul_", .fn = f_mul_, .n = 2, .inputs = {IN(2, 2, 3), IN(2, 2, 1)}},
    {.name = "div_", .fn = f_div_, .n = 2, .inputs = {IN(2, 2, 3), POS(1, 3)}},
    {.name = "pow_", .fn = f_pow_, .n = 2, .inputs = {POS(1, 4), IN(1, 4)}},
    {.name = "maximum_",
     .fn = f_maximum_,
     .n = 2,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = MAX_LEFT},
                {.ndim = 2, .shape = {2, 3}, .values = MAX_RIGHT}}},
    {.name = "clamp_",
     .fn = f_clamp_,
     .n = 2,
     .inputs = {{.ndim = 2, .shape = {2, 3}, .values = AWAY_FROM_BOUNDS},
                {.ndim = 1, .shape = {3}, .values = (const double[]){0.2, 1.5, 0.5}}},
     .no_double = true},
    {.name = "copy_", .fn = f_copy_, .n = 2, .inputs = {IN(2, 2, 3), IN(1, 3)}},
    {.name = "fill_", .fn = f_fill_, .n = 1, .inputs = {IN(2, 2, 3)}, .no_double = true},
};

/* ---- running ------------------------------------------------------------ */

static unsigned constant_mask(const input_spec *inputs, int n)
{
    unsigned mask = 0;
    for (int i = 0; i < n; i++)
        mask |= inputs[i].constant ? 1u << i : 0u;
    return mask;
}

static void run_case(const grad_case *c, bool second_order)
{
    tsr_tensor *inputs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < c->n; i++)
        inputs[i] = make_input(&c->inputs[i], i + 1);
    grad_harness h = {c->name, c->fn, c->n, constant_mask(c->inputs, c->n), c->eps};
    grad_harness_check(&h, inputs, second_order);
    for (int i = 0; i < c->n; i++)
        tsr_tensor_release(inputs[i]);
}

static void every_op_matches_finite_differences(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run_case(&CASES[i], false);
}

static void every_gradient_matches_finite_differences_of_itself(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        if (!CASES[i].no_double && !CASES[i].inputs[0].constant)
            run_case(&CASES[i], true);
    }
}

static tsr_status f_bad_gradient(void *context, const tsr_tensor *const *in, int n,
                                 tsr_tensor **out)
{
    (void)context, (void)n;
    /* x * detach(x): autograd sees x, finite differences see x^2 */
    tsr_tensor *d = NULL;
    tsr_status st = tsr_detach(in[0], &d);
    if (st == TSR_OK)
        st = tsr_mul(in[0], d, out);
    tsr_tensor_release(d);
    return st;
}

static void gradcheck_reports_a_wrong_gradient(void)
{
    input_spec spec = IN(1, 3);
    tsr_tensor *x = make_input(&spec, 1);
    double worst = 0;
    CHECK_ERROR(tsr_gradcheck(f_bad_gradient, NULL, (const tsr_tensor *const *)&x, 1, NULL, &worst),
                TSR_ERR_AUTOGRAD, "Jacobian mismatch for input 0");
    CHECK_TRUE(worst > 0.1);
    tsr_tensor_release(x);
}

int main(void)
{
    RUN_TEST(every_op_matches_finite_differences);
    RUN_TEST(every_gradient_matches_finite_differences_of_itself);
    RUN_TEST(gradcheck_reports_a_wrong_gradient);
    return check_summary("test_gradcheck");
}
