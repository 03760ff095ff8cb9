/* Device memory: a sub-allocator over large device-local blocks, and
 * host-visible buffers for staging.
 *
 * A memory handle given to the core is a `struct tsr__vk_buffer *`: a range
 * inside one block. Blocks are VkBuffers of TSR__VK_BLOCK_SIZE bytes (one
 * VkDeviceMemory each) carved first-fit from a sorted free list that
 * coalesces on release; an allocation larger than half a block gets a block
 * of its own. Ranges start at a multiple of minStorageBufferOffsetAlignment
 * (and of 16), so any 8-byte element is naturally aligned.
 *
 * Releasing here is immediate: callers that may still have queued work
 * using a range go through submit.h, which defers the release.
 */
#ifndef TSR_VULKAN_MEMORY_H
#define TSR_VULKAN_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

#define TSR__VK_BLOCK_SIZE ((VkDeviceSize)64 << 20)

struct tsr__vk_range {
    VkDeviceSize offset, size;
    struct tsr__vk_range *next;
};

struct tsr__vk_block {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    VkDeviceSize used;          /* bytes handed out */
    int dedicated;              /* made for one large allocation */
    struct tsr__vk_range *free; /* sorted by offset, never adjacent */
    struct tsr__vk_block *next;
};

/* The object behind a tessera memory handle. */
struct tsr__vk_buffer {
    struct tsr__vk_block *block; /* NULL for a zero-byte allocation */
    VkDeviceSize offset;         /* in the block's VkBuffer */
    VkDeviceSize size;           /* bytes asked for */
    VkDeviceSize reserved;       /* bytes taken from the block */
    uint64_t last_use;           /* serial of the last batch that used it */
    struct tsr__vk_buffer *next; /* link in the deferred-release list */
};

/* A host-visible, coherent buffer, mapped for its whole life. */
struct tsr__vk_host_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
};

struct tsr__vk_memory {
    struct tsr__vk_device *dev;
    struct tsr__vk_block *blocks;
    VkDeviceSize alignment;      /* of every range's offset */
    VkDeviceSize max_allocation; /* maxMemoryAllocationSize */
    VkDeviceSize bytes_in_use;
};

void tsr__vk_memory_init(struct tsr__vk_memory *mem, struct tsr__vk_device *dev);

/* Destroys every block, whether or not ranges are still handed out. */
void tsr__vk_memory_shutdown(struct tsr__vk_memory *mem);

/* Allocates `bytes` of device memory. Zero bytes gives a distinct record
 * without a block. Returns TSR_OK or TSR_ERR_OUT_OF_MEMORY after set_error. */
int tsr__vk_memory_alloc(struct tsr__vk_memory *mem, size_t bytes, struct tsr__vk_buffer **out);

/* Returns the range to its block now; the device must be done with it. */
void tsr__vk_memory_release(struct tsr__vk_memory *mem, struct tsr__vk_buffer *buffer);

/* Creates a mapped host-visible coherent buffer usable as a transfer source
 * and destination and as a storage buffer. `readback` prefers cached memory,
 * which the host reads faster. */
int tsr__vk_host_buffer_create(struct tsr__vk_memory *mem, VkDeviceSize size, int readback,
                               struct tsr__vk_host_buffer *out);

void tsr__vk_host_buffer_destroy(struct tsr__vk_memory *mem, struct tsr__vk_host_buffer *buffer);

#endif /* TSR_VULKAN_MEMORY_H */
