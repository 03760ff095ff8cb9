/* Gradients of the reductions and scans: autograd's Jacobian against central
 * finite differences in float64 (tsr_gradcheck), the Jacobian of the
 * gradient itself (double backward) where the formula is smooth, and the
 * rules finite differences cannot see: ties, zeros of prod and cumprod, NaN,
 * the indices of cummax and cummin, and large inputs of logcumsumexp.
 * Inputs stay away from ties and kinks.
 *
 * Families here: reduce and scan (cumsum, cumprod, cummax, cummin,
 * logcumsumexp). */
#include "check.h"
#include "grad_harness.h"

#include <stdlib.h>

/* ---- inputs ------------------------------------------------------------- */

typedef struct input_spec {
    int ndim;
    int64_t shape[4];
    const double *values; /* NULL: distinct values spread over [-1.5, 1.5] */
} input_spec;

static tsr_tensor *make_input(const input_spec *spec)
{
    int64_t n = 1;
    for (int i = 0; i < spec->ndim; i++)
        n *= spec->shape[i];
    double v[64];
    for (int64_t i = 0; i < n && i < 64; i++) {
        double u = (double)((i * 37 + 11) % 61) / 61.0 + 0.003 * (double)i;
        v[i] = spec->values ? spec->values[i] : -1.5 + 3.0 * (u - (double)(int)u);
    }
    tsr_tensor *t = NULL;
    CHECK_OK(
        tsr_from_host(v, (size_t)n * sizeof *v, spec->ndim, spec->shape, TSR_FLOAT64, NULL, &t));
    if (t)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* ---- the functions under test ------------------------------------------ */

typedef tsr_status (*op_fn)(const tsr_tensor *x, tsr_tensor **out);

typedef struct grad_case {
    const char *name;
    op_fn fn;
    input_spec input;
    bool no_double; /* the gradient is piecewise constant in x (masks, indices) */
} grad_case;

static const int64_t DIMS_0_2[2] = {0, 2};
static const int64_t DIM_1[1] = {1};
static const int64_t DIM_MINUS_1[1] = {-1};

static tsr_status f_sum_dims(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_sum(x, DIMS_0_2, 2, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_sum_all(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_sum(x, NULL, 0, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_nansum(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_nansum(x, DIM_1, 1, true, TSR_DTYPE_INFER, out);
}
static tsr_status f_mean(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_mean(x, DIM_MINUS_1, 1, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_nanmean(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_nanmean(x, DIMS_0_2, 2, true, TSR_DTYPE_INFER, out);
}
static tsr_status f_prod_dim(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_prod(x, DIM_1, 1, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_prod_all(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_prod(x, NULL, 0, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_amax(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_amax(x, DIMS_0_2, 2, false, out);
}
static tsr_status f_amin(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_amin(x, DIM_1, 1, true, out);
}
static tsr_status f_max_all(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_max(x, out);
}
static tsr_status f_min_all(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_min(x, out);
}
static tsr_status f_max_dim(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *indices = NULL;
    tsr_status st = tsr_max_dim(x, 1, false, out, &indices);
    tsr_tensor_release(indices);
    return st;
}
static tsr_status f_min_dim(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *indices = NULL;
    tsr_status st = tsr_min_dim(x, 0, true, out, &indices);
    tsr_tensor_release(indices);
    return st;
}
/* Two outputs summed, so one gradcheck covers both. */
static tsr_status added(tsr_status st, tsr_tensor *a, tsr_tensor *b, tsr_tensor **out)
{
    if (st == TSR_OK)
        st = tsr_add(a, b, out);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    return st;
}
static tsr_status f_aminmax(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *lo = NULL, *hi = NULL;
    tsr_status st = tsr_aminmax(x, DIM_1, 1, false, &lo, &hi);
    return added(st, lo, hi, out);
}
static tsr_status f_var(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_var(x, DIMS_0_2, 2, 1.0, false, out);
}
static tsr_status f_var_population(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_var(x, NULL, 0, 0.0, true, out);
}
static tsr_status f_std(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_std(x, DIM_1, 1, 2.0, false, out);
}
static tsr_status f_var_mean(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *v = NULL, *m = NULL;
    tsr_status st = tsr_var_mean(x, DIM_1, 1, 1.0, false, &v, &m);
    return added(st, v, m, out);
}
static tsr_status f_std_mean(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *s = NULL, *m = NULL;
    tsr_status st = tsr_std_mean(x, DIMS_0_2, 2, 0.0, true, &s, &m);
    return added(st, s, m, out);
}
static tsr_status norm_of(const tsr_tensor *x, double ord, tsr_tensor **out)
{
    return tsr_linalg_vector_norm(x, ord, DIM_1, 1, false, TSR_DTYPE_INFER, out);
}
static tsr_status f_norm_1(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, 1.0, out);
}
static tsr_status f_norm_2(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, 2.0, out);
}
static tsr_status f_norm_3p5(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, 3.5, out);
}
static tsr_status f_norm_1p5(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, 1.5, out);
}
static tsr_status f_norm_0p5(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, 0.5, out);
}
static tsr_status f_norm_inf(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, INFINITY, out);
}
static tsr_status f_norm_minus_inf(const tsr_tensor *x, tsr_tensor **out)
{
    return norm_of(x, -INFINITY, out);
}
static tsr_status f_norm_all(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_linalg_vector_norm(x, 2.0, NULL, 0, true, TSR_DTYPE_INFER, out);
}
static tsr_status f_logsumexp(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_logsumexp(x, DIMS_0_2, 2, true, out);
}
static tsr_status f_cumsum(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_cumsum(x, 1, TSR_DTYPE_INFER, out);
}
static tsr_status f_cumprod(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_cumprod(x, -1, TSR_DTYPE_INFER, out);
}
static tsr_status f_cummax(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *indices = NULL;
    tsr_status st = tsr_cummax(x, 0, out, &indices);
    tsr_tensor_release(indices);
    return st;
}
static tsr_status f_cummin(const tsr_tensor *x, tsr_tensor **out)
{
    tsr_tensor *indices = NULL;
    tsr_status st = tsr_cummin(x, -1, out, &indices);
    tsr_tensor_release(indices);
    return st;
}
static tsr_status f_logcumsumexp(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_logcumsumexp(x, 1, out);
}

#define IN(...)                                                                                    \
    {                                                                                              \
        .ndim = sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), .shape = { __VA_ARGS__ }       \
    }
#define VALUES(v, ...)                                                                             \
    {                                                                                              \
        .ndim = sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), .shape = {__VA_ARGS__},        \
        .values = (v)                                                                              \
    }

static const double ONE_ZERO[6] = {1.5, 0.0, -2.0, 0.7, 1.2, -0.4};
static const double TWO_ZEROS[6] = {1.5, 0.0, 0.0, 0.7, 1.2, -0.4};
static const double CUMPROD_ZEROS[8] = {2.0, 0.0, 3.0, 0.0, -1.0, 0.5, 0.0, 1.5};

static const grad_case CASES[] = {
    {"sum_dims", f_sum_dims, IN(2, 3, 4), false},
    {"sum_all", f_sum_all, IN(3, 2), false},
    {"nansum", f_nansum, IN(2, 3), false},
    {"mean", f_mean, IN(2, 3, 2), false},
    {"nanmean", f_nanmean, IN(2, 3, 2), false},
    {"prod_dim", f_prod_dim, IN(2, 3), false},
    {"prod_all", f_prod_all, IN(2, 3), false},
    {"prod_one_zero", f_prod_dim, VALUES(ONE_ZERO, 2, 3), false},
    {"prod_two_zeros", f_prod_all, VALUES(TWO_ZEROS, 6), false},
    {"amax", f_amax, IN(2, 3, 2), true},
    {"amin", f_amin, IN(3, 4), true},
    {"max_all", f_max_all, IN(2, 3), true},
    {"min_all", f_min_all, IN(5), true},
    {"max_dim", f_max_dim, IN(3, 4), true},
    {"min_dim", f_min_dim, IN(3, 4), true},
    {"aminmax", f_aminmax, IN(3, 4), true},
    {"var", f_var, IN(2, 3, 4), false},
    {"var_population_all", f_var_population, IN(3, 2), false},
    {"std_correction_2", f_std, IN(2, 5), false},
    {"var_mean", f_var_mean, IN(3, 4), false},
    {"std_mean", f_std_mean, IN(2, 3, 2), false},
    {"norm_1", f_norm_1, IN(3, 4), true},
    {"norm_2", f_norm_2, IN(3, 4), false},
    {"norm_3p5", f_norm_3p5, IN(3, 4), false},
    {"norm_1p5", f_norm_1p5, IN(3, 4), false},
    {"norm_0p5", f_norm_0p5, IN(3, 4), false},
    {"norm_inf", f_norm_inf, IN(3, 4), true},
    {"norm_minus_inf", f_norm_minus_inf, IN(3, 4), true},
    {"norm_all_keepdim", f_norm_all, IN(2, 3), false},
    {"logsumexp", f_logsumexp, IN(2, 3, 2), false},
    {"cumsum", f_cumsum, IN(2, 4), false},
    {"cumprod", f_cumprod, IN(2, 4), false},
    {"cumprod_zeros", f_cumprod, VALUES(CUMPROD_ZEROS, 2, 4), false},
    {"cummax", f_cummax, IN(3, 4), true},
    {"cummin", f_cummin, IN(3, 4), true},
    {"logcumsumexp", f_logcumsumexp, IN(2, 4), false},
    {"logcumsumexp_3d", f_logcumsumexp, IN(2, 3, 2), false},
};

/* ---- gradcheck ---------------------------------------------------------- */

static const grad_case *current;

static tsr_status call_current(const tsr_tensor *const *inputs, tsr_tensor **output)
{
    return current->fn(inputs[0], output);
}

static void run_case(const grad_case *c, bool second_order)
{
    tsr_tensor *x = make_input(&c->input);
    current = c;
    grad_harness h = {c->name, call_current, 1, 0, 0};
    grad_harness_check(&h, &x, second_order);
    tsr_tensor_release(x);
}

static void every_reduction_matches_finite_differences(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        run_case(&CASES[i], false);
}

static void smooth_gradients_match_finite_differences_of_themselves(void)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        if (!CASES[i].no_double)
            run_case(&CASES[i], true);
    }
}

/* ---- rules finite differences cannot see -------------------------------- */

/* d(sum of f(x))/dx as host values. */
static bool gradient_of(op_fn fn, const double *values, int ndim, const int64_t *shape,
                        double *grad, int64_t n)
{
    tsr_tensor *x = NULL, *y = NULL, *total = NULL, *g = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof *values, ndim, shape, TSR_FLOAT64, NULL, &x));
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(fn(x, &y));
    CHECK_OK(tsr_sum(y, NULL, 0, false, TSR_DTYPE_INFER, &total));
    CHECK_OK(tsr_backward(total, NULL, 0));
    CHECK_OK(tsr_tensor_grad(x, &g));
    bool ok = g && tsr_to_host(g, grad, (size_t)n * sizeof *grad) == TSR_OK;
    CHECK_TRUE(ok);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(total);
    tsr_tensor_release(g);
    return ok;
}

