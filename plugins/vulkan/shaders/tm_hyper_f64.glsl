// exp2, log2, log10, the hyperbolic functions and their inverses, hypot,
// tan and the inverse trigonometric functions in float64, built on tm_math_f64.glsl (included before this file)
// and written for GLSL and C alike. Float storage of these ops computes in
// double and rounds once, as pow does. Each formula avoids the cancellation
// of its textbook form: sinh from expm1 near 0, asinh/acosh/atanh from
// log1p, and the large-argument forms that would overflow an intermediate.
// tests/test_vulkan_math.c states the bounds.

const double TM_D_LN10 = 2.302585092994046lf;
const double TM_D_LOG10_2 = 0.30102999566398120lf;

double tm_dexp2_any(double x)
{
    if (tm_disnan(x))
        return x;
    if (tm_disinf(x))
        return x > 0.0lf ? x : 0.0lf;
    return tm_dexp2(x);
}

double tm_dlog2_any(double x)
{
    if (tm_disnan(x) || tm_disinf(x) || x <= 0.0lf)
        return tm_dlog(x); // NaN, inf, NaN or -inf as log gives them
    return tm_dlog2(x);
}

// log10(x) = e log10(2) + log(m) / ln 10, so powers of ten land close.
double tm_dlog10(double x)
{
    if (tm_disnan(x) || tm_disinf(x) || x <= 0.0lf)
        return tm_dlog(x);
    double e = tm_itod(tm_dlog_exponent(x));
    return e * TM_D_LOG10_2 + tm_dlog_normalized(x) / TM_D_LN10;
}

// e^|x| / 2 for |x| > 22, where e^-|x| no longer shows: as h * (h / 2)
// with h = e^(|x|/2), so nothing overflows before the result does.
double tm_dhalf_exp(double a)
{
    double h = tm_dexp(0.5lf * a);
    return (0.5lf * h) * h;
}

double tm_dsinh(double x)
{
    double a = tm_dfabs(x);
    if (tm_disnan(x) || a == 0.0lf)
        return x;
    double r;
    if (a > 22.0lf) {
        r = tm_dhalf_exp(a);
    } else {
        double m = tm_dexpm1(a); // sinh = (m + m / (m + 1)) / 2
        r = 0.5lf * (m + m / (m + 1.0lf));
    }
    return x < 0.0lf ? -r : r;
}

double tm_dcosh(double x)
{
    double a = tm_dfabs(x);
    if (tm_disnan(x))
        return x;
    if (a > 22.0lf)
        return tm_dhalf_exp(a);
    double e = tm_dexp(a);
    return 0.5lf * (e + 1.0lf / e);
}

double tm_dasinh(double x)
{
    double a = tm_dfabs(x);
    if (tm_disnan(x) || tm_disinf(x) || a == 0.0lf)
        return x;
    double r;
    if (a > 1e150lf) // a^2 + 1 is a^2: log(2a)
        r = tm_dlog(a) + TM_D_LN2;
    else // log(a + sqrt(a^2 + 1)) = log1p(a + a^2 / (1 + sqrt(a^2 + 1)))
        r = tm_dlog1p(a + a * a / (1.0lf + tm_dsqrt(a * a + 1.0lf)));
    return x < 0.0lf ? -r : r;
}

double tm_dacosh(double x)
{
    if (tm_disnan(x) || x < 1.0lf)
        return tm_disnan(x) ? x : tm_dnan();
    if (tm_disinf(x))
        return x;
    if (x > 1e150lf)
        return tm_dlog(x) + TM_D_LN2;
    double t = x - 1.0lf; // exact up to x = 2, where it matters
    return tm_dlog1p(t + tm_dsqrt(t * (t + 2.0lf)));
}

double tm_datanh(double x)
{
    double a = tm_dfabs(x);
    if (tm_disnan(x) || a == 0.0lf)
        return x;
    if (a > 1.0lf)
        return tm_dnan();
    double r = a == 1.0lf ? tm_dinf() : 0.5lf * tm_dlog1p((a + a) / (1.0lf - a));
    return x < 0.0lf ? -r : r;
}

