/* layer_norm and rms_norm of float32/float64 over the trailing dims of
 * dense tensors: one fused row kernel per row (statistics in double over a
 * row that stays in cache, then one write pass), rows split over the pool
 * in fixed chunks. Weight and bias must be dense; other layouts go to the
 * reference kernel. Outputs: (y, mean, rstd) for layer_norm, (y, rstd) for
 * rms_norm, the statistics dense with one element per row. */
#include "cpu_backend.h"
#include "cpu_walk.h"
#include "kernels.h" /* tsr__ref_kernel_norm */

typedef struct norm_job {
    const tsr__cpu_simd *simd;
    tsr__cpu_norm_row params;
    int32_t dtype;
    const char *x;
    char *y, *mean, *rstd; /* mean NULL for rms_norm */
    int64_t rows, length, rows_per_task;
} norm_job;

static void store_stat(int32_t dtype, char *base, int64_t row, double value)
{
    if (dtype == TSR_FLOAT32) {
        ((float *)base)[row] = (float)value;
    } else {
        ((double *)base)[row] = value;
    }
}

static void norm_task(void *context, int64_t task)
{
    const norm_job *job = context;
    int64_t first = task * job->rows_per_task;
    int64_t last = first + job->rows_per_task < job->rows ? first + job->rows_per_task : job->rows;
    for (int64_t r = first; r < last; r++) {
        double mean, rstd;
        if (job->dtype == TSR_FLOAT32) {
            job->simd->norm_row_f32((float *)job->y + r * job->length,
                                    (const float *)job->x + r * job->length, job->length,
                                    &job->params, &mean, &rstd);
        } else {
            job->simd->norm_row_f64((double *)job->y + r * job->length,
                                    (const double *)job->x + r * job->length, job->length,
                                    &job->params, &mean, &rstd);
        }
        if (job->mean != NULL) {
            store_stat(job->dtype, job->mean, r, mean);
        }
        store_stat(job->dtype, job->rstd, r, rstd);
    }
}

static int64_t numel(const tsr_tensor_desc *desc)
{
    int64_t n = 1;
    for (int32_t d = 0; d < desc->ndim; d++) {
        n *= desc->shape[d];
    }
    return n;
}

static const char *start(const tsr_tensor_desc *desc)
{
    return (const char *)desc->data + desc->byte_offset;
}

static int fits(const tsr_kernel_args *args, norm_job *job)
{
    int rms = args != NULL && args->op == TSR_OP_RMS_NORM;
    int32_t outputs = rms ? 2 : 3, max_inputs = rms ? 2 : 3;
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) ||
        args->num_outputs != outputs || args->num_inputs < 1 || args->num_inputs > max_inputs ||
        args->inputs == NULL || args->outputs == NULL || args->attrs == NULL) {
        return 0;
    }
    const tsr_index_attrs *attrs = args->attrs;
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    if (attrs->struct_size < sizeof(tsr_index_attrs) || attrs->offset < 1 ||
        attrs->offset > x->ndim || (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) ||
        !tsr__cpu_desc_dense(x) || !tsr__cpu_desc_dense(y) || y->dtype != x->dtype ||
        y->ndim != x->ndim) {
        return 0;
    }
    int32_t outer_ndim = x->ndim - (int32_t)attrs->offset;
    int64_t length = 1;
    for (int32_t d = 0; d < x->ndim; d++) {
        if (y->shape[d] != x->shape[d]) {
            return 0;
        }
        length *= d >= outer_ndim ? x->shape[d] : 1;
    }
    int64_t total = numel(x);
    if (length == 0 || total == 0) {
        return 0;
    }
    for (int32_t k = 1; k < args->num_inputs; k++) {
        const tsr_tensor_desc *p = &args->inputs[k];
        if (p->dtype != x->dtype || !tsr__cpu_desc_dense(p) || numel(p) != length ||
            p->ndim != attrs->offset) {
            return 0;
        }
    }
    for (int32_t k = 1; k < outputs; k++) {
        const tsr_tensor_desc *s = &args->outputs[k];
        if (s->dtype != x->dtype || !tsr__cpu_desc_dense(s) || numel(s) != total / length) {
            return 0;
        }
    }
    *job = (norm_job){.params = {.weight = args->num_inputs > 1 ? start(&args->inputs[1]) : NULL,
                                 .bias = args->num_inputs > 2 ? start(&args->inputs[2]) : NULL,
                                 .eps = attrs->eps,
                                 .rms = rms},
                      .dtype = x->dtype,
                      .x = start(x),
                      .y = (char *)start(y),
                      .mean = rms ? NULL : (char *)start(&args->outputs[1]),
                      .rstd = (char *)start(&args->outputs[rms ? 1 : 2]),
                      .rows = total / length,
                      .length = length};
    return 1;
}

int tsr__cpu_kernel_norm(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    norm_job job;
    if (!fits(args, &job)) {
        return tsr__ref_kernel_norm(backend, args);
    }
    job.simd = backend->simd;
    job.rows_per_task = job.length >= 32768 ? 1 : 32768 / job.length;
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(job.rows, job.rows_per_task), norm_task,
                      &job);
    return TSR_OK;
}