static void check_gradient(const char *what, op_fn fn, const double *values, int ndim,
                           const int64_t *shape, const double *expected, int64_t n)
{
    double grad[16];
    if (!gradient_of(fn, values, ndim, shape, grad, n))
        return;
    for (int64_t i = 0; i < n; i++) {
        check_count++;
        bool same = (isnan(grad[i]) && isnan(expected[i])) || fabs(grad[i] - expected[i]) < 1e-12;
        if (!same)
            CHECK_FAIL_("%s: gradient[%lld] is %.17g, PyTorch gives %.17g", what, (long long)i,
                        grad[i], expected[i]);
    }
}

static tsr_status f_amax_dim1(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_amax(x, DIM_1, 1, false, out);
}

static void amax_splits_the_gradient_evenly_between_ties(void)
{
    const double x[6] = {3, 1, 3, 3, -3, -3};
    const int64_t shape[2] = {2, 3};
    check_gradient("amax", f_amax_dim1, x, 2, shape, (const double[]){0.5, 0, 0.5, 1, 0, 0}, 6);
    const double all[6] = {2, -2, 2, -2, 2, -2};
    const int64_t six = 6;
    check_gradient("max()", f_max_all, all, 1, &six,
                   (const double[]){1.0 / 3, 0, 1.0 / 3, 0, 1.0 / 3, 0}, 6);
}

