/* Gradients of the second elementwise family: autograd's Jacobian against
 * central finite differences in float64 (tsr_gradcheck), and for the smooth
 * ops the Jacobian of the gradient itself (double backward). Inputs stay
 * away from kinks and jumps (fmod's wrap-around, hardtanh's bounds, leaky
 * relu's corner, integers for the rounding ops). */
#include "check.h"
#include "grad_harness.h"

/* ---- inputs ------------------------------------------------------------- */

typedef struct input_spec {
    const double *values; /* NULL: distinct values spread over [low, high] */
    double low, high;
    bool constant; /* does not require grad */
} input_spec;

enum { N = 6 };

static tsr_tensor *make_input(const input_spec *spec, int salt)
{
    double v[N];
    for (int i = 0; i < N; i++) {
        double u = (double)((i * 5 + salt * 3) % N) / N + 0.01 * salt;
        v[i] = spec->values ? spec->values[i] : spec->low + (spec->high - spec->low) * u;
    }
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, sizeof v, 1, (int64_t[]){N}, TSR_FLOAT64, NULL, &t));
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
    bool second_order; /* also check the gradient's own gradient */
    tsr_op op;         /* for the generic unary and binary forms */
} grad_case;

static const grad_case *current;

static tsr_operand T(const tsr_tensor *t)
{
    return tsr_operand_tensor(t);
}

static tsr_status f_unary(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_unary(current->op, in[0], out);
}

static tsr_status f_binary(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(current->op, T(in[0]), T(in[1]), out);
}

static tsr_status f_binary_scalar_other(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(current->op, T(in[0]), tsr_operand_scalar(tsr_scalar_float(2.5)), out);
}

static tsr_status f_binary_scalar_self(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(current->op, tsr_operand_scalar(tsr_scalar_float(0.75)), T(in[0]), out);
}

static tsr_status f_softplus(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_softplus(in[0], tsr_scalar_float(2.0), tsr_scalar_int(20), out);
}

static tsr_status f_softplus_linear(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_softplus(in[0], tsr_scalar_float(0.5), tsr_scalar_float(-2.0), out);
}

static tsr_status f_leaky_relu(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_leaky_relu(in[0], tsr_scalar_float(0.2), out);
}

static tsr_status f_elu(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_elu(in[0], tsr_scalar_float(0.5), tsr_scalar_float(2.0), tsr_scalar_float(1.5), out);
}

static tsr_status f_hardtanh(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_hardtanh(in[0], tsr_scalar_float(-0.5), tsr_scalar_float(0.75), out);
}

static tsr_status f_round_decimals(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_round_decimals(in[0], 1, out);
}

static tsr_status f_nan_to_num(const tsr_tensor *const *in, tsr_tensor **out)
{
    double nan = 0.5;
    return tsr_nan_to_num(in[0], &nan, NULL, NULL, out);
}

static tsr_status f_lerp_tensor(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_lerp(in[0], in[1], T(in[2]), out);
}

static tsr_status f_lerp_small(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_lerp(in[0], in[1], tsr_operand_scalar(tsr_scalar_float(0.3)), out);
}

static tsr_status f_lerp_large(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_lerp(in[0], in[1], tsr_operand_scalar(tsr_scalar_float(0.75)), out);
}

static tsr_status f_addcmul(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_addcmul(in[0], in[1], in[2], tsr_scalar_float(0.5), out);
}

static tsr_status f_addcdiv(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_addcdiv(in[0], in[1], in[2], tsr_scalar_float(-1.5), out);
}

/* In-place forms on a non-leaf copy: their records rebase the copy. */
static tsr_status cloned(const tsr_tensor *t, tsr_tensor **out)
{
    return tsr_mul(t, t, out); /* a non-leaf that depends on t */
}

static tsr_status f_unary_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = cloned(in[0], &y);
    if (st == TSR_OK)
        st = tsr_unary_(current->op, y);
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

