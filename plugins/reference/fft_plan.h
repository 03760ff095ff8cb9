/* One-dimensional discrete Fourier transforms of n points in double
 * precision: the reference backend's line transform (fft_plan.c).
 *
 * A plan factors n into passes of radix 4, 2, 3, 5 and n's other primes
 * (a self-sorting Stockham sequence), or, where a prime factor exceeds 250,
 * computes by Bluestein's convolution of m points, m the least power of two
 * at least 2n - 1 — unless the transform of the conjugate chirp wrapped at m
 * exceeds 2 sqrt(2n - 1) in magnitude, when it keeps the passes. Which one
 * runs depends on n alone, so a line's bits never depend on the batch. */
#ifndef TSR_REFERENCE_FFT_PLAN_H
#define TSR_REFERENCE_FFT_PLAN_H

#include <stdint.h>

#define TSR__REF_FFT_MAX_FACTORS 64
#define TSR__REF_FFT_BLUESTEIN_PRIME 250

typedef struct tsr__ref_fft_plan {
    int64_t n;
    int factor_count;
    int64_t factors[TSR__REF_FFT_MAX_FACTORS];
    double *twiddles; /* exp(-2 pi i j / n), j < n, interleaved re, im */
    /* Bluestein (inner != NULL): */
    int64_t m;
    struct tsr__ref_fft_plan *inner; /* the m-point plan */
    double *chirp;                   /* exp(-pi i j^2 / n), j < n */
    double *kernel_forward;          /* FFT_m of the wrapped conj chirp */
    double *kernel_inverse;          /* the same for the inverse direction */
    int64_t scratch_points;          /* complex points execute's scratch holds */
} tsr__ref_fft_plan;

/* Builds the plan for n >= 1 points; NULL when out of memory. */
tsr__ref_fft_plan *tsr__ref_fft_plan_create(int64_t n);
void tsr__ref_fft_plan_destroy(tsr__ref_fft_plan *plan);

/* Transforms `data` (n interleaved complex points) in place:
 * Y[k] = sum_j X[j] exp(sign 2 pi i j k / n), sign -1 (forward) or +1.
 * `scratch` holds plan->scratch_points complex points. */
void tsr__ref_fft_execute(const tsr__ref_fft_plan *plan, double *data, int sign,
                          double *scratch);

#endif /* TSR_REFERENCE_FFT_PLAN_H */
