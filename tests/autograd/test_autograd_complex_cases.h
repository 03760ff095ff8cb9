/* The table of test_autograd_complex.c: every op with a complex formula,
 * gradchecked on complex128 inputs (float64 for the real ones of mixed
 * cases). Values keep an imaginary part of at least 0.2 in magnitude and a
 * positive real part, so no case sits on a branch cut (log, sqrt, pow,
 * asin, acosh, ...) or a kink (abs at 0). Included once. */

typedef struct cinput {
    int ndim;
    int64_t shape[3];
    bool real;     /* float64 instead of complex128 */
    bool constant; /* does not require grad */
} cinput;

typedef tsr_status (*cop_fn)(const tsr_tensor *const *in, tsr_tensor **out);

typedef struct ccase {
    const char *name;
    cop_fn fn;
    int n;
    cinput inputs[3];
    bool no_double; /* skip the double backward check */
} ccase;

static tsr_tensor *cmake_input(const cinput *spec, int salt)
{
    int64_t n = 1;
    for (int i = 0; i < spec->ndim; i++)
        n *= spec->shape[i];
    double v[128];
    for (int64_t i = 0; i < n && i < 64; i++) {
        double u = (double)((i * 37 + salt * 11) % 61) / 61.0;
        double w = (double)((i * 23 + salt * 7) % 53) / 53.0;
        v[2 * i] = 0.3 + 0.9 * u + 0.002 * (double)i;
        double im = 0.2 + 0.6 * w;
        v[2 * i + 1] = (i + salt) % 2 ? im : -im;
        if (spec->real)
            v[i] = v[2 * i] * ((i % 3) ? 1 : -1);
    }
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)n * (spec->real ? 1 : 2) * sizeof *v, spec->ndim,
                           spec->shape, spec->real ? TSR_FLOAT64 : TSR_COMPLEX128, NULL, &t));
    if (t && !spec->constant)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static tsr_operand CT(const tsr_tensor *t)
{
    return tsr_operand_tensor(t);
}

static tsr_operand CS(double re, double im)
{
    return tsr_operand_scalar(im == 0 ? tsr_scalar_float(re) : tsr_scalar_complex(re, im));
}

#define UNARY_CASE(NAME, OP)                                                              \
    static tsr_status u_##NAME(const tsr_tensor *const *in, tsr_tensor **out)             \
    {                                                                                     \
        return tsr_unary(OP, in[0], out);                                                 \
    }
UNARY_CASE(neg, TSR_OP_NEG)
UNARY_CASE(abs, TSR_OP_ABS)
UNARY_CASE(exp, TSR_OP_EXP)
UNARY_CASE(log, TSR_OP_LOG)
UNARY_CASE(sqrt, TSR_OP_SQRT)
UNARY_CASE(rsqrt, TSR_OP_RSQRT)
UNARY_CASE(sin, TSR_OP_SIN)
UNARY_CASE(cos, TSR_OP_COS)
UNARY_CASE(tanh, TSR_OP_TANH)
UNARY_CASE(sigmoid, TSR_OP_SIGMOID)
UNARY_CASE(log2, TSR_OP_LOG2)
UNARY_CASE(log10, TSR_OP_LOG10)
UNARY_CASE(tan, TSR_OP_TAN)
UNARY_CASE(asin, TSR_OP_ASIN)
UNARY_CASE(acos, TSR_OP_ACOS)
UNARY_CASE(atan, TSR_OP_ATAN)
UNARY_CASE(sinh, TSR_OP_SINH)
UNARY_CASE(cosh, TSR_OP_COSH)
UNARY_CASE(asinh, TSR_OP_ASINH)
UNARY_CASE(acosh, TSR_OP_ACOSH)
UNARY_CASE(atanh, TSR_OP_ATANH)
UNARY_CASE(reciprocal, TSR_OP_RECIPROCAL)
UNARY_CASE(square, TSR_OP_SQUARE)

