/* The "check": "identity" judgement (identity.h). Everything is read back
 * as complex128 and computed here in double, per matrix, so the check does
 * not depend on the backend under test computing its own residuals. */
#include "golden/identity.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden/runner.h"

typedef struct host_matrix {
    double complex *data; /* the whole tensor, C order */
    int64_t batch, rows, cols;
} host_matrix;

static bool read_back(const tsr_tensor *t, int matrix_dims, host_matrix *out)
{
    memset(out, 0, sizeof *out);
    int nd = tsr_tensor_ndim(t);
    const int64_t *shape = tsr_tensor_shape(t);
    int64_t n = tsr_tensor_numel(t);
    out->rows = matrix_dims >= 1 && nd >= 1 ? shape[nd - matrix_dims] : 1;
    out->cols = matrix_dims == 2 && nd >= 2 ? shape[nd - 1] : 1;
    int64_t per = out->rows * out->cols;
    out->batch = per > 0 ? n / per : 0;
    out->data = malloc((size_t)(n > 0 ? n : 1) * sizeof *out->data);
    tsr_tensor *c = NULL;
    bool ok = out->data && tsr_to_dtype(t, TSR_COMPLEX128, &c) == TSR_OK &&
              tsr_to_host(c, out->data, (size_t)n * sizeof *out->data) == TSR_OK;
    tsr_tensor_release(c);
    return ok;
}

static double complex at(const host_matrix *m, int64_t b, int64_t i, int64_t j)
{
    return m->data[(b * m->rows + i) * m->cols + j];
}

static double frobenius(const host_matrix *m, int64_t b)
{
    double s = 0;
    for (int64_t i = 0; i < m->rows * m->cols; i++)
        s += pow(cabs(m->data[b * m->rows * m->cols + i]), 2);
    return sqrt(s);
}

/* ||X^H X - I|| (columns) or ||X X^H - I|| (rows) of matrix b. */
static double orthonormality(const host_matrix *x, int64_t b, bool rows)
{
    int64_t k = rows ? x->rows : x->cols, len = rows ? x->cols : x->rows;
    double s = 0;
    for (int64_t p = 0; p < k; p++)
        for (int64_t q = 0; q < k; q++) {
            double complex d = 0;
            for (int64_t i = 0; i < len; i++)
                d += rows ? at(x, b, p, i) * conj(at(x, b, q, i))
                          : conj(at(x, b, i, p)) * at(x, b, i, q);
            s += pow(cabs(d - (p == q)), 2);
        }
    return sqrt(s);
}

static bool same_shape(const tsr_tensor *a, const tsr_tensor *e, int i, char *msg, size_t cap)
{
    bool ok =
        tsr_tensor_dtype(a) == tsr_tensor_dtype(e) && tsr_tensor_ndim(a) == tsr_tensor_ndim(e);
    for (int d = 0; ok && d < tsr_tensor_ndim(a); d++)
        ok = tsr_tensor_shape(a)[d] == tsr_tensor_shape(e)[d];
    if (!ok)
        snprintf(msg, cap, "output %d: shape or dtype differs from the expected one", i);
    return ok;
}

static const tsr_tensor *input_a(const conf_call *call)
{
    for (int i = 0; i < call->nvalues; i++)
        if (strcmp(call->values[i].spec->name, "A") == 0)
            return call->values[i].tensor;
    return NULL;
}

typedef struct checks {
    conf_tolerance tol;
    char *msg;
    size_t cap;
} checks;

static bool within(checks *k, double value, double scale, const char *what, int64_t b)
{
    if (value <= k->tol.atol + k->tol.rtol * scale)
        return true;
    snprintf(k->msg, k->cap, "matrix %lld: %s is %.3g, allowed %.3g", (long long)b, what, value,
             k->tol.atol + k->tol.rtol * scale);
    return false;
}

static bool check_qr(checks *k, const host_matrix *a, const host_matrix *q, const host_matrix *r,
                     const host_matrix *expected_r)
{
    for (int64_t b = 0; b < a->batch; b++) {
        if (q->batch > 0 && q->rows * q->cols > 0) {
            double s = 0;
            for (int64_t i = 0; i < a->rows; i++)
                for (int64_t j = 0; j < a->cols; j++) {
                    double complex v = 0;
                    for (int64_t c = 0; c < q->cols; c++)
                        v += at(q, b, i, c) * at(r, b, c, j);
                    s += pow(cabs(v - at(a, b, i, j)), 2);
                }
            if (!within(k, sqrt(s), frobenius(a, b), "||QR - A||", b) ||
                !within(k, orthonormality(q, b, false), 1.0, "||Q^H Q - I||", b))
                return false;
        }
        for (int64_t i = 0; i < r->rows; i++)
            for (int64_t j = 0; j < i && j < r->cols; j++)
                if (at(r, b, i, j) != 0) {
                    snprintf(k->msg, k->cap, "matrix %lld: R[%lld, %lld] is not zero", (long long)b,
                             (long long)i, (long long)j);
                    return false;
                }
        for (int64_t i = 0; i < r->rows && i < r->cols; i++) {
            double got = cabs(at(r, b, i, i)), want = cabs(at(expected_r, b, i, i));
            if (!within(k, fabs(got - want), want, "| |R_ii| - expected |R_ii| |", b))
                return false;
        }
    }
    return true;
}

