/* Gradients of the unary elementwise ops (PyTorch's derivatives.yaml). */
#include "autograd/graph.h"
#include "ops/elementwise_grad.h"
#include "ops/grad_expr.h"

#include <math.h>

typedef struct unary_attrs {
    tsr_op op;
    int mode; /* gelu's approximation */
} unary_attrs;

/* What a formula reads: the input, the output, or nothing. */
typedef enum saves { SAVES_NOTHING, SAVES_INPUT, SAVES_RESULT } saves;

static saves unary_saves(tsr_op op)
{
    switch (op) {
    case TSR_OP_NEG:
    case TSR_OP_SIGN:
        return SAVES_NOTHING;
    case TSR_OP_EXP:
    case TSR_OP_EXPM1:
    case TSR_OP_SQRT:
    case TSR_OP_RSQRT:
    case TSR_OP_TANH:
    case TSR_OP_SIGMOID:
    case TSR_OP_RELU:
        return SAVES_RESULT;
    default:
        return SAVES_INPUT;
    }
}

static const double SQRT_2 = 1.41421356237309504880;
static const double TWO_OVER_SQRT_PI = 1.12837916709551257390;
static const double SQRT_2_OVER_PI = 0.79788456080286535588;

/* d/dx of x * Phi(x) = Phi(x) + x * phi(x). */
static tsr_tensor *gelu_exact(tsr__gx *x, const tsr_tensor *v)
{
    tsr_tensor *cdf = tsr__gx_scale(
        x, tsr__gx_add_scalar(x, tsr__gx_unary(x, TSR_OP_ERF, tsr__gx_scale(x, v, 1 / SQRT_2)), 1),
        0.5);
    tsr_tensor *pdf =
        tsr__gx_scale(x, tsr__gx_unary(x, TSR_OP_EXP, tsr__gx_scale(x, tsr__gx_mul(x, v, v), -0.5)),
                      0.5 * TWO_OVER_SQRT_PI / SQRT_2);
    return tsr__gx_add(x, cdf, tsr__gx_mul(x, v, pdf));
}

/* PyTorch's gelu_backward for approximate='tanh'. */
static tsr_tensor *gelu_tanh(tsr__gx *x, const tsr_tensor *v)
{
    const double kappa = 0.044715;
    tsr_tensor *v2 = tsr__gx_mul(x, v, v);
    tsr_tensor *inner = tsr__gx_scale(
        x, tsr__gx_add(x, v, tsr__gx_scale(x, tsr__gx_mul(x, v2, v), kappa)), SQRT_2_OVER_PI);
    tsr_tensor *t = tsr__gx_unary(x, TSR_OP_TANH, inner);
    tsr_tensor *left_derivative = tsr__gx_scale(x, tsr__gx_add_scalar(x, t, 1), 0.5);
    tsr_tensor *sech2 = tsr__gx_rsub_scalar(x, 1, tsr__gx_mul(x, t, t));
    tsr_tensor *inner_derivative =
        tsr__gx_scale(x, tsr__gx_add_scalar(x, tsr__gx_scale(x, v2, 3 * kappa), 1), SQRT_2_OVER_PI);
    tsr_tensor *right_derivative =
        tsr__gx_mul(x, tsr__gx_scale(x, v, 0.5), tsr__gx_mul(x, sech2, inner_derivative));
    return tsr__gx_add(x, left_derivative, right_derivative);
}

/* d(op)/dx as a tensor (or the whole gradient for the ops marked so). v is
 * the saved input or result; g the incoming gradient. */
