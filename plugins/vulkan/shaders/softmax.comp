#version 450
#extension GL_GOOGLE_include_directive : require
// softmax and log_softmax (OP) along one dim, computed in float32 on
// float16, bfloat16 and float32 storage (DT_IN), or with -DROWS_WIDE (needs
// shaderFloat64 and shaderInt64) in double on those and float64, as the
// reference does; either way rounded once.
//
// One workgroup per row. Each invocation folds the elements lid, lid + W,
// lid + 2W, ... of its row in order, then a shared-memory tree with a fixed
// shape combines the W partial results, so a row gives the same bits on
// every run. The row's maximum is subtracted before exp (softmax of
// [1000, 1000] is [0.5, 0.5]); log_softmax is (x - max) - log(sum), never
// log(softmax). A row holding NaN, +inf or only -inf becomes NaN, as in
// PyTorch, without a special case: exp(NaN) and inf - inf are NaN.
//
// Metadata (launch_rows.c): the outer dims, then the row's dim, with the
// byte strides of out and x (input 0). Push constants: numel = rows,
// ndim, s0 = (outer rank, row length).

#define TSR_NO_ELEMENT_LOOP
#ifdef ROWS_WIDE
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define TM_INT64
#define TM_DOUBLE
#endif
#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#ifdef ROWS_WIDE
#include "tm_math_f64.glsl"
#define real double
#define r_isnan tm_disnan
#define r_nan tm_dnan
#define r_inf tm_dinf
#define r_exp tm_dexp
#define r_log tm_dlog
#define r_div tm_ddiv
#else
#include "tm_math_f32.glsl"
#define real float
#define r_isnan tm_isnan
#define r_nan tm_nan
#define r_inf tm_inf
#define r_exp tm_exp
#define r_log tm_log
#define r_div tm_div
#endif
#include "tm_convert.glsl"

shared real red[256]; // the workgroup size is at most 256 (pipeline.c)

real load_f(uint addr)
{
#ifdef ROWS_WIDE
    if (DT_IN == TSR_FLOAT64)
        return packDouble2x32(tsr_load_bits64(0, addr));
#endif
    if (DT_IN == TSR_FLOAT16)
        return real(tm_f16_to_f32(tsr_load_bits(0, addr, 2)));
    if (DT_IN == TSR_BFLOAT16)
        return real(tm_bf16_to_f32(tsr_load_bits(0, addr, 2)));
    return real(uintBitsToFloat(tsr_load_bits(0, addr, 4)));
}

void store_f(uint addr, real v)
{
#ifdef ROWS_WIDE
    if (DT_OUT == TSR_FLOAT64) {
        tsr_store_bits64(addr, unpackDouble2x32(v));
        return;
    }
#endif
    // float64 to float16 goes through float32, as c10::Half does.
    if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(float(v)));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(float(v)));
    else
        tsr_store_bits(addr, 4, floatBitsToUint(float(v)));
}

// NaN wins, decided on the bits (a driver may assume there is no NaN).
real max_nan(real a, real b)
{
    if (r_isnan(a) || r_isnan(b))
        return r_nan();
    return b > a ? b : a;
}

// Combines one value per invocation over a tree whose shape depends only on
// the workgroup size; every invocation gets the result.
real tree(real v, bool is_max)
{
    uint lid = gl_LocalInvocationID.x, w = gl_WorkGroupSize.x;
    red[lid] = v;
    barrier();
    uint p = 1u;
    while (p < w)
        p <<= 1;
    for (uint s = p >> 1; s > 0u; s >>= 1) {
        if (lid < s && lid + s < w)
            red[lid] = is_max ? max_nan(red[lid], red[lid + s]) : red[lid] + red[lid + s];
        barrier();
    }
    real r = red[0];
    barrier(); // red is reused by the next tree
    return r;
}

// Byte offsets of out and x for position i of dims [d0, d1) (row-major).
uvec2 dims_offsets(uint i, int d0, int d1)
{
    uvec2 o = uvec2(0u);
    const int S = TSR_META_STRIDES;
    for (int d = d1 - 1; d >= d0; --d) {
        uint c = i;
        if (d > d0) {
            uint n = meta[TSR_META_SHAPE + d];
            c = i % n;
            i /= n;
        }
        o += c * uvec2(meta[S + d], meta[S + TSR_MAX_DIMS + d]);
    }
    return o;
}

void main()
{
    int outer = int(pc.s0.x), nd = int(pc.ndim);
    uint len = pc.s0.y, rows = pc.numel;
    uint lid = gl_LocalInvocationID.x, w = gl_WorkGroupSize.x;
    uint step = meta[TSR_META_STRIDES + nd - 1], xstep = meta[TSR_META_STRIDES + TSR_MAX_DIMS + nd - 1];
    for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
        uvec2 base = uvec2(meta[TSR_META_BASE], meta[TSR_META_BASE + 1]) + dims_offsets(r, 0, outer);
        real m = -r_inf();
        for (uint e = lid; e < len; e += w) {
            m = max_nan(m, load_f(base.y + e * xstep));
            if (len - e <= w)
                break;
        }
        real mx = tree(m, true);
        real s = real(0.0);
        for (uint e = lid; e < len; e += w) {
            s += r_exp(load_f(base.y + e * xstep) - mx);
            if (len - e <= w)
                break;
        }
        real sum = tree(s, false);
        real log_sum = OP == TSR_OP_LOG_SOFTMAX ? r_log(sum) : real(0.0);
        for (uint e = lid; e < len; e += w) {
            real shifted = load_f(base.y + e * xstep) - mx;
            store_f(base.x + e * step,
                    OP == TSR_OP_LOG_SOFTMAX ? shifted - log_sum : r_div(r_exp(shifted), sum));
            if (len - e <= w)
                break;
        }
        if (rows - r <= gl_NumWorkGroups.x) // r + step would pass rows (or wrap)
            break;
    }
}
