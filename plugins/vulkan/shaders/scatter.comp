#version 450
#extension GL_GOOGLE_include_directive : require
// scatter (every reduce), index_add and index_copy (OP) on DT_IN, into an
// output that already holds self.
//
// One invocation per slice: a coordinate of every dim but `dim` of the
// index (scatter) or source (index_add/index_copy). It walks the slice's
// index positions j = 0, 1, ... in order and combines update j into
// out[slice, index[j]]; different slices never share a target element. So
// repeated targets combine in index order with no atomics, as the reference
// does one element at a time: integer results are the cpu backend's bits,
// float results are the same on every run. Each step loads the target,
// combines and stores, rounding (or wrapping) to the dtype every time.
//
// Integers (bool, uint8, int8, int16, int32) combine in int32 and keep their
// low bits; float16/bfloat16/float32 in float32. With -DSCATTER_WIDE (needs
// shaderInt64 and shaderFloat64) integers combine in int64 and floats in
// double, as the reference does, int64 and float64 included; complex64
// and complex128 only there, part by part in double (complex_slice). Plain
// replacement moves bits and runs on every dtype.
//
// Metadata (scatter.c): the slice shape (dim of extent 1) with the
// byte strides of out, index (input 0) and src (input 1); the fourth
// operand's stride words carry X_*: walk length, the byte strides along dim
// of out, index and src, and out's extent along dim. Push s0, s1: the scalar
// (scatter's value or index_add's alpha) as the dtype's bits.
// MODE: reduce (plugin.h's TSR_REDUCE_*) | 8 include_self | 16 scalar src.

#define TSR_NO_ELEMENT_LOOP
#ifdef SCATTER_WIDE
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define TM_INT64
#define TM_DOUBLE
#endif
#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#ifdef SCATTER_WIDE
#include "tm_math_f64.glsl"
#define ival int64_t
#define u64 uint64_t
#define fval double
#define f_isnan tm_disnan
#define f_nan tm_dnan
#define f_inf tm_dinf
#define f_div tm_ddiv
#else
#include "tm_math_f32.glsl"
#define ival int
#define u64 uint
#define fval float
#define f_isnan tm_isnan
#define f_nan tm_nan
#define f_inf tm_inf
#define f_div tm_div
#endif
#include "tm_convert.glsl"

// plugin.h's TSR_REDUCE_* (scatter.c asserts they match).
#define R_NONE 0
#define R_SUM 1
#define R_PROD 2
#define R_MEAN 3
#define R_AMAX 4
#define R_AMIN 5

#define X(k) meta[TSR_META_STRIDES + 3 * TSR_MAX_DIMS + (k)]

// Functions with branches rather than constant expressions: glslc's
// optimiser fails on `?:` and `!` over specialisation constants.
int reduce_mode()
{
    if (OP == TSR_OP_INDEX_ADD)
        return R_SUM;
    if (OP == TSR_OP_INDEX_COPY)
        return R_NONE;
    return MODE & 7;
}
#define REDUCE reduce_mode()

bool exclude_self()
{
    if (OP == TSR_OP_SCATTER && (MODE & 8) == 0)
        return true;
    return false;
}
#define EXCLUDE_SELF exclude_self()
#define SCALAR_SRC ((MODE & 16) != 0)
#define IS_FLOAT (DT_IN == TSR_FLOAT16 || DT_IN == TSR_BFLOAT16 || DT_IN == TSR_FLOAT32 || \
                  DT_IN == TSR_FLOAT64)

// ---- elements as (low, high) words ------------------------------------------------

uvec2 load_out(uint addr, int size)
{
    uint w = out_w[addr >> 2];
    if (size == 8)
        return uvec2(w, out_w[(addr >> 2) + 1u]);
    if (size == 4)
        return uvec2(w, 0u);
    if (size == 2)
        return uvec2(bitfieldExtract(w, int((addr & 2u) * 8u), 16), 0u);
    return uvec2(bitfieldExtract(w, int((addr & 3u) * 8u), 8), 0u);
}

