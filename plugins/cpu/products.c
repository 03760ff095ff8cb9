/* matmul for float32, float64, complex64 and complex128 through OpenBLAS.
 *
 * Operands are passed as they lie: a matrix whose rows or columns are
 * contiguous goes to BLAS with its leading dimension and a transpose flag,
 * never copied. Batch dims (already broadcast by the core, 0 strides for a
 * shared operand) are walked with per-operand strides, so a broadcast
 * operand is never materialised; when b is shared by every batch element
 * and a and the output stack their matrices densely, the batch folds into
 * the rows of one large product. Only a matrix with neither dim contiguous
 * (a broadcast row, a stepped slice) is packed into a temporary. The
 * optional c is copied into the output first and BLAS adds beta * c.
 *
 * Threads: OpenBLAS splits work differently for different thread counts,
 * and its results change in the last bits with the split. So the output is
 * cut into tiles whose sizes depend on the problem only (128, 256 or 512
 * rows and columns), each tile is one single-threaded OpenBLAS call, and the
 * pool runs the tiles: the bits do not depend on the thread count, and
 * OpenBLAS's own threads never run (one thread policy, no oversubscription).
 * alpha of 0, an empty k, an output that is not row-major, and every other
 * dtype go to the reference kernel. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_blas.h"
#include "kernels.h" /* tsr__ref_kernel_matmul */
#include "wide.h"

enum { OUT = 0, A = 1, B = 2, C = 3, OPERANDS = 4 };

/* ------------------------------------------------------------------------ */
/* The plan                                                                  */
/* ------------------------------------------------------------------------ */

/* How BLAS reads one matrix operand. */
typedef struct blas_matrix {
    int trans; /* stored transposed: element (i, j) at j * ld + i */
    int64_t ld;
    int packed; /* neither dim contiguous: copy into a row-major buffer */
    int64_t rows, cols, row_stride, col_stride; /* elements */
} blas_matrix;

typedef struct matmul_plan {
    int32_t dtype;
    int64_t elsize;
    int64_t m, n, k;
    int32_t batch_ndim;
    int64_t batch_shape[TSR_MAX_DIMS];
    int64_t batch_count;
    int64_t batch_stride[OPERANDS][TSR_MAX_DIMS]; /* elements */
    char *base[OPERANDS];
    blas_matrix a, b;
    int64_t ldc;
    int has_c;
    int64_t c_row_stride, c_col_stride;
    double alpha[2], beta[2]; /* real, imaginary */
} matmul_plan;

/* Whether (rows x cols, strides rs, cs) can be read by BLAS in place. */
static void blas_layout(blas_matrix *m)
{
    int64_t rows = m->rows, cols = m->cols, rs = m->row_stride, cs = m->col_stride;
    int64_t min_ld_rows = cols > 1 ? cols : 1, min_ld_cols = rows > 1 ? rows : 1;
    m->packed = 0;
    if ((cs == 1 || cols == 1) && (rows == 1 || rs >= min_ld_rows)) {
        m->trans = 0;
        m->ld = rows == 1 ? min_ld_rows : rs;
    } else if ((rs == 1 || rows == 1) && (cols == 1 || cs >= min_ld_cols)) {
        m->trans = 1;
        m->ld = cols == 1 ? min_ld_cols : cs;
    } else {
        m->packed = 1;
        m->trans = 0;
        m->ld = min_ld_rows;
    }
}

static int is_float_dtype(int32_t dtype)
{
    return dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 ||
           dtype == TSR_COMPLEX128;
}

