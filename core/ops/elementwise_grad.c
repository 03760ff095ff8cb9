/* Gradients of the binary elementwise ops, where and clamp, and the records
 * of their in-place forms. Formulas follow PyTorch's derivatives.yaml. */
#include "ops/elementwise_grad.h"
#include "autograd/graph.h"

#include "runtime/error.h"
#include "ops/grad_expr.h"

#include <math.h>

/* ---- shared ------------------------------------------------------------- */

/* A node over `inputs` (NULLs and tensors that need no grad get no edge). */
static tsr_status start(tsr_op op, tsr__backward_fn fn, const tsr_tensor *const *inputs, int n,
                        int nsaved, size_t attrs_size, tsr__node **out)
{
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(tsr_op_name(op), fn, n, 1, nsaved, attrs_size, &node);
    for (int i = 0; i < n && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    if (st != TSR_OK) {
        tsr__node_release(node);
        return st;
    }
    *out = node;
    return TSR_OK;
}

static tsr_status finish(tsr__node *node, tsr_status st, tsr_tensor *out)
{
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

static tsr_operand scalar_operand(tsr_scalar s)
{
    return tsr_operand_scalar(s);
}

/* ---- binary ops --------------------------------------------------------- */

typedef struct binary_attrs {
    tsr_op op;
    int mode;         /* div's rounding mode */
    tsr_scalar alpha; /* add, sub */
    bool scalar[2];   /* operand k was a Python scalar, kept in value[k] */
    tsr_scalar value[2];
} binary_attrs;

enum { SAVED_A, SAVED_B, SAVED_RESULT };

/* Operand k for a formula: its saved tensor or its scalar, conjugated when
 * complex. The formulas here are PyTorch's `grad * f'(a, b).conj()` for
 * derivatives f' that are polynomials or quotients with real coefficients,
 * where f'(a, b).conj() = f'(conj a, conj b): so they read conjugated
 * operands, which changes nothing for real ones. */
static tsr_operand operand(tsr__gx *x, tsr__node *node, int k)
{
    const binary_attrs *at = tsr__node_attrs(node);
    if (at->scalar[k])
        return scalar_operand(tsr__gx_conj_scalar(at->value[k]));
    return tsr_operand_tensor(tsr__gx_conj(x, tsr__gx_saved(x, node, k)));
}

/* A saved tensor, conjugated when complex (see operand). */
static tsr_tensor *saved_conj(tsr__gx *x, tsr__node *node, int slot)
{
    return tsr__gx_conj(x, tsr__gx_saved(x, node, slot));
}

static double scalar_value(tsr_scalar s)
{
    return s.kind == TSR_SCALAR_FLOAT ? s.v.f : (double)s.v.i;
}

static tsr_tensor *times(tsr__gx *x, const tsr_tensor *g, tsr_operand o)
{
    return tsr__gx_binary(x, TSR_OP_MUL, tsr_operand_tensor(g), o);
}

static tsr_status add_sub_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const binary_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], grads[0]);
    if (tsr__node_needs_grad(node, 1) && at->alpha.kind == TSR_SCALAR_COMPLEX) {
        /* PyTorch's grad * alpha.conj() (negated for sub) */
        tsr_scalar factor = tsr__gx_conj_scalar(at->alpha);
        if (at->op == TSR_OP_SUB)
            factor.v.c.re = -factor.v.c.re, factor.v.c.im = -factor.v.c.im;
        tsr__gx_result(&x, &gi[1], times(&x, grads[0], scalar_operand(factor)));
    } else if (tsr__node_needs_grad(node, 1)) {
        double alpha = scalar_value(at->alpha);
        double factor = at->op == TSR_OP_SUB ? -alpha : alpha;
        tsr__gx_result(&x, &gi[1], factor == 1 ? grads[0] : tsr__gx_scale(&x, grads[0], factor));
    }
    return tsr__gx_finish(&x);
}

static tsr_status mul_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], times(&x, grads[0], operand(&x, node, SAVED_B)));
    if (tsr__node_needs_grad(node, 1))
        tsr__gx_result(&x, &gi[1], times(&x, grads[0], operand(&x, node, SAVED_A)));
    return tsr__gx_finish(&x);
}

/* Rounding divisions, floor_divide: piecewise constant, zero gradient. */
static tsr_status zero_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    for (int i = 0; i < tsr__node_num_inputs(node); i++) {
        if (tsr__node_needs_grad(node, i))
            tsr__gx_result(&x, &gi[i], tsr__gx_zeros_like(&x, grads[0]));
    }
    return tsr__gx_finish(&x);
}

