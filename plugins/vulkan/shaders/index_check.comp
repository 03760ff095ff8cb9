#version 450
#extension GL_GOOGLE_include_directive : require
// The pass before an indexing kernel: looks for an int64 index outside
// [0, size) and writes nothing but the status word.
//
// The index tensor is bound as the output (launch.c's element layout; it is
// only read). An index is in range when its high word is 0 and its low word
// is below size (push s0.x); no 64-bit arithmetic is needed. The first bad
// position in C order is kept deterministically: status word 1 holds the
// largest ~position (0 = none), so the host can name the first bad value.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

void main()
{
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uint w = tsr_offsets(i).x >> 2;
        if (out_w[w + 1u] != 0u || out_w[w] >= pc.s0.x)
            atomicMax(status_w[1], ~i); // i < 2^32 - 1, so ~i > 0
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
