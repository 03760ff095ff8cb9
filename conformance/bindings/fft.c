/* Adapters for torch.fft (named fft_<fn> in the cases) and the windows. */
#include <string.h>

#include "bindings/bindings.h"

typedef tsr_status (*one_dim_fn)(const tsr_tensor *, int64_t, int64_t, const char *,
                                 tsr_tensor **);
typedef tsr_status (*n_dim_fn)(const tsr_tensor *, const int64_t *, int, const int64_t *, int,
                               const char *, tsr_tensor **);

static const struct {
    const char *op;
    one_dim_fn fn;
} one_dim_ops[] = {
    {"fft_fft", tsr_fft_fft},     {"fft_ifft", tsr_fft_ifft}, {"fft_rfft", tsr_fft_rfft},
    {"fft_irfft", tsr_fft_irfft}, {"fft_hfft", tsr_fft_hfft}, {"fft_ihfft", tsr_fft_ihfft},
};

static const struct {
    const char *op;
    n_dim_fn fn;
} n_dim_ops[] = {
    {"fft_fft2", tsr_fft_fft2},     {"fft_ifft2", tsr_fft_ifft2},   {"fft_rfft2", tsr_fft_rfft2},
    {"fft_irfft2", tsr_fft_irfft2}, {"fft_hfft2", tsr_fft_hfft2},   {"fft_ihfft2", tsr_fft_ihfft2},
    {"fft_fftn", tsr_fft_fftn},     {"fft_ifftn", tsr_fft_ifftn},   {"fft_rfftn", tsr_fft_rfftn},
    {"fft_irfftn", tsr_fft_irfftn}, {"fft_hfftn", tsr_fft_hfftn},   {"fft_ihfftn", tsr_fft_ihfftn},
};

/* torch.fft.fft(input, n=None, dim=-1, norm=None) and the other one-dim ones. */
static int adapt_one_dim(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t n, dim;
    const char *norm;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int_or(call, "n", TSR_FFT_N_DEFAULT, &n) ||
        !conf_arg_int_or(call, "dim", -1, &dim) || !conf_arg_string_or(call, "norm", NULL, &norm))
        return CONF_BIND_SKIP;
    for (size_t i = 0; i < sizeof one_dim_ops / sizeof one_dim_ops[0]; i++) {
        if (strcmp(call->c->op, one_dim_ops[i].op) == 0) {
            int st = one_dim_ops[i].fn(t, n, dim, norm, &out);
            return conf_call_return(call, st, out);
        }
    }
    return CONF_BIND_SKIP;
}

/* torch.fft.fftn(input, s=None, dim=None, norm=None) and the other n-dim ones. */
static int adapt_n_dim(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t s[TSR_MAX_DIMS], dim[TSR_MAX_DIMS];
    int ns = 0, ndims = 0;
    bool has_s = conf_arg_present(call, "s"), has_dim = conf_arg_present(call, "dim");
    const char *norm;
    if (!conf_bind_tensor(call, "input", &t) || (has_s && !conf_arg_int_list(call, "s", s, &ns)) ||
        (has_dim && !conf_arg_int_list(call, "dim", dim, &ndims)) ||
        !conf_arg_string_or(call, "norm", NULL, &norm))
        return CONF_BIND_SKIP;
    for (size_t i = 0; i < sizeof n_dim_ops / sizeof n_dim_ops[0]; i++) {
        if (strcmp(call->c->op, n_dim_ops[i].op) == 0) {
            int st = n_dim_ops[i].fn(t, has_s ? s : NULL, ns, has_dim ? dim : NULL, ndims, norm,
                                     &out);
            return conf_call_return(call, st, out);
        }
    }
    return CONF_BIND_SKIP;
}

/* torch.fft.fftfreq / rfftfreq(n, d=1.0, dtype=None). */
static int adapt_freq(conf_call *call)
{
    tsr_tensor *out = NULL;
    int64_t n;
    double d;
    tsr_dtype dtype;
    if (!conf_arg_int(call, "n", &n) || !conf_arg_double_or(call, "d", 1.0, &d) ||
        !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype))
        return CONF_BIND_SKIP;
    int st = strcmp(call->c->op, "fft_fftfreq") == 0
                 ? tsr_fft_fftfreq(n, d, dtype, call->backend, &out)
                 : tsr_fft_rfftfreq(n, d, dtype, call->backend, &out);
    return conf_call_return(call, st, out);
}

