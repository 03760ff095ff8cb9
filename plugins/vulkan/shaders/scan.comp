#version 450
#extension GL_GOOGLE_include_directive : require
// cumsum, cumprod and logcumsumexp along one dim, in the reference
// backend's order: each
// slice is cut into chunks of 1024 terms; within a chunk the terms fold left
// to right from the identity, and result i is the carry into its chunk
// combined with that running value (the carry into chunk c + 1 is the
// carry into chunk c combined with chunk c's total). One invocation scans
// a short slice; a long one is staged by chunks (below) in the same order,
// so the bits never depend on the length, the layout or the scheduling.
// REDUCE_WIDE (shaderInt64 + shaderFloat64) carries floats in double and
// integers in int64, as the reference does; without it, float and int32
// (whose wrapping gives the same low bits). logcumsumexp is listed only
// with REDUCE_WIDE: its steps in float would drift from the reference's.
// cummax and cummin scan each slice in order, as the reference does: a NaN
// or a value at least as extreme (<=, >=) takes over, so ties move the
// index to the later position; their step is associative, so they are
// chunked like the others (a carry combined with a chunk's own run). They
// run twice, MODE bit 0 set writing the int64 indices, clear the values
// (the shared layout has one writable binding). MODE bits 1-2: the stage.
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

// One chunk's worth of state: a running value (f for floats, i for
// integers) and, for cummax/cummin, the index of the element it holds.
struct Rec {
    FT f;
    IT i;
    uint index;
};

// cummax/cummin's step: x takes over the best so far when it is a NaN or
// at least as extreme, unless the best is already a NaN.
bool takes(Rec best, Rec x)
{
    bool want_max = OP == TSR_OP_CUMMAX;
    if (IS_FLOAT)
        return f_isnan(x.f) || (!f_isnan(best.f) && (want_max ? x.f >= best.f : x.f <= best.f));
    return want_max ? x.i >= best.i : x.i <= best.i;
}

// The carry a combined with the run b after it. For cummax/cummin this is
// associative (ties and NaNs resolve to the later element), so a carry
// combined with a chunk's own run equals the scan in plain order.
Rec rec_comb(Rec a, Rec b)
{
    if (EXTREME)
        return takes(a, b) ? b : a;
    Rec r = a;
    if (IS_FLOAT)
        r.f = comb_f(a.f, b.f);
    else
        r.i = comb_i(a.i, b.i);
    return r;
}

Rec rec_load_element(uint addr, uint i)
{
    Rec x;
    x.f = IS_FLOAT ? load_f(addr) : FT(0);
    x.i = IS_FLOAT ? IT(0) : load_i(addr);
    x.index = i;
    return x;
}

void store_rec(uint addr, Rec r)
{
    if (EXTREME && (MODE & 1) == 1)
        tsr_store_bits64(addr, uvec2(r.index, 0u));
    else if (IS_FLOAT)
        store_f(addr, r.f);
    else
        store_i(addr, r.i);
}

// Elements [begin, end) of one slice folded from the chunk's start (the
// identity, or for cummax/cummin the first element); with `write`, each
// result (the carry, when there is one, combined with the run) is stored.
Rec fold_chunk(uvec2 o, uint begin, uint end, bool write, bool has_carry, Rec carry)
{
    uint out_step = meta[52], in_step = meta[53];
    Rec run = rec_load_element(o.y + begin * in_step, begin);
    if (!EXTREME) {
        run.f = identity_f();
        run.i = IT(PRODUCT ? 1 : 0);
    }
    for (uint i = begin; i < end; ++i) {
        Rec x = rec_load_element(o.y + i * in_step, i);
        run = EXTREME ? (takes(run, x) ? x : run) : rec_comb(run, x);
        if (write)
            store_rec(o.x + i * out_step, has_carry ? rec_comb(carry, run) : run);
    }
    return run;
}

// Byte offsets of slice s's first element in the output and the input.
uvec2 slice_offsets(uint s)
{
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
    return o;
}

