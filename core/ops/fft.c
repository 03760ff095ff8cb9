/* torch.fft's transforms over the three kernels fft_c2c, fft_r2c, fft_c2r.
 *
 * Every op follows PyTorch 1.13's path: promote the dtype, pair s with dim,
 * pad or trim the input to the points transformed, then one kernel call over
 * all the dims. The hermitian ones need no conjugation: hfft is the forward
 * c2r and ihfft the inverse r2c (include/tessera/plugin.h), which equal
 * PyTorch's irfft(conj(x)) and conj(rfft(x)) with the norms swapped.
 * Autograd: the conversion, padding, trimming and transposes are recorded
 * public ops, and the kernel call records its primitive (ops/fft_grad.c). */
#include <string.h>

#include "autograd/graph.h"
#include "ops/fft_grad.h"
#include "runtime/dtype.h"
#include "runtime/error.h"
#include "tensor/shape.h"
#include "tensor/tensor.h"
#include "tessera/copy.h"
#include "tessera/fft.h"
#include "tessera/rearrange.h"
#include "tessera/views.h"

typedef struct fft_desc {
    int count;                    /* transformed dims */
    int dims[TSR_MAX_DIMS];       /* wrapped, in the caller's order */
    int64_t sizes[TSR_MAX_DIMS];  /* points the input is padded or trimmed to */
    int64_t last_points;          /* c2r: the points of the last dim's result */
} fft_desc;

/* norm for a transform whose own direction is `forward`. */
static tsr_status parse_norm(const char *name, const char *norm, bool forward, int32_t *out)
{
    if (norm == NULL || strcmp(norm, "backward") == 0) {
        *out = forward ? TSR_FFT_NORM_NONE : TSR_FFT_NORM_BY_N;
    } else if (strcmp(norm, "forward") == 0) {
        *out = forward ? TSR_FFT_NORM_BY_N : TSR_FFT_NORM_NONE;
    } else if (strcmp(norm, "ortho") == 0) {
        *out = TSR_FFT_NORM_BY_SQRT_N;
    } else {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: Invalid normalization mode: \"%s\"",
                              name, norm);
    }
    return TSR_OK;
}

/* PyTorch's promote_tensor_fft: integers and bool to float32 (or its
 * complex), real floats to their complex where `complex` is set; float16
 * and bfloat16 have no CPU transform in 1.13. */
static tsr_status fft_dtype(const char *name, const tsr_tensor *t, int kind, tsr_dtype *out)
{
    tsr_dtype d = t->dtype;
    if (d == TSR_FLOAT16 || d == TSR_BFLOAT16) {
        return tsr__set_error(TSR_ERR_DTYPE, "%s: Unsupported dtype %s", name, tsr_dtype_name(d));
    }
    tsr__category cat = tsr__dtype_category(d);
    if (kind == TSR_OP_FFT_R2C && cat == TSR__CATEGORY_COMPLEX) {
        return tsr__set_error(TSR_ERR_DTYPE, "%s expects a real input tensor, but got %s",
                              name + 4 /* "fft_" */, tsr_dtype_name(d));
    }
    if (cat == TSR__CATEGORY_BOOL || cat == TSR__CATEGORY_INTEGER) {
        d = TSR_FLOAT32;
    }
    if (kind != TSR_OP_FFT_R2C) {
        d = d == TSR_FLOAT32 ? TSR_COMPLEX64 : d == TSR_FLOAT64 ? TSR_COMPLEX128 : d;
    }
    *out = d;
    return TSR_OK;
}

static tsr_status check_points(const char *name, int64_t n)
{
    if (n < 1) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: Invalid number of data points (%lld) specified", name,
                              (long long)n);
    }
    return TSR_OK;
}

/* PyTorch's canonicalize_fft_shape_and_dim_args. default_dims: 0 every dim,
 * 2 the last two (fft2 and friends). */
