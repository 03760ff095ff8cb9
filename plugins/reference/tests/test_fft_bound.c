/* The Fourier transforms' error bound, checked on the plugin given on the
 * command line (reference, or cpu, whose table may keep reference rows):
 *     ||y_hat - y||_2 <= eps u sqrt(N) ||x||_2,
 * u the unit roundoff of the operand's parts, eps the sum over the axes of
 * e(n) (docs/accuracy.md, "Fourier transforms"), y the exact transform
 * computed here in long double (64-bit significand: 2^11 times double's
 * precision), by the DFT's definition up to 64 points and at primes, else by a
 * recursive mixed-radix transform of its own (not the plugin's algorithm).
 *
 * Lengths: every n in 1..1024; powers of 2, 3, 5, 7, 11 and 13 up to 2^20;
 * squares of 37, 101, 251 and 257; primes past 250 up to 10007, in float32
 * and float64 (complex64 and complex128), c2c forward and inverse (forward
 * alone past 2^16 points); r2c and
 * c2r on a sample of lengths (odd, even below and above 512). Prints the largest ||y_hat - y|| / (u sqrt(N) ||x||) per
 * class of lengths, the numbers docs/accuracy.md publishes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

typedef long double real;

/* ---- exact transforms in long double ---------------------------------- */

static const real PI_L = 3.141592653589793238462643383279502884L;

/* exp(sign 2 pi i e / n) for e < n. */
static void unit_root(int64_t e, int64_t n, int sign, real *re, real *im)
{
    real angle = 2 * PI_L * (real)e / (real)n;
    *re = cosl(angle);
    *im = sign * sinl(angle);
}

static real *root_table(int64_t n, int sign)
{
    real *w = malloc((size_t)n * 2 * sizeof(real));
    for (int64_t e = 0; e < n; e++) {
        unit_root(e, n, sign, &w[2 * e], &w[2 * e + 1]);
    }
    return w;
}

static void dft_exact(const real *x, real *y, int64_t n, int sign)
{
    real *w = root_table(n, sign);
    for (int64_t k = 0; k < n; k++) {
        real re = 0, im = 0;
        for (int64_t j = 0; j < n; j++) {
            const real *r = &w[2 * (j * k % n)];
            re += x[2 * j] * r[0] - x[2 * j + 1] * r[1];
            im += x[2 * j] * r[1] + x[2 * j + 1] * r[0];
        }
        y[2 * k] = re;
        y[2 * k + 1] = im;
    }
    free(w);
}

static int64_t smallest_factor(int64_t n)
{
    for (int64_t p = 2; p * p <= n; p++) {
        if (n % p == 0) {
            return p;
        }
    }
    return n;
}

/* Decimation in time by the smallest prime p: p sub-transforms of the
 * points j = r (mod p), then y[k + m c] = sum_r w_n^(r (k + m c)) Y_r[k]. */
static void fft_recursive(const real *x, int64_t stride, real *y, int64_t n, const real *w,
                          int64_t w_step, real *tmp)
{
    int64_t p = smallest_factor(n), m = n / p;
    if (p == n) {
        for (int64_t k = 0; k < n; k++) {
            real re = 0, im = 0;
            for (int64_t j = 0; j < n; j++) {
                const real *r = &w[2 * ((j * k % n) * w_step)];
                const real *v = &x[2 * j * stride];
                re += v[0] * r[0] - v[1] * r[1];
                im += v[0] * r[1] + v[1] * r[0];
            }
            y[2 * k] = re;
            y[2 * k + 1] = im;
        }
        return;
    }
    for (int64_t r = 0; r < p; r++) {
        fft_recursive(x + 2 * r * stride, stride * p, tmp + 2 * r * m, m, w, w_step * p, y);
    }
    for (int64_t k = 0; k < m; k++) {
        for (int64_t c = 0; c < p; c++) {
            int64_t f = k + m * c;
            real re = 0, im = 0;
            int64_t e = 0; /* r f mod n, stepped */
            for (int64_t r = 0; r < p; r++, e = e + f >= n ? e + f - n : e + f) {
                const real *t = &w[2 * (e * w_step)];
                const real *v = &tmp[2 * (r * m + k)];
                re += v[0] * t[0] - v[1] * t[1];
                im += v[0] * t[1] + v[1] * t[0];
            }
            y[2 * f] = re;
            y[2 * f + 1] = im;
        }
    }
    /* tmp now holds garbage for the caller, which only reads y. */
}