uvec2 load_in(int slot, uint addr, int size)
{
    if (size == 8)
        return tsr_load_bits64(slot, addr);
    return uvec2(tsr_load_bits(slot, addr, size), 0u);
}

void store(uint addr, int size, uvec2 v)
{
    if (size == 8)
        tsr_store_bits64(addr, v);
    else
        tsr_store_bits(addr, size, v.x);
}

// ---- the dtype's bits <-> the compute type ---------------------------------------

ival to_int(uvec2 bits)
{
#ifdef SCATTER_WIDE
    if (DT_IN == TSR_INT64)
        return int64_t((uint64_t(bits.y) << 32) | uint64_t(bits.x));
    // Sign extension by shifts: the optimiser turns int64_t(int(u)) into a
    // zero extension.
    if (DT_IN == TSR_INT8 || DT_IN == TSR_INT16 || DT_IN == TSR_INT32) {
        int sh = 64 - 8 * tsr_size(DT_IN);
        return int64_t(uint64_t(bits.x) << sh) >> sh;
    }
    return int64_t(uint64_t(bits.x)); // bool and uint8 zero-extend
#endif
    if (DT_IN == TSR_INT8)
        return ival(bitfieldExtract(int(bits.x), 0, 8));
    if (DT_IN == TSR_INT16)
        return ival(bitfieldExtract(int(bits.x), 0, 16));
    if (DT_IN == TSR_INT32)
        return ival(int(bits.x));
    return ival(bits.x); // bool and uint8 zero-extend
}

uvec2 from_int(ival v)
{
    if (DT_IN == TSR_BOOL)
        return uvec2(v != ival(0) ? 1u : 0u, 0u);
#ifdef SCATTER_WIDE
    return uvec2(uint(uint64_t(v)), uint(uint64_t(v) >> 32)); // store keeps what fits
#else
    return uvec2(uint(v), 0u);
#endif
}

fval to_float(uvec2 bits)
{
#ifdef SCATTER_WIDE
    if (DT_IN == TSR_FLOAT64)
        return packDouble2x32(bits);
#endif
    if (DT_IN == TSR_FLOAT16)
        return fval(tm_f16_to_f32(bits.x));
    if (DT_IN == TSR_BFLOAT16)
        return fval(tm_bf16_to_f32(bits.x));
    return fval(uintBitsToFloat(bits.x));
}

uvec2 from_float(fval v)
{
#ifdef SCATTER_WIDE
    if (DT_IN == TSR_FLOAT64)
        return unpackDouble2x32(v);
#endif
    // float64 to float16 goes through float32, as c10::Half does.
    if (DT_IN == TSR_FLOAT16)
        return uvec2(tm_f32_to_f16(float(v)), 0u);
    if (DT_IN == TSR_BFLOAT16)
        return uvec2(tm_f32_to_bf16(float(v)), 0u);
    return uvec2(floatBitsToUint(float(v)), 0u);
}

// ---- one step ------------------------------------------------------------------

ival identity_int()
{
    if (REDUCE == R_PROD)
        return ival(1);
    if (DT_IN == TSR_BOOL)
        return ival(REDUCE == R_AMIN ? 1 : 0);
    if (DT_IN == TSR_UINT8)
        return ival(REDUCE == R_AMIN ? 255 : 0);
#ifdef SCATTER_WIDE
    if (DT_IN == TSR_INT64 && REDUCE == R_AMAX)
        return int64_t(0x8000000000000000UL);
    if (DT_IN == TSR_INT64 && REDUCE == R_AMIN)
        return int64_t(0x7fffffffffffffffUL);
#endif
    int bits = 8 * tsr_size(DT_IN);
    if (REDUCE == R_AMAX) // the dtype's lowest value
        return ival(int(0xffffffffu << (bits - 1)));
    if (REDUCE == R_AMIN) // and its highest
        return ival(int(0xffffffffu >> (33 - bits)));
    return ival(0);
}

