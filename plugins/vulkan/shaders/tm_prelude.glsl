// GLSL side of the helpers the math files (tm_math_*.glsl) are written
// against. The same math files compile as C in tests/test_vulkan_math.c
// against tests/tm_prelude.h, so they use only what both languages share:
// scalar types, these helpers, and GLSL's bit-cast built-ins. Double
// literals carry GLSL's "lf" suffix; the build strips it for the C copy.

struct TmReduced {
    float r; // remainder, |r| <= pi/4
    int q;   // quadrant, 0..3
};

float tm_itof(int v) { return float(v); }
float tm_utof(uint v) { return float(v); }
int tm_ftoi(float v) { return int(v); }
int tm_utoi(uint v) { return int(v); }
uint tm_itou(int v) { return uint(v); }
float tm_floor(float v) { return floor(v); }
float tm_trunc(float v) { return trunc(v); }
float tm_sqrt(float v) { return sqrt(v); }
// Bit tests instead of abs()/isnan()/isinf(): exact whatever the driver
// assumes about NaN and signed zero.
float tm_fabs(float v) { return uintBitsToFloat(floatBitsToUint(v) & 0x7fffffffu); }
bool tm_isnan(float v) { return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u; }
bool tm_isinf(float v) { return (floatBitsToUint(v) & 0x7fffffffu) == 0x7f800000u; }
int tm_msb(uint v) { return findMSB(v); }
uint tm_mulhi(uint a, uint b)
{
    uint hi, lo;
    umulExtended(a, b, hi, lo);
    return hi;
}

#ifdef TM_INT64
uint64_t tm_itou64(int v) { return uint64_t(v); }
int tm_u64toi(uint64_t v) { return int(v); }
uint tm_u64hi(uint64_t v) { return uint(v >> 32); }
uint tm_u64lo(uint64_t v) { return uint(v); }
int64_t tm_u64toi64(uint64_t v) { return int64_t(v); }
int64_t tm_ftoi64(float v) { return int64_t(v); }
uint64_t tm_utou64(uint v) { return uint64_t(v); }
#endif

// TM_DOUBLE requires TM_INT64: the double helpers use 64-bit bit casts.
#ifdef TM_DOUBLE
struct TmReducedD {
    double r;
    int q;
};

double tm_u64tod(uint64_t v) { return double(v); }
double tm_ftod(float v) { return double(v); }
float tm_dtof(double v) { return float(v); }
double tm_itod(int v) { return double(v); }
int tm_dtoi(double v) { return int(v); }
double tm_dfloor(double v) { return floor(v); }
double tm_dtrunc(double v) { return trunc(v); }
double tm_dsqrt(double v) { return sqrt(v); }
uint tm_dhi(double v) { return unpackDouble2x32(v).y; }
uint tm_dlo(double v) { return unpackDouble2x32(v).x; }
double tm_dmake(uint hi, uint lo) { return packDouble2x32(uvec2(lo, hi)); }
uint64_t tm_d2bits(double v) { return doubleBitsToUint64(v); }
double tm_bits2d(uint64_t v) { return uint64BitsToDouble(v); }
int64_t tm_dtoi64(double v) { return int64_t(v); }
#endif
