/* The elementwise kernel functions the kernel table registers
 * (kernel_elementwise.c). */
#ifndef TSR_CUDA_KERNEL_ELEMENTWISE_H
#define TSR_CUDA_KERNEL_ELEMENTWISE_H

#include <stdint.h>

#include <tessera/plugin.h>

struct tsr__cu_backend;
/* Queues a same-dtype copy between two layouts of `shape` (strides in
 * elements); the caller holds the backend lock. */
int tsr__cu_copy_layout(struct tsr__cu_backend *b, int32_t dtype, int32_t ndim,
                        const int64_t *shape, char *dst, const int64_t *dst_strides,
                        const char *src, const int64_t *src_strides);
/* copy between any two dtypes, over any strides. */
int tsr__cu_kernel_copy(void *backend, const tsr_kernel_args *args);
/* where(condition bool, a, b), moving elements bit for bit. */
int tsr__cu_kernel_where(void *backend, const tsr_kernel_args *args);
/* fill and every other op of elem_table.c. */
int tsr__cu_kernel_elementwise(void *backend, const tsr_kernel_args *args);

#endif
