/* fft_c2c, fft_r2c and fft_c2r on the cpu backend: the contract of
 * include/tessera/plugin.h, computed in the dtype's precision by the plans
 * of fft_plan.c, one dim after another, lines spread over the pool in fixed
 * groups (a single long line splits its passes instead). The bound of
 * docs/accuracy.md holds (test_fft_bound, CTest cpu_fft_bound). A call the
 * cpu plans do not take (an output overlapping the input, a prime factor
 * past 250 that Bluestein's test refuses, no memory for a plan) goes to the
 * reference kernel, which computes it or reports the problem. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "fft_cpu.h"
#include "kernels.h" /* tsr__ref_kernel_fft */

enum { LINE_C2C, LINE_R2C, LINE_C2R };

typedef struct line_job {
    const tsr__cpu_fft_passes *passes;
    const tsr__cpu_fft_plan *plan;
    int mode, sign, wide;
    int32_t ndim, axis;
    int64_t n;                       /* logical points of the line */
    const int64_t *shape;            /* the iteration's extents (axis ignored) */
    const char *src;                 /* element 0 */
    const int64_t *src_strides;      /* in elements of src */
    char *dst;
    const int64_t *dst_strides;
    int64_t src_step, dst_step;      /* strides along the axis */
    size_t src_size, dst_size;       /* element bytes */
    double scale;
    int64_t lines, lines_per_task;
    tsr__cpu_pool *pool; /* for the passes of a lone line */
    int *failed;         /* set (atomically) by a task out of memory */
    tsr__cpu_cache *cache; /* line buffers come from the backend's cache: no page faults */
} line_job;

#define LINE_T float
#define LINE_FN(name) name##_f32
#include "fft_line.inc"
#undef LINE_T
#undef LINE_FN
#define LINE_T double
#define LINE_FN(name) name##_f64
#include "fft_line.inc"
#undef LINE_T
#undef LINE_FN

/* Byte offsets of line `index` (C order over the dims but the axis). */
static void line_offsets(const line_job *job, int64_t index, int64_t *src, int64_t *dst)
{
    int64_t s = 0, d = 0;
    for (int32_t dim = job->ndim - 1; dim >= 0; dim--) {
        if (dim == job->axis) {
            continue;
        }
        int64_t i = index % job->shape[dim];
        index /= job->shape[dim];
        s += i * job->src_strides[dim];
        d += i * job->dst_strides[dim];
    }
    *src = s * (int64_t)job->src_size;
    *dst = d * (int64_t)job->dst_size;
}

