/* copy_from_host, copy_to_host and copy_on_device (transfer.c). */
#ifndef TSR_CUDA_TRANSFER_H
#define TSR_CUDA_TRANSFER_H

#include <stddef.h>

struct tsr__cu_backend;
int tsr__cu_upload(struct tsr__cu_backend *b, void *dst, size_t dst_offset, const void *src,
                   size_t bytes);
int tsr__cu_download(struct tsr__cu_backend *b, void *dst, const void *src, size_t src_offset,
                     size_t bytes);
int tsr__cu_device_copy(struct tsr__cu_backend *b, void *dst, size_t dst_offset, const void *src,
                        size_t src_offset, size_t bytes);

#endif
