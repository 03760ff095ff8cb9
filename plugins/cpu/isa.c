/* Choosing the SIMD set at run time, and the fixed combination tree of sums. */
#include "cpu_simd.h"

#include <stddef.h>

#if defined(__x86_64__) || defined(__i386__)
#define TSR_CPU_X86 1
#else
#define TSR_CPU_X86 0
#endif

tsr__cpu_isa tsr__cpu_isa_detect(void)
{
#if TSR_CPU_X86
    /* GCC's and Clang's checks include the OS saving the wider registers. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        tsr__cpu_simd_avx512() != NULL) {
        return TSR__CPU_ISA_AVX512;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        tsr__cpu_simd_avx2() != NULL) {
        return TSR__CPU_ISA_AVX2;
    }
#endif
    return TSR__CPU_ISA_GENERIC;
}

const tsr__cpu_simd *tsr__cpu_simd_for(tsr__cpu_isa isa)
{
    if ((int)isa < 0 || isa >= TSR__CPU_ISA_COUNT || isa > tsr__cpu_isa_detect()) {
        return NULL;
    }
    switch (isa) {
    case TSR__CPU_ISA_AVX512:
        return tsr__cpu_simd_avx512();
    case TSR__CPU_ISA_AVX2:
        return tsr__cpu_simd_avx2();
    default:
        return tsr__cpu_simd_generic();
    }
}

const char *tsr__cpu_isa_name(tsr__cpu_isa isa)
{
    switch (isa) {
    case TSR__CPU_ISA_AVX512:
        return "avx512";
    case TSR__CPU_ISA_AVX2:
        return "avx2";
    case TSR__CPU_ISA_GENERIC:
        return "generic";
    default:
        return "invalid";
    }
}

#if !TSR_CPU_X86
const tsr__cpu_simd *tsr__cpu_simd_avx2(void)
{
    return NULL;
}

const tsr__cpu_simd *tsr__cpu_simd_avx512(void)
{
    return NULL;
}
#endif

double tsr__cpu_tree_sum(const double *values, int64_t count)
{
    if (count <= 0) {
        return 0.0;
    }
    if (count == 1) {
        return values[0];
    }
    int64_t left = 1;
    while (left * 2 < count) {
        left *= 2;
    }
    return tsr__cpu_tree_sum(values, left) + tsr__cpu_tree_sum(values + left, count - left);
}
