/* The cpu backend's linear algebra: LAPACKE (on OpenBLAS's LAPACK) for
 * Cholesky and LU, OpenBLAS's trsm for triangular solves.
 *
 * Each matrix is copied into a column-major scratch of its own dtype (the
 * layout LAPACK computes in: row-major LAPACKE calls transpose into a
 * temporary of their own and ran slower), factored by one single-threaded
 * call and copied back. Matrices are spread over the pool, a fixed range
 * of them per task, and OpenBLAS runs on the calling thread, so a matrix's
 * bits depend on its values alone, not on the batch or the thread count.
 * Matrices of order 16 or less skip LAPACK's call overhead and run the
 * reference's plain-C code (plugins/reference/linalg_factor.c), still over
 * the pool. The _work entry points skip LAPACKE's NaN scan, which would
 * otherwise refuse a matrix holding a NaN instead of factoring it. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "cpu_backend.h"
#include "cpu_blas.h"
#include "kernels.h"
#include "linalg.h"
#include "linalg_cpu.h"

enum { SMALL_ORDER = 16 };

/* LAPACK's 1-based pivots are the kernel's int32 pivots as they are. */
_Static_assert(sizeof(lapack_int) == sizeof(int32_t), "LAPACKE with 32-bit integers");

typedef enum lapack_job { JOB_CHOLESKY, JOB_LU, JOB_TRSM } lapack_job;

typedef struct linalg_run {
    lapack_job job;
    int32_t flags;
    int64_t batch, per_task;
    tsr__ref_linalg_operand ops[4];
    size_t elem; /* bytes per element of the matrices' dtype */
    int32_t dtype;
    atomic_int failed; /* a task could not get its scratch */
} linalg_run;

/* ---- moving one matrix, column-major, in its own dtype -------------------- */

static char *matrix_base(const tsr__ref_linalg_operand *op, int64_t index, size_t elem)
{
    const tsr_tensor_desc *d = op->desc;
    int32_t nbatch = d->ndim - op->matrix_dims;
    int64_t offset = 0;
    for (int32_t k = nbatch - 1; k >= 0; k--) {
        offset += (index % d->shape[k]) * d->strides[k];
        index /= d->shape[k];
    }
    return (char *)d->data + d->byte_offset + offset * (int64_t)elem;
}

static void steps(const tsr__ref_linalg_operand *op, size_t elem, int64_t *row, int64_t *col)
{
    const tsr_tensor_desc *d = op->desc;
    *row = op->matrix_dims >= 1 ? d->strides[d->ndim - op->matrix_dims] * (int64_t)elem : 0;
    *col = op->matrix_dims == 2 ? d->strides[d->ndim - 1] * (int64_t)elem : 0;
}

void tsr__cpu_linalg_gather(const tsr__ref_linalg_operand *op, int64_t index, size_t elem,
                            char *dst)
{
    const char *base = matrix_base(op, index, elem);
    int64_t rs, cs;
    steps(op, elem, &rs, &cs);
    for (int64_t j = 0; j < op->cols; j++)
        for (int64_t i = 0; i < op->rows; i++)
            memcpy(dst + (size_t)(j * op->rows + i) * elem, base + i * rs + j * cs, elem);
}

void tsr__cpu_linalg_scatter(const tsr__ref_linalg_operand *op, int64_t index, size_t elem,
                             const char *src)
{
    char *base = matrix_base(op, index, elem);
    int64_t rs, cs;
    steps(op, elem, &rs, &cs);
    for (int64_t j = 0; j < op->cols; j++)
        for (int64_t i = 0; i < op->rows; i++)
            memcpy(base + i * rs + j * cs, src + (size_t)(j * op->rows + i) * elem, elem);
}

/* Zeros the strict upper (upper = 0) or lower triangle of a column-major n x n. */
static void zero_triangle(char *a, int64_t n, size_t elem, int upper)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < n; i++)
            if (upper ? i < j : i > j)
                memset(a + (size_t)(j * n + i) * elem, 0, elem);
}

static int is_zero(const char *x, size_t elem)
{
    if (elem == sizeof(float)) {
        float v;
        memcpy(&v, x, sizeof v);
        return v == 0.0f;
    }
    if (elem == sizeof(double)) {
        double v;
        memcpy(&v, x, sizeof v);
        return v == 0.0;
    }
    if (elem == sizeof(float complex)) {
        float complex v;
        memcpy(&v, x, sizeof v);
        return crealf(v) == 0.0f && cimagf(v) == 0.0f;
    }
    double complex v;
    memcpy(&v, x, sizeof v);
    return creal(v) == 0.0 && cimag(v) == 0.0;
}