static tsr_status div_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_operand b = operand(&x, node, SAVED_B);
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], tsr__gx_binary(&x, TSR_OP_DIV, tsr_operand_tensor(grads[0]), b));
    if (tsr__node_needs_grad(node, 1)) {
        /* -grad * ((a / b) / b) */
        tsr_tensor *q = tsr__gx_binary(&x, TSR_OP_DIV, operand(&x, node, SAVED_A), b);
        tsr_tensor *q2 = tsr__gx_binary(&x, TSR_OP_DIV, tsr_operand_tensor(q), b);
        tsr__gx_result(&x, &gi[1], tsr__gx_unary(&x, TSR_OP_NEG, tsr__gx_mul(&x, grads[0], q2)));
    }
    return tsr__gx_finish(&x);
}

static tsr_status remainder_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], grads[0]);
    if (tsr__node_needs_grad(node, 1)) {
        /* -grad * floor(a / b) */
        tsr_tensor *q = NULL;
        tsr_operand a = operand(&x, node, SAVED_A), b = operand(&x, node, SAVED_B);
        if (x.status == TSR_OK) {
            tsr_status st = tsr_div_rounding(a, b, TSR_ROUND_FLOOR, &q);
            q = tsr__gx_keep(&x, st, q);
        }
        tsr__gx_result(&x, &gi[1], tsr__gx_unary(&x, TSR_OP_NEG, tsr__gx_mul(&x, grads[0], q)));
    }
    return tsr__gx_finish(&x);
}

static tsr_scalar scalar_minus_one(tsr_scalar s)
{
    if (s.kind == TSR_SCALAR_INT || s.kind == TSR_SCALAR_BOOL)
        return tsr_scalar_int(s.v.i - 1);
    return tsr_scalar_float(s.v.f - 1);
}

/* t OP value, for masks. */
static tsr_tensor *versus(tsr__gx *x, tsr_op op, const tsr_tensor *t, int64_t value)
{
    return tsr__gx_binary(x, op, tsr_operand_tensor(t), scalar_operand(tsr_scalar_int(value)));
}

static tsr_tensor *pair(tsr__gx *x, tsr_op op, const tsr_tensor *a, const tsr_tensor *b)
{
    return tsr__gx_binary(x, op, tsr_operand_tensor(a), tsr_operand_tensor(b));
}

/* d/da a^b = b * a^(b-1), zero where b == 0 (so 0^0 has gradient 0). */
static tsr_tensor *pow_base_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g)
{
    const binary_attrs *at = tsr__node_attrs(node);
    tsr_tensor *a = saved_conj(x, node, SAVED_A);
    if (at->scalar[1]) {
        if (scalar_value(at->value[1]) == 0)
            return tsr__gx_zeros_like(x, g);
        tsr_tensor *p = tsr__gx_binary(x, TSR_OP_POW, tsr_operand_tensor(a),
                                       scalar_operand(scalar_minus_one(at->value[1])));
        return times(x, times(x, g, scalar_operand(at->value[1])), tsr_operand_tensor(p));
    }
    tsr_tensor *b = saved_conj(x, node, SAVED_B);
    tsr_tensor *p = pair(x, TSR_OP_POW, a, tsr__gx_add_scalar(x, b, -1));
    tsr_tensor *full = tsr__gx_mul(x, g, tsr__gx_mul(x, b, p));
    return tsr__gx_where(x, versus(x, TSR_OP_EQ, b, 0), scalar_operand(tsr_scalar_int(0)),
                         tsr_operand_tensor(full));
}

/* d/db a^b = a^b * log(a), zero where a == 0 and b >= 0 (Re b >= 0 for
 * complex b, as PyTorch). */
static tsr_tensor *pow_exponent_grad(tsr__gx *x, tsr__node *node, const tsr_tensor *g)
{
    const binary_attrs *at = tsr__node_attrs(node);
    tsr_tensor *gr = tsr__gx_mul(x, g, saved_conj(x, node, SAVED_RESULT));
    tsr_tensor *nonneg =
        versus(x, TSR_OP_GE, tsr__gx_real(x, tsr__gx_saved(x, node, SAVED_B)), 0);
    tsr_operand zero = scalar_operand(tsr_scalar_int(0));
    if (at->scalar[0]) {
        double base = scalar_value(at->value[0]);
        tsr_tensor *full = tsr__gx_scale(x, gr, log(base));
        return base != 0 ? full : tsr__gx_where(x, nonneg, zero, tsr_operand_tensor(full));
    }
    tsr_tensor *a = saved_conj(x, node, SAVED_A);
    tsr_tensor *full = tsr__gx_mul(x, gr, tsr__gx_unary(x, TSR_OP_LOG, a));
    tsr_tensor *cond = pair(x, TSR_OP_LOGICAL_AND, versus(x, TSR_OP_EQ, a, 0), nonneg);
    return tsr__gx_where(x, cond, zero, tsr_operand_tensor(full));
}

