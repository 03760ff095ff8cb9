/* The cpu backend's QR, Hermitian eigendecomposition, SVD and eig: LAPACKE's
 * geqrf with orgqr/ungqr, syevd/heevd, gesdd (PyTorch's own choices) and
 * cgeev/zgeev,
 * one single-threaded call per matrix, matrices dealt over the pool in
 * fixed ranges, so a matrix's bits depend on its values alone. LAPACKE's
 * high-level entry points allocate their own workspace; they refuse a
 * matrix holding a NaN (a negative return), which then gets NaN results,
 * as the reference gives. */
#include <complex.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "cpu_backend.h"
#include "cpu_blas.h"
#include "linalg_cpu.h"

typedef enum spectral_job { JOB_QR, JOB_EIGH, JOB_SVD, JOB_GEQRF, JOB_EIG } spectral_job;

typedef struct spectral_run {
    spectral_job job;
    int32_t flags, dtype;
    size_t elem, real_elem;
    int64_t batch, per_task;
    tsr__ref_linalg_operand ops[5];
    atomic_int failed;
} spectral_run;

static void fill_nan(char *x, int64_t count, size_t part)
{
    for (int64_t i = 0; i < count; i++) {
        if (part == sizeof(float)) {
            float v = NAN;
            memcpy(x + (size_t)i * part, &v, part);
        } else {
            double v = NAN;
            memcpy(x + (size_t)i * part, &v, part);
        }
    }
}

static lapack_int geqrf(int32_t t, lapack_int m, lapack_int n, void *a, void *tau)
{
    switch (t) {
    case TSR_FLOAT32:
        return LAPACKE_sgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
    case TSR_FLOAT64:
        return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
    case TSR_COMPLEX64:
        return LAPACKE_cgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
    default:
        return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
    }
}

static lapack_int orgqr(int32_t t, lapack_int m, lapack_int n, lapack_int k, void *a, void *tau)
{
    switch (t) {
    case TSR_FLOAT32:
        return LAPACKE_sorgqr(LAPACK_COL_MAJOR, m, n, k, a, m, tau);
    case TSR_FLOAT64:
        return LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, n, k, a, m, tau);
    case TSR_COMPLEX64:
        return LAPACKE_cungqr(LAPACK_COL_MAJOR, m, n, k, a, m, tau);
    default:
        return LAPACKE_zungqr(LAPACK_COL_MAJOR, m, n, k, a, m, tau);
    }
}

static lapack_int syevd(int32_t t, char uplo, lapack_int n, void *a, void *w)
{
    lapack_int lda = n > 0 ? n : 1;
    switch (t) {
    case TSR_FLOAT32:
        return LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', uplo, n, a, lda, w);
    case TSR_FLOAT64:
        return LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', uplo, n, a, lda, w);
    case TSR_COMPLEX64:
        return LAPACKE_cheevd(LAPACK_COL_MAJOR, 'V', uplo, n, a, lda, w);
    default:
        return LAPACKE_zheevd(LAPACK_COL_MAJOR, 'V', uplo, n, a, lda, w);
    }
}

static lapack_int gesdd(int32_t t, char job, lapack_int m, lapack_int n, void *a, void *s, void *u,
                        lapack_int ldu, void *vt, lapack_int ldvt)
{
    switch (t) {
    case TSR_FLOAT32:
        return LAPACKE_sgesdd(LAPACK_COL_MAJOR, job, m, n, a, m, s, u, ldu, vt, ldvt);
    case TSR_FLOAT64:
        return LAPACKE_dgesdd(LAPACK_COL_MAJOR, job, m, n, a, m, s, u, ldu, vt, ldvt);
    case TSR_COMPLEX64:
        return LAPACKE_cgesdd(LAPACK_COL_MAJOR, job, m, n, a, m, s, u, ldu, vt, ldvt);
    default:
        return LAPACKE_zgesdd(LAPACK_COL_MAJOR, job, m, n, a, m, s, u, ldu, vt, ldvt);
    }
}

