/* The direct convolution kernels (TSR_OP_CONVOLUTION and its two backwards,
 * plugin.h), straight from the definition, over any strides.
 *
 * Every output element is one sum, widened (double, or double complex) and
 * rounded once into the output's dtype, so each element is written once and
 * no output needs clearing. The backward-data sum gathers: for each input
 * position and kernel offset it finds the one window (if any) that reads
 * the position. Geometry is padded to three spatial dims as in conv.c. */
#include <stdbool.h>
#include <string.h>

#include "backend.h"
#include "kernels.h"
#include "wide.h"

enum { SPATIAL = TSR_CONV_MAX_SPATIAL };

typedef struct direct_run {
    int nd;
    int64_t batch, cin, cout, groups, cin_group, cout_group;
    int64_t in[SPATIAL], out[SPATIAL], kernel[SPATIAL];
    int64_t stride[SPATIAL], padding[SPATIAL], dilation[SPATIAL];
    const tsr_tensor_desc *x, *w, *y; /* image, weight, windows (dy for the backwards) */
    tsr__ref_category category;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
} direct_run;

/* x [N, Cin, in...], w [Cout, Cin/g, k...], y [N, Cout, out...], with the
 * window counts of `in` equal to `out`. */
static int read_run(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                    const tsr_tensor_desc *x, const tsr_tensor_desc *w, const tsr_tensor_desc *y,
                    direct_run *r)
{
    const tsr_conv_attrs *a = args->attrs;
    if (a == NULL || a->struct_size < sizeof *a || a->spatial_ndim < 1 ||
        a->spatial_ndim > SPATIAL || a->groups < 1) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "needs tsr_conv_attrs with spatial_ndim 1 to 3 and groups >= 1");
    }
    int nd = a->spatial_ndim;
    if (x->ndim != 2 + nd || w->ndim != 2 + nd || y->ndim != 2 + nd || x->dtype != w->dtype ||
        x->dtype != y->dtype) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "operands must have rank %d and one dtype",
                              2 + nd);
    }
    *r = (direct_run){.nd = nd,
                      .batch = x->shape[0],
                      .cin = x->shape[1],
                      .cout = w->shape[0],
                      .groups = a->groups,
                      .x = x,
                      .w = w,
                      .y = y};
    r->cin_group = w->shape[1];
    r->cout_group = r->cout / r->groups;
    bool ok = r->cin == r->cin_group * r->groups && r->cout % r->groups == 0 &&
              y->shape[0] == r->batch && y->shape[1] == r->cout;
    for (int d = 0; d < SPATIAL; d++) {
        bool real = d < nd;
        r->in[d] = real ? x->shape[2 + d] : 1;
        r->kernel[d] = real ? w->shape[2 + d] : 1;
        r->stride[d] = real ? a->stride[d] : 1;
        r->padding[d] = real ? a->padding[d] : 0;
        r->dilation[d] = real ? a->dilation[d] : 1;
        r->out[d] = real ? y->shape[2 + d] : 1;
        ok = ok &&
             (!real || (r->kernel[d] == a->kernel[d] &&
                        r->out[d] == tsr__ref_conv_windows(a, d, r->in[d]))) &&
             r->stride[d] >= 1 && r->dilation[d] >= 1;
    }
    if (!ok) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "input, weight and output shapes do not match the geometry");
    }
    r->category = tsr__ref_dtype_category(x->dtype);
    r->load = tsr__ref_loader(x->dtype);
    r->store = tsr__ref_storer(r->category, x->dtype);
    if (r->category == TSR__REF_INTEGER || r->load == NULL || r->store == NULL) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "takes floating and complex dtypes");
    }
    return TSR_OK;
}

static void split(int64_t flat, const int64_t *extent, int64_t *parts)
{
    for (int d = SPATIAL - 1; d >= 0; d--) {
        parts[d] = flat % extent[d];
        flat /= extent[d];
    }
}

/* Element (i0, i1, c, spatial...) of t, in bytes from its first element. */
static const char *at(const tsr_tensor_desc *t, int nd, int64_t i0, int64_t i1, const int64_t *s)
{
    int64_t off = i0 * t->strides[0] + i1 * t->strides[1];
    for (int d = 0; d < nd; d++) {
        off += s[d] * t->strides[2 + d];
    }
    return (const char *)t->data + t->byte_offset + off * (int64_t)tsr__ref_dtype_size(t->dtype);
}

/* sum += a * b in the run's category. */
static void multiply_add(const direct_run *r, tsr__ref_wide *sum, const char *a, const char *b)
{
    tsr__ref_wide u, v;
    r->load(a, &u);
    r->load(b, &v);
    if (r->category == TSR__REF_COMPLEX) {
        sum->c += u.c * v.c;
    } else {
        sum->f += u.f * v.f;
    }
}

static void store_at(const direct_run *r, const tsr_tensor_desc *t, int64_t i0, int64_t i1,
                     const int64_t *s, const tsr__ref_wide *value)
{
    r->store((char *)at(t, r->nd, i0, i1, s), value);
}

/* The image position window o reads at kernel offset j, or false outside. */
static bool position(const direct_run *r, const int64_t *o, const int64_t *j, int64_t *i)
{
    bool inside = true;
    for (int d = 0; d < SPATIAL; d++) {
        i[d] = o[d] * r->stride[d] - r->padding[d] + j[d] * r->dilation[d];
        inside = inside && i[d] >= 0 && i[d] < r->in[d];
    }
    return inside;
}

static int64_t volume(const int64_t *e)
{
    return e[0] * e[1] * e[2];
}