#define BINARY_CASE(NAME, OP)                                                             \
    static tsr_status b_##NAME(const tsr_tensor *const *in, tsr_tensor **out)             \
    {                                                                                     \
        return tsr_binary(OP, CT(in[0]), CT(in[1]), out);                                 \
    }
BINARY_CASE(add, TSR_OP_ADD)
BINARY_CASE(sub, TSR_OP_SUB)
BINARY_CASE(mul, TSR_OP_MUL)
BINARY_CASE(div, TSR_OP_DIV)
BINARY_CASE(pow, TSR_OP_POW)

static tsr_status f_add_alpha(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_add_scaled(CT(in[0]), CT(in[1]), tsr_scalar_float(-1.5), out);
}
static tsr_status f_mul_complex_scalar(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_MUL, CT(in[0]), CS(0.5, -2), out);
}
static tsr_status f_div_by_tensor(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_DIV, CS(1.5, 0.5), CT(in[0]), out);
}
static tsr_status f_pow_real_exponent(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_POW, CT(in[0]), CS(2.5, 0), out);
}
static tsr_status f_pow_real_base(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_binary(TSR_OP_POW, CS(1.7, 0), CT(in[0]), out);
}
static tsr_status f_where(const tsr_tensor *const *in, tsr_tensor **out)
{
    const bool c[3] = {true, false, true};
    int64_t n = 3;
    tsr_tensor *cond = make_tensor(TSR_BOOL, 1, &n, c, sizeof c);
    tsr_status st = tsr_where(cond, CT(in[0]), CT(in[1]), out);
    tsr_tensor_release(cond);
    return st;
}
static tsr_status f_lerp(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_lerp(in[0], in[1], CT(in[2]), out);
}
static tsr_status f_addcmul(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_addcmul(in[0], in[1], in[2], tsr_scalar_complex(0.5, 1), out);
}
static tsr_status f_addcdiv(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_addcdiv(in[0], in[1], in[2], tsr_scalar_float(-0.75), out);
}