static void transform_exact(const real *x, real *y, int64_t n, int sign)
{
    if (n <= 64 || smallest_factor(n) == n) {
        dft_exact(x, y, n, sign);
        return;
    }
    real *w = root_table(n, sign);
    real *tmp = malloc((size_t)n * 2 * sizeof(real));
    real *out = malloc((size_t)n * 2 * sizeof(real));
    fft_recursive(x, 1, out, n, w, 1, tmp);
    memcpy(y, out, (size_t)n * 2 * sizeof(real));
    free(out);
    free(tmp);
    free(w);
}

/* ---- the bound ---------------------------------------------------------- */

static double e_passes(int64_t n)
{
    double e = 8.0;
    for (int64_t p = 2; n > 1; p++) {
        while (n % p == 0) {
            e += 8.0 * pow((double)p, 1.5);
            n /= p;
        }
    }
    return e;
}

static int64_t largest_prime(int64_t n)
{
    int64_t largest = 1;
    for (int64_t p = 2; n > 1; p++) {
        while (n % p == 0) {
            largest = p;
            n /= p;
        }
    }
    return largest;
}

/* The bound's e(n) for the algorithm the seeds choose: Bluestein's where a
 * prime factor exceeds 250 and the conjugate chirp's transform stays within
 * 2 sqrt(2n - 1), the passes' otherwise. */
static double e_of(int64_t n)
{
    if (largest_prime(n) <= 250) {
        return e_passes(n);
    }
    int64_t m = 1;
    while (m < 2 * n - 1) {
        m *= 2;
    }
    real *b = calloc((size_t)m * 2, sizeof(real));
    real *bh = malloc((size_t)m * 2 * sizeof(real));
    for (int64_t j = 0; j < n; j++) {
        real angle = PI_L * (real)((j * j) % (2 * n)) / (real)n;
        b[2 * j] = cosl(angle);
        b[2 * j + 1] = sinl(angle);
        if (j > 0) {
            b[2 * (m - j)] = b[2 * j];
            b[2 * (m - j) + 1] = b[2 * j + 1];
        }
    }
    transform_exact(b, bh, m, -1);
    real largest = 0;
    for (int64_t k = 0; k < m; k++) {
        real magnitude = hypotl(bh[2 * k], bh[2 * k + 1]);
        largest = magnitude > largest ? magnitude : largest;
    }
    free(b);
    free(bh);
    if (largest > 2 * sqrtl((real)(2 * n - 1))) {
        return e_passes(n);
    }
    return 6.0 * e_of(m) + 26.0;
}

/* ---- running the plugin ------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* Uniform in [-1, 1), a float32 value, so one exact transform serves both
 * precisions. */
static double next_value(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(float)((double)(rng_state >> 11) * 0x1p-52 - 1.0);
}

static int run_kernel(int32_t op, int32_t dtype_in, int32_t dtype_out, const test_tensor *in,
                      const test_tensor *out, uint32_t axes, int direction)
{
    const tsr_kernel_entry *k = test_find_kernel(op, dtype_in, dtype_out);
    if (k == NULL) {
        return TSR_ERR_UNIMPLEMENTED;
    }
    tsr_fft_attrs attrs = {sizeof attrs, axes, direction, TSR_FFT_NORM_NONE};
    tsr_kernel_args args = {sizeof args, op, 1, 1, &in->desc, &out->desc, &attrs};
    return k->fn(plugin.backend, &args);
}

typedef struct length_class {
    const char *name;
    double worst[2];       /* ratio to u sqrt(N) ||x||, float32 and float64 */
    double worst_bound[2]; /* ratio to eps u sqrt(N) ||x|| */
    int64_t count;
} length_class;

static void record(length_class *c, int wide, double ratio, double eps, int64_t n,
                   const char *what)
{
    c->worst[wide] = ratio > c->worst[wide] ? ratio : c->worst[wide];
    double of_bound = ratio / eps;
    c->worst_bound[wide] = of_bound > c->worst_bound[wide] ? of_bound : c->worst_bound[wide];
    c->count++;
    if (!(of_bound <= 1.0)) {
        printf("FAIL %s n=%lld %s: error %.3g u sqrt(N) ||x|| exceeds eps %.1f\n", what,
               (long long)n, wide ? "float64" : "float32", ratio, eps);
        test_failures++;
    }
}

