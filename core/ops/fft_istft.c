/* torch.istft as PyTorch 1.13 composes it: inverse-transform each frame
 * (irfft of the onesided half, or ifft with return_complex), multiply by the
 * window, overlap-add the frames hop apart (index_add, frame after frame),
 * divide by the overlap-added squared window, then trim the centre padding
 * or cut to `length`. Every step is a recorded public op, so gradients flow
 * to the spectrogram and the window. */
#include <math.h>
#include <stdlib.h>

#include "autograd/graph.h"
#include "runtime/dtype.h"
#include "runtime/error.h"
#include "tensor/tensor.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/elementwise_named.h"
#include "tessera/fft.h"
#include "tessera/reduce.h"
#include "tessera/rearrange.h"
#include "tessera/scatter.h"
#include "tessera/views.h"

static const char *const NAME = "istft";

/* Overlap-add of frames [B, F, n] hop apart into [B, n + hop (F - 1)]. */
static tsr_status overlap_add(const tsr_tensor *frames, int64_t hop, tsr_tensor **out)
{
    int64_t B = frames->shape[0], F = frames->shape[1], n = frames->shape[2];
    int64_t length = n + hop * (F - 1), count = F * n;
    int64_t *positions = malloc((size_t)count * sizeof(int64_t) + 1);
    if (positions == NULL) {
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", NAME);
    }
    for (int64_t f = 0; f < F; f++) {
        for (int64_t j = 0; j < n; j++) {
            positions[f * n + j] = f * hop + j;
        }
    }
    tsr_tensor *index = NULL, *flat = NULL, *zeros = NULL;
    tsr_backend *b = frames->storage->backend;
    tsr_status st = tsr_from_host(positions, (size_t)count * sizeof(int64_t), 1, &count,
                                  TSR_INT64, b, &index);
    free(positions);
    int64_t flat_shape[2] = {B, count}, out_shape[2] = {B, length};
    if (st == TSR_OK) {
        st = tsr_reshape(frames, 2, flat_shape, &flat);
    }
    if (st == TSR_OK) {
        st = tsr_zeros(2, out_shape, frames->dtype, b, &zeros);
    }
    tsr_scalar one = {.kind = TSR_SCALAR_INT, .v.i = 1};
    if (st == TSR_OK) {
        st = tsr_index_add(zeros, 1, index, flat, one, out);
    }
    tsr_tensor_release(index);
    tsr_tensor_release(flat);
    tsr_tensor_release(zeros);
    return st;
}

static tsr_status check_frequencies(int64_t fft_size, int64_t n_fft, bool onesided)
{
    if (onesided && n_fft / 2 + 1 != fft_size) {
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected the frequency dimension (3rd to the last) of the "
                              "input tensor to match n_fft / 2 + 1 when onesided=True, but got %lld",
                              NAME, (long long)fft_size);
    }
    if (!onesided && n_fft != fft_size) {
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected the frequency dimension (3rd to the last) of the "
                              "input tensor to match n_fft when onesided=False, but got %lld",
                              NAME, (long long)fft_size);
    }
    return TSR_OK;
}

/* The window padded to n_fft, centred; ones of win_length without one. */
static tsr_status full_window(const tsr_tensor *window, int64_t n_fft, int64_t win,
                              tsr_dtype real, tsr_backend *b, tsr_tensor **out)
{
    tsr_tensor *base = NULL;
    tsr_status st = TSR_OK;
    if (window != NULL) {
        tsr_tensor_retain(base = (tsr_tensor *)window);
    } else {
        st = tsr_ones(1, &win, real, b, &base);
    }
    int64_t left = (n_fft - win) / 2, pad[2] = {left, n_fft - win - left};
    tsr_scalar zero = {.kind = TSR_SCALAR_FLOAT, .v.f = 0.0};
    if (st == TSR_OK) {
        st = tsr_pad(base, pad, 2, TSR_PAD_CONSTANT, zero, out);
    }
    tsr_tensor_release(base);
    return st;
}