static bool check_svd(checks *k, const host_matrix *a, const host_matrix *u, const host_matrix *s,
                      const host_matrix *vh)
{
    int64_t kk = s->rows;
    for (int64_t b = 0; b < a->batch; b++) {
        double r = 0;
        for (int64_t i = 0; i < a->rows; i++)
            for (int64_t j = 0; j < a->cols; j++) {
                double complex v = 0;
                for (int64_t c = 0; c < kk; c++)
                    v += at(u, b, i, c) * at(s, b, c, 0) * at(vh, b, c, j);
                r += pow(cabs(v - at(a, b, i, j)), 2);
            }
        if (!within(k, sqrt(r), frobenius(a, b), "||U diag(S) Vh - A||", b) ||
            !within(k, orthonormality(u, b, false), 1.0, "||U^H U - I||", b) ||
            !within(k, orthonormality(vh, b, true), 1.0, "||Vh Vh^H - I||", b))
            return false;
    }
    return true;
}

/* ||A V - V diag(w)|| of matrix b: how far V's columns are from being
 * eigenvectors of A for the eigenvalues w (eigh and eig alike). */
static double eigen_residual(const host_matrix *a, const host_matrix *w, const host_matrix *v,
                             int64_t b)
{
    int64_t n = a->rows;
    double r = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            double complex av = 0;
            for (int64_t c = 0; c < n; c++)
                av += at(a, b, i, c) * at(v, b, c, j);
            r += pow(cabs(av - at(v, b, i, j) * at(w, b, j, 0)), 2);
        }
    return sqrt(r);
}

static bool check_eigh(checks *k, const host_matrix *a, const host_matrix *w, const host_matrix *v)
{
    for (int64_t b = 0; b < a->batch; b++) {
        if (!within(k, eigen_residual(a, w, v, b), frobenius(a, b), "||A V - V diag(L)||", b) ||
            !within(k, orthonormality(v, b, false), 1.0, "||V^H V - I||", b))
            return false;
    }
    return true;
}

/* eig's and eigvals's eigenvalues: their order is the backend's own, so
 * each expected value is matched to the nearest unmatched one. */
static bool is_eig(const char *op)
{
    return strcmp(op, "linalg_eig") == 0 || strcmp(op, "linalg_eigvals") == 0;
}

static conf_compare_status compare_multiset(const tsr_tensor *got, const tsr_tensor *expected,
                                            conf_tolerance tol, char *msg, size_t cap)
{
    host_matrix g, e;
    if (!read_back(got, 1, &g) || !read_back(expected, 1, &e)) {
        free(g.data);
        free(e.data);
        snprintf(msg, cap, "could not read the eigenvalues back: %s", tsr_last_error());
        return CONF_COMPARE_ERROR;
    }
    conf_compare_status result = CONF_COMPARE_EQUAL;
    bool *used = calloc((size_t)(g.rows > 0 ? g.rows : 1), sizeof *used);
    for (int64_t b = 0; used && b < e.batch && result == CONF_COMPARE_EQUAL; b++) {
        memset(used, 0, (size_t)g.rows * sizeof *used);
        for (int64_t i = 0; i < e.rows && result == CONF_COMPARE_EQUAL; i++) {
            double complex want = at(&e, b, i, 0);
            int64_t best = -1;
            for (int64_t j = 0; j < g.rows; j++)
                if (!used[j] &&
                    (best < 0 || cabs(at(&g, b, j, 0) - want) < cabs(at(&g, b, best, 0) - want)))
                    best = j;
            double off = best < 0 ? INFINITY : cabs(at(&g, b, best, 0) - want);
            if (!(off <= tol.atol + tol.rtol * cabs(want))) {
                snprintf(
                    msg, cap,
                    "matrix %lld: no eigenvalue near the expected %g%+gi (nearest off by %.3g)",
                    (long long)b, creal(want), cimag(want), off);
                result = CONF_COMPARE_DIFFERENT;
            } else {
                used[best] = true;
            }
        }
    }
    free(used);
    free(g.data);
    free(e.data);
    return result;
}