static const int64_t DIM1[1] = {1};
static tsr_status f_sum(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_sum(in[0], DIM1, 1, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_mean(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_mean(in[0], NULL, 0, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_prod(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_prod(in[0], DIM1, 1, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_prod_all(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_prod(in[0], NULL, 0, false, TSR_DTYPE_INFER, out);
}
#define NORM_CASE(NAME, ORD)                                                              \
    static tsr_status f_norm_##NAME(const tsr_tensor *const *in, tsr_tensor **out)        \
    {                                                                                     \
        return tsr_linalg_vector_norm(in[0], ORD, DIM1, 1, false, TSR_DTYPE_INFER, out);   \
    }
NORM_CASE(2, 2.0)
NORM_CASE(1, 1.0)
NORM_CASE(3, 3.0)
NORM_CASE(1_5, 1.5)
NORM_CASE(half, 0.5)
NORM_CASE(inf, INFINITY)
static tsr_status f_var(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_var(in[0], DIM1, 1, 1.0, false, out);
}
static tsr_status f_std(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_std(in[0], DIM1, 1, 1.0, false, out);
}
static tsr_status f_cumsum(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_cumsum(in[0], 1, TSR_DTYPE_INFER, out);
}
static tsr_status f_cumprod(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_cumprod(in[0], 1, TSR_DTYPE_INFER, out);
}

static tsr_status f_matmul(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_matmul(in[0], in[1], out);
}
static tsr_status f_mm(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_mm(in[0], in[1], out);
}
static tsr_status f_bmm(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_bmm(in[0], in[1], out);
}
static tsr_status f_dot(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_dot(in[0], in[1], out);
}
static tsr_status f_vdot(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_vdot(in[0], in[1], out);
}
static tsr_status f_outer(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_outer(in[0], in[1], out);
}
static tsr_status f_addmm(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_addmm(in[0], in[1], in[2], tsr_scalar_float(0.5), tsr_scalar_float(-2), out);
}
static tsr_status f_addmm_complex_scalars(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_addmm(in[0], in[1], in[2], tsr_scalar_complex(0.5, 1), tsr_scalar_complex(-1, 0.5),
                     out);
}
static tsr_status f_baddbmm(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_baddbmm(in[0], in[1], in[2], tsr_scalar_float(1.5), tsr_scalar_float(0.5), out);
}
static tsr_status f_einsum(const tsr_tensor *const *in, tsr_tensor **out)
{
    const tsr_tensor *ops[2] = {in[0], in[1]};
    return tsr_einsum("ij,kj->ik", ops, 2, out);
}
static tsr_status f_tensordot(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_tensordot(in[0], in[1], 1, out);
}

static tsr_status f_to_real(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_to_dtype(in[0], TSR_FLOAT64, out);
}
static tsr_status f_to_complex(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *c = NULL;
    tsr_status st = tsr_to_dtype(in[0], TSR_COMPLEX128, &c);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, CT(c), CS(1, 1), out); /* a complex output with history */
    tsr_tensor_release(c);
    return st;
}
static tsr_status f_transpose_reshape(const tsr_tensor *const *in, tsr_tensor **out)
{
    tsr_tensor *t = NULL;
    tsr_status st = tsr_transpose(in[0], 0, 1, &t);
    int64_t shape[1] = {6};
    if (st == TSR_OK)
        st = tsr_reshape(t, 1, shape, out);
    tsr_tensor_release(t);
    return st;
}
static tsr_status f_cat(const tsr_tensor *const *in, tsr_tensor **out)
{
    const tsr_tensor *parts[2] = {in[0], in[1]};
    return tsr_cat(parts, 2, 0, out);
}
static tsr_status f_index_select(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t idx[3] = {2, 0, 2};
    int64_t n = 3;
    tsr_tensor *index = make_tensor(TSR_INT64, 1, &n, idx, sizeof idx);
    tsr_status st = tsr_index_select(in[0], 0, index, out);
    tsr_tensor_release(index);
    return st;
}
static tsr_status f_masked_fill(const tsr_tensor *const *in, tsr_tensor **out)
{
    const bool m[3] = {false, true, false};
    int64_t n = 3;
    tsr_tensor *mask = make_tensor(TSR_BOOL, 1, &n, m, sizeof m);
    tsr_status st = tsr_masked_fill(in[0], mask, CS(1, -1), out);
    tsr_tensor_release(mask);
    return st;
}

static tsr_tensor *int64_vector(int64_t n, const int64_t *values)
{
    return make_tensor(TSR_INT64, 1, &n, values, (size_t)n * sizeof *values);
}
static tsr_status f_gather(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t idx[4] = {2, 2, 0, 1};
    tsr_tensor *index = int64_vector(4, idx);
    tsr_status st = tsr_gather(in[0], 0, index, out);
    tsr_tensor_release(index);
    return st;
}
static tsr_status f_scatter_add(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t idx[2] = {1, 1};
    tsr_tensor *index = int64_vector(2, idx);
    tsr_status st = tsr_scatter_add(in[0], 0, index, in[1], out);
    tsr_tensor_release(index);
    return st;
}
static tsr_status f_index_add(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t idx[2] = {2, 0};
    tsr_tensor *index = int64_vector(2, idx);
    tsr_status st = tsr_index_add(in[0], 0, index, in[1], tsr_scalar_float(-1.5), out);
    tsr_tensor_release(index);
    return st;
}
static tsr_status f_tril(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_tril(in[0], 0, out);
}
static tsr_status f_pad(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t pad[2] = {1, 2};
    return tsr_pad(in[0], pad, 2, TSR_PAD_REFLECT, tsr_scalar_float(0), out);
}
static tsr_status f_flip_roll(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t dims[1] = {1}, shifts[1] = {1};
    tsr_tensor *f = NULL;
    tsr_status st = tsr_flip(in[0], dims, 1, &f);
    if (st == TSR_OK)
        st = tsr_roll(f, shifts, 1, dims, 1, out);
    tsr_tensor_release(f);
    return st;
}
static tsr_status f_expand_diagonal(const tsr_tensor *const *in, tsr_tensor **out)
{
    const int64_t sizes[2] = {3, 3};
    tsr_tensor *e = NULL;
    tsr_status st = tsr_expand(in[0], 2, sizes, &e);
    if (st == TSR_OK)
        st = tsr_diagonal(e, 0, 0, 1, out);
    tsr_tensor_release(e);
    return st;
}
static tsr_status f_stack(const tsr_tensor *const *in, tsr_tensor **out)
{
    const tsr_tensor *parts[2] = {in[0], in[1]};
    return tsr_stack(parts, 2, 1, out);
}
static tsr_status f_sub_complex_alpha(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_sub_scaled(CT(in[0]), CT(in[1]), tsr_scalar_complex(0.5, -1.5), out);
}

#define V3 {1, {3}, false, false}
#define M23 {2, {2, 3}, false, false}
#define U(NAME) {#NAME, u_##NAME, 1, {V3}, false}
#define B(NAME) {#NAME, b_##NAME, 2, {V3, V3}, false}

static const ccase CCASES[] = {
    U(neg), U(abs), U(exp), U(log), U(sqrt), U(rsqrt), U(sin), U(cos),
    U(tanh), U(sigmoid), U(log2), U(log10), U(tan), U(asin), U(acos), U(atan),
    U(sinh), U(cosh), U(asinh), U(acosh), U(atanh), U(reciprocal), U(square),
    B(add), B(sub), B(mul), B(div), B(pow),
    {"add alpha", f_add_alpha, 2, {V3, V3}, false},
    {"mul real x complex", b_mul, 2, {{1, {3}, true, false}, V3}, false},
    {"mul complex x real", b_mul, 2, {V3, {1, {3}, true, false}}, false},
    {"div real / complex", b_div, 2, {{1, {3}, true, false}, V3}, false},
    {"mul complex scalar", f_mul_complex_scalar, 1, {V3}, false},
    {"div scalar / tensor", f_div_by_tensor, 1, {V3}, false},
    {"pow real exponent", f_pow_real_exponent, 1, {V3}, false},
    {"pow real base", f_pow_real_base, 1, {V3}, false},
    {"where", f_where, 2, {V3, V3}, false},
    {"lerp", f_lerp, 3, {V3, V3, V3}, false},
    {"addcmul", f_addcmul, 3, {V3, V3, V3}, false},
    {"addcdiv", f_addcdiv, 3, {V3, V3, V3}, false},
    {"sum", f_sum, 1, {M23}, false},
    {"mean", f_mean, 1, {M23}, false},
    {"prod", f_prod, 1, {M23}, false},
    {"prod all", f_prod_all, 1, {M23}, false},
    {"norm 2", f_norm_2, 1, {M23}, false},
    {"norm 1", f_norm_1, 1, {M23}, false},
    {"norm 3", f_norm_3, 1, {M23}, false},
    {"norm 1.5", f_norm_1_5, 1, {M23}, false},
    {"norm 0.5", f_norm_half, 1, {M23}, false},
    {"norm inf", f_norm_inf, 1, {M23}, true},
    {"var", f_var, 1, {M23}, false},
    {"std", f_std, 1, {M23}, false},
    {"cumsum", f_cumsum, 1, {M23}, false},
    {"cumprod", f_cumprod, 1, {M23}, false},
    {"matmul", f_matmul, 2, {M23, {2, {3, 2}, false, false}}, false},
    {"mm", f_mm, 2, {M23, {2, {3, 2}, false, false}}, false},
    {"bmm", f_bmm, 2, {{3, {2, 1, 3}, false, false}, {3, {2, 3, 2}, false, false}}, false},
    {"dot", f_dot, 2, {V3, V3}, false},
    {"vdot", f_vdot, 2, {V3, V3}, false},
    {"outer", f_outer, 2, {V3, {1, {2}, false, false}}, false},
    {"addmm", f_addmm, 3, {{2, {2, 2}, false, false}, M23, {2, {3, 2}, false, false}}, false},
    {"addmm complex beta alpha", f_addmm_complex_scalars, 3,
     {{2, {2, 2}, false, false}, M23, {2, {3, 2}, false, false}}, false},
    {"baddbmm", f_baddbmm, 3,
     {{3, {2, 1, 2}, false, false}, {3, {2, 1, 3}, false, false}, {3, {2, 3, 2}, false, false}},
     false},
    {"einsum", f_einsum, 2, {M23, M23}, false},
    {"tensordot", f_tensordot, 2, {M23, {2, {3, 2}, false, false}}, false},
    {"to float64", f_to_real, 1, {V3}, true},
    {"to complex128", f_to_complex, 1, {{1, {3}, true, false}}, true},
    {"transpose reshape", f_transpose_reshape, 1, {{2, {3, 2}, false, false}}, true},
    {"cat", f_cat, 2, {V3, {1, {2}, false, false}}, true},
    {"index_select", f_index_select, 1, {V3}, true},
    {"masked_fill", f_masked_fill, 1, {V3}, true},
    {"gather", f_gather, 1, {V3}, true},
    {"scatter_add", f_scatter_add, 2, {V3, {1, {2}, false, false}}, true},
    {"index_add", f_index_add, 2, {V3, {1, {2}, false, false}}, true},
    {"tril", f_tril, 1, {{2, {3, 3}, false, false}}, true},
    {"pad reflect", f_pad, 1, {{2, {2, 4}, false, false}}, true},
    {"flip roll", f_flip_roll, 1, {M23}, true},
    {"expand diagonal", f_expand_diagonal, 1, {{2, {1, 3}, false, false}}, true},
    {"stack", f_stack, 2, {V3, V3}, true},
    {"sub complex alpha", f_sub_complex_alpha, 2, {V3, V3}, false},
};

static void run_ccase(const ccase *c, bool second_order)
{
    tsr_tensor *inputs[3] = {NULL, NULL, NULL};
    unsigned constant = 0;
    for (int i = 0; i < c->n; i++) {
        inputs[i] = cmake_input(&c->inputs[i], i + 1);
        constant |= c->inputs[i].constant ? 1u << i : 0u;
    }
    grad_harness h = {c->name, c->fn, c->n, constant, 0};
    grad_harness_check(&h, inputs, second_order);
    for (int i = 0; i < c->n; i++)
        tsr_tensor_release(inputs[i]);
}

static void every_complex_formula_matches_finite_differences(void)
{
    for (size_t i = 0; i < sizeof CCASES / sizeof CCASES[0]; i++)
        run_ccase(&CCASES[i], false);
}

static void every_complex_gradient_matches_finite_differences_of_itself(void)
{
    for (size_t i = 0; i < sizeof CCASES / sizeof CCASES[0]; i++) {
        if (!CCASES[i].no_double)
            run_ccase(&CCASES[i], true);
    }
}

static tsr_status f_wrong(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)context, (void)n;
    /* z * detach(z): autograd sees g conj(z), finite differences 2 g conj(z) */
    tsr_tensor *d = NULL;
    tsr_status st = tsr_detach(in[0], &d);
    if (st == TSR_OK)
        st = tsr_mul(in[0], d, out);
    tsr_tensor_release(d);
    return st;
}

static void gradcheck_reports_a_wrong_complex_gradient(void)
{
    const cinput spec = V3;
    tsr_tensor *z = cmake_input(&spec, 1);
    double worst = 0;
    CHECK_ERROR(tsr_gradcheck(f_wrong, NULL, (const tsr_tensor *const *)&z, 1, NULL, &worst),
                TSR_ERR_AUTOGRAD, "input element (real part) 0");
    CHECK_TRUE(worst > 0.1);
    tsr_tensor_release(z);
}
