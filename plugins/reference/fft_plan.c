/* The reference line transform: self-sorting Stockham passes, or
 * Bluestein's convolution for lengths with a prime factor past 250.
 *
 * Everything runs in double whatever the operand's dtype, so a float32
 * transform rounds once, at the store, and a float64 one stays within the
 * bound of docs/accuracy.md ("Fourier transforms"). Twiddles are computed
 * one by one from their angle (never by repeated multiplication, whose
 * error would grow with n).
 *
 * Pass of radix p over L points already transformed: the data is held as
 * x[q][k], q < n / L the sub-sequence and k < L its frequency. With
 * M = n / (L p), sub-sequence q' < M of the next stage joins the p
 * sub-sequences q' + t M, and its frequency k + L c is
 *     y[q'][k + L c] = sum_t w_p^(t c) (w_n^(t k M) x[q' + t M][k]),
 * which writes the output in natural order after the last pass. */
#include "fft_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double TWO_PI = 6.283185307179586476925286766559;

/* Point j of the table for `sign`: exp(sign 2 pi i j / n). */
static void twiddle(const tsr__ref_fft_plan *plan, int64_t j, int sign, double *re, double *im)
{
    *re = plan->twiddles[2 * j];
    *im = sign < 0 ? plan->twiddles[2 * j + 1] : -plan->twiddles[2 * j + 1];
}

/* Radix 4 first (fewest passes), then 2, 3, 5, then the other primes in
 * increasing order. */
static int factorize(int64_t n, int64_t *factors)
{
    int count = 0;
    while (n % 4 == 0) {
        factors[count++] = 4;
        n /= 4;
    }
    for (int64_t p = 2; p * p <= n; p += p == 2 ? 1 : 2) {
        while (n % p == 0) {
            factors[count++] = p;
            n /= p;
        }
    }
    if (n > 1) {
        factors[count++] = n;
    }
    /* Trial division gives primes in increasing order already, 2 before 3. */
    return count;
}

static int64_t largest_prime(const tsr__ref_fft_plan *plan)
{
    int64_t largest = 1;
    for (int i = 0; i < plan->factor_count; i++) {
        if (plan->factors[i] != 4 && plan->factors[i] > largest) {
            largest = plan->factors[i];
        }
    }
    return largest;
}

static int64_t largest_radix(const tsr__ref_fft_plan *plan)
{
    int64_t largest = 1;
    for (int i = 0; i < plan->factor_count; i++) {
        if (plan->factors[i] > largest) {
            largest = plan->factors[i];
        }
    }
    return largest;
}

/* The p-point DFT of a (p interleaved points) into b, by its definition;
 * w_p^e is the table's point e n / p. */
static void dft_direct(const tsr__ref_fft_plan *plan, int64_t p, const double *a, double *b,
                       int sign)
{
    int64_t step = plan->n / p;
    for (int64_t c = 0; c < p; c++) {
        double re = 0.0, im = 0.0;
        for (int64_t t = 0; t < p; t++) {
            double wr, wi;
            twiddle(plan, (t * c % p) * step, sign, &wr, &wi);
            re += a[2 * t] * wr - a[2 * t + 1] * wi;
            im += a[2 * t] * wi + a[2 * t + 1] * wr;
        }
        b[2 * c] = re;
        b[2 * c + 1] = im;
    }
}

static void dft_radix2(const double *a, double *b)
{
    b[0] = a[0] + a[2];
    b[1] = a[1] + a[3];
    b[2] = a[0] - a[2];
    b[3] = a[1] - a[3];
}

/* w = exp(sign 2 pi i / 4) = sign i. */
static void dft_radix4(const double *a, double *b, int sign)
{
    double s0r = a[0] + a[4], s0i = a[1] + a[5]; /* a0 + a2 */
    double d0r = a[0] - a[4], d0i = a[1] - a[5]; /* a0 - a2 */
    double s1r = a[2] + a[6], s1i = a[3] + a[7]; /* a1 + a3 */
    double d1r = a[2] - a[6], d1i = a[3] - a[7]; /* a1 - a3 */
    double wr = -sign * d1i, wi = sign * d1r;    /* w (a1 - a3) */
    b[0] = s0r + s1r;
    b[1] = s0i + s1i;
    b[2] = d0r + wr;
    b[3] = d0i + wi;
    b[4] = s0r - s1r;
    b[5] = s0i - s1i;
    b[6] = d0r - wr;
    b[7] = d0i - wi;
}

