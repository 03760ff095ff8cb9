#version 450
#extension GL_GOOGLE_include_directive : require
// Elementwise ops computed in float32, on float16, bfloat16 and float32
// storage (DT_IN; DT_OUT is the same dtype or bool). float16 and bfloat16
// are widened, computed and rounded once, as PyTorch's CPU kernels do.
// pow is not here: it needs doubles (ew_float64).

#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#include "tm_math_f32.glsl"
#include "tm_convert.glsl"
#include "ew_float2.glsl"

float load_f(int slot, uint addr)
{
    if (DT_IN == TSR_FLOAT16)
        return tm_f16_to_f32(tsr_load_bits(slot, addr, 2));
    if (DT_IN == TSR_BFLOAT16)
        return tm_bf16_to_f32(tsr_load_bits(slot, addr, 2));
    return uintBitsToFloat(tsr_load_bits(slot, addr, 4));
}

void store_f(uint addr, float v)
{
    if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(v));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(v));
    else
        tsr_store_bits(addr, 4, floatBitsToUint(v));
}

bool truthy(float v) { return (floatBitsToUint(v) & 0x7fffffffu) != 0u; } // NaN is true

float binary(float a, float b)
{
    float alpha = uintBitsToFloat(pc.s0.x);
    switch (OP) {
    case TSR_OP_ADD: return a + alpha * b;
    case TSR_OP_SUB: return a - alpha * b;
    case TSR_OP_MUL: return a * b;
    case TSR_OP_DIV:
        if (MODE == TSR_ROUND_TRUNC) // the quotient in the element type, then truncated
            return tm_trunc(round_dt(tm_div(a, b)));
        if (MODE == TSR_ROUND_FLOOR)
            return tm_floor_divide(a, b);
        return tm_div(a, b);
    case TSR_OP_FLOOR_DIVIDE: return tm_floor_divide(a, b);
    case TSR_OP_REMAINDER: return tm_remainder(a, b);
    case TSR_OP_MAXIMUM: return tm_isnan(a) || tm_isnan(b) ? tm_nan() : (a < b ? b : a);
    case TSR_OP_MINIMUM: return tm_isnan(a) || tm_isnan(b) ? tm_nan() : (b < a ? b : a);
    }
    return a;
}

bool predicate(float a, float b)
{
    switch (OP) {
    case TSR_OP_EQ: return a == b;
    case TSR_OP_NE: return a != b;
    case TSR_OP_LT: return a < b;
    case TSR_OP_LE: return a <= b;
    case TSR_OP_GT: return a > b;
    case TSR_OP_GE: return a >= b;
    case TSR_OP_LOGICAL_AND: return truthy(a) && truthy(b);
    case TSR_OP_LOGICAL_OR: return truthy(a) || truthy(b);
    case TSR_OP_LOGICAL_XOR: return truthy(a) != truthy(b);
    }
    return false;
}

// sign and relu decide on the bits: a compiler that assumes no NaN or
// signed zero (Mesa's NIR does without float controls) turns the obvious
// comparisons into fsign/fmax, which give -0 or drop NaN.
bool is_negative(float x)
{
    uint u = floatBitsToUint(x);
    return u > 0x80000000u && u <= 0xff800000u; // below -0, not NaN
}

float sign_of(float x)
{
    uint u = floatBitsToUint(x);
    if ((u & 0x7fffffffu) == 0u || (u & 0x7fffffffu) > 0x7f800000u)
        return uintBitsToFloat(0u); // +0 for -0, +0 and NaN
    return uintBitsToFloat((u & 0x80000000u) | 0x3f800000u);
}

