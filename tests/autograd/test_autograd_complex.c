/* Autograd through complex tensors, in PyTorch's conjugate Wirtinger
 * convention (docs/autograd.md, "Complex numbers"): the engine (leaves,
 * roots, accumulation, hooks, version checks, views, mixed real/complex
 * graphs) against values from torch 1.13, then every op with a complex
 * formula against finite differences of its real and imaginary parts
 * (tsr_gradcheck on complex128), first order and through double backward. */
#include "check.h"
#include "grad_harness.h"

#include <stdlib.h>

/* ---- helpers ------------------------------------------------------------- */

/* A 1-d complex128 tensor from n (re, im) pairs. */
static tsr_tensor *cvec(int64_t n, const double *pairs, bool requires_grad)
{
    tsr_tensor *t = make_tensor(TSR_COMPLEX128, 1, &n, pairs, (size_t)n * 2 * sizeof *pairs);
    if (t && requires_grad)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* t must hold the n (re, im) pairs (complex) or n values (real) given. */
static void check_parts(const tsr_tensor *t, const double *expected, int64_t n, bool complex)
{
    double got[32];
    CHECK_TRUE(t != NULL);
    if (!t)
        return;
    CHECK_TRUE(tsr_dtype_is_complex(tsr_tensor_dtype(t)) == complex);
    int64_t count = complex ? 2 * n : n;
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, complex ? TSR_COMPLEX128 : TSR_FLOAT64, &wide));
    if (wide && tsr_to_host(wide, got, (size_t)count * sizeof *got) == TSR_OK) {
        for (int64_t i = 0; i < count; i++)
            CHECK_DOUBLE(got[i], expected[i], 1e-4);
    } else {
        CHECK_TRUE(!"readable tensor");
    }
    tsr_tensor_release(wide);
}

static void check_grad_parts(const tsr_tensor *t, const double *expected, int64_t n, bool complex)
{
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(t, &g));
    check_parts(g, expected, n, complex);
    tsr_tensor_release(g);
}

static const double Z[4] = {1, 2, 3, -1};         /* 1+2i, 3-1i */
static const double W[4] = {0.5, -1, -2, 0.25};   /* 0.5-1i, -2+0.25i */
static const double G[4] = {1, 1, 2, -0.5};       /* the grad_output */

/* ---- the engine ----------------------------------------------------------- */

static void complex_leaves_require_grad_and_integers_do_not(void)
{
    tsr_tensor *z = cvec(2, Z, true);
    CHECK_TRUE(tsr_tensor_requires_grad(z));
    int64_t n = 2;
    int32_t v[2] = {1, 2};
    tsr_tensor *i = make_tensor(TSR_INT32, 1, &n, v, sizeof v);
    CHECK_ERROR(tsr_tensor_set_requires_grad(i, true), TSR_ERR_DTYPE,
                "only Tensors of floating point and complex dtype can require gradients");
    tsr_tensor_release(i);
    tsr_tensor_release(z);
}

/* torch: (z*w).backward(g) gives z.grad = g*conj(w), w.grad = g*conj(z). */
static void mul_gives_pytorch_conjugate_gradients(void)
{
    tsr_tensor *z = cvec(2, Z, true), *w = cvec(2, W, true), *g = cvec(2, G, false), *y = NULL;
    CHECK_OK(tsr_mul(z, w, &y));
    CHECK_OK(tsr_backward(y, g, 0));
    const double zg[4] = {-0.5, 1.5, -4.125, 0.5}, wg[4] = {3, -1, 6.5, 0.5};
    check_grad_parts(z, zg, 2, true);
    check_grad_parts(w, wg, 2, true);
    /* a second backward accumulates: twice the gradient */
    tsr_tensor *y2 = NULL;
    CHECK_OK(tsr_mul(z, w, &y2));
    CHECK_OK(tsr_backward(y2, g, 0));
    const double zg2[4] = {-1, 3, -8.25, 1};
    check_grad_parts(z, zg2, 2, true);
    tsr_tensor_release(y2);
    tsr_tensor_release(y);
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_tensor_release(z);
}

/* torch 1.13 creates ones for a one-element complex output (the "real
 * scalar outputs" rule came later); z.exp().sum().backward() gives conj(exp z). */
