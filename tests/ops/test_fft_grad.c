/* Gradients of torch.fft's transforms: autograd's Jacobian against central
 * finite differences (tsr_gradcheck through tests/support/grad_harness.h),
 * on float64 and complex128 inputs, every norm, lengths odd and even, n and
 * s that pad and that trim, dims listed out of order (the core transposes
 * them for the kernel). Every transform is linear, so double backward is
 * checked on y * y, whose gradient depends on the input through the
 * backward's own transform. stft and istft, composed of those and other
 * recorded ops, are checked with respect to the signal (or spectrogram) and
 * the window together. One gradient is also checked against its value
 * worked out by hand. */
#include "check.h"
#include "grad_harness.h"

#define D TSR_FFT_N_DEFAULT
#define DIMS(...) ((const int64_t[]){__VA_ARGS__})

/* A case: f(in[0]) and f(in[0])^2, both for the harness. */
#define FFT_CASE(id, call)                                                                         \
    static tsr_status id(const tsr_tensor *const *in, tsr_tensor **out)                            \
    {                                                                                              \
        const tsr_tensor *x = in[0];                                                               \
        return call;                                                                               \
    }                                                                                              \
    static tsr_status id##_sq(const tsr_tensor *const *in, tsr_tensor **out)                       \
    {                                                                                              \
        tsr_tensor *y = NULL;                                                                      \
        tsr_status st = id(in, &y);                                                                \
        if (st == TSR_OK)                                                                          \
            st = tsr_mul(y, y, out);                                                               \
        tsr_tensor_release(y);                                                                     \
        return st;                                                                                 \
    }

FFT_CASE(fft_real, tsr_fft_fft(x, D, -1, NULL, out))
FFT_CASE(fft_pad_ortho, tsr_fft_fft(x, 6, 1, "ortho", out))
FFT_CASE(fft_trim_forward, tsr_fft_fft(x, 3, -1, "forward", out))
FFT_CASE(ifft_pad, tsr_fft_ifft(x, 5, 0, NULL, out))
FFT_CASE(fft2_forward, tsr_fft_fft2(x, DIMS(2, 5), 2, NULL, 0, "forward", out))
FFT_CASE(ifft2_ortho, tsr_fft_ifft2(x, NULL, 0, NULL, 0, "ortho", out))
FFT_CASE(fftn_dim0, tsr_fft_fftn(x, NULL, 0, DIMS(0), 1, NULL, out))
FFT_CASE(fftn_no_dims, tsr_fft_fftn(x, NULL, 0, DIMS(0), 0, NULL, out))
FFT_CASE(ifftn_s, tsr_fft_ifftn(x, DIMS(4, 3), 2, NULL, 0, "forward", out))
FFT_CASE(rfft_even, tsr_fft_rfft(x, D, -1, NULL, out))
FFT_CASE(rfft_pad_odd, tsr_fft_rfft(x, 7, -1, "ortho", out))
FFT_CASE(rfft_trim_odd, tsr_fft_rfft(x, 3, -1, "forward", out))
FFT_CASE(rfft_dim0, tsr_fft_rfft(x, D, 0, NULL, out))
FFT_CASE(rfft2_s, tsr_fft_rfft2(x, DIMS(3, 5), 2, NULL, 0, NULL, out))
FFT_CASE(rfftn_swapped, tsr_fft_rfftn(x, NULL, 0, DIMS(1, 0), 2, "ortho", out))
FFT_CASE(irfft_default, tsr_fft_irfft(x, D, -1, NULL, out))
FFT_CASE(irfft_odd_ortho, tsr_fft_irfft(x, 7, -1, "ortho", out))
FFT_CASE(irfft_trim_forward, tsr_fft_irfft(x, 4, -1, "forward", out))
FFT_CASE(irfft_dim0, tsr_fft_irfft(x, 5, 0, NULL, out))
FFT_CASE(irfft2_s, tsr_fft_irfft2(x, DIMS(3, 5), 2, NULL, 0, NULL, out))
FFT_CASE(irfftn_swapped, tsr_fft_irfftn(x, NULL, 0, DIMS(1, 0), 2, "forward", out))
FFT_CASE(hfft_odd, tsr_fft_hfft(x, 5, -1, NULL, out))
FFT_CASE(hfft_default_ortho, tsr_fft_hfft(x, D, -1, "ortho", out))
FFT_CASE(hfft2_default, tsr_fft_hfft2(x, NULL, 0, NULL, 0, "forward", out))
FFT_CASE(hfftn_s, tsr_fft_hfftn(x, DIMS(2, 4), 2, NULL, 0, NULL, out))
FFT_CASE(ihfft_pad_odd, tsr_fft_ihfft(x, 5, -1, NULL, out))
FFT_CASE(ihfft2_ortho, tsr_fft_ihfft2(x, NULL, 0, NULL, 0, "ortho", out))
FFT_CASE(ihfftn_s, tsr_fft_ihfftn(x, DIMS(4, 6), 2, NULL, 0, "forward", out))

