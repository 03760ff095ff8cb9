/* The pooling kernels (plugin.h's TSR_OP_LIST_POOL) on dense float32 and
 * float64 tensors, planes split over the thread pool in fixed blocks.
 * (plugins/cpu/pool.c is the thread pool itself; this file is the pooling
 * family's.)
 *
 * Forwards run typed loops with the reference's arithmetic: window sums in
 * the dtype in tap order, one division per divisor, max taking NaN and the
 * first of equal values, so the bits are the reference's (and PyTorch's).
 * Backwards hand each block of planes to the reference kernel, which is
 * already the scatter PyTorch does; only the split is new. Any other dtype
 * or layout goes to the reference kernel whole.
 *
 * Why not oneDNN: its max pooling keeps a workspace instead of PyTorch's
 * flat per-plane indices, does not follow PyTorch's NaN rule, and its
 * ceil_mode padding counts the extra right padding in count_include_pad
 * averages, which PyTorch clips at the padded input; the bits would differ. */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "cpu_backend.h"
#include "kernels.h" /* tsr__ref_kernel_pool */

/* One call, seen as planes [P, in0, in1, in2] -> [P, out0, out1, out2]. */
typedef struct pool_job {
    const tsr_kernel_args *args;
    tsr__cpu_backend *backend;
    int32_t op, dtype;
    int64_t planes, planes_per_task;
    int64_t in[3], out[3], k[3], s[3], p[3], dil[3];
    int64_t divisor;
    bool include_pad;
    const char *x;
    char *y;
    int64_t *indices;
} pool_job;

typedef struct window {
    int64_t first, end, step, extent;
} window;

static bool adaptive(int32_t op)
{
    return op == TSR_OP_POOL_ADAPTIVE_AVG || op == TSR_OP_POOL_ADAPTIVE_MAX ||
           op == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
}

static window window_at(const pool_job *j, int k, int64_t o)
{
    window w = {0, 0, 1, 0};
    if (adaptive(j->op)) {
        w.first = o * j->in[k] / j->out[k];
        w.end = ((o + 1) * j->in[k] + j->out[k] - 1) / j->out[k];
        w.extent = w.end - w.first;
        return w;
    }
    int64_t start = o * j->s[k] - j->p[k];
    if (j->op == TSR_OP_POOL_MAX) {
        w.step = j->dil[k];
        w.end = start + (j->k[k] - 1) * j->dil[k] + 1;
        w.end = w.end < j->in[k] ? w.end : j->in[k];
        while (start < 0)
            start += j->dil[k];
        w.first = start;
        return w;
    }
    int64_t end = start + j->k[k];
    end = end < j->in[k] + j->p[k] ? end : j->in[k] + j->p[k];
    w.extent = end - start;
    w.first = start < 0 ? 0 : start;
    w.end = end < j->in[k] ? end : j->in[k];
    return w;
}

static int64_t divisor_of(const pool_job *j, const window *w)
{
    if (j->divisor != 0)
        return j->divisor;
    int64_t d = 1;
    for (int k = 0; k < 3; k++)
        d *= j->include_pad ? w[k].extent : w[k].end - w[k].first;
    return d;
}

