// The reduction kernels: per phase, kernel A computes every (output,
// 1024-term block) partial, one thread each, and kernel B combines each
// output's partials in the fixed order and finishes it, one thread per
// output. Both run the __host__ __device__ functions of reduce_ops.h that
// the host test checks; every scratch value has exactly one writer, so no
// atomics, and the result does not depend on the grid.
#include "launch_plan.h"
#include "reduce_launch.h"

namespace
{

__global__ void block_kernel(tsr__cu_reduce_plan p, int phase, tsr__cu_partial *parts,
                             const tsr__cu_value *kept)
{
    const int64_t total = p.out_count * p.blocks, step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += step) {
        int64_t o = t / p.blocks, b = t % p.blocks;
        parts[t] = tsr__cu_reduce_block(&p, phase, o, b, kept[o]);
    }
}

__global__ void finish_kernel(tsr__cu_reduce_plan p, int phase, tsr__cu_partial *parts,
                              tsr__cu_value *kept)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < p.out_count; o += step)
        tsr__cu_reduce_finish(&p, phase, o, parts + o * p.blocks, &kept[o]);
}

} // namespace

extern "C" cudaError_t tsr__cu_launch_reduce(cudaStream_t stream, const tsr__cu_reduce_plan *p,
                                             tsr__cu_partial *parts, tsr__cu_value *kept)
{
    if (p->out_count <= 0)
        return cudaSuccess;
    for (int phase = 0; phase < p->phases; phase++) {
        if (p->blocks > 0) {
            tsr__cu_grid a = tsr__cu_plan_elementwise(p->out_count * p->blocks);
            block_kernel<<<a.blocks, a.threads, 0, stream>>>(*p, phase, parts, kept);
        }
        tsr__cu_grid b = tsr__cu_plan_elementwise(p->out_count);
        finish_kernel<<<b.blocks, b.threads, 0, stream>>>(*p, phase, parts, kept);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}
