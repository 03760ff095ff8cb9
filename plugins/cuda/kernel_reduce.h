/* The reduction kernel function the kernel table registers (kernel_reduce.c). */
#ifndef TSR_CUDA_KERNEL_REDUCE_H
#define TSR_CUDA_KERNEL_REDUCE_H

#include <tessera/plugin.h>

/* Every op of reduce_table.c, over any strides. */
int tsr__cu_kernel_reduce(void *backend, const tsr_kernel_args *args);

#endif
