/* Host memory with a caching allocator.
 *
 * Freed blocks are kept in size-bucketed free lists and handed out again, so
 * an op writing a fresh output of a size seen before gets memory whose pages
 * are already mapped: no page faults, no zeroing by the kernel. Sizes round
 * up to one of four classes per power of two (at most 25 % waste). Blocks of
 * 4 MiB and more are 2 MiB aligned and advised as huge pages. Every block is
 * at least 64-byte aligned. The cache holds at most a set number of bytes;
 * a free beyond it goes back to the system, and a failing allocation first
 * empties the cache and tries again. All functions are thread-safe. */
#ifndef TSR_CPU_ALLOC_H
#define TSR_CPU_ALLOC_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsr__cpu_cache tsr__cpu_cache;

typedef struct tsr__cpu_cache_stats {
    uint64_t hits;       /* allocations served from the cache */
    uint64_t misses;     /* allocations that went to the system */
    size_t cached_bytes; /* bytes sitting in the free lists now */
    size_t live_bytes;   /* bytes handed out and not yet freed */
    size_t limit_bytes;
} tsr__cpu_cache_stats;

/* The default limit: an eighth of physical memory, at most 4 GiB. */
size_t tsr__cpu_cache_default_limit(void);

/* Returns NULL when out of memory. A limit of 0 disables caching. */
tsr__cpu_cache *tsr__cpu_cache_create(size_t limit_bytes);
/* Releases every cached block; blocks still handed out must be freed first. */
void tsr__cpu_cache_destroy(tsr__cpu_cache *cache);

/* A block of at least `bytes` (a distinct one for 0), or NULL. */
void *tsr__cpu_alloc(tsr__cpu_cache *cache, size_t bytes);
/* Returns a block from tsr__cpu_alloc to the cache (NULL is fine). */
void tsr__cpu_free(tsr__cpu_cache *cache, void *block);
/* Gives every cached block back to the system. */
void tsr__cpu_cache_trim(tsr__cpu_cache *cache);
void tsr__cpu_cache_get_stats(tsr__cpu_cache *cache, tsr__cpu_cache_stats *stats);

#endif /* TSR_CPU_ALLOC_H */
