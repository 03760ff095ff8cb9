#version 450
#extension GL_GOOGLE_include_directive : require
// upsample_backward (TSR_OP_LIST_RESAMPLE) on float32 as a gather, so no
// two invocations write one element and the result does not depend on the
// schedule: one invocation per grad_x element finds, along each spatial
// dim, the output positions whose taps read it (taps move monotonically
// with the output position: two binary searches give a contiguous range),
// then sums grad_y over those ranges times the tap weights.
//
// Metadata (resample.c): grad_x's shape [N, C, s...], unmerged, with the
// byte strides of grad_x and, for N and C only, of grad_y (input 0): o.y
// is the base of grad_y's (n, c) plane. Extra words: k, grad_y's spatial
// sizes [3], grad_y's spatial byte strides [3], each dim's scale as float
// bits [3], the kernel mode, align_corners.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

const int EXTRA = TSR_META_STRIDES + 3 * TSR_MAX_DIMS;

#include "resample_taps.glsl"

float load_g(uint addr) { return uintBitsToFloat(tsr_load_bits(0, addr, 4)); }

// The weight output j gives input position i along a (its taps hitting i
// summed); false when no tap hits i.
bool weight_at(axis a, int j, int i, out float weight)
{
    int at[4];
    float w[4];
    int n = axis_taps(a, j, at, w);
    bool hit = false;
    weight = 0.0;
    for (int t = 0; t < n; ++t)
        if (at[t] == i) {
            weight += w[t];
            hit = true;
        }
    return hit;
}

// [first, last] output positions along a whose taps may reach i.
ivec2 range_of(axis a, int i)
{
    int at[4];
    float w[4];
    int lo = 0, hi = a.out_size; // first j with its last tap >= i
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int n = axis_taps(a, mid, at, w);
        if (at[n - 1] >= i)
            hi = mid;
        else
            lo = mid + 1;
    }
    int first = lo;
    lo = 0;
    hi = a.out_size; // first j with its first tap > i
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        axis_taps(a, mid, at, w);
        if (at[0] > i)
            hi = mid;
        else
            lo = mid + 1;
    }
    return ivec2(first, lo - 1);
}

void main()
{
    int k = int(meta[EXTRA]), mode = int(meta[EXTRA + 10]);
    bool align = meta[EXTRA + 11] != 0u;
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint e = gl_GlobalInvocationID.x; e < n; e += step) {
        uvec4 o = tsr_offsets(e);
        axis ax[3];
        int pos[3];
        ivec2 r[3];
        uint stride[3];
        uint rest = e;
        for (int d = 2; d >= 0; --d) {
            ax[d] = axis(1, 1, TSR_RESAMPLE_NEAREST, 1.0, false, true);
            pos[d] = 0;
            r[d] = ivec2(0, 0);
            stride[d] = 0u;
            if (d < 3 - k)
                continue;
            int real = d - (3 - k);
            uint extent = meta[TSR_META_SHAPE + 2 + real];
            pos[d] = int(rest % extent);
            rest /= extent;
            ax[d] = axis(int(extent), int(meta[EXTRA + 1 + real]), mode,
                         uintBitsToFloat(meta[EXTRA + 7 + real]), align, true);
            stride[d] = meta[EXTRA + 4 + real];
            r[d] = range_of(ax[d], pos[d]);
        }
        float acc = 0.0;
        for (int j0 = r[0].x; j0 <= r[0].y; ++j0) {
            float w0;
            if (!weight_at(ax[0], j0, pos[0], w0))
                continue;
            for (int j1 = r[1].x; j1 <= r[1].y; ++j1) {
                float w1;
                if (!weight_at(ax[1], j1, pos[1], w1))
                    continue;
                for (int j2 = r[2].x; j2 <= r[2].y; ++j2) {
                    float w2;
                    if (!weight_at(ax[2], j2, pos[2], w2))
                        continue;
                    uint at = o.y + uint(j0) * stride[0] + uint(j1) * stride[1] +
                              uint(j2) * stride[2];
                    acc += load_g(at) * (w0 * w1 * w2);
                }
            }
        }
        tsr_store_bits(o.x, 4, floatBitsToUint(acc));
        if (n - e <= step) // e + step would pass n (or wrap)
            break;
    }
}
