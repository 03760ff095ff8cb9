// float64 math for the shaders (and float32 pow, computed through it),
// written once for GLSL and C like tm_math_f32.glsl. GLSL has no double
// exp/log/sin, so they are built from + - * and conversions. Division and
// fmod, whose rounding would show in floor division, are exact (integer long
// division). The transcendental functions aim at about 1e-15 relative error
// rather than the last ulp; tests/test_vulkan_math.c states the bounds.
//
// Needs doubles and 64-bit integers (shaderFloat64, shaderInt64).

#include "tm_two_over_pi.glsl"

const double TM_D_LN2 = 0.6931471805599453lf;
const double TM_D_LN2_HI = 0.6931471803691238lf; // 32 bits: k * hi is exact
const double TM_D_LN2_LO = 1.9082149292705877e-10lf;
const double TM_D_LOG2E = 1.4426950408889634lf;
const double TM_D_PIO2_1 = 1.5707963267341256lf; // pi/2 in 33-bit pieces
const double TM_D_PIO2_2 = 6.077100506303966e-11lf;
const double TM_D_PIO2_3 = 2.0222662487111665e-21lf;
const double TM_D_PIO2_3T = 8.4784276603689e-32lf;
const double TM_D_2_OVER_PI = 0.6366197723675814lf;
const double TM_D_PIO2 = 1.5707963267948966lf;

double tm_dnan() { return tm_bits2d(0x7ff8000000000000UL); }
double tm_dinf() { return tm_bits2d(0x7ff0000000000000UL); }
uint64_t tm_dabsbits(double v) { return tm_d2bits(v) & 0x7fffffffffffffffUL; }
bool tm_disnan(double v) { return tm_dabsbits(v) > 0x7ff0000000000000UL; }
bool tm_disinf(double v) { return tm_dabsbits(v) == 0x7ff0000000000000UL; }
double tm_dfabs(double v) { return tm_bits2d(tm_dabsbits(v)); }

// 2^n for n in [-1022, 1023]; x * 2^n for n in [-2044, 2046].
double tm_dpow2(int n) { return tm_bits2d(tm_itou64(n + 1023) << 52); }
double tm_dscale(double x, int n)
{
    int h = n / 2;
    return x * tm_dpow2(h) * tm_dpow2(n - h);
}

int tm_msb64(uint64_t v)
{
    uint hi = tm_u64hi(v);
    return hi != 0u ? 32 + tm_msb(hi) : tm_msb(tm_u64lo(v));
}

// Mantissa in [2^52, 2^53) and exponent of a finite nonzero magnitude.
uint64_t tm_dmant(uint64_t a)
{
    return (a >> 52) == 0UL ? (a << tm_itou64(52 - tm_msb64(a)))
                            : ((a & 0xfffffffffffffUL) | 0x10000000000000UL);
}
int tm_dexpo(uint64_t a) { return (a >> 52) == 0UL ? 1 - (52 - tm_msb64(a)) : tm_u64toi(a >> 52); }

// ---- division and remainder (exact) ---------------------------------------------

