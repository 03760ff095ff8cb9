// float32 math for the shaders, written once for GLSL and C (see
// tm_prelude.glsl). Vulkan only bounds the error of its built-in exp, log,
// sin, ... loosely (sin and cos to 2^-11 absolute, division to 2.5 ulp), so
// everything PyTorch computes with libm is done here from operations Vulkan
// rounds correctly: +, -, * and conversions. Division where the quotient is
// rounded or truncated afterwards uses tm_div, which is exact.
//
// Targets (checked by tests/test_vulkan_math.c against double libm): exp,
// expm1, log, log1p, tanh, erf within 2 ulp; sin, cos within 3 ulp.

#include "tm_two_over_pi.glsl"

const float TM_LOG2E = 1.44269504e+00f;
const float TM_LN2_HI = 6.93145752e-01f; // 0x3f317200: 15 bits, k * hi is exact
const float TM_LN2_LO = 1.42860677e-06f; // ln 2 - TM_LN2_HI
const float TM_PIO2 = 1.57079637e+00f;

float tm_nan() { return uintBitsToFloat(0x7fc00000u); }
float tm_inf() { return uintBitsToFloat(0x7f800000u); }

// 2^n for n in [-126, 127].
float tm_pow2i(int n) { return uintBitsToFloat(tm_itou(n + 127) << 23); }

// x * 2^n for n in [-252, 254], in two exact steps.
float tm_scale(float x, int n)
{
    int h = n / 2;
    return x * tm_pow2i(h) * tm_pow2i(n - h);
}

float tm_copysign_zero(float a, float b)
{
    return uintBitsToFloat((floatBitsToUint(a) ^ floatBitsToUint(b)) & 0x80000000u);
}

// ---- division and remainder (exact) ---------------------------------------

// Mantissa in [2^23, 2^24) and unbiased-by-one exponent of a finite nonzero.
uint tm_mant(uint a) { return (a >> 23) == 0u ? (a << tm_itou(23 - tm_msb(a))) : ((a & 0x7fffffu) | 0x800000u); }
int tm_expo(uint a) { return (a >> 23) == 0u ? 1 - (23 - tm_msb(a)) : tm_utoi(a >> 23); }

// a / b rounded to nearest even, by long division of the mantissas.
float tm_div(float a, float b)
{
    uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
    uint sign = (ua ^ ub) & 0x80000000u;
    uint aa = ua & 0x7fffffffu, ab = ub & 0x7fffffffu;
    if (aa > 0x7f800000u || ab > 0x7f800000u)
        return tm_nan();
    if (aa == 0x7f800000u)
        return ab == 0x7f800000u ? tm_nan() : uintBitsToFloat(sign | 0x7f800000u);
    if (ab == 0x7f800000u)
        return uintBitsToFloat(sign);
    if (ab == 0u)
        return aa == 0u ? tm_nan() : uintBitsToFloat(sign | 0x7f800000u);
    if (aa == 0u)
        return uintBitsToFloat(sign);
    uint ma = tm_mant(aa), mb = tm_mant(ab);
    int e = tm_expo(aa) - tm_expo(ab) + 127;
    if (ma < mb) {
        ma <<= 1;
        e -= 1;
    }
    // 26 quotient bits: the leading one, 23 fraction bits, guard and round.
    uint q = 0u, r = ma;
    for (int i = 0; i < 26; ++i) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1u;
        }
        r <<= 1;
    }
    bool sticky = r != 0u;
    if (e >= 1) {
        uint m = q >> 2;
        bool up = (q & 2u) != 0u && (sticky || (q & 1u) != 0u || (m & 1u) != 0u);
        if (up)
            m += 1u;
        if (m == 0x1000000u) {
            m >>= 1;
            e += 1;
        }
        if (e >= 255)
            return uintBitsToFloat(sign | 0x7f800000u);
        return uintBitsToFloat(sign | (tm_itou(e) << 23) | (m & 0x7fffffu));
    }
    int shift = 3 - e; // subnormal: units of 2^-149
    if (shift >= 27)
        return uintBitsToFloat(sign);
    uint m = q >> tm_itou(shift);
    uint rem = q & ((1u << tm_itou(shift)) - 1u);
    uint halfway = 1u << tm_itou(shift - 1);
    if (rem > halfway || (rem == halfway && (sticky || (m & 1u) != 0u)))
        m += 1u;
    return uintBitsToFloat(sign | m);
}

