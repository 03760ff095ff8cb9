/* The caching allocator (see cpu_alloc.h).
 *
 * Each block carries a 64-byte header in front of the caller's memory with
 * its size class and a check word, so free needs no lookup. A class's free
 * list is a singly linked list through the headers, most recently freed
 * first, which hands back the block most likely still in cache. */
#define _GNU_SOURCE
#include "cpu_alloc.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
    HEADER = 64,
    MIN_CLASS_BYTES = 64,
    /* 4 classes per power of two: 2^e * (1 + q/4) for q = 1..4. */
    CLASSES = 4 * 64,
};
static const size_t HUGE_ALIGN = (size_t)2 << 20;
static const size_t HUGE_THRESHOLD = (size_t)4 << 20;
static const uint64_t MAGIC = UINT64_C(0x7473726370754d4d); /* "tsrcpuMM" */

typedef struct block_header {
    uint64_t magic;
    uint32_t size_class;
    uint32_t reserved_;
    struct block_header *next; /* in a free list */
} block_header;

_Static_assert(sizeof(block_header) <= HEADER, "the header fits in front of the block");

struct tsr__cpu_cache {
    pthread_mutex_t lock;
    block_header *free_list[CLASSES];
    size_t limit;
    size_t cached;
    size_t live;
    uint64_t hits, misses;
};

/* ------------------------------------------------------------------------ */
/* Size classes                                                              */
/* ------------------------------------------------------------------------ */

static int floor_log2(size_t x)
{
    return 63 - __builtin_clzll((unsigned long long)x);
}

/* The class of a request, or -1 when no class can hold it. */
static int class_of(size_t bytes)
{
    if (bytes <= MIN_CLASS_BYTES) {
        return 0;
    }
    int e = floor_log2(bytes - 1); /* 2^e < bytes <= 2^(e+1) */
    if (e >= 61) {
        return -1;
    }
    size_t quarter = (size_t)1 << (e - 2);
    size_t q = (bytes - ((size_t)1 << e) + quarter - 1) / quarter; /* 1..4 */
    return 4 * e + (int)q - 4;
}

static size_t class_bytes(int size_class)
{
    if (size_class == 0) {
        return MIN_CLASS_BYTES;
    }
    int e = (size_class + 4) / 4;
    int q = (size_class + 4) % 4;
    if (q == 0) {
        e -= 1;
        q = 4;
    }
    return ((size_t)1 << e) + (size_t)q * ((size_t)1 << (e - 2));
}

/* ------------------------------------------------------------------------ */
/* The system side                                                           */
/* ------------------------------------------------------------------------ */

static block_header *system_alloc(size_t payload)
{
    /* aligned_alloc wants a multiple of the alignment. */
    size_t total = (payload + HEADER + HEADER - 1) / HEADER * HEADER;
    void *memory = NULL;
    if (payload >= HUGE_THRESHOLD) {
        total = (total + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
        memory = aligned_alloc(HUGE_ALIGN, total);
#ifdef MADV_HUGEPAGE
        if (memory != NULL) {
            madvise(memory, total, MADV_HUGEPAGE);
        }
#endif
    } else {
        memory = aligned_alloc(HEADER, total);
    }
    return memory;
}

static void release_list(block_header *list)
{
    while (list != NULL) {
        block_header *next = list->next;
        free(list);
        list = next;
    }
}

/* ------------------------------------------------------------------------ */
/* The cache                                                                 */
/* ------------------------------------------------------------------------ */

size_t tsr__cpu_cache_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    size_t cap = (size_t)4 << 30;
    if (pages <= 0 || page <= 0) {
        return (size_t)256 << 20;
    }
    size_t eighth = (size_t)pages / 8 * (size_t)page;
    return eighth < cap ? eighth : cap;
}

tsr__cpu_cache *tsr__cpu_cache_create(size_t limit_bytes)
{
    tsr__cpu_cache *cache = calloc(1, sizeof *cache);
    if (cache == NULL) {
        return NULL;
    }
    if (pthread_mutex_init(&cache->lock, NULL) != 0) {
        free(cache);
        return NULL;
    }
    cache->limit = limit_bytes;
    return cache;
}

void tsr__cpu_cache_trim(tsr__cpu_cache *cache)
{
    block_header *lists[CLASSES];
    pthread_mutex_lock(&cache->lock);
    memcpy(lists, cache->free_list, sizeof lists);
    memset(cache->free_list, 0, sizeof cache->free_list);
    cache->cached = 0;
    pthread_mutex_unlock(&cache->lock);
    for (int c = 0; c < CLASSES; c++) {
        release_list(lists[c]);
    }
}

void tsr__cpu_cache_destroy(tsr__cpu_cache *cache)
{
    if (cache == NULL) {
        return;
    }
    tsr__cpu_cache_trim(cache);
    pthread_mutex_destroy(&cache->lock);
    free(cache);
}

void *tsr__cpu_alloc(tsr__cpu_cache *cache, size_t bytes)
{
    int size_class = class_of(bytes);
    if (size_class < 0) {
        return NULL;
    }
    size_t payload = class_bytes(size_class);
    pthread_mutex_lock(&cache->lock);
    block_header *block = cache->free_list[size_class];
    if (block != NULL) {
        cache->free_list[size_class] = block->next;
        cache->cached -= payload;
        cache->hits++;
    } else {
        cache->misses++;
    }
    cache->live += payload;
    pthread_mutex_unlock(&cache->lock);
    if (block == NULL) {
        block = system_alloc(payload);
        if (block == NULL) {
            tsr__cpu_cache_trim(cache);
            block = system_alloc(payload);
        }
        if (block == NULL) {
            pthread_mutex_lock(&cache->lock);
            cache->live -= payload;
            pthread_mutex_unlock(&cache->lock);
            return NULL;
        }
        block->magic = MAGIC;
        block->size_class = (uint32_t)size_class;
    }
    block->next = NULL;
    return (char *)block + HEADER;
}

void tsr__cpu_free(tsr__cpu_cache *cache, void *memory)
{
    if (memory == NULL) {
        return;
    }
    block_header *block = (block_header *)((char *)memory - HEADER);
    size_t payload = class_bytes((int)block->size_class);
    pthread_mutex_lock(&cache->lock);
    cache->live -= payload;
    int keep = cache->cached + payload <= cache->limit;
    if (keep) {
        block->next = cache->free_list[block->size_class];
        cache->free_list[block->size_class] = block;
        cache->cached += payload;
    }
    pthread_mutex_unlock(&cache->lock);
    if (!keep) {
        free(block);
    }
}

void tsr__cpu_cache_get_stats(tsr__cpu_cache *cache, tsr__cpu_cache_stats *stats)
{
    pthread_mutex_lock(&cache->lock);
    stats->hits = cache->hits;
    stats->misses = cache->misses;
    stats->cached_bytes = cache->cached;
    stats->live_bytes = cache->live;
    stats->limit_bytes = cache->limit;
    pthread_mutex_unlock(&cache->lock);
}