double tm_ddiv(double a, double b)
{
    uint64_t ua = tm_d2bits(a), ub = tm_d2bits(b);
    uint64_t sign = (ua ^ ub) & 0x8000000000000000UL;
    uint64_t aa = ua & 0x7fffffffffffffffUL, ab = ub & 0x7fffffffffffffffUL;
    uint64_t inf = 0x7ff0000000000000UL;
    if (aa > inf || ab > inf)
        return tm_dnan();
    if (aa == inf)
        return ab == inf ? tm_dnan() : tm_bits2d(sign | inf);
    if (ab == inf)
        return tm_bits2d(sign);
    if (ab == 0UL)
        return aa == 0UL ? tm_dnan() : tm_bits2d(sign | inf);
    if (aa == 0UL)
        return tm_bits2d(sign);
    uint64_t ma = tm_dmant(aa), mb = tm_dmant(ab);
    int e = tm_dexpo(aa) - tm_dexpo(ab) + 1023;
    if (ma < mb) {
        ma <<= 1;
        e -= 1;
    }
    uint64_t q = 0UL, r = ma; // 55 quotient bits: leading one, 52, guard, round
    for (int i = 0; i < 55; ++i) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1UL;
        }
        r <<= 1;
    }
    bool sticky = r != 0UL;
    if (e >= 1) {
        uint64_t m = q >> 2;
        if ((q & 2UL) != 0UL && (sticky || (q & 1UL) != 0UL || (m & 1UL) != 0UL))
            m += 1UL;
        if (m == 0x20000000000000UL) {
            m >>= 1;
            e += 1;
        }
        if (e >= 2047)
            return tm_bits2d(sign | inf);
        return tm_bits2d(sign | (tm_itou64(e) << 52) | (m & 0xfffffffffffffUL));
    }
    int shift = 3 - e;
    if (shift >= 56)
        return tm_bits2d(sign);
    uint64_t m = q >> tm_itou64(shift);
    uint64_t rem = q & ((1UL << tm_itou64(shift)) - 1UL);
    uint64_t halfway = 1UL << tm_itou64(shift - 1);
    if (rem > halfway || (rem == halfway && (sticky || (m & 1UL) != 0UL)))
        m += 1UL;
    return tm_bits2d(sign | m);
}

double tm_dfmod(double x, double y)
{
    uint64_t ux = tm_d2bits(x), uy = tm_d2bits(y);
    uint64_t sx = ux & 0x8000000000000000UL;
    uint64_t ax = ux & 0x7fffffffffffffffUL, ay = uy & 0x7fffffffffffffffUL;
    if (ax >= 0x7ff0000000000000UL || ay > 0x7ff0000000000000UL || ay == 0UL)
        return tm_dnan();
    if (ax < ay)
        return x;
    if (ax == ay)
        return tm_bits2d(sx);
    int ex = tm_dexpo(ax), ey = tm_dexpo(ay);
    uint64_t mx = tm_dmant(ax), my = tm_dmant(ay);
    for (; ex > ey; --ex) {
        if (mx >= my) {
            mx -= my;
            if (mx == 0UL)
                return tm_bits2d(sx);
        }
        mx <<= 1;
    }
    if (mx >= my) {
        mx -= my;
        if (mx == 0UL)
            return tm_bits2d(sx);
    }
    int sh = 52 - tm_msb64(mx);
    mx <<= tm_itou64(sh);
    ey -= sh;
    if (ey >= 1)
        return tm_bits2d(sx | (tm_itou64(ey) << 52) | (mx & 0xfffffffffffffUL));
    return tm_bits2d(sx | (mx >> tm_itou64(1 - ey)));
}

double tm_dfloor_divide(double a, double b)
{
    if (b == 0.0lf)
        return tm_ddiv(a, b);
    double mod = tm_dfmod(a, b);
    double div = tm_ddiv(a - mod, b);
    if (mod != 0.0lf && (b < 0.0lf) != (mod < 0.0lf))
        div -= 1.0lf;
    if (div == 0.0lf)
        return tm_bits2d((tm_d2bits(a) ^ tm_d2bits(b)) & 0x8000000000000000UL);
    double fd = tm_dfloor(div);
    if (div - fd > 0.5lf)
        fd += 1.0lf;
    return fd;
}

double tm_dremainder(double a, double b)
{
    double mod = tm_dfmod(a, b);
    if (mod != 0.0lf && (b < 0.0lf) != (mod < 0.0lf))
        mod += b;
    return mod;
}

// ---- exponentials ---------------------------------------------------------------

// e^r - 1 for |r| <= 0.36 (Taylor to r^17).
double tm_dexpm1_poly(double r)
{
    double p = 2.8114572543455206e-15lf;
    p = 4.779477332387385e-14lf + r * p;
    p = 7.647163731819816e-13lf + r * p;
    p = 1.1470745597729725e-11lf + r * p;
    p = 1.6059043836821613e-10lf + r * p;
    p = 2.08767569878681e-09lf + r * p;
    p = 2.505210838544172e-08lf + r * p;
    p = 2.755731922398589e-07lf + r * p;
    p = 2.7557319223985893e-06lf + r * p;
    p = 2.48015873015873e-05lf + r * p;
    p = 0.0001984126984126984lf + r * p;
    p = 0.001388888888888889lf + r * p;
    p = 0.008333333333333333lf + r * p;
    p = 0.041666666666666664lf + r * p;
    p = 0.16666666666666666lf + r * p;
    p = 0.5lf + r * p;
    return r + (r * r) * p;
}

