/* float16 and bfloat16 conversions, done on integer bit patterns so the
 * result does not depend on the compiler's floating-point mode. */
#include "half.h"

#include <string.h>

static uint32_t float_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static float float_from_bits(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* x >> shift, rounded to nearest with ties to even (1 <= shift <= 31). */
static uint32_t shift_right_rounded(uint32_t x, uint32_t shift)
{
    uint32_t quotient = x >> shift;
    uint32_t rest = x & ((UINT32_C(1) << shift) - 1);
    uint32_t half = UINT32_C(1) << (shift - 1);
    if (rest > half || (rest == half && (quotient & 1))) {
        quotient++;
    }
    return quotient;
}

float tsr__ref_half_to_float(uint16_t bits)
{
    uint32_t sign = (uint32_t)(bits & 0x8000u) << 16;
    uint32_t exponent = (bits >> 10) & 0x1fu;
    uint32_t mantissa = bits & 0x3ffu;
    if (exponent == 0x1f) {
        return float_from_bits(sign | UINT32_C(0x7f800000) | (mantissa << 13));
    }
    if (exponent != 0) {
        /* Rebias from 15 to 127. */
        return float_from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }
    /* Zero or subnormal: mantissa * 2^-24 is exact in float. */
    float magnitude = (float)mantissa * 0x1p-24f;
    return sign ? -magnitude : magnitude;
}

uint16_t tsr__ref_half_from_float(float value)
{
    uint32_t bits = float_bits(value);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    uint32_t magnitude = bits & UINT32_C(0x7fffffff);
    if (magnitude > UINT32_C(0x7f800000)) {
        return (uint16_t)(sign | 0x7e00u);
    }
    int32_t exponent = (int32_t)(magnitude >> 23) - 127 + 15; /* float16's biased exponent */
    uint32_t mantissa = magnitude & UINT32_C(0x7fffff);
    if (exponent >= 31) {
        return (uint16_t)(sign | 0x7c00u); /* infinity, or too large for float16 */
    }
    if (exponent <= 0) {
        if (exponent < -10) {
            return sign; /* below half the smallest subnormal, 2^-25 */
        }
        /* Subnormal result in units of 2^-24; rounding up may produce the
         * smallest normal number, whose encoding follows on naturally. */
        uint32_t significand = mantissa | UINT32_C(0x800000);
        return (uint16_t)(sign | shift_right_rounded(significand, (uint32_t)(14 - exponent)));
    }
    /* A carry out of the mantissa bumps the exponent, up to infinity. */
    uint32_t result = shift_right_rounded(((uint32_t)exponent << 23) | mantissa, 13);
    return (uint16_t)(sign | result);
}

float tsr__ref_bfloat16_to_float(uint16_t bits)
{
    return float_from_bits((uint32_t)bits << 16);
}

uint16_t tsr__ref_bfloat16_from_float(float value)
{
    uint32_t bits = float_bits(value);
    if ((bits & UINT32_C(0x7fffffff)) > UINT32_C(0x7f800000)) {
        return 0x7fc0u;
    }
    /* Adding 0x7fff plus the lowest kept bit rounds ties to even; a carry
     * into the exponent gives the next binade or infinity, as it should. */
    uint32_t rounding = UINT32_C(0x7fff) + ((bits >> 16) & 1u);
    return (uint16_t)((bits + rounding) >> 16);
}