static void max_dim_sends_the_gradient_to_the_first_tied_index(void)
{
    const double x[6] = {3, 1, 3, -3, -3, 0};
    const int64_t shape[2] = {2, 3};
    check_gradient("max(dim)", f_max_dim, x, 2, shape, (const double[]){1, 0, 0, 0, 0, 1}, 6);
}

static void max_of_everything_sends_the_gradient_to_the_nans(void)
{
    const double x[4] = {1, NAN, 5, NAN};
    const int64_t four = 4;
    check_gradient("max() with NaN", f_max_all, x, 1, &four, (const double[]){0, 0.5, 0, 0.5}, 4);
    /* amax keeps PyTorch's (g / 0) * 0: NaN on a row whose maximum is NaN */
    const int64_t shape[2] = {2, 2};
    const double y[4] = {1, NAN, 2, 3};
    check_gradient("amax with NaN", f_amax_dim1, y, 2, shape, (const double[]){NAN, NAN, 0, 1}, 4);
}

static void prod_with_zeros_gives_the_product_of_the_others(void)
{
    const int64_t shape[2] = {2, 3};
    check_gradient("prod one zero", f_prod_dim, ONE_ZERO, 2, shape,
                   (const double[]){0, -3.0, 0, 1.2 * -0.4, 0.7 * -0.4, 0.7 * 1.2}, 6);
    const int64_t six = 6;
    check_gradient("prod two zeros", f_prod_all, TWO_ZEROS, 1, &six,
                   (const double[]){0, 0, 0, 0, 0, 0}, 6);
}

