/* Gradients of the linalg ops in float64, against central finite
 * differences (tsr_gradcheck): the kernels' own formulas (cholesky,
 * lu_factor, solve_triangular, cholesky_solve) and the composites built on
 * them (solve, inv, det, slogdet, logdet, lu_solve), eigh and the SVD
 * through gauge-invariant functions, and double backward through cholesky. */
#include "check_values.h"

#include <math.h>

static tsr_tensor *leaf(int ndim, const int64_t *shape, int salt, double diag)
{
    double v[128];
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    int64_t cols = shape[ndim - 1], rows = ndim > 1 ? shape[ndim - 2] : 1;
    for (int64_t i = 0; i < n && i < 128; i++) {
        int64_t r = (i / cols) % rows, c = i % cols;
        v[i] = sin(salt + 0.7 * (double)i) + (r == c ? diag : 0.0);
    }
    tsr_tensor *t = from_doubles(v, ndim, shape, TSR_FLOAT64);
    CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* A float64 leaf of full rank with distinct singular values: a quadratic
 * phase, where leaf's linear one gives matrices of rank 2. */
static tsr_tensor *rough_leaf(int ndim, const int64_t *shape, int salt)
{
    double v[128];
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    for (int64_t i = 0; i < n && i < 128; i++)
        v[i] = sin(1.3 * salt + 0.7 * (double)(i * i) + 0.1 * (double)i);
    tsr_tensor *t = from_doubles(v, ndim, shape, TSR_FLOAT64);
    CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void gradcheck(tsr_gradcheck_fn fn, int which, tsr_tensor **inputs, int n)
{
    double worst = 0;
    tsr_status st = tsr_gradcheck(fn, &which, (const tsr_tensor *const *)inputs, n, NULL, &worst);
    if (st != TSR_OK)
        fprintf(stderr, "  gradcheck case %d: %s\n", which, tsr_last_error());
    CHECK_OK(st);
    for (int i = 0; i < n; i++)
        tsr_tensor_release(inputs[i]);
}

/* A A^T + 3 I: positive-definite for any A, so cholesky is smooth at A. */
static tsr_status spd(const tsr_tensor *a, tsr_tensor **out)
{
    tsr_tensor *at = NULL, *p = NULL, *eye = NULL;
    int64_t n = tsr_tensor_shape(a)[tsr_tensor_ndim(a) - 1];
    tsr_status st = tsr_transpose(a, -2, -1, &at);
    if (st == TSR_OK)
        st = tsr_matmul(a, at, &p);
    if (st == TSR_OK)
        st = tsr_eye(n, n, TSR_FLOAT64, tsr_tensor_backend(a), &eye);
    if (st == TSR_OK)
        st = tsr_add_scaled(tsr_operand_tensor(p), tsr_operand_tensor(eye), tsr_scalar_float(3.0),
                            out);
    tsr_tensor_release(at);
    tsr_tensor_release(p);
    tsr_tensor_release(eye);
    return st;
}

static tsr_status f_cholesky(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    tsr_tensor *a = NULL;
    tsr_status st = spd(in[0], &a);
    if (st == TSR_OK)
        st = tsr_linalg_cholesky(a, *(int *)c == 1, out);
    tsr_tensor_release(a);
    return st;
}

static tsr_status f_factor(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    tsr_tensor *lu = NULL, *piv = NULL, *a = NULL;
    tsr_status st;
    switch (*(int *)c) {
    case 0:
        st = tsr_linalg_lu_factor(in[0], true, out, &piv);
        break;
    case 1:
        st = tsr_linalg_lu_factor(in[0], true, &lu, &piv);
        if (st == TSR_OK)
            st = tsr_linalg_lu_solve(lu, piv, in[1], true, false, out);
        break;
    case 2:
        st = tsr_linalg_lu_factor(in[0], true, &lu, &piv);
        if (st == TSR_OK)
            st = tsr_linalg_lu_solve(lu, piv, in[1], false, true, out);
        break;
    default: /* the factor as tril(M): PyTorch's gradient treats L as a whole matrix */
        st = tsr_tril(in[0], 0, &a);
        if (st == TSR_OK)
            st = tsr_cholesky_solve(in[1], a, false, out);
        break;
    }
    tsr_tensor_release(lu);
    tsr_tensor_release(piv);
    tsr_tensor_release(a);
    return st;
}

static tsr_status f_triangular(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    int w = *(int *)c;
    return tsr_linalg_solve_triangular(in[0], in[1], w & 1, (w & 2) == 0, (w & 4) != 0, out);
}

static tsr_status f_solve(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    tsr_tensor *sign = NULL;
    tsr_status st;
    switch (*(int *)c) {
    case 0:
        return tsr_linalg_solve(in[0], in[1], true, out);
    case 1:
        return tsr_linalg_solve(in[0], in[1], false, out);
    case 2:
        return tsr_linalg_inv(in[0], out);
    case 3:
        return tsr_linalg_det(in[0], out);
    case 4:
        st = tsr_linalg_slogdet(in[0], &sign, out);
        tsr_tensor_release(sign);
        return st;
    default:
        return tsr_logdet(in[0], out);
    }
}

/* Gauge-invariant functions of the spectral ops: values, and elementwise
 * squares of vectors (a column's sign flip cancels in them). */
static tsr_status f_spectral(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    tsr_tensor *at = NULL, *sym = NULL, *w = NULL, *v = NULL, *u = NULL, *vh = NULL;
    tsr_status st = TSR_OK;
    int which = *(int *)c;
    if (which <= 1) {
        st = tsr_transpose(in[0], -2, -1, &at);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(in[0]), tsr_operand_tensor(at), &sym);
    }
    switch (which) {
    case 0:
        if (st == TSR_OK)
            st = tsr_linalg_eigvalsh(sym, "L", out);
        break;
    case 1:
        if (st == TSR_OK)
            st = tsr_linalg_eigh(sym, "U", &w, &v);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(v), tsr_operand_tensor(v), out);
        break;
    case 2:
        st = tsr_linalg_svdvals(in[0], out);
        break;
    case 5: /* R * R: R's row signs cancel; and Q * Q likewise */
    case 6:
        st = tsr_linalg_qr(in[0], "reduced", &u, &vh);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(which == 5 ? vh : u),
                            tsr_operand_tensor(which == 5 ? vh : u), out);
        break;
    default:
        st = tsr_linalg_svd(in[0], false, &u, &w, &vh);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(which == 3 ? u : vh),
                            tsr_operand_tensor(which == 3 ? u : vh), out);
        break;
    }
    tsr_tensor *all[] = {at, sym, w, v, u, vh};
    for (int i = 0; i < 6; i++)
        tsr_tensor_release(all[i]);
    return st;
}

