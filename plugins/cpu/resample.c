/* upsample forward (nearest, nearest-exact, linear/bilinear/trilinear) on
 * dense tensors, output rows split over the pool in fixed chunks. The tap
 * tables are the reference's own (tsr__ref_resample_axis_build) and each
 * element is summed in the reference's order in double, so the bits equal
 * the reference's whatever the thread count; the gain is the threads and
 * loads without a per-element conversion call. Nearest copies elements of
 * any dtype. Other layouts, bicubic, bfloat16 blends and the backward go to
 * the reference kernel. */
#include <string.h>

#include "cpu_backend.h"
#include "kernels.h" /* tsr__ref_kernel_upsample */
#include "resample.h"

enum { DIMS = TSR__REF_RESAMPLE_DIMS };

typedef struct upsample_job {
    tsr__ref_resample_axis axes[DIMS];
    int64_t in[DIMS], out[DIMS]; /* padded spatial sizes */
    int64_t rows;                /* planes * out[0] * out[1] */
    int64_t rows_per_task;
    int64_t esize;
    int32_t dtype;
    int nearest;
    const char *x;
    char *y;
} upsample_job;

static double load(const upsample_job *job, const char *plane, int64_t at)
{
    return job->dtype == TSR_FLOAT32 ? (double)((const float *)plane)[at]
                                     : ((const double *)plane)[at];
}

/* upsample_row for bilinear float32 with the reference's arithmetic
 * unrolled: the padded outer dim has one tap of weight 1, so its sum is
 * 0 + acc1 * 1 (written as acc1 + 0.0, which keeps the reference's -0 -> +0);
 * each inner sum starts from 0 the same way. */
static void bilinear_row_f32(const upsample_job *job, const char *plane, float *y, int64_t o0,
                             int64_t o1)
{
    const tsr__ref_resample_axis *a0 = &job->axes[0], *a1 = &job->axes[1], *a2 = &job->axes[2];
    const float *x = (const float *)plane;
    double w0 = a0->weight[o0];
    const float *top = x + (a0->index[o0] * job->in[1] + a1->index[o1 * 2]) * job->in[2];
    const float *bottom = x + (a0->index[o0] * job->in[1] + a1->index[o1 * 2 + 1]) * job->in[2];
    double wt = a1->weight[o1 * 2], wb = a1->weight[o1 * 2 + 1];
    const int64_t *ix = a2->index;
    const double *wx = a2->weight;
    for (int64_t o2 = 0; o2 < job->out[2]; o2++) {
        int64_t l = ix[2 * o2], r = ix[2 * o2 + 1];
        double wl = wx[2 * o2], wr = wx[2 * o2 + 1];
        double t = ((double)top[l] * wl + 0.0) + (double)top[r] * wr;
        double b = ((double)bottom[l] * wl + 0.0) + (double)bottom[r] * wr;
        double acc1 = (t * wt + 0.0) + b * wb;
        y[o2] = (float)(acc1 * w0 + 0.0);
    }
}

/* One output row (plane p, positions o0, o1, every o2), as forward_plane of
 * plugins/reference/resample.c computes it. */
static void upsample_row(const upsample_job *job, int64_t row)
{
    int64_t o1 = row % job->out[1], o0 = row / job->out[1] % job->out[0];
    int64_t p = row / (job->out[1] * job->out[0]);
    int64_t in_plane = job->in[0] * job->in[1] * job->in[2];
    const char *x = job->x + p * in_plane * job->esize;
    char *y = job->y + ((p * job->out[0] + o0) * job->out[1] + o1) * job->out[2] * job->esize;
    const tsr__ref_resample_axis *a0 = &job->axes[0], *a1 = &job->axes[1], *a2 = &job->axes[2];
    if (job->nearest) {
        int64_t base = (a0->index[o0] * job->in[1] + a1->index[o1]) * job->in[2];
        for (int64_t o2 = 0; o2 < job->out[2]; o2++)
            memcpy(y + o2 * job->esize, x + (base + a2->index[o2]) * job->esize,
                   (size_t)job->esize);
        return;
    }
    if (a0->taps == 1 && a1->taps == 2 && a2->taps == 2 && job->dtype == TSR_FLOAT32) {
        bilinear_row_f32(job, x, (float *)y, o0, o1);
        return;
    }
    for (int64_t o2 = 0; o2 < job->out[2]; o2++) {
        double acc0 = 0;
        for (int t0 = 0; t0 < a0->taps; t0++) {
            int64_t i0 = a0->index[o0 * a0->taps + t0];
            double acc1 = 0;
            for (int t1 = 0; t1 < a1->taps; t1++) {
                int64_t base = (i0 * job->in[1] + a1->index[o1 * a1->taps + t1]) * job->in[2];
                double acc2 = 0;
                for (int t2 = 0; t2 < a2->taps; t2++)
                    acc2 = acc2 + load(job, x, base + a2->index[o2 * a2->taps + t2]) *
                                      a2->weight[o2 * a2->taps + t2];
                acc1 = acc1 + acc2 * a1->weight[o1 * a1->taps + t1];
            }
            acc0 = acc0 + acc1 * a0->weight[o0 * a0->taps + t0];
        }
        if (job->dtype == TSR_FLOAT32)
            ((float *)y)[o2] = (float)acc0;
        else
            ((double *)y)[o2] = acc0;
    }
}