// ---- long slices: three stages through scratch (scan.c) --------------------------
// llvmpipe ends an invocation's loops after 65535 iterations in all, so a
// slice longer than a few chunks is scanned in stages, with the same bits:
// TOTALS folds each chunk (one invocation per slice and chunk) into record
// slice * chunks + chunk of scratch; CARRIES (one invocation per slice,
// chunks [s0.y, s1.x) per dispatch, the running carry kept in record
// slices * chunks + slice between dispatches) replaces each total by the
// carry into its chunk; APPLY folds each chunk again and writes the carry
// combined with the run. Records are 4 words: the value's two words, the
// index, unused. Push constants: numel = slices, s0.x = chunks per slice.
const int STAGE = (MODE >> 1) & 3;
const int STAGE_TOTALS = 1, STAGE_CARRIES = 2, STAGE_APPLY = 3;

uvec2 rec_words(Rec r)
{
#ifdef REDUCE_WIDE
    return IS_FLOAT ? unpackDouble2x32(r.f) : unpackUint2x32(uint64_t(r.i));
#else
    return uvec2(IS_FLOAT ? floatBitsToUint(r.f) : uint(r.i), 0u);
#endif
}

Rec rec_from(uvec2 w, uint index)
{
    Rec r;
#ifdef REDUCE_WIDE
    r.f = packDouble2x32(w);
    r.i = int64_t(packUint2x32(w));
#else
    r.f = uintBitsToFloat(w.x);
    r.i = int(w.x);
#endif
    r.index = index;
    return r;
}

// Scratch is the output binding except in APPLY, where it is input 1.
Rec rec_load(uint item)
{
    uint w = item * 4u;
    if (STAGE == STAGE_APPLY)
        return rec_from(uvec2(in1_w[w], in1_w[w + 1u]), in1_w[w + 2u]);
    return rec_from(uvec2(out_w[w], out_w[w + 1u]), out_w[w + 2u]);
}

void rec_store(uint item, Rec r)
{
    uvec2 v = rec_words(r);
    out_w[item * 4u] = v.x;
    out_w[item * 4u + 1u] = v.y;
    out_w[item * 4u + 2u] = r.index;
}

void stage_chunks(uint slices)
{
    uint chunks = pc.s0.x, length = meta[3], items = slices * chunks;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint w = gl_GlobalInvocationID.x; w < items; w += step) {
        uint c = w % chunks, begin = c * CHUNK;
        uvec2 o = slice_offsets(w / chunks);
        uint end = min(begin + CHUNK, length);
        if (STAGE == STAGE_TOTALS)
            rec_store(w, fold_chunk(o, begin, end, false, false, rec_from(uvec2(0u), 0u)));
        else
            fold_chunk(o, begin, end, true, c > 0u, rec_load(w));
        if (items - w <= step)
            break;
    }
}

void stage_carries(uint slices)
{
    uint chunks = pc.s0.x, first = pc.s0.y, last = pc.s1.x;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint s = gl_GlobalInvocationID.x; s < slices; s += step) {
        uint state = slices * chunks + s;
        Rec carry = rec_load(first > 0u ? state : s * chunks);
        for (uint c = max(first, 1u); c < last; ++c) {
            Rec total = rec_load(s * chunks + c);
            rec_store(s * chunks + c, carry);
            carry = rec_comb(carry, total);
        }
        rec_store(state, carry);
        if (slices - s <= step)
            break;
    }
}

// A short slice, whole, by one invocation: chunk after chunk, each
// combined with the carry into it.
void fold_chunk_all(uvec2 o, uint length)
{
    Rec carry = rec_from(uvec2(0u), 0u);
    for (uint begin = 0u; begin < length; begin += CHUNK) {
        Rec run = fold_chunk(o, begin, min(begin + CHUNK, length), true, begin > 0u, carry);
        carry = begin > 0u ? rec_comb(carry, run) : run;
    }
}

void main()
{
    uint slices = pc.numel;
    if (STAGE == STAGE_CARRIES) {
        stage_carries(slices);
        return;
    }
    if (STAGE != 0) {
        stage_chunks(slices);
        return;
    }
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint s = gl_GlobalInvocationID.x; s < slices; s += step) {
        fold_chunk_all(slice_offsets(s), meta[3]);
        if (slices - s <= step) // s + step would pass slices (or wrap)
            break;
    }
}