static void eigh_svd_and_qr_gradients_match_finite_differences(void)
{
    gradcheck(f_spectral, 0, (tsr_tensor *[]){rough_leaf(3, (int64_t[]){2, 4, 4}, 40)}, 1);
    gradcheck(f_spectral, 1, (tsr_tensor *[]){rough_leaf(2, (int64_t[]){4, 4}, 41)}, 1);
    gradcheck(f_spectral, 2, (tsr_tensor *[]){rough_leaf(2, (int64_t[]){4, 3}, 42)}, 1);
    gradcheck(f_spectral, 2, (tsr_tensor *[]){rough_leaf(2, (int64_t[]){3, 5}, 43)}, 1);
    for (int w = 5; w <= 6; w++) {
        gradcheck(f_spectral, w, (tsr_tensor *[]){rough_leaf(2, (int64_t[]){5, 3}, 60 + w)}, 1);
        gradcheck(f_spectral, w, (tsr_tensor *[]){rough_leaf(3, (int64_t[]){2, 3, 3}, 70 + w)}, 1);
    }
    for (int w = 3; w <= 4; w++) {
        gradcheck(f_spectral, w, (tsr_tensor *[]){rough_leaf(2, (int64_t[]){5, 3}, 44 + w)}, 1);
        gradcheck(f_spectral, w, (tsr_tensor *[]){rough_leaf(2, (int64_t[]){3, 5}, 50 + w)}, 1);
    }
}

static void cholesky_gradients_match_finite_differences(void)
{
    for (int upper = 0; upper < 2; upper++)
        gradcheck(f_cholesky, upper, (tsr_tensor *[]){leaf(3, (int64_t[]){2, 3, 3}, 1, 0.0)}, 1);
}