static tsr_status pair_shape_and_dims(const char *name, const tsr_tensor *t, const int64_t *s,
                                      int ns, const int64_t *dim, int ndims, int default_dims,
                                      fft_desc *desc)
{
    static const int64_t last_two[2] = {-2, -1};
    if (dim == NULL && default_dims == 2) {
        dim = last_two;
        ndims = 2;
    }
    if ((s != NULL && (ns < 0 || ns > TSR_MAX_DIMS)) ||
        (dim != NULL && (ndims < 0 || ndims > TSR_MAX_DIMS))) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: s or dim has an invalid length",
                              name);
    }
    tsr_status st;
    if (dim != NULL) {
        desc->count = ndims;
        for (int i = 0; i < ndims; i++) {
            if ((st = tsr__wrap_dim(name, "dim", dim[i], t->ndim, &desc->dims[i])) != TSR_OK) {
                return st;
            }
            for (int j = 0; j < i; j++) {
                if (desc->dims[j] == desc->dims[i]) {
                    return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: FFT dims must be unique",
                                          name);
                }
            }
        }
        if (s != NULL && ns != ndims) {
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: When given, dim and shape arguments must have the same "
                                  "length",
                                  name);
        }
    } else if (s != NULL) {
        if (ns > t->ndim) {
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: Got shape with %d values but input tensor only has %d "
                                  "dimensions.",
                                  name, ns, t->ndim);
        }
        desc->count = ns;
        for (int i = 0; i < ns; i++) {
            desc->dims[i] = t->ndim - ns + i;
        }
    } else {
        desc->count = t->ndim;
        for (int i = 0; i < t->ndim; i++) {
            desc->dims[i] = i;
        }
    }
    for (int i = 0; i < desc->count; i++) {
        int64_t size = t->shape[desc->dims[i]];
        desc->sizes[i] = s != NULL && s[i] != -1 ? s[i] : size;
        if ((st = check_points(name, desc->sizes[i])) != TSR_OK) {
            return st;
        }
    }
    return TSR_OK;
}

/* x padded with zeros or trimmed at the end of each transformed dim. */
static tsr_status resize_input(const char *name, tsr_tensor *x, const fft_desc *desc,
                               tsr_tensor **out)
{
    tsr_status st = TSR_OK;
    tsr_tensor_retain(x);
    int64_t pad[2 * TSR_MAX_DIMS] = {0};
    int pad_dims = 0;
    for (int i = 0; i < desc->count && st == TSR_OK; i++) {
        int d = desc->dims[i];
        if (desc->sizes[i] < x->shape[d]) {
            tsr_tensor *narrowed = NULL;
            st = tsr_narrow(x, d, 0, desc->sizes[i], &narrowed);
            tsr_tensor_release(x);
            x = narrowed;
        } else if (desc->sizes[i] > x->shape[d]) {
            int from_last = x->ndim - 1 - d; /* F.pad lists the last dim first */
            pad[2 * from_last + 1] = desc->sizes[i] - x->shape[d];
            pad_dims = from_last + 1 > pad_dims ? from_last + 1 : pad_dims;
        }
    }
    if (st == TSR_OK && pad_dims > 0) {
        tsr_tensor *padded = NULL;
        tsr_scalar zero = {.kind = TSR_SCALAR_FLOAT, .v.f = 0.0};
        st = tsr_pad(x, pad, 2 * pad_dims, TSR_PAD_CONSTANT, zero, &padded);
        tsr_tensor_release(x);
        x = padded;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(x);
        return tsr__set_error(st, "%s: padding or trimming the input failed", name);
    }
    *out = x;
    return TSR_OK;
}

/* The whole transform: kind is the kernel, sign its direction, forward_norm
 * whether norm reads as for a forward transform. */
typedef struct fft_spec {
    const char *name;
    int kind;
    int sign;
    bool forward_norm;
} fft_spec;