static void run_pass(const tsr__ref_fft_plan *plan, int64_t p, int64_t L, const double *x,
                     double *y, int sign, double *points)
{
    int64_t n = plan->n, M = n / (L * p);
    double *a = points, *b = points + 2 * p;
    for (int64_t q = 0; q < M; q++) {
        for (int64_t k = 0; k < L; k++) {
            for (int64_t t = 0; t < p; t++) {
                const double *v = x + 2 * ((q + t * M) * L + k);
                double wr, wi;
                twiddle(plan, t * k * M, sign, &wr, &wi);
                a[2 * t] = v[0] * wr - v[1] * wi;
                a[2 * t + 1] = v[0] * wi + v[1] * wr;
            }
            if (p == 2) {
                dft_radix2(a, b);
            } else if (p == 4) {
                dft_radix4(a, b, sign);
            } else {
                dft_direct(plan, p, a, b, sign);
            }
            for (int64_t c = 0; c < p; c++) {
                double *out = y + 2 * (q * L * p + k + L * c);
                out[0] = b[2 * c];
                out[1] = b[2 * c + 1];
            }
        }
    }
}

static void execute_passes(const tsr__ref_fft_plan *plan, double *data, int sign,
                           double *scratch)
{
    double *x = data, *y = scratch, *points = scratch + 2 * plan->n;
    int64_t L = 1;
    for (int i = 0; i < plan->factor_count; i++) {
        run_pass(plan, plan->factors[i], L, x, y, sign, points);
        L *= plan->factors[i];
        double *swap = x;
        x = y;
        y = swap;
    }
    if (x != data) {
        memcpy(data, x, (size_t)plan->n * 2 * sizeof(double));
    }
}

/* Chirp point j for `sign`: exp(sign pi i j^2 / n). */
static void chirp(const tsr__ref_fft_plan *plan, int64_t j, int sign, double *re, double *im)
{
    *re = plan->chirp[2 * j];
    *im = sign < 0 ? plan->chirp[2 * j + 1] : -plan->chirp[2 * j + 1];
}

static void execute_bluestein(const tsr__ref_fft_plan *plan, double *data, int sign,
                              double *scratch)
{
    int64_t n = plan->n, m = plan->m;
    double *a = scratch, *inner_scratch = scratch + 2 * m;
    for (int64_t j = 0; j < n; j++) {
        double cr, ci;
        chirp(plan, j, sign, &cr, &ci);
        a[2 * j] = data[2 * j] * cr - data[2 * j + 1] * ci;
        a[2 * j + 1] = data[2 * j] * ci + data[2 * j + 1] * cr;
    }
    memset(a + 2 * n, 0, (size_t)(m - n) * 2 * sizeof(double));
    tsr__ref_fft_execute(plan->inner, a, -1, inner_scratch);
    const double *kernel = sign < 0 ? plan->kernel_forward : plan->kernel_inverse;
    for (int64_t k = 0; k < m; k++) {
        double re = a[2 * k] * kernel[2 * k] - a[2 * k + 1] * kernel[2 * k + 1];
        double im = a[2 * k] * kernel[2 * k + 1] + a[2 * k + 1] * kernel[2 * k];
        a[2 * k] = re;
        a[2 * k + 1] = im;
    }
    tsr__ref_fft_execute(plan->inner, a, 1, inner_scratch);
    double inv_m = 1.0 / (double)m; /* a power of two: exact */
    for (int64_t k = 0; k < n; k++) {
        double cr, ci;
        chirp(plan, k, sign, &cr, &ci);
        data[2 * k] = (a[2 * k] * cr - a[2 * k + 1] * ci) * inv_m;
        data[2 * k + 1] = (a[2 * k] * ci + a[2 * k + 1] * cr) * inv_m;
    }
}

void tsr__ref_fft_execute(const tsr__ref_fft_plan *plan, double *data, int sign,
                          double *scratch)
{
    if (plan->inner != NULL) {
        execute_bluestein(plan, data, sign, scratch);
    } else {
        execute_passes(plan, data, sign, scratch);
    }
}

/* The transform of the conjugate chirp wrapped at m, for `sign`; returns
 * its largest magnitude. */
