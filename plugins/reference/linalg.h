/* The reference backend's linear algebra: shared pieces of the linalg_*
 * kernels (batch walk, matrix gather and scatter, scalar arithmetic).
 *
 * Every kernel copies one matrix at a time into a row-major scratch of
 * double complex numbers, factors or solves it there and writes it back,
 * so strides, broadcast batch dims and an output that is its input all
 * work, and float32 and complex64 matrices are computed in double and
 * rounded once. Real matrices keep zero imaginary parts throughout: the
 * arithmetic below takes the real path whenever both imaginary parts are
 * zero, so a real matrix gives exactly the results of real arithmetic
 * (an infinity never meets a 0 i to make a NaN). */
#ifndef TSR_REFERENCE_LINALG_H
#define TSR_REFERENCE_LINALG_H

#include <complex.h>
#include <math.h>
#include <stdint.h>

#include <tessera/plugin.h>

#include "backend.h"
#include "wide.h"

typedef double complex tsr__ref_lz;

static inline tsr__ref_lz tsr__ref_lz_mul(tsr__ref_lz x, tsr__ref_lz y)
{
    double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
    if (b == 0.0 && d == 0.0) {
        return tsr__ref_complex_make(a * c, 0.0);
    }
    return tsr__ref_complex_make(a * c - b * d, a * d + b * c);
}

/* Smith's division: no intermediate c^2 + d^2 that overflows or flushes to
 * zero on huge or tiny divisors. */
static inline tsr__ref_lz tsr__ref_lz_div(tsr__ref_lz x, tsr__ref_lz y)
{
    double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
    if (d == 0.0) {
        return tsr__ref_complex_make(a / c, b == 0.0 ? 0.0 : b / c);
    }
    if (fabs(c) >= fabs(d)) {
        double r = d / c, den = c + d * r;
        return tsr__ref_complex_make((a + b * r) / den, (b - a * r) / den);
    }
    double r = c / d, den = c * r + d;
    return tsr__ref_complex_make((a * r + b) / den, (b * r - a) / den);
}

static inline tsr__ref_lz tsr__ref_lz_sub(tsr__ref_lz x, tsr__ref_lz y)
{
    return tsr__ref_complex_make(creal(x) - creal(y), cimag(x) - cimag(y));
}

static inline tsr__ref_lz tsr__ref_lz_conj(tsr__ref_lz x)
{
    return tsr__ref_complex_make(creal(x), cimag(x) == 0.0 ? 0.0 : -cimag(x));
}

/* |re| + |im|: the magnitude LAPACK's pivot search compares. */
static inline double tsr__ref_lz_abs1(tsr__ref_lz x)
{
    return fabs(creal(x)) + fabs(cimag(x));
}

/* ---- operands ----------------------------------------------------------- */

/* One operand of a linalg kernel: its descriptor and what walking it needs. */
typedef struct tsr__ref_linalg_operand {
    const tsr_tensor_desc *desc;
    int32_t matrix_dims; /* 2 for a matrix, 1 for a vector (pivots, values), 0 for info */
    int64_t rows, cols;  /* of the matrix (cols = 1 for pivots) */
} tsr__ref_linalg_operand;

/* Checks the call: `inputs` and `outputs` counts, every matrix operand
 * (dims 2) of one of the four linalg dtypes and equal to the first input's,
 * a values vector (dims 3) of its real precision, a vector of its dtype
 * (dims 4: tau), a matrix or vector of its complex counterpart (dims 5,
 * 6: eig's), the others (dims 1: pivots, 0: info) int32, and each operand's batch dims equal to those of the first
 * input (whose last two dims are its matrix). Fills ops[] (inputs, then
 * outputs) with matrix_dims taken from `dims` and *batch with the number of
 * matrices. Returns TSR_OK or an error already reported. */
int tsr__ref_linalg_prepare(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                            int32_t inputs, int32_t outputs, const int32_t *dims,
                            tsr__ref_linalg_operand *ops, int64_t *batch);

/* The flags of the call's tsr_linalg_attrs (0 without them). */
int32_t tsr__ref_linalg_flags(const tsr_kernel_args *args);

/* Reads matrix `index` of the batch into dst (rows * cols, row-major). */
void tsr__ref_linalg_gather(const tsr__ref_linalg_operand *op, int64_t index, tsr__ref_lz *dst);
/* Writes src (rows * cols, row-major) into matrix `index` of the batch,
 * rounded once to the operand's dtype. */
void tsr__ref_linalg_scatter(const tsr__ref_linalg_operand *op, int64_t index,
                             const tsr__ref_lz *src);
/* Writes int32 values (pivots: cols values; info: one) for matrix `index`. */
void tsr__ref_linalg_store_int(const tsr__ref_linalg_operand *op, int64_t index,
                               const int32_t *values);

/* ---- the algorithms on one row-major scratch matrix ------------------------ */

/* Lower Cholesky in place (a: n x n); returns info as the kernel states. */
int32_t tsr__ref_linalg_cholesky(tsr__ref_lz *a, int64_t n);
/* LU with partial pivoting in place (a: m x n); pivots (min(m, n), 1-based);
 * returns info. */
int32_t tsr__ref_linalg_lu(tsr__ref_lz *a, int64_t m, int64_t n, int32_t *pivots);
/* b (n x k) := a^-1 b for the triangle of a (n x n) that flags name;
 * returns info. */
int32_t tsr__ref_linalg_trsm(const tsr__ref_lz *a, int64_t n, tsr__ref_lz *b, int64_t k,
                             int32_t flags);

/* x * 2^exponent, both parts, exactly unless it lands in the subnormals. */
static inline tsr__ref_lz tsr__ref_linalg_scaled(tsr__ref_lz x, int exponent)
{
    return tsr__ref_complex_make(scalbn(creal(x), exponent), scalbn(cimag(x), exponent));
}

/* Scales a (count elements) by the power of two that brings its largest
 * part near 1 and returns that exponent (0 for a zero or non-finite
 * matrix, which is left alone): the spectral kernels' sums of squares then
 * neither overflow nor underflow. */
int tsr__ref_linalg_normalise(tsr__ref_lz *a, int64_t count);

#endif /* TSR_REFERENCE_LINALG_H */
