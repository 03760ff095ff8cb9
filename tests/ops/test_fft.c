/* torch.fft and the windows: the rules the golden cases cannot show.
 * Large transforms (past 2^16 points, and a prime past 2^16 through
 * Bluestein's convolution) and stft/istft past 2^16 points round-trip; a
 * line's bits do not depend on its batch or layout; errors name the op and
 * the argument and leave the input as it was (gradients: test_fft_grad.c).
 * Values are checked against the DFT's definition, computed here. */
#include "check_values.h"

static const double PI = 3.14159265358979323846;

static tsr_tensor *complex_from(const double *interleaved, int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(interleaved, (size_t)n * 2 * sizeof(double), ndim, shape,
                           TSR_COMPLEX128, NULL, &t));
    return t;
}

/* Interleaved (re, im) doubles of a complex tensor, malloc'd. */
static double *complex_values(const tsr_tensor *t)
{
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_COMPLEX128, &wide));
    size_t n = (size_t)tsr_tensor_numel(wide);
    double *v = malloc((n ? n : 1) * 2 * sizeof(double));
    CHECK_OK(tsr_to_host(wide, v, n * 2 * sizeof(double)));
    tsr_tensor_release(wide);
    return v;
}

static uint64_t seed = 0x2545f4914f6cdd1dull;

static double next_uniform(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (double)(seed >> 11) * 0x1p-52 - 1.0;
}

static double *random_values(int64_t count)
{
    double *v = malloc((size_t)count * sizeof(double));
    for (int64_t i = 0; i < count; i++)
        v[i] = next_uniform();
    return v;
}

static void fft_matches_the_definition_on_mixed_radix_lengths(void)
{
    const int64_t lengths[] = {1, 6, 10, 12, 30, 49, 97, 253, 257};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        int64_t n = lengths[l];
        double *x = random_values(2 * n);
        tsr_tensor *t = complex_from(x, 1, &n), *y = NULL;
        CHECK_OK(tsr_fft_fft(t, TSR_FFT_N_DEFAULT, 0, NULL, &y));
        double *got = complex_values(y);
        for (int64_t k = 0; k < n; k++) {
            double re = 0, im = 0;
            for (int64_t j = 0; j < n; j++) {
                double a = -2 * PI * (double)(j * k % n) / (double)n;
                re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);
                im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);
            }
            CHECK_DOUBLE(got[2 * k], re, 1e-12 * (double)n);
            CHECK_DOUBLE(got[2 * k + 1], im, 1e-12 * (double)n);
        }
        free(got);
        free(x);
        tsr_tensor_release(t);
        tsr_tensor_release(y);
    }
}

/* ifft(fft(x)) == x past 2^16 points: a power of two, a mixed length and a
 * prime past 2^16 (Bluestein's convolution of 2^18 points). */
static void large_transforms_round_trip(void)
{
    const int64_t lengths[] = {1 << 17, 3 * 5 * 7 * 11 * 13 * 4, 65537};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        int64_t n = lengths[l];
        double *x = random_values(2 * n);
        tsr_tensor *t = complex_from(x, 1, &n), *f = NULL, *back = NULL;
        CHECK_OK(tsr_fft_fft(t, TSR_FFT_N_DEFAULT, -1, "ortho", &f));
        CHECK_OK(tsr_fft_ifft(f, TSR_FFT_N_DEFAULT, -1, "ortho", &back));
        double *got = complex_values(back), worst = 0;
        for (int64_t i = 0; i < 2 * n; i++)
            worst = fmax(worst, fabs(got[i] - x[i]));
        CHECK_TRUE(worst < 1e-13);
        free(got);
        free(x);
        tsr_tensor_release(t);
        tsr_tensor_release(f);
        tsr_tensor_release(back);
    }
}

