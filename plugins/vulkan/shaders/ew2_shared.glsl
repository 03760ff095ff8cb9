// The ops of the second elementwise family whose steps are the same in
// float32 (ew_float2.glsl) and in double (ew_float64_2.glsl). GLSL has no
// generics, so the including file defines, before including this once:
//   EW2_T                                the computation type;
//   EW2_ISNAN, EW2_ISINF, EW2_NAN        its tm_ classification and NaN;
// and the predicates is_zero(EW2_T) (+0 or -0) and
// is_integral_already(EW2_T) (NaN, an infinity, or too large to have a
// fraction), which read the type's bits.

// floor, ceil, trunc and roundEven of GLSL on what needs rounding only.
EW2_T round_op(EW2_T x)
{
    if (is_integral_already(x))
        return x;
    switch (OP) {
    case TSR_OP_FLOOR: return floor(x);
    case TSR_OP_CEIL: return ceil(x);
    case TSR_OP_TRUNC: return trunc(x);
    }
    return roundEven(x);
}

// C's fmax/fmin (a NaN gives the other operand). +0 and -0 tie; PyTorch
// 1.13 keeps a for float32 but b for its reduced-precision path (MODE 1).
EW2_T fmax_fmin(EW2_T a, EW2_T b, bool take_max)
{
    if (EW2_ISNAN(a))
        return b;
    if (EW2_ISNAN(b))
        return a;
    if (is_zero(a) && is_zero(b))
        return MODE != 0 ? b : a;
    if (take_max)
        return a < b ? b : a;
    return b < a ? b : a;
}

// Maximum then minimum, NaN in x or a bound propagating (hardtanh).
EW2_T hardtanh_value(EW2_T x, EW2_T lo, EW2_T hi)
{
    if (EW2_ISNAN(x) || EW2_ISNAN(lo) || EW2_ISNAN(hi))
        return EW2_NAN();
    x = x < lo ? lo : x;
    return hi < x ? hi : x;
}

bool classify(EW2_T x)
{
    if (OP == TSR_OP_ISNAN)
        return EW2_ISNAN(x);
    if (OP == TSR_OP_ISINF)
        return EW2_ISINF(x);
    return !EW2_ISNAN(x) && !EW2_ISINF(x);
}

#undef EW2_T
#undef EW2_ISNAN
#undef EW2_ISINF
#undef EW2_NAN