static double make_kernel(tsr__ref_fft_plan *plan, int sign, double *kernel, double *scratch)
{
    int64_t n = plan->n, m = plan->m;
    memset(kernel, 0, (size_t)m * 2 * sizeof(double));
    for (int64_t j = 0; j < n; j++) {
        double cr, ci;
        chirp(plan, j, sign, &cr, &ci);
        kernel[2 * j] = cr;
        kernel[2 * j + 1] = -ci;
        if (j > 0) {
            kernel[2 * (m - j)] = cr;
            kernel[2 * (m - j) + 1] = -ci;
        }
    }
    tsr__ref_fft_execute(plan->inner, kernel, -1, scratch);
    double largest = 0.0;
    for (int64_t k = 0; k < m; k++) {
        double magnitude = hypot(kernel[2 * k], kernel[2 * k + 1]);
        largest = magnitude > largest ? magnitude : largest;
    }
    return largest;
}

/* Sets up Bluestein's convolution; returns 0 when it fits the bound, 1 when
 * the passes must run instead, -1 when out of memory. */
static int setup_bluestein(tsr__ref_fft_plan *plan)
{
    int64_t n = plan->n, m = 1;
    while (m < 2 * n - 1) {
        m *= 2;
    }
    plan->m = m;
    plan->inner = tsr__ref_fft_plan_create(m);
    plan->chirp = malloc((size_t)n * 2 * sizeof(double));
    plan->kernel_forward = malloc((size_t)m * 2 * sizeof(double));
    plan->kernel_inverse = malloc((size_t)m * 2 * sizeof(double));
    double *scratch =
        plan->inner ? malloc((size_t)plan->inner->scratch_points * 2 * sizeof(double)) : NULL;
    if (!plan->inner || !plan->chirp || !plan->kernel_forward || !plan->kernel_inverse ||
        !scratch) {
        free(scratch);
        return -1;
    }
    for (int64_t j = 0; j < n; j++) {
        /* j^2 mod 2n is exact in int64: the angle stays below 2 pi. */
        double angle = TWO_PI * 0.5 * (double)((j * j) % (2 * n)) / (double)n;
        plan->chirp[2 * j] = cos(angle);
        plan->chirp[2 * j + 1] = -sin(angle);
    }
    double largest = make_kernel(plan, -1, plan->kernel_forward, scratch);
    make_kernel(plan, 1, plan->kernel_inverse, scratch);
    free(scratch);
    if (largest > 2.0 * sqrt((double)(2 * n - 1))) {
        return 1;
    }
    plan->scratch_points = 2 * m + plan->inner->scratch_points;
    return 0;
}

static void drop_bluestein(tsr__ref_fft_plan *plan)
{
    tsr__ref_fft_plan_destroy(plan->inner);
    free(plan->chirp);
    free(plan->kernel_forward);
    free(plan->kernel_inverse);
    plan->inner = NULL;
    plan->chirp = plan->kernel_forward = plan->kernel_inverse = NULL;
    plan->m = 0;
}

tsr__ref_fft_plan *tsr__ref_fft_plan_create(int64_t n)
{
    if (n < 1) {
        return NULL;
    }
    tsr__ref_fft_plan *plan = calloc(1, sizeof *plan);
    if (plan == NULL) {
        return NULL;
    }
    plan->n = n;
    plan->factor_count = factorize(n, plan->factors);
    plan->twiddles = malloc((size_t)n * 2 * sizeof(double));
    if (plan->twiddles == NULL) {
        free(plan);
        return NULL;
    }
    for (int64_t j = 0; j < n; j++) {
        double angle = TWO_PI * (double)j / (double)n;
        plan->twiddles[2 * j] = cos(angle);
        plan->twiddles[2 * j + 1] = -sin(angle);
    }
    plan->scratch_points = n + 2 * largest_radix(plan);
    if (largest_prime(plan) > TSR__REF_FFT_BLUESTEIN_PRIME) {
        int fit = setup_bluestein(plan);
        if (fit != 0) {
            drop_bluestein(plan);
        }
        if (fit < 0) {
            tsr__ref_fft_plan_destroy(plan);
            return NULL;
        }
    }
    return plan;
}

void tsr__ref_fft_plan_destroy(tsr__ref_fft_plan *plan)
{
    if (plan == NULL) {
        return;
    }
    drop_bluestein(plan);
    free(plan->twiddles);
    free(plan);
}
