/* The direct convolution rows for float64 (oneDNN has no float64
 * convolution): per sample, the reference im2col (or col2im) around one
 * OpenBLAS dgemm per group, as PyTorch's CPU convolution does for double.
 *
 * The matrices must lie densely where dgemm reads them: the output (dy for
 * the backwards) with dense channel rows of contiguous windows, the weight
 * contiguous. The image may have any strides (im2col and col2im walk them).
 * Anything else, an empty dim, a missing OpenBLAS or no scratch memory goes
 * to the reference kernel. Sums run in dgemm's order, not the reference's,
 * so results agree within float64 rounding, not bit for bit. */
#include <string.h>

#include "cpu_backend.h"
#include "cpu_blas.h"
#include "kernels.h" /* the reference im2col, col2im and convolution */

enum { SPATIAL = TSR_CONV_MAX_SPATIAL };

typedef struct gemm_plan {
    int nd;
    int64_t batch, cin, cout, groups, cig, cog, volume, windows;
    const tsr_tensor_desc *x, *w, *y; /* image, weight, windows (dy) */
    const tsr_conv_attrs *attrs;
} gemm_plan;

/* Whether t is row-major dense from dim `from` on. */
static int dense_from(const tsr_tensor_desc *t, int from)
{
    int64_t step = 1;
    for (int d = t->ndim - 1; d >= from; d--) {
        if (t->shape[d] != 1 && t->strides[d] != step) {
            return 0;
        }
        step *= t->shape[d];
    }
    return 1;
}

static int plan_build(const tsr_kernel_args *args, gemm_plan *p)
{
    const tsr_conv_attrs *a = args->attrs;
    if (args->num_outputs != 1 || args->num_inputs < 2 || args->num_inputs > 3 || a == NULL ||
        a->struct_size < sizeof *a || a->spatial_ndim < 1 || a->spatial_ndim > SPATIAL ||
        a->groups < 1) {
        return 0;
    }
    const tsr_tensor_desc *in = args->inputs, *out = args->outputs;
    switch (args->op) {
    case TSR_OP_CONVOLUTION:
        p->x = &in[0], p->w = &in[1], p->y = out;
        break;
    case TSR_OP_CONVOLUTION_BACKWARD_DATA:
        p->y = &in[0], p->w = &in[1], p->x = out;
        break;
    default:
        p->y = &in[0], p->x = &in[1], p->w = out;
        break;
    }
    int nd = a->spatial_ndim;
    if (p->x->ndim != 2 + nd || p->w->ndim != 2 + nd || p->y->ndim != 2 + nd ||
        p->x->dtype != TSR_FLOAT64 || p->w->dtype != TSR_FLOAT64 || p->y->dtype != TSR_FLOAT64) {
        return 0;
    }
    p->nd = nd;
    p->attrs = a;
    p->batch = p->x->shape[0];
    p->cin = p->x->shape[1];
    p->cout = p->w->shape[0];
    p->groups = a->groups;
    p->cig = p->w->shape[1];
    p->cog = p->cout / p->groups;
    p->volume = 1;
    p->windows = 1;
    for (int d = 0; d < nd; d++) {
        p->volume *= p->w->shape[2 + d];
        p->windows *= p->y->shape[2 + d];
    }
    for (int d = 0; d < p->x->ndim; d++) {
        if (p->x->shape[d] < 1 || p->w->shape[d] < 1 || p->y->shape[d] < 1 ||
            p->x->strides[d] < 0) {
            return 0;
        }
    }
    /* The reference kernel checks the geometry itself; these are what
     * dgemm needs. */
    return p->cin == p->cig * p->groups && p->cout % p->groups == 0 && dense_from(p->w, 0) &&
           dense_from(p->y, 2) && p->y->strides[1] == p->windows &&
           (args->op != TSR_OP_CONVOLUTION_BACKWARD_WEIGHT || p->y->strides[0] >= 0);
}

static double *at(const tsr_tensor_desc *t, int64_t i0, int64_t i1)
{
    return (double *)((char *)t->data + t->byte_offset) + i0 * t->strides[0] + i1 * t->strides[1];
}

/* Sample n of the image as a batch of one, over the same memory. */
static tsr_tensor_desc sample(const tsr_tensor_desc *x, int64_t n, int64_t *shape)
{
    tsr_tensor_desc one = *x;
    memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
    shape[0] = 1;
    one.shape = shape;
    one.byte_offset += n * x->strides[0] * (int64_t)sizeof(double);
    return one;
}

/* The columns of one sample, [1, Cin*K, L] dense in `cols`. */
static tsr_tensor_desc columns(const gemm_plan *p, double *cols, int64_t *shape, int64_t *strides)
{
    shape[0] = 1;
    shape[1] = p->cin * p->volume;
    shape[2] = p->windows;
    strides[2] = 1;
    strides[1] = p->windows;
    strides[0] = shape[1] * p->windows;
    return (tsr_tensor_desc){
        .data = cols, .dtype = TSR_FLOAT64, .ndim = 3, .shape = shape, .strides = strides};
}