static void lu_factor_and_lu_solve_gradients_match_finite_differences(void)
{
    gradcheck(f_factor, 0, (tsr_tensor *[]){leaf(2, (int64_t[]){4, 4}, 2, 2.0)}, 1);
    for (int w = 1; w <= 2; w++)
        gradcheck(f_factor, w,
                  (tsr_tensor *[]){leaf(2, (int64_t[]){3, 3}, 3, 2.0),
                                   leaf(2, (int64_t[]){3, 3}, 4, 0.0)},
                  2);
    gradcheck(
        f_factor, 3,
        (tsr_tensor *[]){leaf(2, (int64_t[]){3, 3}, 5, 3.0), leaf(2, (int64_t[]){3, 2}, 6, 0.0)},
        2);
}

static void solve_triangular_gradients_match_finite_differences(void)
{
    for (int w = 0; w < 8; w++) {
        int64_t bshape[2] = {(w & 2) ? 2 : 3, (w & 2) ? 3 : 2};
        gradcheck(
            f_triangular, w,
            (tsr_tensor *[]){leaf(2, (int64_t[]){3, 3}, 7 + w, 3.0), leaf(2, bshape, 20 + w, 0.0)},
            2);
    }
}

static void solve_inv_and_determinant_gradients_match_finite_differences(void)
{
    gradcheck(
        f_solve, 0,
        (tsr_tensor *[]){leaf(3, (int64_t[]){2, 3, 3}, 8, 2.0), leaf(2, (int64_t[]){3, 2}, 9, 0.0)},
        2);
    gradcheck(
        f_solve, 1,
        (tsr_tensor *[]){leaf(2, (int64_t[]){3, 3}, 10, 2.0), leaf(2, (int64_t[]){2, 3}, 11, 0.0)},
        2);
    for (int w = 2; w <= 5; w++)
        gradcheck(f_solve, w, (tsr_tensor *[]){leaf(3, (int64_t[]){2, 3, 3}, 12 + w, 2.0)}, 1);
}

/* The gradient of sum(cholesky(A A^T + 3I)) is itself differentiable. */
static void cholesky_backward_is_differentiable_again(void)
{
    tsr_tensor *a = leaf(2, (int64_t[]){3, 3}, 30, 0.0), *l = NULL, *s = NULL, *g = NULL,
               *gs = NULL;
    int upper = 0;
    const tsr_tensor *in[1] = {a};
    CHECK_OK(f_cholesky(&upper, in, 1, &l));
    CHECK_OK(tsr_sum(l, NULL, 0, false, TSR_DTYPE_INFER, &s));
    tsr_tensor *results[1] = {NULL};
    const tsr_tensor *outs[1] = {s};
    CHECK_OK(tsr_autograd_grad(outs, 1, in, 1, NULL, TSR_GRAD_CREATE_GRAPH, results));
    g = results[0];
    CHECK_TRUE(g && tsr_tensor_requires_grad(g));
    if (g) {
        tsr_tensor *second[1] = {NULL};
        CHECK_OK(tsr_sum(g, NULL, 0, false, TSR_DTYPE_INFER, &gs));
        const tsr_tensor *outs2[1] = {gs};
        CHECK_OK(tsr_autograd_grad(outs2, 1, in, 1, NULL, 0, second));
        CHECK_TRUE(second[0] != NULL);
        tsr_tensor_release(second[0]);
    }
    tsr_tensor *all[] = {a, l, s, g, gs};
    for (int i = 0; i < 5; i++)
        tsr_tensor_release(all[i]);
}

int main(void)
{
    RUN_TEST(cholesky_gradients_match_finite_differences);
    RUN_TEST(lu_factor_and_lu_solve_gradients_match_finite_differences);
    RUN_TEST(solve_triangular_gradients_match_finite_differences);
    RUN_TEST(solve_inv_and_determinant_gradients_match_finite_differences);
    RUN_TEST(cholesky_backward_is_differentiable_again);
    RUN_TEST(eigh_svd_and_qr_gradients_match_finite_differences);
    return check_summary("test_linalg_grad");
}