/* One matrix; scratch holds a's copy and room for every result. */
static void spectral_matrix(const spectral_run *run, int64_t index, char *scratch)
{
    const tsr__ref_linalg_operand *ops = run->ops;
    int64_t m = ops[0].rows, n = ops[0].cols, k = m < n ? m : n;
    size_t e = run->elem, parts = e / run->real_elem;
    lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lk = (lapack_int)k;
    int32_t info = 0;
    char *a = scratch;
    tsr__cpu_linalg_gather(&ops[0], index, e, a);
    if (run->job == JOB_GEQRF) {
        char *tau = a + (size_t)(m * n) * e;
        if (geqrf(run->dtype, lm, ln, a, tau) < 0) {
            fill_nan(a, m * n * (int64_t)parts, run->real_elem);
            fill_nan(tau, k * (int64_t)parts, run->real_elem);
        }
        tsr__cpu_linalg_scatter(&ops[1], index, e, a);
        tsr__cpu_linalg_scatter(&ops[2], index, e, tau);
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    } else if (run->job == JOB_QR) {
        int64_t qc = ops[1].cols, rr = ops[2].rows, wide = qc > n ? qc : n;
        char *q = a + (size_t)(m * wide) * e, *r = q + (size_t)(m * wide) * e;
        char *tau = r + (size_t)(rr * n) * e;
        lapack_int st = geqrf(run->dtype, lm, ln, a, tau);
        memset(r, 0, (size_t)(rr * n) * e);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i <= j && i < k; i++)
                memcpy(r + (size_t)(j * rr + i) * e, a + (size_t)(j * m + i) * e, e);
        memcpy(q, a, (size_t)(m * (n < qc ? n : qc)) * e);
        if (qc > n)
            memset(q + (size_t)(m * n) * e, 0, (size_t)(m * (qc - n)) * e);
        if (st == 0)
            st = orgqr(run->dtype, lm, (lapack_int)qc, lk, q, tau);
        if (st < 0) {
            fill_nan(q, m * qc * (int64_t)parts, run->real_elem);
            fill_nan(r, rr * n * (int64_t)parts, run->real_elem);
        }
        tsr__cpu_linalg_scatter(&ops[1], index, e, q);
        tsr__cpu_linalg_scatter(&ops[2], index, e, r);
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    } else if (run->job == JOB_EIGH) {
        char *w = a + (size_t)(n * n) * e;
        char uplo = (run->flags & TSR_LINALG_UPPER) ? 'U' : 'L';
        lapack_int st = syevd(run->dtype, uplo, ln, a, w);
        if (st < 0) {
            fill_nan(a, n * n * (int64_t)parts, run->real_elem);
            fill_nan(w, n, run->real_elem);
        } else {
            info = st;
        }
        tsr__cpu_linalg_scatter(&ops[1], index, run->real_elem, w);
        tsr__cpu_linalg_scatter(&ops[2], index, e, a);
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    } else {
        int64_t uc = ops[2].cols, vr = ops[3].rows;
        char job = uc == m && vr == n ? 'A' : 'S'; /* full_matrices, or reduced */
        char *s = a + (size_t)(m * n) * e, *u = s + (size_t)(k + 1) * e;
        char *vt = u + (size_t)(m * uc) * e;
        lapack_int st = gesdd(run->dtype, job, lm, ln, a, s, u, lm > 0 ? lm : 1, vt,
                              (lapack_int)(vr > 0 ? vr : 1));
        if (st < 0) {
            fill_nan(s, k, run->real_elem);
            fill_nan(u, m * uc * (int64_t)parts, run->real_elem);
            fill_nan(vt, vr * n * (int64_t)parts, run->real_elem);
        } else {
            info = st;
        }
        tsr__cpu_linalg_scatter(&ops[1], index, run->real_elem, s);
        tsr__cpu_linalg_scatter(&ops[2], index, e, u);
        tsr__cpu_linalg_scatter(&ops[3], index, e, vt);
        tsr__ref_linalg_store_int(&ops[4], index, &info);
    }
}

/* eig through cgeev/zgeev on every dtype: a real matrix is widened to
 * complex first, so its results have the complex dtype the op returns. */
static void eig_matrix(const spectral_run *run, int64_t index, char *scratch)
{
    const tsr__ref_linalg_operand *ops = run->ops;
    int64_t n = ops[0].rows;
    int single = run->dtype == TSR_FLOAT32 || run->dtype == TSR_COMPLEX64;
    size_t ce = single ? sizeof(float complex) : sizeof(double complex);
    char *in = scratch, *a = in + (size_t)(n * n) * ce, *w = a + (size_t)(n * n) * ce;
    char *vr = w + (size_t)n * ce, *vl = vr + (size_t)(n * n) * ce;
    tsr__cpu_linalg_gather(&ops[0], index, run->elem, in);
    for (int64_t i = 0; i < n * n; i++) {
        if (run->dtype == TSR_FLOAT32) {
            float complex z = ((float *)(void *)in)[i];
            memcpy(a + (size_t)i * ce, &z, ce);
        } else if (run->dtype == TSR_FLOAT64) {
            double complex z = ((double *)(void *)in)[i];
            memcpy(a + (size_t)i * ce, &z, ce);
        } else {
            memcpy(a + (size_t)i * ce, in + (size_t)i * ce, ce);
        }
    }
    lapack_int ln = (lapack_int)n;
    lapack_int st = single ? LAPACKE_cgeev(LAPACK_COL_MAJOR, 'N', 'V', ln, (void *)a, ln, (void *)w,
                                           (void *)vl, 1, (void *)vr, ln)
                           : LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', 'V', ln, (void *)a, ln, (void *)w,
                                           (void *)vl, 1, (void *)vr, ln);
    int32_t info = st > 0 ? st : 0;
    if (st != 0) {
        size_t part = single ? sizeof(float) : sizeof(double);
        fill_nan(w, 2 * n, part);
        fill_nan(vr, 2 * n * n, part);
    }
    tsr__cpu_linalg_scatter(&ops[1], index, ce, w);
    tsr__cpu_linalg_scatter(&ops[2], index, ce, vr);
    tsr__ref_linalg_store_int(&ops[3], index, &info);
}

