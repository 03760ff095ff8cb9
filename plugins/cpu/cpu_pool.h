/* A small thread pool with fixed task numbering.
 *
 * A parallel loop is a count of tasks and a function; the pool runs every
 * task exactly once, on the calling thread and its workers, and returns when
 * all are done. Which thread runs which task is not fixed, so callers make
 * results independent of the thread count by giving each task a fixed piece
 * of work (fixed block sizes) and combining partial results themselves in a
 * fixed order after the loop.
 *
 * One loop runs at a time: a second caller (another user thread, or a task
 * itself) runs its loop on its own thread, which gives the same results.
 * Workers spin briefly (about 10 us) after a loop, then sleep, so they do
 * not hold cores another program wants; OpenBLAS runs single-threaded inside
 * pool tasks (see cpu_blas.h), so it never competes with them. */
#ifndef TSR_CPU_POOL_H
#define TSR_CPU_POOL_H

#include <stdint.h>

typedef struct tsr__cpu_pool tsr__cpu_pool;

typedef void (*tsr__cpu_task_fn)(void *context, int64_t task);

/* A pool of `threads` threads in all (the caller counts as one, so
 * threads - 1 workers are started). NULL when out of resources. */
tsr__cpu_pool *tsr__cpu_pool_create(int threads);
void tsr__cpu_pool_destroy(tsr__cpu_pool *pool);
int tsr__cpu_pool_threads(const tsr__cpu_pool *pool);

/* Runs fn(context, t) for t in [0, tasks). Tasks must not fail. */
void tsr__cpu_pool_run(tsr__cpu_pool *pool, int64_t tasks, tsr__cpu_task_fn fn, void *context);

/* The number of tasks of `grain` items each that cover `items`, at least 1. */
static inline int64_t tsr__cpu_task_count(int64_t items, int64_t grain)
{
    return items <= grain ? 1 : (items + grain - 1) / grain;
}

#endif /* TSR_CPU_POOL_H */
