#version 450
#extension GL_GOOGLE_include_directive : require
#if defined(MATMUL_INT64)
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#endif
// Matrix product: out [..., M, N] = beta * c + alpha * (a [..., M, K] @ b [..., K, N]).
//
// One source, four accumulation types, picked by the stem's -D flag
// (CMakeLists.txt); DT_IN = DT_OUT is the storage dtype:
//   (none)          float:    float32, bfloat16 (widened exactly, rounded once on store)
//   MATMUL_INT      uint:     uint8, int8, int16, int32
//   MATMUL_INT64    uint64_t: int64 (needs shaderInt64)
//   MATMUL_FLOAT64  double:   float64 (needs shaderFloat64)
// Integer products and sums wrap modulo 2^32 or 2^64. The low n bits of a
// wrapped product or sum depend only on the low n bits of its operands, so
// storing the low bits equals PyTorch's wrap in the n-bit type, and narrow
// elements need no sign extension when loaded.
//
// One workgroup of 256 invocations computes a 16x16 tile of one matrix of
// the batch, staging 16x16 tiles of a and b through shared memory. Each
// output element sums its products k = 0, 1, ..., K - 1, so the result does
// not depend on the operands' layout. Workgroups step over the tiles
// (batch-major), so any number of tiles fits one dispatch.
//
// Metadata (products_launch.c, tsr__vk_launch_matmul): the output's full shape
// [..., M, N] and each operand's byte strides over its own dims (a's last
// two are M, K; b's K, N; c is expanded to the output's shape). Push
// constants: ndim = the output's rank (>= 2), numel = K, s0 = alpha and
// s1 = beta in the accumulation type (32-bit ones in the low word); MODE 1
// when c (input 2) is given. As in BLAS, alpha 0 skips the product, beta 0
// never reads c, and an alpha or beta of exactly 1 is not multiplied.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

#if defined(MATMUL_FLOAT64)
#define T double
#define PRECISE precise
T load_v(int slot, uint addr) { return packDouble2x32(tsr_load_bits64(slot, addr)); }
void store_v(uint addr, T v) { tsr_store_bits64(addr, unpackDouble2x32(v)); }
T coefficient(uvec2 bits) { return packDouble2x32(bits); }
#elif defined(MATMUL_INT64)
#define T uint64_t
#define PRECISE
T load_v(int slot, uint addr) { return packUint2x32(tsr_load_bits64(slot, addr)); }
void store_v(uint addr, T v) { tsr_store_bits64(addr, unpackUint2x32(v)); }
T coefficient(uvec2 bits) { return packUint2x32(bits); }
#elif defined(MATMUL_INT)
#define T uint
#define PRECISE
T load_v(int slot, uint addr) { return tsr_load_bits(slot, addr, tsr_size(DT_IN)); }
void store_v(uint addr, T v) { tsr_store_bits(addr, tsr_size(DT_OUT), v); }
T coefficient(uvec2 bits) { return bits.x; }
#else
#include "tm_prelude.glsl"
#include "tm_convert.glsl"
#define T float
#define PRECISE precise
T load_v(int slot, uint addr)
{
    if (DT_IN == TSR_BFLOAT16)
        return tm_bf16_to_f32(tsr_load_bits(slot, addr, 2));
    return uintBitsToFloat(tsr_load_bits(slot, addr, 4));
}
void store_v(uint addr, T v)
{
    if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(v));
    else
        tsr_store_bits(addr, 4, floatBitsToUint(v));
}
T coefficient(uvec2 bits) { return uintBitsToFloat(bits.x); }
#endif

#define TILE 16u

shared T tile_a[TILE][TILE];
shared T tile_b[TILE][TILE];

