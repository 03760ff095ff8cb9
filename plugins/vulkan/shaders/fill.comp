#version 450
#extension GL_GOOGLE_include_directive : require
// fill: stores the bits of one value, already converted to DT_OUT by the
// host (scalar.c), into every element of the output: up to 16 bytes, in the
// two 64-bit push-constant scalars.

#include "tsr_common.glsl"

void tsr_element(uvec4 o)
{
    int size = tsr_size(DT_OUT);
    if (size == 16) { // complex128: real part in s0, imaginary in s1
        tsr_store_bits64(o.x, pc.s0);
        tsr_store_bits64(o.x + 8u, pc.s1);
    } else if (size == 8) {
        tsr_store_bits64(o.x, pc.s0);
    } else {
        tsr_store_bits(o.x, size, pc.s0.x);
    }
}
