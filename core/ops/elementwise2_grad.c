/* Gradients of the second elementwise family, as PyTorch 1.13's
 * derivatives.yaml states them, and the records of its ops. One node kind
 * serves every op: its attributes keep the op, its parameters and any
 * Python-scalar operands; a table gives each op's formula and what it saves.
 * Piecewise-constant ops (floor, ceil, round, trunc) have zero gradients;
 * copysign's gradient for `other` is zero. */
#include "autograd/graph.h"
#include "ops/elementwise.h"
#include "runtime/error.h"
#include "ops/grad_expr.h"

#include <math.h>

static const double LN2 = 0.69314718055994530942;
static const double LN10 = 2.30258509299404568402;
static const double TWO_OVER_SQRT_PI = 1.12837916709551257390;

typedef struct ew2_attrs {
    tsr_op op;
    tsr_elementwise_attrs attrs; /* the op's parameters */
    bool scalar[3];              /* operand k was a Python scalar, kept in value[k] */
    tsr_scalar value[3];
} ew2_attrs;

/* Saved slots: the inputs by position, then the result. */
enum { SAVED_RESULT = 3, SAVED_SLOTS = 4 };
enum { SAVES_0 = 1 << 0, SAVES_1 = 1 << 1, SAVES_2 = 1 << 2, SAVES_RESULT = 1 << SAVED_RESULT };

/* ---- building blocks ---------------------------------------------------- */

/* Operands, saved tensors and parameters reach the formulas conjugated when
 * complex: PyTorch's complex formula is `grad * f'(x).conj()`, and for the
 * ops marked complex in the table f' has real coefficients, so
 * f'(x).conj() = f'(conj x). Real values pass unchanged. */
static tsr_operand operand(tsr__gx *x, tsr__node *node, int k)
{
    const ew2_attrs *at = tsr__node_attrs(node);
    if (at->scalar[k])
        return tsr_operand_scalar(tsr__gx_conj_scalar(at->value[k]));
    return tsr_operand_tensor(tsr__gx_conj(x, tsr__gx_saved(x, node, k)));
}

static tsr_tensor *saved(tsr__gx *x, tsr__node *node, int slot)
{
    return tsr__gx_conj(x, tsr__gx_saved(x, node, slot));
}

static tsr_tensor *times(tsr__gx *x, const tsr_tensor *g, tsr_operand o)
{
    if (!g)
        return NULL;
    return tsr__gx_binary(x, TSR_OP_MUL, tsr_operand_tensor(g), o);
}

static tsr_tensor *unary(tsr__gx *x, tsr_op op, const tsr_tensor *t)
{
    return tsr__gx_unary(x, op, t);
}

static tsr_tensor *square(tsr__gx *x, const tsr_tensor *t)
{
    return tsr__gx_mul(x, t, t);
}

static tsr_tensor *compare(tsr__gx *x, tsr_op op, tsr_operand a, tsr_operand b)
{
    return tsr__gx_binary(x, op, a, b);
}

static tsr_operand param(const tsr__node *node, int k)
{
    const ew2_attrs *at = tsr__node_attrs((tsr__node *)node);
    return tsr_operand_scalar(tsr__gx_conj_scalar(at->attrs.scalars[k]));
}

static double param_value(const tsr__node *node, int k)
{
    const ew2_attrs *at = tsr__node_attrs((tsr__node *)node);
    tsr_scalar s = at->attrs.scalars[k];
    return s.kind == TSR_SCALAR_FLOAT     ? s.v.f
           : s.kind == TSR_SCALAR_COMPLEX ? s.v.c.re
                                          : (double)s.v.i;
}

/* ---- unary formulas: d(op)/dx times g ----------------------------------- */

typedef tsr_tensor *(*grad_fn)(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input);

static tsr_tensor *exp2_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_scale(x, tsr__gx_mul(x, g, saved(x, node, SAVED_RESULT)), LN2);
}

static tsr_tensor *log2_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_div(x, g, tsr__gx_scale(x, saved(x, node, 0), LN2));
}

static tsr_tensor *log10_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_div(x, g, tsr__gx_scale(x, saved(x, node, 0), LN10));
}

/* g (1 + tan(x)^2), from the result. */
static tsr_tensor *tan_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *y = saved(x, node, SAVED_RESULT);
    return tsr__gx_mul(x, g, tsr__gx_add_scalar(x, square(x, y), 1));
}

