/* im2col and col2im (TSR_OP_LIST_CONV in plugin.h), over any strides.
 *
 * Both walk the geometry padded to three spatial dims (a missing dim has
 * extent, kernel, stride and dilation 1 and no padding), so one loop nest
 * serves conv1d to conv3d. im2col copies element bytes, which is exact for
 * every dtype and writes the zero bit pattern (0 in every dtype) at padding.
 * col2im gathers instead of scattering: each output element sums the column
 * entries that im2col would have copied from it and is stored once, so no
 * output needs clearing first and the kernel never reads what it wrote. The
 * sum runs in PyTorch's order (kernel offsets ascending) and rounds to the
 * dtype after every addition, as PyTorch's col2im adds in the dtype itself. */
#include <stdbool.h>
#include <string.h>

#include "backend.h"
#include "kernels.h"
#include "wide.h"

enum { SPATIAL = TSR_CONV_MAX_SPATIAL };

/* The geometry of one call with every spatial dim filled in. */
typedef struct conv_geometry {
    int64_t batch, channels;
    int64_t in[SPATIAL], out[SPATIAL], kernel[SPATIAL];
    int64_t stride[SPATIAL], padding[SPATIAL], dilation[SPATIAL];
    int64_t volume, windows; /* K and L */
} conv_geometry;

int64_t tsr__ref_conv_windows(const tsr_conv_attrs *a, int d, int64_t in)
{
    int64_t span = a->dilation[d] * (a->kernel[d] - 1) + 1;
    int64_t room = in + a->padding[d] + a->padding_end[d] - span;
    return room < 0 ? 0 : room / a->stride[d] + 1;
}

/* Checks the call and fills g from the image descriptor (input of im2col,
 * output of col2im) and the column descriptor. */
static int read_geometry(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                         const tsr_tensor_desc *image, const tsr_tensor_desc *cols,
                         conv_geometry *g)
{
    const tsr_conv_attrs *a = args->attrs;
    if (a == NULL || a->struct_size < sizeof *a || a->spatial_ndim < 1 ||
        a->spatial_ndim > SPATIAL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "needs tsr_conv_attrs with spatial_ndim 1 to 3");
    }
    int nd = a->spatial_ndim;
    if (image->ndim != 2 + nd || cols->ndim != 3 || image->dtype != cols->dtype) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "expects an image of rank %d and columns of rank 3, one dtype",
                              2 + nd);
    }
    g->batch = image->shape[0];
    g->channels = image->shape[1];
    g->volume = 1;
    g->windows = 1;
    for (int d = 0; d < SPATIAL; d++) {
        bool real = d < nd;
        g->in[d] = real ? image->shape[2 + d] : 1;
        g->kernel[d] = real ? a->kernel[d] : 1;
        g->stride[d] = real ? a->stride[d] : 1;
        g->padding[d] = real ? a->padding[d] : 0;
        g->dilation[d] = real ? a->dilation[d] : 1;
        g->out[d] = real ? tsr__ref_conv_windows(a, d, g->in[d]) : 1;
        if (g->kernel[d] < 1 || g->stride[d] < 1 || g->dilation[d] < 1) {
            return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                                  "kernel, stride and dilation must be positive");
        }
        g->volume *= g->kernel[d];
        g->windows *= g->out[d];
    }
    if (cols->shape[0] != g->batch || cols->shape[1] != g->channels * g->volume ||
        cols->shape[2] != g->windows) {
        return tsr__ref_error(
            backend, TSR_ERR_SHAPE, "columns of shape [%lld, %lld, %lld] do not match the image",
            (long long)cols->shape[0], (long long)cols->shape[1], (long long)cols->shape[2]);
    }
    return TSR_OK;
}

/* Byte offset of image element (n, c, i0, i1, i2). */
static int64_t image_at(const tsr_tensor_desc *t, int nd, int64_t n, int64_t c, const int64_t *i)
{
    int64_t at = n * t->strides[0] + c * t->strides[1];
    for (int d = 0; d < nd; d++) {
        at += i[d] * t->strides[2 + d];
    }
    return at;
}

static char *base(const tsr_tensor_desc *t)
{
    return (char *)t->data + t->byte_offset;
}

/* Kernel offset j (row-major) split per dim, and window l likewise. */
static void split(int64_t flat, const int64_t *extent, int64_t *parts)
{
    for (int d = SPATIAL - 1; d >= 0; d--) {
        parts[d] = flat % extent[d];
        flat /= extent[d];
    }
}

/* im2col's and col2im's operands: one image x and its column matrix cols,
 * the image the input when `image_is_input` (im2col) and the output
 * otherwise (col2im), with the geometry they imply. */
