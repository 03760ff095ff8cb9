/* Host copies through pinned staging blocks: copy_from_host copies `src`
 * into a staging block and queues the upload, so it returns without waiting
 * and never reads `src` again; copy_to_host queues the download into
 * staging and waits, the one wait besides synchronize. */
#include <string.h>

#include "backend.h"
#include "transfer.h"

enum { STAGING_CHUNK = 8 << 20 };

int tsr__cu_upload(struct tsr__cu_backend *b, void *dst, size_t dst_offset, const void *src,
                   size_t bytes)
{
    for (size_t done = 0; done < bytes;) {
        size_t n = bytes - done < STAGING_CHUNK ? bytes - done : STAGING_CHUNK;
        tsr__cu_block *stage;
        if (tsr__cu_allocator_alloc(&b->pinned_pool, n, tsr__cu_fence_poll(b), &stage) != 0)
            return b->host->set_error(TSR_ERR_OUT_OF_MEMORY, "no pinned staging memory for %zu bytes", n);
        memcpy(stage->ptr, (const char *)src + done, n);
        cudaError_t err = cudaMemcpyAsync(tsr__cu_ptr(dst, (int64_t)(dst_offset + done)), stage->ptr,
                                          n, cudaMemcpyHostToDevice, b->stream);
        uint64_t fence = UINT64_MAX;
        int status = err == cudaSuccess ? tsr__cu_fence_record(b, &fence)
                                        : tsr__cu_error(b->host, err, "cudaMemcpyAsync");
        tsr__cu_allocator_free(&b->pinned_pool, stage, fence);
        if (status != TSR_OK)
            return status;
        done += n;
    }
    return TSR_OK;
}

int tsr__cu_download(struct tsr__cu_backend *b, void *dst, const void *src, size_t src_offset,
                     size_t bytes)
{
    for (size_t done = 0; done < bytes;) {
        size_t n = bytes - done < STAGING_CHUNK ? bytes - done : STAGING_CHUNK;
        tsr__cu_block *stage;
        if (tsr__cu_allocator_alloc(&b->pinned_pool, n, tsr__cu_fence_poll(b), &stage) != 0)
            return b->host->set_error(TSR_ERR_OUT_OF_MEMORY, "no pinned staging memory for %zu bytes", n);
        cudaError_t err = cudaMemcpyAsync(stage->ptr, tsr__cu_ptr(src, (int64_t)(src_offset + done)),
                                          n, cudaMemcpyDeviceToHost, b->stream);
        int status = err == cudaSuccess ? tsr__cu_wait_all(b)
                                        : tsr__cu_error(b->host, err, "cudaMemcpyAsync");
        if (status == TSR_OK)
            memcpy((char *)dst + done, stage->ptr, n);
        tsr__cu_allocator_free(&b->pinned_pool, stage, status == TSR_OK ? 0 : UINT64_MAX);
        if (status != TSR_OK)
            return status;
        done += n;
    }
    return TSR_OK;
}

int tsr__cu_device_copy(struct tsr__cu_backend *b, void *dst, size_t dst_offset, const void *src,
                        size_t src_offset, size_t bytes)
{
    if (bytes == 0)
        return TSR_OK;
    cudaError_t err = cudaMemcpyAsync(tsr__cu_ptr(dst, (int64_t)dst_offset),
                                      tsr__cu_ptr(src, (int64_t)src_offset), bytes,
                                      cudaMemcpyDeviceToDevice, b->stream);
    return err == cudaSuccess ? TSR_OK : tsr__cu_error(b->host, err, "cudaMemcpyAsync");
}