// C's fmod: exact, with the sign of x.
float tm_fmod(float x, float y)
{
    uint ux = floatBitsToUint(x), uy = floatBitsToUint(y);
    uint sx = ux & 0x80000000u;
    uint ax = ux & 0x7fffffffu, ay = uy & 0x7fffffffu;
    if (ax >= 0x7f800000u || ay > 0x7f800000u || ay == 0u)
        return tm_nan();
    if (ax < ay)
        return x;
    if (ax == ay)
        return uintBitsToFloat(sx);
    int ex = tm_expo(ax), ey = tm_expo(ay);
    uint mx = tm_mant(ax), my = tm_mant(ay);
    for (; ex > ey; --ex) {
        if (mx >= my) {
            mx -= my;
            if (mx == 0u)
                return uintBitsToFloat(sx);
        }
        mx <<= 1;
    }
    if (mx >= my) {
        mx -= my;
        if (mx == 0u)
            return uintBitsToFloat(sx);
    }
    int sh = 23 - tm_msb(mx);
    mx <<= tm_itou(sh);
    ey -= sh;
    if (ey >= 1)
        return uintBitsToFloat(sx | (tm_itou(ey) << 23) | (mx & 0x7fffffu));
    return uintBitsToFloat(sx | (mx >> tm_itou(1 - ey)));
}

// PyTorch's floor division of floats: from fmod, rounded to the nearest
// integer at the end so the division's rounding cannot leave it one off.
float tm_floor_divide(float a, float b)
{
    if (b == 0.0f)
        return tm_div(a, b);
    float mod = tm_fmod(a, b);
    float div = tm_div(a - mod, b);
    if (mod != 0.0f && (b < 0.0f) != (mod < 0.0f))
        div -= 1.0f;
    if (div == 0.0f)
        return tm_copysign_zero(a, b);
    float fd = tm_floor(div);
    if (div - fd > 0.5f)
        fd += 1.0f;
    return fd;
}

// Python's %: the result takes the sign of b.
float tm_remainder(float a, float b)
{
    float mod = tm_fmod(a, b);
    if (mod != 0.0f && (b < 0.0f) != (mod < 0.0f))
        mod += b;
    return mod;
}

// ---- exponentials -----------------------------------------------------------

// e^r - 1 for |r| <= 0.35 (Taylor to r^9; the next term is below 2^-30 r).
float tm_expm1_poly(float r)
{
    float p = 2.48015873e-05f;
    p = 1.98412701e-04f + r * p;
    p = 1.38888892e-03f + r * p;
    p = 8.33333377e-03f + r * p;
    p = 4.16666679e-02f + r * p;
    p = 1.66666672e-01f + r * p;
    p = 0.5f + r * p;
    return r + (r * r) * p;
}

float tm_exp(float x)
{
    if (tm_isnan(x))
        return x;
    if (x > 88.7228317f)
        return tm_inf();
    if (x < -103.972084f)
        return 0.0f;
    float k = tm_floor(x * TM_LOG2E + 0.5f);
    // precise: Mesa's NIR would otherwise fold the two steps into x - k * ln2
    precise float r = (x - k * TM_LN2_HI) - k * TM_LN2_LO;
    return tm_scale(1.0f + tm_expm1_poly(r), tm_ftoi(k));
}

float tm_expm1(float x)
{
    if (tm_isnan(x))
        return x;
    if (x > 88.7228317f)
        return tm_inf();
    if (x < -17.5f)
        return -1.0f;
    if (x == 0.0f) // keeps -0
        return x;
    if (tm_fabs(x) < 0.3465f)
        return tm_expm1_poly(x);
    float k = tm_floor(x * TM_LOG2E + 0.5f);
    // precise: Mesa's NIR would otherwise fold the two steps into x - k * ln2
    precise float r = (x - k * TM_LN2_HI) - k * TM_LN2_LO;
    float e = tm_expm1_poly(r);
    int n = tm_ftoi(k);
    if (n > 100)
        return tm_scale(e + 1.0f, n);
    float t = tm_pow2i(n);
    return e * t + (t - 1.0f); // both products exact: one rounding
}

