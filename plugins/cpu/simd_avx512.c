/* The AVX-512 set: simd_loops.inc compiled with the vocabulary of
 * simd_avx512.h. Compiled with -mavx512f/dq/bw/vl in this file only, and
 * called only when CPUID reports them. */
#include <immintrin.h>
#include <math.h>
#include <stddef.h>

#include <sleef.h>

#include "cpu_simd.h"
#include "simd_avx512.h"

#define SIMD_SET_NAME "avx512"
#include "simd_loops.inc"

const tsr__cpu_simd *tsr__cpu_simd_avx512(void)
{
    return &simd_set;
}
