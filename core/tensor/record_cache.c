/* Per-thread free lists of tensor and storage records.
 *
 * Every op result needs a tensor record and a storage record; for small
 * tensors malloc, calloc and free of those were a large part of the cost of
 * an op. A short list per thread needs no lock and keeps recently freed
 * records hot in the cache. Under AddressSanitizer there are no lists:
 * every record goes straight back to free(), so a use after release is
 * reported at once and LeakSanitizer sees every record that is not freed. */
#include "tensor/record_cache.h"

#include "runtime/alloc.h"
#include "tensor/tensor.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define LISTS_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LISTS_ENABLED 0
#endif
#endif
#ifndef LISTS_ENABLED
#define LISTS_ENABLED 1
#endif

/* Enough for the temporaries of one composite op; more would only hold
 * memory that a burst of releases gave back. */
enum { LIST_BOUND = 32 };

typedef struct free_record {
    struct free_record *next;
} free_record;

typedef struct thread_lists {
    free_record *head[TSR__RECORD_KIND_COUNT];
    int count[TSR__RECORD_KIND_COUNT];
    bool registered; /* whether the exit destructor knows this thread's lists */
} thread_lists;

static _Thread_local thread_lists lists;
static pthread_key_t exit_key;
static bool exit_key_made;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static size_t record_size(tsr__record_kind kind)
{
    return kind == TSR__RECORD_TENSOR ? sizeof(struct tsr_tensor) : sizeof(tsr__storage);
}

static void drain(thread_lists *l)
{
    for (int k = 0; k < TSR__RECORD_KIND_COUNT; k++) {
        while (l->head[k]) {
            free_record *r = l->head[k];
            l->head[k] = r->next;
            free(r);
        }
        l->count[k] = 0;
    }
}

/* Runs when a thread exits; a release after it (another key's destructor)
 * registers the lists again and so is drained in the next round. */
static void drain_at_exit(void *value)
{
    thread_lists *l = value;
    drain(l);
    l->registered = false;
}

static void make_exit_key(void)
{
    exit_key_made = pthread_key_create(&exit_key, drain_at_exit) == 0;
}

/* When the library is unloaded: the calling thread's records go back to
 * free(), and the key is deleted so that no thread runs a destructor whose
 * code is gone. */
__attribute__((destructor)) static void unload(void)
{
    drain(&lists);
    if (exit_key_made)
        pthread_key_delete(exit_key);
}

void *tsr__record_alloc(tsr__record_kind kind)
{
    size_t size = record_size(kind);
    free_record *r = lists.head[kind];
    if (!r)
        return tsr__calloc(1, size);
    lists.head[kind] = r->next;
    lists.count[kind]--;
    memset(r, 0, size);
    return r;
}

/* Without a destructor a thread's list would leak at its exit, so a thread
 * that cannot register one frees records directly. */
static bool register_thread(void)
{
    pthread_once(&exit_key_once, make_exit_key);
    if (!exit_key_made || pthread_setspecific(exit_key, &lists) != 0)
        return false;
    lists.registered = true;
    return true;
}

void tsr__record_free(tsr__record_kind kind, void *record)
{
    if (!record)
        return;
    if (!LISTS_ENABLED || lists.count[kind] >= LIST_BOUND ||
        (!lists.registered && !register_thread())) {
        free(record);
        return;
    }
    free_record *r = record;
    r->next = lists.head[kind];
    lists.head[kind] = r;
    lists.count[kind]++;
}