static tsr_tensor *derivative(tsr__gx *x, const unary_attrs *at, const tsr_tensor *v,
                              const tsr_tensor *g, bool *is_gradient)
{
    *is_gradient = false;
    switch (at->op) {
    case TSR_OP_NEG:
        *is_gradient = true;
        return tsr__gx_unary(x, TSR_OP_NEG, g);
    case TSR_OP_SIGN:
        *is_gradient = true;
        return tsr__gx_zeros_like(x, g);
    case TSR_OP_ABS:
        return tsr__gx_unary(x, TSR_OP_SIGN, v);
    case TSR_OP_EXP:
        return (tsr_tensor *)v;
    case TSR_OP_LOG:
        *is_gradient = true;
        return tsr__gx_div(x, g, v);
    case TSR_OP_LOG1P:
        *is_gradient = true;
        return tsr__gx_div(x, g, tsr__gx_add_scalar(x, v, 1));
    case TSR_OP_EXPM1:
        return tsr__gx_add_scalar(x, v, 1);
    case TSR_OP_SQRT:
        *is_gradient = true;
        return tsr__gx_div(x, g, tsr__gx_scale(x, v, 2));
    case TSR_OP_RSQRT:
        return tsr__gx_scale(x, tsr__gx_mul(x, tsr__gx_mul(x, v, v), v), -0.5);
    case TSR_OP_SIN:
        return tsr__gx_unary(x, TSR_OP_COS, v);
    case TSR_OP_COS:
        return tsr__gx_unary(x, TSR_OP_NEG, tsr__gx_unary(x, TSR_OP_SIN, v));
    case TSR_OP_TANH:
        return tsr__gx_rsub_scalar(x, 1, tsr__gx_mul(x, v, v));
    case TSR_OP_SIGMOID:
        return tsr__gx_mul(x, v, tsr__gx_rsub_scalar(x, 1, v));
    case TSR_OP_RELU: {
        /* PyTorch's threshold_backward zeroes where v <= 0, so a NaN passes the gradient. */
        *is_gradient = true;
        tsr_tensor *at_most_0 = tsr__gx_binary(x, TSR_OP_LE, tsr_operand_tensor(v),
                                               tsr_operand_scalar(tsr_scalar_int(0)));
        return tsr__gx_mask(x, tsr__gx_unary(x, TSR_OP_LOGICAL_NOT, at_most_0), g);
    }
    case TSR_OP_GELU:
        return at->mode == TSR_GELU_TANH ? gelu_tanh(x, v) : gelu_exact(x, v);
    case TSR_OP_ERF:
        return tsr__gx_scale(
            x, tsr__gx_unary(x, TSR_OP_EXP, tsr__gx_unary(x, TSR_OP_NEG, tsr__gx_mul(x, v, v))),
            TWO_OVER_SQRT_PI);
    default:
        return NULL;
    }
}

/* PyTorch's complex formulas are `grad * f'(x).conj()`; for the holomorphic
 * ops here f' has real coefficients, so f'(x).conj() = f'(conj x) and the
 * real formulas are right when they read the conjugated saved value. abs is
 * not holomorphic: its gradient is g * sgn(x). */
static tsr_status unary_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const unary_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *v = unary_saves(at->op) == SAVES_NOTHING ? NULL : tsr__gx_saved(&x, node, 0);
    if (v && tsr_dtype_is_complex(tsr_tensor_dtype(v)) && at->op == TSR_OP_ABS) {
        tsr__gx_result(&x, &gi[0], tsr__gx_mul(&x, grads[0], tsr__gx_sgn(&x, v)));
        return tsr__gx_finish(&x);
    }
    v = tsr__gx_conj(&x, v);
    bool is_gradient = false;
    tsr_tensor *d = x.status == TSR_OK ? derivative(&x, at, v, grads[0], &is_gradient) : NULL;
    tsr__gx_result(&x, &gi[0], is_gradient || !d ? d : tsr__gx_mul(&x, grads[0], d));
    return tsr__gx_finish(&x);
}

static bool differentiable(tsr_op op)
{
    return op >= TSR_OP_NEG && op <= TSR_OP_ERF;
}

/* The ops whose formula above is right for complex inputs. */
static bool complex_formula(tsr_op op)
{
    switch (op) {
    case TSR_OP_NEG:
    case TSR_OP_ABS:
    case TSR_OP_EXP:
    case TSR_OP_LOG:
    case TSR_OP_LOG1P:
    case TSR_OP_EXPM1:
    case TSR_OP_SQRT:
    case TSR_OP_RSQRT:
    case TSR_OP_SIN:
    case TSR_OP_COS:
    case TSR_OP_TANH:
    case TSR_OP_SIGMOID:
        return true;
    default:
        return false;
    }
}

tsr_status tsr__grad_record_unary(tsr_op op, const tsr_tensor *t, int mode, tsr_tensor *out)
{
    if (!tsr__grad_wanted(&t, 1) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    if (!differentiable(op))
        return tsr__grad_record_unimplemented(tsr_op_name(op), &t, 1, out);
    tsr__node *node = NULL;
    tsr_status st =
        tsr__node_create(tsr_op_name(op), unary_backward, 1, 1, 1, sizeof(unary_attrs), &node);
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, t);
    if (st == TSR_OK) {
        unary_attrs *at = tsr__node_attrs(node);
        at->op = op;
        at->mode = mode;
        if (complex_formula(op))
            tsr__node_allow_complex(node);
        if (unary_saves(op) == SAVES_INPUT)
            st = tsr__node_save(node, 0, t, "self");
        else if (unary_saves(op) == SAVES_RESULT)
            st = tsr__node_save_output(node, 0, out, 0);
    }
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}