static void read_coefficients(const tsr_kernel_args *args, matmul_plan *plan)
{
    tsr_scalar alpha = {.kind = TSR_SCALAR_INT, .v.i = 1};
    tsr_scalar beta = {.kind = TSR_SCALAR_INT, .v.i = 0};
    const tsr_elementwise_attrs *attrs = args->attrs;
    size_t needed = offsetof(tsr_elementwise_attrs, scalars) + 2 * sizeof(tsr_scalar);
    plan->has_c = 0;
    if (attrs != NULL && attrs->struct_size >= needed) {
        alpha = attrs->scalars[0];
        beta = attrs->scalars[1];
        plan->has_c = (attrs->mode & 1) != 0;
    }
    /* Rounded to the dtype as the reference kernel (and PyTorch) does. */
    tsr__ref_wide a, b;
    tsr__ref_scalar_as_dtype(&alpha, plan->dtype, &a);
    tsr__ref_scalar_as_dtype(&beta, plan->dtype, &b);
    if (plan->dtype == TSR_COMPLEX64 || plan->dtype == TSR_COMPLEX128) {
        plan->alpha[0] = creal(a.c);
        plan->alpha[1] = cimag(a.c);
        plan->beta[0] = creal(b.c);
        plan->beta[1] = cimag(b.c);
    } else {
        plan->alpha[0] = a.f;
        plan->beta[0] = b.f;
        plan->alpha[1] = plan->beta[1] = 0.0;
    }
}

/* Checks what the fast path relies on; anything odd is left to the
 * reference kernel, which also reports malformed calls. */
static int shapes_fit(const tsr_kernel_args *args, int32_t inputs)
{
    const tsr_tensor_desc *out = args->outputs;
    int32_t ndim = out->ndim;
    if (ndim < 2 || ndim > TSR_MAX_DIMS || out->shape == NULL || out->strides == NULL) {
        return 0;
    }
    int64_t m = out->shape[ndim - 2], n = out->shape[ndim - 1];
    int64_t k = args->inputs[0].ndim == ndim ? args->inputs[0].shape[ndim - 1] : -1;
    for (int32_t i = 0; i < inputs; i++) {
        const tsr_tensor_desc *x = &args->inputs[i];
        if (x->dtype != out->dtype || x->ndim != ndim || x->data == NULL) {
            return 0;
        }
        int64_t rows = i == 0 ? m : i == 1 ? k : m, cols = i == 0 ? k : n;
        for (int32_t d = 0; d < ndim; d++) {
            int64_t want = d == ndim - 2 ? rows : d == ndim - 1 ? cols : out->shape[d];
            if (x->shape[d] != want || x->strides[d] < 0) {
                return 0;
            }
        }
    }
    return out->data != NULL && m > 0 && n > 0 && k > 0;
}

/* Batch shape, per-operand base pointers and batch strides, and how BLAS
 * reads a and b. Returns 0 when a size does not fit OpenBLAS's int. */
static int plan_operands(const tsr_kernel_args *args, matmul_plan *plan)
{
    const tsr_tensor_desc *out = args->outputs;
    int32_t ndim = out->ndim;
    const tsr_tensor_desc *descs[OPERANDS] = {out, &args->inputs[0], &args->inputs[1],
                                              plan->has_c ? &args->inputs[2] : NULL};
    plan->batch_ndim = ndim - 2;
    plan->batch_count = 1;
    for (int32_t d = 0; d < plan->batch_ndim; d++) {
        plan->batch_shape[d] = out->shape[d];
        plan->batch_count *= out->shape[d];
    }
    for (int w = 0; w < OPERANDS; w++) {
        if (descs[w] == NULL) {
            continue;
        }
        plan->base[w] = (char *)descs[w]->data + descs[w]->byte_offset;
        for (int32_t d = 0; d < plan->batch_ndim; d++) {
            plan->batch_stride[w][d] = descs[w]->strides[d];
        }
    }
    const tsr_tensor_desc *a = descs[A], *b = descs[B];
    plan->a = (blas_matrix){.rows = plan->m,
                            .cols = plan->k,
                            .row_stride = a->strides[ndim - 2],
                            .col_stride = a->strides[ndim - 1]};
    plan->b = (blas_matrix){.rows = plan->k,
                            .cols = plan->n,
                            .row_stride = b->strides[ndim - 2],
                            .col_stride = b->strides[ndim - 1]};
    blas_layout(&plan->a);
    blas_layout(&plan->b);
    if (plan->has_c) {
        plan->c_row_stride = descs[C]->strides[ndim - 2];
        plan->c_col_stride = descs[C]->strides[ndim - 1];
    }
    /* OpenBLAS takes 32-bit sizes here (blasint). */
    return plan->m <= INT_MAX && plan->n <= INT_MAX && plan->k <= INT_MAX && plan->ldc <= INT_MAX &&
           plan->a.ld <= INT_MAX && plan->b.ld <= INT_MAX;
}

