// The second elementwise family computed in double, for ew_float64.comp:
// every op of the family on float64 storage, and the transcendental ones
// (exp2, log2, log10, tan, asin, acos, atan, the hyperbolic functions,
// erfc, atan2, hypot), lerp and addcmul on
// bfloat16 and float32 storage, rounded once from the double result.
//
// Attribute values arrive as doubles in the two push-constant scalars; an
// op with a third (elu's input_scale, nan_to_num's neginf) gets it as a
// one-element float64 tensor broadcast into input 1 (elementwise2.c).
// The order is ew_float2.glsl's. MODE is as there.

double dparam(int k) { return packDouble2x32(k == 0 ? pc.s0 : pc.s1); }

bool is_zero(double v) { return tm_dabsbits(v) == 0UL; }

// NaN, infinities and values from 2^52 up are integers already.
bool is_integral_already(double v) { return tm_dabsbits(v) >= 0x4330000000000000UL; }

// round_op, fmax_fmin, hardtanh_value and classify, in double.
#define EW2_T double
#define EW2_ISNAN tm_disnan
#define EW2_ISINF tm_disinf
#define EW2_NAN tm_dnan
#include "ew2_shared.glsl"

double binary2(double a, double b)
{
    switch (OP) {
    case TSR_OP_FMOD: return tm_dfmod(a, b);
    case TSR_OP_COPYSIGN:
        return tm_bits2d((tm_d2bits(a) & 0x7fffffffffffffffUL) |
                         (tm_d2bits(b) & 0x8000000000000000UL));
    case TSR_OP_FMAX: return fmax_fmin(a, b, true);
    case TSR_OP_FMIN: return fmax_fmin(a, b, false);
    case TSR_OP_HYPOT: return tm_dhypot(a, b);
    case TSR_OP_ATAN2: return tm_datan2(a, b);
    }
    return a;
}

double d_round_decimals(double x)
{
    double power = dparam(0);
    if (MODE > 0)
        return tm_ddiv(round_op(x * power), power);
    return round_op(tm_ddiv(x, power)) * power;
}

double d_softplus(double x)
{
    double scaled = x * dparam(0);
    if (scaled > dparam(1))
        return x;
    return tm_ddiv(tm_dlog1p(tm_dexp(scaled)), dparam(0));
}

// p2: the third attribute (elu's input_scale, nan_to_num's neginf).
double unary2(double x, double p2)
{
    switch (OP) {
    case TSR_OP_EXP2: return tm_dexp2_any(x);
    case TSR_OP_LOG2: return tm_dlog2_any(x);
    case TSR_OP_LOG10: return tm_dlog10(x);
    case TSR_OP_TAN: return tm_dtan(x);
    case TSR_OP_ASIN: return tm_dasin(x);
    case TSR_OP_ACOS: return tm_dacos(x);
    case TSR_OP_ATAN: return tm_datan(x);
    case TSR_OP_SINH: return tm_dsinh(x);
    case TSR_OP_COSH: return tm_dcosh(x);
    case TSR_OP_ASINH: return tm_dasinh(x);
    case TSR_OP_ACOSH: return tm_dacosh(x);
    case TSR_OP_ATANH: return tm_datanh(x);
    case TSR_OP_ERFC: return tm_derfc(x);
    case TSR_OP_SILU: return tm_ddiv(x, 1.0lf + tm_dexp(-x));
    case TSR_OP_SOFTPLUS: return d_softplus(x);
    case TSR_OP_LEAKY_RELU: return x > 0.0lf ? x : x * dparam(0);
    case TSR_OP_ELU:
        return x <= 0.0lf ? (tm_dexp(x * p2) - 1.0lf) * dparam(0) : x * dparam(1);
    case TSR_OP_HARDTANH: return hardtanh_value(x, dparam(0), dparam(1));
    case TSR_OP_FLOOR:
    case TSR_OP_CEIL:
    case TSR_OP_TRUNC: return round_op(x);
    case TSR_OP_ROUND: return MODE == 0 ? round_op(x) : d_round_decimals(x);
    case TSR_OP_FRAC: return x - (is_integral_already(x) ? x : trunc(x));
    case TSR_OP_RECIPROCAL: return tm_ddiv(1.0lf, x);
    case TSR_OP_SQUARE: return x * x;
    case TSR_OP_NAN_TO_NUM:
        if (tm_disnan(x))
            return dparam(0);
        if (tm_disinf(x))
            return x > 0.0lf ? dparam(1) : p2;
        return x;
    }
    return x;
}

// A step of a float-storage op rounded to float, PyTorch's opmath type.
double opmath(double v) { return DT_IN == TSR_FLOAT64 ? v : double(float(v)); }

// On float storage, lerp and addcmul come here for their fused last step:
// a product of two floats is exact in double, so one double addition and
// the rounding to float give the float fma (as the reference computes it)
// on drivers that split fma().
double ternary2(double s, double t1, double t2)
{
    if (OP == TSR_OP_LERP) {
        double w = MODE == 1 ? dparam(0) : t2;
        double d = opmath(t1 - s);
        if (DT_IN != TSR_FLOAT64)
            return w < 0.5lf ? w * d + s : t1 - d * opmath(1.0lf - w);
        // precise: fma() stays one fused operation (Mesa splits it otherwise)
        precise double r = w < 0.5lf ? fma(w, d, s) : fma(-d, 1.0lf - w, t1);
        return r;
    }
    double scaled = opmath(dparam(0) * t1);
    if (OP == TSR_OP_ADDCMUL && DT_IN != TSR_FLOAT64)
        return scaled * t2 + s;
    if (OP == TSR_OP_ADDCMUL) {
        precise double r = fma(scaled, t2, s);
        return r;
    }
    return s + tm_ddiv(scaled, t2); // addcdiv
}