static void one_element_complex_output_takes_ones(void)
{
    tsr_tensor *z = cvec(2, Z, true), *e = NULL, *s = NULL;
    CHECK_OK(tsr_unary(TSR_OP_EXP, z, &e));
    CHECK_OK(tsr_sum(e, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_OK(tsr_backward(s, NULL, 0));
    const double expected[4] = {-1.1312, -2.4717, 10.8523, 16.9014};
    check_grad_parts(z, expected, 2, true);
    CHECK_ERROR(tsr_backward(e, NULL, 0), TSR_ERR_AUTOGRAD, "implicitly created only");
    /* as torch: a complex output's grad_output has its dtype exactly */
    const double real_g[2] = {1, 1};
    int64_t two = 2;
    tsr_tensor *rg = make_tensor(TSR_FLOAT64, 1, &two, real_g, sizeof real_g);
    CHECK_ERROR(tsr_backward(e, rg, 0), TSR_ERR_DTYPE,
                "both grad_output and output are required to have the same dtype");
    tsr_tensor_release(rg);
    tsr_tensor_release(s);
    tsr_tensor_release(e);
    tsr_tensor_release(z);
}

/* A real leaf times a complex constant: its gradient is the real part of
 * g*conj(w) (PyTorch's handle_r_to_c); a complex -> real cast gives g + 0i. */
static void real_and_complex_meet(void)
{
    const double xv[2] = {0.5, -1.5};
    int64_t n = 2;
    tsr_tensor *x = make_tensor(TSR_FLOAT64, 1, &n, xv, sizeof xv);
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    tsr_tensor *w = cvec(2, W, false), *g = cvec(2, G, false), *y = NULL;
    CHECK_OK(tsr_mul(x, w, &y));
    CHECK_TRUE(tsr_tensor_dtype(y) == TSR_COMPLEX128);
    CHECK_OK(tsr_backward(y, g, 0));
    const double xg[2] = {-0.5, -4.125};
    check_grad_parts(x, xg, 2, false);

    tsr_tensor *z = cvec(2, Z, true), *r = NULL, *ones = NULL;
    CHECK_OK(tsr_to_dtype(z, TSR_FLOAT64, &r));
    CHECK_OK(tsr_ones(1, &n, TSR_FLOAT64, NULL, &ones));
    CHECK_OK(tsr_backward(r, ones, 0));
    const double zg[4] = {1, 0, 1, 0};
    check_grad_parts(z, zg, 2, true);
    tsr_tensor_release(ones);
    tsr_tensor_release(r);
    tsr_tensor_release(z);
    tsr_tensor_release(y);
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_tensor_release(x);
}

/* |z| has a real output; its gradient is g * z / |z| (torch's values). */
static void abs_of_complex_is_real_with_sgn_gradient(void)
{
    tsr_tensor *z = cvec(2, Z, true), *a = NULL;
    CHECK_OK(tsr_unary(TSR_OP_ABS, z, &a));
    CHECK_TRUE(tsr_tensor_dtype(a) == TSR_FLOAT64);
    const double gv[2] = {1, 2};
    int64_t n = 2;
    tsr_tensor *g = make_tensor(TSR_FLOAT64, 1, &n, gv, sizeof gv);
    CHECK_OK(tsr_backward(a, g, 0));
    const double expected[4] = {0.4472, 0.8944, 1.8974, -0.6325};
    check_grad_parts(z, expected, 2, true);
    tsr_tensor_release(g);
    tsr_tensor_release(a);
    tsr_tensor_release(z);
}

/* A formula that is not right for complex values refuses to run. */
static void a_real_only_formula_refuses_complex(void)
{
    tsr_tensor *z = cvec(2, Z, true), *y = NULL, *g = cvec(2, G, false);
    CHECK_OK(tsr_binary(TSR_OP_POW, tsr_operand_tensor(z),
                        tsr_operand_scalar(tsr_scalar_complex(2, 1)), &y));
    CHECK_ERROR(tsr_backward(y, g, 0), TSR_ERR_UNIMPLEMENTED,
                "the derivative of pow is not implemented for complex tensors");
    tsr_tensor_release(g);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
}

static tsr_status double_it(void *user_data, const tsr_tensor *grad, tsr_tensor **replacement)
{
    (void)user_data;
    return tsr_binary(TSR_OP_MUL, tsr_operand_tensor(grad),
                      tsr_operand_scalar(tsr_scalar_complex(0, 2)), replacement);
}

/* A hook sees and may replace a complex gradient; a saved complex tensor
 * modified in place is a version error. */
static void hooks_and_version_checks_work_on_complex(void)
{
    tsr_tensor *z = cvec(2, Z, true), *g = cvec(2, G, false), *y = NULL;
    tsr_hook_handle *h = NULL;
    CHECK_OK(tsr_register_hook(z, double_it, NULL, &h));
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(z),
                        tsr_operand_scalar(tsr_scalar_complex(0, 1)), &y));
    CHECK_OK(tsr_backward(y, g, 0));
    /* g * conj(i) = g * -i, then the hook multiplies by 2i: 2g */
    const double expected[4] = {2, 2, 4, -1};
    check_grad_parts(z, expected, 2, true);
    tsr_remove_hook(h);
    tsr_tensor_release(y);

    tsr_tensor *w = cvec(2, W, false), *c = NULL, *p = NULL;
    CHECK_OK(tsr_clone(w, &c));
    CHECK_OK(tsr_mul(z, c, &p));
    CHECK_OK(tsr_mul_(c, tsr_operand_scalar(tsr_scalar_complex(1, 1))));
    CHECK_ERROR(tsr_backward(p, g, 0), TSR_ERR_AUTOGRAD, "modified by an inplace operation");
    tsr_tensor_release(p);
    tsr_tensor_release(c);
    tsr_tensor_release(w);
    tsr_tensor_release(g);
    tsr_tensor_release(z);
}