static void upsample_task(void *context, int64_t task)
{
    const upsample_job *job = context;
    int64_t first = task * job->rows_per_task;
    int64_t last = first + job->rows_per_task < job->rows ? first + job->rows_per_task : job->rows;
    for (int64_t r = first; r < last; r++)
        upsample_row(job, r);
}

/* Row-major without gaps (extent-1 dims may have any stride). */
static int dense(const tsr_tensor_desc *desc)
{
    int64_t expected = 1;
    for (int32_t d = desc->ndim - 1; d >= 0; d--) {
        if (desc->shape[d] != 1) {
            if (desc->strides[d] != expected)
                return 0;
            expected *= desc->shape[d];
        }
    }
    return 1;
}

/* The forward on dense tensors in a mode and dtype this file computes. */
static int fits(const tsr_kernel_args *args)
{
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->op != TSR_OP_UPSAMPLE ||
        args->num_inputs != 1 || args->num_outputs != 1 || !args->inputs || !args->outputs ||
        !args->attrs)
        return 0;
    const tsr_resample_attrs *at = args->attrs;
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    int k = x->ndim - 2;
    if (at->struct_size < sizeof *at || k < 1 || k > 3 || y->ndim != x->ndim ||
        x->dtype != y->dtype || !x->data || !y->data || !dense(x) || !dense(y))
        return 0;
    if (x->shape[0] != y->shape[0] || x->shape[1] != y->shape[1])
        return 0;
    for (int d = 0; d < k; d++)
        if (x->shape[2 + d] <= 0)
            return 0;
    if (at->mode == TSR_RESAMPLE_NEAREST || at->mode == TSR_RESAMPLE_NEAREST_EXACT)
        return x->dtype == TSR_UINT8 || x->dtype == TSR_BFLOAT16 || x->dtype == TSR_FLOAT32 ||
               x->dtype == TSR_FLOAT64;
    return at->mode == TSR_RESAMPLE_LINEAR && (x->dtype == TSR_FLOAT32 || x->dtype == TSR_FLOAT64);
}

int tsr__cpu_kernel_upsample(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    if (!fits(args))
        return tsr__ref_kernel_upsample(backend, args);
    const tsr_resample_attrs *at = args->attrs;
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    int k = x->ndim - 2;
    upsample_job job;
    memset(&job, 0, sizeof job);
    job.dtype = x->dtype;
    job.esize = x->dtype == TSR_UINT8      ? 1
                : x->dtype == TSR_BFLOAT16 ? 2
                : x->dtype == TSR_FLOAT32  ? 4
                                           : 8;
    job.nearest = at->mode != TSR_RESAMPLE_LINEAR;
    job.x = (const char *)x->data + x->byte_offset;
    job.y = (char *)y->data + y->byte_offset;
    int status = TSR_OK;
    for (int d = 0; d < DIMS; d++) {
        int real = d >= DIMS - k;
        int src = 2 + d - (DIMS - k);
        job.in[d] = real ? x->shape[src] : 1;
        job.out[d] = real ? y->shape[src] : 1;
        if (status == TSR_OK)
            status = tsr__ref_resample_axis_build(
                at, tsr__ref_resample_prec(x->dtype), 0, job.in[d], job.out[d],
                real ? at->scales[src - 2] : 0, real, &job.axes[d]);
    }
    if (status == TSR_OK) {
        job.rows = x->shape[0] * x->shape[1] * job.out[0] * job.out[1];
        /* About 16K output elements per task. */
        job.rows_per_task = job.out[2] >= 16384 ? 1 : 16384 / job.out[2];
        if (job.rows > 0 && job.out[2] > 0)
            tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(job.rows, job.rows_per_task),
                              upsample_task, &job);
    }
    for (int d = 0; d < DIMS; d++)
        tsr__ref_resample_axis_free(&job.axes[d]);
    return status == TSR_OK ? TSR_OK : tsr__ref_kernel_upsample(backend, args);
}
