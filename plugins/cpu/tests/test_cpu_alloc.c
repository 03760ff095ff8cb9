/* The caching allocator: a freed block comes back for the next request of
 * its size class, classes waste at most a quarter, blocks are 64-byte
 * aligned, zero-byte requests still get distinct blocks, the limit is kept
 * and trim gives everything back. */
#include <stdint.h>
#include <string.h>

#include "cpu_test.h"

static void a_freed_block_is_reused_for_the_same_size(void)
{
    tsr__cpu_cache *cache = tsr__cpu_cache_create((size_t)64 << 20);
    void *a = tsr__cpu_alloc(cache, (size_t)1 << 20);
    memset(a, 1, (size_t)1 << 20);
    tsr__cpu_free(cache, a);
    void *b = tsr__cpu_alloc(cache, (size_t)1 << 20);
    CHECK_TRUE(a == b);
    tsr__cpu_cache_stats stats;
    tsr__cpu_cache_get_stats(cache, &stats);
    CHECK_INT(stats.hits, 1);
    CHECK_INT(stats.misses, 1);
    CHECK_INT(stats.live_bytes, (size_t)1 << 20);
    tsr__cpu_free(cache, b);
    tsr__cpu_cache_destroy(cache);
}

static void sizes_within_a_class_share_blocks(void)
{
    tsr__cpu_cache *cache = tsr__cpu_cache_create((size_t)64 << 20);
    /* 1000 and 1024 both round to the 1024-byte class; 1025 does not. */
    void *a = tsr__cpu_alloc(cache, 1000);
    tsr__cpu_free(cache, a);
    CHECK_TRUE(tsr__cpu_alloc(cache, 1024) == a);
    void *c = tsr__cpu_alloc(cache, 1025);
    CHECK_TRUE(c != a);
    tsr__cpu_free(cache, a);
    tsr__cpu_free(cache, c);
    tsr__cpu_cache_destroy(cache);
}

static void classes_waste_at_most_a_quarter(void)
{
    tsr__cpu_cache *cache = tsr__cpu_cache_create(0);
    for (size_t bytes = 65; bytes < ((size_t)1 << 22); bytes = bytes * 5 / 4 + 3) {
        void *p = tsr__cpu_alloc(cache, bytes);
        tsr__cpu_cache_stats stats;
        tsr__cpu_cache_get_stats(cache, &stats);
        CHECK_TRUE(stats.live_bytes >= bytes && stats.live_bytes <= bytes + bytes / 4 + 64);
        CHECK_INT((uintptr_t)p % 64, 0);
        tsr__cpu_free(cache, p);
    }
    tsr__cpu_cache_destroy(cache);
}

static void zero_byte_blocks_are_distinct(void)
{
    tsr__cpu_cache *cache = tsr__cpu_cache_create((size_t)1 << 20);
    void *a = tsr__cpu_alloc(cache, 0), *b = tsr__cpu_alloc(cache, 0);
    CHECK_TRUE(a != NULL && b != NULL && a != b);
    tsr__cpu_free(cache, a);
    tsr__cpu_free(cache, b);
    tsr__cpu_cache_destroy(cache);
}

static void the_cache_never_holds_more_than_its_limit(void)
{
    tsr__cpu_cache *cache = tsr__cpu_cache_create((size_t)3 << 20);
    void *blocks[4];
    for (int i = 0; i < 4; i++) {
        blocks[i] = tsr__cpu_alloc(cache, (size_t)1 << 20);
    }
    for (int i = 0; i < 4; i++) {
        tsr__cpu_free(cache, blocks[i]);
    }
    tsr__cpu_cache_stats stats;
    tsr__cpu_cache_get_stats(cache, &stats);
    CHECK_INT(stats.cached_bytes, (size_t)3 << 20);
    tsr__cpu_cache_trim(cache);
    tsr__cpu_cache_get_stats(cache, &stats);
    CHECK_INT(stats.cached_bytes, 0);
    tsr__cpu_cache_destroy(cache);
}

static void a_limit_of_zero_caches_nothing(void)
{
    tsr__cpu_cache *cache = tsr__cpu_cache_create(0);
    tsr__cpu_free(cache, tsr__cpu_alloc(cache, 4096));
    tsr__cpu_free(cache, tsr__cpu_alloc(cache, 4096));
    tsr__cpu_cache_stats stats;
    tsr__cpu_cache_get_stats(cache, &stats);
    CHECK_INT(stats.hits, 0);
    CHECK_INT(stats.cached_bytes, 0);
    tsr__cpu_cache_destroy(cache);
}

static void large_blocks_are_reused_without_page_faults(void)
{
    /* The second round of a 64 MiB alloc-touch-free cycle reuses the block:
     * what makes fresh outputs of repeated ops cheap. */
    tsr__cpu_cache *cache = tsr__cpu_cache_create((size_t)256 << 20);
    size_t bytes = (size_t)64 << 20;
    char *a = tsr__cpu_alloc(cache, bytes);
    CHECK_TRUE(a != NULL);
    if (a != NULL) {
        memset(a, 2, bytes);
        CHECK_INT((uintptr_t)a % 64, 0);
    }
    tsr__cpu_free(cache, a);
    char *b = tsr__cpu_alloc(cache, bytes);
    CHECK_TRUE(b == a);
    tsr__cpu_free(cache, b);
    tsr__cpu_cache_destroy(cache);
}

int main(void)
{
    RUN_TEST(a_freed_block_is_reused_for_the_same_size);
    RUN_TEST(sizes_within_a_class_share_blocks);
    RUN_TEST(classes_waste_at_most_a_quarter);
    RUN_TEST(zero_byte_blocks_are_distinct);
    RUN_TEST(the_cache_never_holds_more_than_its_limit);
    RUN_TEST(a_limit_of_zero_caches_nothing);
    RUN_TEST(large_blocks_are_reused_without_page_faults);
    return test_finish();
}
