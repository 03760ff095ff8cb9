/* Loading oneDNN on first use, and the cache of its matmul primitives (see
 * cpu_dnnl_api.h and cpu_dnnl.h).
 *
 * Creating a primitive costs far more than a small product (oneDNN
 * generates code), so primitives are kept by their full key (dims, strides,
 * alpha, beta, thread count) in a small LRU. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_dnnl.h"
#include "cpu_dnnl_api.h"

#ifndef TSR_CPU_DNNL_SONAME
#define TSR_CPU_DNNL_SONAME "libdnnl.so.2"
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static tsr__cpu_dnnl_api api;
static _Atomic(const tsr__cpu_dnnl_api *) loaded;

/* dlsym's void * reaches a function pointer through memcpy (ISO C). */
static int find(void *library, const char *name, void *slot, size_t size)
{
    void *symbol = dlsym(library, name);
    if (symbol != NULL) {
        memcpy(slot, &symbol, size);
    }
    return symbol != NULL;
}

/* libgomp's threads spin after each parallel region (up to a few hundred
 * thousand iterations) and its barriers wait for every thread of the team.
 * On a busy machine a spinning thread is preempted, and the next region
 * waits a whole time slice for it: 2-thread products of 128^3 and 256^3
 * took 12-28 ms here instead of 0.03-0.14 ms. The passive policy (sleep at once, as the pool's
 * workers nearly do) avoids that. libgomp reads it once, when it is loaded,
 * so it is set just before oneDNN pulls libgomp in, and only when the
 * process has not chosen a policy and has not loaded libgomp already. */
static void prefer_passive_openmp(void)
{
    if (getenv("OMP_WAIT_POLICY") != NULL || getenv("GOMP_SPINCOUNT") != NULL) {
        return;
    }
    void *gomp = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (gomp != NULL) {
        dlclose(gomp);
        return;
    }
    setenv("OMP_WAIT_POLICY", "passive", 0);
}

static void load(void)
{
    prefer_passive_openmp();
    /* Never unloaded: oneDNN's OpenMP threads and generated code stay. */
    void *library = dlopen(TSR_CPU_DNNL_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) {
        return;
    }
    int ok = 1;
#define FIND(name) ok = ok && find(library, "dnnl_" #name, &api.name, sizeof api.name);
    DNNL_FUNCTIONS(FIND)
#undef FIND
    /* libgomp, which libdnnl.so.2 links, is found through its handle. */
    ok = ok && find(library, "omp_set_num_threads", &api.omp_set_num_threads,
                    sizeof api.omp_set_num_threads);
    if (ok && api.engine_create(&api.engine, dnnl_cpu, 0) == dnnl_success) {
        atomic_store(&loaded, &api);
    }
}

const tsr__cpu_dnnl_api *tsr__cpu_dnnl_get(void)
{
    pthread_once(&load_once, load);
    return atomic_load(&loaded);
}

int tsr__cpu_dnnl_available(void)
{
    return tsr__cpu_dnnl_get() != NULL;
}

enum { CACHE_SLOTS = 8 };
enum { OUT = 0, A = 1, B = 2 };

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static tsr__cpu_dnnl_primitive *cache[CACHE_SLOTS];
static uint64_t cache_tick;

void tsr__cpu_dnnl_md(const tsr__cpu_dnnl_api *dnnl, dnnl_memory_desc_t *md,
                      const tsr__cpu_dnnl_key *key, int w)
{
    dnnl->memory_desc_init_by_strides(md, (int)key->ndim, key->dims[w], dnnl_bf16, key->strides[w]);
}

/* oneDNN plans its split of the work for the OpenMP thread count it sees
 * when the primitive is created, so the count is set before that too. */
