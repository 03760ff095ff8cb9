// The second elementwise family computed in float32, for ew_float.comp
// (float16, bfloat16 and float32 storage). The transcendental functions of
// the family are not here: they go through doubles (ew_float64.comp).
//
// Attribute values arrive as float32 bits in the push-constant words, already
// converted to the storage dtype on the host, as PyTorch's
// Scalar::to<scalar_t>() converts them (elementwise2.c):
//   softplus {beta, threshold}, leaky_relu {slope}, elu {alpha * scale,
//   scale, input_scale}, hardtanh {min, max}, round {10^|decimals|},
//   nan_to_num {nan, posinf, neginf}, lerp {weight} (a scalar weight),
//   addcmul / addcdiv {value}.
// MODE is round's decimals, lerp's 1 for a scalar weight, fmax/fmin's tie
// rule (1: take b), 0 otherwise.

float param(int k)
{
    if (k == 0)
        return uintBitsToFloat(pc.s0.x);
    if (k == 1)
        return uintBitsToFloat(pc.s0.y);
    if (k == 2)
        return uintBitsToFloat(pc.s1.x);
    return uintBitsToFloat(pc.s1.y);
}

// A float32 value rounded to the storage dtype: PyTorch rounds some
// intermediate steps of float16 and bfloat16 ops to the element type.
float round_dt(float v)
{
    if (DT_IN == TSR_BFLOAT16)
        return tm_bf16_to_f32(tm_f32_to_bf16(v));
    if (DT_IN == TSR_FLOAT16)
        return tm_f16_to_f32(tm_f32_to_f16(v));
    return v;
}

bool is_zero(float v) { return (floatBitsToUint(v) & 0x7fffffffu) == 0u; }

// NaN, infinities and values from 2^23 up are integers already.
bool is_integral_already(float v) { return (floatBitsToUint(v) & 0x7fffffffu) >= 0x4b000000u; }

// round_op, fmax_fmin, hardtanh_value and classify, in float32.
#define EW2_T float
#define EW2_ISNAN tm_isnan
#define EW2_ISINF tm_isinf
#define EW2_NAN tm_nan
#include "ew2_shared.glsl"

float binary2(float a, float b)
{
    switch (OP) {
    case TSR_OP_FMOD: return tm_fmod(a, b);
    case TSR_OP_COPYSIGN:
        return uintBitsToFloat((floatBitsToUint(a) & 0x7fffffffu) |
                               (floatBitsToUint(b) & 0x80000000u));
    case TSR_OP_FMAX: return fmax_fmin(a, b, true);
    case TSR_OP_FMIN: return fmax_fmin(a, b, false);
    }
    return a;
}

// round(x, decimals): each step in the element type, as PyTorch does.
float round_decimals(float x)
{
    float power = param(0);
    if (MODE > 0)
        return tm_div(round_op(round_dt(x * power)), power);
    return round_op(round_dt(tm_div(x, power))) * power;
}

float softplus(float x)
{
    float scaled = x * param(0);
    if (scaled > param(1))
        return x;
    float e = tm_exp(scaled);
    return tm_div(tm_isinf(e) ? e : tm_log1p(e), param(0));
}

float unary2(float x)
{
    switch (OP) {
    case TSR_OP_SILU: return tm_div(x, 1.0f + tm_exp(-x));
    case TSR_OP_SOFTPLUS: return softplus(x);
    case TSR_OP_LEAKY_RELU: return x > 0.0f ? x : x * param(0);
    case TSR_OP_ELU: // exp(..) - 1 rather than expm1, as PyTorch writes it
        return x <= 0.0f ? (tm_exp(x * param(2)) - 1.0f) * param(0) : x * param(1);
    case TSR_OP_HARDTANH: return hardtanh_value(x, param(0), param(1));
    case TSR_OP_FLOOR:
    case TSR_OP_CEIL:
    case TSR_OP_TRUNC: return round_op(x);
    case TSR_OP_ROUND: return MODE == 0 ? round_op(x) : round_decimals(x);
    case TSR_OP_FRAC: // inf gives NaN, -0 gives +0
        return x - (is_integral_already(x) ? x : trunc(x));
    case TSR_OP_RECIPROCAL: return tm_div(1.0f, x);
    case TSR_OP_SQUARE: return x * x;
    case TSR_OP_NAN_TO_NUM:
        if (tm_isnan(x))
            return param(0);
        if (tm_isinf(x))
            return floatBitsToUint(x) == 0x7f800000u ? param(1) : param(2);
        return x;
    }
    return x;
}

// lerp as PyTorch 1.13's CPU kernel: the form depends on the weight, the
// last multiply-add fused.
float ternary2(float s, float t1, float t2)
{
    if (OP == TSR_OP_LERP) {
        float w = MODE == 1 ? param(0) : t2;
        float d = t1 - s;
        // precise: fma() stays one fused operation (Mesa splits it otherwise)
        precise float r = w < 0.5f ? fma(w, d, s) : fma(-d, 1.0f - w, t1);
        return r;
    }
    float scaled = param(0) * t1;
    if (OP == TSR_OP_ADDCMUL) {
        precise float r = fma(scaled, t2, s);
        return r;
    }
    return s + tm_div(scaled, t2); // addcdiv
}
