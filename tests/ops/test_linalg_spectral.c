/* Linear algebra: the seeds' norm-wise bounds for QR, eigh, the SVD and eig on
 * the hard inputs of linalg_support.h, on the default backend (CTest: on
 * reference and on cpu). */
#include "linalg_support.h"

/* ---- qr, eigh, svd: the seeds' norm-wise bounds ---------------------------------- */

/* ||X^H X - I||_F over the columns of x (rows x cols); the largest element's
 * magnitude in *largest. */
static long double gram_error(const lc *x, int64_t rows, int64_t cols, bool by_rows,
                              long double *largest)
{
    long double s = 0;
    *largest = 0;
    int64_t k = by_rows ? rows : cols, len = by_rows ? cols : rows;
    for (int64_t p = 0; p < k; p++)
        for (int64_t q = 0; q < k; q++) {
            lc d = 0;
            for (int64_t i = 0; i < len; i++)
                d += by_rows ? x[p * cols + i] * conjl(x[q * cols + i])
                             : conjl(x[i * cols + p]) * x[i * cols + q];
            long double e = cabsl(d - (p == q));
            s += e * e;
            *largest = fmaxl(*largest, e);
        }
    return sqrtl(s);
}

static long double frob(const lc *a, int64_t count)
{
    long double s = 0;
    for (int64_t i = 0; i < count; i++)
        s += cabsl(a[i]) * cabsl(a[i]);
    return sqrtl(s);
}

static void qr_meets_its_residual_bound_on_hard_inputs(void)
{
    for (size_t di = 0; di < 4; di++)
        for (int kind = RANDOM; kind <= HUGE_; kind++) {
            tsr_dtype d = DTYPES[di];
            int m = 7, n = kind == RANDOM ? 5 : 7, k = n;
            double complex a[N_MAX * N_MAX];
            hard_matrix(kind, 7, false, is_complex(d), d, a);
            tsr_tensor *t = make(a, 2, (int64_t[]){m, 7}, d), *tn = NULL, *q = NULL, *r = NULL;
            CHECK_OK(tsr_narrow(t, 1, 0, n, &tn));
            CHECK_OK(tsr_linalg_qr(tn, "reduced", &q, &r));
            lc *ah = host(tn), *qh = host(q), *rh = host(r);
            double g = gamma_k(d, k * (2.0 * m + 10)), h = eps_k(d, k * (2.0 * m + 10));
            int bad = 0;
            for (int j = 0; j < n; j++) {
                long double res = 0, norm = 0;
                for (int i = 0; i < m; i++) {
                    lc v = 0;
                    for (int c = 0; c < k; c++)
                        v += qh[i * k + c] * rh[c * n + j];
                    res += cabsl(v - ah[i * n + j]) * cabsl(v - ah[i * n + j]);
                    norm += cabsl(ah[i * n + j]) * cabsl(ah[i * n + j]);
                }
                bad += !(sqrtl(res) <= g * sqrtl(norm) + sqrt((double)m) * h);
            }
            long double largest;
            gram_error(qh, m, k, false, &largest);
            bad += !(largest <= g);
            if (bad)
                fprintf(stderr, "  qr %s %s: %d over the bound\n", tsr_dtype_name(d),
                        KIND_NAMES[kind], bad);
            CHECK_INT(bad, 0);
            free(ah);
            free(qh);
            free(rh);
            release_all((tsr_tensor *[]){t, tn, q, r}, 4);
        }
}

