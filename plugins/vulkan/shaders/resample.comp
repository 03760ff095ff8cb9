#version 450
#extension GL_GOOGLE_include_directive : require
// upsample (TSR_OP_LIST_RESAMPLE) on float32: one invocation per output
// element, which works out its taps along each spatial dim with the
// reference's float arithmetic (resample_taps.glsl) and sums them in float,
// outermost dim first.
//
// Metadata (resample.c): the output's shape [N, C, o...], unmerged, with the
// byte strides of out and, for N and C only, of x (input 0): o.y is the
// base of x's (n, c) plane. Extra words: k, the input's spatial sizes [3],
// x's spatial byte strides [3], each dim's scale as float bits [3], the
// kernel mode, align_corners.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

const int EXTRA = TSR_META_STRIDES + 3 * TSR_MAX_DIMS;

#include "resample_taps.glsl"

float load_x(uint addr) { return uintBitsToFloat(tsr_load_bits(0, addr, 4)); }

void main()
{
    int k = int(meta[EXTRA]), mode = int(meta[EXTRA + 10]);
    bool align = meta[EXTRA + 11] != 0u;
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        int taps[3];
        uint at[3][4];
        float w[3][4];
        uint rest = i;
        for (int d = 2; d >= 0; --d) {
            taps[d] = 1;
            for (int t = 0; t < 4; ++t) {
                at[d][t] = 0u;
                w[d][t] = 0.0;
            }
            w[d][0] = 1.0;
            if (d < 3 - k)
                continue;
            int real = d - (3 - k);
            uint extent = meta[TSR_META_SHAPE + 2 + real];
            uint j = rest % extent;
            rest /= extent;
            axis a = axis(int(meta[EXTRA + 1 + real]), int(extent), mode,
                          uintBitsToFloat(meta[EXTRA + 7 + real]), align, false);
            int idx[4];
            float wt[4];
            taps[d] = axis_taps(a, int(j), idx, wt);
            uint stride = meta[EXTRA + 4 + real];
            for (int t = 0; t < 4; ++t) {
                at[d][t] = uint(idx[t]) * stride;
                w[d][t] = wt[t];
            }
        }
        float acc0 = 0.0;
        for (int a = 0; a < taps[0]; ++a) {
            float acc1 = 0.0;
            for (int b = 0; b < taps[1]; ++b) {
                float acc2 = 0.0;
                for (int c = 0; c < taps[2]; ++c)
                    acc2 += load_x(o.y + at[0][a] + at[1][b] + at[2][c]) * w[2][c];
                acc1 += acc2 * w[1][b];
            }
            acc0 += acc1 * w[0][a];
        }
        tsr_store_bits(o.x, 4, floatBitsToUint(acc0));
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