/* Conjugates n elements in place (complex dtypes only). */
static void conjugate(char *a, int64_t n, int32_t dtype)
{
    size_t part = dtype == TSR_COMPLEX64 ? sizeof(float) : sizeof(double);
    for (int64_t e = 0; e < n; e++) {
        char *im = a + (size_t)e * 2 * part + part;
        if (part == sizeof(float)) {
            float v;
            memcpy(&v, im, sizeof v);
            v = v == 0.0f ? 0.0f : -v;
            memcpy(im, &v, sizeof v);
        } else {
            double v;
            memcpy(&v, im, sizeof v);
            v = v == 0.0 ? 0.0 : -v;
            memcpy(im, &v, sizeof v);
        }
    }
}

/* ---- tiny matrices ------------------------------------------------------------ */

/* getrf multiplies by the reciprocal of a pivot, which overflows for a
 * subnormal pivot. A matrix whose largest element is that small is scaled
 * up by a power of two first (exactly: pivots and L do not change) and U
 * scaled back after, rounding only into the subnormal range. */
static double part_at(const char *a, int64_t i, int32_t dtype)
{
    if (dtype == TSR_FLOAT32 || dtype == TSR_COMPLEX64) {
        float v;
        memcpy(&v, a + (size_t)i * sizeof v, sizeof v);
        return v;
    }
    double v;
    memcpy(&v, a + (size_t)i * sizeof v, sizeof v);
    return v;
}

static void part_scale(char *a, int64_t i, int32_t dtype, int exponent)
{
    if (dtype == TSR_FLOAT32 || dtype == TSR_COMPLEX64) {
        float v;
        memcpy(&v, a + (size_t)i * sizeof v, sizeof v);
        v = scalbnf(v, exponent);
        memcpy(a + (size_t)i * sizeof v, &v, sizeof v);
    } else {
        double v;
        memcpy(&v, a + (size_t)i * sizeof v, sizeof v);
        v = scalbn(v, exponent);
        memcpy(a + (size_t)i * sizeof v, &v, sizeof v);
    }
}

/* Scales a (count elements) so that its largest part is near 1 when that
 * part is below the square root of the least normal number; returns the
 * exponent applied (0: untouched). */
static int lift_tiny(char *a, int64_t count, int32_t dtype)
{
    int complex_dtype = dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128;
    int64_t parts = complex_dtype ? 2 * count : count;
    double largest = 0;
    for (int64_t i = 0; i < parts; i++)
        largest = fmax(largest, fabs(part_at(a, i, dtype)));
    double limit = dtype == TSR_FLOAT32 || dtype == TSR_COMPLEX64 ? sqrt(FLT_MIN) : sqrt(DBL_MIN);
    if (!(largest > 0) || largest >= limit)
        return 0;
    int exponent = -ilogb(largest);
    for (int64_t i = 0; i < parts; i++)
        part_scale(a, i, dtype, exponent);
    return exponent;
}

/* Scales the upper trapezoid (U) of a column-major m x n by 2^exponent. */
static void scale_upper(char *a, int64_t m, int64_t n, int32_t dtype, int exponent)
{
    int complex_dtype = dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i <= j && i < m; i++) {
            int64_t e = j * m + i;
            if (complex_dtype) {
                part_scale(a, 2 * e, dtype, exponent);
                part_scale(a, 2 * e + 1, dtype, exponent);
            } else {
                part_scale(a, e, dtype, exponent);
            }
        }
}

/* ---- one matrix through LAPACK ---------------------------------------------- */

static int32_t potrf(int32_t dtype, char uplo, int64_t n, void *a)
{
    lapack_int nn = (lapack_int)n;
    switch (dtype) {
    case TSR_FLOAT32:
        return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, uplo, nn, a, nn);
    case TSR_FLOAT64:
        return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, uplo, nn, a, nn);
    case TSR_COMPLEX64:
        return LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, uplo, nn, a, nn);
    default:
        return LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, uplo, nn, a, nn);
    }
}

static int32_t getrf(int32_t dtype, int64_t m, int64_t n, void *a, lapack_int *ipiv)
{
    lapack_int mm = (lapack_int)m, nn = (lapack_int)n;
    switch (dtype) {
    case TSR_FLOAT32:
        return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, mm, nn, a, mm, ipiv);
    case TSR_FLOAT64:
        return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, mm, nn, a, mm, ipiv);
    case TSR_COMPLEX64:
        return LAPACKE_cgetrf_work(LAPACK_COL_MAJOR, mm, nn, a, mm, ipiv);
    default:
        return LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, mm, nn, a, mm, ipiv);
    }
}