static tsr__cpu_dnnl_primitive *create_primitive(const tsr__cpu_dnnl_api *dnnl,
                                                 const tsr__cpu_dnnl_key *key)
{
    dnnl_memory_desc_t md[3];
    for (int w = 0; w < 3; w++) {
        tsr__cpu_dnnl_md(dnnl, &md[w], key, w);
    }
    dnnl_matmul_desc_t desc;
    if (dnnl->matmul_desc_init(&desc, &md[A], &md[B], NULL, &md[OUT]) != dnnl_success) {
        return NULL;
    }
    dnnl_primitive_attr_t attr = NULL;
    dnnl_post_ops_t post_ops = NULL;
    dnnl_primitive_desc_t pd = NULL;
    tsr__cpu_dnnl_primitive *entry = calloc(1, sizeof *entry);
    int ok =
        entry != NULL && dnnl->primitive_attr_create(&attr) == dnnl_success &&
        dnnl->primitive_attr_set_scratchpad_mode(attr, dnnl_scratchpad_mode_user) == dnnl_success;
    if (ok && key->alpha != 1.0f) {
        ok = dnnl->primitive_attr_set_output_scales(attr, 1, 0, &key->alpha) == dnnl_success;
    }
    if (ok && key->has_c) {
        ok = dnnl->post_ops_create(&post_ops) == dnnl_success &&
             dnnl->post_ops_append_sum(post_ops, key->beta) == dnnl_success &&
             dnnl->primitive_attr_set_post_ops(attr, post_ops) == dnnl_success;
    }
    dnnl->omp_set_num_threads((int)key->threads);
    ok = ok && dnnl->primitive_desc_create(&pd, &desc, attr, dnnl->engine, NULL) == dnnl_success;
    const char *impl = NULL;
    if (ok) {
        entry->scratch_md = *dnnl->primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
        entry->scratch_bytes = dnnl->memory_desc_get_size(&entry->scratch_md);
        if (dnnl->primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success) {
            snprintf(entry->impl, sizeof entry->impl, "%s", impl);
        }
        ok = dnnl->primitive_create(&entry->primitive, pd) == dnnl_success;
    }
    if (pd != NULL) {
        dnnl->primitive_desc_destroy(pd);
    }
    if (post_ops != NULL) {
        dnnl->post_ops_destroy(post_ops);
    }
    if (attr != NULL) {
        dnnl->primitive_attr_destroy(attr);
    }
    if (!ok) {
        free(entry);
        return NULL;
    }
    entry->key = *key;
    return entry;
}

static tsr__cpu_dnnl_primitive *cache_find(const tsr__cpu_dnnl_key *key)
{
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (cache[i] != NULL && memcmp(&cache[i]->key, key, sizeof *key) == 0) {
            cache[i]->users++;
            cache[i]->used = ++cache_tick;
            return cache[i];
        }
    }
    return NULL;
}

static void destroy_entry(const tsr__cpu_dnnl_api *dnnl, tsr__cpu_dnnl_primitive *entry)
{
    dnnl->primitive_destroy(entry->primitive);
    free(entry);
}

/* The entry for `key`, its user count raised; NULL when oneDNN rejects it. */
tsr__cpu_dnnl_primitive *tsr__cpu_dnnl_acquire(const tsr__cpu_dnnl_api *dnnl,
                                               const tsr__cpu_dnnl_key *key)
{
    pthread_mutex_lock(&cache_lock);
    tsr__cpu_dnnl_primitive *entry = cache_find(key);
    pthread_mutex_unlock(&cache_lock);
    if (entry != NULL) {
        return entry;
    }
    /* Created unlocked: it takes milliseconds. Two threads may both create
     * the same primitive; the loser's copy is simply used once. */
    tsr__cpu_dnnl_primitive *fresh = create_primitive(dnnl, key);
    if (fresh == NULL) {
        return NULL;
    }
    fresh->users = 1;
    pthread_mutex_lock(&cache_lock);
    fresh->used = ++cache_tick;
    int victim = 0;
    for (int i = 1; i < CACHE_SLOTS; i++) {
        if (cache[victim] != NULL && (cache[i] == NULL || cache[i]->used < cache[victim]->used)) {
            victim = i;
        }
    }
    tsr__cpu_dnnl_primitive *old = cache[victim];
    cache[victim] = fresh;
    int destroy_old = 0;
    if (old != NULL) {
        old->evicted = 1;
        destroy_old = old->users == 0;
    }
    pthread_mutex_unlock(&cache_lock);
    if (destroy_old) {
        destroy_entry(dnnl, old);
    }
    return fresh;
}

void tsr__cpu_dnnl_release(const tsr__cpu_dnnl_api *dnnl, tsr__cpu_dnnl_primitive *entry)
{
    pthread_mutex_lock(&cache_lock);
    int destroy = --entry->users == 0 && entry->evicted;
    pthread_mutex_unlock(&cache_lock);
    if (destroy) {
        destroy_entry(dnnl, entry);
    }
}