// Byte offsets of matrix `batch` (row-major over the batch dims) in the
// output and inputs 0..2.
uvec4 batch_offsets(uint batch, int nbatch)
{
    uvec4 o = uvec4(meta[TSR_META_BASE], meta[TSR_META_BASE + 1],
                    meta[TSR_META_BASE + 2], meta[TSR_META_BASE + 3]);
    const int S = TSR_META_STRIDES;
    for (int d = nbatch - 1; d >= 0; --d) {
        uint n = meta[TSR_META_SHAPE + d];
        uint c = batch % n;
        batch /= n;
        o += c * uvec4(meta[S + d], meta[S + TSR_MAX_DIMS + d], meta[S + 2 * TSR_MAX_DIMS + d],
                       meta[S + 3 * TSR_MAX_DIMS + d]);
    }
    return o;
}

void main()
{
    const int S = TSR_META_STRIDES;
    int nd = int(pc.ndim);
    int nbatch = nd - 2;
    uint M = meta[TSR_META_SHAPE + nd - 2];
    uint N = meta[TSR_META_SHAPE + nd - 1];
    uint K = pc.numel;
    uint batches = 1u;
    for (int d = 0; d < nbatch; ++d)
        batches *= meta[TSR_META_SHAPE + d];
    // Row and column strides of each operand.
    uvec2 so = uvec2(meta[S + nd - 2], meta[S + nd - 1]);
    uvec2 sa = uvec2(meta[S + TSR_MAX_DIMS + nd - 2], meta[S + TSR_MAX_DIMS + nd - 1]);
    uvec2 sb = uvec2(meta[S + 2 * TSR_MAX_DIMS + nd - 2], meta[S + 2 * TSR_MAX_DIMS + nd - 1]);
    uvec2 sc = uvec2(meta[S + 3 * TSR_MAX_DIMS + nd - 2], meta[S + 3 * TSR_MAX_DIMS + nd - 1]);
    T alpha = coefficient(pc.s0);
    T beta = coefficient(pc.s1);
    bool alpha_zero = alpha == T(0);
    bool read_c = MODE == 1 && beta != T(0);

    uint tiles_m = (M + TILE - 1u) / TILE;
    uint tiles_n = (N + TILE - 1u) / TILE;
    uint per_matrix = tiles_m * tiles_n;
    uint total = per_matrix * batches;
    uint lid = gl_LocalInvocationIndex;
    uint r = lid / TILE, col = lid % TILE;

    for (uint t = gl_WorkGroupID.x; t < total; t += gl_NumWorkGroups.x) {
        uint batch = t / per_matrix;
        uint within = t % per_matrix;
        uint m0 = (within / tiles_n) * TILE;
        uint n0 = (within % tiles_n) * TILE;
        uvec4 o = batch_offsets(batch, nbatch);
        uint m = m0 + r, n = n0 + col;
        PRECISE T acc = T(0);
        if (!alpha_zero) {
            for (uint k0 = 0u; k0 < K; k0 += TILE) {
                uint kn = min(TILE, K - k0);
                // Invocation (r, col) loads a[m0 + r, k0 + col] and b[k0 + r, n0 + col].
                tile_a[r][col] = m < M && col < kn ? load_v(0, o.y + m * sa.x + (k0 + col) * sa.y)
                                                   : T(0);
                tile_b[r][col] = r < kn && n < N ? load_v(1, o.z + (k0 + r) * sb.x + n * sb.y)
                                                 : T(0);
                barrier();
                for (uint kk = 0u; kk < kn; ++kk) {
                    PRECISE T p = tile_a[r][kk] * tile_b[kk][col];
                    acc = acc + p;
                }
                barrier();
            }
        }
        if (m < M && n < N) {
            PRECISE T v = acc;
            if (!alpha_zero && alpha != T(1))
                v = alpha * v;
            if (read_c) {
                PRECISE T c = load_v(2, o.w + m * sc.x + n * sc.y);
                if (beta != T(1))
                    c = beta * c;
                v = alpha_zero ? c : v + c;
            }
            store_v(o.x + m * so.x + n * so.y, v);
        }
        if (total - t <= gl_NumWorkGroups.x) // t + step would pass total (or wrap)
            break;
    }
}
