#include "submit.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"

#define TSR__VK_WORK_STAGES (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT)
#define TSR__VK_WRITES (VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT)
#define TSR__VK_ACCESSES                                                                           \
    (VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |        \
     VK_ACCESS_TRANSFER_WRITE_BIT)

static int tsr__vk_fail(struct tsr__vk_submit *sub, const char *what, VkResult r)
{
    int status = r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY
                     ? TSR_ERR_OUT_OF_MEMORY
                     : TSR_ERR_BACKEND;
    return tsr__vk_error(sub->dev->host, status, "%s failed: %s", what, tsr__vk_result_name(r));
}

static void tsr__vk_barrier(struct tsr__vk_device *dev, VkCommandBuffer cmd,
                            VkPipelineStageFlags dst_stages, VkAccessFlags dst_access)
{
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = TSR__VK_WRITES,
        .dstAccessMask = dst_access,
    };
    dev->fns.vkCmdPipelineBarrier(cmd, TSR__VK_WORK_STAGES, dst_stages, 0, 1, &barrier, 0, NULL, 0,
                                  NULL);
}

/* ------------------------------------------------------------------------ */
/* Batches                                                                   */
/* ------------------------------------------------------------------------ */

static int tsr__vk_batch_create(struct tsr__vk_submit *sub, struct tsr__vk_batch *batch)
{
    struct tsr__vk_device *dev = sub->dev;
    struct tsr__vk_fns *fns = &dev->fns;
    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = dev->queue_family,
    };
    VkResult r = fns->vkCreateCommandPool(dev->device, &pool_info, NULL, &batch->pool);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo cmd_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = batch->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    r = fns->vkAllocateCommandBuffers(dev->device, &cmd_info, &batch->cmd);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkAllocateCommandBuffers", r);
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    r = fns->vkCreateFence(dev->device, &fence_info, NULL, &batch->fence);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkCreateFence", r);
    VkDescriptorPoolSize size = {
        .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = TSR__VK_SETS_PER_BATCH * TSR__VK_BINDINGS_PER_SET,
    };
    VkDescriptorPoolCreateInfo dp_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = TSR__VK_SETS_PER_BATCH,
        .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    r = fns->vkCreateDescriptorPool(dev->device, &dp_info, NULL, &batch->descriptors);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkCreateDescriptorPool", r);
    return tsr__vk_host_buffer_create(sub->mem, TSR__VK_ARENA_SIZE, 0, &batch->arena);
}

static void tsr__vk_batch_drop_uploads(struct tsr__vk_submit *sub, struct tsr__vk_batch *batch)
{
    for (size_t i = 0; i < batch->upload_count; ++i)
        tsr__vk_host_buffer_destroy(sub->mem, &batch->uploads[i]);
    batch->upload_count = 0;
}

static void tsr__vk_batch_destroy(struct tsr__vk_submit *sub, struct tsr__vk_batch *batch)
{
    struct tsr__vk_device *dev = sub->dev;
    struct tsr__vk_fns *fns = &dev->fns;
    tsr__vk_batch_drop_uploads(sub, batch);
    free(batch->uploads);
    tsr__vk_host_buffer_destroy(sub->mem, &batch->arena);
    if (batch->descriptors)
        fns->vkDestroyDescriptorPool(dev->device, batch->descriptors, NULL);
    if (batch->fence)
        fns->vkDestroyFence(dev->device, batch->fence, NULL);
    if (batch->pool)
        fns->vkDestroyCommandPool(dev->device, batch->pool, NULL);
    memset(batch, 0, sizeof *batch);
}

static void tsr__vk_release_completed(struct tsr__vk_submit *sub)
{
    struct tsr__vk_buffer **p = &sub->deferred;
    while (*p) {
        struct tsr__vk_buffer *buffer = *p;
        if (buffer->last_use <= sub->completed_serial) {
            *p = buffer->next;
            tsr__vk_memory_release(sub->mem, buffer);
        } else {
            p = &buffer->next;
        }
    }
}