/* c2c of n points in both directions and both precisions. */
static void check_c2c(length_class *c, int64_t n)
{
    real *x = malloc((size_t)n * 2 * sizeof(real)), *y = malloc((size_t)n * 2 * sizeof(real));
    double eps = e_of(n);
    for (int64_t j = 0; j < 2 * n; j++) {
        x[j] = next_value();
    }
    /* Past 2^16 points the forward direction alone, to keep the run short:
     * the inverse runs the same passes with conjugate twiddles. */
    for (int dir = -1; dir <= (n > 65536 ? -1 : 1); dir += 2) {
        transform_exact(x, y, n, dir);
        for (int wide = 0; wide < 2; wide++) {
            int32_t dtype = wide ? TSR_COMPLEX128 : TSR_COMPLEX64;
            test_tensor in, out;
            test_tensor_vector(&in, dtype, n);
            test_tensor_vector(&out, dtype, n);
            real norm_x = 0, err = 0;
            for (int64_t j = 0; j < n; j++) {
                test_element_set(dtype, test_tensor_at(&in, &j), (double)x[2 * j],
                                 (double)x[2 * j + 1]);
                norm_x += x[2 * j] * x[2 * j] + x[2 * j + 1] * x[2 * j + 1];
            }
            CHECK_INT(run_kernel(TSR_OP_FFT_C2C, dtype, dtype, &in, &out, 1u, dir), TSR_OK);
            for (int64_t k = 0; k < n; k++) {
                const unsigned char *e = test_tensor_at(&out, &k);
                real dr = test_element_real(dtype, e) - y[2 * k];
                real di = test_element_imag(dtype, e) - y[2 * k + 1];
                err += dr * dr + di * di;
            }
            double u = wide ? 0x1p-53 : 0x1p-24;
            double ratio = norm_x > 0 ? (double)(sqrtl(err) / (u * sqrtl((real)n) * sqrtl(norm_x)))
                                      : (double)sqrtl(err);
            record(c, wide, ratio, eps, n, dir < 0 ? "c2c forward" : "c2c inverse");
            test_tensor_free(&in);
            test_tensor_free(&out);
        }
    }
    free(x);
    free(y);
}

/* r2c then c2r of n real points, both precisions. The seeds count the last
 * axis of a real transform of even n >= 512 as e(n/2) + 8. */
static void check_real(length_class *c, int64_t n)
{
    int64_t bins = n / 2 + 1;
    real *x = calloc((size_t)n * 2, sizeof(real)), *y = malloc((size_t)n * 2 * sizeof(real));
    double eps = n % 2 == 0 && n >= 512 ? e_of(n / 2) + 8.0 : e_of(n);
    for (int64_t j = 0; j < n; j++) {
        x[2 * j] = next_value();
    }
    transform_exact(x, y, n, -1);
    for (int wide = 0; wide < 2; wide++) {
        int32_t rdt = wide ? TSR_FLOAT64 : TSR_FLOAT32, cdt = wide ? TSR_COMPLEX128 : TSR_COMPLEX64;
        double u = wide ? 0x1p-53 : 0x1p-24;
        test_tensor rin, cout, rout;
        test_tensor_vector(&rin, rdt, n);
        test_tensor_vector(&cout, cdt, bins);
        test_tensor_vector(&rout, rdt, n);
        real norm_x = 0, err = 0;
        for (int64_t j = 0; j < n; j++) {
            test_element_set(rdt, test_tensor_at(&rin, &j), (double)x[2 * j], 0.0);
            norm_x += x[2 * j] * x[2 * j];
        }
        CHECK_INT(run_kernel(TSR_OP_FFT_R2C, rdt, cdt, &rin, &cout, 1u, TSR_FFT_FORWARD), TSR_OK);
        for (int64_t k = 0; k < bins; k++) {
            const unsigned char *e = test_tensor_at(&cout, &k);
            real dr = test_element_real(cdt, e) - y[2 * k];
            real di = test_element_imag(cdt, e) - y[2 * k + 1];
            err += dr * dr + di * di;
        }
        record(c, wide, (double)(sqrtl(err) / (u * sqrtl((real)n) * sqrtl(norm_x))), eps, n,
               "r2c");
        /* c2r of the computed bins against the exact inverse of the n
         * points they stand for; its ||x|| is sqrt(2) times the bins'. */
        real *xb = malloc((size_t)n * 2 * sizeof(real)), *yb = malloc((size_t)n * 2 * sizeof(real));
        real norm_b = 0;
        for (int64_t k = 0; k < n; k++) {
            int64_t bin = k <= n / 2 ? k : n - k;
            const unsigned char *e = test_tensor_at(&cout, &bin);
            xb[2 * k] = test_element_real(cdt, e);
            xb[2 * k + 1] = (k <= n / 2 ? 1 : -1) * test_element_imag(cdt, e);
            if (k < bins) {
                norm_b += xb[2 * k] * xb[2 * k] + xb[2 * k + 1] * xb[2 * k + 1];
            }
        }
        transform_exact(xb, yb, n, 1);
        CHECK_INT(run_kernel(TSR_OP_FFT_C2R, cdt, rdt, &cout, &rout, 1u, TSR_FFT_INVERSE), TSR_OK);
        err = 0;
        for (int64_t j = 0; j < n; j++) {
            real d = test_element_real(rdt, test_tensor_at(&rout, &j)) - yb[2 * j];
            err += d * d;
        }
        record(c, wide, (double)(sqrtl(err) / (u * sqrtl((real)n) * sqrtl(2 * norm_b))), eps, n,
               "c2r");
        free(xb);
        free(yb);
        test_tensor_free(&rin);
        test_tensor_free(&cout);
        test_tensor_free(&rout);
    }
    free(x);
    free(y);
}

