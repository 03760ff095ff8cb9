/* Plans for the cpu line transform, and its execution.
 *
 * Factors and algorithm follow the reference (plugins/reference/fft_plan.c):
 * passes of radix 4, 2, 3, then the other primes, or Bluestein's
 * convolution past a prime factor of 250 where the conjugate chirp's
 * transform stays within 2 sqrt(2n - 1). Unlike the reference, a plan
 * computes in the dtype's precision, with each pass's twiddles laid out
 * contiguously in the order the pass reads them. Twiddles and chirp points
 * are computed in double from their angles and rounded once. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fft_cpu.h"
#include "cpu_pool.h"

static const double TWO_PI = 6.283185307179586476925286766559;

static size_t point_size(int wide)
{
    return wide ? sizeof(double) : sizeof(float);
}

static void put(void *array, int wide, int64_t i, double v)
{
    if (wide) {
        ((double *)array)[i] = v;
    } else {
        ((float *)array)[i] = (float)v;
    }
}

static double get(const void *array, int wide, int64_t i)
{
    return wide ? ((const double *)array)[i] : (double)((const float *)array)[i];
}

/* Angle 2 pi e / n for 0 <= e < n. */
static void root(int64_t e, int64_t n, double *re, double *im)
{
    double angle = TWO_PI * (double)e / (double)n;
    *re = cos(angle);
    *im = -sin(angle);
}

static int factorize(int64_t n, int64_t *factors)
{
    int count = 0;
    while (n % 4 == 0) {
        factors[count++] = 4;
        n /= 4;
    }
    for (int64_t p = 2; p * p <= n; p += p == 2 ? 1 : 2) {
        while (n % p == 0) {
            factors[count++] = p;
            n /= p;
        }
    }
    if (n > 1) {
        factors[count++] = n;
    }
    return count;
}

static int setup_passes(tsr__cpu_fft_plan *plan)
{
    int64_t n = plan->n, L = 1;
    size_t size = point_size(plan->wide);
    for (int i = 0; i < plan->pass_count; i++) {
        int64_t p = plan->radix[i], M = n / (L * p);
        plan->groups[i] = L;
        plan->twiddles[i] = malloc((size_t)(2 * (p - 1) * L + 1) * size);
        plan->roots[i] = malloc((size_t)(2 * p) * size);
        if (plan->twiddles[i] == NULL || plan->roots[i] == NULL) {
            return -1;
        }
        for (int64_t t = 1; t < p; t++) {
            for (int64_t k = 0; k < L; k++) {
                double re, im;
                root(t * k * M, n, &re, &im);
                put(plan->twiddles[i], plan->wide, (t - 1) * L + k, re);
                put(plan->twiddles[i], plan->wide, (p - 1) * L + (t - 1) * L + k, im);
            }
        }
        for (int64_t e = 0; e < p; e++) {
            double re, im;
            root(e, p, &re, &im);
            put(plan->roots[i], plan->wide, e, re);
            put(plan->roots[i], plan->wide, p + e, im);
        }
        L *= p;
    }
    plan->scratch_points = n;
    return 0;
}

/* The transform of the wrapped conjugate chirp for sign; its largest
 * magnitude goes to *largest. */
static int make_kernel(tsr__cpu_fft_plan *plan, const tsr__cpu_fft_passes *k, int sign,
                       void *kernel, double *largest)
{
    int64_t n = plan->n, m = plan->m;
    size_t size = point_size(plan->wide);
    void *scratch = malloc((size_t)(2 * plan->inner->scratch_points) * size);
    if (scratch == NULL) {
        return -1;
    }
    memset(kernel, 0, (size_t)(2 * m) * size);
    for (int64_t j = 0; j < n; j++) {
        double re = get(plan->chirp, plan->wide, j);
        double im = -sign * -get(plan->chirp, plan->wide, n + j); /* conj of the sign's chirp */
        put(kernel, plan->wide, j, re);
        put(kernel, plan->wide, m + j, im);
        if (j > 0) {
            put(kernel, plan->wide, m - j, re);
            put(kernel, plan->wide, m + m - j, im);
        }
    }
    char *base = kernel;
    tsr__cpu_fft_execute(plan->inner, k, NULL, base, base + (size_t)m * size, -1, scratch);
    free(scratch);
    *largest = 0.0;
    for (int64_t i = 0; i < m; i++) {
        double magnitude = hypot(get(kernel, plan->wide, i), get(kernel, plan->wide, m + i));
        *largest = magnitude > *largest ? magnitude : *largest;
    }
    return 0;
}

/* 0: Bluestein fits; 1: it does not (the chirp's transform is too large);
 * -1: out of memory. */
