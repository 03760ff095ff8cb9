/* What the host passes the elementwise kernels (elementwise.cu), by value:
 * the collapsed layout, each operand's pointer and dtype, and the bound
 * constants. Operand 0 is the output. */
#ifndef TSR_CUDA_ELEMENTWISE_LAUNCH_H
#define TSR_CUDA_ELEMENTWISE_LAUNCH_H

#include <cuda_runtime_api.h>

#include "elem_ops.h"
#include "launch_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsr__cu_elem_params {
    tsr__cu_layout layout;
    char *data[TSR__CU_MAX_OPERANDS];
    int32_t dtype[TSR__CU_MAX_OPERANDS];
    int32_t size[TSR__CU_MAX_OPERANDS];
    int32_t arity;
    int32_t out_category;    /* what tsr__cu_elem_apply returns: tsr__cu_category */
    uint32_t raw_mask;       /* bit k: operand k moves as raw bits (where, equal-dtype copy) */
    uint32_t broadcast_mask; /* bit k: input k is one element (vectorised path only) */
    int64_t count;
    tsr__cu_elem_ctx ctx;
} tsr__cu_elem_params;

/* Queues the kernel; use_int32 when tsr__cu_layout_fits_int32, vectorized
 * when tsr__cu_layout_vectorizable (layout.ndim <= 1). */
cudaError_t tsr__cu_launch_elementwise(cudaStream_t stream, const tsr__cu_elem_params *params,
                                       int use_int32, int vectorized);
/* Queues a scan of operand 0 (an integer tensor) that sets *found (device
 * memory) to 1 when an element is 0. */
cudaError_t tsr__cu_launch_zero_scan(cudaStream_t stream, const tsr__cu_elem_params *params,
                                     int use_int32, int *found);

#ifdef __cplusplus
}
#endif

#endif
