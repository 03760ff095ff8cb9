/* softmax and log_softmax of float32/float64 along the last dim of dense
 * tensors: one fused row kernel per row (a max pass, an exp-and-sum pass
 * that writes exp for softmax, a scaling pass), rows split over the pool in
 * fixed chunks. A row stays in cache between its passes, so memory sees one
 * read and one write. Other dims and layouts go to the reference kernel. */
#include "cpu_backend.h"
#include "cpu_walk.h"
#include "kernels.h" /* tsr__ref_kernel_softmax */

typedef struct softmax_job {
    const tsr__cpu_simd *simd;
    int log_form;
    int32_t dtype;
    const char *in;
    char *out;
    int64_t rows, length, rows_per_task;
} softmax_job;

static void softmax_task(void *context, int64_t task)
{
    const softmax_job *job = context;
    int64_t first = task * job->rows_per_task;
    int64_t last = first + job->rows_per_task < job->rows ? first + job->rows_per_task : job->rows;
    for (int64_t r = first; r < last; r++) {
        if (job->dtype == TSR_FLOAT32) {
            job->simd->softmax_row_f32((float *)job->out + r * job->length,
                                       (const float *)job->in + r * job->length, job->length,
                                       job->log_form);
        } else {
            job->simd->softmax_row_f64((double *)job->out + r * job->length,
                                       (const double *)job->in + r * job->length, job->length,
                                       job->log_form);
        }
    }
}

/* Dense input and output of one shape, the dim last among dims of extent > 1. */
static int fits(const tsr_kernel_args *args, softmax_job *job)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL ||
        args->attrs == NULL) {
        return 0;
    }
    const tsr_scan_attrs *attrs = args->attrs;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (attrs->struct_size < sizeof(tsr_scan_attrs) || in->ndim < 1 || in->ndim > TSR_MAX_DIMS ||
        out->ndim != in->ndim || attrs->dim < 0 || attrs->dim >= in->ndim ||
        (in->dtype != TSR_FLOAT32 && in->dtype != TSR_FLOAT64) || out->dtype != in->dtype ||
        in->data == NULL || out->data == NULL) {
        return 0;
    }
    int64_t numel = 1;
    for (int32_t d = 0; d < in->ndim; d++) {
        if (in->shape[d] != out->shape[d] || (d > attrs->dim && in->shape[d] != 1)) {
            return 0;
        }
        numel *= in->shape[d];
    }
    if (!tsr__cpu_desc_dense(in) || !tsr__cpu_desc_dense(out) || numel == 0) {
        return 0;
    }
    job->log_form = args->op == TSR_OP_LOG_SOFTMAX;
    job->dtype = in->dtype;
    job->in = (const char *)in->data + in->byte_offset;
    job->out = (char *)out->data + out->byte_offset;
    job->length = in->shape[attrs->dim];
    job->rows = numel / job->length;
    return 1;
}

int tsr__cpu_kernel_softmax(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    softmax_job job;
    if (!fits(args, &job)) {
        return tsr__ref_kernel_softmax(backend, args);
    }
    job.simd = backend->simd;
    /* About 16K elements per task: exp makes each element costly. */
    job.rows_per_task = job.length >= 16384 ? 1 : 16384 / job.length;
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(job.rows, job.rows_per_task), softmax_task,
                      &job);
    return TSR_OK;
}
