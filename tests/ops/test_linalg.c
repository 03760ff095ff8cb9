/* Linear algebra: the seeds' residual bounds for Cholesky, LU and
 * triangular solves on hard inputs (linalg_support.h), results that depend
 * on a matrix's values alone, and PyTorch's errors. Runs on the default
 * backend; CTest runs it on reference and on cpu (tests/ops/CMakeLists.txt).
 * QR, eigh and the SVD are in test_linalg_spectral.c. */
#include "linalg_support.h"

/* ---- Cholesky: L L^H = A + D, |D_ij| <= gamma(n+1) (|L||L^H|)_ij + eps(n+1)(1 + L_jj) */

static int cholesky_violations(const lc *a, const lc *l, int n, tsr_dtype d)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            lc s = 0;
            long double bound = 0;
            for (int k = 0; k <= j; k++) {
                s += l[i * n + k] * conjl(l[j * n + k]);
                bound += cabsl(l[i * n + k]) * cabsl(l[j * n + k]);
            }
            lc aij = i == j ? (lc)creall(a[i * n + j]) : a[i * n + j];
            long double allowed =
                gamma_k(d, n + 1) * bound + eps_k(d, n + 1) * (1 + cabsl(l[j * n + j]));
            if (!(cabsl(s - aij) <= allowed))
                bad++;
        }
    return bad;
}

static void cholesky_meets_its_residual_bound_on_hard_inputs(void)
{
    for (size_t di = 0; di < 4; di++)
        for (int kind = RANDOM; kind <= HUGE_; kind++) {
            tsr_dtype d = DTYPES[di];
            for (int n = 5; n <= 21; n += 16) {
                if (kind == HILBERT && n > 5) /* order 21 is numerically indefinite */
                    continue;
                double complex a[N_MAX * N_MAX];
                hard_matrix(kind, n, true, is_complex(d), d, a);
                tsr_tensor *t = make(a, 2, (int64_t[]){n, n}, d), *l = NULL, *info = NULL;
                CHECK_OK(tsr_linalg_cholesky_ex(t, false, false, &l, &info));
                int32_t *code = host_int32(info);
                lc *ah = host(t), *lh = host(l);
                int bad = code[0] == 0 ? cholesky_violations(ah, lh, n, d) : -1;
                if (bad != 0)
                    fprintf(stderr, "  cholesky %s n=%d %s: info %d, %d elements over the bound\n",
                            tsr_dtype_name(d), n, KIND_NAMES[kind], code[0], bad);
                CHECK_INT(code[0], 0);
                CHECK_INT(bad, 0);
                /* the reference's upper factor is its lower one's conjugate
                 * transpose, bit for bit (LAPACK's two paths may round apart) */
                tsr_tensor *u = NULL, *lt = NULL, *eq = NULL, *all = NULL;
                CHECK_OK(tsr_linalg_cholesky(t, true, &u));
                CHECK_OK(tsr_transpose(u, 0, 1, &lt));
                lc *uh = host(lt);
                int differ = 0;
                for (int e = 0; e < n * n && on_reference(); e++)
                    differ += creall(uh[e]) != creall(lh[e]) || cimagl(uh[e]) != -cimagl(lh[e]);
                CHECK_INT(differ, 0);
                free(code);
                free(ah);
                free(lh);
                free(uh);
                release_all((tsr_tensor *[]){t, l, info, u, lt, eq, all}, 7);
            }
        }
}

/* ---- LU: L U = P A + D, |D_ij| <= gamma(2k)(|L||U|)_ij + eps(2k)(1 + |U_pp|) ---- */

static int lu_violations(const lc *a, const lc *lu, const int32_t *piv, int n, tsr_dtype d)
{
    lc pa[N_MAX * N_MAX];
    memcpy(pa, a, sizeof(lc) * (size_t)(n * n));
    for (int j = 0; j < n; j++) {
        int p = piv[j] - 1;
        for (int c = 0; c < n; c++) {
            lc t = pa[j * n + c];
            pa[j * n + c] = pa[p * n + c];
            pa[p * n + c] = t;
        }
    }
    int bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int p = i < j ? i : j;
            lc s = 0;
            long double bound = 0;
            for (int k = 0; k <= p; k++) {
                lc l = k == i ? 1 : lu[i * n + k], u = lu[k * n + j];
                s += l * u;
                bound += cabsl(l) * cabsl(u);
            }
            long double allowed =
                gamma_k(d, 2 * n) * bound + eps_k(d, 2 * n) * (1 + cabsl(lu[p * n + p]));
            if (!(cabsl(s - pa[i * n + j]) <= allowed))
                bad++;
        }
    return bad;
}

