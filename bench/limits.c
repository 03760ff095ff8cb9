/* The raw limits the suite is measured against, in the same process and on
 * the same thread count: OpenBLAS's cblas_sgemm called directly (its own
 * threads set to the count), STREAM-style copy and add, and a plain
 * read-only sum. The loops are split evenly over a small set of threads
 * started once; each function is compiled for the best instruction set of
 * the CPU (target_clones), so the limit is what the hardware does, not what
 * a baseline build does. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "bench.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define BENCH_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define BENCH_CLONES
#endif

typedef enum job_kind { JOB_COPY, JOB_ADD, JOB_SUM } job_kind;

static struct {
    int threads;
    pthread_t *workers;
    pthread_barrier_t start, done;
    int stop;
    job_kind kind;
    float *a, *b, *c;
    int64_t n;
    double partial[256];
} pool;

BENCH_CLONES static void copy_range(float *restrict c, const float *restrict a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        c[i] = a[i];
    }
}

BENCH_CLONES static void add_range(float *restrict c, const float *restrict a,
                                   const float *restrict b, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        c[i] = a[i] + b[i];
    }
}

/* 64 float accumulators, which the compiler keeps in four vector registers:
 * four independent chains of additions, so the loop waits on memory, not on
 * the adder's latency. */
BENCH_CLONES static double sum_range(const float *restrict a, int64_t n)
{
    float acc[64] = {0};
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        for (int j = 0; j < 64; j++) {
            acc[j] += a[i + j];
        }
    }
    double total = 0.0;
    for (int j = 0; j < 64; j++) {
        total += acc[j];
    }
    for (; i < n; i++) {
        total += a[i];
    }
    return total;
}

static void run_share(int index)
{
    int64_t chunk = (pool.n + pool.threads - 1) / pool.threads;
    int64_t begin = (int64_t)index * chunk, end = begin + chunk < pool.n ? begin + chunk : pool.n;
    if (begin >= end) {
        pool.partial[index] = 0.0;
        return;
    }
    switch (pool.kind) {
    case JOB_COPY:
        copy_range(pool.c + begin, pool.a + begin, end - begin);
        break;
    case JOB_ADD:
        add_range(pool.c + begin, pool.a + begin, pool.b + begin, end - begin);
        break;
    default:
        pool.partial[index] = sum_range(pool.a + begin, end - begin);
        break;
    }
}

static void *worker(void *arg)
{
    int index = (int)(intptr_t)arg;
    for (;;) {
        pthread_barrier_wait(&pool.start);
        if (pool.stop) {
            return NULL;
        }
        run_share(index);
        pthread_barrier_wait(&pool.done);
    }
}

int bench_limits_start(int threads)
{
    pool.threads = threads < 1 ? 1 : threads > 256 ? 256 : threads;
    pthread_barrier_init(&pool.start, NULL, (unsigned)pool.threads);
    pthread_barrier_init(&pool.done, NULL, (unsigned)pool.threads);
    pool.workers = calloc((size_t)pool.threads, sizeof(pthread_t));
    for (int i = 1; i < pool.threads; i++) {
        if (pthread_create(&pool.workers[i], NULL, worker, (void *)(intptr_t)i) != 0) {
            return -1;
        }
    }
    return 0;
}

void bench_limits_stop(void)
{
    pool.stop = 1;
    if (pool.threads > 1) {
        pthread_barrier_wait(&pool.start);
    }
    for (int i = 1; i < pool.threads; i++) {
        pthread_join(pool.workers[i], NULL);
    }
    free(pool.workers);
    pthread_barrier_destroy(&pool.start);
    pthread_barrier_destroy(&pool.done);
}

static double timed_job(job_kind kind)
{
    pool.kind = kind;
    double t0 = bench_now();
    if (pool.threads > 1) {
        pthread_barrier_wait(&pool.start);
    }
    run_share(0);
    if (pool.threads > 1) {
        pthread_barrier_wait(&pool.done);
    }
    return bench_now() - t0;
}

static float *touched(int64_t n, float value)
{
    float *p = aligned_alloc(64, (size_t)((n * 4 + 63) / 64 * 64));
    if (p != NULL) {
        for (int64_t i = 0; i < n; i++) {
            p[i] = value + (float)(i % 7);
        }
    }
    return p;
}

struct bench_limit_run {
    bench_limit limit;
    job_kind kind;
    int threads;
    int64_t n;
    float *a, *b, *c;
};

bench_limit_run *bench_limit_prepare(const bench_config *config, const bench_entry *entry)
{
    if (entry->limit == BENCH_LIMIT_NONE) {
        return NULL;
    }
    bench_limit_run *run = calloc(1, sizeof *run);
    if (run == NULL) {
        return NULL;
    }
    run->limit = entry->limit;
    run->threads = config->threads;
    run->n = entry->size[0];
    run->kind = entry->limit == BENCH_LIMIT_STREAM_ADD ? JOB_ADD
                : entry->limit == BENCH_LIMIT_COPY     ? JOB_COPY
                                                       : JOB_SUM;
    int64_t elements = entry->limit == BENCH_LIMIT_SGEMM ? run->n * run->n : run->n;
    run->a = touched(elements, 0.001f);
    run->b = touched(elements, 0.002f);
    run->c = touched(elements, 0.0f);
    if (run->a == NULL || run->b == NULL || run->c == NULL) {
        bench_limit_finish(run);
        return NULL;
    }
    bench_limit_once(run); /* warm up */
    return run;
}

double bench_limit_once(bench_limit_run *run)
{
    if (run->limit != BENCH_LIMIT_SGEMM) {
        pool.n = run->n;
        pool.a = run->a;
        pool.b = run->b;
        pool.c = run->c;
        return timed_job(run->kind);
    }
    /* The cpu plugin keeps OpenBLAS single-threaded and resets it before
     * each product of its own; the direct call gets the full count. */
    openblas_set_num_threads(run->threads);
    int n = (int)run->n;
    double t0 = bench_now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, run->a, n, run->b, n,
                0.0f, run->c, n);
    return bench_now() - t0;
}

void bench_limit_finish(bench_limit_run *run)
{
    if (run == NULL) {
        return;
    }
    free(run->a);
    free(run->b);
    free(run->c);
    free(run);
}

const char *bench_limit_name(bench_limit limit)
{
    switch (limit) {
    case BENCH_LIMIT_SGEMM:
        return "cblas_sgemm";
    case BENCH_LIMIT_STREAM_ADD:
        return "STREAM add";
    case BENCH_LIMIT_COPY:
        return "STREAM copy";
    case BENCH_LIMIT_READ_SUM:
        return "read-only sum";
    default:
        return "-";
    }
}