/* Waits for a pending batch and makes it reusable. */
static int tsr__vk_batch_retire(struct tsr__vk_submit *sub, struct tsr__vk_batch *batch)
{
    struct tsr__vk_device *dev = sub->dev;
    struct tsr__vk_fns *fns = &dev->fns;
    if (batch->state != TSR__VK_BATCH_PENDING)
        return TSR_OK;
    VkResult r = fns->vkWaitForFences(dev->device, 1, &batch->fence, VK_TRUE, UINT64_MAX);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkWaitForFences", r);
    fns->vkResetFences(dev->device, 1, &batch->fence);
    fns->vkResetCommandPool(dev->device, batch->pool, 0);
    fns->vkResetDescriptorPool(dev->device, batch->descriptors, 0);
    tsr__vk_batch_drop_uploads(sub, batch);
    batch->sets_used = 0;
    batch->arena_used = 0;
    batch->commands = 0;
    batch->state = TSR__VK_BATCH_IDLE;
    if (batch->serial > sub->completed_serial)
        sub->completed_serial = batch->serial;
    tsr__vk_release_completed(sub);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Public                                                                    */
/* ------------------------------------------------------------------------ */

int tsr__vk_submit_init(struct tsr__vk_submit *sub, struct tsr__vk_device *dev,
                        struct tsr__vk_memory *mem)
{
    memset(sub, 0, sizeof *sub);
    sub->dev = dev;
    sub->mem = mem;
    sub->next_serial = 1;
    for (unsigned i = 0; i < TSR__VK_BATCH_COUNT; ++i) {
        int status = tsr__vk_batch_create(sub, &sub->batches[i]);
        if (status != TSR_OK)
            return status;
    }
    int status = tsr__vk_host_buffer_create(mem, 16, 1, &sub->status);
    if (status == TSR_OK)
        memset(sub->status.mapped, 0, 16);
    return status;
}

void tsr__vk_submit_shutdown(struct tsr__vk_submit *sub)
{
    if (!sub->dev)
        return; /* never initialised */
    if (sub->dev->device) {
        tsr__vk_submit_flush(sub);
        for (unsigned i = 0; i < TSR__VK_BATCH_COUNT; ++i)
            tsr__vk_batch_retire(sub, &sub->batches[(sub->current + i) % TSR__VK_BATCH_COUNT]);
        sub->dev->fns.vkDeviceWaitIdle(sub->dev->device);
    }
    sub->completed_serial = UINT64_MAX;
    tsr__vk_release_completed(sub);
    for (unsigned i = 0; i < TSR__VK_BATCH_COUNT; ++i)
        tsr__vk_batch_destroy(sub, &sub->batches[i]);
    tsr__vk_host_buffer_destroy(sub->mem, &sub->status);
    tsr__vk_host_buffer_destroy(sub->mem, &sub->readback);
}

static VkDeviceSize tsr__vk_arena_round(const struct tsr__vk_submit *sub, VkDeviceSize bytes)
{
    VkDeviceSize a = sub->mem->alignment;
    return (bytes + a - 1) / a * a;
}

int tsr__vk_submit_begin(struct tsr__vk_submit *sub, uint32_t sets, VkDeviceSize arena_bytes,
                         VkCommandBuffer *cmd)
{
    struct tsr__vk_batch *batch = &sub->batches[sub->current];
    arena_bytes = tsr__vk_arena_round(sub, arena_bytes);
    if (batch->state == TSR__VK_BATCH_RECORDING &&
        (batch->sets_used + sets > TSR__VK_SETS_PER_BATCH ||
         batch->arena_used + arena_bytes > batch->arena.size)) {
        int status = tsr__vk_submit_flush(sub);
        if (status != TSR_OK)
            return status;
        batch = &sub->batches[sub->current];
    }
    if (batch->state == TSR__VK_BATCH_PENDING) {
        int status = tsr__vk_batch_retire(sub, batch);
        if (status != TSR_OK)
            return status;
    }
    if (batch->state == TSR__VK_BATCH_IDLE) {
        VkCommandBufferBeginInfo info = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
        };
        VkResult r = sub->dev->fns.vkBeginCommandBuffer(batch->cmd, &info);
        if (r != VK_SUCCESS)
            return tsr__vk_fail(sub, "vkBeginCommandBuffer", r);
        /* Orders this batch after everything submitted before it. */
        tsr__vk_barrier(sub->dev, batch->cmd, TSR__VK_WORK_STAGES, TSR__VK_ACCESSES);
        batch->state = TSR__VK_BATCH_RECORDING;
    }
    if (sets > TSR__VK_SETS_PER_BATCH || arena_bytes > batch->arena.size)
        return tsr__vk_error(sub->dev->host, TSR_ERR_INVALID_ARGUMENT,
                             "command needs more transient space than a batch has");
    *cmd = batch->cmd;
    return TSR_OK;
}

VkDeviceSize tsr__vk_submit_arena(struct tsr__vk_submit *sub, VkDeviceSize bytes, void **ptr)
{
    struct tsr__vk_batch *batch = &sub->batches[sub->current];
    VkDeviceSize offset = batch->arena_used;
    batch->arena_used += tsr__vk_arena_round(sub, bytes);
    *ptr = (char *)batch->arena.mapped + offset;
    return offset;
}