/* A slice of a complex leaf, and an in-place op through a view of a complex
 * non-leaf (CopySlices), route complex gradients to the right elements. */
static void views_carry_complex_gradients(void)
{
    const double zv[6] = {1, 2, 3, -1, -0.5, 0.25};
    tsr_tensor *z = cvec(3, zv, true), *v = NULL, *g = cvec(2, G, false);
    CHECK_OK(tsr_slice(z, 0, 1, 3, 1, &v));
    CHECK_OK(tsr_backward(v, g, 0));
    const double expected[6] = {0, 0, 1, 1, 2, -0.5};
    check_grad_parts(z, expected, 3, true);
    tsr_tensor_release(v);
    tsr_tensor_zero_grad(z);

    /* x = z.clone(); x[1:3] *= w; backward(ones): z.grad = [1, conj(w)] */
    tsr_tensor *x = NULL, *view = NULL, *w = cvec(2, W, false), *ones = NULL;
    CHECK_OK(tsr_clone(z, &x));
    CHECK_OK(tsr_slice(x, 0, 1, 3, 1, &view));
    CHECK_OK(tsr_mul_(view, tsr_operand_tensor(w)));
    int64_t n = 3;
    CHECK_OK(tsr_ones(1, &n, TSR_COMPLEX128, NULL, &ones));
    CHECK_OK(tsr_backward(x, ones, 0));
    const double expected2[6] = {1, 0, 0.5, 1, -2, -0.25};
    check_grad_parts(z, expected2, 3, true);
    tsr_tensor_release(ones);
    tsr_tensor_release(w);
    tsr_tensor_release(view);
    tsr_tensor_release(x);
    tsr_tensor_release(g);
    tsr_tensor_release(z);
}

#include "test_autograd_complex_cases.h"

int main(void)
{
    RUN_TEST(complex_leaves_require_grad_and_integers_do_not);
    RUN_TEST(mul_gives_pytorch_conjugate_gradients);
    RUN_TEST(one_element_complex_output_takes_ones);
    RUN_TEST(real_and_complex_meet);
    RUN_TEST(abs_of_complex_is_real_with_sgn_gradient);
    RUN_TEST(a_real_only_formula_refuses_complex);
    RUN_TEST(hooks_and_version_checks_work_on_complex);
    RUN_TEST(views_carry_complex_gradients);
    RUN_TEST(every_complex_formula_matches_finite_differences);
    RUN_TEST(every_complex_gradient_matches_finite_differences_of_itself);
    RUN_TEST(gradcheck_reports_a_wrong_complex_gradient);
    return check_summary("test_autograd_complex");
}