static void spectral_task(void *context, int64_t task)
{
    spectral_run *run = context;
    int64_t m = run->ops[0].rows, n = run->ops[0].cols, big = (m > n ? m : n) + 1;
    /* enough for every job, eig's complex copies included */
    char *scratch = malloc((size_t)(4 * big * big + 4 * big) * sizeof(double complex));
    if (scratch == NULL) {
        atomic_store(&run->failed, 1);
        return;
    }
    int64_t first = task * run->per_task;
    for (int64_t i = first; i < first + run->per_task && i < run->batch; i++) {
        if (run->job == JOB_EIG)
            eig_matrix(run, i, scratch);
        else
            spectral_matrix(run, i, scratch);
    }
    free(scratch);
}

static int run_spectral(tsr__cpu_backend *backend, const tsr_kernel_args *args, spectral_job job)
{
    static const int32_t qr_dims[] = {2, 2, 2, 0}, eigh_dims[] = {2, 3, 2, 0},
                         svd_dims[] = {2, 3, 2, 2, 0};
    spectral_run run = {.job = job};
    static const int32_t geqrf_dims[] = {2, 2, 4, 0}, eig_dims[] = {2, 6, 5, 0};
    int st =
        job == JOB_EIG
            ? tsr__ref_linalg_prepare(&backend->ref, args, 1, 3, eig_dims, run.ops, &run.batch)
        : job == JOB_GEQRF
            ? tsr__ref_linalg_prepare(&backend->ref, args, 1, 3, geqrf_dims, run.ops, &run.batch)
        : job == JOB_QR
            ? tsr__ref_linalg_prepare(&backend->ref, args, 1, 3, qr_dims, run.ops, &run.batch)
        : job == JOB_EIGH
            ? tsr__ref_linalg_prepare(&backend->ref, args, 1, 3, eigh_dims, run.ops, &run.batch)
            : tsr__ref_linalg_prepare(&backend->ref, args, 1, 4, svd_dims, run.ops, &run.batch);
    if (st != TSR_OK)
        return st;
    int64_t m = run.ops[0].rows, n = run.ops[0].cols, k = m < n ? m : n;
    const tsr__ref_linalg_operand *o = run.ops;
    bool bad = job == JOB_EIG     ? (m != n || o[1].rows != n || o[2].rows != n || o[2].cols != n)
               : job == JOB_GEQRF ? (o[1].rows != m || o[1].cols != n || o[2].rows != k)
               : job == JOB_QR    ? (o[1].rows != m || (o[1].cols != k && o[1].cols != m) ||
                                  o[2].cols != n || o[2].rows != o[1].cols)
               : job == JOB_EIGH
                   ? (m != n || o[1].rows != n || o[2].rows != n || o[2].cols != n)
                   : (o[1].rows != k || o[2].rows != m || o[3].cols != n ||
                      !((o[2].cols == k && o[3].rows == k) || (o[2].cols == m && o[3].rows == n)));
    if (bad)
        return tsr__cpu_error(backend, TSR_ERR_SHAPE, "linalg kernel: operand shapes disagree");
    if (m > INT32_MAX / 4 || n > INT32_MAX / 4)
        return tsr__cpu_error(backend, TSR_ERR_SHAPE,
                              "linalg kernel: a matrix too large for LAPACK");
    run.flags = tsr__ref_linalg_flags(args);
    run.dtype = args->inputs[0].dtype;
    run.elem = tsr__ref_dtype_size(run.dtype);
    run.real_elem = tsr__ref_dtype_size(tsr__ref_dtype_real_part(run.dtype));
    if (run.batch == 0 || m * n == 0)
        return TSR_OK; /* zeros, as the core allocated them */
    const tsr__cpu_blas *blas = tsr__cpu_blas_get();
    if (blas != NULL)
        tsr__cpu_blas_single_thread(blas);
    int64_t order = m > n ? m : n, work = 8 * order * order * order + 1;
    run.per_task = work >= 65536 ? 1 : 65536 / work;
    atomic_init(&run.failed, 0);
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(run.batch, run.per_task), spectral_task,
                      &run);
    if (atomic_load(&run.failed))
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg kernel: no scratch");
    return TSR_OK;
}

int tsr__cpu_kernel_linalg_qr(void *backend, const tsr_kernel_args *args)
{
    return run_spectral(backend, args, JOB_QR);
}

int tsr__cpu_kernel_linalg_eigh(void *backend, const tsr_kernel_args *args)
{
    return run_spectral(backend, args, JOB_EIGH);
}

int tsr__cpu_kernel_linalg_svd(void *backend, const tsr_kernel_args *args)
{
    return run_spectral(backend, args, JOB_SVD);
}

int tsr__cpu_kernel_linalg_geqrf(void *backend, const tsr_kernel_args *args)
{
    return run_spectral(backend, args, JOB_GEQRF);
}

int tsr__cpu_kernel_linalg_eig(void *backend, const tsr_kernel_args *args)
{
    return run_spectral(backend, args, JOB_EIG);
}
