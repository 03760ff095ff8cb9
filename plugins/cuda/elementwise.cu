// The one elementwise launcher: fill, copy/conversion, where and every op
// of elem_table.c, over any strides and broadcasts (0 strides) without
// copies. The host has collapsed the dims and chosen (elem_prepare.c) the
// index width (32-bit offsets when they fit, a branch uniform across the
// launch) and the path, the kernel's template parameter: strided (one
// element per thread) or vectorised (TSR__CU_VEC contiguous elements per
// thread, one vector load/store per operand). Each thread's work is
// elem_params.h's, the code the host tests run.
#include "elementwise_launch.h"

namespace
{

template <int Vectorized> __global__ void elementwise_kernel(tsr__cu_elem_params p)
{
    const int64_t work = Vectorized ? tsr__cu_elem_vector_groups(&p) : p.count;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < work; t += step) {
        if (Vectorized)
            tsr__cu_elem_vector_group(&p, t);
        else
            tsr__cu_elem_strided_one(&p, t);
    }
}

// Sets *found when any element of (integer) operand 0 is zero.
__global__ void zero_scan_kernel(tsr__cu_elem_params p, int *found)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.count; i += step) {
        int64_t off[TSR__CU_MAX_OPERANDS];
        tsr__cu_elem_offsets(&p, i, off);
        if (tsr__cu_load(p.dtype[0], p.data[0] + off[0] * p.size[0]).i == 0)
            *found = 1;
    }
}

} // namespace

extern "C" cudaError_t tsr__cu_launch_elementwise(cudaStream_t stream, const tsr__cu_elem_params *p)
{
    if (p->count <= 0)
        return cudaSuccess;
    if (p->vectorized) {
        tsr__cu_grid grid = tsr__cu_plan_elementwise(tsr__cu_elem_vector_groups(p));
        elementwise_kernel<1><<<grid.blocks, grid.threads, 0, stream>>>(*p);
    } else {
        tsr__cu_grid grid = tsr__cu_plan_elementwise(p->count);
        elementwise_kernel<0><<<grid.blocks, grid.threads, 0, stream>>>(*p);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t tsr__cu_launch_zero_scan(cudaStream_t stream, const tsr__cu_elem_params *p,
                                                int *found)
{
    if (p->count <= 0)
        return cudaSuccess;
    tsr__cu_grid grid = tsr__cu_plan_elementwise(p->count);
    zero_scan_kernel<<<grid.blocks, grid.threads, 0, stream>>>(*p, found);
    return cudaGetLastError();
}
