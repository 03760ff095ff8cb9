#include "transfer.h"

#include <string.h>

#include "host.h"

/* Uploads up to this size go through the batch arena. */
#define TSR__VK_INLINE_UPLOAD ((size_t)256 << 10)
/* Larger transfers move in chunks of this size. */
#define TSR__VK_CHUNK ((size_t)64 << 20)

static int tsr__vk_check_range(struct tsr__vk_backend *b, const struct tsr__vk_buffer *buffer,
                               size_t offset, size_t bytes, const char *what)
{
    if (!buffer)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s: no memory handle", what);
    if (offset > buffer->size || bytes > buffer->size - offset)
        return tsr__vk_error(b->host, TSR_ERR_INDEX,
                             "%s: bytes [%zu, %zu) outside a %llu-byte allocation", what, offset,
                             offset + bytes, (unsigned long long)buffer->size);
    return TSR_OK;
}

static void tsr__vk_record_copy(struct tsr__vk_backend *b, VkCommandBuffer cmd, VkBuffer src,
                                VkDeviceSize src_offset, VkBuffer dst, VkDeviceSize dst_offset,
                                VkDeviceSize bytes)
{
    VkBufferCopy region = {src_offset, dst_offset, bytes};
    b->device.fns.vkCmdCopyBuffer(cmd, src, dst, 1, &region);
}

int tsr__vk_transfer_upload(struct tsr__vk_backend *b, struct tsr__vk_buffer *dst,
                            size_t dst_offset, const void *src, size_t bytes)
{
    int status = tsr__vk_check_range(b, dst, dst_offset, bytes, "copy_from_host");
    if (status != TSR_OK || bytes == 0)
        return status;
    if (!src)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "copy_from_host: NULL source");
    const char *from = src;
    while (bytes > 0 && status == TSR_OK) {
        size_t n = bytes < TSR__VK_CHUNK ? bytes : TSR__VK_CHUNK;
        int inline_copy = n <= TSR__VK_INLINE_UPLOAD;
        VkCommandBuffer cmd;
        status = tsr__vk_submit_begin(&b->submit, 0, inline_copy ? n : 0, &cmd);
        if (status != TSR_OK)
            break;
        VkBuffer staging;
        VkDeviceSize staging_offset = 0;
        void *mapped;
        if (inline_copy) {
            staging_offset = tsr__vk_submit_arena(&b->submit, n, &mapped);
            staging = tsr__vk_submit_arena_buffer(&b->submit);
        } else {
            struct tsr__vk_host_buffer *upload;
            status = tsr__vk_submit_upload_buffer(&b->submit, n, &upload);
            if (status != TSR_OK)
                break;
            staging = upload->buffer;
            mapped = upload->mapped;
        }
        memcpy(mapped, from, n);
        tsr__vk_record_copy(b, cmd, staging, staging_offset, dst->block->buffer,
                            dst->offset + dst_offset, n);
        tsr__vk_submit_use(&b->submit, dst);
        status = tsr__vk_submit_end(&b->submit);
        /* A large chunk goes to the device now, so the batches in flight,
         * not the whole transfer, bound the staging memory. */
        if (status == TSR_OK && !inline_copy)
            status = tsr__vk_submit_flush(&b->submit);
        from += n;
        dst_offset += n;
        bytes -= n;
    }
    return status;
}

static int tsr__vk_readback_room(struct tsr__vk_backend *b, size_t bytes)
{
    struct tsr__vk_host_buffer *rb = &b->submit.readback;
    if (rb->buffer && rb->size >= bytes)
        return TSR_OK;
    /* Nothing pending uses the readback buffer between downloads. */
    tsr__vk_host_buffer_destroy(&b->memory, rb);
    VkDeviceSize size = bytes < ((size_t)1 << 20) ? ((size_t)1 << 20) : bytes;
    return tsr__vk_host_buffer_create(&b->memory, size, 1, rb);
}

int tsr__vk_transfer_download(struct tsr__vk_backend *b, void *dst, struct tsr__vk_buffer *src,
                              size_t src_offset, size_t bytes)
{
    int status = tsr__vk_check_range(b, src, src_offset, bytes, "copy_to_host");
    if (status != TSR_OK || bytes == 0)
        return status;
    if (!dst)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "copy_to_host: NULL destination");
    status = tsr__vk_readback_room(b, bytes < TSR__VK_CHUNK ? bytes : TSR__VK_CHUNK);
    char *to = dst;
    while (bytes > 0 && status == TSR_OK) {
        size_t n = bytes < TSR__VK_CHUNK ? bytes : TSR__VK_CHUNK;
        VkCommandBuffer cmd;
        status = tsr__vk_submit_begin(&b->submit, 0, 0, &cmd);
        if (status != TSR_OK)
            break;
        tsr__vk_record_copy(b, cmd, src->block->buffer, src->offset + src_offset,
                            b->submit.readback.buffer, 0, n);
        tsr__vk_submit_use(&b->submit, src);
        status = tsr__vk_submit_end(&b->submit);
        if (status == TSR_OK)
            status = tsr__vk_submit_wait(&b->submit);
        if (status == TSR_OK)
            memcpy(to, b->submit.readback.mapped, n);
        to += n;
        src_offset += n;
        bytes -= n;
    }
    return status;
}

static int tsr__vk_overlap(const struct tsr__vk_buffer *a, size_t a_offset,
                           const struct tsr__vk_buffer *b, size_t b_offset, size_t bytes)
{
    if (a->block != b->block)
        return 0;
    VkDeviceSize x = a->offset + a_offset, y = b->offset + b_offset;
    return x < y + bytes && y < x + bytes;
}

int tsr__vk_transfer_device(struct tsr__vk_backend *b, struct tsr__vk_buffer *dst,
                            size_t dst_offset, struct tsr__vk_buffer *src, size_t src_offset,
                            size_t bytes)
{
    int status = tsr__vk_check_range(b, dst, dst_offset, bytes, "copy_on_device (destination)");
    if (status == TSR_OK)
        status = tsr__vk_check_range(b, src, src_offset, bytes, "copy_on_device (source)");
    if (status != TSR_OK || bytes == 0)
        return status;
    if (tsr__vk_overlap(dst, dst_offset, src, src_offset, bytes)) {
        /* vkCmdCopyBuffer forbids overlapping regions: go through a copy. */
        struct tsr__vk_buffer *tmp;
        status = tsr__vk_memory_alloc(&b->memory, bytes, &tmp);
        if (status != TSR_OK)
            return status;
        status = tsr__vk_transfer_device(b, tmp, 0, src, src_offset, bytes);
        if (status == TSR_OK)
            status = tsr__vk_transfer_device(b, dst, dst_offset, tmp, 0, bytes);
        tsr__vk_submit_release(&b->submit, tmp);
        return status;
    }
    VkCommandBuffer cmd;
    status = tsr__vk_submit_begin(&b->submit, 0, 0, &cmd);
    if (status != TSR_OK)
        return status;
    tsr__vk_record_copy(b, cmd, src->block->buffer, src->offset + src_offset, dst->block->buffer,
                        dst->offset + dst_offset, bytes);
    tsr__vk_submit_use(&b->submit, src);
    tsr__vk_submit_use(&b->submit, dst);
    return tsr__vk_submit_end(&b->submit);
}