tsr_status tsr_istft(const tsr_tensor *input, int64_t n_fft, int64_t hop_length,
                     int64_t win_length, const tsr_tensor *window, bool center, bool normalized,
                     int onesided, int64_t length, bool return_complex, tsr_tensor **out)
{
    if (input == NULL || out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              NAME);
    }
    if (tsr__dtype_category(input->dtype) != TSR__CATEGORY_COMPLEX) {
        return tsr__set_error(TSR_ERR_DTYPE, "%s requires a complex-valued input tensor, got %s",
                              NAME, tsr_dtype_name(input->dtype));
    }
    if (input->ndim != 2 && input->ndim != 3) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected a tensor with 2 or 3 dimensions of complex values",
                              NAME);
    }
    int64_t hop = hop_length == TSR_FFT_N_DEFAULT ? n_fft / 4 : hop_length;
    int64_t win = win_length == TSR_FFT_N_DEFAULT ? n_fft : win_length;
    int64_t fft_size = input->shape[input->ndim - 2], frames = input->shape[input->ndim - 1];
    bool half = onesided < 0 ? fft_size != n_fft : onesided > 0;
    if (win <= 0 || win > n_fft) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected 0 < win_length <= n_fft, but got win_length=%lld",
                              NAME, (long long)win);
    }
    if (hop <= 0 || hop > win) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected 0 < hop_length <= win_length", NAME);
    }
    if (window != NULL && (window->ndim != 1 || window->shape[0] != win)) {
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Invalid window shape. window has to be 1D and length of "
                              "`win_length`",
                              NAME);
    }
    tsr_status st = check_frequencies(fft_size, n_fft, half);
    if (st != TSR_OK) {
        return st;
    }
    bool complex_window = window != NULL && tsr__dtype_category(window->dtype) ==
                                                 TSR__CATEGORY_COMPLEX;
    if (return_complex && half) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: Cannot have onesided output if window or input is complex",
                              NAME);
    }
    if (!return_complex && complex_window) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: Complex windows are incompatible with return_complex=False",
                              NAME);
    }
    tsr_dtype real = input->dtype == TSR_COMPLEX128 ? TSR_FLOAT64 : TSR_FLOAT32;
    tsr_backend *b = input->storage->backend;
    int64_t batch_shape[3] = {input->ndim == 3 ? input->shape[0] : 1, fft_size, frames};
    tsr_tensor *x = NULL, *t = NULL, *y = NULL, *w = NULL, *wy = NULL, *sum = NULL;
    tsr_tensor *w2 = NULL, *w2f = NULL, *envelope = NULL, *ys = NULL, *es = NULL, *q = NULL;
    st = tsr_reshape(input, 3, batch_shape, &x);
    if (st == TSR_OK) {
        st = tsr_transpose(x, 1, 2, &t); /* [B, frames, freq] */
    }
    const char *norm = normalized ? "ortho" : "backward";
    if (st == TSR_OK && return_complex) {
        st = tsr_fft_ifft(t, TSR_FFT_N_DEFAULT, -1, norm, &y);
    } else if (st == TSR_OK) {
        tsr_tensor *halfspec = NULL;
        st = half ? (tsr_tensor_retain(t), halfspec = t, TSR_OK)
                  : tsr_narrow(t, 2, 0, n_fft / 2 + 1, &halfspec);
        if (st == TSR_OK) {
            st = tsr_fft_irfft(halfspec, n_fft, -1, norm, &y);
        }
        tsr_tensor_release(halfspec);
    }
    if (st == TSR_OK) {
        st = full_window(window, n_fft, win, real, b, &w);
    }
    if (st == TSR_OK) {
        st = tsr_mul(y, w, &wy);
    }
    if (st == TSR_OK) {
        st = overlap_add(wy, hop, &sum);
    }
    /* The envelope: the squared window overlap-added over the frames. */
    if (st == TSR_OK) {
        st = tsr_mul(w, w, &w2);
    }
    if (st == TSR_OK) {
        int64_t shape[3] = {1, frames, n_fft};
        st = tsr_expand(w2, 3, shape, &w2f);
    }
    if (st == TSR_OK) {
        tsr_tensor *dense = NULL;
        st = tsr_contiguous(w2f, &dense);
        if (st == TSR_OK) {
            st = overlap_add(dense, hop, &envelope);
        }
        tsr_tensor_release(dense);
    }
    int64_t expected = n_fft + hop * (frames - 1);
    int64_t start = center ? n_fft / 2 : 0;
    int64_t end = length != TSR_FFT_N_DEFAULT ? start + length
                  : center                    ? expected - n_fft / 2
                                              : expected;
    int64_t cut = end < expected ? end : expected;
    if (st == TSR_OK) {
        st = tsr_slice(sum, 1, start, cut, 1, &ys);
    }
    if (st == TSR_OK) {
        st = tsr_slice(envelope, 1, start, cut, 1, &es);
    }
    if (st == TSR_OK) { /* PyTorch's NOLA check */
        tsr_tensor *mag = NULL, *low = NULL;
        tsr_scalar v = {0};
        st = tsr_abs(es, &mag);
        if (st == TSR_OK) {
            st = tsr_amin(mag, NULL, 0, false, &low);
        }
        if (st == TSR_OK) {
            st = tsr_item(low, &v);
        }
        double lowest = v.kind == TSR_SCALAR_COMPLEX ? v.v.c.re : v.v.f;
        if (st == TSR_OK && tsr_tensor_numel(es) > 0 && lowest < 1e-11) {
            st = tsr__set_error(TSR_ERR_VALUE, "%s: window overlap add min: %g", NAME, lowest);
        }
        tsr_tensor_release(mag);
        tsr_tensor_release(low);
    }
    if (st == TSR_OK) {
        st = tsr_div(ys, es, &q);
    }
    tsr_tensor *result = NULL;
    if (st == TSR_OK && end > expected) {
        int64_t pad[2] = {0, end - expected};
        tsr_scalar zero = {.kind = TSR_SCALAR_FLOAT, .v.f = 0.0};
        st = tsr_pad(q, pad, 2, TSR_PAD_CONSTANT, zero, &result);
    } else if (st == TSR_OK) {
        tsr_tensor_retain(result = q);
    }
    if (st == TSR_OK && input->ndim == 2) {
        tsr_tensor *squeezed = NULL;
        st = tsr_squeeze_dim(result, 0, &squeezed);
        tsr_tensor_release(result);
        result = squeezed;
    }
    tsr_tensor *all[] = {x, t, y, w, wy, sum, w2, w2f, envelope, ys, es, q};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        tsr_tensor_release(all[i]);
    }
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}