typedef struct fft_grad_case {
    const char *name;
    grad_harness_fn fn, squared;
    unsigned dtypes; /* REAL, CPLX or both */
} fft_grad_case;

enum { REAL = 1, CPLX = 2 };
#define CASE(id, dtypes)                                                                           \
    {                                                                                              \
#id, id, id##_sq, dtypes                                                                   \
    }

static const fft_grad_case CASES[] = {
    CASE(fft_real, REAL | CPLX),
    CASE(fft_pad_ortho, CPLX),
    CASE(fft_trim_forward, CPLX),
    CASE(ifft_pad, REAL | CPLX),
    CASE(fft2_forward, CPLX),
    CASE(ifft2_ortho, REAL | CPLX),
    CASE(fftn_dim0, CPLX),
    CASE(fftn_no_dims, REAL | CPLX),
    CASE(ifftn_s, CPLX),
    CASE(rfft_even, REAL),
    CASE(rfft_pad_odd, REAL),
    CASE(rfft_trim_odd, REAL),
    CASE(rfft_dim0, REAL),
    CASE(rfft2_s, REAL),
    CASE(rfftn_swapped, REAL),
    CASE(irfft_default, REAL | CPLX),
    CASE(irfft_odd_ortho, CPLX),
    CASE(irfft_trim_forward, CPLX),
    CASE(irfft_dim0, CPLX),
    CASE(irfft2_s, CPLX),
    CASE(irfftn_swapped, CPLX),
    CASE(hfft_odd, REAL | CPLX),
    CASE(hfft_default_ortho, CPLX),
    CASE(hfft2_default, CPLX),
    CASE(hfftn_s, CPLX),
    CASE(ihfft_pad_odd, REAL),
    CASE(ihfft2_ortho, REAL),
    CASE(ihfftn_s, REAL),
};

/* A 3 x 4 input with distinct values, requiring grad. */
static tsr_tensor *make_input(bool complex)
{
    double v[24];
    for (int i = 0; i < 24; i++)
        v[i] = -1.2 + 2.5 * (double)((i * 7 + 3) % 24) / 24.0;
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, (complex ? 24 : 12) * sizeof(double), 2, DIMS(3, 4),
                           complex ? TSR_COMPLEX128 : TSR_FLOAT64, NULL, &t));
    if (t)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void run(bool second_order)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        for (int complex = 0; complex < 2; complex++) {
            if (!(CASES[i].dtypes & (complex ? CPLX : REAL)))
                continue;
            char name[96];
            snprintf(name, sizeof name, "%s (%s)", CASES[i].name,
                     complex ? "complex128" : "float64");
            tsr_tensor *x = make_input(complex);
            grad_harness h = {name, second_order ? CASES[i].squared : CASES[i].fn, 1, 0, 0};
            grad_harness_check(&h, &x, second_order);
            tsr_tensor_release(x);
        }
    }
}

static void every_transform_matches_finite_differences(void)
{
    run(false);
}

static void every_transform_gradient_matches_finite_differences_of_itself(void)
{
    run(true);
}

/* stft and istft: in[0] the signal or spectrogram, in[1] the window. */
static tsr_status stft_onesided(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_stft(in[0], 8, 2, D, in[1], true, "reflect", false, -1, 1, out);
}
static tsr_status stft_two_sided_normalized(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_stft(in[0], 8, 3, 6, in[1], true, "constant", true, 0, 1, out);
}
static tsr_status stft_no_center(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_stft(in[0], 8, 4, D, in[1], false, NULL, false, -1, 1, out);
}
static tsr_status istft_onesided(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_istft(in[0], 8, 2, D, in[1], true, false, -1, D, false, out);
}
static tsr_status istft_length_normalized(const tsr_tensor *const *in, tsr_tensor **out)
{
    return tsr_istft(in[0], 8, 2, D, in[1], true, true, -1, 13, false, out);
}