static void print_class(const length_class *c)
{
    printf("%-34s %6lld checks  float32 max %.3f (%.4f of eps)  float64 max %.3f (%.4f of eps)\n",
           c->name, (long long)c->count, c->worst[0], c->worst_bound[0], c->worst[1],
           c->worst_bound[1]);
}

int main(int argc, char **argv)
{
    if (argc < 2 || test_plugin_open(argv[1]) != 0) {
        fprintf(stderr, "usage: test_fft_bound PLUGIN.so\n");
        return 1;
    }
    length_class all = {"c2c n = 1..1024", {0}, {0}, 0};
    for (int64_t n = 1; n <= 1024; n++) {
        check_c2c(&all, n);
    }
    print_class(&all);
    length_class twos = {"c2c powers of 2, 2^11..2^20", {0}, {0}, 0};
    for (int64_t n = 2048; n <= (1 << 20); n *= 2) {
        check_c2c(&twos, n);
    }
    print_class(&twos);
    length_class powers = {"c2c powers of 3,5,7,11,13 > 1024", {0}, {0}, 0};
    const int64_t primes[] = {3, 5, 7, 11, 13};
    for (int i = 0; i < 5; i++) {
        for (int64_t n = primes[i]; n <= (1 << 20); n *= primes[i]) {
            if (n > 1024) {
                check_c2c(&powers, n);
            }
        }
    }
    const int64_t squares[] = {37 * 37, 101 * 101, 251 * 251, 257 * 257};
    for (int i = 0; i < 4; i++) {
        check_c2c(&powers, squares[i]);
    }
    print_class(&powers);
    length_class large_primes = {"c2c primes 1031..10007", {0}, {0}, 0};
    const int64_t big[] = {1031, 2053, 4099, 8191, 10007};
    for (int i = 0; i < 5; i++) {
        check_c2c(&large_primes, big[i]);
    }
    print_class(&large_primes);
    length_class reals = {"r2c and c2r, sampled n", {0}, {0}, 0};
    const int64_t real_lengths[] = {1, 2, 3, 5, 16, 17, 100, 251, 256, 510, 511, 512, 1000, 1024,
                                    4096, 10007, 65536, 1 << 20};
    for (size_t i = 0; i < sizeof real_lengths / sizeof real_lengths[0]; i++) {
        check_real(&reals, real_lengths[i]);
    }
    print_class(&reals);
    test_plugin_close();
    if (test_failures != 0) {
        printf("%d failures\n", test_failures);
        return 1;
    }
    printf("fft bound holds\n");
    return 0;
}
