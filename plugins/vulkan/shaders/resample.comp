#version 450
#extension GL_GOOGLE_include_directive : require
// upsample (TSR_OP_LIST_RESAMPLE) on float32: one invocation per output
// element, which works out its taps along each spatial dim with the
// reference's float arithmetic (`precise`: no fused multiply-add, so a
// source coordinate rounds as in the reference and picks the same pixels)
// and sums them in float, outermost dim first.
//
// Metadata (resample.c): the output's shape [N, C, o...], unmerged, with the
// byte strides of out and, for N and C only, of x (input 0): o.y is the
// base of x's (n, c) plane. Extra words: k, the input's spatial sizes [3],
// x's spatial byte strides [3], each dim's scale as float bits [3], the
// kernel mode, align_corners.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

const int EXTRA = TSR_META_STRIDES + 3 * TSR_MAX_DIMS;

float load_x(uint addr) { return uintBitsToFloat(tsr_load_bits(0, addr, 4)); }

// Keys' cubic convolution weights, A = -0.75.
void cubic_weights(float t, out float w[4])
{
    const float A = -0.75;
    precise float x1 = t + 1.0, x3 = 1.0 - t, x4 = 2.0 - t;
    precise float w0 = ((A * x1 - 5.0 * A) * x1 + 8.0 * A) * x1 - 4.0 * A;
    precise float w1 = ((1.25 * t - 2.25) * t) * t + 1.0;
    precise float w2 = ((1.25 * x3 - 2.25) * x3) * x3 + 1.0;
    precise float w3 = ((A * x4 - 5.0 * A) * x4 + 8.0 * A) * x4 - 4.0 * A;
    w[0] = w0;
    w[1] = w1;
    w[2] = w2;
    w[3] = w3;
}

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
            at[d][0] = 0u;
            w[d][0] = 1.0;
            if (d < 3 - k)
                continue;
            int dim = 2 + d - (3 - k); // its dim in the output's shape
            uint extent = meta[TSR_META_SHAPE + dim];
            uint j = rest % extent;
            rest /= extent;
            int size = int(meta[EXTRA + 1 + d - (3 - k)]);
            uint stride = meta[EXTRA + 4 + d - (3 - k)];
            precise float scale = uintBitsToFloat(meta[EXTRA + 7 + d - (3 - k)]);
            precise float fj = float(j);
            if (mode == TSR_RESAMPLE_NEAREST || mode == TSR_RESAMPLE_NEAREST_EXACT) {
                precise float src = mode == TSR_RESAMPLE_NEAREST ? fj * scale : (fj + 0.5) * scale;
                at[d][0] = uint(min(int(floor(src)), size - 1)) * stride;
            } else if (mode == TSR_RESAMPLE_LINEAR) {
                if (size == int(extent)) {
                    at[d][0] = j * stride;
                    continue;
                }
                precise float src = align ? fj * scale : max((fj + 0.5) * scale - 0.5, 0.0);
                int i0 = int(src);
                precise float l1 = clamp(src - float(i0), 0.0, 1.0);
                taps[d] = 2;
                at[d][0] = uint(i0) * stride;
                at[d][1] = uint(i0 + (i0 < size - 1 ? 1 : 0)) * stride;
                w[d][0] = 1.0 - l1;
                w[d][1] = l1;
            } else {
                precise float src = align ? fj * scale : (fj + 0.5) * scale - 0.5;
                precise float fl = floor(src);
                float cw[4];
                cubic_weights(src - fl, cw);
                taps[d] = 4;
                for (int t = 0; t < 4; ++t) {
                    at[d][t] = uint(clamp(int(fl) - 1 + t, 0, size - 1)) * stride;
                    w[d][t] = cw[t];
                }
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