static tsr_status f_binary_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = cloned(in[0], &y);
    if (st == TSR_OK)
        st = tsr_binary_(current->op, y, T(in[1]));
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

static tsr_status f_addcdiv_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = cloned(in[0], &y);
    if (st == TSR_OK)
        st = tsr_addcdiv_(y, in[1], in[2], tsr_scalar_float(0.25));
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

static tsr_status f_lerp_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = cloned(in[0], &y);
    if (st == TSR_OK)
        st = tsr_lerp_(y, in[1], T(in[2]));
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

static tsr_status f_hardtanh_(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = cloned(in[0], &y);
    if (st == TSR_OK)
        st = tsr_hardtanh_(y, tsr_scalar_float(0.1), tsr_scalar_float(2.0));
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

/* ---- the cases ---------------------------------------------------------- */

#define ANY                                                                                        \
    {                                                                                              \
        NULL, -1.5, 1.5, false                                                                     \
    }
#define RANGE(lo, hi)                                                                              \
    {                                                                                              \
        NULL, (lo), (hi), false                                                                    \
    }
#define VALUES(...)                                                                                \
    {                                                                                              \
        (const double[]){__VA_ARGS__}, 0, 0, false                                                 \
    }
#define NO_OP TSR_OP_COUNT /* the case calls its op itself */

static const grad_case cases[] = {
    {"exp2", f_unary, 1, {ANY}, true, TSR_OP_EXP2},
    {"log2", f_unary, 1, {RANGE(0.5, 3)}, true, TSR_OP_LOG2},
    {"log10", f_unary, 1, {RANGE(0.5, 3)}, true, TSR_OP_LOG10},
    {"tan", f_unary, 1, {RANGE(-1.2, 1.2)}, true, TSR_OP_TAN},
    {"asin", f_unary, 1, {RANGE(-0.9, 0.9)}, true, TSR_OP_ASIN},
    {"acos", f_unary, 1, {RANGE(-0.9, 0.9)}, true, TSR_OP_ACOS},
    {"atan", f_unary, 1, {ANY}, true, TSR_OP_ATAN},
    {"sinh", f_unary, 1, {ANY}, true, TSR_OP_SINH},
    {"cosh", f_unary, 1, {ANY}, true, TSR_OP_COSH},
    {"asinh", f_unary, 1, {ANY}, true, TSR_OP_ASINH},
    {"acosh", f_unary, 1, {RANGE(1.2, 3)}, true, TSR_OP_ACOSH},
    {"atanh", f_unary, 1, {RANGE(-0.9, 0.9)}, true, TSR_OP_ATANH},
    {"erfc", f_unary, 1, {ANY}, true, TSR_OP_ERFC},
    {"silu", f_unary, 1, {RANGE(-4, 4)}, true, TSR_OP_SILU},
    {"reciprocal", f_unary, 1, {RANGE(0.5, 2)}, true, TSR_OP_RECIPROCAL},
    {"square", f_unary, 1, {ANY}, true, TSR_OP_SQUARE},
    {"frac", f_unary, 1, {VALUES(0.25, -1.7, 2.6, -0.4, 3.3, 0.9)}, false, TSR_OP_FRAC},
    {"floor", f_unary, 1, {VALUES(0.25, -1.7, 2.6, -0.4, 3.3, 0.9)}, false, TSR_OP_FLOOR},
    {"ceil", f_unary, 1, {VALUES(0.25, -1.7, 2.6, -0.4, 3.3, 0.9)}, false, TSR_OP_CEIL},
    {"round", f_unary, 1, {VALUES(0.25, -1.7, 2.6, -0.4, 3.3, 0.9)}, false, TSR_OP_ROUND},
    {"trunc", f_unary, 1, {VALUES(0.25, -1.7, 2.6, -0.4, 3.3, 0.9)}, false, TSR_OP_TRUNC},
    {"round(decimals=1)",
     f_round_decimals,
     1,
     {VALUES(0.23, -1.71, 2.62, -0.44, 3.37, 0.91)},
     false,
     NO_OP},
    {"nan_to_num", f_nan_to_num, 1, {ANY}, false, NO_OP},
    {"softplus", f_softplus, 1, {ANY}, true, NO_OP},
    {"softplus above threshold",
     f_softplus_linear,
     1,
     {VALUES(-5, -4.5, 3, -6, 2, -7)},
     false,
     NO_OP},
    {"leaky_relu", f_leaky_relu, 1, {VALUES(0.5, -1.2, 2.0, -0.3, 0.8, -2.5)}, false, NO_OP},
    {"elu", f_elu, 1, {VALUES(0.5, -1.2, 2.0, -0.3, 0.8, -2.5)}, true, NO_OP},
    {"hardtanh", f_hardtanh, 1, {VALUES(0.5, -1.2, 2.0, -0.3, 0.1, -0.45)}, false, NO_OP},
    {"fmod", f_binary, 2, {RANGE(0.1, 0.9), RANGE(2, 3)}, true, TSR_OP_FMOD},
    {"fmod by a scalar", f_binary_scalar_other, 1, {RANGE(-2, 2)}, false, TSR_OP_FMOD},
    {"atan2", f_binary, 2, {ANY, RANGE(0.5, 2)}, true, TSR_OP_ATAN2},
    {"pow of a scalar base", f_binary_scalar_self, 1, {RANGE(0.5, 2)}, true, TSR_OP_POW},
    {"hypot", f_binary, 2, {ANY, RANGE(0.5, 2)}, true, TSR_OP_HYPOT},
    {"copysign",
     f_binary,
     2,
     {RANGE(0.5, 2), VALUES(1, -1, 2, -3, -0.5, 0.25)},
     false,
     TSR_OP_COPYSIGN},
    {"fmax",
     f_binary,
     2,
     {VALUES(0.5, -1.2, 2.0, -0.3, 0.8, -2.5), VALUES(1, -1, 1, -1, 1, -1)},
     false,
     TSR_OP_FMAX},
    {"fmin",
     f_binary,
     2,
     {VALUES(0.5, -1.2, 2.0, -0.3, 0.8, -2.5), VALUES(1, -1, 1, -1, 1, -1)},
     false,
     TSR_OP_FMIN},
    {"lerp", f_lerp_tensor, 3, {ANY, ANY, RANGE(-0.5, 1.5)}, true, NO_OP},
    {"lerp weight 0.3", f_lerp_small, 2, {ANY, ANY}, true, NO_OP},
    {"lerp weight 0.75", f_lerp_large, 2, {ANY, ANY}, true, NO_OP},
    {"addcmul", f_addcmul, 3, {ANY, ANY, ANY}, true, NO_OP},
    {"addcdiv", f_addcdiv, 3, {ANY, ANY, RANGE(0.5, 2)}, true, NO_OP},
    {"exp2_", f_unary_, 1, {ANY}, true, TSR_OP_EXP2},
    {"asinh_", f_unary_, 1, {ANY}, true, TSR_OP_ASINH},
    {"floor_", f_unary_, 1, {VALUES(0.25, -1.7, 1.6, -0.4, 1.3, 0.9)}, false, TSR_OP_FLOOR},
    {"atan2_", f_binary_, 2, {ANY, RANGE(0.5, 2)}, true, TSR_OP_ATAN2},
    {"hypot_", f_binary_, 2, {ANY, RANGE(0.5, 2)}, true, TSR_OP_HYPOT},
    {"hardtanh_", f_hardtanh_, 1, {VALUES(0.5, -1.2, 1.2, -0.6, 0.8, 1.3)}, false, NO_OP},
    {"lerp_", f_lerp_, 3, {ANY, ANY, RANGE(-0.5, 1.5)}, true, NO_OP},
    {"addcdiv_", f_addcdiv_, 3, {ANY, ANY, RANGE(0.5, 2)}, true, NO_OP},
};

/* ---- running ------------------------------------------------------------ */

static void run_case(const grad_case *c, bool second_order)
{
    tsr_tensor *inputs[3] = {NULL, NULL, NULL};
    unsigned constant = 0;
    for (int i = 0; i < c->n; i++) {
        inputs[i] = make_input(&c->inputs[i], i + 1);
        constant |= c->inputs[i].constant ? 1u << i : 0u;
    }
    current = c; /* the generic forms read the op from it */
    grad_harness h = {c->name, c->fn, c->n, constant, 0};
    grad_harness_check(&h, inputs, second_order);
    for (int i = 0; i < c->n; i++)
        tsr_tensor_release(inputs[i]);
}

static void gradients_match_finite_differences(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i], false);
}

