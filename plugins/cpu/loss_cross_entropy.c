/* cross_entropy with class indices for float32/float64 logits [N, C] with
 * contiguous rows. On AVX-512, float32 rows take the logsumexp of
 * loss_cross_entropy_avx512.c (a max sweep, then an exp-and-sum sweep with its
 * own exp) and the loss is formed from lse and the row's logits. Elsewhere
 * each row goes through the SIMD set's log_softmax row kernel into a
 * scratch row on the stack (max, exp-and-sum with SLEEF, a write sweep),
 * and the loss, the row's lse (x_j - lp_j) and the target's weight are read
 * from it; rows too long for the scratch row use the double-exp logsumexp.
 * A row of a few thousand classes stays in L1 across its sweeps, so memory
 * sees the logits once and nothing of size N x C is written; a single
 * online max-and-sum sweep would only save cache reads, at an extra exp per
 * rescale. Rows are split over the pool in fixed chunks and each row is
 * computed by one thread alone, so the bits do not depend on the thread
 * count. Other layouts and dtypes go to the reference kernel, as do calls
 * with a target out of range (it reports the error). */
#include <math.h>

#include "cpu_backend.h"
#include "kernels.h" /* tsr__ref_kernel_cross_entropy */

#if defined(__x86_64__)
double tsr__cpu_ce_lse_f32_avx512(const float *x, int64_t n); /* loss_cross_entropy_avx512.c */
#endif

typedef struct ce_job {
    const tsr__cpu_simd *simd;
    double (*lse_f32)(const float *x, int64_t n); /* NULL: the scratch row */
    int32_t dtype;
    const char *logits;
    const int64_t *target;
    const char *weight; /* NULL: no weight */
    int64_t weight_step;
    char *loss, *lse, *picked;
    int64_t rows, classes, rows_per_task, ignore_index;
    double smoothing;
} ce_job;

static double element(int32_t dtype, const char *base, int64_t i)
{
    return dtype == TSR_FLOAT32 ? (double)((const float *)base)[i] : ((const double *)base)[i];
}

static void put(int32_t dtype, char *base, int64_t i, double value)
{
    if (dtype == TSR_FLOAT32) {
        ((float *)base)[i] = (float)value;
    } else {
        ((double *)base)[i] = value;
    }
}

static double class_weight(const ce_job *job, int64_t c)
{
    return job->weight ? element(job->dtype, job->weight, c * job->weight_step) : 1.0;
}

/* The loss of one row from its log-probabilities lp(c): held in `lp` when
 * the row fitted the scratch row, else x_c - lse. */
typedef struct row_view {
    const char *x;
    const void *lp; /* float or double like x; NULL: use lse */
    double lse;
} row_view;

static double log_prob(const ce_job *job, const row_view *v, int64_t c)
{
    if (v->lp == NULL) {
        return element(job->dtype, v->x, c) - v->lse;
    }
    return element(job->dtype, (const char *)v->lp, c);
}

static void finish_row(const ce_job *job, int64_t r, row_view *v)
{
    int64_t t = job->target[r];
    int kept = t != job->ignore_index;
    if (v->lp != NULL) { /* x_j - lp_j for any j: the target's, if kept */
        int64_t j = kept ? t : 0;
        v->lse = element(job->dtype, v->x, j) - element(job->dtype, (const char *)v->lp, j);
    }
    double loss = 0.0, picked = 0.0;
    if (kept) {
        picked = class_weight(job, t);
        loss = (1.0 - job->smoothing) * picked * -log_prob(job, v, t);
        if (job->smoothing > 0.0) {
            double smooth = 0.0;
            for (int64_t c = 0; c < job->classes; c++) {
                smooth += class_weight(job, c) * -log_prob(job, v, c);
            }
            loss += job->smoothing / (double)job->classes * smooth;
        }
    }
    put(job->dtype, job->loss, r, loss);
    put(job->dtype, job->lse, r, v->lse);
    put(job->dtype, job->picked, r, picked);
}

/* Rows up to this many classes get log_softmax written to a scratch row on
 * the stack (in L1), by the SIMD set's float exp; longer rows take the
 * slower double-exp logsumexp and form each log-probability on the fly. */
enum { SCRATCH_CLASSES = 4096 };

static void row_f32(const ce_job *job, int64_t r)
{
    float scratch[SCRATCH_CLASSES];
    const float *x = (const float *)job->logits + r * job->classes;
    row_view v = {(const char *)x, NULL, 0.0};
    if (job->lse_f32 != NULL) {
        v.lse = job->lse_f32(x, job->classes);
        v.lse = isfinite(v.lse) ? v.lse : NAN;
    } else if (job->classes <= SCRATCH_CLASSES) {
        job->simd->softmax_row_f32(scratch, x, job->classes, 1);
        v.lp = scratch;
    } else {
        v.lse = job->simd->logsumexp_row_f32(x, job->classes);
        v.lse = isfinite(v.lse) ? v.lse : NAN; /* no distribution in the row */
    }
    finish_row(job, r, &v);
}

