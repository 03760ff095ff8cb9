// The copy family: a same-dtype copy over any strides, one thread per
// element, moving each element as one unsigned word of its size.
#include <stdint.h>

#include "kernels.h"
#include "launch_plan.h"

namespace {

struct u128 {
    uint64_t lo, hi;
};

__device__ int64_t offset_of(const tsr__cu_strided &t, int64_t linear)
{
    int64_t offset = 0;
    for (int32_t d = t.ndim - 1; d >= 0; d--) {
        int64_t i = linear % t.shape[d];
        linear /= t.shape[d];
        offset += i * t.strides[d];
    }
    return offset;
}

template <typename T>
__global__ void copy_kernel(tsr__cu_strided dst, tsr__cu_strided src, int64_t count)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
        const T *in = reinterpret_cast<const T *>(src.data) + offset_of(src, i);
        T *out = reinterpret_cast<T *>(dst.data) + offset_of(dst, i);
        *out = *in;
    }
}

template <typename T>
cudaError_t launch(cudaStream_t stream, const tsr__cu_strided &dst, const tsr__cu_strided &src,
                   int64_t count)
{
    tsr__cu_grid grid = tsr__cu_plan_elementwise(count);
    copy_kernel<T><<<grid.blocks, grid.threads, 0, stream>>>(dst, src, count);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t tsr__cu_launch_copy(cudaStream_t stream, tsr__cu_strided dst,
                                           tsr__cu_strided src, int32_t element_size,
                                           int64_t count)
{
    if (count <= 0)
        return cudaSuccess;
    switch (element_size) {
    case 1: return launch<uint8_t>(stream, dst, src, count);
    case 2: return launch<uint16_t>(stream, dst, src, count);
    case 4: return launch<uint32_t>(stream, dst, src, count);
    case 8: return launch<uint64_t>(stream, dst, src, count);
    case 16: return launch<u128>(stream, dst, src, count);
    default: return cudaErrorInvalidValue;
    }
}