typedef struct spectral_case {
    const char *name;
    grad_harness_fn fn;
    bool complex;  /* in[0] complex128 */
    int ndim;      /* of in[0] */
    int64_t shape[2];
    int64_t window; /* points of in[1], positive values (istft divides by them) */
} spectral_case;

static const spectral_case SPECTRAL[] = {
    {"stft_onesided", stft_onesided, false, 1, {20, 0}, 8},
    {"stft_two_sided_normalized (complex128)", stft_two_sided_normalized, true, 1, {17, 0}, 6},
    {"stft_no_center", stft_no_center, false, 2, {2, 16}, 8},
    {"istft_onesided", istft_onesided, true, 2, {5, 9}, 8},
    {"istft_length_normalized", istft_length_normalized, true, 2, {5, 8}, 8},
};

static tsr_tensor *make_signal(const spectral_case *c)
{
    double v[128]; /* the cases have at most 64 elements, two parts each */
    int64_t n = c->ndim == 1 ? c->shape[0] : c->shape[0] * c->shape[1];
    if (n > 64)
        return NULL;
    for (int64_t i = 0; i < 2 * n; i++)
        v[i] = -1.1 + 2.3 * (double)((i * 5 + 2) % 29) / 29.0;
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)(c->complex ? 2 * n : n) * sizeof(double), c->ndim,
                           c->shape, c->complex ? TSR_COMPLEX128 : TSR_FLOAT64, NULL, &t));
    if (t)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static tsr_tensor *make_window(int64_t n)
{
    double v[16];
    for (int64_t i = 0; i < n; i++)
        v[i] = 0.6 + 0.35 * (double)((i * 3) % 7) / 7.0;
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)n * sizeof(double), 1, &n, TSR_FLOAT64, NULL, &t));
    if (t)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void stft_and_istft_match_finite_differences_to_second_order(void)
{
    for (size_t i = 0; i < sizeof SPECTRAL / sizeof SPECTRAL[0]; i++) {
        const spectral_case *c = &SPECTRAL[i];
        tsr_tensor *in[2] = {make_signal(c), make_window(c->window)};
        grad_harness h = {c->name, c->fn, 2, 0, 0};
        grad_harness_check(&h, in, false);
        grad_harness_check(&h, in, true);
        tsr_tensor_release(in[0]);
        tsr_tensor_release(in[1]);
    }
}

/* d/dx_j sum_k Re rfft(x)[k] over the bins k = 0..2 of 4 points is
 * sum_k cos(2 pi j k / 4): 3, 0, 1, 0. The complex result records now, where
 * it used to refuse the call. */
static void rfft_gradient_by_hand(void)
{
    double v[4] = {0.5, -1, 2, 0.25};
    tsr_tensor *x = NULL, *y = NULL, *r = NULL, *s = NULL, *g = NULL;
    CHECK_OK(tsr_from_host(v, sizeof v, 1, DIMS(4), TSR_FLOAT64, NULL, &x));
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(tsr_fft_rfft(x, D, 0, NULL, &y));
    CHECK_TRUE(y && tsr_tensor_requires_grad(y));
    CHECK_OK(tsr_to_dtype(y, TSR_FLOAT64, &r)); /* the real part */
    CHECK_OK(tsr_sum(r, NULL, 0, false, TSR_DTYPE_INFER, &s));
    CHECK_OK(
        tsr_autograd_grad((const tsr_tensor *[]){s}, 1, (const tsr_tensor *[]){x}, 1, NULL, 0, &g));
    double got[4] = {-9, -9, -9, -9}, want[4] = {3, 0, 1, 0};
    if (g)
        CHECK_OK(tsr_to_host(g, got, sizeof got));
    for (int i = 0; i < 4; i++)
        CHECK_DOUBLE(got[i], want[i], 1e-12);
    const tsr_tensor *all[5] = {x, y, r, s, g};
    for (int i = 0; i < 5; i++)
        tsr_tensor_release((tsr_tensor *)all[i]);
}

int main(void)
{
    RUN_TEST(every_transform_matches_finite_differences);
    RUN_TEST(every_transform_gradient_matches_finite_differences_of_itself);
    RUN_TEST(stft_and_istft_match_finite_differences_to_second_order);
    RUN_TEST(rfft_gradient_by_hand);
    return check_summary("test_fft_grad");
}