double tm_dexp(double x)
{
    if (tm_disnan(x))
        return x;
    if (x > 709.782712893384lf)
        return tm_dinf();
    if (x < -745.1332191019412lf)
        return 0.0lf;
    double k = tm_dfloor(x * TM_D_LOG2E + 0.5lf);
    // precise: Mesa's NIR would otherwise fold the two steps into x - k * ln2
    precise double r = (x - k * TM_D_LN2_HI) - k * TM_D_LN2_LO;
    return tm_dscale(1.0lf + tm_dexpm1_poly(r), tm_dtoi(k));
}

// 2^t for finite t; overflows to inf and underflows to 0 like exp.
double tm_dexp2(double t)
{
    if (t >= 1024.0lf)
        return tm_dinf();
    if (t < -1080.0lf)
        return 0.0lf;
    double n = tm_dfloor(t + 0.5lf);
    double r = (t - n) * TM_D_LN2; // t - n is exact
    return tm_dscale(1.0lf + tm_dexpm1_poly(r), tm_dtoi(n));
}

double tm_dexpm1(double x)
{
    if (tm_disnan(x) || x == 0.0lf) // keeps -0
        return x;
    if (tm_dfabs(x) < 0.35lf)
        return tm_dexpm1_poly(x);
    if (x < -40.0lf)
        return -1.0lf;
    return tm_dexp(x) - 1.0lf;
}

// ---- logarithms -----------------------------------------------------------------

// For positive finite x = 2^e m, m in [sqrt(1/2), sqrt(2)): log(m), through
// 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.172 (series to s^23).
// tm_dlog_exponent gives e.
double tm_dlog_normalized(double x)
{
    if (x < 2.2250738585072014e-308lf)
        x *= 18014398509481984.0lf; // 2^54
    uint hi = tm_dhi(x);
    hi = (hi & 0x000fffffu) | 0x3ff00000u;
    double m = tm_dmake(hi, tm_dlo(x));
    if (m > 1.4142135623730951lf)
        m *= 0.5lf;
    double s = (m - 1.0lf) / (m + 1.0lf);
    double z = s * s;
    double p = 0.043478260869565216lf;
    p = 0.047619047619047616lf + z * p;
    p = 0.05263157894736842lf + z * p;
    p = 0.058823529411764705lf + z * p;
    p = 0.06666666666666667lf + z * p;
    p = 0.07692307692307693lf + z * p;
    p = 0.09090909090909091lf + z * p;
    p = 0.1111111111111111lf + z * p;
    p = 0.14285714285714285lf + z * p;
    p = 0.2lf + z * p;
    p = 0.3333333333333333lf + z * p;
    return 2.0lf * (s + (s * z) * p);
}

int tm_dlog_exponent(double x)
{
    int bias = 1023;
    if (x < 2.2250738585072014e-308lf) {
        x *= 18014398509481984.0lf;
        bias += 54;
    }
    uint hi = tm_dhi(x);
    int e = tm_utoi(hi >> 20) - bias;
    uint mhi = (hi & 0x000fffffu) | 0x3ff00000u;
    if (tm_dmake(mhi, tm_dlo(x)) > 1.4142135623730951lf)
        e += 1;
    return e;
}

double tm_dlog(double x)
{
    if (tm_disnan(x))
        return x;
    if (x < 0.0lf)
        return tm_dnan();
    if (x == 0.0lf)
        return -tm_dinf();
    if (tm_disinf(x))
        return x;
    double e = tm_itod(tm_dlog_exponent(x));
    return e * TM_D_LN2_HI + (tm_dlog_normalized(x) + e * TM_D_LN2_LO);
}

// log2 of a positive finite x.
double tm_dlog2(double x)
{
    return tm_itod(tm_dlog_exponent(x)) + tm_dlog_normalized(x) * TM_D_LOG2E;
}