static void gradients_of_gradients_match_finite_differences(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].second_order)
            run_case(&cases[i], true);
    }
}

/* ---- rules -------------------------------------------------------------- */

static tsr_tensor *leaf(int n, const double *values)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof *values, 1, (int64_t[]){n}, TSR_FLOAT64, NULL,
                           &t));
    CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void grad_of(const tsr_tensor *y, const tsr_tensor *x, int n, double *out)
{
    tsr_tensor *ones = NULL, *g = NULL;
    CHECK_OK(tsr_ones(1, (int64_t[]){n}, TSR_FLOAT64, NULL, &ones));
    const tsr_tensor *outs[1] = {y}, *wrt[1] = {x}, *seeds[1] = {ones};
    CHECK_OK(tsr_autograd_grad(outs, 1, wrt, 1, seeds, 0, &g));
    if (g)
        CHECK_OK(tsr_to_host(g, out, (size_t)n * sizeof *out));
    tsr_tensor_release(g);
    tsr_tensor_release(ones);
}

/* PyTorch's subgradients at the kinks. */
static void kinks_take_pytorchs_side(void)
{
    tsr_tensor *x = leaf(4, (double[]){-1.0, 1.0, 0.0, -0.0}), *y = NULL;
    double g[4];
    CHECK_OK(tsr_unary(TSR_OP_HARDTANH, x, &y)); /* zero at the bounds */
    grad_of(y, x, 4, g);
    CHECK_DOUBLE(g[0], 0.0, 0.0);
    CHECK_DOUBLE(g[1], 0.0, 0.0);
    CHECK_DOUBLE(g[2], 1.0, 0.0);
    tsr_tensor_release(y);
    CHECK_OK(tsr_leaky_relu(x, tsr_scalar_float(0.1), &y)); /* slope at 0 */
    grad_of(y, x, 4, g);
    CHECK_DOUBLE(g[2], 0.1, 1e-15);
    CHECK_DOUBLE(g[3], 0.1, 1e-15);
    tsr_tensor_release(y);
    tsr_tensor *o = leaf(4, (double[]){-1.0, 2.0, NAN, 5.0});
    CHECK_OK(tsr_binary(TSR_OP_FMAX, tsr_operand_tensor(x), tsr_operand_tensor(o), &y));
    grad_of(y, x, 4, g); /* ties go to self; a NaN other leaves self the gradient */
    CHECK_DOUBLE(g[0], 1.0, 0.0);
    CHECK_DOUBLE(g[1], 0.0, 0.0);
    CHECK_DOUBLE(g[2], 1.0, 0.0);
    tsr_tensor_release(y);
    tsr_tensor_release(o);
    tsr_tensor_release(x);
}