/* The forward of one plane in type T: the reference's steps, typed. */
#define POOL_PLANE(NAME, T, NEG_INF)                                                               \
    static void NAME(const pool_job *j, const T *x, T *y, int64_t *idx)                            \
    {                                                                                              \
        bool is_max = j->op == TSR_OP_POOL_MAX || j->op == TSR_OP_POOL_ADAPTIVE_MAX;               \
        int64_t at_out = 0;                                                                        \
        for (int64_t o0 = 0; o0 < j->out[0]; o0++) {                                               \
            window w0 = window_at(j, 0, o0);                                                       \
            for (int64_t o1 = 0; o1 < j->out[1]; o1++) {                                           \
                window w1 = window_at(j, 1, o1);                                                   \
                for (int64_t o2 = 0; o2 < j->out[2]; o2++, at_out++) {                             \
                    window w[3] = {w0, w1, window_at(j, 2, o2)};                                   \
                    T acc = is_max ? NEG_INF : (T)0;                                               \
                    int64_t best = (w[0].first * j->in[1] + w[1].first) * j->in[2] + w[2].first;   \
                    for (int64_t i0 = w[0].first; i0 < w[0].end; i0 += w[0].step)                  \
                        for (int64_t i1 = w[1].first; i1 < w[1].end; i1 += w[1].step) {            \
                            int64_t row = (i0 * j->in[1] + i1) * j->in[2];                         \
                            if (!is_max) {                                                         \
                                for (int64_t i2 = w[2].first; i2 < w[2].end; i2++)                 \
                                    acc = acc + x[row + i2];                                       \
                                continue;                                                          \
                            }                                                                      \
                            for (int64_t i2 = w[2].first; i2 < w[2].end; i2 += w[2].step) {        \
                                T v = x[row + i2];                                                 \
                                if (v > acc || isnan(v)) {                                         \
                                    acc = v;                                                       \
                                    best = row + i2;                                               \
                                }                                                                  \
                            }                                                                      \
                        }                                                                          \
                    if (j->op == TSR_OP_POOL_AVG)                                                  \
                        acc = acc / (T)divisor_of(j, w);                                           \
                    else if (j->op == TSR_OP_POOL_ADAPTIVE_AVG)                                    \
                        for (int k = 0; k < 3; k++)                                                \
                            acc = acc / (T)w[k].extent;                                            \
                    y[at_out] = acc;                                                               \
                    if (is_max)                                                                    \
                        idx[at_out] = best;                                                        \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

POOL_PLANE(plane_f32, float, -INFINITY)
POOL_PLANE(plane_f64, double, -INFINITY)

static int64_t plane_numel(const int64_t *sizes)
{
    return sizes[0] * sizes[1] * sizes[2];
}

static void forward_task(void *context, int64_t task)
{
    const pool_job *j = context;
    int64_t first = task * j->planes_per_task, last = first + j->planes_per_task;
    last = last < j->planes ? last : j->planes;
    int64_t pin = plane_numel(j->in), pout = plane_numel(j->out);
    size_t size = j->dtype == TSR_FLOAT32 ? 4 : 8;
    for (int64_t q = first; q < last; q++) {
        const char *x = j->x + q * pin * (int64_t)size;
        char *y = j->y + q * pout * (int64_t)size;
        int64_t *idx = j->indices ? j->indices + q * pout : NULL;
        if (j->dtype == TSR_FLOAT32)
            plane_f32(j, (const float *)x, (float *)y, idx);
        else
            plane_f64(j, (const double *)x, (double *)y, idx);
    }
}

/* A backward block: the reference kernel on planes [first, last), the
 * descriptors narrowed to them (N = 1, C = the block). */
static void backward_task(void *context, int64_t task)
{
    const pool_job *j = context;
    const tsr_kernel_args *args = j->args;
    int64_t first = task * j->planes_per_task, last = first + j->planes_per_task;
    last = last < j->planes ? last : j->planes;
    tsr_tensor_desc ins[2], outs[1];
    int64_t shapes[3][5], strides[3][5];
    for (int t = 0; t < args->num_inputs + 1; t++) {
        const tsr_tensor_desc *d = t < args->num_inputs ? &args->inputs[t] : &args->outputs[0];
        tsr_tensor_desc *n = t < args->num_inputs ? &ins[t] : &outs[0];
        int64_t inner = 1;
        for (int k = 2; k < d->ndim; k++) {
            shapes[t][k] = d->shape[k];
            strides[t][k] = d->strides[k];
            inner *= d->shape[k];
        }
        shapes[t][0] = 1;
        shapes[t][1] = last - first;
        strides[t][0] = strides[t][1] = inner;
        *n = *d;
        n->shape = shapes[t];
        n->strides = strides[t];
        n->byte_offset = d->byte_offset + first * inner * (int64_t)(d->dtype == TSR_INT64 ||
                                                                           d->dtype == TSR_FLOAT64
                                                                       ? 8
                                                                       : 4);
    }
    tsr_kernel_args part = *args;
    part.inputs = ins;
    part.outputs = outs;
    /* Indices were checked on the caller's thread: this cannot fail. */
    (void)tsr__ref_kernel_pool(j->backend, &part);
}

static bool dense(const tsr_tensor_desc *d)
{
    int64_t expected = 1;
    for (int k = d->ndim - 1; k >= 0; k--) {
        if (d->shape[k] != 1 && d->strides[k] != expected)
            return false;
        expected *= d->shape[k];
    }
    return true;
}

static bool is_backward(int32_t op)
{
    return op == TSR_OP_POOL_MAX_BACKWARD || op == TSR_OP_POOL_AVG_BACKWARD ||
           op == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
}

/* Dense float32/float64 operands of a well-formed call (anything else: the
 * reference kernel, which reports what is wrong). */
static bool fits(const tsr_kernel_args *args, pool_job *j)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->inputs == NULL ||
        args->outputs == NULL || args->attrs == NULL)
        return false;
    const tsr_pool_attrs *a = args->attrs;
    int32_t op = args->op;
    int nin = op == TSR_OP_POOL_MAX_BACKWARD ? 2 : 1;
    int nout = op == TSR_OP_POOL_MAX || op == TSR_OP_POOL_ADAPTIVE_MAX ? 2 : 1;
    if (a->struct_size < sizeof(tsr_pool_attrs) || a->spatial < 1 || a->spatial > 3 ||
        args->num_inputs != nin || args->num_outputs != nout)
        return false;
    const tsr_tensor_desc *small = is_backward(op) ? &args->inputs[0] : &args->outputs[0];
    const tsr_tensor_desc *big = is_backward(op) ? &args->outputs[0] : &args->inputs[0];
    int nd = 2 + a->spatial;
    if (small->ndim != nd || big->ndim != nd || small->dtype != big->dtype ||
        (big->dtype != TSR_FLOAT32 && big->dtype != TSR_FLOAT64) ||
        small->shape[0] != big->shape[0] || small->shape[1] != big->shape[1])
        return false;
    for (int t = 0; t < nin + nout; t++) {
        const tsr_tensor_desc *d = t < nin ? &args->inputs[t] : &args->outputs[t - nin];
        if (!dense(d) || d->data == NULL || (t > 0 && t < nin && d->dtype != TSR_INT64) ||
            (t == nin + 1 && d->dtype != TSR_INT64))
            return false;
    }
    memset(j, 0, sizeof *j);
    j->args = args;
    j->op = op;
    j->dtype = big->dtype;
    j->planes = big->shape[0] * big->shape[1];
    j->divisor = a->divisor;
    j->include_pad = a->count_include_pad != 0;
    for (int k = 0; k < 3; k++) {
        int from = k - (3 - a->spatial);
        bool real = from >= 0;
        j->in[k] = real ? big->shape[2 + from] : 1;
        j->out[k] = real ? small->shape[2 + from] : 1;
        j->k[k] = real ? a->kernel[from] : 1;
        j->s[k] = real ? a->stride[from] : 1;
        j->p[k] = real ? a->padding[from] : 0;
        j->dil[k] = real && a->dilation[from] > 0 ? a->dilation[from] : 1;
        bool windowed = op == TSR_OP_POOL_MAX || op == TSR_OP_POOL_AVG ||
                        op == TSR_OP_POOL_AVG_BACKWARD;
        if (windowed && (j->k[k] <= 0 || j->s[k] <= 0))
            return false;
    }
    if (j->planes == 0 || plane_numel(j->in) == 0)
        return false;
    return true;
}

/* Every index of a max backward names an element of its plane. */
static bool indices_in_range(const tsr_kernel_args *args, int64_t plane)
{
    const tsr_tensor_desc *d = &args->inputs[1];
    const int64_t *v = (const int64_t *)((const char *)d->data + d->byte_offset);
    int64_t n = 1;
    for (int k = 0; k < d->ndim; k++)
        n *= d->shape[k];
    for (int64_t i = 0; i < n; i++)
        if (v[i] < 0 || v[i] >= plane)
            return false;
    return true;
}

int tsr__cpu_kernel_pool(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    pool_job j;
    if (!fits(args, &j) ||
        (j.op == TSR_OP_POOL_MAX_BACKWARD && !indices_in_range(args, plane_numel(j.in))))
        return tsr__ref_kernel_pool(backend, args);
    j.backend = backend;
    /* About 64K input elements per task. */
    int64_t per = plane_numel(j.in) + plane_numel(j.out);
    j.planes_per_task = per >= 65536 ? 1 : 65536 / per;
    int64_t tasks = tsr__cpu_task_count(j.planes, j.planes_per_task);
    if (is_backward(j.op)) {
        tsr__cpu_pool_run(backend->pool, tasks, backward_task, &j);
        return TSR_OK;
    }
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    j.x = (const char *)x->data + x->byte_offset;
    j.y = (char *)y->data + y->byte_offset;
    if (args->num_outputs == 2)
        j.indices = (int64_t *)((char *)args->outputs[1].data + args->outputs[1].byte_offset);
    tsr__cpu_pool_run(backend->pool, tasks, forward_task, &j);
    return TSR_OK;
}
