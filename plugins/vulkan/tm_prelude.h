/* C side of shaders/tm_prelude.glsl: lets the shaders' math files compile
 * as C so test_vulkan_math.c can compare them with libm on many inputs
 * without a device. Only what the math files use is defined here. */
#ifndef TSR_VULKAN_TM_PRELUDE_H
#define TSR_VULKAN_TM_PRELUDE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint32_t uint;
#define precise
#define inout /* C arrays are passed by reference already */

typedef struct TmReduced {
    float r;
    int q;
} TmReduced;

typedef struct TmReducedD {
    double r;
    int q;
} TmReducedD;

static inline uint floatBitsToUint(float v)
{
    uint u;
    memcpy(&u, &v, sizeof u);
    return u;
}
static inline float uintBitsToFloat(uint u)
{
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}
static inline float tm_itof(int v)
{
    return (float)v;
}
static inline float tm_utof(uint v)
{
    return (float)v;
}
static inline int tm_ftoi(float v)
{
    return (int)v;
}
static inline int tm_utoi(uint v)
{
    return (int)v;
}
static inline uint tm_itou(int v)
{
    return (uint)v;
}
static inline float tm_floor(float v)
{
    return floorf(v);
}
static inline float tm_trunc(float v)
{
    return truncf(v);
}
static inline float tm_sqrt(float v)
{
    return sqrtf(v);
}
static inline float tm_fabs(float v)
{
    return uintBitsToFloat(floatBitsToUint(v) & 0x7fffffffu);
}
static inline bool tm_isnan(float v)
{
    return (floatBitsToUint(v) & 0x7fffffffu) > 0x7f800000u;
}
static inline bool tm_isinf(float v)
{
    return (floatBitsToUint(v) & 0x7fffffffu) == 0x7f800000u;
}
static inline int tm_msb(uint v)
{
    return v ? 31 - __builtin_clz(v) : -1;
}
static inline uint tm_mulhi(uint a, uint b)
{
    return (uint)(((uint64_t)a * b) >> 32);
}

static inline double tm_ftod(float v)
{
    return (double)v;
}
static inline float tm_dtof(double v)
{
    return (float)v;
}
static inline double tm_itod(int v)
{
    return (double)v;
}
static inline int tm_dtoi(double v)
{
    return (int)v;
}
static inline double tm_dfloor(double v)
{
    return floor(v);
}
static inline double tm_dtrunc(double v)
{
    return trunc(v);
}
static inline double tm_dsqrt(double v)
{
    return sqrt(v);
}
static inline uint tm_dhi(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    return (uint)(u >> 32);
}
static inline uint tm_dlo(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    return (uint)u;
}
static inline double tm_dmake(uint hi, uint lo)
{
    uint64_t u = (uint64_t)hi << 32 | lo;
    double v;
    memcpy(&v, &u, 8);
    return v;
}

static inline uint64_t tm_d2bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}
static inline double tm_bits2d(uint64_t u)
{
    double v;
    memcpy(&v, &u, 8);
    return v;
}
static inline uint64_t tm_itou64(int v)
{
    return (uint64_t)(int64_t)v;
}
static inline int tm_u64toi(uint64_t v)
{
    return (int)v;
}
static inline uint tm_u64hi(uint64_t v)
{
    return (uint)(v >> 32);
}
static inline uint tm_u64lo(uint64_t v)
{
    return (uint)v;
}
static inline int64_t tm_u64toi64(uint64_t v)
{
    return (int64_t)v;
}
static inline int64_t tm_ftoi64(float v)
{
    return (int64_t)v;
}
static inline int64_t tm_dtoi64(double v)
{
    return (int64_t)v;
}
static inline uint64_t tm_utou64(uint v)
{
    return v;
}
static inline double tm_u64tod(uint64_t v)
{
    return (double)v;
}

#endif /* TSR_VULKAN_TM_PRELUDE_H */
