#version 450
#extension GL_GOOGLE_include_directive : require
// index_select and gather: out[i] = x[i with dim replaced by index[...]].
// Elements move as bits, so this runs on every dtype (DT_IN), NaN payloads
// and signed zeros included.
//
// Metadata (index.c): the output's shape with the byte strides of
// out, x (input 0, 0 along dim) and the int64 index (input 1: gather's own
// strides, index_select's along dim only). x's byte stride along dim is push
// s0.x. Every index was checked (index_check.comp), so its low word is the
// whole value.

#include "tsr_common.glsl"

void tsr_element(uvec4 o)
{
    uint idx = tsr_load_bits(1, o.z, 4);
    tsr_move(o.x, 0, o.y + idx * pc.s0.x, tsr_size(DT_IN));
}
