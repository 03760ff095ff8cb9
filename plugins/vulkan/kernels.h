/* The kernel functions the table points at, and which shader each
 * (op, dtype) runs on, so kernel_table.c can register exactly what the
 * device can create. */
#ifndef TSR_VULKAN_KERNELS_H
#define TSR_VULKAN_KERNELS_H

#include <stdint.h>

#include <tessera/plugin.h>

#include "device.h"

/* kernels_elementwise.c: the arithmetic, comparison, logical, unary, where
 * and clamp ops. Inputs arrive in the computation dtype, broadcast to the
 * output's shape (plugin.h). */
int tsr__vk_kernel_elementwise(void *backend, const tsr_kernel_args *args);

/* Whether `op` is one tsr__vk_kernel_elementwise runs. */
int tsr__vk_elementwise_op(int32_t op);

/* Whether `op` writes bool whatever its input dtype (comparisons, logical). */
int tsr__vk_elementwise_bool_out(int32_t op);

/* The shader (enum tsr__vk_shader) running `op` on `dtype`. */
int tsr__vk_elementwise_shader(int32_t op, int32_t dtype);

/* kernels_matmul.c: matmul on float32, and whether this device runs it. */
struct tsr__vk_backend;
int tsr__vk_kernel_matmul(void *backend, const tsr_kernel_args *args);
int tsr__vk_matmul_supported(const struct tsr__vk_backend *b);

/* kernels_copy.c: copy (any dtype to any dtype) and fill. */
int tsr__vk_kernel_copy(void *backend, const tsr_kernel_args *args);
int tsr__vk_kernel_fill(void *backend, const tsr_kernel_args *args);

/* The shader converting `from` to `to`. */
int tsr__vk_copy_shader(int32_t from, int32_t to);

/* kernel_table.c: whether tensors of `dtype` can live on this device
 * (kernels check it before trusting a dtype id), and whether a copy from
 * `from` to `to` runs here. */
int tsr__vk_dtype_held(const struct tsr__vk_device *dev, int32_t dtype);
int tsr__vk_copy_supported(const struct tsr__vk_device *dev, int32_t from, int32_t to);

#endif /* TSR_VULKAN_KERNELS_H */