static int setup_bluestein(tsr__cpu_fft_plan *plan, const tsr__cpu_fft_passes *k)
{
    int64_t n = plan->n, m = 1;
    while (m < 2 * n - 1) {
        m *= 2;
    }
    size_t size = point_size(plan->wide);
    plan->m = m;
    plan->inner = tsr__cpu_fft_plan_create(m, plan->wide, k);
    plan->chirp = malloc((size_t)(2 * n) * size);
    plan->kernel = malloc((size_t)(2 * m) * size);
    plan->kernel_inverse = malloc((size_t)(2 * m) * size);
    if (!plan->inner || !plan->chirp || !plan->kernel || !plan->kernel_inverse) {
        return -1;
    }
    for (int64_t j = 0; j < n; j++) {
        double angle = TWO_PI * 0.5 * (double)((j * j) % (2 * n)) / (double)n;
        put(plan->chirp, plan->wide, j, cos(angle));
        put(plan->chirp, plan->wide, n + j, -sin(angle));
    }
    double largest = 0.0, unused = 0.0;
    if (make_kernel(plan, k, -1, plan->kernel, &largest) != 0 ||
        make_kernel(plan, k, 1, plan->kernel_inverse, &unused) != 0) {
        return -1;
    }
    if (largest > 2.0 * sqrt((double)(2 * n - 1))) {
        return 1;
    }
    plan->scratch_points = 2 * m + plan->inner->scratch_points;
    return 0;
}

tsr__cpu_fft_plan *tsr__cpu_fft_plan_create(int64_t n, int wide, const tsr__cpu_fft_passes *k)
{
    tsr__cpu_fft_plan *plan = n >= 1 ? calloc(1, sizeof *plan) : NULL;
    if (plan == NULL) {
        return NULL;
    }
    plan->n = n;
    plan->wide = wide;
    int64_t factors[TSR__CPU_FFT_MAX_PASSES];
    int count = factorize(n, factors), large = 0;
    for (int i = 0; i < count; i++) {
        large |= factors[i] > TSR__CPU_FFT_MAX_RADIX;
    }
    int status;
    if (large) {
        status = setup_bluestein(plan, k); /* 1: the reference's passes take it */
    } else {
        plan->pass_count = count;
        memcpy(plan->radix, factors, sizeof(int64_t) * (size_t)count);
        status = setup_passes(plan);
    }
    if (status != 0) {
        tsr__cpu_fft_plan_destroy(plan);
        return NULL;
    }
    return plan;
}

void tsr__cpu_fft_plan_destroy(tsr__cpu_fft_plan *plan)
{
    if (plan == NULL) {
        return;
    }
    for (int i = 0; i < plan->pass_count; i++) {
        free(plan->twiddles[i]);
        free(plan->roots[i]);
    }
    tsr__cpu_fft_plan_destroy(plan->inner);
    free(plan->chirp);
    free(plan->kernel);
    free(plan->kernel_inverse);
    free(plan->packing);
    free(plan);
}

int tsr__cpu_fft_plan_add_packing(tsr__cpu_fft_plan *plan)
{
    int64_t h = plan->n;
    plan->packing = malloc((size_t)(2 * h) * point_size(plan->wide));
    if (plan->packing == NULL) {
        return -1;
    }
    for (int64_t k = 0; k < h; k++) {
        double re, im;
        root(k, 2 * h, &re, &im);
        put(plan->packing, plan->wide, k, re);
        put(plan->packing, plan->wide, h + k, im);
    }
    return 0;
}

/* ---- execution ------------------------------------------------------- */

/* A pass split over the pool: tasks of a fixed number of groups (or, in the
 * last passes where groups are few, of frequencies). */
typedef struct pass_job {
    const tsr__cpu_fft_passes *k;
    tsr__cpu_fft_pass_args args;
    int wide;
    int split_q;
    int64_t block;
} pass_job;

static void run_pass_task(void *context, int64_t task)
{
    const pass_job *job = context;
    tsr__cpu_fft_pass_args a = job->args;
    if (job->split_q) {
        a.q0 = task * job->block;
        a.q1 = a.q0 + job->block < a.M ? a.q0 + job->block : a.M;
    } else {
        a.k0 = task * job->block;
        a.k1 = a.k0 + job->block < a.L ? a.k0 + job->block : a.L;
    }
    (job->wide ? job->k->pass_f64 : job->k->pass_f32)(&a);
}

/* Lines of at least this many points split their passes over the pool. */
#define PARALLEL_POINTS 32768
#define BLOCK_POINTS 8192

