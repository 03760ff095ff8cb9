/* The five convolution computations: the backend's direct convolution
 * kernels where it registers them for the dtype, otherwise im2col and
 * col2im kernels around the backend's matmul, so that a backend with two
 * kernels of its own (and matmul) gets every convolution. The composition
 * works on views and public ops with grad mode off; each computation records
 * one node of its own afterwards (conv_grad.c).
 *
 * With g groups, Cin = g * ci and Cout = g * co, the composition is
 *   forward:         y[n, g, co, L] = w[g, co, ci*K] @ cols(x)[n, g, ci*K, L]
 *   backward data:   dx = col2im(w[g, co, ci*K]^T @ dy[n, g, co, L])
 *   backward weight: dw[g, co, ci*K] = sum_n dy[n, g, co, L] @ cols(x)^T. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/graph.h"
#include "ops/conv.h"
#include "runtime/dispatch.h"
#include "runtime/error.h"
#include "tensor/launch.h"

int64_t tsr__conv_windows(const tsr_conv_attrs *a, int d, int64_t in)
{
    int64_t span = a->dilation[d] * (a->kernel[d] - 1) + 1;
    int64_t room = in + a->padding[d] + a->padding_end[d] - span;
    return room < 0 ? 0 : room / a->stride[d] + 1;
}

static int64_t kernel_volume(const tsr_conv_attrs *a)
{
    int64_t k = 1;
    for (int d = 0; d < a->spatial_ndim; d++)
        k *= a->kernel[d];
    return k;
}

/* The window count L of x's spatial dims (x [N, C, in...]). */
static int64_t window_count(const tsr_conv_attrs *a, const int64_t *spatial)
{
    int64_t l = 1;
    for (int d = 0; d < a->spatial_ndim; d++)
        l *= tsr__conv_windows(a, d, spatial[d]);
    return l;
}

/* Runs one TSR_OP_LIST_CONV kernel into a new tensor of `shape`. */
static tsr_status run_kernel(const char *name, tsr_op op, const tsr_tensor *const *inputs, int n,
                             const tsr_conv_attrs *a, int ndim, const int64_t *shape,
                             tsr_tensor **out)
{
    tsr_backend *b = NULL;
    tsr_status st = tsr__common_backend(name, inputs, n, &b);
    if (st != TSR_OK)
        return st;
    tsr_dtype dt = inputs[0]->dtype;
    tsr_tensor *result = NULL;
    st = tsr__tensor_empty(name, b, dt, ndim, shape, &result);
    if (st == TSR_OK)
        st = tsr__launch(op, dt, dt, inputs, n, &result, 1, a);
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}

/* Whether the backend's own convolution kernel runs. TESSERA_DIRECT_CONV=0
 * composes on every backend instead: the tests and conformance runs use it
 * to check both paths. */
static bool has_direct(const tsr_tensor *t, tsr_op op)
{
    static atomic_int composing = -1;
    int c = atomic_load_explicit(&composing, memory_order_relaxed);
    if (c < 0) {
        const char *env = getenv("TESSERA_DIRECT_CONV");
        c = env && strcmp(env, "0") == 0;
        atomic_store_explicit(&composing, c, memory_order_relaxed);
    }
    uint32_t flags = 0;
    return !c && tsr__registry_find(t->storage->backend, op, t->dtype, t->dtype, &flags) != NULL;
}

static tsr_status raw_im2col(const char *name, const tsr_tensor *x, const tsr_conv_attrs *a,
                             tsr_tensor **out)
{
    int64_t shape[3] = {x->shape[0], x->shape[1] * kernel_volume(a), window_count(a, x->shape + 2)};
    const tsr_tensor *inputs[1] = {x};
    return run_kernel(name, TSR_OP_IM2COL, inputs, 1, a, 3, shape, out);
}

static tsr_status raw_col2im(const char *name, const tsr_tensor *cols, const tsr_conv_attrs *a,
                             const int64_t *spatial, tsr_tensor **out)
{
    int64_t shape[2 + TSR_CONV_MAX_SPATIAL] = {cols->shape[0], cols->shape[1] / kernel_volume(a)};
    for (int d = 0; d < a->spatial_ndim; d++)
        shape[2 + d] = spatial[d];
    const tsr_tensor *inputs[1] = {cols};
    return run_kernel(name, TSR_OP_COL2IM, inputs, 1, a, 2 + a->spatial_ndim, shape, out);
}

/* A temporary list for the composition; every step checks `st` first. */
typedef struct chain {
    tsr_status st;
    int count;
    tsr_tensor *temps[12];
} chain;

static tsr_tensor *keep(chain *c, tsr_status st, tsr_tensor *t)
{
    if (c->st == TSR_OK && st != TSR_OK)
        c->st = st;
    if (st != TSR_OK)
        return NULL;
    c->temps[c->count++] = t;
    return t;
}