// ---- logarithms ---------------------------------------------------------------

// log((1 + f) * 2^k) + c for f in [sqrt(1/2) - 1, sqrt(2) - 1], where c is a
// small correction: with s = f / (2 + f), log(1 + f) = 2 atanh(s)
// = f - hfsq + s (hfsq + R) with hfsq = f^2 / 2 and R = 2s^2/3 + 2s^4/5 + ...
// The division only enters the small terms, so its rounding hardly shows.
float tm_log_kernel(float f, float k, float c)
{
    float s = f / (2.0f + f);
    float z = s * s;
    float R = 1.81818187e-01f;
    R = 2.22222224e-01f + z * R;
    R = 2.85714298e-01f + z * R;
    R = 4.00000006e-01f + z * R;
    R = 6.66666687e-01f + z * R;
    R = z * R;
    float hfsq = 0.5f * f * f;
    return k * TM_LN2_HI - ((hfsq - (s * (hfsq + R) + (k * TM_LN2_LO + c))) - f);
}

// log of the positive normal float with bits ix, times 2^k0, plus c: splits it
// into 2^k * m with m in [sqrt(1/2), sqrt(2)).
float tm_log_split(uint ix, int k0, float c)
{
    int k = k0 + tm_utoi(ix >> 23) - 127;
    uint m = ix & 0x007fffffu;
    if (m >= 0x003504f3u) { // mantissa of sqrt(2)
        m |= 0x3f000000u;
        k += 1;
    } else {
        m |= 0x3f800000u;
    }
    return tm_log_kernel(uintBitsToFloat(m) - 1.0f, tm_itof(k), c);
}

float tm_log(float x)
{
    if (tm_isnan(x))
        return x;
    if (x < 0.0f)
        return tm_nan();
    if (x == 0.0f)
        return -tm_inf();
    if (tm_isinf(x))
        return x;
    uint ix = floatBitsToUint(x);
    if (ix < 0x00800000u) // subnormal: scale into the normal range
        return tm_log_split(floatBitsToUint(x * 33554432.0f), -25, 0.0f);
    return tm_log_split(ix, 0, 0.0f);
}

float tm_log1p(float x)
{
    if (tm_isnan(x))
        return x;
    if (x < -1.0f)
        return tm_nan();
    if (x == -1.0f)
        return -tm_inf();
    if (tm_isinf(x))
        return x;
    if (x == 0.0f) // keeps -0
        return x;
    if (x > -0.292893201f && x < 0.414213538f) // 1 + x needs no reduction
        return tm_log_kernel(x, 0.0f, 0.0f);
    precise float u = 1.0f + x;
    int k = tm_utoi(floatBitsToUint(u) >> 23) - 127;
    // 1 + x = u (1 + c) to first order: c recovers what rounding u lost
    // (precise: (u - x) must not fold to 1).
    precise float c = 0.0f;
    if (k < 25)
        c = (k > 0 ? 1.0f - (u - x) : x - (u - 1.0f)) / u;
    return tm_log_split(floatBitsToUint(u), 0, c);
}

// ---- trigonometry -------------------------------------------------------------

// Bits [pos, pos + 31] of the 128-bit p3:p2:p1:p0, pos in [0, 96].
uint tm_bits32(uint p0, uint p1, uint p2, uint p3, int pos)
{
    int w = pos / 32;
    int o = pos - 32 * w;
    uint lo = w == 0 ? p0 : (w == 1 ? p1 : (w == 2 ? p2 : p3));
    uint hi = w == 0 ? p1 : (w == 1 ? p2 : (w == 2 ? p3 : 0u));
    return o == 0 ? lo : ((lo >> tm_itou(o)) | (hi << tm_itou(32 - o)));
}