/* irfft(rfft(x), n) == x for even and odd n past 2^16, in float32. */
static void real_transforms_round_trip_in_float32(void)
{
    const int64_t lengths[] = {1 << 17, (1 << 16) + 3};
    for (size_t l = 0; l < 2; l++) {
        int64_t n = lengths[l];
        double *x = random_values(n);
        tsr_tensor *t = from_doubles(x, 1, &n, TSR_FLOAT32), *f = NULL, *back = NULL;
        CHECK_OK(tsr_fft_rfft(t, TSR_FFT_N_DEFAULT, 0, NULL, &f));
        check_shape(f, 1, (int64_t[]){n / 2 + 1});
        CHECK_INT(tsr_tensor_dtype(f), TSR_COMPLEX64);
        CHECK_OK(tsr_fft_irfft(f, n, 0, NULL, &back));
        CHECK_INT(tsr_tensor_dtype(back), TSR_FLOAT32);
        check_values(back, x, n, 2e-6);
        free(x);
        tsr_tensor_release(t);
        tsr_tensor_release(f);
        tsr_tensor_release(back);
    }
}

/* Same bits for a row alone, in a batch, and read through a transpose. */
static void a_line_has_the_same_bits_in_any_batch_or_layout(void)
{
    int64_t rows = 5, n = 24;
    double *x = random_values(rows * n * 2);
    tsr_tensor *batch = complex_from(x, 2, (int64_t[]){rows, n});
    tsr_tensor *row = complex_from(x + 2 * 2 * n, 1, &n); /* row 2 */
    tsr_tensor *yb = NULL, *yr = NULL, *tt = NULL, *ct = NULL, *yt = NULL;
    CHECK_OK(tsr_fft_fft(batch, TSR_FFT_N_DEFAULT, 1, NULL, &yb));
    CHECK_OK(tsr_fft_fft(row, TSR_FFT_N_DEFAULT, 0, NULL, &yr));
    /* The batch stored transposed: [n, rows] contiguous, viewed as [rows, n]. */
    CHECK_OK(tsr_transpose(batch, 0, 1, &tt));
    CHECK_OK(tsr_contiguous(tt, &ct));
    tsr_tensor_release(tt);
    CHECK_OK(tsr_transpose(ct, 0, 1, &tt));
    CHECK_OK(tsr_fft_fft(tt, TSR_FFT_N_DEFAULT, 1, NULL, &yt));
    double *b = complex_values(yb), *r = complex_values(yr), *t = complex_values(yt);
    CHECK_TRUE(memcmp(b + 2 * 2 * n, r, (size_t)n * 2 * sizeof(double)) == 0);
    CHECK_TRUE(memcmp(b, t, (size_t)rows * n * 2 * sizeof(double)) == 0);
    free(b);
    free(r);
    free(t);
    free(x);
    tsr_tensor *all[] = {batch, row, yb, yr, tt, ct, yt};
    for (size_t i = 0; i < 7; i++)
        tsr_tensor_release(all[i]);
}

static void rfftn_halves_the_last_dim_listed(void)
{
    double x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    tsr_tensor *t = from_doubles(x, 2, (int64_t[]){4, 3}, TSR_FLOAT64), *y = NULL, *ref = NULL;
    CHECK_OK(tsr_fft_rfftn(t, NULL, 0, (int64_t[]){1, 0}, 2, NULL, &y));
    check_shape(y, 2, (int64_t[]){3, 3}); /* dim 0: 4 -> 4/2 + 1 */
    /* The same numbers as fftn's first three rows. */
    CHECK_OK(tsr_fft_fftn(t, NULL, 0, NULL, 0, NULL, &ref));
    double *a = complex_values(y), *b = complex_values(ref);
    for (int i = 0; i < 18; i++)
        CHECK_DOUBLE(a[i], b[i], 1e-12);
    free(a);
    free(b);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
    tsr_tensor_release(ref);
}