static void lu_meets_its_residual_bound_on_hard_inputs(void)
{
    for (size_t di = 0; di < 4; di++)
        for (int kind = RANDOM; kind <= HUGE_; kind++)
            for (int n = 5; n <= 21; n += 16) {
                tsr_dtype d = DTYPES[di];
                double complex a[N_MAX * N_MAX];
                hard_matrix(kind, n, false, is_complex(d), d, a);
                tsr_tensor *t = make(a, 2, (int64_t[]){n, n}, d), *lu = NULL, *piv = NULL,
                           *info = NULL;
                CHECK_OK(tsr_linalg_lu_factor_ex(t, true, false, &lu, &piv, &info));
                lc *ah = host(t), *luh = host(lu);
                int32_t *ph = host_int32(piv);
                int bad = lu_violations(ah, luh, ph, n, d);
                if (bad)
                    fprintf(stderr, "  lu %s n=%d %s: %d elements over the bound\n",
                            tsr_dtype_name(d), n, KIND_NAMES[kind], bad);
                CHECK_INT(bad, 0);
                /* partial pivoting: every multiplier is at most 1 (at most 2 in |re| + |im|
                 * on complex dtypes, whose pivot search compares |re| + |im|) */
                int big = 0;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < i; j++)
                        big += fabsl(creall(luh[i * n + j])) + fabsl(cimagl(luh[i * n + j])) >
                               (is_complex(d) ? 2 : 1); /* |re|+|im| picks a complex pivot */
                if (big)
                    fprintf(stderr, "  lu %s n=%d %s: %d multipliers too large\n",
                            tsr_dtype_name(d), n, KIND_NAMES[kind], big);
                CHECK_INT(big, 0);
                free(ah);
                free(luh);
                free(ph);
                release_all((tsr_tensor *[]){t, lu, piv, info}, 4);
            }
}

/* ---- solve_triangular: (T + D) x = b + e, |D| <= gamma(2n)|T| ----------------- */

static void solve_triangular_meets_its_residual_bound(void)
{
    for (size_t di = 0; di < 4; di++)
        for (int kind = RANDOM; kind <= HUGE_; kind++)
            for (int upper = 0; upper < 2; upper++) {
                tsr_dtype d = DTYPES[di];
                int n = kind == RANDOM ? 20 : 6, k = 3;
                double complex a[N_MAX * N_MAX], b[N_MAX * 3];
                hard_matrix(kind == HILBERT ? RANDOM : kind, n, false, is_complex(d), d, a);
                for (int i = 0; i < n; i++) {
                    a[i * n + i] += kind == TINY || kind == HUGE_ ? 4 * a[i * n + i] : 4.0;
                    for (int j = 0; j < k; j++)
                        b[i * k + j] = wave(i * k + j, 9) * cabs(a[i * n + i]);
                }
                tsr_tensor *t = make(a, 2, (int64_t[]){n, n}, d);
                tsr_tensor *bt = make(b, 2, (int64_t[]){n, k}, d), *x = NULL;
                CHECK_OK(tsr_linalg_solve_triangular(t, bt, upper, true, false, &x));
                lc *ah = host(t), *bh = host(bt), *xh = host(x);
                int bad = 0;
                for (int i = 0; i < n; i++)
                    for (int c = 0; c < k; c++) {
                        lc r = bh[i * k + c];
                        long double bound = 0;
                        for (int j = upper ? i : 0; j <= (upper ? n - 1 : i); j++) {
                            r -= ah[i * n + j] * xh[j * k + c];
                            bound += cabsl(ah[i * n + j]) * cabsl(xh[j * k + c]);
                        }
                        long double allowed = gamma_k(d, 2 * n) * bound +
                                              eps_k(d, 2 * n) * (1 + cabsl(ah[i * n + i]));
                        bad += !(cabsl(r) <= allowed);
                    }
                if (bad)
                    fprintf(stderr, "  solve_triangular %s %s upper=%d: %d over the bound\n",
                            tsr_dtype_name(d), KIND_NAMES[kind], upper, bad);
                CHECK_INT(bad, 0);
                free(ah);
                free(bh);
                free(xh);
                release_all((tsr_tensor *[]){t, bt, x}, 3);
            }
}

/* ---- values alone ------------------------------------------------------------------ */