/* torch.fft.fftshift / ifftshift(input, dim=None). */
static int adapt_shift(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim[TSR_MAX_DIMS];
    int ndims = 0;
    bool has_dim = conf_arg_present(call, "dim");
    if (!conf_bind_tensor(call, "input", &t) ||
        (has_dim && !conf_arg_int_list(call, "dim", dim, &ndims)))
        return CONF_BIND_SKIP;
    int st = strcmp(call->c->op, "fft_fftshift") == 0
                 ? tsr_fft_fftshift(t, has_dim ? dim : NULL, ndims, &out)
                 : tsr_fft_ifftshift(t, has_dim ? dim : NULL, ndims, &out);
    return conf_call_return(call, st, out);
}

/* torch.*_window(window_length, periodic=True, [alpha, beta,] dtype=None). */
static int adapt_window(conf_call *call)
{
    tsr_tensor *out = NULL;
    int64_t length;
    bool periodic;
    double alpha, beta;
    tsr_dtype dtype;
    const char *op = call->c->op;
    bool kaiser = strcmp(op, "kaiser_window") == 0, hamming = strcmp(op, "hamming_window") == 0;
    if (!conf_arg_int(call, "window_length", &length) ||
        !conf_arg_bool_or(call, "periodic", true, &periodic) ||
        !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype))
        return CONF_BIND_SKIP;
    if (hamming && (!conf_arg_double_or(call, "alpha", 0.54, &alpha) ||
                    !conf_arg_double_or(call, "beta", 0.46, &beta)))
        return CONF_BIND_SKIP;
    if (kaiser && !conf_arg_double_or(call, "beta", 12.0, &beta))
        return CONF_BIND_SKIP;
    tsr_backend *b = call->backend;
    int st = hamming ? tsr_hamming_window(length, periodic, alpha, beta, dtype, b, &out)
             : kaiser ? tsr_kaiser_window(length, periodic, beta, dtype, b, &out)
             : strcmp(op, "hann_window") == 0     ? tsr_hann_window(length, periodic, dtype, b, &out)
             : strcmp(op, "blackman_window") == 0 ? tsr_blackman_window(length, periodic, dtype, b,
                                                                        &out)
                                                  : tsr_bartlett_window(length, periodic, dtype, b,
                                                                        &out);
    return conf_call_return(call, st, out);
}

/* torch.stft(input, n_fft, hop_length=None, win_length=None, window=None,
 * center=True, pad_mode='reflect', normalized=False, onesided=None,
 * return_complex=None). */
static int adapt_stft(conf_call *call)
{
    tsr_tensor *t, *window = NULL, *out = NULL;
    int64_t n_fft, hop, win;
    bool center, normalized, onesided = false, complex_out = false;
    const char *pad_mode;
    bool has_onesided = conf_arg_present(call, "onesided");
    bool has_complex = conf_arg_present(call, "return_complex");
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor_opt(call, "window", &window) ||
        !conf_arg_int(call, "n_fft", &n_fft) ||
        !conf_arg_int_or(call, "hop_length", TSR_FFT_N_DEFAULT, &hop) ||
        !conf_arg_int_or(call, "win_length", TSR_FFT_N_DEFAULT, &win) ||
        !conf_arg_bool_or(call, "center", true, &center) ||
        !conf_arg_string_or(call, "pad_mode", "reflect", &pad_mode) ||
        !conf_arg_bool_or(call, "normalized", false, &normalized) ||
        (has_onesided && !conf_arg_bool_or(call, "onesided", false, &onesided)) ||
        (has_complex && !conf_arg_bool_or(call, "return_complex", false, &complex_out)))
        return CONF_BIND_SKIP;
    int st = tsr_stft(t, n_fft, hop, win, window, center, pad_mode, normalized,
                      has_onesided ? (int)onesided : -1, has_complex ? (int)complex_out : -1,
                      &out);
    return conf_call_return(call, st, out);
}

