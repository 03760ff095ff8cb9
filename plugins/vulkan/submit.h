/* Command recording and submission: batches, fences, deferred releases.
 *
 * Kernels and transfers record into the current batch's command buffer. A
 * batch is submitted when it is full (commands, descriptor sets or arena
 * bytes) or when the host must see results (copy_to_host, synchronize);
 * nothing else waits. TSR__VK_BATCH_COUNT batches rotate, so the host records
 * one while the device runs the others.
 *
 * Ordering is kept with global memory barriers: one at the start of every
 * command buffer (against earlier submissions), one after every command, and
 * one before the end that makes writes visible to the host.
 *
 * Each batch owns the transient things its commands read: a descriptor pool,
 * a host-visible arena (kernel metadata, small uploads) and any large upload
 * buffers. They are reset when the batch's fence has signalled.
 *
 * Every memory record carries the serial of the last batch that used it; a
 * release of a record whose batch has not completed is queued and carried
 * out when it has.
 */
#ifndef TSR_VULKAN_SUBMIT_H
#define TSR_VULKAN_SUBMIT_H

#include <stdint.h>

#include "memory.h"
#include "meta.h"

#define TSR__VK_BATCH_COUNT 3
#define TSR__VK_ARENA_SIZE ((VkDeviceSize)4 << 20)
#define TSR__VK_SETS_PER_BATCH 512u
#define TSR__VK_COMMANDS_PER_BATCH 256u
#define TSR__VK_BINDINGS_PER_SET 6u

enum { TSR__VK_BATCH_IDLE, TSR__VK_BATCH_RECORDING, TSR__VK_BATCH_PENDING };

struct tsr__vk_batch {
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorPool descriptors;
    uint32_t sets_used;
    struct tsr__vk_host_buffer arena;
    VkDeviceSize arena_used;
    struct tsr__vk_host_buffer *uploads; /* large staging buffers of this batch */
    size_t upload_count, upload_capacity;
    uint64_t serial;
    int state;
    uint32_t commands;
};

struct tsr__vk_submit {
    struct tsr__vk_device *dev;
    struct tsr__vk_memory *mem;
    struct tsr__vk_batch batches[TSR__VK_BATCH_COUNT];
    unsigned current;
    uint64_t next_serial;      /* serial of the batch being recorded */
    uint64_t completed_serial; /* every batch up to this one has finished */
    struct tsr__vk_buffer *deferred;
    struct tsr__vk_host_buffer status;   /* shader-reported errors */
    struct tsr__vk_host_buffer readback; /* copy_to_host staging, grown on demand */
};

int tsr__vk_submit_init(struct tsr__vk_submit *sub, struct tsr__vk_device *dev,
                        struct tsr__vk_memory *mem);

/* Waits for all work, carries out deferred releases, destroys the batches. */
void tsr__vk_submit_shutdown(struct tsr__vk_submit *sub);

/* Makes the current batch ready to record one command needing `sets`
 * descriptor sets and `arena_bytes` of arena (rounded to the storage
 * alignment), submitting the batch first when it lacks room. */
int tsr__vk_submit_begin(struct tsr__vk_submit *sub, uint32_t sets, VkDeviceSize arena_bytes,
                         VkCommandBuffer *cmd);

/* Carves `bytes` from the current arena (room ensured by begin). Returns the
 * offset in the arena buffer and its mapped address through `ptr`. */
VkDeviceSize tsr__vk_submit_arena(struct tsr__vk_submit *sub, VkDeviceSize bytes, void **ptr);
VkBuffer tsr__vk_submit_arena_buffer(const struct tsr__vk_submit *sub);

/* A descriptor set from the current batch's pool (room ensured by begin). */
int tsr__vk_submit_set(struct tsr__vk_submit *sub, VkDescriptorSetLayout layout,
                       VkDescriptorSet *set);

/* A host-visible buffer for a large upload, released with the batch. */
int tsr__vk_submit_upload_buffer(struct tsr__vk_submit *sub, VkDeviceSize bytes,
                                 struct tsr__vk_host_buffer **out);

/* Records that `buffer` is used by the batch being recorded. */
void tsr__vk_submit_use(struct tsr__vk_submit *sub, struct tsr__vk_buffer *buffer);

/* Closes a command: records the barrier after it and submits the batch when
 * it has reached TSR__VK_COMMANDS_PER_BATCH. */
int tsr__vk_submit_end(struct tsr__vk_submit *sub);

/* Submits the current batch if it has commands. */
int tsr__vk_submit_flush(struct tsr__vk_submit *sub);

/* Submits and waits for every batch, then reports any error a shader
 * flagged since the last wait (TSR_ERR_VALUE, after set_error). */
int tsr__vk_submit_wait(struct tsr__vk_submit *sub);

/* Releases `buffer` now if no unfinished batch uses it, else when it ends. */
void tsr__vk_submit_release(struct tsr__vk_submit *sub, struct tsr__vk_buffer *buffer);

#endif /* TSR_VULKAN_SUBMIT_H */
