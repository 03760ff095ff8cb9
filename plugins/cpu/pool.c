/* The thread pool (see cpu_pool.h).
 *
 * One atomic word says which loop is published and who works on it:
 * bits 0-15 count the workers inside the loop, bit 16 says the loop is
 * open, the bits above number the loops. A worker joins only an open loop
 * of the number it woke for (one compare-and-swap), and touches the loop's
 * fields only after joining. The caller runs tasks too, closes the loop
 * when none is left, and waits only for the workers that joined: a worker
 * the OS has not scheduled yet costs nothing, which matters on a loaded
 * machine. Waking a sleeping worker costs a futex call; loops are only used
 * for work far larger than that. */
#define _GNU_SOURCE
#include "cpu_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

/* About 10 microseconds of polling before a worker sleeps, and before the
 * caller, waiting for workers inside a loop, starts yielding its core: on a
 * machine with more runnable threads than cores, a spinning thread would
 * take the time slice the thread it waits for needs. */
enum { SPIN_ROUNDS = 4000, CALLER_SPIN_ROUNDS = 1000 };

#define ACTIVE_MASK UINT64_C(0xffff)
#define OPEN_BIT (UINT64_C(1) << 16)
#define LOOP_SHIFT 17

struct tsr__cpu_pool {
    int threads;
    int started; /* workers running */
    pthread_t *workers;
    pthread_mutex_t submit; /* one loop at a time */
    pthread_mutex_t lock;   /* for sleeping and waking */
    pthread_cond_t wake;
    atomic_uint_fast64_t state;
    atomic_int sleepers;
    atomic_int stop;
    uint64_t loops; /* loops published so far (the caller's copy) */
    /* The current loop, written before it opens. */
    tsr__cpu_task_fn fn;
    void *context;
    int64_t tasks;
    atomic_int_fast64_t next;
};

/* Set while a thread runs pool tasks: a nested loop runs inline. */
static _Thread_local int in_pool_task;

static void run_tasks(tsr__cpu_pool *pool)
{
    in_pool_task = 1;
    for (;;) {
        int64_t task = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed);
        if (task >= pool->tasks) {
            break;
        }
        pool->fn(pool->context, task);
    }
    in_pool_task = 0;
}

static uint64_t loop_of(uint64_t state)
{
    return state >> LOOP_SHIFT;
}

/* Waits until a loop other than `seen` is published (or stop); returns its
 * number. */
static uint64_t wait_for_loop(tsr__cpu_pool *pool, uint64_t seen)
{
    for (int i = 0; i < SPIN_ROUNDS; i++) {
        uint64_t now = loop_of(atomic_load_explicit(&pool->state, memory_order_acquire));
        if (now != seen || atomic_load_explicit(&pool->stop, memory_order_relaxed)) {
            return now;
        }
        CPU_RELAX();
    }
    pthread_mutex_lock(&pool->lock);
    atomic_fetch_add(&pool->sleepers, 1);
    uint64_t now;
    /* seq_cst against the caller's publishing and sleepers check. */
    while ((now = loop_of(atomic_load(&pool->state))) == seen && !atomic_load(&pool->stop)) {
        pthread_cond_wait(&pool->wake, &pool->lock);
    }
    atomic_fetch_sub(&pool->sleepers, 1);
    pthread_mutex_unlock(&pool->lock);
    return now;
}

/* Joins loop `loop` if it is still open. */
static int join_loop(tsr__cpu_pool *pool, uint64_t loop)
{
    uint64_t state = atomic_load_explicit(&pool->state, memory_order_acquire);
    while (loop_of(state) == loop && (state & OPEN_BIT)) {
        if (atomic_compare_exchange_weak_explicit(&pool->state, &state, state + 1,
                                                  memory_order_acquire, memory_order_acquire)) {
            return 1;
        }
    }
    return 0;
}

static void *worker_main(void *arg)
{
    tsr__cpu_pool *pool = arg;
    uint64_t seen = 0;
    for (;;) {
        seen = wait_for_loop(pool, seen);
        if (atomic_load(&pool->stop)) {
            break;
        }
        if (join_loop(pool, seen)) {
            run_tasks(pool);
            atomic_fetch_sub_explicit(&pool->state, 1, memory_order_release);
        }
    }
    return NULL;
}

tsr__cpu_pool *tsr__cpu_pool_create(int threads)
{
    tsr__cpu_pool *pool = calloc(1, sizeof *pool);
    if (pool == NULL) {
        return NULL;
    }
    pool->threads = threads < 1 ? 1 : threads;
    pthread_mutex_init(&pool->submit, NULL);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    if (pool->threads > 1) {
        pool->workers = calloc((size_t)pool->threads - 1, sizeof(pthread_t));
        if (pool->workers == NULL) {
            tsr__cpu_pool_destroy(pool);
            return NULL;
        }
        for (int i = 0; i < pool->threads - 1; i++) {
            if (pthread_create(&pool->workers[i], NULL, worker_main, pool) != 0) {
                break;
            }
            pool->started++;
        }
    }
    /* Fewer workers than asked for still give the same results. */
    return pool;
}

void tsr__cpu_pool_destroy(tsr__cpu_pool *pool)
{
    if (pool == NULL) {
        return;
    }
    pthread_mutex_lock(&pool->lock);
    atomic_store(&pool->stop, 1);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->started; i++) {
        pthread_join(pool->workers[i], NULL);
    }
    free(pool->workers);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    pthread_mutex_destroy(&pool->submit);
    free(pool);
}

int tsr__cpu_pool_threads(const tsr__cpu_pool *pool)
{
    return pool->threads;
}

static void run_inline(int64_t tasks, tsr__cpu_task_fn fn, void *context)
{
    for (int64_t t = 0; t < tasks; t++) {
        fn(context, t);
    }
}

void tsr__cpu_pool_run(tsr__cpu_pool *pool, int64_t tasks, tsr__cpu_task_fn fn, void *context)
{
    if (tasks <= 1 || pool == NULL || pool->started == 0 || in_pool_task ||
        pthread_mutex_trylock(&pool->submit) != 0) {
        run_inline(tasks, fn, context);
        return;
    }
    pool->fn = fn;
    pool->context = context;
    pool->tasks = tasks;
    atomic_store_explicit(&pool->next, 0, memory_order_relaxed);
    pool->loops++;
    /* seq_cst: published before reading sleepers (see wait_for_loop). */
    atomic_store(&pool->state, pool->loops << LOOP_SHIFT | OPEN_BIT);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->lock);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
    }
    run_tasks(pool);
    atomic_fetch_and(&pool->state, ~OPEN_BIT);
    for (int spins = 0;
         (atomic_load_explicit(&pool->state, memory_order_acquire) & ACTIVE_MASK) != 0; spins++) {
        if (spins < CALLER_SPIN_ROUNDS) {
            CPU_RELAX();
        } else {
            sched_yield();
        }
    }
    pthread_mutex_unlock(&pool->submit);
}
