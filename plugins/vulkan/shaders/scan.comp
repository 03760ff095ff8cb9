#version 450
#extension GL_GOOGLE_include_directive : require
// cumsum, cumprod and logcumsumexp along one dim, in the reference
// backend's order: each
// slice is cut into chunks of 1024 terms; within a chunk the terms fold left
// to right from the identity, and result i is the carry into its chunk
// combined with that running value (the carry into chunk c + 1 is the
// carry into chunk c combined with chunk c's total). One invocation scans
// one slice, so the bits never depend on the layout or the scheduling.
// REDUCE_WIDE (shaderInt64 + shaderFloat64) carries floats in double and
// integers in int64, as the reference does; without it, float and int32
// (whose wrapping gives the same low bits). logcumsumexp is listed only
// with REDUCE_WIDE: its steps in float would drift from the reference's.
// cummax and cummin scan each slice in order, as the reference does: a NaN
// or a value at least as extreme (<=, >=) takes over, so ties move the
// index to the later position. They run twice, MODE 1 writing the int64
// indices and MODE 0 the values (the shared layout has one writable binding).
//
// Metadata (scan.c): [0] output base, [1] input base, [2] rank of
// the other dims, [3] length along the dim, [4..20) the other dims' shape,
// [20..36) their output byte strides, [36..52) their input byte strides,
// [52] output byte step along the dim, [53] input byte step. Push
// constants: numel = slices.

#ifdef REDUCE_WIDE
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define TM_INT64
#define TM_DOUBLE
#define FT double
#define IT int64_t
#else
#define FT float
#define IT int
#endif
#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#ifdef REDUCE_WIDE
#include "tm_math_f64.glsl"
#define f_isnan tm_disnan
#else
bool f_isnan(float v) { return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u; }
#endif
#include "tm_convert.glsl"

#define CHUNK 1024u

const bool IS_FLOAT = DT_IN == TSR_BFLOAT16 || DT_IN == TSR_FLOAT16 || DT_IN == TSR_FLOAT32 ||
                      DT_IN == TSR_FLOAT64;
const bool PRODUCT = OP == TSR_OP_CUMPROD;
const bool LSE = OP == TSR_OP_LOGCUMSUMEXP;
const bool EXTREME = OP == TSR_OP_CUMMAX || OP == TSR_OP_CUMMIN;

FT load_f(uint addr)
{
#ifdef REDUCE_WIDE
    if (DT_IN == TSR_FLOAT64)
        return packDouble2x32(tsr_load_bits64(0, addr));
#endif
    if (DT_IN == TSR_FLOAT16)
        return FT(tm_f16_to_f32(tsr_load_bits(0, addr, 2)));
    if (DT_IN == TSR_BFLOAT16)
        return FT(tm_bf16_to_f32(tsr_load_bits(0, addr, 2)));
    return FT(uintBitsToFloat(tsr_load_bits(0, addr, 4)));
}

IT load_i(uint addr)
{
#ifdef REDUCE_WIDE
    if (DT_IN == TSR_INT64)
        return int64_t(packUint2x32(tsr_load_bits64(0, addr)));
#endif
    if (DT_IN == TSR_BOOL || DT_IN == TSR_UINT8)
        return IT(tsr_load_bits(0, addr, 1));
    return IT(tsr_load_signed(0, addr, tsr_size(DT_IN)));
}

void store_f(uint addr, FT v)
{
#ifdef REDUCE_WIDE
    if (DT_OUT == TSR_FLOAT64) {
        tsr_store_bits64(addr, unpackDouble2x32(v));
        return;
    }
#endif
    if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(float(v)));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(float(v)));
    else
        tsr_store_bits(addr, 4, floatBitsToUint(float(v)));
}

void store_i(uint addr, IT v)
{
#ifdef REDUCE_WIDE
    if (DT_OUT == TSR_INT64) {
        tsr_store_bits64(addr, unpackUint2x32(uint64_t(v)));
        return;
    }
#endif
    if (DT_OUT == TSR_BOOL)
        tsr_store_bool(addr, v != IT(0));
    else
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(v));
}