static int plan_build(const tsr_kernel_args *args, matmul_plan *plan)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_outputs != 1 ||
        args->outputs == NULL || args->inputs == NULL || !is_float_dtype(args->outputs->dtype)) {
        return 0;
    }
    *plan = (matmul_plan){.dtype = args->outputs->dtype};
    read_coefficients(args, plan);
    int32_t inputs = 2 + plan->has_c;
    if (args->num_inputs != inputs || !shapes_fit(args, inputs)) {
        return 0;
    }
    plan->has_c = plan->has_c && (plan->beta[0] != 0.0 || plan->beta[1] != 0.0);
    if (plan->alpha[0] == 0.0 && plan->alpha[1] == 0.0) {
        return 0;
    }
    const tsr_tensor_desc *out = args->outputs;
    int32_t ndim = out->ndim;
    plan->elsize = plan->dtype == TSR_FLOAT32 ? 4 : plan->dtype == TSR_COMPLEX128 ? 16 : 8;
    plan->m = out->shape[ndim - 2];
    plan->n = out->shape[ndim - 1];
    plan->k = args->inputs[0].shape[ndim - 1];
    /* The output: row-major rows, any row stride >= n. */
    int64_t out_rs = out->strides[ndim - 2], out_cs = out->strides[ndim - 1];
    if ((out_cs != 1 && plan->n > 1) || (plan->m > 1 && out_rs < plan->n)) {
        return 0;
    }
    plan->ldc = plan->m > 1 ? out_rs : plan->n;
    return plan_operands(args, plan);
}

/* When b is the same matrix for every batch element and a and the output
 * stack their matrices row after row, the batch is just more rows. */
