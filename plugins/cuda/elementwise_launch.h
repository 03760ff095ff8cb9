/* The elementwise launchers elementwise.cu exports to the host code. */
#ifndef TSR_CUDA_ELEMENTWISE_LAUNCH_H
#define TSR_CUDA_ELEMENTWISE_LAUNCH_H

#include <cuda_runtime_api.h>

#include "elem_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Queues the kernel for params planned by tsr__cu_elem_plan (path and
 * index width chosen). */
cudaError_t tsr__cu_launch_elementwise(cudaStream_t stream, const tsr__cu_elem_params *params);
/* Queues a scan of operand 0 (an integer tensor) that sets *found (device
 * memory) to 1 when an element is 0. */
cudaError_t tsr__cu_launch_zero_scan(cudaStream_t stream, const tsr__cu_elem_params *params,
                                     int *found);

#ifdef __cplusplus
}
#endif

#endif