// log(e^acc + e^term) as the reference's step: NaN propagates, equal
// infinities stay themselves.
FT log_add_exp(FT acc, FT term)
{
#ifdef REDUCE_WIDE
    bool nan_acc = f_isnan(acc);
    FT low = nan_acc ? acc : (acc < term ? acc : term);
    FT high = nan_acc ? acc : (term < acc ? acc : term);
    if (low != high || !(tm_disinf(low) || tm_disnan(low)))
        return tm_dlog1p(tm_dexp(low - high)) + high;
    return term;
#else
    return acc + term; // not listed without doubles
#endif
}

FT identity_f() { return LSE ? FT(uintBitsToFloat(0xff800000u)) : FT(PRODUCT ? 1 : 0); }

FT comb_f(FT a, FT b)
{
    if (LSE)
        return log_add_exp(a, b);
    precise FT r = PRODUCT ? a * b : a + b;
    return r;
}

IT comb_i(IT a, IT b) { return PRODUCT ? a * b : a + b; }

void scan_slice(uint out_addr, uint in_addr, uint length)
{
    uint out_step = meta[52], in_step = meta[53];
    FT carry_f = identity_f(), run_f = carry_f;
    IT carry_i = IT(PRODUCT ? 1 : 0), run_i = carry_i;
    bool has_carry = false;
    for (uint i = 0u; i < length; ++i) {
        if (i > 0u && i % CHUNK == 0u) {
            carry_f = has_carry ? comb_f(carry_f, run_f) : run_f;
            carry_i = has_carry ? comb_i(carry_i, run_i) : run_i;
            has_carry = true;
            run_f = identity_f();
            run_i = IT(PRODUCT ? 1 : 0);
        }
        if (IS_FLOAT) {
            run_f = comb_f(run_f, load_f(in_addr + i * in_step));
            store_f(out_addr + i * out_step, has_carry ? comb_f(carry_f, run_f) : run_f);
        } else {
            run_i = comb_i(run_i, load_i(in_addr + i * in_step));
            store_i(out_addr + i * out_step, has_carry ? comb_i(carry_i, run_i) : run_i);
        }
    }
}

void extreme_slice(uint out_addr, uint in_addr, uint length)
{
    uint out_step = meta[52], in_step = meta[53];
    bool want_max = OP == TSR_OP_CUMMAX;
    FT best_f = IS_FLOAT ? load_f(in_addr) : FT(0);
    IT best_i = IS_FLOAT ? IT(0) : load_i(in_addr);
    uint index = 0u;
    for (uint i = 0u; i < length; ++i) {
        bool take;
        if (IS_FLOAT) {
            FT x = load_f(in_addr + i * in_step);
            take = f_isnan(x) || (!f_isnan(best_f) && (want_max ? x >= best_f : x <= best_f));
            best_f = take ? x : best_f;
        } else {
            IT x = load_i(in_addr + i * in_step);
            take = want_max ? x >= best_i : x <= best_i;
            best_i = take ? x : best_i;
        }
        index = take ? i : index;
        if (MODE == 1)
            tsr_store_bits64(out_addr + i * out_step, uvec2(index, 0u));
        else if (IS_FLOAT)
            store_f(out_addr + i * out_step, best_f);
        else
            store_i(out_addr + i * out_step, best_i);
    }
}

void main()
{
    uint slices = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint s = gl_GlobalInvocationID.x; s < slices; s += step) {
        uvec2 o = uvec2(meta[0], meta[1]);
        uint rest = s;
        for (int d = int(meta[2]) - 1; d >= 0; --d) {
            uint c = rest;
            if (d > 0) {
                c = rest % meta[4 + d];
                rest /= meta[4 + d];
            }
            o += c * uvec2(meta[20 + d], meta[36 + d]);
        }
        if (EXTREME)
            extreme_slice(o.x, o.y, meta[3]);
        else
            scan_slice(o.x, o.y, meta[3]);
        if (slices - s <= step) // s + step would pass slices (or wrap)
            break;
    }
}