/* g / sqrt(1 - x^2), negated for acos. */
static tsr_tensor *asin_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *root =
        unary(x, TSR_OP_RSQRT, tsr__gx_rsub_scalar(x, 1, square(x, saved(x, node, 0))));
    tsr_tensor *d = tsr__gx_mul(x, g, root);
    const ew2_attrs *at = tsr__node_attrs(node);
    return at->op == TSR_OP_ACOS ? unary(x, TSR_OP_NEG, d) : d;
}

static tsr_tensor *atan_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_div(x, g, tsr__gx_add_scalar(x, square(x, saved(x, node, 0)), 1));
}

/* sinh' = cosh, cosh' = sinh. */
static tsr_tensor *hyperbolic_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    const ew2_attrs *at = tsr__node_attrs(node);
    tsr_op derivative = at->op == TSR_OP_SINH ? TSR_OP_COSH : TSR_OP_SINH;
    return tsr__gx_mul(x, g, unary(x, derivative, saved(x, node, 0)));
}

/* asinh: g / sqrt(x^2 + 1); acosh: g / sqrt(x^2 - 1). */
static tsr_tensor *inverse_hyperbolic_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g,
                                           int input)
{
    (void)input;
    const ew2_attrs *at = tsr__node_attrs(node);
    double shift = at->op == TSR_OP_ASINH ? 1 : -1;
    tsr_tensor *s = tsr__gx_add_scalar(x, square(x, saved(x, node, 0)), shift);
    return tsr__gx_mul(x, g, unary(x, TSR_OP_RSQRT, s));
}

static tsr_tensor *atanh_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_div(x, g, tsr__gx_rsub_scalar(x, 1, square(x, saved(x, node, 0))));
}

/* -2/sqrt(pi) exp(-x^2) g */
static tsr_tensor *erfc_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *e = unary(x, TSR_OP_EXP, unary(x, TSR_OP_NEG, square(x, saved(x, node, 0))));
    return tsr__gx_scale(x, tsr__gx_mul(x, g, e), -TWO_OVER_SQRT_PI);
}

/* g sigmoid(x) (1 + x (1 - sigmoid(x))) */
static tsr_tensor *silu_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *v = saved(x, node, 0);
    tsr_tensor *s = unary(x, TSR_OP_SIGMOID, v);
    tsr_tensor *inner = tsr__gx_add_scalar(x, tsr__gx_mul(x, v, tsr__gx_rsub_scalar(x, 1, s)), 1);
    return tsr__gx_mul(x, g, tsr__gx_mul(x, s, inner));
}

/* beta x > threshold ? g : g z / (z + 1) with z = exp(beta x). */
static tsr_tensor *softplus_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *scaled = times(x, saved(x, node, 0), param(node, 0));
    tsr_tensor *z = unary(x, TSR_OP_EXP, scaled);
    tsr_tensor *soft = tsr__gx_mul(x, g, tsr__gx_div(x, z, tsr__gx_add_scalar(x, z, 1)));
    tsr_tensor *linear = compare(x, TSR_OP_GT, tsr_operand_tensor(scaled), param(node, 1));
    return tsr__gx_where(x, linear, tsr_operand_tensor(g), tsr_operand_tensor(soft));
}

static tsr_tensor *leaky_relu_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *positive = compare(x, TSR_OP_GT, tsr_operand_tensor(saved(x, node, 0)),
                                   tsr_operand_scalar(tsr_scalar_int(0)));
    return tsr__gx_where(x, positive, tsr_operand_tensor(g),
                         tsr_operand_tensor(times(x, g, param(node, 0))));
}

/* x <= 0 ? g input_scale alpha scale exp(x input_scale) : g scale. */
static tsr_tensor *elu_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *v = saved(x, node, 0);
    double alpha = param_value(node, 0), scale = param_value(node, 1);
    double input_scale = param_value(node, 2);
    tsr_tensor *e = unary(x, TSR_OP_EXP, tsr__gx_scale(x, v, input_scale));
    tsr_tensor *negative = tsr__gx_scale(x, tsr__gx_mul(x, g, e), input_scale * alpha * scale);
    tsr_tensor *is_negative =
        compare(x, TSR_OP_LE, tsr_operand_tensor(v), tsr_operand_scalar(tsr_scalar_int(0)));
    return tsr__gx_where(x, is_negative, tsr_operand_tensor(negative),
                         tsr_operand_tensor(tsr__gx_scale(x, g, scale)));
}