static tsr_status fft_transform(const fft_spec *spec, const tsr_tensor *t, const fft_desc *in_desc,
                                const char *norm, tsr_tensor **out)
{
    const char *name = spec->name;
    fft_desc desc = *in_desc;
    tsr_dtype in_dtype = TSR_COMPLEX64;
    int32_t norm_mode = TSR_FFT_NORM_NONE;
    tsr_status st = fft_dtype(name, t, spec->kind, &in_dtype);
    if (st == TSR_OK) {
        st = parse_norm(name, norm, spec->forward_norm, &norm_mode);
    }
    if (st != TSR_OK) {
        return st;
    }
    if (desc.count == 0 && spec->kind != TSR_OP_FFT_C2C) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s must transform at least one axis",
                              name + 4);
    }
    int last = desc.count > 0 ? desc.dims[desc.count - 1] : 0;
    if (spec->kind == TSR_OP_FFT_C2R) {
        desc.sizes[desc.count - 1] = desc.last_points / 2 + 1;
    }
    tsr_tensor *converted = NULL, *x = NULL, *y = NULL;
    /* Recorded: a real input's gradient is the real part (PyTorch's
     * handle_r_to_c), as the engine converts it. */
    if (t->dtype == in_dtype) {
        tsr_tensor_retain(t);
        converted = (tsr_tensor *)t;
    } else if ((st = tsr_to_dtype(t, in_dtype, &converted)) != TSR_OK) {
        return st;
    }
    st = resize_input(name, converted, &desc, &x);
    tsr_tensor_release(converted);
    if (st != TSR_OK) {
        return st;
    }
    if (desc.count == 0) { /* dim=(): a copy in the promoted dtype */
        st = tsr_clone(x, &y);
        tsr_tensor_release(x);
        return tsr__deliver(st, y, out);
    }
    /* The kernel halves its highest dim, PyTorch the last one listed: where
     * they differ, the two swap places for the call and back after it. */
    int highest = last;
    for (int i = 0; i < desc.count; i++) {
        highest = desc.dims[i] > highest ? desc.dims[i] : highest;
    }
    int swap = spec->kind != TSR_OP_FFT_C2C && highest != last;
    if (swap) {
        tsr_tensor *swapped = NULL;
        st = tsr_transpose(x, last, highest, &swapped);
        tsr_tensor_release(x);
        if (st != TSR_OK) {
            return st;
        }
        x = swapped;
    }
    tsr__fft_call call = {.kind = spec->kind,
                          .direction = spec->sign,
                          .norm = norm_mode,
                          .last_points = desc.last_points};
    for (int i = 0; i < desc.count; i++) {
        call.axes_mask |= 1u << desc.dims[i];
    }
    st = tsr__fft_primitive(name, &call, x, &y);
    tsr_tensor_release(x);
    if (st == TSR_OK && swap) {
        tsr_tensor *back = NULL;
        st = tsr_transpose(y, in_desc->dims[desc.count - 1], highest, &back);
        tsr_tensor_release(y);
        y = st == TSR_OK ? back : NULL;
    }
    return tsr__deliver(st, y, out);
}

static tsr_status one_dim(const fft_spec *spec, const tsr_tensor *t, int64_t n, int64_t dim,
                          const char *norm, tsr_tensor **out)
{
    if (t == NULL || out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              spec->name);
    }
    fft_desc desc = {.count = 1};
    tsr_status st = tsr__wrap_dim(spec->name, "dim", dim, t->ndim, &desc.dims[0]);
    if (st != TSR_OK) {
        return st;
    }
    if (t->ndim == 0) { /* PyTorch reads a 0-d tensor's size as 0 */
        return check_points(spec->name, n == TSR_FFT_N_DEFAULT ? 0 : n) != TSR_OK
                   ? TSR_ERR_INVALID_ARGUMENT
                   : tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                    "%s: expected a tensor of at least one dim", spec->name);
    }
    int64_t size = t->shape[desc.dims[0]];
    if (spec->kind == TSR_OP_FFT_C2R) {
        desc.last_points = n == TSR_FFT_N_DEFAULT ? 2 * (size - 1) : n;
        st = check_points(spec->name, desc.last_points);
    } else {
        desc.sizes[0] = n == TSR_FFT_N_DEFAULT ? size : n;
        st = check_points(spec->name, desc.sizes[0]);
    }
    return st != TSR_OK ? st : fft_transform(spec, t, &desc, norm, out);
}

static tsr_status n_dim(const fft_spec *spec, const tsr_tensor *t, const int64_t *s, int ns,
                        const int64_t *dim, int ndims, int default_dims, const char *norm,
                        tsr_tensor **out)
{
    if (t == NULL || out == NULL) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              spec->name);
    }
    if (t->ndim == 0 && s == NULL && dim == NULL && default_dims == 0) {
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: ndim must be >= 1", spec->name);
    }
    fft_desc desc = {0};
    tsr_status st = pair_shape_and_dims(spec->name, t, s, ns, dim, ndims, default_dims, &desc);
    if (st != TSR_OK) {
        return st;
    }
    if (spec->kind == TSR_OP_FFT_C2R && desc.count > 0) {
        int i = desc.count - 1;
        desc.last_points = s != NULL && s[i] != -1 ? s[i] : 2 * (t->shape[desc.dims[i]] - 1);
        if ((st = check_points(spec->name, desc.last_points)) != TSR_OK) {
            return st;
        }
    }
    return fft_transform(spec, t, &desc, norm, out);
}

