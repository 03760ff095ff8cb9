/* The launchers the .cu files export to the C host code. */
#ifndef TSR_CUDA_KERNELS_H
#define TSR_CUDA_KERNELS_H

#include <stdint.h>

#include <cuda_runtime_api.h>
#include <tessera/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A strided operand as a kernel reads it: passed by value. */
typedef struct tsr__cu_strided {
    char *data;
    int32_t ndim;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS]; /* in elements */
} tsr__cu_strided;

/* Same-dtype copy over any strides (0 strides on the input included), by
 * element size: 1, 2, 4, 8 or 16 bytes. */
cudaError_t tsr__cu_launch_copy(cudaStream_t stream, tsr__cu_strided dst, tsr__cu_strided src,
                                int32_t element_size, int64_t count);

#ifdef __cplusplus
}
#endif

#endif
