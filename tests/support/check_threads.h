/* A start gate for tests that race threads: workers wait at it until every
 * one is created, so that their work overlaps. A gate rather than a barrier:
 * a thread that failed to start cannot leave the others waiting. */
#ifndef TSR_TEST_CHECK_THREADS_H
#define TSR_TEST_CHECK_THREADS_H

#include <pthread.h>
#include <stdbool.h>

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static bool gate_is_open;

static void wait_at_gate(void)
{
    pthread_mutex_lock(&gate_lock);
    while (!gate_is_open)
        pthread_cond_wait(&gate_cond, &gate_lock);
    pthread_mutex_unlock(&gate_lock);
}

static void set_gate(bool open)
{
    pthread_mutex_lock(&gate_lock);
    gate_is_open = open;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
}

#endif