static int read_unfold_operands(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                                bool image_is_input, const tsr_tensor_desc **x,
                                const tsr_tensor_desc **cols, conv_geometry *g)
{
    if (args->num_inputs != 1 || args->num_outputs != 1) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "takes one input, one output");
    }
    *x = image_is_input ? &args->inputs[0] : &args->outputs[0];
    *cols = image_is_input ? &args->outputs[0] : &args->inputs[0];
    return read_geometry(backend, args, *x, *cols, g);
}

int tsr__ref_kernel_im2col(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_tensor_desc *x = NULL, *cols = NULL;
    conv_geometry g;
    int st = read_unfold_operands(backend, args, true, &x, &cols, &g);
    if (st != TSR_OK) {
        return st;
    }
    int nd = x->ndim - 2;
    size_t size = tsr__ref_dtype_size(x->dtype);
    const char *src = base(x);
    char *dst = base(cols);
    for (int64_t n = 0; n < g.batch; n++) {
        for (int64_t row = 0; row < g.channels * g.volume; row++) {
            int64_t c = row / g.volume, j[SPATIAL];
            split(row % g.volume, g.kernel, j);
            for (int64_t l = 0; l < g.windows; l++) {
                int64_t o[SPATIAL], i[SPATIAL];
                split(l, g.out, o);
                bool inside = true;
                for (int d = 0; d < SPATIAL; d++) {
                    i[d] = o[d] * g.stride[d] - g.padding[d] + j[d] * g.dilation[d];
                    inside = inside && i[d] >= 0 && i[d] < g.in[d];
                }
                char *to =
                    dst + (n * cols->strides[0] + row * cols->strides[1] + l * cols->strides[2]) *
                              (int64_t)size;
                if (inside) {
                    memcpy(to, src + image_at(x, nd, n, c, i) * (int64_t)size, size);
                } else {
                    memset(to, 0, size);
                }
            }
        }
    }
    return TSR_OK;
}

/* Window index along dim d whose offset j reaches position i, or -1. */
static int64_t window_for(const conv_geometry *g, int d, int64_t i, int64_t j)
{
    int64_t shifted = i + g->padding[d] - j * g->dilation[d];
    if (shifted < 0 || shifted % g->stride[d] != 0) {
        return -1;
    }
    int64_t o = shifted / g->stride[d];
    return o < g->out[d] ? o : -1;
}

int tsr__ref_kernel_col2im(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_tensor_desc *x = NULL, *cols = NULL;
    conv_geometry g;
    int st = read_unfold_operands(backend, args, false, &x, &cols, &g);
    if (st != TSR_OK) {
        return st;
    }
    int nd = x->ndim - 2;
    size_t size = tsr__ref_dtype_size(x->dtype);
    tsr__ref_category category = tsr__ref_dtype_category(x->dtype);
    tsr__ref_load_fn load = tsr__ref_loader(x->dtype);
    tsr__ref_store_fn store = tsr__ref_storer(category, x->dtype);
    tsr__ref_round_fn round = tsr__ref_real_rounder(tsr__ref_dtype_real_part(x->dtype));
    if (category == TSR__REF_INTEGER || load == NULL || store == NULL) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "col2im takes floating dtypes");
    }
    const char *src = base(cols);
    char *dst = base(x);
    int64_t volume_in = g.in[0] * g.in[1] * g.in[2];
    for (int64_t n = 0; n < g.batch; n++) {
        for (int64_t c = 0; c < g.channels; c++) {
            for (int64_t flat = 0; flat < volume_in; flat++) {
                int64_t i[SPATIAL];
                split(flat, g.in, i);
                tsr__ref_wide sum;
                memset(&sum, 0, sizeof sum);
                for (int64_t jf = 0; jf < g.volume; jf++) {
                    int64_t j[SPATIAL], l = 0;
                    split(jf, g.kernel, j);
                    for (int d = 0; d < SPATIAL && l >= 0; d++) {
                        int64_t o = window_for(&g, d, i[d], j[d]);
                        l = o < 0 ? -1 : l * g.out[d] + o;
                    }
                    if (l < 0) {
                        continue;
                    }
                    int64_t row = c * g.volume + jf;
                    tsr__ref_wide v;
                    load(src + (n * cols->strides[0] + row * cols->strides[1] +
                                l * cols->strides[2]) *
                                   (int64_t)size,
                         &v);
                    if (category == TSR__REF_COMPLEX) {
                        double parts[2], add[2];
                        memcpy(parts, &sum.c, sizeof parts);
                        memcpy(add, &v.c, sizeof add);
                        sum.c = tsr__ref_complex_make(round(parts[0] + add[0]),
                                                      round(parts[1] + add[1]));
                    } else {
                        sum.f = round(sum.f + v.f);
                    }
                }
                store(dst + image_at(x, nd, n, c, i) * (int64_t)size, &sum);
            }
        }
    }
    return TSR_OK;
}