// x = (4n + q) pi/2 + r for finite ax >= pi/4: exact integer Payne-Hanek.
// ax = M 2^e; only the bits of 2/pi from position e - 1 on contribute to
// the fraction of ax * 2/pi, so a 96-bit window of them times M gives the
// quadrant and 64 fraction bits, enough for any float's cancellation.
TmReduced tm_reduce_pio2(float ax)
{
    uint ix = floatBitsToUint(ax);
    int e = tm_utoi(ix >> 23) - 150;
    uint M = (ix & 0x007fffffu) | 0x00800000u;
    int s = e - 1 > 1 ? e - 1 : 1;
    int sh = s + 95 - e; // binary point of the product
    int word = (s - 1) / 32;
    int off = (s - 1) - 32 * word;
    uint w0 = tm_two_over_pi_word(word), w1 = tm_two_over_pi_word(word + 1);
    uint w2 = tm_two_over_pi_word(word + 2), w3 = tm_two_over_pi_word(word + 3);
    if (off != 0) {
        uint o = tm_itou(off), n = tm_itou(32 - off);
        w0 = (w0 << o) | (w1 >> n);
        w1 = (w1 << o) | (w2 >> n);
        w2 = (w2 << o) | (w3 >> n);
    }
    uint p0 = M * w2, c0 = tm_mulhi(M, w2);
    uint l1 = M * w1, h1 = tm_mulhi(M, w1);
    uint l2 = M * w0, h2 = tm_mulhi(M, w0);
    uint p1 = c0 + l1;
    uint carry = p1 < l1 ? 1u : 0u;
    uint p2 = h1 + l2;
    uint carry2 = p2 < l2 ? 1u : 0u;
    p2 += carry;
    carry2 += p2 < carry ? 1u : 0u;
    uint p3 = h2 + carry2;
    uint q = tm_bits32(p0, p1, p2, p3, sh) & 3u;
    uint fhi = tm_bits32(p0, p1, p2, p3, sh - 32);
    uint flo = tm_bits32(p0, p1, p2, p3, sh - 64);
    bool negative = (fhi & 0x80000000u) != 0u;
    if (negative) { // fraction >= 1/2: next quadrant, negative remainder
        q = (q + 1u) & 3u;
        flo = ~flo + 1u;
        fhi = ~fhi + (flo == 0u ? 1u : 0u);
    }
    TmReduced red;
    red.q = tm_utoi(q);
    red.r = 0.0f;
    if (fhi == 0u && flo == 0u)
        return red;
    int lz = fhi != 0u ? 31 - tm_msb(fhi) : 63 - tm_msb(flo);
    uint m;
    if (lz == 0)
        m = fhi;
    else if (lz < 32)
        m = (fhi << tm_itou(lz)) | (flo >> tm_itou(32 - lz));
    else
        m = flo << tm_itou(lz - 32);
    float r = (tm_utof(m) * TM_PIO2) * tm_pow2i(-32 - lz);
    red.r = negative ? -r : r;
    return red;
}

// sin and cos on [-pi/4, pi/4] (Taylor; the first omitted terms are below
// 2^-28 relative). cos keeps the rounding error of 1 - z/2 separately.
float tm_sin_kernel(float r)
{
    float z = r * r;
    float p = 2.75573188e-06f;
    p = -1.98412701e-04f + z * p;
    p = 8.33333377e-03f + z * p;
    p = -1.66666672e-01f + z * p;
    return r + (r * z) * p;
}

float tm_cos_kernel(float r)
{
    float z = r * r;
    float hz = 0.5f * z;
    precise float w = 1.0f - hz;
    precise float lost = (1.0f - w) - hz;
    float p = -2.75573188e-07f;
    p = 2.48015876e-05f + z * p;
    p = -1.38888892e-03f + z * p;
    p = 4.16666679e-02f + z * p;
    return w + (lost + (z * z) * p);
}

float tm_sin(float x)
{
    if (tm_isnan(x) || tm_isinf(x))
        return tm_nan();
    float ax = tm_fabs(x);
    if (floatBitsToUint(ax) < 0x3f490fdbu) // below pi/4
        return ax < 2.44140625e-04f ? x : tm_sin_kernel(x);
    TmReduced red = tm_reduce_pio2(ax);
    float v = (red.q & 1) == 0 ? tm_sin_kernel(red.r) : tm_cos_kernel(red.r);
    if ((red.q & 2) != 0)
        v = -v;
    return x < 0.0f ? -v : v;
}

