/* The cpu backend's Fourier transforms: plans (fft_plan.c), the Stockham
 * pass loops compiled once per instruction set (fft_passes.inc, included by
 * fft_passes_generic.c, fft_passes_avx2.c and fft_passes_avx512.c) and the
 * kernel that walks the lines over the pool (fft.c).
 *
 * A line is held split, real parts and imaginary parts in two arrays of the
 * dtype's precision, so every pass is plain arithmetic on contiguous arrays
 * that the compiler vectorises. Each set compiles the same expressions with
 * -ffp-contract=off and no reassociation, so the sets agree bit for bit, and
 * which thread computes a point never changes how it is computed: the bits
 * are the same for any thread count and instruction set. */
#ifndef TSR_CPU_FFT_CPU_H
#define TSR_CPU_FFT_CPU_H

#include <stdint.h>

#include "cpu_simd.h"

#define TSR__CPU_FFT_MAX_PASSES 64
#define TSR__CPU_FFT_MAX_RADIX 250 /* larger primes: Bluestein, or the reference */

/* One pass of radix p over points already transformed in groups of L, for
 * groups q in [q0, q1) and frequencies k in [k0, k1) (see fft_passes.inc). */
typedef struct tsr__cpu_fft_pass_args {
    const void *xr, *xi;
    void *yr, *yi;
    int64_t p, L, M;
    const void *twr, *twi;     /* (p - 1) L each: w_n^(t k M) at (t - 1) L + k */
    const void *rootr, *rooti; /* p each: w_p^e */
    int sign;                  /* -1 forward, +1 inverse */
    int64_t q0, q1, k0, k1;
} tsr__cpu_fft_pass_args;

typedef struct tsr__cpu_fft_passes {
    void (*pass_f32)(const tsr__cpu_fft_pass_args *args);
    void (*pass_f64)(const tsr__cpu_fft_pass_args *args);
} tsr__cpu_fft_passes;

const tsr__cpu_fft_passes *tsr__cpu_fft_passes_generic(void);
const tsr__cpu_fft_passes *tsr__cpu_fft_passes_avx2(void);
const tsr__cpu_fft_passes *tsr__cpu_fft_passes_avx512(void);

/* A plan for lines of n points in float (wide 0) or double (wide 1). */
typedef struct tsr__cpu_fft_plan {
    int64_t n;
    int wide;
    int pass_count;
    int64_t radix[TSR__CPU_FFT_MAX_PASSES], groups[TSR__CPU_FFT_MAX_PASSES]; /* p and L */
    void *twiddles[TSR__CPU_FFT_MAX_PASSES]; /* re then im, (p - 1) L each */
    void *roots[TSR__CPU_FFT_MAX_PASSES];    /* re then im, p each */
    /* Bluestein's convolution (inner != NULL): */
    int64_t m;
    struct tsr__cpu_fft_plan *inner;
    void *chirp;  /* exp(-pi i j^2 / n), re then im, n each */
    void *kernel; /* FFT_m of the wrapped conjugate chirp, forward; re then im */
    void *kernel_inverse;
    int64_t scratch_points; /* per real or imaginary array */
    /* Real lines of 2n points computed through this n-point plan: */
    void *packing; /* exp(-2 pi i k / 2n), k < n, re then im; NULL if none */
} tsr__cpu_fft_plan;

/* NULL when out of memory or when n needs a pass the cpu set does not take
 * (a prime past 250 whose chirp fails the seeds' test): the caller then
 * hands the call to the reference kernel. */
tsr__cpu_fft_plan *tsr__cpu_fft_plan_create(int64_t n, int wide, const tsr__cpu_fft_passes *k);
void tsr__cpu_fft_plan_destroy(tsr__cpu_fft_plan *plan);
/* Adds the packing twiddles for real lines of 2 plan->n points; -1 when out
 * of memory. */
int tsr__cpu_fft_plan_add_packing(tsr__cpu_fft_plan *plan);

typedef struct tsr__cpu_pool tsr__cpu_pool;

/* Transforms the split line (re, im) of plan->n points in place, sign -1 or
 * +1; scratch holds 2 plan->scratch_points points of the plan's precision.
 * With a pool, passes of long lines split over it in fixed blocks. */
void tsr__cpu_fft_execute(const tsr__cpu_fft_plan *plan, const tsr__cpu_fft_passes *k,
                          tsr__cpu_pool *pool, void *re, void *im, int sign, void *scratch);

#endif /* TSR_CPU_FFT_CPU_H */
