// The interface every tessera compute shader shares (see pipeline.h and
// launch.h): specialisation constants, bindings, push constants, the
// element loop, and byte-addressed loads and stores.
//
// Tensors are bound as arrays of 32-bit words and addressed in bytes, so
// bool, int8, int16, float16 and bfloat16 need no 8- or 16-bit storage
// feature. A store of an element narrower than a word touches only its own
// bits, with atomicAnd/atomicOr, because neighbouring elements of the same
// word may be written by other invocations at the same time.
//
// The file that includes this one defines tsr_element(uvec4 offsets): the
// byte offsets of the output and inputs 0..2 for one element.

#include "tsr_ids.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int OP = 0;
layout(constant_id = 2) const int DT_IN = 0;
layout(constant_id = 3) const int DT_OUT = 0;
layout(constant_id = 4) const int MODE = 0;

layout(std430, set = 0, binding = 0) readonly buffer Meta { uint meta[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint out_w[]; };
layout(std430, set = 0, binding = 2) readonly buffer In0 { uint in0_w[]; };
layout(std430, set = 0, binding = 3) readonly buffer In1 { uint in1_w[]; };
layout(std430, set = 0, binding = 4) readonly buffer In2 { uint in2_w[]; };
layout(std430, set = 0, binding = 5) buffer Status { uint status_w[]; };

layout(push_constant) uniform Push {
    uint numel;
    uint ndim;
    uvec2 s0; // scalars as (low, high) words
    uvec2 s1;
} pc;

int tsr_size(int dtype)
{
    switch (dtype) {
    case TSR_BOOL: return TSR_SIZE_BOOL;
    case TSR_UINT8: return TSR_SIZE_UINT8;
    case TSR_INT8: return TSR_SIZE_INT8;
    case TSR_INT16: return TSR_SIZE_INT16;
    case TSR_INT32: return TSR_SIZE_INT32;
    case TSR_INT64: return TSR_SIZE_INT64;
    case TSR_FLOAT16: return TSR_SIZE_FLOAT16;
    case TSR_BFLOAT16: return TSR_SIZE_BFLOAT16;
    case TSR_FLOAT32: return TSR_SIZE_FLOAT32;
    case TSR_FLOAT64: return TSR_SIZE_FLOAT64;
    case TSR_COMPLEX64: return TSR_SIZE_COMPLEX64;
    case TSR_COMPLEX128: return TSR_SIZE_COMPLEX128;
    }
    return 4;
}

void tsr_flag(uint bits) { atomicOr(status_w[0], bits); }

// ---- loads: raw bits, zero-extended ---------------------------------------------

uint tsr_word(int slot, uint w)
{
    if (slot == 0)
        return in0_w[w];
    if (slot == 1)
        return in1_w[w];
    return in2_w[w];
}

// Bits of the `size`-byte element (1, 2 or 4) at byte `addr` of input `slot`.
uint tsr_load_bits(int slot, uint addr, int size)
{
    uint w = tsr_word(slot, addr >> 2);
    if (size == 4)
        return w;
    if (size == 2)
        return bitfieldExtract(w, int((addr & 2u) * 8u), 16);
    return bitfieldExtract(w, int((addr & 3u) * 8u), 8);
}

uvec2 tsr_load_bits64(int slot, uint addr)
{
    uint w = addr >> 2;
    return uvec2(tsr_word(slot, w), tsr_word(slot, w + 1u));
}

// Sign-extended integer of a 1-, 2- or 4-byte element.
int tsr_load_signed(int slot, uint addr, int size)
{
    uint w = tsr_word(slot, addr >> 2);
    if (size == 4)
        return int(w);
    if (size == 2)
        return bitfieldExtract(int(w), int((addr & 2u) * 8u), 16);
    return bitfieldExtract(int(w), int((addr & 3u) * 8u), 8);
}

// ---- stores ---------------------------------------------------------------------

void tsr_store_bits(uint addr, int size, uint v)
{
    uint w = addr >> 2;
    if (size == 4) {
        out_w[w] = v;
        return;
    }
    uint shift = (addr & (size == 2 ? 2u : 3u)) * 8u;
    uint mask = (size == 2 ? 0xffffu : 0xffu) << shift;
    atomicAnd(out_w[w], ~mask);
    atomicOr(out_w[w], (v << shift) & mask);
}

void tsr_store_bits64(uint addr, uvec2 v)
{
    uint w = addr >> 2;
    out_w[w] = v.x;
    out_w[w + 1u] = v.y;
}

void tsr_store_bool(uint addr, bool v) { tsr_store_bits(addr, 1, v ? 1u : 0u); }

// Moves one element of input `slot` unchanged (where, same-dtype copies),
// complex ones included.
void tsr_move(uint dst, int slot, uint src, int size)
{
    if (size == 16) { // complex128: two 8-byte halves
        tsr_store_bits64(dst, tsr_load_bits64(slot, src));
        tsr_store_bits64(dst + 8u, tsr_load_bits64(slot, src + 8u));
    } else if (size == 8) {
        tsr_store_bits64(dst, tsr_load_bits64(slot, src));
    } else {
        tsr_store_bits(dst, size, tsr_load_bits(slot, src, size));
    }
}

// where(cond, x, y) for any dtype: cond is bool (input 0), x and y move
// unchanged, NaN payloads included.
void tsr_where(uvec4 o)
{
    bool c = tsr_load_bits(0, o.y, 1) != 0u;
    tsr_move(o.x, c ? 1 : 2, c ? o.z : o.w, tsr_size(DT_OUT));
}

// ---- the element loop -------------------------------------------------------------

// Byte offsets of element i (row-major over the merged shape) in the
// output and inputs 0..2.
uvec4 tsr_offsets(uint i)
{
    uvec4 o = uvec4(meta[TSR_META_BASE], meta[TSR_META_BASE + 1],
                    meta[TSR_META_BASE + 2], meta[TSR_META_BASE + 3]);
    const int S = TSR_META_STRIDES;
    for (int d = int(pc.ndim) - 1; d >= 0; --d) {
        uint c = i;
        if (d > 0) {
            uint n = meta[TSR_META_SHAPE + d];
            c = i % n;
            i /= n;
        }
        o += c * uvec4(meta[S + d], meta[S + TSR_MAX_DIMS + d], meta[S + 2 * TSR_MAX_DIMS + d],
                       meta[S + 3 * TSR_MAX_DIMS + d]);
    }
    return o;
}

#ifndef TSR_NO_ELEMENT_LOOP // matmul.comp has its own main
void tsr_element(uvec4 o);

void main()
{
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        tsr_element(tsr_offsets(i));
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
#endif