/* torch.istft(input, n_fft, hop_length=None, win_length=None, window=None,
 * center=True, normalized=False, onesided=None, length=None,
 * return_complex=False). */
static int adapt_istft(conf_call *call)
{
    tsr_tensor *t, *window = NULL, *out = NULL;
    int64_t n_fft, hop, win, length;
    bool center, normalized, onesided = false, complex_out;
    bool has_onesided = conf_arg_present(call, "onesided");
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor_opt(call, "window", &window) ||
        !conf_arg_int(call, "n_fft", &n_fft) ||
        !conf_arg_int_or(call, "hop_length", TSR_FFT_N_DEFAULT, &hop) ||
        !conf_arg_int_or(call, "win_length", TSR_FFT_N_DEFAULT, &win) ||
        !conf_arg_int_or(call, "length", TSR_FFT_N_DEFAULT, &length) ||
        !conf_arg_bool_or(call, "center", true, &center) ||
        !conf_arg_bool_or(call, "normalized", false, &normalized) ||
        (has_onesided && !conf_arg_bool_or(call, "onesided", false, &onesided)) ||
        !conf_arg_bool_or(call, "return_complex", false, &complex_out))
        return CONF_BIND_SKIP;
    int st = tsr_istft(t, n_fft, hop, win, window, center, normalized,
                       has_onesided ? (int)onesided : -1, length, complex_out, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_fft[] = {
    {"fft_fft", adapt_one_dim, TSR_OP_FFT_C2C, 0},
    {"fft_ifft", adapt_one_dim, TSR_OP_FFT_C2C, 0},
    {"fft_rfft", adapt_one_dim, TSR_OP_FFT_R2C, 0},
    {"fft_irfft", adapt_one_dim, TSR_OP_FFT_C2R, 0},
    {"fft_hfft", adapt_one_dim, TSR_OP_FFT_C2R, 0},
    {"fft_ihfft", adapt_one_dim, TSR_OP_FFT_R2C, 0},
    {"fft_fft2", adapt_n_dim, TSR_OP_FFT_C2C, 0},
    {"fft_ifft2", adapt_n_dim, TSR_OP_FFT_C2C, 0},
    {"fft_rfft2", adapt_n_dim, TSR_OP_FFT_R2C, 0},
    {"fft_irfft2", adapt_n_dim, TSR_OP_FFT_C2R, 0},
    {"fft_hfft2", adapt_n_dim, TSR_OP_FFT_C2R, 0},
    {"fft_ihfft2", adapt_n_dim, TSR_OP_FFT_R2C, 0},
    {"fft_fftn", adapt_n_dim, TSR_OP_FFT_C2C, 0},
    {"fft_ifftn", adapt_n_dim, TSR_OP_FFT_C2C, 0},
    {"fft_rfftn", adapt_n_dim, TSR_OP_FFT_R2C, 0},
    {"fft_irfftn", adapt_n_dim, TSR_OP_FFT_C2R, 0},
    {"fft_hfftn", adapt_n_dim, TSR_OP_FFT_C2R, 0},
    {"fft_ihfftn", adapt_n_dim, TSR_OP_FFT_R2C, 0},
    {"fft_fftfreq", adapt_freq, -1, 0},
    {"fft_rfftfreq", adapt_freq, -1, 0},
    {"fft_fftshift", adapt_shift, -1, 0},
    {"fft_ifftshift", adapt_shift, -1, 0},
    {"hann_window", adapt_window, -1, 0},
    {"hamming_window", adapt_window, -1, 0},
    {"blackman_window", adapt_window, -1, 0},
    {"bartlett_window", adapt_window, -1, 0},
    {"kaiser_window", adapt_window, -1, 0},
    {"stft", adapt_stft, TSR_OP_FFT_C2C, 0},
    {"istft", adapt_istft, TSR_OP_FFT_C2R, 0},
};
const size_t conf_bindings_fft_count = sizeof conf_bindings_fft / sizeof conf_bindings_fft[0];
