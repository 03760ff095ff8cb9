/* The per-thread record cache (core/tensor/record_cache.c) seen from several
 * threads: tensors made on one thread and released on another, so that a
 * thread's list holds records another thread allocated; threads that exit
 * with full lists; a release from a thread-exit destructor; many threads
 * sharing one tensor. Each round makes more tensors per thread than a list
 * holds, so lists fill, overflow and are reused in the release build (under
 * AddressSanitizer the cache is off and the same checks run on plain
 * malloc); with the lists made one global instead of per thread, this test
 * crashed in 16 of 20 runs on a loaded two-core machine. Worker threads do
 * not use the CHECK macros (their counters are not atomic): they count
 * problems in a report that the main thread checks. */
#define _POSIX_C_SOURCE 200809L

#include "check.h"
#include "check_threads.h"

#include <pthread.h>
#include <stdarg.h>

/* More than a list holds (32), so that every round also frees past it. */
enum { THREADS = 4, PER_THREAD = 80, ROUNDS = 20 };

/* Runs fn on THREADS new threads at once, each with its own argument. */
static void run_threads(void *(*fn)(void *), void *args, size_t arg_size)
{
    pthread_t th[THREADS];
    bool started[THREADS];
    set_gate(false);
    for (int k = 0; k < THREADS; k++) {
        started[k] = pthread_create(&th[k], NULL, fn, (char *)args + (size_t)k * arg_size) == 0;
        CHECK_TRUE(started[k]);
    }
    set_gate(true);
    for (int k = 0; k < THREADS; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
    }
}

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

static void check_report(const char *who, const report *r)
{
    CHECK_INT(r->problems, 0);
    if (r->problems)
        fprintf(stderr, "  %s: first problem: %s\n", who, r->first);
}

/* The values of tensor i made by producer k: distinct across the run, so
 * that a record handed to the wrong tensor shows in its values. */
static double value_of(int k, int i, int j)
{
    return k * 100000.0 + i * 10.0 + j;
}

static int64_t length_of(int i)
{
    return 1 + i % 5;
}

/* A fresh tensor of n float64 values starting at `first`, and checks that
 * it describes itself as a new, plain, contiguous tensor: a recycled record
 * must not carry anything of its previous owner. */
static tsr_tensor *fresh(report *r, int64_t n, double first)
{
    double v[8];
    for (int64_t j = 0; j < n; j++)
        v[j] = first + (double)j;
    tsr_tensor *t = NULL;
    if (tsr_from_host(v, (size_t)n * sizeof *v, 1, &n, TSR_FLOAT64, NULL, &t) != TSR_OK) {
        note(r, "from_host: %s", tsr_last_error());
        return NULL;
    }
    tsr_tensor *g = NULL;
    tsr_status st = tsr_tensor_grad(t, &g);
    if (tsr_tensor_ndim(t) != 1 || tsr_tensor_shape(t)[0] != n || tsr_tensor_strides(t)[0] != 1 ||
        tsr_tensor_dtype(t) != TSR_FLOAT64 || tsr_tensor_version(t) != 0 ||
        !tsr_tensor_is_contiguous(t) || tsr_tensor_requires_grad(t) || !tsr_tensor_is_leaf(t) ||
        tsr_tensor_grad_fn_name(t) != NULL || tsr_tensor_retains_grad(t) || st != TSR_OK || g)
        note(r, "a fresh tensor of %lld values is not plain", (long long)n);
    tsr_tensor_release(g);
    return t;
}

/* t must hold n values: first, first + 1, ... each times `scale`. */
static void expect(report *r, const tsr_tensor *t, int64_t n, double first, double scale)
{
    double got[8];
    if (!t || tsr_tensor_numel(t) != n || tsr_to_host(t, got, (size_t)n * sizeof *got) != TSR_OK) {
        note(r, "unreadable tensor of %lld values", (long long)n);
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        if (got[j] != (first + (double)j) * scale)
            note(r, "value %lld is %.17g, expected %.17g", (long long)j, got[j],
                 (first + (double)j) * scale);
    }
}

/* ---- made on one thread, released on another ---------------------------- */

/* What producer k hands over for its tensor i: a = x + x for even i, or for
 * odd i only a one-element view of it (the producer releases `a` itself,
 * so the view is all that keeps the storage alive). */
static tsr_tensor *handoff[THREADS][PER_THREAD];

typedef struct job {
    int k;
    report r;
} job;