static void hfft_and_ihfft_undo_each_other(void)
{
    double x[7] = {0.5, -1, 2, 0.25, 3, -2, 1};
    tsr_tensor *t = from_doubles(x, 1, (int64_t[]){7}, TSR_FLOAT64), *h = NULL, *back = NULL;
    CHECK_OK(tsr_fft_ihfft(t, TSR_FFT_N_DEFAULT, 0, NULL, &h));
    check_shape(h, 1, (int64_t[]){4});
    CHECK_OK(tsr_fft_hfft(h, 7, 0, NULL, &back));
    check_values(back, x, 7, 1e-14);
    tsr_tensor_release(t);
    tsr_tensor_release(h);
    tsr_tensor_release(back);
}

static void errors_name_the_argument_and_leave_the_input(void)
{
    double x[4] = {1, 2, 3, 4};
    tsr_tensor *t = from_doubles(x, 1, (int64_t[]){4}, TSR_FLOAT32), *y = NULL;
    CHECK_ERROR(tsr_fft_fft(t, TSR_FFT_N_DEFAULT, 0, "sideways", &y), TSR_ERR_INVALID_ARGUMENT,
                "Invalid normalization mode: \"sideways\"");
    CHECK_ERROR(tsr_fft_fft(t, 0, 0, NULL, &y), TSR_ERR_INVALID_ARGUMENT,
                "Invalid number of data points (0)");
    CHECK_ERROR(tsr_fft_irfft(t, -3, 0, NULL, &y), TSR_ERR_INVALID_ARGUMENT,
                "Invalid number of data points (-3)");
    CHECK_ERROR(tsr_fft_fftn(t, NULL, 0, (int64_t[]){0, 0}, 2, NULL, &y),
                TSR_ERR_INVALID_ARGUMENT, "FFT dims must be unique");
    CHECK_ERROR(tsr_fft_fft(t, TSR_FFT_N_DEFAULT, 3, NULL, &y), TSR_ERR_INDEX, "fft_fft");
    tsr_tensor *h = NULL, *c = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT16, &h));
    CHECK_ERROR(tsr_fft_fft(h, TSR_FFT_N_DEFAULT, 0, NULL, &y), TSR_ERR_DTYPE,
                "Unsupported dtype float16");
    CHECK_OK(tsr_to_dtype(t, TSR_COMPLEX64, &c));
    CHECK_ERROR(tsr_fft_rfft(c, TSR_FFT_N_DEFAULT, 0, NULL, &y), TSR_ERR_DTYPE,
                "rfft expects a real input tensor");
    CHECK_TRUE(y == NULL);
    check_values(t, x, 4, 0);
    tsr_tensor_release(t);
    tsr_tensor_release(h);
    tsr_tensor_release(c);
}

/* A hann-windowed frame of a pure tone peaks at its bin. */
static void stft_finds_the_tone(void)
{
    int64_t n = 256;
    double *x = malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++)
        x[i] = cos(2 * PI * 8.0 * (double)i / 64.0); /* bin 8 of 64 */
    tsr_tensor *t = from_doubles(x, 1, &n, TSR_FLOAT64), *w = NULL, *s = NULL;
    CHECK_OK(tsr_hann_window(64, true, TSR_FLOAT64, NULL, &w));
    CHECK_OK(tsr_stft(t, 64, 16, TSR_FFT_N_DEFAULT, w, true, NULL, false, -1, 1, &s));
    check_shape(s, 2, (int64_t[]){33, 17});
    double *v = complex_values(s);
    /* frame 8 (interior): |X[8]| = 64 / 4 for a periodic hann window */
    int64_t frame = 8, frames = 17;
    double peak = hypot(v[2 * (8 * frames + frame)], v[2 * (8 * frames + frame) + 1]);
    double off = hypot(v[2 * (20 * frames + frame)], v[2 * (20 * frames + frame) + 1]);
    CHECK_DOUBLE(peak, 16.0, 1e-9);
    CHECK_TRUE(off < 1e-9);
    free(v);
    tsr_tensor_release(s);
    s = NULL;
    CHECK_ERROR(tsr_stft(t, 64, 16, TSR_FFT_N_DEFAULT, w, true, NULL, false, -1, 0, &s),
                TSR_ERR_UNIMPLEMENTED, "return_complex=False");
    free(x);
    tsr_tensor_release(t);
    tsr_tensor_release(w);
}

