/* layer_norm and rms_norm over the last tsr_index_attrs.offset dims.
 *
 * layer_norm: inputs (x, weight?, bias?), outputs (y, mean, rstd).
 * rms_norm:   inputs (x, weight?),        outputs (y, rstd).
 * mean and rstd have x's rank with the normalized dims of size 1. Each row
 * (the normalized dims of one outer index) is summed in double: the mean
 * first, then the squared deviations from it. Two passes cost one more read
 * but avoid E[x^2] - E[x]^2, which cancels to noise when the mean is large
 * against the spread.
 *
 * layer_norm then follows PyTorch 1.13's CPU kernel step by step, each step
 * rounded to its accumulation type (float, or double for float64), the two
 * multiply-adds fused as its vector code fuses them:
 *     rstd = 1 / sqrt(var + eps),  y = fma(fma(x, rstd, -rstd * mean), w, b).
 * The rounding of x * rstd - rstd * mean is visible when the mean is large
 * against the spread, and PyTorch's results carry it. rms_norm, which 1.13
 * lacks, is x * rstd * w in double, rounded once. */
#include <math.h>
#include <stddef.h>

#include "backend.h"
#include "kernels.h"
#include "strided_loop.h"
#include "wide.h"

enum { MAX_PARAMS = 2 }; /* weight, bias */

typedef struct norm_run {
    int rms;            /* rms_norm: no centring, no bias */
    int32_t inner_ndim; /* normalized dims */
    int32_t outer_ndim;
    int32_t num_params; /* weight, then bias */
    double eps;
    tsr__ref_round_fn round; /* to the accumulation type (layer_norm) */
    tsr_tensor_desc x, y;    /* as given */
    tsr_tensor_desc params[MAX_PARAMS];
    tsr__ref_load_fn load_x;
    tsr__ref_load_fn load_param[MAX_PARAMS];
    tsr__ref_store_fn store;
} norm_run;

/* ------------------------------------------------------------------------ */
/* One row                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct row_sum {
    tsr__ref_load_fn load;
    int squares; /* 0: sum x; 1: sum (x - center)^2; 2: sum x - center */
    double center;
    double total;
} row_sum;

static int sum_elements(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    row_sum *sum = context;
    tsr__ref_wide v;
    for (int64_t i = 0; i < n; i++) {
        sum->load(ptrs[0] + i * steps[0], &v);
        double d = v.f - sum->center;
        sum->total += sum->squares == 1 ? d * d : sum->squares == 2 ? d : v.f;
    }
    return TSR_OK;
}

typedef struct row_write {
    const norm_run *run;
    double scale; /* rstd */
    double shift; /* -rstd * mean */
} row_write;

/* Operands: y, x, then the parameters. */
static int write_elements(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const row_write *w = context;
    const norm_run *run = w->run;
    tsr__ref_wide v, p;
    for (int64_t i = 0; i < n; i++) {
        run->load_x(ptrs[1] + i * steps[1], &v);
        double y = run->round(fma(v.f, w->scale, w->shift));
        double weight = 1.0, bias = 0.0;
        if (run->num_params > 0) {
            run->load_param[0](ptrs[2] + i * steps[2], &p);
            weight = p.f;
        }
        if (run->num_params > 1) {
            run->load_param[1](ptrs[3] + i * steps[3], &p);
            bias = p.f;
        }
        if (run->num_params > 0) {
            y = run->round(fma(y, weight, bias));
        }
        v.f = y;
        run->store(ptrs[0] + i * steps[0], &v);
    }
    return TSR_OK;
}

/* The normalized dims of `desc` from `start` as a descriptor of their own. */
static tsr_tensor_desc inner_desc(const norm_run *run, const tsr_tensor_desc *desc, char *start)
{
    tsr_tensor_desc inner = *desc;
    inner.data = start;
    inner.byte_offset = 0;
    inner.ndim = run->inner_ndim;
    inner.shape = desc->shape + run->outer_ndim;
    inner.strides = desc->strides + run->outer_ndim;
    return inner;
}