static void *produce(void *arg)
{
    job *jb = arg;
    wait_at_gate();
    for (int i = 0; i < PER_THREAD; i++) {
        int64_t n = length_of(i);
        tsr_tensor *x = fresh(&jb->r, n, value_of(jb->k, i, 0)), *a = NULL, *view = NULL;
        if (x && tsr_add(x, x, &a) != TSR_OK)
            note(&jb->r, "add: %s", tsr_last_error());
        tsr_tensor_release(x);
        if (a && i % 2 && tsr_narrow(a, 0, n - 1, 1, &view) != TSR_OK)
            note(&jb->r, "narrow: %s", tsr_last_error());
        handoff[jb->k][i] = i % 2 ? view : a;
        if (i % 2)
            tsr_tensor_release(a);
    }
    return NULL;
}

/* Releases producer k's tensors after checking them, then makes and checks
 * tensors of its own, which come from the records just released (the
 * producer's) while the cache is on. */
static void *consume(void *arg)
{
    job *jb = arg;
    wait_at_gate();
    for (int i = 0; i < PER_THREAD; i++) {
        int64_t n = length_of(i);
        tsr_tensor *t = handoff[jb->k][i];
        if (i % 2)
            expect(&jb->r, t, 1, value_of(jb->k, i, (int)n - 1), 2.0);
        else
            expect(&jb->r, t, n, value_of(jb->k, i, 0), 2.0);
        tsr_tensor_release(t);
        handoff[jb->k][i] = NULL;
    }
    tsr_tensor *mine[PER_THREAD];
    for (int i = 0; i < PER_THREAD; i++)
        mine[i] = fresh(&jb->r, length_of(i), -value_of(jb->k, i, 0));
    for (int i = 0; i < PER_THREAD; i++) {
        expect(&jb->r, mine[i], length_of(i), -value_of(jb->k, i, 0), 1.0);
        if (i && mine[i] && mine[i - 1] && tsr_tensor_shares_storage(mine[i], mine[i - 1]))
            note(&jb->r, "fresh tensors %d and %d share storage", i - 1, i);
    }
    for (int i = 0; i < PER_THREAD; i++)
        tsr_tensor_release(mine[i]);
    return NULL; /* exits with its lists full */
}

static void tensors_made_on_one_thread_are_released_on_another(void)
{
    /* each round on new threads: consumer k takes producer k + 1's tensors,
     * and the threads of the round before exited holding cached records */
    for (int round = 0; round < ROUNDS; round++) {
        job makers[THREADS], takers[THREADS];
        for (int k = 0; k < THREADS; k++) {
            makers[k] = (job){.k = k};
            takers[k] = (job){.k = (k + 1 + round) % THREADS};
        }
        run_threads(produce, makers, sizeof *makers);
        run_threads(consume, takers, sizeof *takers);
        for (int k = 0; k < THREADS; k++) {
            check_report("producer", &makers[k].r);
            check_report("consumer", &takers[k].r);
        }
    }
    /* and the main thread, whose lists the workers never touched */
    report r = {0};
    tsr_tensor *t = fresh(&r, 3, 7.0);
    expect(&r, t, 3, 7.0, 1.0);
    tsr_tensor_release(t);
    check_report("main", &r);
}

/* ---- a recycled record starts clean -------------------------------------- */

static void *use_autograd_then_reuse(void *arg)
{
    report *r = arg;
    /* records that had requires_grad, a grad, a grad_fn, retain_grad and a
     * bumped version, all released onto this thread's lists */
    for (int i = 0; i < PER_THREAD / 4; i++) {
        tsr_tensor *x = fresh(r, 3, 1.0), *y = NULL, *g = NULL;
        if (!x || tsr_tensor_set_requires_grad(x, true) != TSR_OK ||
            tsr_mul(x, x, &y) != TSR_OK || tsr_retain_grad(y) != TSR_OK ||
            tsr_add_(y, tsr_operand_scalar(tsr_scalar_float(1)), tsr_scalar_int(1)) != TSR_OK ||
            tsr_ones(1, (int64_t[]){3}, TSR_FLOAT64, NULL, &g) != TSR_OK ||
            tsr_backward(y, g, 0) != TSR_OK)
            note(r, "autograd setup: %s", tsr_last_error());
        tsr_tensor_release(g);
        tsr_tensor_release(y);
        tsr_tensor_release(x);
    }
    tsr_tensor *t[PER_THREAD];
    for (int i = 0; i < PER_THREAD; i++)
        t[i] = fresh(r, length_of(i), (double)i);
    for (int i = 0; i < PER_THREAD; i++) {
        expect(r, t[i], length_of(i), (double)i, 1.0);
        tsr_tensor_release(t[i]);
    }
    return NULL;
}