static void trsm(int32_t dtype, int32_t flags, int64_t n, int64_t k, const void *a, void *b)
{
    enum CBLAS_UPLO uplo = (flags & TSR_LINALG_UPPER) ? CblasUpper : CblasLower;
    enum CBLAS_DIAG diag = (flags & TSR_LINALG_UNIT_DIAGONAL) ? CblasUnit : CblasNonUnit;
    blasint nn = (blasint)n, kk = (blasint)k, lda = nn > 0 ? nn : 1;
    static const float one_c[2] = {1.0f, 0.0f};
    static const double one_z[2] = {1.0, 0.0};
    switch (dtype) {
    case TSR_FLOAT32:
        cblas_strsm(CblasColMajor, CblasLeft, uplo, CblasNoTrans, diag, nn, kk, 1.0f, a, lda, b,
                    lda);
        break;
    case TSR_FLOAT64:
        cblas_dtrsm(CblasColMajor, CblasLeft, uplo, CblasNoTrans, diag, nn, kk, 1.0, a, lda, b,
                    lda);
        break;
    case TSR_COMPLEX64:
        cblas_ctrsm(CblasColMajor, CblasLeft, uplo, CblasNoTrans, diag, nn, kk, one_c, a, lda, b,
                    lda);
        break;
    default:
        cblas_ztrsm(CblasColMajor, CblasLeft, uplo, CblasNoTrans, diag, nn, kk, one_z, a, lda, b,
                    lda);
        break;
    }
}

static void lapack_matrix(const linalg_run *run, int64_t index, char *a, char *b, lapack_int *ipiv)
{
    const tsr__ref_linalg_operand *ops = run->ops;
    size_t elem = run->elem;
    int32_t info = 0;
    tsr__cpu_linalg_gather(&ops[0], index, elem, a);
    if (run->job == JOB_CHOLESKY) {
        int upper = (run->flags & TSR_LINALG_UPPER) != 0;
        int64_t n = ops[0].rows;
        info = potrf(run->dtype, upper ? 'U' : 'L', n, a);
        zero_triangle(a, n, elem, !upper);
        tsr__cpu_linalg_scatter(&ops[1], index, elem, a);
        tsr__ref_linalg_store_int(&ops[2], index, &info);
    } else if (run->job == JOB_LU) {
        int64_t m = ops[0].rows, n = ops[0].cols, k = m < n ? m : n;
        int shift = lift_tiny(a, m * n, run->dtype);
        info = getrf(run->dtype, m, n, a, ipiv);
        if (shift != 0)
            scale_upper(a, m, n, run->dtype, -shift);
        tsr__cpu_linalg_scatter(&ops[1], index, elem, a);
        tsr__ref_linalg_store_int(&ops[2], index, (const int32_t *)ipiv);
        (void)k;
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    } else {
        int64_t n = ops[0].rows, k = ops[1].cols;
        if (run->flags & TSR_LINALG_CONJ)
            conjugate(a, n * n, run->dtype);
        for (int64_t i = 0; i < n && !(run->flags & TSR_LINALG_UNIT_DIAGONAL); i++) {
            if (is_zero(a + (size_t)(i * n + i) * elem, elem)) {
                info = (int32_t)(i + 1);
                break;
            }
        }
        tsr__cpu_linalg_gather(&ops[1], index, elem, b);
        trsm(run->dtype, run->flags, n, k, a, b);
        tsr__cpu_linalg_scatter(&ops[2], index, elem, b);
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    }
}

/* ---- one matrix through the reference's code (order <= 16) -------------------- */

static void small_matrix(const linalg_run *run, int64_t index, tsr__ref_lz *a, tsr__ref_lz *b)
{
    const tsr__ref_linalg_operand *ops = run->ops;
    int32_t info = 0;
    tsr__ref_linalg_gather(&ops[0], index, a);
    if (run->job == JOB_LU) {
        int32_t pivots[SMALL_ORDER];
        info = tsr__ref_linalg_lu(a, ops[0].rows, ops[0].cols, pivots);
        tsr__ref_linalg_scatter(&ops[1], index, a);
        tsr__ref_linalg_store_int(&ops[2], index, pivots);
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    } else if (run->job == JOB_TRSM) {
        int64_t n = ops[0].rows;
        if (run->flags & TSR_LINALG_CONJ)
            for (int64_t e = 0; e < n * n; e++)
                a[e] = tsr__ref_lz_conj(a[e]);
        tsr__ref_linalg_gather(&ops[1], index, b);
        info = tsr__ref_linalg_trsm(a, n, b, ops[1].cols, run->flags);
        tsr__ref_linalg_scatter(&ops[2], index, b);
        tsr__ref_linalg_store_int(&ops[3], index, &info);
    }
}

static int64_t order_of(const linalg_run *run)
{
    int64_t m = run->ops[0].rows, n = run->ops[0].cols;
    return m > n ? m : n;
}

/* Cholesky always goes to LAPACK: the reference kernel's upper form and
 * its failure layout are not worth a second path here. */