/* istft(stft(x)) == x for a signal past 2^16 points in a batch of two,
 * with a window that overlaps itself enough (hann, hop n_fft / 4). */
static void istft_inverts_stft_on_long_signals(void)
{
    int64_t shape[2] = {2, 70001};
    double *x = random_values(2 * 70001);
    tsr_tensor *t = from_doubles(x, 2, shape, TSR_FLOAT64), *w = NULL, *s = NULL, *back = NULL;
    CHECK_OK(tsr_hann_window(256, true, TSR_FLOAT64, NULL, &w));
    CHECK_OK(tsr_stft(t, 256, 64, TSR_FFT_N_DEFAULT, w, true, "reflect", false, -1, 1, &s));
    CHECK_OK(tsr_istft(s, 256, 64, TSR_FFT_N_DEFAULT, w, true, false, -1, 70001, false, &back));
    check_shape(back, 2, shape);
    check_values(back, x, 2 * 70001, 1e-12);
    tsr_tensor *zero_window = NULL, *y = NULL;
    CHECK_OK(tsr_zeros(1, (int64_t[]){256}, TSR_FLOAT64, NULL, &zero_window));
    CHECK_ERROR(tsr_istft(s, 256, 64, TSR_FFT_N_DEFAULT, zero_window, true, false, -1,
                          TSR_FFT_N_DEFAULT, false, &y),
                TSR_ERR_VALUE, "window overlap add min");
    CHECK_TRUE(y == NULL);
    free(x);
    tsr_tensor *all[] = {t, w, s, back, zero_window};
    for (size_t i = 0; i < 5; i++)
        tsr_tensor_release(all[i]);
}

static void frequencies_windows_and_shifts(void)
{
    tsr_tensor *f = NULL, *w = NULL, *s = NULL;
    CHECK_OK(tsr_fft_fftfreq(5, 0.5, TSR_FLOAT64, NULL, &f));
    check_values(f, (double[]){0, 0.4, 0.8, -0.8, -0.4}, 5, 1e-15);
    CHECK_OK(tsr_fft_fftshift(f, NULL, 0, &s));
    check_values(s, (double[]){-0.8, -0.4, 0, 0.4, 0.8}, 5, 1e-15);
    tsr_tensor_release(f);
    tsr_tensor_release(s);
    CHECK_OK(tsr_hann_window(4, true, TSR_FLOAT64, NULL, &w));
    check_values(w, (double[]){0, 0.5, 1, 0.5}, 4, 1e-15);
    tsr_tensor_release(w);
    CHECK_OK(tsr_bartlett_window(5, false, TSR_DTYPE_INFER, NULL, &w));
    CHECK_INT(tsr_tensor_dtype(w), TSR_FLOAT32);
    check_values(w, (double[]){0, 0.5, 1, 0.5, 0}, 5, 1e-7);
    tsr_tensor_release(w);
    CHECK_ERROR(tsr_kaiser_window(-2, true, 12.0, TSR_FLOAT32, NULL, &w),
                TSR_ERR_INVALID_ARGUMENT, "window_length=-2");
    CHECK_ERROR(tsr_hann_window(3, true, TSR_INT32, NULL, &w), TSR_ERR_DTYPE, "hann_window");
}

int main(void)
{
    RUN_TEST(fft_matches_the_definition_on_mixed_radix_lengths);
    RUN_TEST(large_transforms_round_trip);
    RUN_TEST(real_transforms_round_trip_in_float32);
    RUN_TEST(a_line_has_the_same_bits_in_any_batch_or_layout);
    RUN_TEST(rfftn_halves_the_last_dim_listed);
    RUN_TEST(hfft_and_ihfft_undo_each_other);
    RUN_TEST(errors_name_the_argument_and_leave_the_input);
    RUN_TEST(stft_finds_the_tone);
    RUN_TEST(istft_inverts_stft_on_long_signals);
    RUN_TEST(frequencies_windows_and_shifts);
    return check_summary("fft");
}