static tsr_status pow_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], pow_base_grad(&x, node, grads[0]));
    if (tsr__node_needs_grad(node, 1))
        tsr__gx_result(&x, &gi[1], pow_exponent_grad(&x, node, grads[0]));
    return tsr__gx_finish(&x);
}

/* maximum: ties split the gradient in halves, as PyTorch 1.13; the other
 * side gets nothing. minimum mirrors it. */
static tsr_status extremum_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const binary_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_operand a = operand(&x, node, SAVED_A), b = operand(&x, node, SAVED_B);
    tsr_tensor *tie = tsr__gx_binary(&x, TSR_OP_EQ, a, b);
    tsr_tensor *half = tsr__gx_scale(&x, grads[0], 0.5);
    tsr_tensor *shared =
        tsr__gx_where(&x, tie, tsr_operand_tensor(half), tsr_operand_tensor(grads[0]));
    bool is_max = at->op == TSR_OP_MAXIMUM;
    tsr_operand zero = scalar_operand(tsr_scalar_int(0));
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *lose = tsr__gx_binary(&x, is_max ? TSR_OP_LT : TSR_OP_GT, a, b);
        tsr__gx_result(&x, &gi[0], tsr__gx_where(&x, lose, zero, tsr_operand_tensor(shared)));
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *lose = tsr__gx_binary(&x, is_max ? TSR_OP_GT : TSR_OP_LT, a, b);
        tsr__gx_result(&x, &gi[1], tsr__gx_where(&x, lose, zero, tsr_operand_tensor(shared)));
    }
    return tsr__gx_finish(&x);
}

static tsr__backward_fn binary_formula(tsr_op op, int mode)
{
    switch (op) {
    case TSR_OP_ADD:
    case TSR_OP_SUB:
        return add_sub_backward;
    case TSR_OP_MUL:
        return mul_backward;
    case TSR_OP_DIV:
        return mode == TSR_ROUND_NONE ? div_backward : zero_backward;
    case TSR_OP_FLOOR_DIVIDE:
        return zero_backward;
    case TSR_OP_REMAINDER:
        return remainder_backward;
    case TSR_OP_POW:
        return pow_backward;
    case TSR_OP_MAXIMUM:
    case TSR_OP_MINIMUM:
        return extremum_backward;
    default:
        return NULL;
    }
}

static bool complex_scalar(tsr_operand o)
{
    return !o.tensor && o.scalar.kind == TSR_SCALAR_COMPLEX;
}

/* Whether the formula is right for complex operands: add, sub, mul, true
 * div and pow (not with a Python complex scalar exponent or base, whose
 * formulas read the scalar as real). */
static bool complex_formula(tsr_op op, int mode, tsr_operand a, tsr_operand b)
{
    switch (op) {
    case TSR_OP_ADD:
    case TSR_OP_SUB:
    case TSR_OP_MUL:
        return true;
    case TSR_OP_DIV:
        return mode == TSR_ROUND_NONE;
    case TSR_OP_POW:
        return !complex_scalar(a) && !complex_scalar(b);
    default:
        return false;
    }
}

/* Which of a, b and the result the formula reads, given the inputs that
 * need gradients (saving only those keeps PyTorch's version errors). */
static void saved_needs(tsr_op op, int mode, bool need_a, bool need_b, bool save[3])
{
    save[SAVED_A] = save[SAVED_B] = save[SAVED_RESULT] = false;
    switch (op) {
    case TSR_OP_MUL:
        save[SAVED_A] = need_b;
        save[SAVED_B] = need_a;
        break;
    case TSR_OP_DIV:
        save[SAVED_A] = need_b && mode == TSR_ROUND_NONE;
        save[SAVED_B] = (need_a || need_b) && mode == TSR_ROUND_NONE;
        break;
    case TSR_OP_REMAINDER:
        save[SAVED_A] = save[SAVED_B] = need_b;
        break;
    case TSR_OP_POW:
        save[SAVED_A] = true;
        save[SAVED_B] = true;
        save[SAVED_RESULT] = need_b;
        break;
    case TSR_OP_MAXIMUM:
    case TSR_OP_MINIMUM:
        save[SAVED_A] = save[SAVED_B] = true;
        break;
    default:
        break;
    }
}