static int im2col_sample(void *backend, const gemm_plan *p, int64_t n, double *cols)
{
    int64_t xs[TSR_MAX_DIMS], cs[3], cst[3];
    tsr_tensor_desc x = sample(p->x, n, xs), c = columns(p, cols, cs, cst);
    tsr_kernel_args args = {sizeof args, TSR_OP_IM2COL, 1, 1, &x, &c, p->attrs};
    return tsr__ref_kernel_im2col(backend, &args);
}

static int col2im_sample(void *backend, const gemm_plan *p, int64_t n, double *cols)
{
    int64_t xs[TSR_MAX_DIMS], cs[3], cst[3];
    tsr_tensor_desc x = sample(p->x, n, xs), c = columns(p, cols, cs, cst);
    tsr_kernel_args args = {sizeof args, TSR_OP_COL2IM, 1, 1, &c, &x, p->attrs};
    return tsr__ref_kernel_col2im(backend, &args);
}

/* y[n, g] = w[g] @ cols[g] (+ bias), per sample and group. */
static int forward(void *backend, const tsr__cpu_blas *blas, const gemm_plan *p,
                   const tsr_tensor_desc *bias, double *cols)
{
    int64_t rows = p->cig * p->volume;
    for (int64_t n = 0; n < p->batch; n++) {
        int st = im2col_sample(backend, p, n, cols);
        if (st != TSR_OK) {
            return st;
        }
        for (int64_t g = 0; g < p->groups; g++) {
            blas->dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)p->cog, (int)p->windows,
                        (int)rows, 1.0, at(p->w, g * p->cog, 0), (int)rows,
                        cols + g * rows * p->windows, (int)p->windows, 0.0, at(p->y, n, g * p->cog),
                        (int)p->windows);
        }
        for (int64_t co = 0; bias != NULL && co < p->cout; co++) {
            double b = *((const double *)((const char *)bias->data + bias->byte_offset) +
                         co * bias->strides[0]);
            double *row = at(p->y, n, co);
            for (int64_t l = 0; l < p->windows; l++) {
                row[l] += b;
            }
        }
    }
    return TSR_OK;
}

/* cols[g] = w[g]^T @ dy[n, g], then col2im into dx[n]. */
static int backward_data(void *backend, const tsr__cpu_blas *blas, const gemm_plan *p, double *cols)
{
    int64_t rows = p->cig * p->volume;
    for (int64_t n = 0; n < p->batch; n++) {
        for (int64_t g = 0; g < p->groups; g++) {
            blas->dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)rows, (int)p->windows,
                        (int)p->cog, 1.0, at(p->w, g * p->cog, 0), (int)rows,
                        at(p->y, n, g * p->cog), (int)p->windows, 0.0, cols + g * rows * p->windows,
                        (int)p->windows);
        }
        int st = col2im_sample(backend, p, n, cols);
        if (st != TSR_OK) {
            return st;
        }
    }
    return TSR_OK;
}

/* dw[g] = sum_n dy[n, g] @ cols[g]^T. */
static int backward_weight(void *backend, const tsr__cpu_blas *blas, const gemm_plan *p,
                           double *cols)
{
    int64_t rows = p->cig * p->volume;
    for (int64_t n = 0; n < p->batch; n++) {
        int st = im2col_sample(backend, p, n, cols);
        if (st != TSR_OK) {
            return st;
        }
        for (int64_t g = 0; g < p->groups; g++) {
            blas->dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)p->cog, (int)rows,
                        (int)p->windows, 1.0, at(p->y, n, g * p->cog), (int)p->windows,
                        cols + g * rows * p->windows, (int)p->windows, n == 0 ? 0.0 : 1.0,
                        at(p->w, g * p->cog, 0), (int)rows);
        }
    }
    return TSR_OK;
}

int tsr__cpu_kernel_convolution_gemm(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    gemm_plan p;
    const tsr__cpu_blas *blas = NULL;
    if (args == NULL || args->struct_size < sizeof *args || args->inputs == NULL ||
        args->outputs == NULL || !plan_build(args, &p) || (blas = tsr__cpu_blas_get()) == NULL ||
        p.cin * p.volume > INT32_MAX || p.windows > INT32_MAX || p.cout > INT32_MAX ||
        (args->num_inputs == 3 &&
         (args->op != TSR_OP_CONVOLUTION || args->inputs[2].dtype != TSR_FLOAT64 ||
          args->inputs[2].ndim != 1 || args->inputs[2].shape[0] != p.cout))) {
        return tsr__ref_kernel_convolution(backend, args);
    }
    size_t bytes = (size_t)(p.cin * p.volume * p.windows) * sizeof(double);
    double *cols = tsr__cpu_alloc(backend->cache, bytes);
    if (cols == NULL) {
        return tsr__ref_kernel_convolution(backend, args);
    }
    tsr__cpu_blas_single_thread(blas);
    int st;
    if (args->op == TSR_OP_CONVOLUTION) {
        st = forward(backend, blas, &p, args->num_inputs == 3 ? &args->inputs[2] : NULL, cols);
    } else if (args->op == TSR_OP_CONVOLUTION_BACKWARD_DATA) {
        st = backward_data(backend, blas, &p, cols);
    } else {
        st = backward_weight(backend, blas, &p, cols);
    }
    tsr__cpu_free(backend->cache, cols);
    return st;
}
