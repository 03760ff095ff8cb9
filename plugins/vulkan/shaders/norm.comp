#version 450
#extension GL_GOOGLE_include_directive : require
// layer_norm and rms_norm (OP) over the trailing dims, computed in float32
// on float16, bfloat16 and float32 storage (DT_IN), or with -DROWS_WIDE
// (needs shaderFloat64 and shaderInt64) as the reference does: sums in
// double, and each layer_norm step rounded to PyTorch's accumulation type
// (float, double for float64); rms_norm stays in double throughout.
//
// One workgroup per row (the normalized dims of one outer index). Sums fold
// the elements lid, lid + W, ... in order per invocation, then a fixed
// shared-memory tree, so the statistics are the same bits on every run.
// layer_norm takes two passes over the row, the mean and then the squared
// deviations from it, rather than E[x^2] - E[x]^2, which cancels when the
// mean is large against the spread; rms_norm sums x^2 only. Then
//     rstd = 1 / sqrt(var + eps),  y = (x * rstd + (-rstd * mean)) * w + b,
// the order of PyTorch's CPU kernel.
//
// A dispatch writes one output (MODE & 3): 0 = y, 1 = mean, 2 = rstd, so
// each pass binds out, x, weight, bias; the host records the statistics
// before y, which keeps y = x in place correct. MODE & 4: a weight (input
// 1), MODE & 8: a bias (input 2).
//
// Metadata (launch_rows.c): x's shape (outer dims, then the normalized
// dims) with byte strides; the weight and bias have 0 strides over the outer
// dims, mean and rstd 0 strides over the normalized ones. Push constants:
// numel = rows, ndim, s0 = (outer rank, row length), s1 = eps (float bits,
// or double bits with ROWS_WIDE).

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
#define r_div tm_ddiv
#define r_sqrt tm_dsqrt_ieee
#define r_isnan tm_disnan
#define r_isinf tm_disinf
#define r_nan tm_dnan
#else
#include "tm_math_f32.glsl"
#define real float
#define r_div tm_div
#define r_sqrt tm_sqrtf
#define r_isnan tm_isnan
#define r_isinf tm_isinf
#define r_nan tm_nan
#endif
#include "tm_convert.glsl"

shared real red[256]; // the workgroup size is at most 256 (pipeline.c)

