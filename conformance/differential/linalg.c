/* Differential draws for linear algebra: batches of well-conditioned
 * matrices (Hermitian positive-definite for Cholesky, a dominant diagonal
 * for the rest), written into contiguous inputs by hand, so that the two
 * backends agree to the factorisations' conditioning and no pivot choice
 * hangs on a rounding; qr, svd and eigh are judged by their identities.
 * Orders up to 24 reach the cpu backend's LAPACK path
 * (above 16) as well as its small-matrix one. */
#include "differential/draw_helpers.h"

#include <complex.h>
#include <string.h>

/* Batch dims (0 to 2 of them, sizes 0 to 3) and an n x n matrix shape. */
static int batch_shape(conf_draft *d, int64_t n, int64_t *shape)
{
    int nb = (int)range(d, 0, 2);
    for (int i = 0; i < nb; i++)
        shape[i] = range(d, pick(d, 0.05) ? 0 : 1, 3);
    shape[nb] = n;
    shape[nb + 1] = n;
    return nb + 2;
}

static int64_t order(conf_draft *d)
{
    return pick(d, 0.25) ? range(d, 17, 24) : range(d, pick(d, 0.05) ? 0 : 1, 8);
}

static void store(conf_array *a, int64_t i, double complex v)
{
    switch (a->dtype) {
    case TSR_FLOAT32:
        ((float *)a->data)[i] = (float)creal(v);
        break;
    case TSR_FLOAT64:
        ((double *)a->data)[i] = creal(v);
        break;
    case TSR_COMPLEX64:
        ((float *)a->data)[2 * i] = (float)creal(v);
        ((float *)a->data)[2 * i + 1] = (float)cimag(v);
        break;
    default:
        ((double *)a->data)[2 * i] = creal(v);
        ((double *)a->data)[2 * i + 1] = cimag(v);
        break;
    }
}

typedef enum matrix_kind { DOMINANT, HERMITIAN_PD, TRIANGULAR } matrix_kind;

static conf_input *matrices(conf_draft *d, const char *name, int ndim, const int64_t *shape,
                            matrix_kind kind)
{
    conf_input *in =
        conf_draft_tensor(d, name, d->dtype, ndim, shape, general(), CONF_LAYOUT_CONTIGUOUS);
    if (!in)
        return NULL;
    conf_array *a = conf_draft_array(d, in);
    int64_t rows = shape[ndim - 2], n = shape[ndim - 1], count = 1;
    bool cplx = tsr_dtype_is_complex(d->dtype);
    for (int i = 0; i < ndim - 2; i++)
        count *= shape[i];
    double complex m[24 * 24];
    for (int64_t b = 0; b < count; b++) {
        for (int64_t e = 0; e < rows * n; e++)
            m[e] = conf_rng_normal(d->rng) + (cplx ? I * conf_rng_normal(d->rng) : 0);
        for (int64_t i = 0; i < rows; i++)
            for (int64_t j = 0; j < n; j++) {
                double complex v = m[i * n + j];
                if (kind == HERMITIAN_PD) { /* square */
                    v = 0;
                    for (int64_t k = 0; k < n; k++)
                        v += m[i * n + k] * conj(m[j * n + k]);
                }
                if (i == j)
                    v = (kind == HERMITIAN_PD ? creal(v) : v) + (double)n + 2.0;
                if (kind == TRIANGULAR && j > i)
                    v = 0;
                store(a, (b * rows + i) * n + j, v);
            }
    }
    return in;
}

static void tolerance(conf_draft *d)
{
    bool single = d->dtype == TSR_FLOAT32 || d->dtype == TSR_COMPLEX64;
    d->c->has_rtol = d->c->has_atol = true;
    d->c->rtol = d->c->atol = single ? 2e-4 : 1e-10;
}

static bool linalg_dtype(const conf_draft *d)
{
    return d->dtype == TSR_FLOAT32 || d->dtype == TSR_FLOAT64 || d->dtype == TSR_COMPLEX64 ||
           d->dtype == TSR_COMPLEX128;
}

static bool draw_cholesky(conf_draft *d)
{
    if (!linalg_dtype(d))
        return false;
    int64_t shape[TSR_MAX_DIMS];
    int ndim = batch_shape(d, order(d), shape);
    matrices(d, "A", ndim, shape, HERMITIAN_PD);
    conf_draft_arg_bool(d, "upper", pick(d, 0.5));
    tolerance(d);
    return true;
}