static int normalize_row(const norm_run *run, char *y_row, char *x_row, char *mean_at,
                         char *rstd_at)
{
    tsr_tensor_desc descs[2 + MAX_PARAMS] = {inner_desc(run, &run->y, y_row),
                                             inner_desc(run, &run->x, x_row)};
    for (int32_t k = 0; k < run->num_params; k++) {
        descs[2 + k] = run->params[k];
    }
    tsr__ref_loop loop;
    int status = tsr__ref_loop_init(&loop, &descs[1], NULL, 0);
    if (status != TSR_OK) {
        return status;
    }
    double count = (double)loop.numel;
    row_sum sum = {run->load_x, 0, 0.0, 0.0};
    double mean = 0.0;
    if (!run->rms) {
        tsr__ref_loop_run(&loop, sum_elements, &sum);
        /* PyTorch reports a mean of 0 (and rstd NaN) for an empty row. */
        mean = count > 0 ? sum.total / count : 0.0;
        /* A float64 sum loses bits; the mean of the deviations puts them back, so a
         * constant row's mean is its value exactly, as PyTorch's Welford mean is. */
        sum = (row_sum){run->load_x, 2, mean, 0.0};
        tsr__ref_loop_run(&loop, sum_elements, &sum);
        mean += count > 0 ? sum.total / count : 0.0;
    }
    sum = (row_sum){run->load_x, 1, mean, 0.0};
    tsr__ref_loop_run(&loop, sum_elements, &sum);
    double var = run->round(sum.total / count);
    mean = run->round(mean);
    /* PyTorch computes rstd in the accumulation type step by step (for
     * float: 1.0f / sqrtf(var + (float)eps)); its last bit is visible in
     * x * rstd - rstd * mean on constant rows, where the answer is that rounding. */
    double rstd = run->round(1.0 / run->round(sqrt(run->round(var + run->round(run->eps)))));
    row_write w = {run, rstd, run->round(-rstd * mean)};
    tsr__ref_wide stat;
    if (!run->rms) {
        stat.f = mean;
        run->store(mean_at, &stat);
    }
    stat.f = rstd;
    run->store(rstd_at, &stat);
    status = tsr__ref_loop_init(&loop, &descs[0], &descs[1], 1 + run->num_params);
    if (status != TSR_OK) {
        return status;
    }
    return tsr__ref_loop_run(&loop, write_elements, &w);
}