tsr_status tsr__grad_record_binary(tsr_op op, tsr_operand a, tsr_operand b,
                                   const tsr_elementwise_attrs *attrs, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {a.tensor, b.tensor};
    int mode = attrs ? attrs->mode : 0;
    tsr__backward_fn fn = binary_formula(op, op == TSR_OP_DIV ? mode : 0);
    if (!tsr__grad_wanted(inputs, 2) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    if (!fn)
        return tsr__grad_record_unimplemented(tsr_op_name(op), inputs, 2, out);
    tsr__node *node;
    tsr_status st = start(op, fn, inputs, 2, 3, sizeof(binary_attrs), &node);
    if (st != TSR_OK)
        return st;
    binary_attrs *at = tsr__node_attrs(node);
    at->op = op;
    at->mode = mode;
    at->alpha = attrs ? attrs->scalars[0] : tsr_scalar_int(1);
    if (complex_formula(op, mode, a, b))
        tsr__node_allow_complex(node);
    at->scalar[0] = !a.tensor, at->value[0] = a.scalar;
    at->scalar[1] = !b.tensor, at->value[1] = b.scalar;
    bool save[3];
    saved_needs(op, mode, tsr__node_needs_grad(node, 0), tsr__node_needs_grad(node, 1), save);
    if (save[SAVED_A])
        st = tsr__node_save(node, SAVED_A, a.tensor, "self");
    if (st == TSR_OK && save[SAVED_B])
        st = tsr__node_save(node, SAVED_B, b.tensor, "other");
    if (st == TSR_OK && save[SAVED_RESULT])
        st = tsr__node_save_output(node, SAVED_RESULT, out, 0);
    return finish(node, st, out);
}

/* ---- where -------------------------------------------------------------- */

static tsr_status where_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_tensor *cond = tsr__gx_saved(&x, node, 0);
    tsr_operand zero = scalar_operand(tsr_scalar_int(0)), g = tsr_operand_tensor(grads[0]);
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], tsr__gx_where(&x, cond, g, zero));
    if (tsr__node_needs_grad(node, 1))
        tsr__gx_result(&x, &gi[1], tsr__gx_where(&x, cond, zero, g));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_where(const tsr_tensor *condition, tsr_operand a, tsr_operand b,
                                  tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {a.tensor, b.tensor};
    if (!tsr__grad_wanted(inputs, 2) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    tsr__node *node;
    tsr_status st = start(TSR_OP_WHERE, where_backward, inputs, 2, 1, 0, &node);
    if (st != TSR_OK)
        return st;
    tsr__node_allow_complex(node);
    st = tsr__node_save(node, 0, condition, "condition");
    return finish(node, st, out);
}

/* ---- clamp -------------------------------------------------------------- */

typedef struct clamp_attrs {
    int mode;
    bool is_tensor[2];   /* min, max: tensors are in saved slots 1 and 2 */
    tsr_scalar value[2]; /* scalar bounds */
} clamp_attrs;

static tsr_operand bound(tsr__gx *x, tsr__node *node, int k)
{
    const clamp_attrs *at = tsr__node_attrs(node);
    if (!at->is_tensor[k])
        return scalar_operand(at->value[k]);
    return tsr_operand_tensor(tsr__gx_saved(x, node, 1 + k));
}

static tsr_tensor *both(tsr__gx *x, tsr_op op, tsr_tensor *a, tsr_tensor *b)
{
    if (!a || !b)
        return a ? a : b;
    return tsr__gx_binary(x, op, tsr_operand_tensor(a), tsr_operand_tensor(b));
}

/* PyTorch's clamp_backward and clamp_backward_min_max. */
static tsr_status clamp_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const clamp_attrs *at = tsr__node_attrs(node);
    bool has_min = at->mode & TSR_CLAMP_HAS_MIN, has_max = at->mode & TSR_CLAMP_HAS_MAX;
    tsr__gx x = {0};
    tsr_operand self = tsr_operand_tensor(tsr__gx_saved(&x, node, 0));
    tsr_operand lo = has_min ? bound(&x, node, 0) : self;
    tsr_operand hi = has_max ? bound(&x, node, 1) : self;
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *above = has_min ? tsr__gx_binary(&x, TSR_OP_GE, self, lo) : NULL;
        tsr_tensor *below = has_max ? tsr__gx_binary(&x, TSR_OP_LE, self, hi) : NULL;
        tsr_tensor *inside = both(&x, TSR_OP_LOGICAL_AND, above, below);
        tsr__gx_result(&x, &gi[0], tsr__gx_mask(&x, inside, grads[0]));
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *under = tsr__gx_binary(&x, TSR_OP_LT, self, lo);
        tsr_tensor *ordered = has_max ? tsr__gx_binary(&x, TSR_OP_LT, lo, hi) : NULL;
        tsr__gx_result(&x, &gi[1],
                       tsr__gx_mask(&x, both(&x, TSR_OP_LOGICAL_AND, under, ordered), grads[0]));
    }
    if (tsr__node_needs_grad(node, 2)) {
        tsr_tensor *over = tsr__gx_binary(&x, TSR_OP_GT, self, hi);
        tsr_tensor *crossed = has_min ? tsr__gx_binary(&x, TSR_OP_LT, hi, lo) : NULL;
        tsr__gx_result(&x, &gi[2],
                       tsr__gx_mask(&x, both(&x, TSR_OP_LOGICAL_OR, over, crossed), grads[0]));
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_clamp(const tsr_operand *operands, int mode, tsr_tensor *out)
{
    const tsr_tensor *inputs[3] = {
        operands[0].tensor,
        mode & TSR_CLAMP_HAS_MIN ? operands[1].tensor : NULL,
        mode & TSR_CLAMP_HAS_MAX ? operands[2].tensor : NULL,
    };
    if (!tsr__grad_wanted(inputs, 3) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    tsr__node *node;
    tsr_status st = start(TSR_OP_CLAMP, clamp_backward, inputs, 3, 3, sizeof(clamp_attrs), &node);
    if (st != TSR_OK)
        return st;
    clamp_attrs *at = tsr__node_attrs(node);
    at->mode = mode;
    for (int k = 0; k < 2; k++) {
        at->is_tensor[k] = inputs[1 + k] != NULL;
        at->value[k] = operands[1 + k].scalar;
        if (st == TSR_OK && at->is_tensor[k])
            st = tsr__node_save(node, 1 + k, operands[1 + k].tensor, k ? "max" : "min");
    }
    if (st == TSR_OK)
        st = tsr__node_save(node, 0, inputs[0], "self");
    return finish(node, st, out);
}

/* ---- in-place forms ----------------------------------------------------- */

bool tsr__grad_inplace_needs_value(tsr_op op, const tsr_operand *others, int count)
{
    bool other_grad = false;
    for (int i = 0; i < count; i++)
        other_grad = other_grad || tsr__requires_grad(others[i].tensor);
    switch (op) {
    case TSR_OP_ADD:
    case TSR_OP_SUB:
    case TSR_OP_FLOOR_DIVIDE:
    case TSR_OP_FILL:
    case TSR_OP_COPY:
        return false;
    case TSR_OP_MUL:
    case TSR_OP_DIV:
    case TSR_OP_REMAINDER:
        return other_grad;
    default:
        return true;
    }
}

static tsr_status fill_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    return zero_backward(node, grads, gi);
}

static tsr_status copy_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], tsr__gx_zeros_like(&x, grads[0]));
    if (tsr__node_needs_grad(node, 1))
        tsr__gx_result(&x, &gi[1], grads[0]);
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_inplace(tsr_op op, tsr__inplace *ip, const void *attrs,
                                    tsr_tensor *self)
{
    if (!ip->active)
        return TSR_OK;
    tsr_operand old = tsr_operand_tensor(ip->old);
    if (op == TSR_OP_CLAMP) {
        const tsr_elementwise_attrs *at = attrs;
        tsr_operand operands[3] = {old, ip->others[0], ip->others[1]};
        return tsr__grad_record_clamp(operands, at->mode, self);
    }
    if (op == TSR_OP_FILL || op == TSR_OP_COPY) {
        const tsr_tensor *inputs[2] = {ip->old, op == TSR_OP_COPY ? ip->others[0].tensor : NULL};
        tsr__node *node;
        tsr_status st = start(op, op == TSR_OP_COPY ? copy_backward : fill_backward, inputs,
                              op == TSR_OP_COPY ? 2 : 1, 0, 0, &node);
        tsr__node_allow_complex(node); /* the engine converts src's gradient */
        return st == TSR_OK ? finish(node, TSR_OK, self) : st;
    }
    return tsr__grad_record_binary(op, old, ip->others[0], attrs, self);
}