double tm_dlog1p(double x)
{
    if (tm_disnan(x))
        return x;
    if (x < -1.0lf)
        return tm_dnan();
    if (x == -1.0lf)
        return -tm_dinf();
    if (tm_disinf(x))
        return x;
    precise double u = 1.0lf + x;
    if (u == 1.0lf)
        return x;
    // log(u) * x / (u - 1): the rounding of u cancels to first order
    // (precise: u - 1 must not fold to x).
    precise double rounded = u - 1.0lf;
    return tm_dlog(u) * (x / rounded);
}

// ---- powers ---------------------------------------------------------------------

bool tm_dis_odd_integer(double y)
{
    double h = y * 0.5lf;
    return tm_dfabs(y) < 9007199254740992.0lf && tm_dfloor(y) == y && tm_dfloor(h) != h;
}

// C's pow, special cases included.
double tm_dpow(double x, double y)
{
    if (y == 0.0lf || x == 1.0lf)
        return 1.0lf;
    if (tm_disnan(x) || tm_disnan(y))
        return tm_dnan();
    double ax = tm_dfabs(x);
    bool odd = tm_dis_odd_integer(y);
    if (tm_disinf(y)) {
        if (ax == 1.0lf)
            return 1.0lf;
        return (y > 0.0lf) == (ax > 1.0lf) ? tm_dinf() : 0.0lf;
    }
    if (x == 0.0lf) {
        if (y < 0.0lf)
            return odd ? tm_ddiv(1.0lf, x) : tm_dinf();
        return odd ? x : 0.0lf;
    }
    if (tm_disinf(x)) {
        double mag = y < 0.0lf ? 0.0lf : tm_dinf();
        return x < 0.0lf && odd ? -mag : mag;
    }
    if (x < 0.0lf && tm_dfloor(y) != y)
        return tm_dnan();
    double mag = tm_dexp2(y * tm_dlog2(ax));
    return x < 0.0lf && odd ? -mag : mag;
}

// float pow through double: the double result is within ~1e-14 of the
// truth, so rounding it to float gives the correctly rounded answer except
// within ~1e-14 of a rounding boundary.
float tm_powf(float x, float y) { return tm_dtof(tm_dpow(tm_ftod(x), tm_ftod(y))); }

// ---- trigonometry ---------------------------------------------------------------

double tm_dsin_kernel(double r)
{
    double z = r * r;
    double p = 1.9572941063391263e-20lf;
    p = -8.22063524662433e-18lf + z * p;
    p = 2.8114572543455206e-15lf + z * p;
    p = -7.647163731819816e-13lf + z * p;
    p = 1.6059043836821613e-10lf + z * p;
    p = -2.505210838544172e-08lf + z * p;
    p = 2.7557319223985893e-06lf + z * p;
    p = -0.0001984126984126984lf + z * p;
    p = 0.008333333333333333lf + z * p;
    p = -0.16666666666666666lf + z * p;
    return r + (r * z) * p;
}

double tm_dcos_kernel(double r)
{
    double z = r * r;
    double p = 4.110317623312165e-19lf;
    p = -1.5619206968586225e-16lf + z * p;
    p = 4.779477332387385e-14lf + z * p;
    p = -1.1470745597729725e-11lf + z * p;
    p = 2.08767569878681e-09lf + z * p;
    p = -2.755731922398589e-07lf + z * p;
    p = 2.48015873015873e-05lf + z * p;
    p = -0.001388888888888889lf + z * p;
    p = 0.041666666666666664lf + z * p;
    double hz = 0.5lf * z;
    precise double w = 1.0lf - hz;
    precise double lost = (1.0lf - w) - hz;
    return w + (lost + (z * z) * p);
}

// Cody-Waite with pi/2 in three 33-bit pieces: exact products while
// |k| < 2^20, so for |x| < 2^20; larger arguments use tm_dreduce_large.
double tm_dreduce(double x, double k)
{
    precise double r = x - k * TM_D_PIO2_1; // precise: no folding of the pieces
    r -= k * TM_D_PIO2_2;
    r -= k * TM_D_PIO2_3;
    return r - k * TM_D_PIO2_3T;
}