static tsr_tensor *reshaped(chain *c, const tsr_tensor *t, int ndim, const int64_t *shape)
{
    if (c->st != TSR_OK)
        return NULL;
    tsr_tensor *out = NULL;
    tsr_status st = tsr_reshape(t, ndim, shape, &out);
    return keep(c, st, out);
}

static tsr_tensor *product(chain *c, const tsr_tensor *a, const tsr_tensor *b)
{
    if (c->st != TSR_OK)
        return NULL;
    tsr_tensor *out = NULL;
    tsr_status st = tsr_matmul(a, b, &out);
    return keep(c, st, out);
}

static tsr_tensor *transposed(chain *c, const tsr_tensor *t)
{
    if (c->st != TSR_OK)
        return NULL;
    tsr_tensor *out = NULL;
    tsr_status st = tsr_transpose(t, -1, -2, &out);
    return keep(c, st, out);
}

/* Ends a chain: *out gets a new reference to result on success. */
static tsr_status chain_end(chain *c, tsr_tensor *result, tsr_tensor **out, bool grad_mode)
{
    if (c->st == TSR_OK)
        tsr_tensor_retain(*out = result);
    for (int i = 0; i < c->count; i++)
        tsr_tensor_release(c->temps[i]);
    tsr_grad_mode_set(grad_mode);
    return c->st;
}

static tsr_status composed_forward(const char *name, const tsr_tensor *x, const tsr_tensor *w,
                                   const tsr_tensor *bias, const tsr_conv_attrs *a,
                                   tsr_tensor **out)
{
    int nd = a->spatial_ndim;
    int64_t n = x->shape[0], g = a->groups, cout = w->shape[0], k = kernel_volume(a);
    int64_t cik = w->shape[1] * k, l = window_count(a, x->shape + 2);
    bool mode = tsr_grad_mode_set(false);
    chain c = {0};
    tsr_tensor *cols = NULL;
    c.st = raw_im2col(name, x, a, &cols);
    keep(&c, c.st, cols);
    int64_t cols_shape[4] = {n, g, cik, l}, w_shape[3] = {g, cout / g, cik};
    tsr_tensor *y = product(&c, reshaped(&c, w, 3, w_shape), reshaped(&c, cols, 4, cols_shape));
    int64_t y_shape[2 + TSR_CONV_MAX_SPATIAL] = {n, cout},
                        b_shape[1 + TSR_CONV_MAX_SPATIAL] = {cout};
    for (int d = 0; d < nd; d++) {
        y_shape[2 + d] = tsr__conv_windows(a, d, x->shape[2 + d]);
        b_shape[1 + d] = 1;
    }
    y = reshaped(&c, y, 2 + nd, y_shape);
    if (bias && c.st == TSR_OK) {
        tsr_tensor *sum = NULL, *b = reshaped(&c, bias, 1 + nd, b_shape);
        tsr_status st = b ? tsr_add(y, b, &sum) : TSR_OK;
        if (b)
            y = keep(&c, st, sum);
    }
    return chain_end(&c, y, out, mode);
}

static tsr_status composed_backward_data(const char *name, const tsr_tensor *dy,
                                         const tsr_tensor *w, const tsr_conv_attrs *a,
                                         const int64_t *spatial, tsr_tensor **out)
{
    int64_t n = dy->shape[0], g = a->groups, cout = w->shape[0], k = kernel_volume(a);
    int64_t cik = w->shape[1] * k, l = window_count(a, spatial);
    bool mode = tsr_grad_mode_set(false);
    chain c = {0};
    int64_t dy_shape[4] = {n, g, cout / g, l}, w_shape[3] = {g, cout / g, cik};
    tsr_tensor *wt = transposed(&c, reshaped(&c, w, 3, w_shape));
    tsr_tensor *cols = product(&c, wt, reshaped(&c, dy, 4, dy_shape));
    int64_t flat[3] = {n, g * cik, l};
    cols = reshaped(&c, cols, 3, flat);
    tsr_tensor *dx = NULL;
    if (c.st == TSR_OK) {
        tsr_status st = raw_col2im(name, cols, a, spatial, &dx);
        dx = keep(&c, st, dx);
    }
    return chain_end(&c, dx, out, mode);
}

static tsr_status composed_backward_weight(const char *name, const tsr_tensor *dy,
                                           const tsr_tensor *x, const tsr_conv_attrs *a,
                                           tsr_tensor **out)
{
    int nd = a->spatial_ndim;
    int64_t n = x->shape[0], g = a->groups, cout = dy->shape[1], k = kernel_volume(a);
    int64_t ci = x->shape[1] / g, l = window_count(a, x->shape + 2);
    bool mode = tsr_grad_mode_set(false);
    chain c = {0};
    tsr_tensor *cols = NULL;
    c.st = raw_im2col(name, x, a, &cols);
    keep(&c, c.st, cols);
    int64_t cols_shape[4] = {n, g, ci * k, l}, dy_shape[4] = {n, g, cout / g, l};
    tsr_tensor *per_sample = product(&c, reshaped(&c, dy, 4, dy_shape),
                                     transposed(&c, reshaped(&c, cols, 4, cols_shape)));
    tsr_tensor *dw = NULL;
    if (c.st == TSR_OK) {
        int64_t batch = 0;
        tsr_status st = tsr_sum(per_sample, &batch, 1, false, per_sample->dtype, &dw);
        dw = keep(&c, st, dw);
    }
    int64_t w_shape[2 + TSR_CONV_MAX_SPATIAL] = {cout, ci};
    for (int d = 0; d < nd; d++)
        w_shape[2 + d] = a->kernel[d];
    dw = reshaped(&c, dw, 2 + nd, w_shape);
    return chain_end(&c, dw, out, mode);
}