static void lines_task(void *context, int64_t task)
{
    const line_job *job = context;
    size_t size = job->wide ? sizeof(double) : sizeof(float);
    int64_t points = job->plan->n; /* a packed real line needs half its n */
    void *buffers =
        tsr__cpu_alloc(job->cache, (size_t)(2 * points + 2 * job->plan->scratch_points) * size);
    if (buffers == NULL) {
        __atomic_store_n(job->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    char *re = buffers, *im = re + (size_t)points * size, *scratch = im + (size_t)points * size;
    int64_t first = task * job->lines_per_task;
    int64_t last = first + job->lines_per_task < job->lines ? first + job->lines_per_task
                                                            : job->lines;
    tsr__cpu_pool *pool = job->lines == 1 ? job->pool : NULL;
    for (int64_t l = first; l < last; l++) {
        int64_t s, d;
        line_offsets(job, l, &s, &d);
        if (job->wide) {
            line_f64(job, job->src + s, job->dst + d, (double *)re, (double *)im, scratch, pool);
        } else {
            line_f32(job, job->src + s, job->dst + d, (float *)re, (float *)im, scratch, pool);
        }
    }
    tsr__cpu_free(job->cache, buffers);
}

static void run_lines(tsr__cpu_backend *backend, line_job *job)
{
    job->lines = 1;
    for (int32_t d = 0; d < job->ndim; d++) {
        job->lines *= d == job->axis ? 1 : job->shape[d];
    }
    if (job->lines == 0) {
        return;
    }
    /* Fixed groups of about 64 Ki points: the split is the same for any
     * thread count, and a line's bits never depend on its group. */
    job->lines_per_task = job->n >= 65536 ? 1 : 65536 / job->n;
    job->pool = backend->pool;
    int64_t tasks = tsr__cpu_task_count(job->lines, job->lines_per_task);
    if (tasks == 1) {
        lines_task(job, 0);
    } else {
        tsr__cpu_pool_run(backend->pool, tasks, lines_task, job);
    }
}

/* ---- plans, cached for the life of the plugin ---------------------------- */

typedef struct cached_plan {
    int64_t n;
    int wide, packed;
    const tsr__cpu_fft_passes *passes;
    tsr__cpu_fft_plan *plan;
    struct cached_plan *next;
} cached_plan;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cached_plan *cache_head;
static int64_t cache_points; /* twiddle points held, against CACHE_POINTS */
#define CACHE_POINTS (16 << 20)

/* The plan for lines of n points (packed: real lines through n/2). A plan
 * the cache cannot hold is returned with *owned set: the caller frees it. */
static tsr__cpu_fft_plan *get_plan(int64_t n, int wide, int packed,
                                   const tsr__cpu_fft_passes *passes, int *owned)
{
    int64_t points = packed ? n / 2 : n;
    *owned = 0;
    pthread_mutex_lock(&cache_lock);
    for (cached_plan *c = cache_head; c != NULL; c = c->next) {
        if (c->n == n && c->wide == wide && c->packed == packed && c->passes == passes) {
            pthread_mutex_unlock(&cache_lock);
            return c->plan;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    tsr__cpu_fft_plan *plan = tsr__cpu_fft_plan_create(points, wide, passes);
    if (plan != NULL && packed && tsr__cpu_fft_plan_add_packing(plan) != 0) {
        tsr__cpu_fft_plan_destroy(plan);
        plan = NULL;
    }
    if (plan == NULL) {
        return NULL;
    }
    cached_plan *entry = malloc(sizeof *entry);
    pthread_mutex_lock(&cache_lock);
    if (entry != NULL && cache_points + 4 * points <= CACHE_POINTS) {
        *entry = (cached_plan){n, wide, packed, passes, plan, cache_head};
        cache_head = entry;
        cache_points += 4 * points;
        entry = NULL;
    } else {
        *owned = 1;
    }
    pthread_mutex_unlock(&cache_lock);
    free(entry);
    return plan;
}

/* Frees the cache when the plugin is unloaded or the process exits. */
__attribute__((destructor)) static void free_plan_cache(void)
{
    while (cache_head != NULL) {
        cached_plan *next = cache_head->next;
        tsr__cpu_fft_plan_destroy(cache_head->plan);
        free(cache_head);
        cache_head = next;
    }
}

/* ---- the kernel ------------------------------------------------------------ */

static const tsr__cpu_fft_passes *passes_for(const tsr__cpu_backend *backend)
{
    /* The set the backend's elementwise loops run (TESSERA_CPU_ISA picks it). */
#if defined(__x86_64__) || defined(__i386__)
    if (backend->simd != NULL && backend->simd == tsr__cpu_simd_avx512()) {
        return tsr__cpu_fft_passes_avx512();
    }
    if (backend->simd != NULL && backend->simd == tsr__cpu_simd_avx2()) {
        return tsr__cpu_fft_passes_avx2();
    }
#else
    (void)backend;
#endif
    return tsr__cpu_fft_passes_generic();
}

/* The shapes the contract allows, else 0 (the reference then reports it). */
static int fits(const tsr_kernel_args *args)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL ||
        args->attrs == NULL) {
        return 0;
    }
    const tsr_fft_attrs *attrs = args->attrs;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    if (attrs->struct_size < sizeof(tsr_fft_attrs) || in->ndim < 1 || in->ndim > TSR_MAX_DIMS ||
        out->ndim != in->ndim || attrs->axes_mask == 0 || (attrs->axes_mask >> in->ndim) != 0 ||
        (attrs->direction != TSR_FFT_FORWARD && attrs->direction != TSR_FFT_INVERSE) ||
        attrs->norm < TSR_FFT_NORM_NONE || attrs->norm > TSR_FFT_NORM_BY_SQRT_N ||
        in->data == out->data) {
        return 0;
    }
    int last = 0;
    for (int d = 0; d < in->ndim; d++) {
        last = (attrs->axes_mask >> d) & 1u ? d : last;
    }
    for (int d = 0; d < in->ndim; d++) {
        int64_t a = in->shape[d], b = out->shape[d];
        int ok = args->op == TSR_OP_FFT_C2C || d != last  ? a == b
                 : args->op == TSR_OP_FFT_R2C            ? b == a / 2 + 1
                                                         : a == b / 2 + 1;
        if (!ok || a < 1 || b < 1 || in->strides[d] < 0 || out->strides[d] < 0) {
            return 0;
        }
    }
    return 1;
}

int tsr__cpu_kernel_fft(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    if (!fits(args)) {
        return tsr__ref_kernel_fft(backend_ptr, args);
    }
    const tsr_fft_attrs *attrs = args->attrs;
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    int op = args->op, ndim = in->ndim, last = 0;
    int wide = in->dtype == TSR_FLOAT64 || in->dtype == TSR_COMPLEX128;
    size_t part = wide ? sizeof(double) : sizeof(float);
    const tsr_tensor_desc *cplx = op == TSR_OP_FFT_R2C ? out : in;
    double points = 1.0;
    for (int d = 0; d < ndim; d++) {
        if ((attrs->axes_mask >> d) & 1u) {
            last = d;
        }
    }
    for (int d = 0; d < ndim; d++) {
        if ((attrs->axes_mask >> d) & 1u) {
            points *= (double)(op != TSR_OP_FFT_C2C && d == last
                                   ? (op == TSR_OP_FFT_R2C ? in : out)->shape[d]
                                   : in->shape[d]);
        }
    }
    double scale = attrs->norm == TSR_FFT_NORM_BY_N        ? 1.0 / points
                   : attrs->norm == TSR_FFT_NORM_BY_SQRT_N ? 1.0 / sqrt(points)
                                                           : 1.0;
    const tsr__cpu_fft_passes *passes = passes_for(backend);
    /* The order of the dims: r2c's halved dim first, c2r's last. */
    int order[TSR_MAX_DIMS], count = 0;
    if (op == TSR_OP_FFT_R2C) {
        order[count++] = last;
    }
    for (int d = 0; d < ndim; d++) {
        if (((attrs->axes_mask >> d) & 1u) && (op == TSR_OP_FFT_C2C || d != last)) {
            order[count++] = d;
        }
    }
    if (op == TSR_OP_FFT_C2R) {
        order[count++] = last;
    }
    /* c2r with other dims first needs a complex work array: the input stays. */
    int64_t work_strides[TSR_MAX_DIMS], numel = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        work_strides[d] = numel;
        numel *= cplx->shape[d];
    }
    char *work = NULL;
    if (op == TSR_OP_FFT_C2R && count > 1) {
        work = tsr__cpu_alloc(backend->cache, (size_t)numel * 2 * part);
        if (work == NULL) {
            return tsr__ref_kernel_fft(backend_ptr, args);
        }
    }
    char *in_base = (char *)in->data + in->byte_offset, *out_base = (char *)out->data + out->byte_offset;
    for (int i = 0; i < count; i++) {
        int axis = order[i];
        int real_line = op != TSR_OP_FFT_C2C && axis == last;
        int64_t n = real_line ? (op == TSR_OP_FFT_R2C ? in : out)->shape[axis] : in->shape[axis];
        int packed = real_line && n % 2 == 0 && n >= 2;
        int owned = 0;
        tsr__cpu_fft_plan *plan = get_plan(n, wide, packed, passes, &owned);
        if (plan == NULL) {
            tsr__cpu_free(backend->cache, work);
            return tsr__ref_kernel_fft(backend_ptr, args); /* it recomputes every dim */
        }
        line_job job = {.passes = passes,
                        .plan = plan,
                        .mode = !real_line               ? LINE_C2C
                                : op == TSR_OP_FFT_R2C ? LINE_R2C
                                                       : LINE_C2R,
                        .sign = attrs->direction,
                        .wide = wide,
                        .ndim = ndim,
                        .axis = axis,
                        .n = n,
                        .shape = cplx->shape};
        /* Where this dim reads from and writes to. */
        int first = i == 0, final = i == count - 1;
        job.src = first ? in_base : (work != NULL ? work : out_base);
        job.src_strides = first ? in->strides : (work != NULL ? work_strides : out->strides);
        job.dst = final ? out_base : (work != NULL ? work : out_base);
        job.dst_strides = final ? out->strides : (work != NULL ? work_strides : out->strides);
        job.src_size = first && op == TSR_OP_FFT_R2C ? part : 2 * part;
        job.dst_size = final && op == TSR_OP_FFT_C2R ? part : 2 * part;
        job.src_step = job.src_strides[axis];
        job.dst_step = job.dst_strides[axis];
        job.scale = final ? scale : 1.0;
        int failed = 0;
        job.failed = &failed;
        job.cache = backend->cache;
        run_lines(backend, &job);
        if (owned) {
            tsr__cpu_fft_plan_destroy(plan);
        }
        if (__atomic_load_n(&failed, __ATOMIC_RELAXED)) {
            tsr__cpu_free(backend->cache, work);
            return tsr__ref_kernel_fft(backend_ptr, args); /* it recomputes every dim */
        }
    }
    tsr__cpu_free(backend->cache, work);
    return TSR_OK;
}
