#include "memory.h"

#include <stdlib.h>
#include <string.h>

#include "host.h"

static VkDeviceSize tsr__vk_align_up(VkDeviceSize value, VkDeviceSize alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

/* The first memory type allowed by `type_bits` with all `required` flags,
 * preferring one that also has `preferred`. Returns UINT32_MAX if none. */
static uint32_t tsr__vk_memory_type(const struct tsr__vk_device *dev, uint32_t type_bits,
                                    VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred)
{
    const VkPhysicalDeviceMemoryProperties *props = &dev->memory;
    for (int pass = 0; pass < 2; ++pass) {
        VkMemoryPropertyFlags want = pass == 0 ? required | preferred : required;
        for (uint32_t i = 0; i < props->memoryTypeCount; ++i)
            if ((type_bits & (1u << i)) && (props->memoryTypes[i].propertyFlags & want) == want)
                return i;
    }
    return UINT32_MAX;
}

/* Creates a buffer with its own memory. On failure leaves nothing behind. */
static VkResult tsr__vk_buffer_with_memory(struct tsr__vk_memory *mem, VkDeviceSize size,
                                           VkMemoryPropertyFlags required,
                                           VkMemoryPropertyFlags preferred, VkBuffer *buffer,
                                           VkDeviceMemory *memory)
{
    struct tsr__vk_device *dev = mem->dev;
    struct tsr__vk_fns *fns = &dev->fns;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = fns->vkCreateBuffer(dev->device, &info, NULL, buffer);
    if (r != VK_SUCCESS)
        return r;
    VkMemoryRequirements req;
    fns->vkGetBufferMemoryRequirements(dev->device, *buffer, &req);
    uint32_t type = tsr__vk_memory_type(dev, req.memoryTypeBits, required, preferred);
    if (type == UINT32_MAX) {
        fns->vkDestroyBuffer(dev->device, *buffer, NULL);
        return VK_ERROR_FEATURE_NOT_PRESENT;
    }
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    r = fns->vkAllocateMemory(dev->device, &alloc, NULL, memory);
    if (r == VK_SUCCESS)
        r = fns->vkBindBufferMemory(dev->device, *buffer, *memory, 0);
    else
        *memory = VK_NULL_HANDLE;
    if (r != VK_SUCCESS) {
        if (*memory)
            fns->vkFreeMemory(dev->device, *memory, NULL);
        fns->vkDestroyBuffer(dev->device, *buffer, NULL);
    }
    return r;
}

/* ------------------------------------------------------------------------ */
/* Blocks                                                                    */
/* ------------------------------------------------------------------------ */

static struct tsr__vk_block *tsr__vk_block_create(struct tsr__vk_memory *mem, VkDeviceSize size,
                                                  int dedicated, VkResult *result)
{
    struct tsr__vk_block *block = calloc(1, sizeof *block);
    struct tsr__vk_range *range = calloc(1, sizeof *range);
    if (!block || !range) {
        free(block);
        free(range);
        *result = VK_ERROR_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    *result = tsr__vk_buffer_with_memory(mem, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                                         &block->buffer, &block->memory);
    if (*result != VK_SUCCESS) {
        free(block);
        free(range);
        return NULL;
    }
    block->size = size;
    block->dedicated = dedicated;
    range->size = size;
    block->free = range;
    block->next = mem->blocks;
    mem->blocks = block;
    return block;
}

static void tsr__vk_block_destroy(struct tsr__vk_memory *mem, struct tsr__vk_block *block)
{
    struct tsr__vk_fns *fns = &mem->dev->fns;
    for (struct tsr__vk_block **p = &mem->blocks; *p; p = &(*p)->next) {
        if (*p == block) {
            *p = block->next;
            break;
        }
    }
    while (block->free) {
        struct tsr__vk_range *next = block->free->next;
        free(block->free);
        block->free = next;
    }
    fns->vkDestroyBuffer(mem->dev->device, block->buffer, NULL);
    fns->vkFreeMemory(mem->dev->device, block->memory, NULL);
    free(block);
}

/* First fit. Returns 1 and the offset when the block has room. */
static int tsr__vk_block_take(struct tsr__vk_block *block, VkDeviceSize size, VkDeviceSize *offset)
{
    for (struct tsr__vk_range **p = &block->free; *p; p = &(*p)->next) {
        struct tsr__vk_range *range = *p;
        if (range->size < size)
            continue;
        *offset = range->offset;
        range->offset += size;
        range->size -= size;
        if (range->size == 0) {
            *p = range->next;
            free(range);
        }
        block->used += size;
        return 1;
    }
    return 0;
}

/* Puts [offset, offset + size) back, merging with its neighbours. Returns 0
 * only when no list node could be allocated (the range is then leaked, which
 * costs address space but never correctness). */
static int tsr__vk_block_give(struct tsr__vk_block *block, VkDeviceSize offset, VkDeviceSize size)
{
    block->used -= size;
    struct tsr__vk_range *prev = NULL, *next = block->free;
    while (next && next->offset < offset) {
        prev = next;
        next = next->next;
    }
    int joins_prev = prev && prev->offset + prev->size == offset;
    int joins_next = next && offset + size == next->offset;
    if (joins_prev && joins_next) {
        prev->size += size + next->size;
        prev->next = next->next;
        free(next);
    } else if (joins_prev) {
        prev->size += size;
    } else if (joins_next) {
        next->offset = offset;
        next->size += size;
    } else {
        struct tsr__vk_range *range = malloc(sizeof *range);
        if (!range)
            return 0;
        range->offset = offset;
        range->size = size;
        range->next = next;
        if (prev)
            prev->next = range;
        else
            block->free = range;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Public                                                                    */
/* ------------------------------------------------------------------------ */

void tsr__vk_memory_init(struct tsr__vk_memory *mem, struct tsr__vk_device *dev)
{
    memset(mem, 0, sizeof *mem);
    mem->dev = dev;
    VkDeviceSize align = dev->props.limits.minStorageBufferOffsetAlignment;
    mem->alignment = align > 16 ? align : 16;
    VkPhysicalDeviceMaintenance3Properties m3 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
    };
    VkPhysicalDeviceProperties2 props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
        .pNext = &m3,
    };
    dev->fns.vkGetPhysicalDeviceProperties2(dev->physical, &props);
    mem->max_allocation =
        m3.maxMemoryAllocationSize ? m3.maxMemoryAllocationSize : (VkDeviceSize)1 << 30;
}

void tsr__vk_memory_shutdown(struct tsr__vk_memory *mem)
{
    while (mem->blocks)
        tsr__vk_block_destroy(mem, mem->blocks);
}

int tsr__vk_memory_alloc(struct tsr__vk_memory *mem, size_t bytes, struct tsr__vk_buffer **out)
{
    const tsr_host_api *host = mem->dev->host;
    struct tsr__vk_buffer *buffer = calloc(1, sizeof *buffer);
    if (!buffer)
        return tsr__vk_error(host, TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    if (bytes == 0) {
        *out = buffer;
        return TSR_OK;
    }
    VkDeviceSize size = tsr__vk_align_up((VkDeviceSize)bytes, mem->alignment);
    if ((VkDeviceSize)bytes > mem->max_allocation || size < (VkDeviceSize)bytes) {
        free(buffer);
        return tsr__vk_error(host, TSR_ERR_OUT_OF_MEMORY,
                             "%zu bytes exceed the device's largest allocation (%llu bytes)", bytes,
                             (unsigned long long)mem->max_allocation);
    }
    struct tsr__vk_block *block = NULL;
    VkDeviceSize offset = 0;
    VkResult r = VK_SUCCESS;
    if (size > TSR__VK_BLOCK_SIZE / 2) {
        block = tsr__vk_block_create(mem, size, 1, &r);
        if (block)
            tsr__vk_block_take(block, size, &offset);
    } else {
        for (block = mem->blocks; block; block = block->next)
            if (!block->dedicated && tsr__vk_block_take(block, size, &offset))
                break;
        if (!block) {
            VkDeviceSize block_size = TSR__VK_BLOCK_SIZE;
            if (block_size > mem->max_allocation)
                block_size = tsr__vk_align_up(size, mem->alignment);
            block = tsr__vk_block_create(mem, block_size, 0, &r);
            if (block)
                tsr__vk_block_take(block, size, &offset);
        }
    }
    if (!block) {
        free(buffer);
        return tsr__vk_error(host, TSR_ERR_OUT_OF_MEMORY,
                             "cannot allocate %zu bytes of device memory (%s)", bytes,
                             tsr__vk_result_name(r));
    }
    buffer->block = block;
    buffer->offset = offset;
    buffer->size = bytes;
    buffer->reserved = size;
    mem->bytes_in_use += size;
    *out = buffer;
    return TSR_OK;
}

void tsr__vk_memory_release(struct tsr__vk_memory *mem, struct tsr__vk_buffer *buffer)
{
    struct tsr__vk_block *block = buffer->block;
    if (block) {
        tsr__vk_block_give(block, buffer->offset, buffer->reserved);
        mem->bytes_in_use -= buffer->reserved;
        if (block->used == 0) {
            /* Keep one empty shared block so a free/alloc cycle does not
             * create and destroy device memory each time. */
            int spare = 0;
            for (struct tsr__vk_block *b = mem->blocks; b; b = b->next)
                if (b != block && !b->dedicated && b->used == 0)
                    spare = 1;
            if (block->dedicated || spare)
                tsr__vk_block_destroy(mem, block);
        }
    }
    free(buffer);
}

int tsr__vk_host_buffer_create(struct tsr__vk_memory *mem, VkDeviceSize size, int readback,
                               struct tsr__vk_host_buffer *out)
{
    struct tsr__vk_device *dev = mem->dev;
    memset(out, 0, sizeof *out);
    VkResult r = tsr__vk_buffer_with_memory(
        mem, size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        readback ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0, &out->buffer, &out->memory);
    if (r == VK_SUCCESS) {
        r = dev->fns.vkMapMemory(dev->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->mapped);
        if (r != VK_SUCCESS) {
            dev->fns.vkDestroyBuffer(dev->device, out->buffer, NULL);
            dev->fns.vkFreeMemory(dev->device, out->memory, NULL);
        }
    }
    if (r != VK_SUCCESS) {
        memset(out, 0, sizeof *out);
        return tsr__vk_error(dev->host, TSR_ERR_OUT_OF_MEMORY,
                             "cannot create a %llu-byte staging buffer (%s)",
                             (unsigned long long)size, tsr__vk_result_name(r));
    }
    out->size = size;
    return TSR_OK;
}

void tsr__vk_host_buffer_destroy(struct tsr__vk_memory *mem, struct tsr__vk_host_buffer *buffer)
{
    struct tsr__vk_device *dev = mem->dev;
    if (buffer->buffer)
        dev->fns.vkDestroyBuffer(dev->device, buffer->buffer, NULL);
    if (buffer->memory) {
        dev->fns.vkUnmapMemory(dev->device, buffer->memory);
        dev->fns.vkFreeMemory(dev->device, buffer->memory, NULL);
    }
    memset(buffer, 0, sizeof *buffer);
}