#define FFT_SPEC(var, op_name, kind, sign, forward_norm)                                          \
    static const fft_spec var = {op_name, kind, sign, forward_norm}

FFT_SPEC(SPEC_FFT, "fft_fft", TSR_OP_FFT_C2C, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IFFT, "fft_ifft", TSR_OP_FFT_C2C, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_RFFT, "fft_rfft", TSR_OP_FFT_R2C, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IRFFT, "fft_irfft", TSR_OP_FFT_C2R, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_HFFT, "fft_hfft", TSR_OP_FFT_C2R, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IHFFT, "fft_ihfft", TSR_OP_FFT_R2C, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_FFT2, "fft_fft2", TSR_OP_FFT_C2C, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IFFT2, "fft_ifft2", TSR_OP_FFT_C2C, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_RFFT2, "fft_rfft2", TSR_OP_FFT_R2C, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IRFFT2, "fft_irfft2", TSR_OP_FFT_C2R, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_HFFT2, "fft_hfft2", TSR_OP_FFT_C2R, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IHFFT2, "fft_ihfft2", TSR_OP_FFT_R2C, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_FFTN, "fft_fftn", TSR_OP_FFT_C2C, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IFFTN, "fft_ifftn", TSR_OP_FFT_C2C, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_RFFTN, "fft_rfftn", TSR_OP_FFT_R2C, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IRFFTN, "fft_irfftn", TSR_OP_FFT_C2R, TSR_FFT_INVERSE, false);
FFT_SPEC(SPEC_HFFTN, "fft_hfftn", TSR_OP_FFT_C2R, TSR_FFT_FORWARD, true);
FFT_SPEC(SPEC_IHFFTN, "fft_ihfftn", TSR_OP_FFT_R2C, TSR_FFT_INVERSE, false);

#define ONE_DIM(fn, spec)                                                                         \
    tsr_status fn(const tsr_tensor *t, int64_t n, int64_t dim, const char *norm,                  \
                  tsr_tensor **out)                                                               \
    {                                                                                             \
        return one_dim(&spec, t, n, dim, norm, out);                                              \
    }
#define N_DIM(fn, spec, default_dims)                                                             \
    tsr_status fn(const tsr_tensor *t, const int64_t *s, int ns, const int64_t *dim, int ndims,   \
                  const char *norm, tsr_tensor **out)                                             \
    {                                                                                             \
        return n_dim(&spec, t, s, ns, dim, ndims, default_dims, norm, out);                       \
    }

ONE_DIM(tsr_fft_fft, SPEC_FFT)
ONE_DIM(tsr_fft_ifft, SPEC_IFFT)
ONE_DIM(tsr_fft_rfft, SPEC_RFFT)
ONE_DIM(tsr_fft_irfft, SPEC_IRFFT)
ONE_DIM(tsr_fft_hfft, SPEC_HFFT)
ONE_DIM(tsr_fft_ihfft, SPEC_IHFFT)
N_DIM(tsr_fft_fft2, SPEC_FFT2, 2)
N_DIM(tsr_fft_ifft2, SPEC_IFFT2, 2)
N_DIM(tsr_fft_rfft2, SPEC_RFFT2, 2)
N_DIM(tsr_fft_irfft2, SPEC_IRFFT2, 2)
N_DIM(tsr_fft_hfft2, SPEC_HFFT2, 2)
N_DIM(tsr_fft_ihfft2, SPEC_IHFFT2, 2)
N_DIM(tsr_fft_fftn, SPEC_FFTN, 0)
N_DIM(tsr_fft_ifftn, SPEC_IFFTN, 0)
N_DIM(tsr_fft_rfftn, SPEC_RFFTN, 0)
N_DIM(tsr_fft_irfftn, SPEC_IRFFTN, 0)
N_DIM(tsr_fft_hfftn, SPEC_HFFTN, 0)
N_DIM(tsr_fft_ihfftn, SPEC_IHFFTN, 0)
