/* The caching allocator's bookkeeping against a fake device malloc: no CUDA,
 * no device. */
#include <stdio.h>
#include <stdlib.h>

#include "allocator.h"

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

typedef struct fake_device {
    size_t capacity, used;
    int mallocs, frees;
} fake_device;

static int fake_malloc(void *ctx, size_t bytes, void **ptr)
{
    fake_device *dev = ctx;
    if (dev->used + bytes > dev->capacity)
        return 1;
    *ptr = malloc(bytes);
    if (!*ptr)
        return 1;
    dev->used += bytes;
    dev->mallocs++;
    return 0;
}

/* The fake does not know a pointer's size: the tests track frees only. */
static void fake_free(void *ctx, void *ptr)
{
    ((fake_device *)ctx)->frees++;
    free(ptr);
}

static tsr__cu_alloc_ops ops_for(fake_device *dev)
{
    return (tsr__cu_alloc_ops){fake_malloc, fake_free, dev};
}

static void test_size_classes(void)
{
    CHECK(tsr__cu_size_class(0) == 512);
    CHECK(tsr__cu_size_class(512) == 512);
    CHECK(tsr__cu_size_class(513) == 1024);
    CHECK(tsr__cu_size_class(1 << 20) == 1 << 20);
    CHECK(tsr__cu_size_class((1 << 20) + 1) == 2 << 20);
    CHECK(tsr__cu_size_class((5 << 20) + 3) == 6 << 20);
    CHECK(tsr__cu_size_class(SIZE_MAX) == 0);
}

static void test_stream_ordered_reuse(void)
{
    fake_device dev = {1 << 30, 0, 0, 0};
    tsr__cu_allocator a;
    tsr__cu_allocator_init(&a, ops_for(&dev), 1, 1);
    tsr__cu_block *x, *y, *z;
    CHECK(tsr__cu_allocator_alloc(&a, 0, 0, &x) == 0);
    CHECK(tsr__cu_allocator_alloc(&a, 0, 0, &y) == 0);
    CHECK(x != y && x->ptr != y->ptr); /* zero bytes, still distinct */
    void *xptr = x->ptr;
    tsr__cu_allocator_free(&a, x, 7); /* its last use is still queued */
    CHECK(tsr__cu_allocator_alloc(&a, 300, 0, &z) == 0);
    CHECK(z->ptr == xptr && dev.mallocs == 2); /* same stream: reused at once */
    CHECK(a.reuses == 1 && a.cached_bytes == 0 && a.live_bytes == 1024);
    tsr__cu_allocator_free(&a, y, 1);
    tsr__cu_allocator_free(&a, z, 2);
    tsr__cu_allocator_trim(&a, UINT64_MAX);
    CHECK(dev.frees == 2 && a.cached_bytes == 0 && a.live_bytes == 0);
}

static void test_fenced_reuse(void)
{
    fake_device dev = {1 << 30, 0, 0, 0};
    tsr__cu_allocator a;
    tsr__cu_allocator_init(&a, ops_for(&dev), 1, 0); /* pinned staging */
    tsr__cu_block *x, *y;
    CHECK(tsr__cu_allocator_alloc(&a, 4096, 0, &x) == 0);
    void *xptr = x->ptr;
    tsr__cu_allocator_free(&a, x, 5);
    CHECK(tsr__cu_allocator_alloc(&a, 4096, 4, &y) == 0); /* fence 5 not passed */
    CHECK(y->ptr != xptr && dev.mallocs == 2);
    tsr__cu_allocator_free(&a, y, 6);
    CHECK(tsr__cu_allocator_alloc(&a, 4000, 5, &x) == 0); /* fence 5 passed */
    CHECK(x->ptr == xptr && dev.mallocs == 2);
    tsr__cu_allocator_trim(&a, 5); /* y's fence 6 not passed: stays cached */
    CHECK(dev.frees == 0 && a.cached_bytes == 4096);
    tsr__cu_allocator_free(&a, x, 7);
    tsr__cu_allocator_trim(&a, 7);
    CHECK(dev.frees == 2 && a.cached_bytes == 0);
}

static void test_sizes_do_not_mix(void)
{
    fake_device dev = {1 << 30, 0, 0, 0};
    tsr__cu_allocator a;
    tsr__cu_allocator_init(&a, ops_for(&dev), 1, 1);
    tsr__cu_block *big, *small;
    CHECK(tsr__cu_allocator_alloc(&a, 6 << 20, 0, &big) == 0);
    tsr__cu_allocator_free(&a, big, 1);
    CHECK(tsr__cu_allocator_alloc(&a, 3 << 20, 0, &small) == 0); /* 4 MiB class */
    CHECK(small->size == (4 << 20) && dev.mallocs == 2);
    tsr__cu_allocator_free(&a, small, 2);
    tsr__cu_allocator_trim(&a, UINT64_MAX);
    CHECK(dev.frees == 2);
}

static void test_out_of_memory_releases_cache(void)
{
    fake_device dev = {3 << 20, 0, 0, 0};
    tsr__cu_allocator a;
    tsr__cu_allocator_init(&a, ops_for(&dev), 1, 1);
    tsr__cu_block *x, *y;
    CHECK(tsr__cu_allocator_alloc(&a, 2 << 20, 0, &x) == 0);
    tsr__cu_allocator_free(&a, x, 1);
    dev.used = 2 << 20; /* the fake counts what the device still holds */
    /* 1 MiB class fits beside the cached 2 MiB block */
    CHECK(tsr__cu_allocator_alloc(&a, 1 << 20, 1, &y) == 0);
    tsr__cu_allocator_free(&a, y, 2);
    dev.frees = 0;
    /* A 4 MiB request fails even after the cache is emptied: an error, no crash. */
    CHECK(tsr__cu_allocator_alloc(&a, 4 << 20, 2, &x) != 0);
    CHECK(dev.frees == 2 && a.cached_bytes == 0 && a.live_bytes == 0);
}

static void test_plain_mode(void)
{
    fake_device dev = {1 << 30, 0, 0, 0};
    tsr__cu_allocator a;
    tsr__cu_allocator_init(&a, ops_for(&dev), 0, 1);
    tsr__cu_block *x;
    CHECK(tsr__cu_allocator_alloc(&a, 100, 0, &x) == 0);
    tsr__cu_allocator_free(&a, x, 1);
    CHECK(dev.frees == 1 && a.cached_bytes == 0);
    CHECK(tsr__cu_allocator_alloc(&a, 100, 0, &x) == 0);
    CHECK(dev.mallocs == 2 && a.reuses == 0);
    tsr__cu_allocator_free(&a, x, 1);
}

int main(void)
{
    test_size_classes();
    test_stream_ordered_reuse();
    test_fenced_reuse();
    test_sizes_do_not_mix();
    test_out_of_memory_releases_cache();
    test_plain_mode();
    if (failures)
        return 1;
    printf("cuda allocator: all checks passed\n");
    return 0;
}
