#version 450
#extension GL_GOOGLE_include_directive : require
// fill: stores the bits of one value, already converted to DT_OUT by the
// host (kernels_copy.c), into every element of the output.

#include "tsr_common.glsl"

void tsr_element(uvec4 o)
{
    int size = tsr_size(DT_OUT);
    if (size == 8)
        tsr_store_bits64(o.x, pc.s0);
    else
        tsr_store_bits(o.x, size, pc.s0.x);
}