float tm_cos(float x)
{
    if (tm_isnan(x) || tm_isinf(x))
        return tm_nan();
    float ax = tm_fabs(x);
    if (floatBitsToUint(ax) < 0x3f490fdbu)
        return tm_cos_kernel(ax);
    TmReduced red = tm_reduce_pio2(ax);
    float v = (red.q & 1) == 0 ? tm_cos_kernel(red.r) : tm_sin_kernel(red.r);
    return (red.q == 1 || red.q == 2) ? -v : v;
}

// ---- hyperbolic, sigmoid, erf, gelu ----------------------------------------------

float tm_tanh(float x)
{
    if (tm_isnan(x))
        return x;
    float ax = tm_fabs(x);
    float t;
    if (ax < 2.44140625e-04f)
        return x;
    if (ax > 9.0f) {
        t = 1.0f;
    } else if (ax < 0.55f) {
        float e = tm_expm1(-2.0f * ax);
        t = -tm_div(e, e + 2.0f);
    } else {
        float e = tm_expm1(2.0f * ax);
        t = 1.0f - tm_div(2.0f, e + 2.0f);
    }
    return x < 0.0f ? -t : t;
}

float tm_sigmoid(float x) { return tm_div(1.0f, 1.0f + tm_exp(-x)); }

// erf: an even polynomial below 1, fitted polynomials of erfc on [1, 2],
// [2, 3] and [3, 3.93], and 1 beyond (erfc < 2^-25 there).
float tm_erf(float x)
{
    if (tm_isnan(x))
        return x;
    float ax = tm_fabs(x);
    float y;
    if (ax < 1.0f) {
        float t = x * x;
        float p = 7.847259258e-05f;
        p = -8.008189034e-04f + t * p;
        p = 5.188099109e-03f + t * p;
        p = -2.685369179e-02f + t * p;
        p = 1.128358245e-01f + t * p;
        p = -3.761262596e-01f + t * p;
        p = 1.283791065e-01f + t * p; // the fit's 1.128379107 less 1: x + x p
        return x + x * p;
    }
    if (ax < 2.0f) {
        float t = ax - 1.5f;
        float p = -1.540411497e-03f;
        p = 2.401930280e-03f + t * p;
        p = 4.701163620e-03f + t * p;
        p = -1.933342963e-02f + t * p;
        p = 1.487084292e-02f + t * p;
        p = 4.459944740e-02f + t * p;
        p = -1.387522072e-01f + t * p;
        p = 1.783954203e-01f + t * p;
        p = -1.189302877e-01f + t * p;
        p = 3.389485180e-02f + t * p;
        y = 1.0f - p;
    } else if (ax < 3.0f) {
        float t = ax - 2.5f;
        float p = -3.063119075e-04f;
        p = -4.030424752e-04f + t * p;
        p = 2.808212070e-03f + t * p;
        p = -6.143381353e-03f + t * p;
        p = 8.621518500e-03f + t * p;
        p = -8.348285221e-03f + t * p;
        p = 5.445736926e-03f + t * p;
        p = -2.178318100e-03f + t * p;
        p = 4.069518764e-04f + t * p;
        y = 1.0f - p;
    } else if (ax < 3.93f) {
        float t = ax - 3.465f;
        float p = -7.676760288e-05f;
        p = 1.108550787e-04f + t * p;
        p = -9.868099005e-05f + t * p;
        p = 8.119949780e-05f + t * p;
        p = -5.293247887e-05f + t * p;
        p = 2.397848948e-05f + t * p;
        p = -6.888667940e-06f + t * p;
        p = 9.564379297e-07f + t * p;
        y = 1.0f - p;
    } else {
        y = 1.0f;
    }
    return x < 0.0f ? -y : y;
}

// PyTorch's two forms, evaluated in the same order as its CPU kernels.
float tm_gelu(float x) { return x * 0.5f * (1.0f + tm_erf(x * 7.07106769e-01f)); }

float tm_gelu_tanh(float x)
{
    float inner = 7.97884583e-01f * (x + 4.47150022e-02f * (x * x * x));
    return 0.5f * x * (1.0f + tm_tanh(inner));
}

// sqrt with the IEEE answers GLSL leaves undefined (negative, -0, NaN).
float tm_sqrtf(float x)
{
    if (tm_isnan(x) || x < 0.0f)
        return tm_nan();
    if (x == 0.0f || tm_isinf(x))
        return x;
    return tm_sqrt(x);
}