static void cumprod_with_zeros_matches_pytorch(void)
{
    /* torch.cumprod(x, 1).sum().backward() for x = [[2, 0, 3, 0], [-1, .5, 0, 1.5]] */
    const int64_t shape[2] = {2, 4};
    const double expected[8] = {1, 8, 0, 0, 1.5, -1, -1.25, 0};
    check_gradient("cumprod zeros", f_cumprod, CUMPROD_ZEROS, 2, shape, expected, 8);
    /* with create_graph the quadratic, twice differentiable form runs: same values */
    tsr_tensor *x = NULL, *y = NULL, *total = NULL, *g = NULL;
    CHECK_OK(tsr_from_host(CUMPROD_ZEROS, sizeof CUMPROD_ZEROS, 2, shape, TSR_FLOAT64, NULL, &x));
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(tsr_cumprod(x, 1, TSR_DTYPE_INFER, &y));
    CHECK_OK(tsr_sum(y, NULL, 0, false, TSR_DTYPE_INFER, &total));
    const tsr_tensor *outs[1] = {total}, *wrt[1] = {x};
    CHECK_OK(tsr_autograd_grad(outs, 1, wrt, 1, NULL, TSR_GRAD_CREATE_GRAPH, &g));
    double got[8] = {0};
    CHECK_OK(g ? tsr_to_host(g, got, sizeof got) : TSR_ERR_AUTOGRAD);
    for (int i = 0; i < 8; i++)
        CHECK_DOUBLE(got[i], expected[i], 1e-12);
    CHECK_TRUE(g && tsr_tensor_requires_grad(g));
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(total);
    tsr_tensor_release(g);
}

static void norm_two_of_zeros_has_zero_gradient(void)
{
    const double zeros[3] = {0, 0, 0};
    const int64_t three = 3;
    check_gradient("norm of zeros", f_norm_all, zeros, 1, &three, (const double[]){0, 0, 0}, 3);
}

static void cummax_sends_the_gradient_to_the_running_maximum(void)
{
    /* torch.cummax(x, 0) for x = [1, 3, 2, 4]: indices [0, 1, 1, 3] */
    const double v[4] = {1, 3, 2, 4};
    const int64_t four = 4;
    check_gradient("cummax", f_cummax, v, 1, &four, (const double[]){1, 2, 0, 1}, 4);
    /* torch.cummin(x, -1) for x = [3, 1, 2, 0]: indices [0, 1, 1, 3] */
    const double w[4] = {3, 1, 2, 0};
    check_gradient("cummin", f_cummin, w, 1, &four, (const double[]){1, 2, 0, 1}, 4);
}

static tsr_status f_logcumsumexp_0(const tsr_tensor *x, tsr_tensor **out)
{
    return tsr_logcumsumexp(x, 0, out);
}

static void logcumsumexp_gradient_is_stable_for_large_inputs(void)
{
    /* exp(x) overflows; the gradient of the sum is [1 + 1/2, 1/2] */
    const double v[2] = {1000, 1000};
    const int64_t two = 2;
    check_gradient("logcumsumexp large", f_logcumsumexp_0, v, 1, &two, (const double[]){1.5, 0.5},
                   2);
}

static void integer_results_record_nothing(void)
{
    tsr_tensor *x = make_input(&(input_spec)IN(2, 3)), *a = NULL, *c = NULL, *s = NULL;
    CHECK_OK(tsr_argmax(x, NULL, 0, false, &a));
    CHECK_OK(tsr_count_nonzero(x, NULL, 0, &c));
    CHECK_OK(tsr_sum(x, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_TRUE(!tsr_tensor_requires_grad(a) && !tsr_tensor_requires_grad(c));
    CHECK_STR(tsr_tensor_grad_fn_name(s), "sum");
    tsr_tensor_release(x);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(s);
}

int main(void)
{
    RUN_TEST(every_reduction_matches_finite_differences);
    RUN_TEST(smooth_gradients_match_finite_differences_of_themselves);
    RUN_TEST(amax_splits_the_gradient_evenly_between_ties);
    RUN_TEST(max_dim_sends_the_gradient_to_the_first_tied_index);
    RUN_TEST(max_of_everything_sends_the_gradient_to_the_nans);
    RUN_TEST(prod_with_zeros_gives_the_product_of_the_others);
    RUN_TEST(cumprod_with_zeros_matches_pytorch);
    RUN_TEST(norm_two_of_zeros_has_zero_gradient);
    RUN_TEST(cummax_sends_the_gradient_to_the_running_maximum);
    RUN_TEST(logcumsumexp_gradient_is_stable_for_large_inputs);
    RUN_TEST(integer_results_record_nothing);
    return check_summary("test_reduce_grad");
}