/* A and B with A square and B [..., n, k] (left) or [..., k, n]. */
static bool draw_system(conf_draft *d, matrix_kind kind, bool sided)
{
    if (!linalg_dtype(d))
        return false;
    int64_t shape[TSR_MAX_DIMS], bshape[TSR_MAX_DIMS];
    int64_t n = order(d), k = range(d, 1, 4);
    int ndim = batch_shape(d, n, shape);
    bool left = !sided || pick(d, 0.5);
    memcpy(bshape, shape, sizeof bshape);
    bshape[ndim - 2] = left ? n : k;
    bshape[ndim - 1] = left ? k : n;
    matrices(d, "A", ndim, shape, kind);
    /* finite values: where an infinity meets a NaN is each solver's own order */
    conf_draft_tensor(d, "B", d->dtype, ndim, bshape, conf_values_of(CONF_VALUES_FINITE),
                      CONF_LAYOUT_COUNT);
    if (sided)
        conf_draft_arg_bool(d, "left", left);
    if (kind == TRIANGULAR) {
        conf_draft_arg_bool(d, "upper", false);
        conf_draft_arg_bool(d, "unitriangular", pick(d, 0.3));
    }
    tolerance(d);
    return true;
}

static bool draw_solve(conf_draft *d)
{
    return draw_system(d, DOMINANT, true);
}

static bool draw_solve_triangular(conf_draft *d)
{
    return draw_system(d, TRIANGULAR, true);
}

static bool draw_square(conf_draft *d)
{
    if (!linalg_dtype(d))
        return false;
    int64_t shape[TSR_MAX_DIMS];
    int ndim = batch_shape(d, order(d), shape);
    matrices(d, "A", ndim, shape, DOMINANT);
    tolerance(d);
    return true;
}

/* A general m x n batch for the spectral ops; their vectors are judged by
 * their identities ("check": "identity"), their values by value. */
static bool draw_rectangular(conf_draft *d, bool identity)
{
    if (!linalg_dtype(d))
        return false;
    int64_t shape[TSR_MAX_DIMS];
    int ndim = batch_shape(d, order(d), shape);
    shape[ndim - 1] = range(d, pick(d, 0.05) ? 0 : 1, 9);
    matrices(d, "A", ndim, shape, DOMINANT);
    d->c->identity = identity;
    tolerance(d);
    return true;
}

static bool draw_qr(conf_draft *d)
{
    static const char *const modes[] = {"reduced", "complete", "r"};
    bool ok = draw_rectangular(d, true);
    if (ok)
        conf_draft_arg_string(d, "mode", modes[range(d, 0, 2)]);
    return ok;
}

static bool draw_svd(conf_draft *d)
{
    bool ok = draw_rectangular(d, true);
    if (ok)
        conf_draft_arg_bool(d, "full_matrices", pick(d, 0.5));
    return ok;
}

static bool draw_svdvals(conf_draft *d)
{
    return draw_rectangular(d, false);
}

static bool draw_eigh(conf_draft *d)
{
    bool ok = draw_cholesky(d); /* Hermitian positive-definite, and an "upper" arg */
    if (!ok)
        return false;
    /* eigh's own argument is UPLO; drop cholesky's */
    cJSON_DeleteItemFromObjectCaseSensitive(d->c->args, "upper");
    conf_draft_arg_string(d, "UPLO", pick(d, 0.5) ? "U" : "L");
    d->c->identity = strcmp(d->c->op, "linalg_eigh") == 0;
    return true;
}

const conf_diff_op conf_diff_draws_linalg[] = {
    {"linalg_cholesky", draw_cholesky, 0}, {"linalg_solve_triangular", draw_solve_triangular, 0},
    {"linalg_lu_factor", draw_square, 0},  {"linalg_solve", draw_solve, 0},
    {"linalg_inv", draw_square, 0},        {"linalg_det", draw_square, 0},
    {"linalg_slogdet", draw_square, 0},    {"linalg_qr", draw_qr, 0},
    {"linalg_svd", draw_svd, 0},           {"linalg_svdvals", draw_svdvals, 0},
    {"linalg_eigh", draw_eigh, 0},         {"linalg_eigvalsh", draw_eigh, 0},
};
const size_t conf_diff_draws_linalg_count =
    sizeof conf_diff_draws_linalg / sizeof conf_diff_draws_linalg[0];