// Bits [pos, pos + 31] of the 256-bit p[7]:...:p[0].
uint tm_bits32_of8(uint p[8], int pos)
{
    int w = pos / 32;
    int o = pos - 32 * w;
    uint lo = p[w];
    uint hi = w < 7 ? p[w < 7 ? w + 1 : 7] : 0u;
    return o == 0 ? lo : ((lo >> tm_itou(o)) | (hi << tm_itou(32 - o)));
}

// The 53-bit mantissa times a 192-bit window of 2/pi, as 32-bit limbs.
void tm_dmul_window(uint64_t M, uint L[6], inout uint p[8])
{
    uint ml = tm_u64lo(M), mh = tm_u64hi(M);
    uint64_t carry = 0UL;
    for (int i = 0; i < 6; ++i) {
        uint64_t t = tm_utou64(ml) * tm_utou64(L[i]) + carry;
        p[i] = tm_u64lo(t);
        carry = t >> 32;
    }
    p[6] = tm_u64lo(carry);
    p[7] = 0u;
    carry = 0UL;
    for (int i = 0; i < 6; ++i) {
        uint64_t t = tm_utou64(mh) * tm_utou64(L[i]) + tm_utou64(p[i + 1]) + carry;
        p[i + 1] = tm_u64lo(t);
        carry = t >> 32;
    }
    p[7] = tm_u64lo(carry);
}

// ax = (4n + q) pi/2 + r for finite ax >= 2^20: the integer Payne-Hanek
// reduction of tm_reduce_pio2 (tm_math_f32.glsl) for a 53-bit mantissa,
// with a 192-bit window and 128 fraction bits (doubles cancel at worst to
// about 2^-61 of pi/2).
TmReducedD tm_dreduce_large(double ax)
{
    uint64_t ix = tm_d2bits(ax);
    int e = tm_u64toi(ix >> 52) - 1075;
    uint64_t M = (ix & 0xfffffffffffffUL) | 0x10000000000000UL;
    int s = e - 1 > 1 ? e - 1 : 1;
    int sh = s + 191 - e;
    int word = (s - 1) / 32;
    int off = (s - 1) - 32 * word;
    uint L[6]; // the window, least significant limb first
    for (int i = 0; i < 6; ++i) {
        uint a = tm_two_over_pi_word(word + 5 - i), b = tm_two_over_pi_word(word + 6 - i);
        L[i] = off == 0 ? a : ((a << tm_itou(off)) | (b >> tm_itou(32 - off)));
    }
    uint p[8];
    tm_dmul_window(M, L, p);
    uint q = tm_bits32_of8(p, sh) & 3u;
    uint f3 = tm_bits32_of8(p, sh - 32), f2 = tm_bits32_of8(p, sh - 64);
    uint f1 = tm_bits32_of8(p, sh - 96), f0 = tm_bits32_of8(p, sh - 128);
    bool negative = (f3 & 0x80000000u) != 0u;
    if (negative) { // fraction >= 1/2: next quadrant, negative remainder
        q = (q + 1u) & 3u;
        f0 = ~f0 + 1u;
        f1 = ~f1 + (f0 == 0u ? 1u : 0u);
        f2 = ~f2 + (f0 == 0u && f1 == 0u ? 1u : 0u);
        f3 = ~f3 + (f0 == 0u && f1 == 0u && f2 == 0u ? 1u : 0u);
    }
    uint64_t hi = (tm_utou64(f3) << 32) | tm_utou64(f2);
    uint64_t lo = (tm_utou64(f1) << 32) | tm_utou64(f0);
    TmReducedD red;
    red.q = tm_utoi(q);
    red.r = 0.0lf;
    if (hi == 0UL && lo == 0UL)
        return red;
    int lz = hi != 0UL ? 63 - tm_msb64(hi) : 127 - tm_msb64(lo);
    uint64_t m;
    if (lz == 0)
        m = hi;
    else if (lz < 64)
        m = (hi << tm_itou64(lz)) | (lo >> tm_itou64(64 - lz));
    else
        m = lo << tm_itou64(lz - 64);
    double r = (tm_u64tod(m) * TM_D_PIO2) * tm_dpow2(-64 - lz);
    red.r = negative ? -r : r;
    return red;
}

