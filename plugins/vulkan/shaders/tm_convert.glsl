// Dtype conversions with PyTorch's results, for GLSL and C (tm_prelude).
//
// float16 and bfloat16 are converted with integer arithmetic, so the device
// needs no 16-bit feature and the rounding is round-to-nearest-even whatever
// the driver does with denormals. Float to integer follows PyTorch on
// x86-64, where the golden data comes from: the value is truncated through
// int32 (int64 for int64), NaN and out-of-range values give the minimum
// (0x80000000), and narrower integers keep the low bits of that int32.

// float16 bits (low 16 bits of h) to float32; exact.
float tm_f16_to_f32(uint h)
{
    uint sign = (h & 0x8000u) << 16;
    uint e = (h >> 10) & 0x1fu;
    uint m = h & 0x3ffu;
    if (e == 0x1fu)
        return uintBitsToFloat(sign | 0x7f800000u | (m << 13));
    if (e == 0u) { // zero or subnormal: m * 2^-24
        float v = tm_utof(m) * 5.96046448e-08f;
        return sign != 0u ? -v : v;
    }
    return uintBitsToFloat(sign | ((e + 112u) << 23) | (m << 13));
}

// float32 to float16 bits, rounding to nearest even; NaN becomes 0x7e00.
uint tm_f32_to_f16(float f)
{
    uint x = floatBitsToUint(f);
    uint sign = (x >> 16) & 0x8000u;
    uint ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return sign | 0x7e00u;
    if (ax >= 0x477ff000u) // 65520 and above round to infinity
        return sign | 0x7c00u;
    if (ax >= 0x38800000u) // normal: rebias by -112 and round at bit 13
        return sign | ((ax - 0x38000000u + 0xfffu + ((ax >> 13) & 1u)) >> 13);
    if (ax < 0x33000000u) // below 2^-25 (the tie rounds to even zero)
        return sign;
    uint e = ax >> 23;
    uint mant = (ax & 0x7fffffu) | 0x800000u;
    uint shift = 126u - e; // value / 2^-24 = mant / 2^shift, shift in 14..24
    uint q = mant >> shift;
    uint rem = mant & ((1u << shift) - 1u);
    uint halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (q & 1u) != 0u))
        q += 1u;
    return sign | q;
}

float tm_bf16_to_f32(uint b) { return uintBitsToFloat(b << 16); }

// float32 to bfloat16 bits as c10::BFloat16 rounds: nearest even, NaN 0x7fc0.
uint tm_f32_to_bf16(float f)
{
    uint x = floatBitsToUint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fc0u;
    return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}

// float32 to int32 as x86's cvttss2si: truncation; NaN and out of range give
// the "integer indefinite" 0x80000000.
int tm_f32_to_i32(float f)
{
    if (tm_isnan(f) || f >= 2147483648.0f || f < -2147483648.0f)
        return tm_utoi(0x80000000u);
    return tm_ftoi(f);
}

// 2^31 and 2^63 are exact floats: the bounds need no double literals.
#ifdef TM_DOUBLE
int tm_f64_to_i32(double d)
{
    if (tm_disnan(d) || d >= tm_ftod(2147483648.0f) || d < tm_ftod(-2147483648.0f))
        return tm_utoi(0x80000000u);
    return tm_dtoi(d);
}
#endif

#ifdef TM_INT64
int64_t tm_f32_to_i64(float f)
{
    if (tm_isnan(f) || f >= 9.22337204e+18f || f < -9.22337204e+18f)
        return tm_u64toi64(0x8000000000000000UL);
    return tm_ftoi64(f);
}
#endif

#if defined(TM_INT64) && defined(TM_DOUBLE)
int64_t tm_f64_to_i64(double d)
{
    if (tm_disnan(d) || d >= tm_ftod(9.22337204e+18f) || d < tm_ftod(-9.22337204e+18f))
        return tm_u64toi64(0x8000000000000000UL);
    return tm_dtoi64(d);
}
#endif
