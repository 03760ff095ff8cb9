#version 450
#extension GL_GOOGLE_include_directive : require
// Elementwise ops computed in int32 on bool, uint8, int8, int16 and int32
// storage, and where() for every dtype (it only moves bits). Arithmetic
// wraps like PyTorch's: narrow types compute in 32 bits and keep the low
// bits. Integer division by zero sets a status bit the host reports at the
// next synchronisation, and writes 0.

#include "tsr_common.glsl"

#define IT int
#define UT uint

int load_i(int slot, uint addr)
{
    if (DT_IN == TSR_BOOL || DT_IN == TSR_UINT8)
        return int(tsr_load_bits(slot, addr, 1));
    return tsr_load_signed(slot, addr, tsr_size(DT_IN));
}

void store_i(uint addr, int v)
{
    if (DT_OUT == TSR_BOOL)
        tsr_store_bits(addr, 1, v != 0 ? 1u : 0u);
    else
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(v));
}

IT load_alpha() { return int(pc.s0.x); }
IT load_param1() { return int(pc.s1.x); }
#define SHIFT_MASK 31

#include "ew_int_ops.glsl"