real load_f(int slot, uint addr)
{
#ifdef ROWS_WIDE
    if (DT_IN == TSR_FLOAT64)
        return packDouble2x32(tsr_load_bits64(slot, addr));
#endif
    if (DT_IN == TSR_FLOAT16)
        return real(tm_f16_to_f32(tsr_load_bits(slot, addr, 2)));
    if (DT_IN == TSR_BFLOAT16)
        return real(tm_bf16_to_f32(tsr_load_bits(slot, addr, 2)));
    return real(uintBitsToFloat(tsr_load_bits(slot, addr, 4)));
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

// One layer_norm step rounded to PyTorch's accumulation type: float unless
// the data is float64. rms_norm (newer than 1.13) stays wide.
real acc_round(real v)
{
#ifdef ROWS_WIDE
    if (OP == TSR_OP_LAYER_NORM && DT_IN != TSR_FLOAT64)
        return real(float(v));
#endif
    return v;
}

#ifdef ROWS_WIDE
// a * b + c with the product's rounding error added back (Dekker's exact
// product, then a two-sum): GLSL's fma on doubles may be split into a
// multiply and an add (lavapipe splits it), which loses exactly the error a
// constant row normalizes to. Non-finite products take the plain path.
double fused_f64(double a, double b, double c)
{
    precise double p = a * b;
    if (tm_disnan(p) || tm_disinf(p))
        return p + c;
    precise double ta = 134217729.0 * a, tb = 134217729.0 * b;
    precise double ah = ta - (ta - a), bh = tb - (tb - b);
    precise double al = a - ah, bl = b - bh;
    precise double err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    precise double s = p + c;
    precise double v = s - p;
    precise double e = (p - (s - v)) + (c - v);
    precise double r = s + (e + err);
    return r;
}
#endif

// y = a * b + c as the reference computes it. With float data the wide
// variant's double product is exact, so this is PyTorch's fused float step;
// float64 is a multiply and an add, never contracted (`precise`). The float
// variant asks for a fused step, which a driver may split (lavapipe does):
// then a row of equal values, where x * rstd - rstd * mean is nothing but
// the product's rounding error, normalizes to 0 instead of that error.
real mul_add(real a, real b, real c)
{
#ifdef ROWS_WIDE
    // float64 layer_norm fuses as PyTorch's vector code does; rms_norm, which
    // 1.13 lacks, multiplies and adds.
    if (OP == TSR_OP_LAYER_NORM && DT_IN == TSR_FLOAT64)
        return fused_f64(a, b, c);
    precise real r = a * b + c;
    return r;
#else
    return fma(a, b, c);
#endif
}

// A sum over the workgroup with a tree whose shape depends only on its size.
real tree_sum(real v)
{
    uint lid = gl_LocalInvocationID.x, w = gl_WorkGroupSize.x;
    red[lid] = v;
    barrier();
    uint p = 1u;
    while (p < w)
        p <<= 1;
    for (uint s = p >> 1; s > 0u; s >>= 1) {
        if (lid < s && lid + s < w)
            red[lid] += red[lid + s];
        barrier();
    }
    real r = red[0];
    barrier(); // red is reused by the next sum
    return r;
}

// Byte offsets of the four operands for position i of dims [d0, d1).
uvec4 dims_offsets(uint i, int d0, int d1)
{
    uvec4 o = uvec4(0u);
    const int S = TSR_META_STRIDES;
    for (int d = d1 - 1; d >= d0; --d) {
        uint c = i;
        if (d > d0) {
            uint n = meta[TSR_META_SHAPE + d];
            c = i % n;
            i /= n;
        }
        o += c * uvec4(meta[S + d], meta[S + TSR_MAX_DIMS + d], meta[S + 2 * TSR_MAX_DIMS + d],
                       meta[S + 3 * TSR_MAX_DIMS + d]);
    }
    return o;
}

// Sum over the row at `xbase` of x, or of (x - center)^2.
real row_sum(uint xbase, int outer, int nd, uint len, bool squares, real center)
{
    uint lid = gl_LocalInvocationID.x, w = gl_WorkGroupSize.x;
    real s = real(0.0);
#ifdef ROWS_WIDE
    // float64 rows are summed in order by one invocation, as the reference
    // sums them: the tree's other rounding shows in degenerate rows (equal
    // values, where only rounding noise is left to normalize). Narrower data
    // is summed in double, where the order does not reach its precision.
    if (DT_IN == TSR_FLOAT64) {
        for (uint e = 0u; lid == 0u && e < len; ++e) {
            real d = load_f(0, xbase + dims_offsets(e, outer, nd).y) - center;
            s += squares ? d * d : d;
        }
        return tree_sum(s);
    }
#endif
    for (uint e = lid; e < len; e += w) {
        real d = load_f(0, xbase + dims_offsets(e, outer, nd).y) - center;
        s += squares ? d * d : d;
        if (len - e <= w)
            break;
    }
    return tree_sum(s);
}

void main()
{
    int PASS = MODE & 3;
    bool HAS_W = (MODE & 4) != 0, HAS_B = (MODE & 8) != 0;
    bool RMS = OP == TSR_OP_RMS_NORM;
    int outer = int(pc.s0.x), nd = int(pc.ndim);
    uint len = pc.s0.y, rows = pc.numel;
    uint lid = gl_LocalInvocationID.x, w = gl_WorkGroupSize.x;
#ifdef ROWS_WIDE
    real eps = packDouble2x32(pc.s1);
#else
    real eps = uintBitsToFloat(pc.s1.x);
#endif
    real count = real(len);
    uvec4 base0 = uvec4(meta[TSR_META_BASE], meta[TSR_META_BASE + 1], meta[TSR_META_BASE + 2],
                        meta[TSR_META_BASE + 3]);
    for (uint r = gl_WorkGroupID.x; r < rows; r += gl_NumWorkGroups.x) {
        uvec4 base = base0 + dims_offsets(r, 0, outer);
        real mean = real(0.0);
        if (!RMS && len > 0u)
            mean = r_div(row_sum(base.y, outer, nd, len, false, real(0.0)), count);
        // The mean of the deviations puts back the bits a float64 sum lost, so a
        // constant row's mean is its value exactly, as PyTorch's Welford mean is.
        if (!RMS && len > 0u)
            mean += r_div(row_sum(base.y, outer, nd, len, false, mean), count);
        real var = acc_round(r_div(row_sum(base.y, outer, nd, len, true, mean), count));
        mean = acc_round(mean);
        // Step by step in the accumulation type, as PyTorch: rstd's last bit is the
        // answer on constant rows (x * rstd - rstd * mean, one rounding).
        real rstd = acc_round(r_div(real(1.0), acc_round(r_sqrt(acc_round(var + acc_round(eps))))));
        real shift = acc_round(-rstd * mean);
        // rms_norm's mean is a constant 0 once specialised, and compilers
        // fold -rstd * 0 to 0; IEEE (and the reference) make it NaN for an
        // infinite rstd, which turns every y of the row into NaN.
        if (RMS && (r_isnan(rstd) || r_isinf(rstd)))
            shift = r_nan();
        if (PASS != 0) {
            if (lid == 0u)
                store_f(base.x, PASS == 1 ? mean : rstd);
        } else {
            for (uint e = lid; e < len; e += w) {
                uvec4 o = base + dims_offsets(e, outer, nd);
                real y = acc_round(mul_add(load_f(0, o.y), rstd, shift));
                if (HAS_W)
                    y = acc_round(mul_add(y, load_f(1, o.z), HAS_B ? load_f(2, o.w) : real(0.0)));
                store_f(o.x, y);
                if (len - e <= w)
                    break;
            }
        }
        if (rows - r <= gl_NumWorkGroups.x) // r + step would pass rows (or wrap)
            break;
    }
}