/* ---- the differentiable computations ------------------------------------ */

static tsr_status recorded(tsr_status st, tsr_status record, tsr_tensor *result, tsr_tensor **out)
{
    if (st == TSR_OK)
        st = record;
    return tsr__deliver(st, result, out);
}

tsr_status tsr__conv_im2col(const char *name, const tsr_tensor *x, const tsr_conv_attrs *a,
                            tsr_tensor **out)
{
    tsr_tensor *cols = NULL;
    tsr_status st = raw_im2col(name, x, a, &cols);
    return recorded(st, st == TSR_OK ? tsr__grad_record_im2col(x, a, cols) : st, cols, out);
}

tsr_status tsr__conv_col2im(const char *name, const tsr_tensor *cols, const tsr_conv_attrs *a,
                            const int64_t *spatial, tsr_tensor **out)
{
    tsr_tensor *x = NULL;
    tsr_status st = raw_col2im(name, cols, a, spatial, &x);
    return recorded(st, st == TSR_OK ? tsr__grad_record_col2im(cols, a, x) : st, x, out);
}

tsr_status tsr__conv_forward(const char *name, const tsr_tensor *x, const tsr_tensor *w,
                             const tsr_tensor *bias, const tsr_conv_attrs *a, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st;
    if (has_direct(x, TSR_OP_CONVOLUTION)) {
        int64_t shape[2 + TSR_CONV_MAX_SPATIAL] = {x->shape[0], w->shape[0]};
        for (int d = 0; d < a->spatial_ndim; d++)
            shape[2 + d] = tsr__conv_windows(a, d, x->shape[2 + d]);
        const tsr_tensor *inputs[3] = {x, w, bias};
        st = run_kernel(name, TSR_OP_CONVOLUTION, inputs, bias ? 3 : 2, a, 2 + a->spatial_ndim,
                        shape, &y);
    } else {
        st = composed_forward(name, x, w, bias, a, &y);
    }
    return recorded(st, st == TSR_OK ? tsr__grad_record_conv(x, w, bias, a, y) : st, y, out);
}

tsr_status tsr__conv_backward_data(const char *name, const tsr_tensor *dy, const tsr_tensor *w,
                                   const tsr_conv_attrs *a, const int64_t *spatial,
                                   tsr_tensor **out)
{
    tsr_tensor *dx = NULL;
    tsr_status st;
    if (has_direct(dy, TSR_OP_CONVOLUTION_BACKWARD_DATA)) {
        int64_t shape[2 + TSR_CONV_MAX_SPATIAL] = {dy->shape[0], w->shape[1] * a->groups};
        for (int d = 0; d < a->spatial_ndim; d++)
            shape[2 + d] = spatial[d];
        const tsr_tensor *inputs[2] = {dy, w};
        st = run_kernel(name, TSR_OP_CONVOLUTION_BACKWARD_DATA, inputs, 2, a, 2 + a->spatial_ndim,
                        shape, &dx);
    } else {
        st = composed_backward_data(name, dy, w, a, spatial, &dx);
    }
    return recorded(st, st == TSR_OK ? tsr__grad_record_conv_backward_data(dy, w, a, dx) : st, dx,
                    out);
}

tsr_status tsr__conv_backward_weight(const char *name, const tsr_tensor *dy, const tsr_tensor *x,
                                     const tsr_conv_attrs *a, tsr_tensor **out)
{
    tsr_tensor *dw = NULL;
    tsr_status st;
    if (has_direct(dy, TSR_OP_CONVOLUTION_BACKWARD_WEIGHT)) {
        int64_t shape[2 + TSR_CONV_MAX_SPATIAL] = {dy->shape[1], x->shape[1] / a->groups};
        for (int d = 0; d < a->spatial_ndim; d++)
            shape[2 + d] = a->kernel[d];
        const tsr_tensor *inputs[2] = {dy, x};
        st = run_kernel(name, TSR_OP_CONVOLUTION_BACKWARD_WEIGHT, inputs, 2, a, 2 + a->spatial_ndim,
                        shape, &dw);
    } else {
        st = composed_backward_weight(name, dy, x, a, &dw);
    }
    return recorded(st, st == TSR_OK ? tsr__grad_record_conv_backward_weight(dy, x, a, dw) : st, dw,
                    out);
}
