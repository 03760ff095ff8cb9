#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Elementwise ops computed in double (needs shaderFloat64 and shaderInt64):
// every op on float64 storage, and pow on float32, float16 and bfloat16
// storage, which is rounded from a double result (tm_powf); the second
// family's transcendental ops likewise (ew_float64_2.glsl).

#define TM_INT64
#define TM_DOUBLE
#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#include "tm_math_f64.glsl"
#include "tm_hyper_f64.glsl"
#include "tm_convert.glsl"
#include "ew_float64_2.glsl"

double load_d(int slot, uint addr)
{
    if (DT_IN == TSR_FLOAT64)
        return packDouble2x32(tsr_load_bits64(slot, addr));
    if (DT_IN == TSR_FLOAT16)
        return double(tm_f16_to_f32(tsr_load_bits(slot, addr, 2)));
    if (DT_IN == TSR_BFLOAT16)
        return double(tm_bf16_to_f32(tsr_load_bits(slot, addr, 2)));
    return double(uintBitsToFloat(tsr_load_bits(slot, addr, 4)));
}

void store_d(uint addr, double v)
{
    if (DT_OUT == TSR_FLOAT64)
        tsr_store_bits64(addr, unpackDouble2x32(v));
    else if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(float(v)));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(float(v)));
    else
        tsr_store_bits(addr, 4, floatBitsToUint(float(v)));
}

bool truthy(double v) { return tm_dabsbits(v) != 0UL; } // NaN is true

double binary(double a, double b)
{
    double alpha = packDouble2x32(pc.s0);
    switch (OP) {
    case TSR_OP_ADD: return a + alpha * b;
    case TSR_OP_SUB: return a - alpha * b;
    case TSR_OP_MUL: return a * b;
    case TSR_OP_DIV:
        if (MODE == TSR_ROUND_TRUNC)
            return tm_dtrunc(tm_ddiv(a, b));
        if (MODE == TSR_ROUND_FLOOR)
            return tm_dfloor_divide(a, b);
        return tm_ddiv(a, b);
    case TSR_OP_FLOOR_DIVIDE: return tm_dfloor_divide(a, b);
    case TSR_OP_REMAINDER: return tm_dremainder(a, b);
    case TSR_OP_POW:
        if (DT_IN != TSR_FLOAT64) // float storage: round the double result once
            return double(tm_powf(float(a), float(b)));
        return tm_dpow(a, b);
    case TSR_OP_MAXIMUM: return tm_disnan(a) || tm_disnan(b) ? tm_dnan() : (a < b ? b : a);
    case TSR_OP_MINIMUM: return tm_disnan(a) || tm_disnan(b) ? tm_dnan() : (b < a ? b : a);
    }
    return a;
}

bool predicate(double a, double b)
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

// On the bits, like ew_float.comp's, so no compiler turns them into
// fsign/fmax.
bool is_negative(double x)
{
    uint64_t u = tm_d2bits(x);
    return u > 0x8000000000000000UL && u <= 0xfff0000000000000UL;
}

double sign_of(double x)
{
    uint64_t a = tm_dabsbits(x);
    if (a == 0UL || a > 0x7ff0000000000000UL)
        return tm_bits2d(0UL);
    return tm_bits2d((tm_d2bits(x) & 0x8000000000000000UL) | 0x3ff0000000000000UL);
}

double unary(double x)
{
    switch (OP) {
    case TSR_OP_NEG: return tm_bits2d(tm_d2bits(x) ^ 0x8000000000000000UL);
    case TSR_OP_ABS: return tm_dfabs(x);
    case TSR_OP_SIGN: return sign_of(x);
    case TSR_OP_EXP: return tm_dexp(x);
    case TSR_OP_LOG: return tm_dlog(x);
    // PyTorch's (SLEEF's) log1p answers inf above 1e307, where the true value is < 707
    case TSR_OP_LOG1P: return x > 1e307lf ? tm_dinf() : tm_dlog1p(x);
    case TSR_OP_EXPM1: return tm_dexpm1(x);
    case TSR_OP_SQRT: return tm_dsqrt_ieee(x);
    case TSR_OP_RSQRT: return tm_ddiv(1.0lf, tm_dsqrt_ieee(x));
    case TSR_OP_SIN: return tm_dsin(x);
    case TSR_OP_COS: return tm_dcos(x);
    case TSR_OP_TANH: return tm_dtanh(x);
    case TSR_OP_SIGMOID: return tm_dsigmoid(x);
    case TSR_OP_RELU: return is_negative(x) ? 0.0lf : x; // keeps NaN and -0
    case TSR_OP_GELU: return MODE == TSR_GELU_TANH ? tm_dgelu_tanh(x) : tm_dgelu(x);
    case TSR_OP_ERF: return tm_derf(x);
    }
    return x;
}

double clamp_value(double x, double lo, double hi)
{
    if (tm_disnan(x))
        return x;
    // Python-scalar bounds: PyTorch ignores a NaN bound when it is the only one.
    bool keep_nan = (MODE & TSR_CLAMP_SCALAR_BOUNDS) == 0 ||
                    (MODE & (TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX)) ==
                        (TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX);
    if ((MODE & TSR_CLAMP_HAS_MIN) != 0) {
        if (tm_disnan(lo)) {
            if (keep_nan)
                return lo;
        } else {
            x = x < lo ? lo : x;
        }
    }
    if ((MODE & TSR_CLAMP_HAS_MAX) != 0) {
        if (tm_disnan(hi)) {
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
        double lo = (MODE & TSR_CLAMP_HAS_MIN) != 0 ? load_d(1, o.z) : 0.0lf;
        double hi = (MODE & TSR_CLAMP_HAS_MAX) != 0 ? load_d(2, o.w) : 0.0lf;
        store_d(o.x, clamp_value(load_d(0, o.y), lo, hi));
    } else if (OP == TSR_OP_LOGICAL_NOT) {
        tsr_store_bool(o.x, !truthy(load_d(0, o.y)));
    } else if (OP >= TSR_OP_EQ && OP <= TSR_OP_LOGICAL_XOR) {
        tsr_store_bool(o.x, predicate(load_d(0, o.y), load_d(1, o.z)));
    } else if (OP >= TSR_OP_ADD && OP <= TSR_OP_MINIMUM) {
        store_d(o.x, binary(load_d(0, o.y), load_d(1, o.z)));
    } else if (OP >= TSR_OP_FMOD && OP <= TSR_OP_FMIN) {
        store_d(o.x, binary2(load_d(0, o.y), load_d(1, o.z)));
    } else if (OP >= TSR_OP_ISNAN && OP <= TSR_OP_ISFINITE) {
        tsr_store_bool(o.x, classify(load_d(0, o.y)));
    } else if (OP >= TSR_OP_LERP && OP <= TSR_OP_ADDCDIV) {
        // lerp's input 2 repeats start when the weight is a scalar: not read
        double t2 = OP == TSR_OP_LERP && MODE == 1 ? 0.0lf : load_d(2, o.w);
        store_d(o.x, ternary2(load_d(0, o.y), load_d(1, o.z), t2));
    } else if (OP >= TSR_OP_FMOD) {
        bool third = OP == TSR_OP_ELU || OP == TSR_OP_NAN_TO_NUM; // see ew_float64_2.glsl
        store_d(o.x, unary2(load_d(0, o.y), third ? load_d(1, o.z) : 0.0lf));
    } else {
        store_d(o.x, unary(load_d(0, o.y)));
    }
}
