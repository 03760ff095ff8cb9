/* Autograd with a leaf shared between threads, as models share their
 * parameters: threads that only compute with the leaf (each use picks up or
 * makes the leaf's AccumulateGrad node, kept weakly on the leaf and cleared
 * when the node dies), and threads that run backward into it at the same
 * time (each accumulation is a read-modify-write of .grad). Before the
 * accumulator was installed and picked up under a lock, the first test
 * crashed the release build on every run (a use-after-free of a dying
 * node); before accumulation was locked, the second lost updates. Worker
 * threads do not use the CHECK macros (their counters are not atomic): they
 * count problems in a report that the main thread checks. */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "check_threads.h"

#include <pthread.h>
#include <stdarg.h>

/* Rounds with a fresh leaf each: on a loaded two-core machine one round's
 * threads sometimes barely overlap. */
enum { THREADS = 4, N = 4, USES = 40000, BACKWARDS = 10000, ROUNDS = 4 };

typedef struct report {
    int problems;
    char first[200];
} report;

static void note(report *r, const char *fmt, ...)
{
    if (r->problems++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first, sizeof r->first, fmt, ap);
        va_end(ap);
    }
}

typedef struct worker {
    tsr_tensor *w;  /* shared leaf that requires grad */
    double x[N];    /* this thread's input */
    report report;
} worker;

/* Runs fn on THREADS new threads at once, then checks their reports. */
static void run_threads(void *(*fn)(void *), worker *workers)
{
    pthread_t th[THREADS];
    bool started[THREADS];
    set_gate(false);
    for (int k = 0; k < THREADS; k++) {
        started[k] = pthread_create(&th[k], NULL, fn, &workers[k]) == 0;
        CHECK_TRUE(started[k]);
    }
    set_gate(true);
    for (int k = 0; k < THREADS; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        CHECK_INT(workers[k].report.problems, 0);
        if (workers[k].report.problems)
            fprintf(stderr, "  thread %d: %d problems, first: %s\n", k,
                    workers[k].report.problems, workers[k].report.first);
    }
}

static tsr_tensor *vec_on_thread(const double *v, report *r)
{
    tsr_tensor *t = NULL;
    if (tsr_from_host(v, N * sizeof *v, 1, (int64_t[]){N}, TSR_FLOAT64, NULL, &t) != TSR_OK)
        note(r, "from_host: %s", tsr_last_error());
    return t;
}

/* y = w * x: checks y's values and that it requires grad. */
static tsr_tensor *product(worker *wk, const tsr_tensor *x, const double *w_values)
{
    tsr_tensor *y = NULL;
    if (tsr_mul(wk->w, x, &y) != TSR_OK) {
        note(&wk->report, "mul: %s", tsr_last_error());
        return NULL;
    }
    double got[N];
    if (tsr_to_host(y, got, sizeof got) != TSR_OK)
        note(&wk->report, "to_host: %s", tsr_last_error());
    for (int i = 0; i < N; i++) {
        if (got[i] != w_values[i] * wk->x[i])
            note(&wk->report, "y[%d] is %g, expected %g", i, got[i], w_values[i] * wk->x[i]);
    }
    if (!tsr_tensor_requires_grad(y))
        note(&wk->report, "y does not require grad");
    return y;
}

static const double w_values[N] = {1, 2, 3, 4};

static void *use_shared_leaf(void *arg)
{
    worker *wk = arg;
    tsr_tensor *x = vec_on_thread(wk->x, &wk->report);
    wait_at_gate();
    for (int it = 0; x && it < USES; it++)
        tsr_tensor_release(product(wk, x, w_values));
    tsr_tensor_release(x);
    return NULL;
}

static void *backward_into_shared_leaf(void *arg)
{
    worker *wk = arg;
    static const double ones[N] = {1, 1, 1, 1};
    tsr_tensor *x = vec_on_thread(wk->x, &wk->report);
    tsr_tensor *seed = vec_on_thread(ones, &wk->report);
    wait_at_gate();
    for (int it = 0; x && seed && it < BACKWARDS; it++) {
        tsr_tensor *y = product(wk, x, w_values);
        if (y && tsr_backward(y, seed, 0) != TSR_OK)
            note(&wk->report, "backward: %s", tsr_last_error());
        tsr_tensor_release(y);
    }
    tsr_tensor_release(seed);
    tsr_tensor_release(x);
    return NULL;
}

static tsr_tensor *shared_leaf(void)
{
    tsr_tensor *w = NULL;
    CHECK_OK(tsr_from_host(w_values, sizeof w_values, 1, (int64_t[]){N}, TSR_FLOAT64, NULL, &w));
    if (w)
        CHECK_OK(tsr_tensor_set_requires_grad(w, true));
    return w;
}

static void setup(worker *workers, tsr_tensor *w)
{
    for (int k = 0; k < THREADS; k++) {
        workers[k] = (worker){.w = w};
        for (int i = 0; i < N; i++)
            workers[k].x[i] = (double)(k + 1 + i * THREADS); /* small integers: exact sums */
    }
}

/* Only forward: every use takes the leaf's accumulator or makes one, and
 * releasing y drops it, so nodes die while other threads pick them up. */
static void compute_with_a_shared_leaf(void)
{
    tsr_tensor *w = shared_leaf();
    if (!w)
        return;
    worker workers[THREADS];
    setup(workers, w);
    run_threads(use_shared_leaf, workers);
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(w, &g));
    CHECK_TRUE(g == NULL); /* nothing ran backward */
    tsr_tensor_release(g);
    tsr_tensor_release(w);
}

/* Backward from every thread: .grad must be the exact sum of all of them. */
static void run_backward_into_a_shared_leaf(void)
{
    tsr_tensor *w = shared_leaf();
    if (!w)
        return;
    worker workers[THREADS];
    setup(workers, w);
    run_threads(backward_into_shared_leaf, workers);
    double expected[N] = {0};
    for (int k = 0; k < THREADS; k++) {
        for (int i = 0; i < N; i++)
            expected[i] += BACKWARDS * workers[k].x[i];
    }
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(w, &g));
    CHECK_TRUE(g != NULL);
    double got[N] = {0};
    if (g)
        CHECK_OK(tsr_to_host(g, got, sizeof got));
    for (int i = 0; i < N; i++)
        CHECK_DOUBLE(got[i], expected[i], 0);
    tsr_tensor_release(g);
    tsr_tensor_release(w);
}

static void threads_compute_with_a_shared_leaf(void)
{
    for (int r = 0; r < ROUNDS; r++)
        compute_with_a_shared_leaf();
}

static void threads_run_backward_into_a_shared_leaf(void)
{
    for (int r = 0; r < ROUNDS; r++)
        run_backward_into_a_shared_leaf();
}

int main(void)
{
    RUN_TEST(threads_compute_with_a_shared_leaf);
    RUN_TEST(threads_run_backward_into_a_shared_leaf);
    return check_summary("autograd_threads");
}