float unary(float x)
{
    switch (OP) {
    case TSR_OP_NEG: return uintBitsToFloat(floatBitsToUint(x) ^ 0x80000000u);
    case TSR_OP_ABS: return tm_fabs(x);
    case TSR_OP_SIGN: return sign_of(x);
    case TSR_OP_EXP: return tm_exp(x);
    case TSR_OP_LOG: return tm_log(x);
    // PyTorch's (SLEEF's) log1p answers inf above 1e38, where the true value is < 89
    case TSR_OP_LOG1P: return x > 1e38 ? tm_inf() : tm_log1p(x);
    case TSR_OP_EXPM1: return tm_expm1(x);
    case TSR_OP_SQRT: return tm_sqrtf(x);
    case TSR_OP_RSQRT: return tm_div(1.0f, tm_sqrtf(x));
    case TSR_OP_SIN: return tm_sin(x);
    case TSR_OP_COS: return tm_cos(x);
    case TSR_OP_TANH: return tm_tanh(x);
    case TSR_OP_SIGMOID: return tm_sigmoid(x);
    case TSR_OP_RELU: return is_negative(x) ? 0.0f : x; // keeps NaN and -0
    case TSR_OP_GELU: return MODE == TSR_GELU_TANH ? tm_gelu_tanh(x) : tm_gelu(x);
    case TSR_OP_ERF: return tm_erf(x);
    }
    return x;
}

// PyTorch's clamp: NaN in x or in a present bound propagates (except a lone
// Python-scalar bound, see plugin.h); the minimum is applied first, so
// min > max gives max.
float clamp_value(float x, float lo, float hi)
{
    if (tm_isnan(x))
        return x;
    // Python-scalar bounds: PyTorch ignores a NaN bound when it is the only one.
    bool keep_nan = (MODE & TSR_CLAMP_SCALAR_BOUNDS) == 0 ||
                    (MODE & (TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX)) ==
                        (TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX);
    if ((MODE & TSR_CLAMP_HAS_MIN) != 0) {
        if (tm_isnan(lo)) {
            if (keep_nan)
                return lo;
        } else {
            x = x < lo ? lo : x;
        }
    }
    if ((MODE & TSR_CLAMP_HAS_MAX) != 0) {
        if (tm_isnan(hi)) {
            if (keep_nan)
                return hi;
        } else {
            x = hi < x ? hi : x;
        }
    }
    return x;
}

void tsr_element(uvec4 o)
{
    if (OP == TSR_OP_CLAMP) {
        float lo = (MODE & TSR_CLAMP_HAS_MIN) != 0 ? load_f(1, o.z) : 0.0f;
        float hi = (MODE & TSR_CLAMP_HAS_MAX) != 0 ? load_f(2, o.w) : 0.0f;
        store_f(o.x, clamp_value(load_f(0, o.y), lo, hi));
    } else if (OP == TSR_OP_LOGICAL_NOT) {
        tsr_store_bool(o.x, !truthy(load_f(0, o.y)));
    } else if (OP >= TSR_OP_EQ && OP <= TSR_OP_LOGICAL_XOR) {
        tsr_store_bool(o.x, predicate(load_f(0, o.y), load_f(1, o.z)));
    } else if (OP >= TSR_OP_ADD && OP <= TSR_OP_MINIMUM) {
        store_f(o.x, binary(load_f(0, o.y), load_f(1, o.z)));
    } else if (OP >= TSR_OP_FMOD && OP <= TSR_OP_FMIN) {
        store_f(o.x, binary2(load_f(0, o.y), load_f(1, o.z)));
    } else if (OP >= TSR_OP_ISNAN && OP <= TSR_OP_ISFINITE) {
        tsr_store_bool(o.x, classify(load_f(0, o.y)));
    } else if (OP >= TSR_OP_LERP && OP <= TSR_OP_ADDCDIV) {
        // lerp's input 2 repeats start when the weight is a scalar: not read
        float t2 = OP == TSR_OP_LERP && MODE == 1 ? 0.0f : load_f(2, o.w);
        store_f(o.x, ternary2(load_f(0, o.y), load_f(1, o.z), t2));
    } else if (OP >= TSR_OP_FMOD) {
        store_f(o.x, unary2(load_f(0, o.y)));
    } else {
        store_f(o.x, unary(load_f(0, o.y)));
    }
}
