#version 450
#extension GL_GOOGLE_include_directive : require
// im2col for float32 (conv.c): element i of the columns walks the common
// shape [N, C, k..., o...]; the image's metadata strides make o.y the
// address of position o * stride + j * dilation, from which the shader
// subtracts the padding, and a position outside the image gives 0.
//
// Metadata extra words (the fourth operand's stride slots): per spatial
// dim d, [4d] extent, [4d+1] padding, [4d+2] stride, [4d+3] dilation;
// [12 + d] the image's byte stride along d.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

const int EXTRA = TSR_META_STRIDES + 3 * TSR_MAX_DIMS;

void main()
{
    int nd = (int(pc.ndim) - 2) / 2;
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        uint rest = i, window[3], offset[3];
        for (int d = nd - 1; d >= 0; --d) {
            uint e = meta[TSR_META_SHAPE + 2 + nd + d];
            window[d] = rest % e;
            rest /= e;
        }
        for (int d = nd - 1; d >= 0; --d) {
            uint e = meta[TSR_META_SHAPE + 2 + d];
            offset[d] = rest % e;
            rest /= e;
        }
        bool inside = true;
        uint addr = o.y;
        for (int d = 0; d < nd; ++d) {
            int extent = int(meta[EXTRA + 4 * d]), pad = int(meta[EXTRA + 4 * d + 1]);
            int pos = int(window[d] * meta[EXTRA + 4 * d + 2] + offset[d] * meta[EXTRA + 4 * d + 3]) -
                      pad;
            inside = inside && pos >= 0 && pos < extent;
            addr -= uint(pad) * meta[EXTRA + 12 + d];
        }
        tsr_store_bits(o.x, 4, inside ? tsr_load_bits(0, addr, 4) : 0u);
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