static void fold_batch(matmul_plan *plan)
{
    if (plan->batch_count <= 1 || plan->a.trans || plan->a.packed || plan->b.packed) {
        return;
    }
    int64_t a_next = plan->m * plan->a.ld, out_next = plan->m * plan->ldc;
    for (int32_t d = plan->batch_ndim - 1; d >= 0; d--) {
        int64_t extent = plan->batch_shape[d];
        if (extent == 1) {
            continue;
        }
        if (plan->batch_stride[B][d] != 0 || plan->batch_stride[A][d] != a_next ||
            plan->batch_stride[OUT][d] != out_next) {
            return;
        }
        a_next *= extent;
        out_next *= extent;
    }
    if (plan->m * plan->batch_count > INT_MAX) {
        return;
    }
    /* c keeps its own batch walk: it is copied into the output per batch
     * element before the one product runs. */
    plan->a.rows = plan->m * plan->batch_count;
    plan->m = plan->a.rows;
    plan->batch_count = -plan->batch_count; /* folded: one product, no batch walk */
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */
/* ------------------------------------------------------------------------ */

/* Element offsets of batch element `index` for every operand. */
static void batch_offsets(const matmul_plan *plan, int64_t index, int64_t *offset)
{
    for (int w = 0; w < OPERANDS; w++) {
        offset[w] = 0;
    }
    for (int32_t d = plan->batch_ndim - 1; d >= 0; d--) {
        int64_t coordinate = index % plan->batch_shape[d];
        index /= plan->batch_shape[d];
        for (int w = 0; w < OPERANDS; w++) {
            offset[w] += coordinate * plan->batch_stride[w][d];
        }
    }
}

/* out[i0:i1, j0:j1] (row stride ldc) = c[i0:i1, j0:j1] (any strides). */
static void copy_c(const matmul_plan *plan, char *out, const char *c, int64_t i0, int64_t i1,
                   int64_t j0, int64_t j1)
{
    size_t size = (size_t)plan->elsize;
    for (int64_t i = i0; i < i1; i++) {
        for (int64_t j = j0; j < j1; j++) {
            memcpy(out + (i * plan->ldc + j) * plan->elsize,
                   c + (i * plan->c_row_stride + j * plan->c_col_stride) * plan->elsize, size);
        }
    }
}

/* A row-major copy of a matrix BLAS cannot read in place. */
static void pack(const matmul_plan *plan, const blas_matrix *m, const char *src, char *dst)
{
    size_t size = (size_t)plan->elsize;
    for (int64_t i = 0; i < m->rows; i++) {
        for (int64_t j = 0; j < m->cols; j++) {
            memcpy(dst + (i * m->cols + j) * plan->elsize,
                   src + (i * m->row_stride + j * m->col_stride) * plan->elsize, size);
        }
    }
}

static const double NO_BETA[2] = {0.0, 0.0};

/* The tile out[i0:i0+m, j0:j0+n] of one product. */
static void gemm_tile(const tsr__cpu_blas *blas, const matmul_plan *plan, const char *a,
                      const char *b, char *out, int64_t i0, int64_t m_tile, int64_t j0,
                      int64_t n_tile)
{
    int64_t size = plan->elsize;
    a += (plan->a.trans ? i0 : i0 * plan->a.ld) * size;
    b += (plan->b.trans ? j0 * plan->b.ld : j0) * size;
    out += (i0 * plan->ldc + j0) * size;
    CBLAS_TRANSPOSE ta = plan->a.trans ? CblasTrans : CblasNoTrans;
    CBLAS_TRANSPOSE tb = plan->b.trans ? CblasTrans : CblasNoTrans;
    blasint m = (blasint)m_tile, n = (blasint)n_tile, k = (blasint)plan->k;
    blasint lda = (blasint)plan->a.ld, ldb = (blasint)plan->b.ld, ldc = (blasint)plan->ldc;
    const double *beta = plan->has_c ? plan->beta : NO_BETA;
    switch (plan->dtype) {
    case TSR_FLOAT32:
        blas->sgemm(CblasRowMajor, ta, tb, m, n, k, (float)plan->alpha[0], (const float *)a, lda,
                    (const float *)b, ldb, (float)beta[0], (float *)out, ldc);
        break;
    case TSR_FLOAT64:
        blas->dgemm(CblasRowMajor, ta, tb, m, n, k, plan->alpha[0], (const double *)a, lda,
                    (const double *)b, ldb, beta[0], (double *)out, ldc);
        break;
    case TSR_COMPLEX64: {
        float alpha32[2] = {(float)plan->alpha[0], (float)plan->alpha[1]};
        float beta32[2] = {(float)beta[0], (float)beta[1]};
        blas->cgemm(CblasRowMajor, ta, tb, m, n, k, alpha32, a, lda, b, ldb, beta32, out, ldc);
        break;
    }
    default:
        blas->zgemm(CblasRowMajor, ta, tb, m, n, k, plan->alpha, a, lda, b, ldb, beta, out, ldc);
        break;
    }
}

/* Tiles depend on the problem's size only, never on the thread count. */
typedef struct tiling {
    int64_t rows, cols;   /* per tile (the last ones may be shorter) */
    int64_t down, across; /* tiles per product */
} tiling;

static int64_t tile_edge(int64_t extent, int64_t edge)
{
    return extent <= edge + edge / 2 ? extent : edge;
}

static tiling choose_tiles(const matmul_plan *plan)
{
    double work = (double)plan->m * (double)plan->n * (double)plan->k;
    /* Larger products take larger tiles: each tile packs its panels of a
     * and b again, which costs less against a larger tile's arithmetic. */
    int64_t edge = work < 512.0 * 512.0 * 512.0 ? 128 : work < 2048.0 * 2048.0 * 2048.0 ? 256 : 512;
    tiling t = {tile_edge(plan->m, edge), tile_edge(plan->n, edge), 0, 0};
    t.down = (plan->m + t.rows - 1) / t.rows;
    t.across = (plan->n + t.cols - 1) / t.cols;
    return t;
}

typedef struct matmul_run {
    const tsr__cpu_blas *blas;
    const matmul_plan *plan;
    tiling tiles;
    int64_t first_batch;  /* tasks cover batch elements first_batch .. */
    const char *packed_a; /* packed copies for a single batch element, or NULL */
    const char *packed_b;
    int folded_c_done; /* folded batch: c already copied */
} matmul_run;

static void tile_task(void *context, int64_t task)
{
    const matmul_run *run = context;
    const matmul_plan *plan = run->plan;
    int64_t per_product = run->tiles.down * run->tiles.across;
    int64_t batch = run->first_batch + task / per_product, tile = task % per_product;
    int64_t i0 = tile / run->tiles.across * run->tiles.rows;
    int64_t j0 = tile % run->tiles.across * run->tiles.cols;
    int64_t i1 = i0 + run->tiles.rows < plan->m ? i0 + run->tiles.rows : plan->m;
    int64_t j1 = j0 + run->tiles.cols < plan->n ? j0 + run->tiles.cols : plan->n;
    int64_t offset[OPERANDS] = {0, 0, 0, 0};
    if (plan->batch_count > 0) {
        batch_offsets(plan, batch, offset);
    }
    const char *a =
        run->packed_a != NULL ? run->packed_a : plan->base[A] + offset[A] * plan->elsize;
    const char *b =
        run->packed_b != NULL ? run->packed_b : plan->base[B] + offset[B] * plan->elsize;
    char *out = plan->base[OUT] + offset[OUT] * plan->elsize;
    if (plan->has_c && !run->folded_c_done) {
        copy_c(plan, out, plan->base[C] + offset[C] * plan->elsize, i0, i1, j0, j1);
    }
    gemm_tile(run->blas, plan, a, b, out, i0, i1 - i0, j0, j1 - j0);
}

/* The folded batch: c copied per batch element, then one product. */
static void copy_folded_c(const matmul_plan *plan)
{
    int64_t batches = -plan->batch_count;
    int64_t rows = plan->m / batches;
    for (int64_t index = 0; index < batches; index++) {
        int64_t offset[OPERANDS];
        batch_offsets(plan, index, offset);
        copy_c(plan, plan->base[OUT] + offset[OUT] * plan->elsize,
               plan->base[C] + offset[C] * plan->elsize, 0, rows, 0, plan->n);
    }
}

/* Operands BLAS cannot read in place: each batch element is packed, then
 * its tiles run. */
static int run_packed(tsr__cpu_backend *backend, matmul_run *run)
{
    const matmul_plan *plan = run->plan;
    int64_t a_bytes = plan->a.packed ? plan->m * plan->k * plan->elsize : 0;
    int64_t b_bytes = plan->b.packed ? plan->k * plan->n * plan->elsize : 0;
    char *scratch = tsr__cpu_alloc(backend->cache, (size_t)(a_bytes + b_bytes));
    if (scratch == NULL) {
        return tsr__cpu_error(backend, TSR_ERR_OUT_OF_MEMORY,
                              "matmul: no memory to pack an operand");
    }
    for (int64_t index = 0; index < plan->batch_count; index++) {
        int64_t offset[OPERANDS];
        batch_offsets(plan, index, offset);
        if (plan->a.packed) {
            pack(plan, &plan->a, plan->base[A] + offset[A] * plan->elsize, scratch);
            run->packed_a = scratch;
        }
        if (plan->b.packed) {
            pack(plan, &plan->b, plan->base[B] + offset[B] * plan->elsize, scratch + a_bytes);
            run->packed_b = scratch + a_bytes;
        }
        run->first_batch = index;
        tsr__cpu_pool_run(backend->pool, run->tiles.down * run->tiles.across, tile_task, run);
    }
    tsr__cpu_free(backend->cache, scratch);
    return TSR_OK;
}

int tsr__cpu_kernel_matmul(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    matmul_plan plan;
    const tsr__cpu_blas *blas = NULL;
    if (!plan_build(args, &plan) || (blas = tsr__cpu_blas_get()) == NULL) {
        return tsr__ref_kernel_matmul(backend, args);
    }
    tsr__cpu_blas_single_thread(blas);
    fold_batch(&plan);
    matmul_run run = {.blas = blas, .plan = &plan, .tiles = choose_tiles(&plan)};
    if (plan.a.packed || plan.b.packed) {
        /* Packed operands never fold (fold_batch needs a BLAS-readable a). */
        return run_packed(backend, &run);
    }
    int64_t batches = plan.batch_count > 0 ? plan.batch_count : 1;
    if (plan.batch_count < 0 && plan.has_c) {
        copy_folded_c(&plan);
        run.folded_c_done = 1;
    }
    tsr__cpu_pool_run(backend->pool, batches * run.tiles.down * run.tiles.across, tile_task, &run);
    return TSR_OK;
}