/* g strictly inside (min_val, max_val), 0 at and beyond the bounds. */
static tsr_tensor *hardtanh_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_operand v = tsr_operand_tensor(saved(x, node, 0));
    tsr_tensor *above = compare(x, TSR_OP_GT, v, param(node, 0));
    tsr_tensor *below = compare(x, TSR_OP_LT, v, param(node, 1));
    tsr_tensor *inside =
        tsr__gx_binary(x, TSR_OP_LOGICAL_AND, tsr_operand_tensor(above), tsr_operand_tensor(below));
    return tsr__gx_mask(x, inside, g);
}

static tsr_tensor *zero_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)node, (void)input;
    return tsr__gx_zeros_like(x, g);
}

static tsr_tensor *identity_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)x, (void)node, (void)input;
    return (tsr_tensor *)g;
}

/* -g y^2 */
static tsr_tensor *reciprocal_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    tsr_tensor *y = saved(x, node, SAVED_RESULT);
    return unary(x, TSR_OP_NEG, tsr__gx_mul(x, g, square(x, y)));
}

static tsr_tensor *square_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_scale(x, tsr__gx_mul(x, g, saved(x, node, 0)), 2);
}

/* g where x was finite; replaced values get nothing. */
static tsr_tensor *nan_to_num_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    (void)input;
    return tsr__gx_mask(x, unary(x, TSR_OP_ISFINITE, saved(x, node, 0)), g);
}

/* ---- binary formulas ---------------------------------------------------- */

/* self: g; other: -g trunc(self / other). */
static tsr_tensor *fmod_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    if (input == 0)
        return (tsr_tensor *)g;
    tsr_tensor *q = NULL;
    tsr_operand a = operand(x, node, 0), b = operand(x, node, 1);
    if (x->status == TSR_OK) {
        /* two statements: C leaves the order of argument evaluation open */
        tsr_status st = tsr_div_rounding(a, b, TSR_ROUND_TRUNC, &q);
        q = tsr__gx_keep(x, st, q);
    }
    return unary(x, TSR_OP_NEG, tsr__gx_mul(x, g, q));
}

/* o * o, as a tensor or (for a Python scalar) a scalar. */
static tsr_operand squared(tsr__gx *x, tsr_operand o)
{
    if (o.tensor)
        return tsr_operand_tensor(square(x, o.tensor));
    double v = o.scalar.kind == TSR_SCALAR_FLOAT ? o.scalar.v.f : (double)o.scalar.v.i;
    return tsr_operand_scalar(tsr_scalar_float(v * v));
}

/* self: g other / (self^2 + other^2); other: -g self / (self^2 + other^2). */
static tsr_tensor *atan2_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    tsr_operand a = operand(x, node, 0), b = operand(x, node, 1);
    tsr_tensor *denominator = tsr__gx_binary(x, TSR_OP_ADD, squared(x, a), squared(x, b));
    tsr_tensor *d = tsr__gx_div(x, times(x, g, input == 0 ? b : a), denominator);
    return input == 0 ? d : unary(x, TSR_OP_NEG, d);
}

/* g x / hypot(x, y) for either side. */
static tsr_tensor *hypot_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    tsr_tensor *side = times(x, g, operand(x, node, input));
    return tsr__gx_div(x, side, saved(x, node, SAVED_RESULT));
}

/* self: g result / self, 0 where self == 0; other: 0. */
static tsr_tensor *copysign_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    if (input == 1)
        return tsr__gx_zeros_like(x, g);
    tsr_operand a = operand(x, node, 0);
    tsr_tensor *ratio =
        tsr__gx_binary(x, TSR_OP_DIV, tsr_operand_tensor(saved(x, node, SAVED_RESULT)), a);
    tsr_tensor *zero = compare(x, TSR_OP_EQ, a, tsr_operand_scalar(tsr_scalar_int(0)));
    tsr_tensor *masked =
        tsr__gx_where(x, zero, tsr_operand_scalar(tsr_scalar_int(0)), tsr_operand_tensor(ratio));
    return tsr__gx_mul(x, g, masked);
}

/* fmax: self gets g where self >= other or other is NaN, other elsewhere;
 * fmin the same with <=. */
static tsr_tensor *fmax_fmin_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    const ew2_attrs *at = tsr__node_attrs(node);
    tsr_operand a = operand(x, node, 0), b = operand(x, node, 1);
    tsr_tensor *wins = compare(x, at->op == TSR_OP_FMAX ? TSR_OP_GE : TSR_OP_LE, a, b);
    tsr_tensor *self_side = wins;
    if (b.tensor) {
        self_side = tsr__gx_binary(x, TSR_OP_LOGICAL_OR, tsr_operand_tensor(wins),
                                   tsr_operand_tensor(unary(x, TSR_OP_ISNAN, b.tensor)));
    } else if (isnan(b.scalar.v.f) && b.scalar.kind == TSR_SCALAR_FLOAT) {
        return input == 0 ? (tsr_tensor *)g : tsr__gx_zeros_like(x, g);
    }
    tsr_tensor *side = input == 0 ? self_side : unary(x, TSR_OP_LOGICAL_NOT, self_side);
    return tsr__gx_mask(x, side, g);
}

