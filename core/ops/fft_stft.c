/* torch.stft as PyTorch 1.13 composes it: pad the signal by n_fft/2 on
 * both sides (center), view it as overlapping frames of n_fft points hop
 * apart, multiply by the window (padded to n_fft, centred), transform each
 * frame (rfft when onesided), and put frequency before time. Every step is
 * a recorded public op, so gradients flow to the input and the window. */
#include <stdlib.h>
#include <string.h>

#include "autograd/graph.h"
#include "runtime/dtype.h"
#include "runtime/error.h"
#include "tensor/tensor.h"
#include "tessera/copy.h"
#include "tessera/creation.h"
#include "tessera/elementwise.h"
#include "tessera/fft.h"
#include "tessera/index.h"
#include "tessera/rearrange.h"
#include "tessera/views.h"

static const char *const NAME = "stft";

static tsr_status pad_mode_of(const char *mode, int *out)
{
    static const struct {
        const char *name;
        int mode;
    } modes[] = {{"reflect", TSR_PAD_REFLECT},
                 {"constant", TSR_PAD_CONSTANT},
                 {"replicate", TSR_PAD_REPLICATE},
                 {"circular", TSR_PAD_CIRCULAR}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(mode != NULL ? mode : "reflect", modes[i].name) == 0) {
            *out = modes[i].mode;
            return TSR_OK;
        }
    }
    return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: Unrecognised padding mode %s", NAME,
                          mode);
}

/* The checks of PyTorch's stft, in its order, on the (padded) signal of
 * `length` points. */
static tsr_status check_args(int64_t length, int64_t n_fft, int64_t hop, int64_t win_length,
                             const tsr_tensor *window)
{
    if (n_fft <= 0 || n_fft > length) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected 0 < n_fft < %lld, but got n_fft=%lld", NAME,
                              (long long)length, (long long)n_fft);
    }
    if (hop <= 0) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected hop_length > 0, but got hop_length=%lld", NAME,
                              (long long)hop);
    }
    if (win_length <= 0 || win_length > n_fft) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected 0 < win_length <= n_fft, but got win_length=%lld",
                              NAME, (long long)win_length);
    }
    if (window != NULL && (window->ndim != 1 || window->shape[0] != win_length)) {
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected a 1D window tensor of size equal to win_length=%lld",
                              NAME, (long long)win_length);
    }
    return TSR_OK;
}

/* x [B, T] padded by n_fft/2 on both sides along T, as F.pad pads a
 * [B, 1, T] view. */
static tsr_status center_pad(tsr_tensor *x, int64_t n_fft, int mode, tsr_tensor **out)
{
    int64_t shape3[3] = {x->shape[0], 1, x->shape[1]}, pad[2] = {n_fft / 2, n_fft / 2};
    tsr_tensor *view = NULL, *padded = NULL;
    tsr_scalar zero = {.kind = TSR_SCALAR_FLOAT, .v.f = 0.0};
    tsr_status st = tsr_reshape(x, 3, shape3, &view);
    if (st == TSR_OK) {
        st = tsr_pad(view, pad, 2, mode, zero, &padded);
    }
    tsr_tensor_release(view);
    if (st == TSR_OK) {
        int64_t shape2[2] = {padded->shape[0], padded->shape[2]};
        st = tsr_reshape(padded, 2, shape2, out);
    }
    tsr_tensor_release(padded);
    return st;
}

/* frames [B, n_frames, n_fft] of the contiguous x [B, T], hop points
 * apart: a view, or where x needs a gradient (the graph sees no raw view)
 * the same values gathered by index_select, whose gradient is index_add. */
static tsr_status frame(tsr_tensor *x, int64_t n_fft, int64_t hop, tsr_tensor **out)
{
    int64_t frames = 1 + (x->shape[1] - n_fft) / hop;
    int64_t shape[3] = {x->shape[0], frames, n_fft};
    const tsr_tensor *operand = x;
    if (!tsr__grad_wanted(&operand, 1)) {
        int64_t strides[3] = {x->strides[0], hop * x->strides[1], x->strides[1]};
        return tsr__tensor_restride(x, 3, shape, strides, x->offset, out);
    }
    int64_t count = frames * n_fft;
    int64_t *positions = malloc((size_t)count * sizeof(int64_t) + 1);
    if (positions == NULL) {
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", NAME);
    }
    for (int64_t f = 0; f < frames; f++) {
        for (int64_t j = 0; j < n_fft; j++) {
            positions[f * n_fft + j] = f * hop + j;
        }
    }
    tsr_tensor *index = NULL, *flat = NULL;
    tsr_status st = tsr_from_host(positions, (size_t)count * sizeof(int64_t), 1, &count,
                                  TSR_INT64, x->storage->backend, &index);
    free(positions);
    if (st == TSR_OK) {
        st = tsr_index_select(x, 1, index, &flat);
    }
    if (st == TSR_OK) {
        st = tsr_reshape(flat, 3, shape, out);
    }
    tsr_tensor_release(index);
    tsr_tensor_release(flat);
    return st;
}