/* Recorded from torch 1.13: fmin's ties and NaNs go to self, copysign's
 * zero self gets 0, softplus exactly at its threshold is still soft, elu at
 * 0 takes the negative branch, atan2 at the origin is NaN. */
static void edge_values_match_pytorch(void)
{
    tsr_tensor *x = leaf(4, (double[]){-1.0, 1.0, NAN, -0.0});
    tsr_tensor *o = leaf(4, (double[]){-1.0, 2.0, NAN, 5.0}), *y = NULL;
    double g[4];
    CHECK_OK(tsr_binary(TSR_OP_FMIN, tsr_operand_tensor(x), tsr_operand_tensor(o), &y));
    grad_of(y, x, 4, g);
    for (int i = 0; i < 4; i++)
        CHECK_DOUBLE(g[i], 1.0, 0.0);
    tsr_tensor_release(y);
    tsr_tensor *s = leaf(4, (double[]){0.0, -0.0, 2.0, -3.0});
    tsr_tensor *sign = leaf(4, (double[]){-1.0, 1.0, -0.0, 2.0});
    CHECK_OK(tsr_binary(TSR_OP_COPYSIGN, tsr_operand_tensor(s), tsr_operand_tensor(sign), &y));
    grad_of(y, s, 4, g);
    CHECK_DOUBLE(g[0], 0.0, 0.0);
    CHECK_DOUBLE(g[1], 0.0, 0.0);
    CHECK_DOUBLE(g[2], -1.0, 0.0);
    CHECK_DOUBLE(g[3], -1.0, 0.0);
    tsr_tensor_release(y);
    tsr_tensor *t = leaf(1, (double[]){20.0});
    CHECK_OK(tsr_softplus(t, tsr_scalar_int(1), tsr_scalar_int(20), &y));
    grad_of(y, t, 1, g);
    CHECK_DOUBLE(g[0], 0.9999999979388464, 1e-16);
    tsr_tensor_release(y);
    tsr_tensor *z = leaf(1, (double[]){0.0});
    CHECK_OK(tsr_elu(z, tsr_scalar_float(0.5), tsr_scalar_int(1), tsr_scalar_int(1), &y));
    grad_of(y, z, 1, g);
    CHECK_DOUBLE(g[0], 0.5, 0.0);
    tsr_tensor_release(y);
    CHECK_OK(tsr_binary(TSR_OP_ATAN2, tsr_operand_tensor(z), tsr_operand_tensor(z), &y));
    grad_of(y, z, 1, g);
    CHECK_TRUE(isnan(g[0]));
    tsr_tensor_release(y);
    tsr_tensor_release(z);
    tsr_tensor_release(t);
    tsr_tensor_release(s);
    tsr_tensor_release(sign);
    tsr_tensor_release(x);
    tsr_tensor_release(o);
}

