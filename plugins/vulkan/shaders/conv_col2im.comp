#version 450
#extension GL_GOOGLE_include_directive : require
// col2im for float32 (conv.c): element i of the image [N, C, in...] sums,
// over kernel offsets j in ascending order, the column entry of the one
// window that reads the position at j, if any (the reference's order, one
// float32 rounding per addition).
//
// Metadata: the image's shape and strides; the columns' strides put o.y at
// row c * K of sample n. Extra words per spatial dim d: [5d] padding,
// [5d+1] stride, [5d+2] dilation, [5d+3] kernel, [5d+4] window count. Push
// constants: s0 = the columns' byte strides (row, window).

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

const int EXTRA = TSR_META_STRIDES + 3 * TSR_MAX_DIMS;

void main()
{
    int nd = int(pc.ndim) - 2;
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint volume = 1u;
    for (int d = 0; d < nd; ++d)
        volume *= meta[EXTRA + 5 * d + 3];
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        uint rest = i, pos[3];
        for (int d = nd - 1; d >= 0; --d) {
            uint e = meta[TSR_META_SHAPE + 2 + d];
            pos[d] = rest % e;
            rest /= e;
        }
        float sum = 0.0;
        for (uint j = 0u; j < volume; ++j) {
            uint left = j, window = 0u;
            bool hit = true;
            for (int d = nd - 1; d >= 0; --d) {
                uint k = meta[EXTRA + 5 * d + 3];
                uint jd = left % k;
                left /= k;
                int shifted = int(pos[d] + meta[EXTRA + 5 * d]) -
                              int(jd * meta[EXTRA + 5 * d + 2]);
                uint s = meta[EXTRA + 5 * d + 1];
                hit = hit && shifted >= 0 && uint(shifted) % s == 0u &&
                      uint(shifted) / s < meta[EXTRA + 5 * d + 4];
            }
            if (!hit)
                continue;
            // the window's flat index, row-major over the window counts
            left = j;
            uint scale = 1u;
            for (int d = nd - 1; d >= 0; --d) {
                uint k = meta[EXTRA + 5 * d + 3];
                uint jd = left % k;
                left /= k;
                uint od = (pos[d] + meta[EXTRA + 5 * d] - jd * meta[EXTRA + 5 * d + 2]) /
                          meta[EXTRA + 5 * d + 1];
                window += od * scale;
                scale *= meta[EXTRA + 5 * d + 4];
            }
            sum += uintBitsToFloat(tsr_load_bits(0, o.y + j * pc.s0.x + window * pc.s0.y, 4));
        }
        tsr_store_bits(o.x, 4, floatBitsToUint(sum));
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