static void eigh_and_svd_meet_their_residual_bounds_on_hard_inputs(void)
{
    for (size_t di = 0; di < 4; di++)
        for (int kind = RANDOM; kind <= HUGE_; kind++) {
            tsr_dtype d = DTYPES[di];
            int n = 6;
            double complex a[N_MAX * N_MAX];
            hard_matrix(kind, n, true, is_complex(d), d, a);
            tsr_tensor *t = make(a, 2, (int64_t[]){n, n}, d), *w = NULL, *v = NULL;
            CHECK_OK(tsr_linalg_eigh(t, "L", &w, &v));
            lc *ah = host(t), *wh = host(w), *vh = host(v);
            double g = gamma_k(d, 16.0 * n), h = eps_k(d, 16.0 * n);
            lc rec[N_MAX * N_MAX];
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    rec[i * n + j] = ah[i * n + j];
                    for (int c = 0; c < n; c++)
                        rec[i * n + j] -= vh[i * n + c] * wh[c] * conjl(vh[j * n + c]);
                }
            long double largest;
            int bad = !(frob(rec, n * n) <= g * frob(ah, n * n) + h) +
                      !(gram_error(vh, n, n, false, &largest) <= g);
            for (int i = 1; i < n; i++)
                bad += creall(wh[i]) < creall(wh[i - 1]); /* ascending */
            if (bad)
                fprintf(stderr, "  eigh %s %s: %d over the bound\n", tsr_dtype_name(d),
                        KIND_NAMES[kind], bad);
            CHECK_INT(bad, 0);
            free(wh);
            free(vh);
            release_all((tsr_tensor *[]){w, v}, 2);
            /* the SVD of a general 6 x 4 matrix of the same kind, full and reduced */
            double complex b[N_MAX * N_MAX];
            hard_matrix(kind, n, false, is_complex(d), d, b);
            for (int full = 0; full < 2; full++) {
                int m = 6, cols = 4, k = 4;
                tsr_tensor *bt = make(b, 2, (int64_t[]){m, 6}, d), *bn = NULL, *u = NULL, *s = NULL,
                           *vt = NULL;
                CHECK_OK(tsr_narrow(bt, 1, 0, cols, &bn));
                CHECK_OK(tsr_linalg_svd(bn, full, &u, &s, &vt));
                lc *bh = host(bn), *uh = host(u), *sh = host(s), *vth = host(vt);
                int uc = full ? m : k, vr = full ? cols : k;
                double gs = gamma_k(d, 16.0 * m + 100), hs = eps_k(d, 16.0 * m + 100);
                for (int i = 0; i < m; i++)
                    for (int j = 0; j < cols; j++) {
                        rec[i * cols + j] = bh[i * cols + j];
                        for (int c = 0; c < k; c++)
                            rec[i * cols + j] -= uh[i * uc + c] * sh[c] * vth[c * cols + j];
                    }
                int sbad = !(frob(rec, m * cols) <= gs * frob(bh, m * cols) + hs) +
                           !(gram_error(uh, m, uc, false, &largest) <= gs) +
                           !(gram_error(vth, vr, cols, true, &largest) <= gs);
                for (int i = 1; i < k; i++)
                    sbad += creall(sh[i]) > creall(sh[i - 1]) || creall(sh[i]) < 0;
                if (sbad)
                    fprintf(stderr, "  svd %s %s full=%d: %d over the bound\n", tsr_dtype_name(d),
                            KIND_NAMES[kind], full, sbad);
                CHECK_INT(sbad, 0);
                free(bh);
                free(uh);
                free(sh);
                free(vth);
                release_all((tsr_tensor *[]){bt, bn, u, s, vt}, 5);
            }
            free(ah);
            tsr_tensor_release(t);
        }
}

/* eig (no balancing here, so the bound is the seeds' with D = P = I):
 * ||a v_j - w_j v_j|| <= (g ||a||_F + h) ||v_j||, | ||v_j|| - 1 | <= g. */
static void eig_meets_its_residual_bound_on_hard_inputs(void)
{
    for (size_t di = 0; di < 4; di++)
        for (int kind = RANDOM; kind <= HUGE_; kind++) {
            tsr_dtype d = DTYPES[di];
            int n = 6;
            double complex a[N_MAX * N_MAX];
            hard_matrix(kind, n, false, is_complex(d), d, a);
            tsr_tensor *t = make(a, 2, (int64_t[]){n, n}, d), *w = NULL, *v = NULL;
            CHECK_OK(tsr_linalg_eig(t, &w, &v));
            lc *ah = host(t), *wh = host(w), *vh = host(v);
            double g = gamma_k(d, 16.0 * n), h = eps_k(d, 16.0 * n);
            long double norm = frob(ah, n * n);
            int bad = 0;
            for (int j = 0; j < n; j++) {
                long double r = 0, len = 0;
                for (int i = 0; i < n; i++) {
                    lc av = 0;
                    for (int c = 0; c < n; c++)
                        av += ah[i * n + c] * vh[c * n + j];
                    av -= wh[j] * vh[i * n + j];
                    r += cabsl(av) * cabsl(av);
                    len += cabsl(vh[i * n + j]) * cabsl(vh[i * n + j]);
                }
                bad += !(sqrtl(r) <= (g * norm + h) * sqrtl(len)) + !(fabsl(sqrtl(len) - 1) <= g);
            }
            if (bad)
                fprintf(stderr, "  eig %s %s: %d over the bound\n", tsr_dtype_name(d),
                        KIND_NAMES[kind], bad);
            CHECK_INT(bad, 0);
            free(ah);
            free(wh);
            free(vh);
            release_all((tsr_tensor *[]){t, w, v}, 3);
        }
}

int main(void)
{
    RUN_TEST(qr_meets_its_residual_bound_on_hard_inputs);
    RUN_TEST(eigh_and_svd_meet_their_residual_bounds_on_hard_inputs);
    RUN_TEST(eig_meets_its_residual_bound_on_hard_inputs);
    return check_summary("test_linalg_spectral");
}