static void nan_to_num_passes_gradients_only_where_finite(void)
{
    tsr_tensor *x = leaf(3, (double[]){NAN, INFINITY, 2.0}), *y = NULL;
    double g[3];
    CHECK_OK(tsr_nan_to_num(x, NULL, NULL, NULL, &y));
    grad_of(y, x, 3, g);
    CHECK_DOUBLE(g[0], 0.0, 0.0);
    CHECK_DOUBLE(g[1], 0.0, 0.0);
    CHECK_DOUBLE(g[2], 1.0, 0.0);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

static void in_place_ops_on_leaves_that_require_grad_are_refused(void)
{
    tsr_tensor *x = leaf(2, (double[]){1.0, 2.0});
    CHECK_ERROR(tsr_unary_(TSR_OP_EXP2, x), TSR_ERR_AUTOGRAD, "leaf");
    CHECK_ERROR(tsr_addcmul_(x, x, x, tsr_scalar_int(1)), TSR_ERR_AUTOGRAD, "leaf");
    tsr_tensor_release(x);
}

int main(void)
{
    RUN_TEST(gradients_match_finite_differences);
    RUN_TEST(gradients_of_gradients_match_finite_differences);
    RUN_TEST(kinks_take_pytorchs_side);
    RUN_TEST(edge_values_match_pytorch);
    RUN_TEST(nan_to_num_passes_gradients_only_where_finite);
    RUN_TEST(in_place_ops_on_leaves_that_require_grad_are_refused);
    return check_summary("test_elementwise2_grad");
}