static void row_f64(const ce_job *job, int64_t r)
{
    double scratch[SCRATCH_CLASSES];
    const double *x = (const double *)job->logits + r * job->classes;
    row_view v = {(const char *)x, NULL, 0.0};
    if (job->classes <= SCRATCH_CLASSES) {
        job->simd->softmax_row_f64(scratch, x, job->classes, 1);
        v.lp = scratch;
    } else {
        v.lse = job->simd->logsumexp_row_f64(x, job->classes);
        v.lse = isfinite(v.lse) ? v.lse : NAN;
    }
    finish_row(job, r, &v);
}

static void one_row(const ce_job *job, int64_t r)
{
    if (job->dtype == TSR_FLOAT32) {
        row_f32(job, r);
    } else {
        row_f64(job, r);
    }
}

static void ce_task(void *context, int64_t task)
{
    const ce_job *job = context;
    int64_t first = task * job->rows_per_task;
    int64_t last = first + job->rows_per_task < job->rows ? first + job->rows_per_task : job->rows;
    for (int64_t r = first; r < last; r++) {
        one_row(job, r);
    }
}

/* Every dim of extent > 1 after the first is the class dim, contiguous. */
static int dense_rows(const tsr_tensor_desc *x, int64_t *rows, int64_t *classes)
{
    *rows = x->shape[0];
    *classes = x->shape[1];
    for (int32_t d = 2; d < x->ndim; d++) {
        if (x->shape[d] != 1) {
            return 0;
        }
    }
    return (*classes <= 1 || x->strides[1] == 1) && (*rows <= 1 || x->strides[0] == *classes);
}

/* A sample-shaped operand [N, 1...] whose samples are contiguous. */
static int dense_samples(const tsr_tensor_desc *d, int32_t dtype, int64_t rows)
{
    return d->dtype == dtype && d->ndim >= 1 && d->shape[0] == rows && d->data != NULL &&
           (rows <= 1 || d->strides[0] == 1);
}

static int fits(const tsr_kernel_args *args, ce_job *job)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->inputs == NULL ||
        args->outputs == NULL || args->num_inputs < 2 || args->num_inputs > 3 ||
        args->num_outputs != 3 || args->attrs == NULL) {
        return 0;
    }
    const tsr_cross_entropy_attrs *attrs = args->attrs;
    const tsr_tensor_desc *x = &args->inputs[0];
    if (attrs->struct_size < sizeof(tsr_cross_entropy_attrs) ||
        !(attrs->label_smoothing >= 0.0 && attrs->label_smoothing <= 1.0) || x->ndim < 2 ||
        x->ndim > TSR_MAX_DIMS || (x->dtype != TSR_FLOAT32 && x->dtype != TSR_FLOAT64) ||
        x->data == NULL || !dense_rows(x, &job->rows, &job->classes) || job->classes < 1 ||
        !dense_samples(&args->inputs[1], TSR_INT64, job->rows)) {
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        if (!dense_samples(&args->outputs[i], x->dtype, job->rows)) {
            return 0;
        }
    }
    job->weight = NULL;
    if (args->num_inputs == 3) {
        const tsr_tensor_desc *w = &args->inputs[2];
        if (w->dtype != x->dtype || w->ndim != 1 || w->shape[0] != job->classes ||
            w->data == NULL) {
            return 0;
        }
        job->weight = (const char *)w->data + w->byte_offset;
        job->weight_step = w->strides[0];
    }
    job->dtype = x->dtype;
    job->logits = (const char *)x->data + x->byte_offset;
    job->target =
        (const int64_t *)((const char *)args->inputs[1].data + args->inputs[1].byte_offset);
    job->loss = (char *)args->outputs[0].data + args->outputs[0].byte_offset;
    job->lse = (char *)args->outputs[1].data + args->outputs[1].byte_offset;
    job->picked = (char *)args->outputs[2].data + args->outputs[2].byte_offset;
    job->ignore_index = attrs->ignore_index;
    job->smoothing = attrs->label_smoothing;
    for (int64_t r = 0; r < job->rows; r++) {
        int64_t t = job->target[r];
        if (t != job->ignore_index && (t < 0 || t >= job->classes)) {
            return 0;
        }
    }
    return 1;
}

int tsr__cpu_kernel_cross_entropy(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    ce_job job;
    if (!fits(args, &job)) {
        return tsr__ref_kernel_cross_entropy(backend, args);
    }
    job.simd = backend->simd;
    job.lse_f32 = NULL;
#if defined(__x86_64__)
    if (backend->simd == tsr__cpu_simd_avx512()) {
        job.lse_f32 = tsr__cpu_ce_lse_f32_avx512;
    }
#endif
    /* About 16K logits per task, as softmax: exp makes each one costly. */
    job.rows_per_task = job.classes >= 16384 ? 1 : 16384 / job.classes;
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(job.rows, job.rows_per_task), ce_task,
                      &job);
    return TSR_OK;
}