fval identity_float()
{
    if (REDUCE == R_PROD)
        return fval(1.0);
    if (REDUCE == R_AMAX)
        return -f_inf();
    if (REDUCE == R_AMIN)
        return f_inf();
    return fval(0.0);
}

uvec2 combine(uvec2 acc_bits, uvec2 v_bits, uvec2 alpha)
{
    if (IS_FLOAT) {
        fval acc = to_float(acc_bits), v = to_float(v_bits);
        precise fval r; // the reference's operations, never contracted
        if (OP == TSR_OP_INDEX_ADD)
            r = acc + to_float(alpha) * v;
        else if (REDUCE == R_SUM || REDUCE == R_MEAN)
            r = acc + v;
        else if (REDUCE == R_PROD)
            r = acc * v;
        else if (f_isnan(acc) || f_isnan(v))
            r = f_nan();
        else if (REDUCE == R_AMAX)
            r = v > acc ? v : acc;
        else
            r = v < acc ? v : acc;
        return from_float(r);
    }
    ival acc = to_int(acc_bits), v = to_int(v_bits), r;
    if (OP == TSR_OP_INDEX_ADD)
        r = acc + v * to_int(alpha);
    else if (REDUCE == R_SUM || REDUCE == R_MEAN)
        r = acc + v;
    else if (REDUCE == R_PROD)
        r = acc * v;
    else if (REDUCE == R_AMAX)
        r = max(acc, v);
    else
        r = min(acc, v);
    return from_int(r);
}

// The mean's division by the count: floor division for integers (PyTorch
// divides in the dtype), a rounded quotient otherwise.
uvec2 divide(uvec2 acc_bits, uint count)
{
    if (IS_FLOAT)
        return from_float(f_div(to_float(acc_bits), fval(count)));
    ival acc = to_int(acc_bits), c = ival(count);
    // Floor division of magnitudes, unsigned.
    bool negative = acc < ival(0);
    u64 m = u64(negative ? -acc : acc), uc = u64(count);
    u64 q = negative ? (m + uc - u64(1)) / uc : m / uc;
    return from_int(negative ? -ival(q) : ival(q));
}

#include "scatter_complex.glsl"

void main()
{
    int size = tsr_size(DT_IN);
    uint len = X(0), out_step = X(1), index_step = X(2), src_step = X(3), extent = X(4);
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        if (IS_COMPLEX && REDUCE != R_NONE) {
            complex_slice(o, len, out_step, index_step, src_step, extent);
            if (n - i <= step)
                break;
            continue;
        }
        if (REDUCE != R_NONE && EXCLUDE_SELF)
            for (uint j = 0u; j < len; ++j) {
                uint t = o.x + tsr_load_bits(0, o.y + j * index_step, 4) * out_step;
                if (IS_FLOAT)
                    store(t, size, from_float(identity_float()));
                else
                    store(t, size, from_int(identity_int()));
            }
        for (uint j = 0u; j < len; ++j) {
            uint t = o.x + tsr_load_bits(0, o.y + j * index_step, 4) * out_step;
            uint from = o.z + j * src_step;
            if (REDUCE == R_NONE) {
                if (!SCALAR_SRC)
                    tsr_move(t, 1, from, size);
                else if (size == 16) {
                    tsr_store_bits64(t, pc.s0);
                    tsr_store_bits64(t + 8u, pc.s1);
                } else
                    store(t, size, pc.s0);
                continue;
            }
            uvec2 v = pc.s0;
            if (!SCALAR_SRC)
                v = load_in(1, from, size);
            store(t, size, combine(load_out(t, size), v, pc.s0));
        }
        if (REDUCE == R_MEAN)
            for (uint k = 0u; k < extent; ++k) {
                uint self = 1u;
                if (EXCLUDE_SELF)
                    self = 0u;
                uint count = self;
                for (uint j = 0u; j < len; ++j)
                    count += tsr_load_bits(0, o.y + j * index_step, 4) == k ? 1u : 0u;
                if (count > self) {
                    uint t = o.x + k * out_step;
                    store(t, size, divide(load_out(t, size), count));
                }
            }
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