/* Matrix i of a batch has the bits it has alone, and a transposed layout of
 * the same values changes nothing: the batch spreads over threads on cpu. */
static void results_depend_on_the_matrix_alone(void)
{
    enum { B = 9, N = 20 };
    static double complex a[B * N * N];
    for (int m = 0; m < B; m++)
        hard_matrix(m % 2 ? RANDOM : GRADED, N, true, false, TSR_FLOAT64, a + m * N * N);
    tsr_tensor *all = make(a, 3, (int64_t[]){B, N, N}, TSR_FLOAT64), *lb = NULL, *lub = NULL,
               *pb = NULL;
    CHECK_OK(tsr_linalg_cholesky(all, false, &lb));
    CHECK_OK(tsr_linalg_lu_factor(all, true, &lub, &pb));
    lc *lbh = host(lb), *lubh = host(lub);
    int differ = 0;
    for (int m = 0; m < B; m++) {
        tsr_tensor *one = make(a + m * N * N, 2, (int64_t[]){N, N}, TSR_FLOAT64), *oneT = NULL;
        tsr_tensor *l = NULL, *lu = NULL, *p = NULL, *lt = NULL;
        CHECK_OK(tsr_transpose(one, 0, 1, &oneT)); /* symmetric: the same values, strided */
        CHECK_OK(tsr_linalg_cholesky(oneT, false, &l));
        CHECK_OK(tsr_linalg_lu_factor(one, true, &lu, &p));
        lc *lh = host(l), *luh = host(lu);
        for (int e = 0; e < N * N; e++)
            differ += lh[e] != lbh[m * N * N + e] || luh[e] != lubh[m * N * N + e];
        free(lh);
        free(luh);
        release_all((tsr_tensor *[]){one, oneT, l, lu, p, lt}, 6);
    }
    CHECK_INT(differ, 0);
    free(lbh);
    free(lubh);
    release_all((tsr_tensor *[]){all, lb, lub, pb}, 4);
}

/* ---- large batches ------------------------------------------------------------------ */

/* 5000 4 x 4 systems (80,000 elements of A): every solve's residual small. */
static void batched_solve_past_two_to_the_sixteen_elements(void)
{
    enum { B = 5000, N = 4, K = 2 };
    double *a = malloc(sizeof(double) * B * N * N), *b = malloc(sizeof(double) * B * N * K);
    for (int i = 0; i < B * N * N; i++)
        a[i] = wave(i, 6) + ((i % (N * N)) % (N + 1) == 0 ? 3.0 : 0.0);
    for (int i = 0; i < B * N * K; i++)
        b[i] = wave(i, 7);
    tsr_tensor *at = from_doubles(a, 3, (int64_t[]){B, N, N}, TSR_FLOAT64);
    tsr_tensor *bt = from_doubles(b, 3, (int64_t[]){B, N, K}, TSR_FLOAT64), *x = NULL, *inv = NULL;
    CHECK_OK(tsr_linalg_solve(at, bt, true, &x));
    CHECK_OK(tsr_linalg_inv(at, &inv));
    double *xh = to_doubles(x), *ih = to_doubles(inv);
    double worst = 0, worst_inv = 0;
    for (int m = 0; xh && ih && m < B; m++)
        for (int i = 0; i < N; i++) {
            for (int c = 0; c < K; c++) {
                double r = b[(m * N + i) * K + c];
                for (int j = 0; j < N; j++)
                    r -= a[(m * N + i) * N + j] * xh[(m * N + j) * K + c];
                worst = fmax(worst, fabs(r));
            }
            for (int c = 0; c < N; c++) {
                double r = i == c;
                for (int j = 0; j < N; j++)
                    r -= a[(m * N + i) * N + j] * ih[(m * N + j) * N + c];
                worst_inv = fmax(worst_inv, fabs(r));
            }
        }
    CHECK_TRUE(worst < 1e-12);
    CHECK_TRUE(worst_inv < 1e-12);
    free(a);
    free(b);
    free(xh);
    free(ih);
    release_all((tsr_tensor *[]){at, bt, x, inv}, 4);
}

/* ---- errors ------------------------------------------------------------------------- */

