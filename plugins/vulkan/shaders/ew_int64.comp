#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Elementwise ops computed in int64 on int64 storage (needs shaderInt64).

#include "tsr_common.glsl"

#define IT int64_t
#define UT uint64_t

int64_t load_i(int slot, uint addr) { return int64_t(packUint2x32(tsr_load_bits64(slot, addr))); }

void store_i(uint addr, int64_t v)
{
    if (DT_OUT == TSR_BOOL)
        tsr_store_bits(addr, 1, v != 0 ? 1u : 0u);
    else
        tsr_store_bits64(addr, unpackUint2x32(uint64_t(v)));
}

int64_t load_alpha() { return int64_t(packUint2x32(pc.s0)); }
int64_t load_param1() { return int64_t(packUint2x32(pc.s1)); }
#define SHIFT_MASK 63

#include "ew_int_ops.glsl"