VkBuffer tsr__vk_submit_arena_buffer(const struct tsr__vk_submit *sub)
{
    return sub->batches[sub->current].arena.buffer;
}

int tsr__vk_submit_set(struct tsr__vk_submit *sub, VkDescriptorSetLayout layout,
                       VkDescriptorSet *set)
{
    struct tsr__vk_batch *batch = &sub->batches[sub->current];
    VkDescriptorSetAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = batch->descriptors,
        .descriptorSetCount = 1,
        .pSetLayouts = &layout,
    };
    VkResult r = sub->dev->fns.vkAllocateDescriptorSets(sub->dev->device, &info, set);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkAllocateDescriptorSets", r);
    batch->sets_used++;
    return TSR_OK;
}

int tsr__vk_submit_upload_buffer(struct tsr__vk_submit *sub, VkDeviceSize bytes,
                                 struct tsr__vk_host_buffer **out)
{
    struct tsr__vk_batch *batch = &sub->batches[sub->current];
    if (batch->upload_count == batch->upload_capacity) {
        size_t capacity = batch->upload_capacity ? 2 * batch->upload_capacity : 4;
        struct tsr__vk_host_buffer *grown =
            realloc(batch->uploads, capacity * sizeof *batch->uploads);
        if (!grown)
            return tsr__vk_error(sub->dev->host, TSR_ERR_OUT_OF_MEMORY, "out of host memory");
        batch->uploads = grown;
        batch->upload_capacity = capacity;
    }
    struct tsr__vk_host_buffer *buffer = &batch->uploads[batch->upload_count];
    int status = tsr__vk_host_buffer_create(sub->mem, bytes, 0, buffer);
    if (status != TSR_OK)
        return status;
    batch->upload_count++;
    *out = buffer;
    return TSR_OK;
}

void tsr__vk_submit_use(struct tsr__vk_submit *sub, struct tsr__vk_buffer *buffer)
{
    buffer->last_use = sub->next_serial;
}

int tsr__vk_submit_end(struct tsr__vk_submit *sub)
{
    struct tsr__vk_batch *batch = &sub->batches[sub->current];
    tsr__vk_barrier(sub->dev, batch->cmd, TSR__VK_WORK_STAGES, TSR__VK_ACCESSES);
    if (++batch->commands >= TSR__VK_COMMANDS_PER_BATCH)
        return tsr__vk_submit_flush(sub);
    return TSR_OK;
}

int tsr__vk_submit_flush(struct tsr__vk_submit *sub)
{
    struct tsr__vk_device *dev = sub->dev;
    struct tsr__vk_fns *fns = &dev->fns;
    struct tsr__vk_batch *batch = &sub->batches[sub->current];
    if (batch->state != TSR__VK_BATCH_RECORDING)
        return TSR_OK;
    tsr__vk_barrier(dev, batch->cmd, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    VkResult r = fns->vkEndCommandBuffer(batch->cmd);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkEndCommandBuffer", r);
    VkSubmitInfo info = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &batch->cmd,
    };
    r = fns->vkQueueSubmit(dev->queue, 1, &info, batch->fence);
    if (r != VK_SUCCESS)
        return tsr__vk_fail(sub, "vkQueueSubmit", r);
    batch->serial = sub->next_serial++;
    batch->state = TSR__VK_BATCH_PENDING;
    sub->current = (sub->current + 1) % TSR__VK_BATCH_COUNT;
    return TSR_OK;
}

int tsr__vk_submit_wait(struct tsr__vk_submit *sub)
{
    int status = tsr__vk_submit_flush(sub);
    /* Retire in submission order so completed_serial only moves forward. */
    for (unsigned i = 0; i < TSR__VK_BATCH_COUNT && status == TSR_OK; ++i)
        status = tsr__vk_batch_retire(sub, &sub->batches[(sub->current + i) % TSR__VK_BATCH_COUNT]);
    if (status != TSR_OK)
        return status;
    volatile uint32_t *flags = sub->status.mapped;
    uint32_t seen = flags[0];
    if (seen) {
        flags[0] = 0;
        if (seen & TSR__VK_STATUS_INT_DIV_BY_ZERO)
            return tsr__vk_error(sub->dev->host, TSR_ERR_VALUE,
                                 "ZeroDivisionError: integer division by zero");
    }
    return TSR_OK;
}

void tsr__vk_submit_release(struct tsr__vk_submit *sub, struct tsr__vk_buffer *buffer)
{
    if (buffer->block && buffer->last_use > sub->completed_serial) {
        buffer->next = sub->deferred;
        sub->deferred = buffer;
        return;
    }
    tsr__vk_memory_release(sub->mem, buffer);
}