static void errors_name_the_minor_the_pivot_and_the_batch_element(void)
{
    double eye_and_bad[8] = {1, 0, 0, 1, 1, 2, 2, 1}, singular[8] = {1, 0, 0, 1, 1, 2, 2, 4};
    tsr_tensor *notpd = from_doubles(eye_and_bad, 3, (int64_t[]){2, 2, 2}, TSR_FLOAT64);
    tsr_tensor *sing = from_doubles(singular, 3, (int64_t[]){2, 2, 2}, TSR_FLOAT64);
    tsr_tensor *out = NULL, *p = NULL, *info = NULL;
    CHECK_ERROR(tsr_linalg_cholesky(notpd, false, &out), TSR_ERR_VALUE,
                "(Batch element 1): The factorization could not be completed because the input "
                "is not positive-definite (the leading minor of order 2 is not positive-definite)");
    CHECK_ERROR(tsr_linalg_inv(sing, &out), TSR_ERR_VALUE,
                "linalg.inv: (Batch element 1): The diagonal element 2 is zero");
    CHECK_ERROR(tsr_linalg_solve(sing, sing, true, &out), TSR_ERR_VALUE,
                "The solver failed because the input matrix is singular");
    CHECK_ERROR(tsr_linalg_lu_factor(sing, true, &out, &p), TSR_ERR_VALUE, "U[2,2] is zero");
    CHECK_ERROR(tsr_linalg_lu_factor(sing, false, &out, &p), TSR_ERR_UNIMPLEMENTED,
                "LU without pivoting");
    /* the _ex forms report instead, one info per matrix */
    CHECK_OK(tsr_linalg_cholesky_ex(notpd, false, false, &out, &info));
    int32_t *codes = host_int32(info);
    CHECK_INT(codes[0], 0);
    CHECK_INT(codes[1], 2);
    free(codes);
    release_all((tsr_tensor *[]){out, info}, 2);
    /* inputs are left as they were */
    double *after = to_doubles(notpd);
    for (int i = 0; after && i < 8; i++)
        CHECK_DOUBLE(after[i], eye_and_bad[i], 0);
    free(after);
    tsr_tensor *rect = from_doubles(singular, 2, (int64_t[]){2, 3}, TSR_FLOAT64), *ints = NULL;
    CHECK_ERROR(tsr_linalg_cholesky(rect, false, &out), TSR_ERR_SHAPE,
                "A must be batches of square matrices, but they are 2 by 3 matrices");
    CHECK_OK(tsr_to_dtype(rect, TSR_INT64, &ints));
    CHECK_ERROR(tsr_linalg_det(ints, &out), TSR_ERR_DTYPE,
                "Expected a floating point or complex tensor as input. Got Long");
    tsr_tensor *column = from_doubles(singular, 2, (int64_t[]){3, 1}, TSR_FLOAT64);
    CHECK_ERROR(tsr_linalg_solve_triangular(sing, column, true, true, false, &out), TSR_ERR_SHAPE,
                "Incompatible shapes of A and B");
    CHECK_ERROR(tsr_linalg_cholesky(NULL, false, &out), TSR_ERR_INVALID_ARGUMENT,
                "must not be NULL");
    release_all((tsr_tensor *[]){notpd, sing, rect, ints, column}, 5);
}

/* lu_unpack refuses pivots outside [1, m] instead of reading past the matrix. */
static void lu_unpack_refuses_pivots_out_of_range(void)
{
    double a[4] = {1, 2, 3, 4};
    int32_t bad[2] = {3, 2};
    tsr_tensor *lu = from_doubles(a, 2, (int64_t[]){2, 2}, TSR_FLOAT64), *piv = NULL;
    tsr_tensor *p = NULL, *l = NULL, *u = NULL;
    CHECK_OK(tsr_from_host(bad, sizeof bad, 1, (int64_t[]){2}, TSR_INT32, NULL, &piv));
    CHECK_ERROR(tsr_lu_unpack(lu, piv, true, true, &p, &l, &u), TSR_ERR_INDEX,
                "pivots must be between 1 and 2");
    release_all((tsr_tensor *[]){lu, piv}, 2);
}

int main(void)
{
    RUN_TEST(cholesky_meets_its_residual_bound_on_hard_inputs);
    RUN_TEST(lu_meets_its_residual_bound_on_hard_inputs);
    RUN_TEST(solve_triangular_meets_its_residual_bound);
    RUN_TEST(results_depend_on_the_matrix_alone);
    RUN_TEST(batched_solve_past_two_to_the_sixteen_elements);
    RUN_TEST(errors_name_the_minor_the_pivot_and_the_batch_element);
    RUN_TEST(lu_unpack_refuses_pivots_out_of_range);
    return check_summary("test_linalg");
}
