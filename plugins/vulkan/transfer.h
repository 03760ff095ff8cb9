/* Host <-> device and device <-> device copies.
 *
 * Uploads are copied into host-visible staging memory at once (the source
 * may be reused as soon as the call returns) and recorded into the current
 * batch; small ones use the batch's arena, large ones a staging buffer of
 * their own, in chunks so at most a few chunks are in flight. Downloads
 * record a copy into a readback buffer, submit, wait, and copy out: the only
 * place besides synchronize where the host waits for the device.
 */
#ifndef TSR_VULKAN_TRANSFER_H
#define TSR_VULKAN_TRANSFER_H

#include <stddef.h>

#include "backend.h"

int tsr__vk_transfer_upload(struct tsr__vk_backend *b, struct tsr__vk_buffer *dst,
                            size_t dst_offset, const void *src, size_t bytes);

int tsr__vk_transfer_download(struct tsr__vk_backend *b, void *dst, struct tsr__vk_buffer *src,
                              size_t src_offset, size_t bytes);

int tsr__vk_transfer_device(struct tsr__vk_backend *b, struct tsr__vk_buffer *dst,
                            size_t dst_offset, struct tsr__vk_buffer *src, size_t src_offset,
                            size_t bytes);

#endif /* TSR_VULKAN_TRANSFER_H */
