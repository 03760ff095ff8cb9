/* tessera: torch.fft (transforms, frequencies, shifts) and the spectral
 * windows (hann, hamming, blackman, bartlett, kaiser).
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_FFT_H
#define TESSERA_FFT_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n = None for the one-dim transforms (PyTorch's default: the input's size,
 * or 2 (m - 1) for irfft and hfft). Any other n below 1 is refused. */
#define TSR_FFT_N_DEFAULT INT64_MIN

/* The one-dim transforms along dim, as torch.fft.fft(input, n, dim, norm):
 * the input is zero-padded or trimmed at the end to n points (n/2 + 1 for
 * irfft and hfft, whose result has n). norm is NULL or "backward" (the
 * default: the inverse scales by 1/n), "ortho" (both by 1/sqrt(n)) or
 * "forward" (the forward one by 1/n); hfft and ihfft count as forward and
 * inverse. fft, ifft, irfft and hfft give complex results from any input
 * (real inputs promote to complex, integers and bool to complex64); rfft and
 * ihfft take real inputs (integers and bool as float32) and refuse complex
 * ones. float16 and bfloat16 are refused, as PyTorch 1.13 does on the CPU.
 * Gradients are not implemented yet: a tensor that requires grad gives a
 * graph whose backward reports TSR_ERR_UNIMPLEMENTED. */
TSR_API tsr_status tsr_fft_fft(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,
                               tsr_tensor **out);
TSR_API tsr_status tsr_fft_ifft(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,
                                tsr_tensor **out);
TSR_API tsr_status tsr_fft_rfft(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,
                                tsr_tensor **out);
