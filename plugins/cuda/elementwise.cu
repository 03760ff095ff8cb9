// The one elementwise launcher: fill, copy/conversion, where and every op
// of elem_table.c, over any strides and broadcasts (0 strides) without
// copies. The host collapses dims first (tsr__cu_collapse); the kernel is
// templated on the index type (32-bit when every offset fits, 64-bit
// otherwise) and on the path: strided (one element per thread, offsets
// from the linear index) or contiguous (TSR__CU_VEC elements per thread,
// moved with one vector load/store per operand). The per-element work is
// tsr__cu_elem_apply from elem_ops.h, the code the host test checks.
#include <stdint.h>

#include "elementwise_launch.h"
#include "launch_plan.h"

namespace
{

using Params = tsr__cu_elem_params;

template <typename Index> __device__ void offsets_of(const Params &p, Index linear, Index *offsets)
{
    for (int k = 0; k <= p.arity; k++)
        offsets[k] = 0;
    for (int32_t d = p.layout.ndim - 1; d >= 0; d--) {
        Index extent = (Index)p.layout.shape[d];
        Index i = linear % extent;
        linear /= extent;
        for (int k = 0; k <= p.arity; k++)
            offsets[k] += i * (Index)p.layout.strides[k][d];
    }
}

__device__ tsr__cu_value load_operand(const Params &p, int k, const char *ptr)
{
    return (p.raw_mask >> k) & 1 ? tsr__cu_load_raw(p.size[k], ptr) : tsr__cu_load(p.dtype[k], ptr);
}

__device__ void store_output(const Params &p, char *ptr, tsr__cu_value v)
{
    if (p.raw_mask & 1)
        tsr__cu_store_raw(p.size[0], ptr, v);
    else
        tsr__cu_store(p.dtype[0], (tsr__cu_category)p.out_category, ptr, v);
}

__device__ void one_element(const Params &p, char *out, const char *const *in_ptrs)
{
    tsr__cu_value in[TSR__CU_MAX_OPERANDS - 1];
    for (int k = 1; k <= p.arity; k++)
        in[k - 1] = load_operand(p, k, in_ptrs[k - 1]);
    store_output(p, out, tsr__cu_elem_apply(&p.ctx, in));
}

template <typename Index> __global__ void strided_kernel(Params p)
{
    const Index count = (Index)p.count, step = (Index)gridDim.x * blockDim.x;
    for (Index i = (Index)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
        Index off[TSR__CU_MAX_OPERANDS];
        offsets_of<Index>(p, i, off);
        const char *in_ptrs[TSR__CU_MAX_OPERANDS - 1];
        for (int k = 1; k <= p.arity; k++)
            in_ptrs[k - 1] = p.data[k] + (int64_t)off[k] * p.size[k];
        one_element(p, p.data[0] + (int64_t)off[0] * p.size[0], in_ptrs);
    }
}

// Moves `bytes` (TSR__CU_VEC elements: 4 to 64 bytes, aligned to that
// size) in as few 16-byte (or smaller) words as it takes.
__device__ void move_vector(void *dst, const void *src, int bytes)
{
    switch (bytes) {
    case 4:
        *(uint32_t *)dst = *(const uint32_t *)src;
        break;
    case 8:
        *(uint2 *)dst = *(const uint2 *)src;
        break;
    default:
        for (int w = 0; w < bytes / 16; w++)
            ((uint4 *)dst)[w] = ((const uint4 *)src)[w];
        break;
    }
}

// Contiguous operands: each thread owns TSR__CU_VEC consecutive elements,
// read with one vector load per stride-1 operand into registers (or local
// memory) and decoded there; a broadcast input (stride 0) is read once.
// The tail of fewer than TSR__CU_VEC elements runs element by element.
template <typename Index> __global__ void vector_kernel(Params p)
{
    const Index groups = (Index)(p.count / TSR__CU_VEC), step = (Index)gridDim.x * blockDim.x;
    for (Index g = (Index)blockIdx.x * blockDim.x + threadIdx.x; g <= groups; g += step) {
        const Index first = g * TSR__CU_VEC;
        if (g == groups) { // the tail, by one thread
            for (Index i = first; i < (Index)p.count; i++) {
                const char *in_ptrs[TSR__CU_MAX_OPERANDS - 1];
                for (int k = 1; k <= p.arity; k++)
                    in_ptrs[k - 1] =
                        p.data[k] + ((p.broadcast_mask >> k) & 1 ? 0 : (int64_t)i * p.size[k]);
                one_element(p, p.data[0] + (int64_t)i * p.size[0], in_ptrs);
            }
            continue;
        }
        alignas(16) unsigned char buffer[TSR__CU_MAX_OPERANDS][TSR__CU_VEC * 16];
        for (int k = 1; k <= p.arity; k++) {
            if ((p.broadcast_mask >> k) & 1)
                continue;
            move_vector(buffer[k], p.data[k] + (int64_t)first * p.size[k], TSR__CU_VEC * p.size[k]);
        }
        for (int j = 0; j < TSR__CU_VEC; j++) {
            const char *in_ptrs[TSR__CU_MAX_OPERANDS - 1];
            for (int k = 1; k <= p.arity; k++)
                in_ptrs[k - 1] = (p.broadcast_mask >> k) & 1
                                     ? p.data[k]
                                     : (const char *)buffer[k] + j * p.size[k];
            one_element(p, (char *)buffer[0] + j * p.size[0], in_ptrs);
        }
        move_vector(p.data[0] + (int64_t)first * p.size[0], buffer[0], TSR__CU_VEC * p.size[0]);
    }
}

// Sets *found when any element of the (integer) operand is zero.
template <typename Index> __global__ void zero_scan_kernel(Params p, int *found)
{
    const Index count = (Index)p.count, step = (Index)gridDim.x * blockDim.x;
    for (Index i = (Index)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
        Index off[TSR__CU_MAX_OPERANDS];
        offsets_of<Index>(p, i, off);
        if (tsr__cu_load(p.dtype[0], p.data[0] + (int64_t)off[0] * p.size[0]).i == 0)
            *found = 1;
    }
}

} // namespace

extern "C" cudaError_t tsr__cu_launch_elementwise(cudaStream_t stream, const Params *p,
                                                  int use_int32, int vectorized)
{
    if (p->count <= 0)
        return cudaSuccess;
    if (vectorized) {
        tsr__cu_grid grid = tsr__cu_plan_elementwise(p->count / TSR__CU_VEC + 1);
        if (use_int32)
            vector_kernel<uint32_t><<<grid.blocks, grid.threads, 0, stream>>>(*p);
        else
            vector_kernel<int64_t><<<grid.blocks, grid.threads, 0, stream>>>(*p);
    } else {
        tsr__cu_grid grid = tsr__cu_plan_elementwise(p->count);
        if (use_int32)
            strided_kernel<uint32_t><<<grid.blocks, grid.threads, 0, stream>>>(*p);
        else
            strided_kernel<int64_t><<<grid.blocks, grid.threads, 0, stream>>>(*p);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t tsr__cu_launch_zero_scan(cudaStream_t stream, const Params *p, int use_int32,
                                                int *found)
{
    if (p->count <= 0)
        return cudaSuccess;
    tsr__cu_grid grid = tsr__cu_plan_elementwise(p->count);
    if (use_int32)
        zero_scan_kernel<uint32_t><<<grid.blocks, grid.threads, 0, stream>>>(*p, found);
    else
        zero_scan_kernel<int64_t><<<grid.blocks, grid.threads, 0, stream>>>(*p, found);
    return cudaGetLastError();
}