/* ---- ternary formulas --------------------------------------------------- */

/* start: g (1 - weight); end: g weight; weight: g (end - start). */
static tsr_tensor *lerp_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    if (input == 2) {
        tsr_tensor *span = tsr__gx_sub(x, saved(x, node, 1), saved(x, node, 0));
        return tsr__gx_mul(x, g, span);
    }
    tsr_operand w = operand(x, node, 2);
    tsr_tensor *wg = times(x, g, w);
    return input == 1 ? wg : tsr__gx_sub(x, g, wg);
}

/* self: g; tensor1: g tensor2 value; tensor2: g tensor1 value. */
static tsr_tensor *addcmul_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    if (input == 0)
        return (tsr_tensor *)g;
    tsr_tensor *other = saved(x, node, input == 1 ? 2 : 1);
    return times(x, tsr__gx_mul(x, g, other), param(node, 0));
}

/* self: g; tensor1: g value / tensor2; tensor2: -g value tensor1 / tensor2^2. */
static tsr_tensor *addcdiv_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g, int input)
{
    if (input == 0)
        return (tsr_tensor *)g;
    tsr_tensor *t2 = saved(x, node, 2);
    tsr_tensor *scaled = times(x, g, param(node, 0));
    if (input == 1)
        return tsr__gx_div(x, scaled, t2);
    tsr_tensor *d = tsr__gx_div(x, tsr__gx_mul(x, scaled, saved(x, node, 1)), square(x, t2));
    return unary(x, TSR_OP_NEG, d);
}

/* ---- the table ---------------------------------------------------------- */

/* What a formula reads: `always`, plus for_input[i] when input i needs a
 * gradient (bits SAVES_*), so that only those are version-checked. */
typedef struct formula {
    tsr_op op;
    grad_fn fn;
    unsigned always;
    unsigned for_input[3];
    const char *names[3]; /* the inputs, for errors about saved tensors */
} formula;

#define UNARY_SAVING(id, grad, saves)                                                              \
    {                                                                                              \
        (id), (grad), (saves), {0, 0, 0},                                                          \
        {                                                                                          \
            "self", NULL, NULL                                                                     \
        }                                                                                          \
    }

static const formula formulas[] = {
    UNARY_SAVING(TSR_OP_EXP2, exp2_grad, SAVES_RESULT),
    UNARY_SAVING(TSR_OP_LOG2, log2_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_LOG10, log10_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_TAN, tan_grad, SAVES_RESULT),
    UNARY_SAVING(TSR_OP_ASIN, asin_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ACOS, asin_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ATAN, atan_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_SINH, hyperbolic_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_COSH, hyperbolic_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ASINH, inverse_hyperbolic_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ACOSH, inverse_hyperbolic_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ATANH, atanh_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ERFC, erfc_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_SILU, silu_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_SOFTPLUS, softplus_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_LEAKY_RELU, leaky_relu_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_ELU, elu_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_HARDTANH, hardtanh_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_FLOOR, zero_grad, 0),
    UNARY_SAVING(TSR_OP_CEIL, zero_grad, 0),
    UNARY_SAVING(TSR_OP_ROUND, zero_grad, 0),
    UNARY_SAVING(TSR_OP_TRUNC, zero_grad, 0),
    UNARY_SAVING(TSR_OP_FRAC, identity_grad, 0),
    UNARY_SAVING(TSR_OP_RECIPROCAL, reciprocal_grad, SAVES_RESULT),
    UNARY_SAVING(TSR_OP_SQUARE, square_grad, SAVES_0),
    UNARY_SAVING(TSR_OP_NAN_TO_NUM, nan_to_num_grad, SAVES_0),
    {TSR_OP_FMOD, fmod_grad, 0, {0, SAVES_0 | SAVES_1, 0}, {"self", "other", NULL}},
    {TSR_OP_ATAN2, atan2_grad, SAVES_0 | SAVES_1, {0, 0, 0}, {"self", "other", NULL}},
    {TSR_OP_HYPOT, hypot_grad, SAVES_RESULT, {SAVES_0, SAVES_1, 0}, {"self", "other", NULL}},
    {TSR_OP_COPYSIGN, copysign_grad, 0, {SAVES_0 | SAVES_RESULT, 0, 0}, {"self", "other", NULL}},
    {TSR_OP_FMAX, fmax_fmin_grad, SAVES_0 | SAVES_1, {0, 0, 0}, {"self", "other", NULL}},
    {TSR_OP_FMIN, fmax_fmin_grad, SAVES_0 | SAVES_1, {0, 0, 0}, {"self", "other", NULL}},
    {TSR_OP_LERP, lerp_grad, 0, {SAVES_2, SAVES_2, SAVES_0 | SAVES_1}, {"self", "end", "weight"}},
    {TSR_OP_ADDCMUL, addcmul_grad, 0, {0, SAVES_2, SAVES_1}, {"self", "tensor1", "tensor2"}},
    {TSR_OP_ADDCDIV,
     addcdiv_grad,
     0,
     {0, SAVES_2, SAVES_1 | SAVES_2},
     {"self", "tensor1", "tensor2"}},
};