/* y[n, co, o] = bias[co] + sum_{ci, j} x[n, g*cig + ci, at(o, j)] w[co, ci, j] */
static void forward(const direct_run *r, const tsr_tensor_desc *bias)
{
    for (int64_t n = 0; n < r->batch; n++) {
        for (int64_t co = 0; co < r->cout; co++) {
            int64_t first = (co / r->cout_group) * r->cin_group;
            for (int64_t l = 0; l < volume(r->out); l++) {
                int64_t o[SPATIAL], j[SPATIAL], i[SPATIAL];
                split(l, r->out, o);
                tsr__ref_wide sum;
                memset(&sum, 0, sizeof sum);
                if (bias != NULL) {
                    r->load((const char *)bias->data + bias->byte_offset +
                                co * bias->strides[0] * (int64_t)tsr__ref_dtype_size(bias->dtype),
                            &sum);
                }
                for (int64_t ci = 0; ci < r->cin_group; ci++) {
                    for (int64_t jf = 0; jf < volume(r->kernel); jf++) {
                        split(jf, r->kernel, j);
                        if (position(r, o, j, i)) {
                            multiply_add(r, &sum, at(r->x, r->nd, n, first + ci, i),
                                         at(r->w, r->nd, co, ci, j));
                        }
                    }
                }
                store_at(r, r->y, n, co, o, &sum);
            }
        }
    }
}

/* The window along dim d that reads position i at offset j, or -1. */
static int64_t window_for(const direct_run *r, int d, int64_t i, int64_t j)
{
    int64_t shifted = i + r->padding[d] - j * r->dilation[d];
    if (shifted < 0 || shifted % r->stride[d] != 0 || shifted / r->stride[d] >= r->out[d]) {
        return -1;
    }
    return shifted / r->stride[d];
}

/* dx[n, c, i] = sum over co of c's group and j with a window o reading i at
 * j of dy[n, co, o] w[co, c mod cig, j] */
static void backward_data(const direct_run *r)
{
    for (int64_t n = 0; n < r->batch; n++) {
        for (int64_t c = 0; c < r->cin; c++) {
            int64_t group = c / r->cin_group, ci = c % r->cin_group;
            for (int64_t flat = 0; flat < volume(r->in); flat++) {
                int64_t i[SPATIAL], j[SPATIAL], o[SPATIAL];
                split(flat, r->in, i);
                tsr__ref_wide sum;
                memset(&sum, 0, sizeof sum);
                for (int64_t jf = 0; jf < volume(r->kernel); jf++) {
                    split(jf, r->kernel, j);
                    bool hit = true;
                    for (int d = 0; d < SPATIAL && hit; d++) {
                        o[d] = window_for(r, d, i[d], j[d]);
                        hit = o[d] >= 0;
                    }
                    for (int64_t k = 0; hit && k < r->cout_group; k++) {
                        int64_t co = group * r->cout_group + k;
                        multiply_add(r, &sum, at(r->y, r->nd, n, co, o),
                                     at(r->w, r->nd, co, ci, j));
                    }
                }
                store_at(r, r->x, n, c, i, &sum);
            }
        }
    }
}

/* dw[co, ci, j] = sum_{n, o} dy[n, co, o] x[n, g*cig + ci, at(o, j)] */
static void backward_weight(const direct_run *r)
{
    for (int64_t co = 0; co < r->cout; co++) {
        int64_t first = (co / r->cout_group) * r->cin_group;
        for (int64_t ci = 0; ci < r->cin_group; ci++) {
            for (int64_t jf = 0; jf < volume(r->kernel); jf++) {
                int64_t j[SPATIAL], o[SPATIAL], i[SPATIAL];
                split(jf, r->kernel, j);
                tsr__ref_wide sum;
                memset(&sum, 0, sizeof sum);
                for (int64_t n = 0; n < r->batch; n++) {
                    for (int64_t l = 0; l < volume(r->out); l++) {
                        split(l, r->out, o);
                        if (position(r, o, j, i)) {
                            multiply_add(r, &sum, at(r->y, r->nd, n, co, o),
                                         at(r->x, r->nd, n, first + ci, i));
                        }
                    }
                }
                store_at(r, r->w, co, ci, j, &sum);
            }
        }
    }
}

int tsr__ref_kernel_convolution(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    if (args->num_outputs != 1 || args->num_inputs < 2 || args->num_inputs > 3) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "takes (x, w[, bias]) and one output");
    }
    direct_run r;
    const tsr_tensor_desc *in = args->inputs, *out = args->outputs;
    int st;
    switch (args->op) {
    case TSR_OP_CONVOLUTION: {
        const tsr_tensor_desc *bias = args->num_inputs == 3 ? &in[2] : NULL;
        if (bias != NULL &&
            (bias->ndim != 1 || bias->shape[0] != in[1].shape[0] || bias->dtype != in[0].dtype)) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "bias must be [Cout] of x's dtype");
        }
        if ((st = read_run(backend, args, &in[0], &in[1], out, &r)) == TSR_OK) {
            forward(&r, bias);
        }
        return st;
    }
    case TSR_OP_CONVOLUTION_BACKWARD_DATA:
        if ((st = read_run(backend, args, out, &in[1], &in[0], &r)) == TSR_OK) {
            backward_data(&r);
        }
        return st;
    case TSR_OP_CONVOLUTION_BACKWARD_WEIGHT:
        if ((st = read_run(backend, args, &in[1], out, &in[0], &r)) == TSR_OK) {
            backward_weight(&r);
        }
        return st;
    default:
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "not a convolution op");
    }
}