// sqrt(a^2 + b^2) without overflow or underflow: both scaled by a power of
// two near the larger one's magnitude (exact), hypot(inf, NaN) = inf as C.
double tm_dhypot(double x, double y)
{
    double a = tm_dfabs(x), b = tm_dfabs(y);
    if (tm_disinf(a) || tm_disinf(b))
        return tm_dinf();
    if (tm_disnan(a) || tm_disnan(b))
        return tm_dnan();
    if (a < b) {
        double t = a;
        a = b;
        b = t;
    }
    if (a == 0.0lf)
        return 0.0lf;
    // scaled in steps (tm_dscale): 2^-e alone overflows for subnormal a
    int e = tm_dexpo(tm_dabsbits(a)) - 1023;
    double sa = tm_dscale(a, -e), sb = tm_dscale(b, -e);
    return tm_dscale(tm_dsqrt(sa * sa + sb * sb), e);
}

// ---- inverse trigonometry and tan ----------------------------------------------

const double TM_D_PIO4 = 0.7853981633974483lf;
const double TM_D_PI = 3.141592653589793lf;

// atan(t) for |t| <= tan(pi/8): the alternating series to t^45, whose next
// term is below 2^-60 t.
double tm_datan_series(double t)
{
    double z = t * t;
    double p = 0.022222222222222223lf;
    p = 0.023255813953488372lf - z * p;
    p = 0.024390243902439025lf - z * p;
    p = 0.02564102564102564lf - z * p;
    p = 0.02702702702702703lf - z * p;
    p = 0.02857142857142857lf - z * p;
    p = 0.030303030303030304lf - z * p;
    p = 0.03225806451612903lf - z * p;
    p = 0.034482758620689655lf - z * p;
    p = 0.037037037037037035lf - z * p;
    p = 0.04lf - z * p;
    p = 0.043478260869565216lf - z * p;
    p = 0.047619047619047616lf - z * p;
    p = 0.05263157894736842lf - z * p;
    p = 0.058823529411764705lf - z * p;
    p = 0.06666666666666667lf - z * p;
    p = 0.07692307692307693lf - z * p;
    p = 0.09090909090909091lf - z * p;
    p = 0.1111111111111111lf - z * p;
    p = 0.14285714285714285lf - z * p;
    p = 0.2lf - z * p;
    p = 0.3333333333333333lf - z * p;
    p = 1.0lf - z * p;
    return t * p;
}

double tm_datan(double x)
{
    double a = tm_dfabs(x);
    if (tm_disnan(x) || a == 0.0lf)
        return x; // keeps -0
    bool inverted = a > 1.0lf;
    if (inverted) // atan(a) = pi/2 - atan(1/a); 1/inf is 0
        a = tm_ddiv(1.0lf, a);
    double r;
    if (a > 0.41421356237309503lf) // atan(a) = pi/4 + atan((a - 1) / (a + 1))
        r = TM_D_PIO4 + tm_datan_series(tm_ddiv(a - 1.0lf, a + 1.0lf));
    else
        r = tm_datan_series(a);
    if (inverted)
        r = TM_D_PIO2 - r;
    return x < 0.0lf ? -r : r;
}

// asin(x) = atan(x / sqrt((1 - x)(1 + x))): 1 - x is exact where it
// cancels; x = +-1 divides by zero into +-inf, whose atan is +-pi/2.
double tm_dasin(double x)
{
    if (tm_disnan(x) || tm_dfabs(x) > 1.0lf)
        return tm_disnan(x) ? x : tm_dnan();
    if (x == 0.0lf)
        return x;
    return tm_datan(tm_ddiv(x, tm_dsqrt((1.0lf - x) * (1.0lf + x))));
}