static const formula *find(tsr_op op)
{
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++) {
        if (formulas[i].op == op)
            return &formulas[i];
    }
    return NULL;
}

/* The ops whose formula is right for complex inputs (holomorphic, with
 * derivatives of real coefficients; see operand). */
static bool complex_formula(tsr_op op)
{
    static const tsr_op ops[] = {
        TSR_OP_EXP2,  TSR_OP_LOG2,  TSR_OP_LOG10, TSR_OP_TAN,        TSR_OP_ASIN,
        TSR_OP_ACOS,  TSR_OP_ATAN,  TSR_OP_SINH,  TSR_OP_COSH,       TSR_OP_ASINH,
        TSR_OP_ACOSH, TSR_OP_ATANH, TSR_OP_LERP,  TSR_OP_RECIPROCAL, TSR_OP_SQUARE,
        TSR_OP_ADDCMUL, TSR_OP_ADDCDIV,
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (ops[i] == op)
            return true;
    }
    return false;
}

bool tsr__grad_elementwise2_has(tsr_op op)
{
    return find(op) != NULL;
}

/* ---- nodes -------------------------------------------------------------- */

static tsr_status ew2_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const ew2_attrs *at = tsr__node_attrs(node);
    const formula *f = find(at->op);
    tsr__gx x = {0};
    for (int i = 0; i < tsr__node_num_inputs(node); i++) {
        if (tsr__node_needs_grad(node, i))
            tsr__gx_result(&x, &gi[i], f->fn(&x, node, grads[0], i));
    }
    return tsr__gx_finish(&x);
}

static void fill_attrs(tsr__node *node, tsr_op op, const tsr_operand *operands, int count,
                       const tsr_elementwise_attrs *attrs)
{
    ew2_attrs *at = tsr__node_attrs(node);
    at->op = op;
    if (attrs)
        at->attrs = *attrs;
    for (int i = 0; i < count; i++) {
        at->scalar[i] = operands[i].tensor == NULL;
        at->value[i] = operands[i].scalar;
    }
}

static tsr_status save_what(tsr__node *node, const formula *f, const tsr_tensor *const *inputs,
                            int count, unsigned *saves)
{
    *saves = f->always;
    for (int i = 0; i < count; i++) {
        if (tsr__node_needs_grad(node, i))
            *saves |= f->for_input[i];
    }
    tsr_status st = TSR_OK;
    for (int i = 0; i < count && st == TSR_OK; i++) {
        if ((*saves & (1u << i)) && inputs[i])
            st = tsr__node_save(node, i, inputs[i], f->names[i]);
    }
    return st;
}

tsr_status tsr__grad_record_elementwise2(tsr_op op, const tsr_operand *operands, int count,
                                         const tsr_elementwise_attrs *attrs, tsr_tensor *out)
{
    const tsr_tensor *inputs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < count; i++)
        inputs[i] = operands[i].tensor;
    if (!tsr__grad_wanted(inputs, count) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    const formula *f = find(op);
    if (!f)
        return tsr__grad_record_unimplemented(tsr_op_name(op), inputs, count, out);
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(tsr_op_name(op), ew2_backward, count, 1, SAVED_SLOTS,
                                     sizeof(ew2_attrs), &node);
    if (complex_formula(op))
        tsr__node_allow_complex(node);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    unsigned saves = 0;
    if (st == TSR_OK) {
        fill_attrs(node, op, operands, count, attrs);
        st = save_what(node, f, inputs, count, &saves);
    }
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    if (st == TSR_OK && (saves & SAVES_RESULT))
        st = tsr__node_save_output(node, SAVED_RESULT, out, 0);
    tsr__node_release(node);
    return st;
}