/* Operands of the outer walk: x, y, rstd, then mean for layer_norm. */
static int normalize_rows(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const norm_run *run = context;
    for (int64_t i = 0; i < n; i++) {
        char *mean_at = run->rms ? NULL : ptrs[3] + i * steps[3];
        int status = normalize_row(run, ptrs[1] + i * steps[1], ptrs[0] + i * steps[0], mean_at,
                                   ptrs[2] + i * steps[2]);
        if (status != TSR_OK) {
            return status;
        }
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Checks and the kernel                                                     */
/* ------------------------------------------------------------------------ */

static int same_extents(const int64_t *a, const int64_t *b, int32_t n)
{
    for (int32_t d = 0; d < n; d++) {
        if (a[d] != b[d]) {
            return 0;
        }
    }
    return 1;
}

/* A statistic's descriptor: x's outer extents, then size-1 dims. */
static int stat_fits(const tsr_tensor_desc *stat, const norm_run *run)
{
    if (stat->ndim != run->x.ndim || stat->dtype != run->x.dtype) {
        return 0;
    }
    for (int32_t d = run->outer_ndim; d < stat->ndim; d++) {
        if (stat->shape[d] != 1) {
            return 0;
        }
    }
    return same_extents(stat->shape, run->x.shape, run->outer_ndim);
}

static int check_call(const tsr__ref_backend *backend, const tsr_kernel_args *args, norm_run *run)
{
    int rms = args->op == TSR_OP_RMS_NORM;
    int32_t outputs = rms ? 2 : 3, max_params = rms ? 1 : 2;
    const tsr_index_attrs *attrs = args->attrs;
    if (args->struct_size < sizeof(tsr_kernel_args) || args->num_outputs != outputs ||
        args->num_inputs < 1 || args->num_inputs > 1 + max_params || args->inputs == NULL ||
        args->outputs == NULL || attrs == NULL || attrs->struct_size < sizeof(tsr_index_attrs)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "%s takes x and up to %d parameters, %d outputs and tsr_index_attrs",
                              rms ? "rms_norm" : "layer_norm", (int)max_params, (int)outputs);
    }
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    if (x->ndim < 0 || x->ndim > TSR_MAX_DIMS || attrs->offset < 0 || attrs->offset > x->ndim ||
        y->ndim != x->ndim || !same_extents(x->shape, y->shape, x->ndim)) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "normalized dims do not fit x and y");
    }
    *run = (norm_run){.rms = rms,
                      .inner_ndim = (int32_t)attrs->offset,
                      .outer_ndim = x->ndim - (int32_t)attrs->offset,
                      .num_params = args->num_inputs - 1,
                      .eps = attrs->eps,
                      .x = *x,
                      .y = *y};
    if (tsr__ref_dtype_category(x->dtype) != TSR__REF_REAL || y->dtype != x->dtype) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "x and y must share one floating dtype");
    }
    for (int32_t k = 0; k < run->num_params; k++) {
        const tsr_tensor_desc *p = &args->inputs[1 + k];
        if (p->dtype != x->dtype || p->ndim != run->inner_ndim ||
            !same_extents(p->shape, x->shape + run->outer_ndim, run->inner_ndim)) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "parameter %d must have x's dtype and normalized shape", (int)k);
        }
        run->params[k] = *p;
        run->load_param[k] = tsr__ref_loader(p->dtype);
    }
    for (int32_t k = 1; k < outputs; k++) {
        if (!stat_fits(&args->outputs[k], run)) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE,
                                  "output %d must be x's shape with size-1 normalized dims",
                                  (int)k);
        }
    }
    run->load_x = tsr__ref_loader(x->dtype);
    run->store = tsr__ref_storer(TSR__REF_REAL, x->dtype);
    int32_t accumulate = rms || x->dtype == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32;
    run->round = tsr__ref_real_rounder(accumulate);
    return TSR_OK;
}

/* The outer dims of `desc`: one element per row. */
static tsr_tensor_desc outer_desc(const norm_run *run, const tsr_tensor_desc *desc)
{
    tsr_tensor_desc outer = *desc;
    outer.ndim = run->outer_ndim;
    return outer;
}

int tsr__ref_kernel_norm(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    if (args == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "norm kernel without arguments");
    }
    norm_run run;
    int status = check_call(backend, args, &run);
    if (status != TSR_OK) {
        return status;
    }
    /* y, rstd, then mean for layer_norm (outputs are y, mean, rstd). */
    tsr_tensor_desc outer[4] = {outer_desc(&run, &run.x), outer_desc(&run, &run.y)};
    outer[2] = outer_desc(&run, &args->outputs[run.rms ? 1 : 2]);
    if (!run.rms) {
        outer[3] = outer_desc(&run, &args->outputs[1]);
    }
    tsr__ref_loop loop;
    status = tsr__ref_loop_init(&loop, &outer[0], &outer[1], run.rms ? 2 : 3);
    if (status == TSR_OK) {
        status = tsr__ref_loop_run(&loop, normalize_rows, &run);
    }
    if (status != TSR_OK) {
        return tsr__ref_error(backend, status, "%s: malformed tensor descriptors",
                              run.rms ? "rms_norm" : "layer_norm");
    }
    return TSR_OK;
}