TSR_API tsr_status tsr_fft_irfft(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_hfft(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,
                                tsr_tensor **out);
TSR_API tsr_status tsr_fft_ihfft(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,
                                 tsr_tensor **out);

/* The n-dim transforms, as torch.fft.fftn(input, s, dim, norm): s (ns
 * sizes, NULL for None; -1 keeps a dim's size) and dim (ndims dims, NULL for
 * None) as PyTorch pairs them: with dim None the last ns dims, with both
 * None every dim. The real ones take their last dim as the halved one. The
 * 2-dim forms are the same with dim None meaning (-2, -1). */
TSR_API tsr_status tsr_fft_fftn(const tsr_tensor *t, const int64_t *s, int ns, const int64_t *dim,
                                int ndims, const char *norm, tsr_tensor **out);
TSR_API tsr_status tsr_fft_ifftn(const tsr_tensor *t, const int64_t *s, int ns,
                                 const int64_t *dim, int ndims, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_rfftn(const tsr_tensor *t, const int64_t *s, int ns,
                                 const int64_t *dim, int ndims, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_irfftn(const tsr_tensor *t, const int64_t *s, int ns,
                                  const int64_t *dim, int ndims, const char *norm,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_fft_hfftn(const tsr_tensor *t, const int64_t *s, int ns,
                                 const int64_t *dim, int ndims, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_ihfftn(const tsr_tensor *t, const int64_t *s, int ns,
                                  const int64_t *dim, int ndims, const char *norm,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_fft_fft2(const tsr_tensor *t, const int64_t *s, int ns, const int64_t *dim,
                                int ndims, const char *norm, tsr_tensor **out);
TSR_API tsr_status tsr_fft_ifft2(const tsr_tensor *t, const int64_t *s, int ns,
                                 const int64_t *dim, int ndims, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_rfft2(const tsr_tensor *t, const int64_t *s, int ns,
                                 const int64_t *dim, int ndims, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_irfft2(const tsr_tensor *t, const int64_t *s, int ns,
                                  const int64_t *dim, int ndims, const char *norm,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_fft_hfft2(const tsr_tensor *t, const int64_t *s, int ns,
                                 const int64_t *dim, int ndims, const char *norm,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_fft_ihfft2(const tsr_tensor *t, const int64_t *s, int ns,
                                  const int64_t *dim, int ndims, const char *norm,
                                  tsr_tensor **out);

/* torch.fft.fftfreq(n, d, dtype): [0, 1, ..., (n - 1)/2, -(n/2), ..., -1]
 * times 1/(d n); rfftfreq: [0, ..., n/2] times 1/(d n). dtype
 * TSR_DTYPE_INFER is float32; it must be floating or complex. */
TSR_API tsr_status tsr_fft_fftfreq(int64_t n, double d, tsr_dtype dtype, tsr_backend *backend,
                                   tsr_tensor **out);
TSR_API tsr_status tsr_fft_rfftfreq(int64_t n, double d, tsr_dtype dtype, tsr_backend *backend,
                                    tsr_tensor **out);
/* torch.fft.fftshift(input, dim): a roll by size/2 along each dim (every dim
 * when dims is NULL); ifftshift rolls by (size + 1)/2, undoing it. */
TSR_API tsr_status tsr_fft_fftshift(const tsr_tensor *t, const int64_t *dims, int ndims,
                                    tsr_tensor **out);
TSR_API tsr_status tsr_fft_ifftshift(const tsr_tensor *t, const int64_t *dims, int ndims,
                                     tsr_tensor **out);

/* torch.stft(input, n_fft, hop_length, win_length, window, center, pad_mode,
 * normalized, onesided, return_complex) of a 1-d signal or a batch [B, T]:
 * [B,] freq x frames, complex. hop_length and win_length take
 * TSR_FFT_N_DEFAULT for None (n_fft / 4 and n_fft), window NULL for None
 * (rectangular), pad_mode NULL for "reflect" ("constant", "replicate",
 * "circular"), onesided and return_complex -1 for None. Only
 * return_complex true is computed (PyTorch's real pairs are deprecated);
 * gradients are refused for now. */
TSR_API tsr_status tsr_stft(const tsr_tensor *input, int64_t n_fft, int64_t hop_length,
                            int64_t win_length, const tsr_tensor *window, bool center,
                            const char *pad_mode, bool normalized, int onesided,
                            int return_complex, tsr_tensor **out);

/* torch.istft(input, n_fft, hop_length, win_length, window, center,
 * normalized, onesided, length, return_complex) of a complex spectrogram
 * [B,] freq x frames: the overlap-added inverse frames divided by the
 * overlap-added squared window (refused where that falls below 1e-11,
 * PyTorch's NOLA check). TSR_FFT_N_DEFAULT stands for None in hop_length,
 * win_length and length; onesided -1 for None. Gradients are refused. */
TSR_API tsr_status tsr_istft(const tsr_tensor *input, int64_t n_fft, int64_t hop_length,
                             int64_t win_length, const tsr_tensor *window, bool center,
                             bool normalized, int onesided, int64_t length, bool return_complex,
                             tsr_tensor **out);

/* The windows of torch 1.13: window_length points (0 gives an empty tensor,
 * 1 a single 1); periodic computes window_length + 1 and drops the last.
 * dtype TSR_DTYPE_INFER is float32; float32 and float64 are computed (the
 * dtypes PyTorch's CPU computes besides bfloat16, refused here). hamming's
 * window is alpha - beta cos(2 pi k / (N - 1)) (hann: alpha = beta = 0.5);
 * kaiser's is I0(beta sqrt(1 - ((k - a)/a)^2)) / I0(beta), a = (N - 1)/2. */
TSR_API tsr_status tsr_hann_window(int64_t window_length, bool periodic, tsr_dtype dtype,
                                   tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_hamming_window(int64_t window_length, bool periodic, double alpha,
                                      double beta, tsr_dtype dtype, tsr_backend *backend,
                                      tsr_tensor **out);
TSR_API tsr_status tsr_blackman_window(int64_t window_length, bool periodic, tsr_dtype dtype,
                                       tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_bartlett_window(int64_t window_length, bool periodic, tsr_dtype dtype,
                                       tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_kaiser_window(int64_t window_length, bool periodic, double beta,
                                     tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_FFT_H */
