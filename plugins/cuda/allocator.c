/* The caching allocator's bookkeeping (allocator.h). */
#include "allocator.h"

#include <stdlib.h>

enum { SMALL_MIN = 512, SMALL_MAX = 1 << 20, LARGE_STEP = 2 << 20 };

void tsr__cu_allocator_init(tsr__cu_allocator *a, tsr__cu_alloc_ops ops, int caching,
                            int stream_ordered)
{
    *a = (tsr__cu_allocator){0};
    a->ops = ops;
    a->caching = caching;
    a->stream_ordered = stream_ordered;
}

size_t tsr__cu_size_class(size_t bytes)
{
    if (bytes <= SMALL_MIN)
        return SMALL_MIN;
    if (bytes <= SMALL_MAX) {
        size_t size = SMALL_MIN;
        while (size < bytes)
            size <<= 1;
        return size;
    }
    if (bytes > SIZE_MAX - LARGE_STEP)
        return 0;
    return (bytes + LARGE_STEP - 1) / LARGE_STEP * LARGE_STEP;
}

/* Small classes get a list each; large sizes share lists by magnitude and
 * are matched exactly. */
static int class_index(size_t size)
{
    int index = 0;
    while (index < TSR__CU_CLASS_COUNT - 1 && ((size_t)SMALL_MIN << index) < size)
        index++;
    return index;
}

static int reusable(const tsr__cu_allocator *a, const tsr__cu_block *block, uint64_t completed)
{
    return a->stream_ordered || block->fence <= completed;
}

static tsr__cu_block *take_cached(tsr__cu_allocator *a, size_t size, uint64_t completed)
{
    tsr__cu_block **link = &a->free_lists[class_index(size)];
    for (; *link; link = &(*link)->next) {
        tsr__cu_block *block = *link;
        if (block->size == size && reusable(a, block, completed)) {
            *link = block->next;
            a->cached_bytes -= block->size;
            a->reuses++;
            return block;
        }
    }
    return NULL;
}

static int device_malloc(tsr__cu_allocator *a, size_t size, tsr__cu_block **out)
{
    tsr__cu_block *block = calloc(1, sizeof *block);
    if (!block)
        return 1;
    if (a->ops.malloc(a->ops.ctx, size, &block->ptr) != 0) {
        free(block);
        return 1;
    }
    block->size = size;
    a->device_mallocs++;
    *out = block;
    return 0;
}

int tsr__cu_allocator_alloc(tsr__cu_allocator *a, size_t bytes, uint64_t completed,
                            tsr__cu_block **block)
{
    size_t size = tsr__cu_size_class(bytes);
    if (size == 0)
        return 1;
    tsr__cu_block *found = a->caching ? take_cached(a, size, completed) : NULL;
    if (!found && device_malloc(a, size, &found) != 0) {
        tsr__cu_allocator_trim(a, completed);
        if (device_malloc(a, size, &found) != 0)
            return 1;
    }
    found->request = bytes;
    found->next = NULL;
    a->live_bytes += size;
    *block = found;
    return 0;
}

void tsr__cu_allocator_free(tsr__cu_allocator *a, tsr__cu_block *block, uint64_t fence)
{
    if (!block)
        return;
    a->live_bytes -= block->size;
    if (!a->caching) {
        a->ops.free(a->ops.ctx, block->ptr);
        free(block);
        return;
    }
    block->fence = fence;
    tsr__cu_block **head = &a->free_lists[class_index(block->size)];
    block->next = *head;
    *head = block;
    a->cached_bytes += block->size;
}

void tsr__cu_allocator_trim(tsr__cu_allocator *a, uint64_t completed)
{
    for (int c = 0; c < TSR__CU_CLASS_COUNT; c++) {
        tsr__cu_block **link = &a->free_lists[c];
        while (*link) {
            tsr__cu_block *block = *link;
            if (block->fence <= completed) {
                *link = block->next;
                a->cached_bytes -= block->size;
                a->ops.free(a->ops.ctx, block->ptr);
                free(block);
            } else {
                link = &block->next;
            }
        }
    }
}

void *tsr__cu_ptr(const void *handle, int64_t byte_offset)
{
    return handle ? (char *)((const tsr__cu_block *)handle)->ptr + byte_offset : NULL;
}
