#version 450
#extension GL_GOOGLE_include_directive : require
// tril and triu (OP) over the last two dims, on every dtype (DT_IN): an
// element is kept when column - row is <= diagonal (tril) or >= diagonal
// (triu), else it becomes all-zero bits, which is 0 in every dtype.
//
// Metadata: the full shape, unmerged (the row and column are the last two
// coordinates), with the byte strides of out and x (input 0). Push
// constants: s0.x = the diagonal as int32 (the host clamps it to the
// matrix, where every value beyond acts alike).

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

void zero(uint addr, int size)
{
    if (size >= 8) {
        tsr_store_bits64(addr, uvec2(0u));
        if (size == 16)
            tsr_store_bits64(addr + 8u, uvec2(0u));
    } else {
        tsr_store_bits(addr, size, 0u);
    }
}

void main()
{
    int nd = int(pc.ndim), size = tsr_size(DT_IN), diagonal = int(pc.s0.x);
    uint cols = meta[TSR_META_SHAPE + nd - 1], rows = meta[TSR_META_SHAPE + nd - 2];
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        int diff = int(i % cols) - int((i / cols) % rows);
        bool keep = OP == TSR_OP_TRIL ? diff <= diagonal : diff >= diagonal;
        if (keep)
            tsr_move(o.x, 0, o.y, size);
        else
            zero(o.x, size);
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