// The quadrant and remainder of any finite x.
TmReducedD tm_dreduce_any(double x)
{
    double ax = tm_dfabs(x);
    TmReducedD red;
    if (ax >= 1048576.0lf) {
        red = tm_dreduce_large(ax);
        if (x < 0.0lf) { // sin and cos of -x through the quadrant of x
            red.r = -red.r;
            red.q = (4 - red.q) & 3;
        }
        return red;
    }
    double k = tm_dfloor(x * TM_D_2_OVER_PI + 0.5lf);
    red.r = tm_dreduce(x, k);
    red.q = tm_dtoi(k - 4.0lf * tm_dfloor(k * 0.25lf));
    return red;
}

double tm_dsin(double x)
{
    if (tm_disnan(x) || tm_disinf(x))
        return tm_dnan();
    if (tm_dfabs(x) < 7.450580596923828e-09lf) // 2^-27: sin x rounds to x; keeps -0
        return x;
    if (tm_dfabs(x) < 0.7853981633974483lf)
        return tm_dsin_kernel(x);
    TmReducedD red = tm_dreduce_any(x);
    double v = (red.q & 1) == 0 ? tm_dsin_kernel(red.r) : tm_dcos_kernel(red.r);
    return (red.q & 2) != 0 ? -v : v;
}

double tm_dcos(double x)
{
    if (tm_disnan(x) || tm_disinf(x))
        return tm_dnan();
    if (tm_dfabs(x) < 0.7853981633974483lf)
        return tm_dcos_kernel(x);
    TmReducedD red = tm_dreduce_any(x);
    double v = (red.q & 1) == 0 ? tm_dcos_kernel(red.r) : tm_dsin_kernel(red.r);
    return (red.q == 1 || red.q == 2) ? -v : v;
}

// ---- hyperbolic, sigmoid, erf, gelu ------------------------------------------------

double tm_dtanh(double x)
{
    if (tm_disnan(x) || tm_dfabs(x) < 7.450580596923828e-09lf) // keeps -0
        return x;
    double ax = tm_dfabs(x);
    double t;
    if (ax > 22.0lf) {
        t = 1.0lf;
    } else if (ax < 0.5lf) {
        double e = tm_dexpm1(2.0lf * ax);
        t = e / (e + 2.0lf);
    } else {
        t = 1.0lf - 2.0lf / (tm_dexp(2.0lf * ax) + 1.0lf);
    }
    return x < 0.0lf ? -t : t;
}

double tm_dsigmoid(double x) { return 1.0lf / (1.0lf + tm_dexp(-x)); }

// Below 2.5 the Maclaurin series (it loses two digits to cancellation at
// 2.5); above, 1 - erfc with erfc from its continued fraction.
double tm_derf(double x)
{
    if (tm_disnan(x) || x == 0.0lf) // keeps -0
        return x;
    double ax = tm_dfabs(x);
    if (ax < 2.5lf) {
        double z = x * x;
        double term = x, sum = x;
        for (int n = 1; n < 60; ++n) {
            term *= -z / tm_itod(n);
            double add = term / tm_itod(2 * n + 1);
            sum += add;
            if (tm_dfabs(add) < 1e-17lf * tm_dfabs(sum))
                break;
        }
        return sum * 1.1283791670955126lf;
    }
    double y = 1.0lf;
    if (ax < 6.0lf) {
        double f = ax;
        for (int k = 80; k >= 1; --k)
            f = ax + (tm_itod(k) * 0.5lf) / f;
        y = 1.0lf - tm_dexp(-ax * ax) * 0.5641895835477563lf / f;
    }
    return x < 0.0lf ? -y : y;
}

double tm_dgelu(double x) { return x * 0.5lf * (1.0lf + tm_derf(x * 0.7071067811865476lf)); }

double tm_dgelu_tanh(double x)
{
    double inner = 0.7978845608028654lf * (x + 0.044715lf * (x * x * x));
    return 0.5lf * x * (1.0lf + tm_dtanh(inner));
}

double tm_dsqrt_ieee(double x)
{
    if (tm_disnan(x) || x < 0.0lf)
        return tm_dnan();
    if (x == 0.0lf || tm_disinf(x))
        return x;
    return tm_dsqrt(x);
}