static int use_small(const linalg_run *run)
{
    return run->job != JOB_CHOLESKY && order_of(run) <= SMALL_ORDER &&
           (run->job != JOB_TRSM || run->ops[1].cols <= SMALL_ORDER);
}

static void linalg_task(void *context, int64_t task)
{
    linalg_run *run = context;
    int64_t first = task * run->per_task;
    int64_t last = first + run->per_task < run->batch ? first + run->per_task : run->batch;
    int64_t rows = run->ops[0].rows, cols = run->ops[0].cols;
    int64_t bsize = run->job == JOB_TRSM ? run->ops[1].rows * run->ops[1].cols : 0;
    int small = use_small(run);
    size_t elem = small ? sizeof(tsr__ref_lz) : run->elem;
    size_t a_bytes = (size_t)(rows * cols) * elem, b_bytes = (size_t)bsize * elem;
    size_t piv_bytes = (size_t)(rows < cols ? rows : cols) * sizeof(lapack_int);
    char *mem = malloc(a_bytes + b_bytes + piv_bytes + 64);
    if (mem == NULL) {
        atomic_store(&run->failed, 1);
        return;
    }
    /* keep every piece aligned for its type */
    char *b = mem + ((a_bytes + 15) & ~(size_t)15);
    lapack_int *ipiv = (lapack_int *)(b + ((b_bytes + 15) & ~(size_t)15));
    for (int64_t i = first; i < last; i++) {
        if (small)
            small_matrix(run, i, (tsr__ref_lz *)mem, (tsr__ref_lz *)b);
        else
            lapack_matrix(run, i, mem, b, ipiv);
    }
    free(mem);
}

static int run_linalg(tsr__cpu_backend *backend, const tsr_kernel_args *args, lapack_job job)
{
    static const int32_t chol_dims[] = {2, 2, 0}, lu_dims[] = {2, 2, 1, 0},
                         trsm_dims[] = {2, 2, 2, 0};
    linalg_run run = {.job = job};
    int st;
    if (job == JOB_CHOLESKY)
        st = tsr__ref_linalg_prepare(&backend->ref, args, 1, 2, chol_dims, run.ops, &run.batch);
    else if (job == JOB_LU)
        st = tsr__ref_linalg_prepare(&backend->ref, args, 1, 3, lu_dims, run.ops, &run.batch);
    else
        st = tsr__ref_linalg_prepare(&backend->ref, args, 2, 2, trsm_dims, run.ops, &run.batch);
    if (st != TSR_OK)
        return st;
    int64_t m = run.ops[0].rows, n = run.ops[0].cols;
    int bad = job == JOB_CHOLESKY ? (m != n || run.ops[1].rows != n || run.ops[1].cols != n)
              : job == JOB_LU     ? (run.ops[1].rows != m || run.ops[1].cols != n ||
                                 run.ops[2].rows != (m < n ? m : n))
                                  : (m != n || run.ops[1].rows != n || run.ops[2].rows != n ||
                                 run.ops[2].cols != run.ops[1].cols);
    if (bad)
        return tsr__cpu_error(backend, TSR_ERR_SHAPE, "linalg kernel: operand shapes disagree");
    if (m > INT32_MAX || n > INT32_MAX || (job == JOB_TRSM && run.ops[1].cols > INT32_MAX))
        return tsr__cpu_error(backend, TSR_ERR_SHAPE,
                              "linalg kernel: a matrix too large for LAPACK");
    run.flags = tsr__ref_linalg_flags(args);
    run.dtype = args->inputs[0].dtype;
    run.elem = tsr__ref_dtype_size(run.dtype);
    if (run.batch == 0 || (m * n == 0 && job != JOB_TRSM))
        return TSR_OK; /* info was zeroed by the core */
    const tsr__cpu_blas *blas = tsr__cpu_blas_get();
    if (blas != NULL)
        tsr__cpu_blas_single_thread(blas);
    /* About 64k flops a task keeps the pool's overhead small. */
    int64_t order = order_of(&run), work = order * order * order + 1;
    run.per_task = work >= 65536 ? 1 : 65536 / work;
    atomic_init(&run.failed, 0);
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(run.batch, run.per_task), linalg_task,
                      &run);
    if (atomic_load(&run.failed))
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY, "linalg kernel: no scratch");
    return TSR_OK;
}

int tsr__cpu_kernel_linalg_cholesky(void *backend, const tsr_kernel_args *args)
{
    return run_linalg(backend, args, JOB_CHOLESKY);
}

int tsr__cpu_kernel_linalg_lu(void *backend, const tsr_kernel_args *args)
{
    return run_linalg(backend, args, JOB_LU);
}

int tsr__cpu_kernel_linalg_solve_triangular(void *backend, const tsr_kernel_args *args)
{
    return run_linalg(backend, args, JOB_TRSM);
}