tsr_status tsr_stft(const tsr_tensor *input, int64_t n_fft, int64_t hop_length,
                    int64_t win_length, const tsr_tensor *window, bool center,
                    const char *pad_mode, bool normalized, int onesided, int return_complex,
                    tsr_tensor **out)
{
    if (input == NULL || out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              NAME);
    }
    tsr__category cat = tsr__dtype_category(input->dtype);
    bool complex_in = cat == TSR__CATEGORY_COMPLEX ||
                      (window != NULL && tsr__dtype_category(window->dtype) ==
                                             TSR__CATEGORY_COMPLEX);
    if (cat != TSR__CATEGORY_FLOATING && cat != TSR__CATEGORY_COMPLEX) {
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected a tensor of floating point or complex values, got %s",
                              NAME, tsr_dtype_name(input->dtype));
    }
    if (input->ndim != 1 && input->ndim != 2) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: expected a 1D or 2D tensor", NAME);
    }
    if (n_fft <= 0) { /* before n_fft / 2 pads anything */
        return check_args(input->shape[input->ndim - 1], n_fft, 1, 1, NULL);
    }
    if (return_complex == 0 || (return_complex < 0 && !complex_in)) {
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "%s: return_complex=False (real pairs, deprecated in PyTorch) is "
                              "not supported; pass return_complex=True",
                              NAME);
    }
    if (onesided > 0 && complex_in) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: Cannot have onesided output if window or input is complex",
                              NAME);
    }
    bool half = onesided < 0 ? !complex_in : onesided > 0;
    int64_t hop = hop_length == TSR_FFT_N_DEFAULT ? n_fft / 4 : hop_length;
    int64_t win = win_length == TSR_FFT_N_DEFAULT ? n_fft : win_length;
    int mode = TSR_PAD_REFLECT;
    tsr_status st = center ? pad_mode_of(pad_mode, &mode) : TSR_OK;
    if (st != TSR_OK) {
        return st;
    }
    tsr_tensor *x = NULL, *framed = NULL, *w = NULL, *weighted = NULL, *spectrum = NULL;
    int64_t batch_shape[2] = {input->ndim == 2 ? input->shape[0] : 1,
                              input->shape[input->ndim - 1]};
    st = tsr_reshape(input, 2, batch_shape, &x);
    if (st == TSR_OK && center) {
        tsr_tensor *padded = NULL;
        st = center_pad(x, n_fft, mode, &padded);
        tsr_tensor_release(x);
        x = padded;
    }
    if (st == TSR_OK) {
        st = check_args(x->shape[1], n_fft, hop, win, window);
    }
    if (st == TSR_OK) {
        tsr_tensor *dense = NULL;
        st = tsr_contiguous(x, &dense);
        tsr_tensor_release(x);
        x = dense;
    }
    if (st == TSR_OK) {
        st = frame(x, n_fft, hop, &framed);
    }
    if (st == TSR_OK && window != NULL) {
        int64_t left = (n_fft - win) / 2, pad[2] = {left, n_fft - win - left};
        tsr_scalar zero = {.kind = TSR_SCALAR_FLOAT, .v.f = 0.0};
        st = tsr_pad(window, pad, 2, TSR_PAD_CONSTANT, zero, &w);
        if (st == TSR_OK) {
            st = tsr_mul(framed, w, &weighted);
        }
    } else if (st == TSR_OK && win < n_fft) { /* a rectangular window of win points */
        tsr_tensor *ones = NULL;
        int64_t left = (n_fft - win) / 2, pad[2] = {left, n_fft - win - left};
        tsr_scalar zero = {.kind = TSR_SCALAR_FLOAT, .v.f = 0.0};
        st = tsr_ones(1, &win, input->dtype == TSR_FLOAT64 || input->dtype == TSR_COMPLEX128
                                   ? TSR_FLOAT64
                                   : TSR_FLOAT32,
                      x->storage->backend, &ones);
        if (st == TSR_OK) {
            st = tsr_pad(ones, pad, 2, TSR_PAD_CONSTANT, zero, &w);
        }
        tsr_tensor_release(ones);
        if (st == TSR_OK) {
            st = tsr_mul(framed, w, &weighted);
        }
    } else if (st == TSR_OK) {
        tsr_tensor_retain(weighted = framed);
    }
    const char *norm = normalized ? "ortho" : "backward";
    if (st == TSR_OK) {
        st = half ? tsr_fft_rfft(weighted, TSR_FFT_N_DEFAULT, -1, norm, &spectrum)
                  : tsr_fft_fft(weighted, TSR_FFT_N_DEFAULT, -1, norm, &spectrum);
    }
    tsr_tensor *result = NULL;
    if (st == TSR_OK) {
        tsr_tensor *swapped = NULL;
        st = tsr_transpose(spectrum, 1, 2, &swapped);
        if (st == TSR_OK && input->ndim == 1) {
            st = tsr_squeeze_dim(swapped, 0, &result);
            tsr_tensor_release(swapped);
        } else if (st == TSR_OK) {
            result = swapped;
        }
    }
    tsr_tensor *all[] = {x, framed, w, weighted, spectrum};
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