static void recycled_records_carry_nothing_over(void)
{
    report r = {0};
    pthread_t th;
    bool started = pthread_create(&th, NULL, use_autograd_then_reuse, &r) == 0;
    CHECK_TRUE(started);
    if (started)
        pthread_join(th, NULL);
    check_report("worker", &r);
}

/* ---- a release while the thread exits ------------------------------------ */

static pthread_key_t late_key;

/* Runs at thread exit, possibly after the cache drained this thread's
 * lists: releases the view it was given and makes and drops one more. */
static void release_late(void *value)
{
    tsr_tensor_release(value);
    tsr_tensor *t = NULL;
    int64_t n = 2;
    if (tsr_from_host((double[]){1, 2}, sizeof(double[2]), 1, &n, TSR_FLOAT64, NULL, &t) == TSR_OK)
        tsr_tensor_release(t);
}

typedef struct late_job {
    const tsr_tensor *shared;
    report r;
} late_job;

static void *hold_a_view_until_exit(void *arg)
{
    late_job *jb = arg;
    report *r = &jb->r;
    for (int i = 0; i < PER_THREAD; i++) /* fill the lists first */
        tsr_tensor_release(fresh(r, length_of(i), (double)i));
    tsr_tensor *view = NULL;
    if (tsr_narrow(jb->shared, 0, 1, 2, &view) != TSR_OK)
        note(r, "narrow: %s", tsr_last_error());
    else if (pthread_setspecific(late_key, view) != 0)
        note(r, "pthread_setspecific failed");
    return NULL;
}

static void a_release_during_thread_exit(void)
{
    int made = pthread_key_create(&late_key, release_late);
    CHECK_INT(made, 0);
    if (made != 0)
        return;
    int64_t n = 4;
    tsr_tensor *shared = make_tensor(TSR_FLOAT64, 1, &n, (double[]){5, 6, 7, 8}, sizeof(double[4]));
    for (int round = 0; round < ROUNDS; round++) {
        late_job jb = {.shared = shared};
        pthread_t th;
        bool started = pthread_create(&th, NULL, hold_a_view_until_exit, &jb) == 0;
        CHECK_TRUE(started);
        if (started)
            pthread_join(th, NULL);
        check_report("worker", &jb.r);
    }
    /* the views are gone and the storage they shared is intact */
    report r = {0};
    expect(&r, shared, 4, 5.0, 1.0);
    check_report("main", &r);
    tsr_tensor_release(shared);
    pthread_key_delete(late_key);
}

/* ---- many threads on one tensor ------------------------------------------ */

static const tsr_tensor *common_tensor;

static void *retain_and_view(void *arg)
{
    report *r = arg;
    wait_at_gate();
    /* batches of views, more than a list holds, in a tight loop: the lists
     * see many allocations and releases while the other threads' do too */
    for (int batch = 0; batch < 2000; batch++) {
        tsr_tensor *views[40] = {0};
        tsr_tensor_retain(common_tensor);
        for (int i = 0; i < 40; i++) {
            if (tsr_narrow(common_tensor, 0, i % 3, 1, &views[i]) != TSR_OK)
                note(r, "narrow: %s", tsr_last_error());
        }
        expect(r, views[batch % 40], 1, 10.0 + (batch % 40) % 3, 1.0);
        for (int i = 0; i < 40; i++)
            tsr_tensor_release(views[i]);
        tsr_tensor_release(common_tensor);
    }
    return NULL;
}

static void threads_share_one_tensor(void)
{
    int64_t n = 3;
    tsr_tensor *t = make_tensor(TSR_FLOAT64, 1, &n, (double[]){10, 11, 12}, sizeof(double[3]));
    common_tensor = t;
    report reports[THREADS] = {{0}};
    run_threads(retain_and_view, reports, sizeof *reports);
    for (int k = 0; k < THREADS; k++)
        check_report("worker", &reports[k]);
    /* every retain was matched: the tensor is still the caller's, intact */
    report r = {0};
    expect(&r, t, 3, 10.0, 1.0);
    check_report("main", &r);
    tsr_tensor_release(t);
}

int main(void)
{
    RUN_TEST(tensors_made_on_one_thread_are_released_on_another);
    RUN_TEST(recycled_records_carry_nothing_over);
    RUN_TEST(a_release_during_thread_exit);
    RUN_TEST(threads_share_one_tensor);
    return check_summary("record_cache_threads");
}