static bool check_eig(checks *k, const host_matrix *a, const host_matrix *w, const host_matrix *v)
{
    int64_t n = a->rows;
    for (int64_t b = 0; b < a->batch; b++) {
        if (!within(k, eigen_residual(a, w, v, b), frobenius(a, b), "||A V - V diag(L)||", b))
            return false;
        for (int64_t j = 0; j < n; j++) {
            double len = 0;
            for (int64_t i = 0; i < n; i++)
                len = hypot(len, cabs(at(v, b, i, j)));
            if (!within(k, fabs(len - 1.0), 1.0, "| ||v_j|| - 1 |", b))
                return false;
        }
    }
    return true;
}

bool conf_identity_gauge(const char *op, int i)
{
    if (strcmp(op, "linalg_eig") == 0)
        return i == 1;
    if (strcmp(op, "linalg_qr") == 0)
        return true;
    if (strcmp(op, "linalg_svd") == 0)
        return i != 1;
    return strcmp(op, "linalg_eigh") == 0 && i == 1;
}

conf_compare_status conf_identity_compare(const conf_call *call, tsr_tensor *const *expected,
                                          int nexpected, const bool *gauge, char *msg, size_t cap)
{
    const conf_case *c = call->c;
    if (call->noutputs != nexpected) {
        snprintf(msg, cap, "%d outputs where %d were expected", call->noutputs, nexpected);
        return CONF_COMPARE_DIFFERENT;
    }
    for (int i = 0; i < nexpected; i++) {
        if (!same_shape(call->outputs[i], expected[i], i, msg, cap))
            return CONF_COMPARE_DIFFERENT;
        if (gauge[i])
            continue;
        conf_tolerance tol = conf_case_tolerance(c, tsr_tensor_dtype(expected[i]));
        char detail[700];
        conf_compare_status cs =
            i == 0 && is_eig(c->op)
                ? compare_multiset(call->outputs[i], expected[i], tol, detail, sizeof detail)
                : conf_compare_tensors(call->outputs[i], expected[i], &tol, detail, sizeof detail);
        if (cs != CONF_COMPARE_EQUAL) {
            snprintf(msg, cap, "output %d: %s", i, detail);
            return cs;
        }
    }
    const tsr_tensor *a = input_a(call);
    bool qr = strcmp(c->op, "linalg_qr") == 0, svd = strcmp(c->op, "linalg_svd") == 0;
    bool eigh = strcmp(c->op, "linalg_eigh") == 0, eig = strcmp(c->op, "linalg_eig") == 0;
    if (strcmp(c->op, "linalg_eigvals") == 0)
        return CONF_COMPARE_EQUAL; /* the values were the whole check */
    if (!a || !(qr || svd || eigh || eig) || nexpected < 2) {
        snprintf(msg, cap, "no identities known for %s", c->op);
        return CONF_COMPARE_ERROR;
    }
    checks k = {conf_case_tolerance(c, tsr_tensor_dtype(expected[nexpected - 1])), msg, cap};
    host_matrix h[5];
    memset(h, 0, sizeof h);
    bool ok = read_back(a, 2, &h[0]);
    if (qr)
        ok = ok && read_back(call->outputs[0], 2, &h[1]) && read_back(call->outputs[1], 2, &h[2]) &&
             read_back(expected[1], 2, &h[3]);
    else if (svd)
        ok = ok && read_back(call->outputs[0], 2, &h[1]) && read_back(call->outputs[1], 1, &h[2]) &&
             read_back(call->outputs[2], 2, &h[3]);
    else
        ok = ok && read_back(call->outputs[0], 1, &h[1]) && read_back(call->outputs[1], 2, &h[2]);
    conf_compare_status result = CONF_COMPARE_ERROR;
    if (!ok) {
        snprintf(msg, cap, "could not read the outputs back: %s", tsr_last_error());
    } else {
        bool pass = qr    ? check_qr(&k, &h[0], &h[1], &h[2], &h[3])
                    : svd ? check_svd(&k, &h[0], &h[1], &h[2], &h[3])
                    : eig ? check_eig(&k, &h[0], &h[1], &h[2])
                          : check_eigh(&k, &h[0], &h[1], &h[2]);
        result = pass ? CONF_COMPARE_EQUAL : CONF_COMPARE_DIFFERENT;
    }
    for (int i = 0; i < 5; i++)
        free(h[i].data);
    return result;
}