static void execute_passes(const tsr__cpu_fft_plan *plan, const tsr__cpu_fft_passes *k,
                           tsr__cpu_pool *pool, char *re, char *im, int sign, char *scratch)
{
    size_t size = point_size(plan->wide), bytes = (size_t)plan->n * size;
    char *xr = re, *xi = im, *yr = scratch, *yi = scratch + bytes;
    for (int i = 0; i < plan->pass_count; i++) {
        int64_t p = plan->radix[i], L = plan->groups[i], M = plan->n / (L * p);
        char *tw = plan->twiddles[i], *roots = plan->roots[i];
        pass_job job = {k,
                        {xr, xi, yr, yi, p, L, M, tw, tw + (size_t)((p - 1) * L) * size, roots,
                         roots + (size_t)p * size, sign, 0, M, 0, L},
                        plan->wide, M >= L, 0};
        if (pool != NULL && plan->n >= PARALLEL_POINTS) {
            int64_t span = job.split_q ? M : L, points = job.split_q ? L * p : M * p;
            job.block = BLOCK_POINTS / points > 0 ? BLOCK_POINTS / points : 1;
            tsr__cpu_pool_run(pool, tsr__cpu_task_count(span, job.block), run_pass_task, &job);
        } else {
            (plan->wide ? k->pass_f64 : k->pass_f32)(&job.args);
        }
        char *swap_r = xr, *swap_i = xi;
        xr = yr;
        xi = yi;
        yr = swap_r;
        yi = swap_i;
    }
    if (xr != re) {
        memcpy(re, xr, bytes);
        memcpy(im, xi, bytes);
    }
}

#define BLUESTEIN_MUL(T)                                                                          \
    do {                                                                                          \
        T *ar_ = (T *)ar, *ai_ = (T *)ai;                                                          \
        const T *kr_ = (const T *)kernel, *ki_ = (const T *)kernel + m;                           \
        for (int64_t j = 0; j < m; j++) {                                                         \
            T r_ = ar_[j] * kr_[j] - ai_[j] * ki_[j];                                             \
            T i_ = ar_[j] * ki_[j] + ai_[j] * kr_[j];                                             \
            ar_[j] = r_;                                                                          \
            ai_[j] = i_;                                                                          \
        }                                                                                         \
    } while (0)

/* Point j of the line times the sign's chirp point j (times scale). */
#define BLUESTEIN_CHIRP(T, dst_r, dst_i, src_r, src_i, count, scale)                              \
    do {                                                                                          \
        const T *cr_ = (const T *)plan->chirp, *ci_ = (const T *)plan->chirp + n;                 \
        const T sc_ = (T)(scale), sg_ = (T)(-sign);                                               \
        for (int64_t j = 0; j < (count); j++) {                                                   \
            T wr_ = cr_[j], wi_ = sg_ * ci_[j];                                                   \
            T vr_ = ((const T *)(src_r))[j], vi_ = ((const T *)(src_i))[j];                       \
            ((T *)(dst_r))[j] = (vr_ * wr_ - vi_ * wi_) * sc_;                                    \
            ((T *)(dst_i))[j] = (vr_ * wi_ + vi_ * wr_) * sc_;                                    \
        }                                                                                         \
    } while (0)

static void execute_bluestein(const tsr__cpu_fft_plan *plan, const tsr__cpu_fft_passes *k,
                              tsr__cpu_pool *pool, char *re, char *im, int sign, char *scratch)
{
    int64_t n = plan->n, m = plan->m;
    size_t size = point_size(plan->wide);
    char *ar = scratch, *ai = scratch + (size_t)m * size, *inner = scratch + (size_t)(2 * m) * size;
    const void *kernel = sign < 0 ? plan->kernel : plan->kernel_inverse;
    memset(ar, 0, (size_t)(2 * m) * size);
    /* The stored chirp is the forward one; sg_ = -sign conjugates it for
     * the inverse direction. */
    if (plan->wide) {
        BLUESTEIN_CHIRP(double, ar, ai, re, im, n, 1.0);
    } else {
        BLUESTEIN_CHIRP(float, ar, ai, re, im, n, 1.0);
    }
    tsr__cpu_fft_execute(plan->inner, k, pool, ar, ai, -1, inner);
    if (plan->wide) {
        BLUESTEIN_MUL(double);
    } else {
        BLUESTEIN_MUL(float);
    }
    tsr__cpu_fft_execute(plan->inner, k, pool, ar, ai, 1, inner);
    double inv_m = 1.0 / (double)m; /* a power of two: exact */
    if (plan->wide) {
        BLUESTEIN_CHIRP(double, re, im, ar, ai, n, inv_m);
    } else {
        BLUESTEIN_CHIRP(float, re, im, ar, ai, n, inv_m);
    }
}

void tsr__cpu_fft_execute(const tsr__cpu_fft_plan *plan, const tsr__cpu_fft_passes *k,
                          tsr__cpu_pool *pool, void *re, void *im, int sign, void *scratch)
{
    if (plan->inner != NULL) {
        execute_bluestein(plan, k, pool, re, im, sign, scratch);
    } else {
        execute_passes(plan, k, pool, re, im, sign, scratch);
    }
}
