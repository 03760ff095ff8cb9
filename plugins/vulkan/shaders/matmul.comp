#version 450
#extension GL_GOOGLE_include_directive : require
// Matrix product on float32: out [..., M, N] = beta * c + alpha * (a [..., M, K] @ b [..., K, N]).
//
// One workgroup of 256 invocations computes a 16x16 tile of one matrix of
// the batch, staging 16x16 tiles of a and b through shared memory. Each
// output element sums its products in float, k = 0, 1, ..., K - 1, so the
// result does not depend on the operands' layout. Workgroups step over the
// tiles (batch-major), so any number of tiles fits one dispatch.
//
// Metadata (launch.c, tsr__vk_launch_matmul): the output's full shape
// [..., M, N] and each operand's byte strides over its own dims (a's last
// two are M, K; b's K, N; c is expanded to the output's shape). Push
// constants: ndim = the output's rank (>= 2), s0 = (alpha bits, K),
// s1 = (beta bits, 0); MODE 1 when c (input 2) is read. As in BLAS, alpha 0
// skips the product and an alpha or beta of exactly 1 is not multiplied.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

#define TILE 16u

shared float tile_a[TILE][TILE];
shared float tile_b[TILE][TILE];

float load_f(int slot, uint addr) { return uintBitsToFloat(tsr_load_bits(slot, addr, 4)); }

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
    uint K = pc.s0.y;
    uint batches = 1u;
    for (int d = 0; d < nbatch; ++d)
        batches *= meta[TSR_META_SHAPE + d];
    // Row and column strides of each operand.
    uvec2 so = uvec2(meta[S + nd - 2], meta[S + nd - 1]);
    uvec2 sa = uvec2(meta[S + TSR_MAX_DIMS + nd - 2], meta[S + TSR_MAX_DIMS + nd - 1]);
    uvec2 sb = uvec2(meta[S + 2 * TSR_MAX_DIMS + nd - 2], meta[S + 2 * TSR_MAX_DIMS + nd - 1]);
    uvec2 sc = uvec2(meta[S + 3 * TSR_MAX_DIMS + nd - 2], meta[S + 3 * TSR_MAX_DIMS + nd - 1]);
    float alpha = uintBitsToFloat(pc.s0.x);
    float beta = uintBitsToFloat(pc.s1.x);
    bool alpha_zero = alpha == 0.0;

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
        precise float acc = 0.0;
        if (!alpha_zero) {
            for (uint k0 = 0u; k0 < K; k0 += TILE) {
                uint kn = min(TILE, K - k0);
                // Invocation (r, col) loads a[m0 + r, k0 + col] and b[k0 + r, n0 + col].
                tile_a[r][col] = m < M && col < kn ? load_f(0, o.y + m * sa.x + (k0 + col) * sa.y)
                                                   : 0.0;
                tile_b[r][col] = r < kn && n < N ? load_f(1, o.z + (k0 + r) * sb.x + n * sb.y)
                                                 : 0.0;
                barrier();
                for (uint kk = 0u; kk < kn; ++kk) {
                    precise float p = tile_a[r][kk] * tile_b[kk][col];
                    acc = acc + p;
                }
                barrier();
            }
        }
        if (m < M && n < N) {
            precise float v = acc;
            if (!alpha_zero && alpha != 1.0)
                v = alpha * v;
            if (MODE == 1) {
                precise float c = load_f(2, o.w + m * sc.x + n * sc.y);
                if (beta != 1.0)
                    c = beta * c;
                v = alpha_zero ? c : v + c;
            }
            tsr_store_bits(o.x + m * so.x + n * so.y, 4, floatBitsToUint(v));
        }
        if (total - t <= gl_NumWorkGroups.x) // t + step would pass total (or wrap)
            break;
    }
}