// acos(x) = 2 atan(sqrt((1 - x) / (1 + x))); x = -1 gives 2 atan(inf) = pi.
double tm_dacos(double x)
{
    if (tm_disnan(x) || tm_dfabs(x) > 1.0lf)
        return tm_disnan(x) ? x : tm_dnan();
    return 2.0lf * tm_datan(tm_dsqrt_ieee(tm_ddiv(1.0lf - x, 1.0lf + x)));
}

// sin / cos, each reduced exactly: near pi/2 + k pi, where cos is small,
// cos's absolute error of 1e-16 shows as relative error in the quotient.
double tm_dtan(double x)
{
    if (x == 0.0lf)
        return x;
    return tm_ddiv(tm_dsin(x), tm_dcos(x));
}

// atan2 with C's answers for zeros, infinities and NaN; the angle from
// atan of the smaller ratio, so the division never overflows a meaning.
double tm_datan2(double y, double x)
{
    if (tm_disnan(x) || tm_disnan(y))
        return tm_dnan();
    bool negative_y = (tm_d2bits(y) >> 63) != 0UL;
    bool left = (tm_d2bits(x) >> 63) != 0UL; // x < 0 or x = -0
    double a = tm_dfabs(y), b = tm_dfabs(x);
    double r;
    if (a == 0.0lf)
        r = left ? TM_D_PI : 0.0lf;
    else if (tm_disinf(a) && tm_disinf(b))
        r = left ? 2.356194490192345lf : TM_D_PIO4;
    else if (b == 0.0lf || tm_disinf(a))
        r = TM_D_PIO2;
    else if (tm_disinf(b))
        r = left ? TM_D_PI : 0.0lf;
    else {
        r = a <= b ? tm_datan(tm_ddiv(a, b)) : TM_D_PIO2 - tm_datan(tm_ddiv(b, a));
        if (left)
            r = TM_D_PI - r;
    }
    return negative_y ? -r : r;
}

// ---- erfc -------------------------------------------------------------------------

// e^(-x^2) / (sqrt(pi) f) for x >= 1, f the Laplace continued fraction
// evaluated from `terms` down (it converges slowly near 1, fast beyond 3).
// x^2 is not exact, so x = z + (x - z) with z keeping 26 bits: z^2 is exact
// and e^(-x^2) = e^(-z^2) e^((z - x)(z + x)), the second factor tiny. The
// power of two of e^(-z^2) is applied last, so a subnormal result is
// rounded once rather than at each product.
double tm_derfc_tail(double x)
{
    int terms = x < 2.0lf ? 240 : (x < 3.0lf ? 80 : 40);
    double f = x;
    for (int k = terms; k >= 1; --k)
        f = x + (tm_itod(k) * 0.5lf) / f;
    precise double z = tm_bits2d(tm_d2bits(x) & 0xfffffffff8000000UL);
    precise double z2 = z * z;
    precise double small = (z - x) * (z + x);
    double k = tm_dfloor(-z2 * TM_D_LOG2E + 0.5lf);
    precise double r = (-z2 - k * TM_D_LN2_HI) - k * TM_D_LN2_LO;
    double m = (1.0lf + tm_dexpm1_poly(r)) * (1.0lf + tm_dexpm1_poly(small));
    return tm_dscale(tm_ddiv(m * 0.5641895835477563lf, f), tm_dtoi(k));
}

// erfc(x): 1 - erf(x) below 1 in magnitude (erfc(1) = 0.157, so at most a
// digit is lost), the continued fraction above, 2 - erfc(-x) below -1. Past
// 27.3 the result is below the smallest subnormal.
double tm_derfc(double x)
{
    if (tm_disnan(x))
        return x;
    double a = tm_dfabs(x);
    if (a < 1.0lf)
        return 1.0lf - tm_derf(x);
    if (x > 27.3lf)
        return 0.0lf;
    if (x < -6.0lf)
        return 2.0lf; // erfc(6) < 2^-53
    double t = tm_derfc_tail(a);
    return x < 0.0lf ? 2.0lf - t : t;
}
