/* The reduction launcher reduce.cu exports to the host code. */
#ifndef TSR_CUDA_REDUCE_LAUNCH_H
#define TSR_CUDA_REDUCE_LAUNCH_H

#include <cuda_runtime_api.h>

#include "reduce_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Queues every phase of the plan. `parts` holds out_count * blocks
 * partials and `kept` out_count values, both device memory. */
cudaError_t tsr__cu_launch_reduce(cudaStream_t stream, const tsr__cu_reduce_plan *plan,
                                  tsr__cu_partial *parts, tsr__cu_value *kept);

#ifdef __cplusplus
}
#endif

#endif
