/* The gradients of the five convolution computations. They are adjoint to
 * one another, so each formula is another of them (conv_compute.c), which
 * records its own node under create_graph: gradients of every order run on
 * the same kernels. With G the gradient arriving at the output:
 *   im2col(x):                 dx = col2im(G)
 *   col2im(cols):              dcols = im2col(G)
 *   y = conv(x, w, b):         dx = backward_data(G, w), dw = backward_weight(G, x),
 *                              db = G summed over every dim but 1
 *   dx = backward_data(dy, w): d(dy) = conv(G, w), dw = backward_weight(dy, G)
 *   dw = backward_weight(dy, x): d(dy) = conv(x, G), dx = backward_data(dy, G) */
#include "autograd/graph.h"
#include "ops/conv.h"
#include "runtime/error.h"

typedef struct conv_node_attrs {
    tsr_conv_attrs conv;
    int64_t spatial[TSR_CONV_MAX_SPATIAL]; /* the spatial extents of input 1's partner x */
} conv_node_attrs;

enum { SAVED_FIRST, SAVED_SECOND };

static const char *const NAME = "convolution_backward";

/* A node over inputs (first, second[, bias]) saving what `saves` says. */
static tsr_status record(const char *name, tsr__backward_fn fn, const tsr_tensor *first,
                         const tsr_tensor *second, const tsr_tensor *third, const tsr_conv_attrs *a,
                         const int64_t *spatial, tsr_tensor *out)
{
    const tsr_tensor *inputs[3] = {first, second, third};
    int count = third ? 3 : 2;
    if (!second)
        count = 1;
    if (!tsr__grad_wanted(inputs, count) || !tsr_dtype_is_floating(tsr_tensor_dtype(out)))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, fn, count, 1, 2, sizeof(conv_node_attrs), &node);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    if (st == TSR_OK) {
        conv_node_attrs *at = tsr__node_attrs(node);
        at->conv = *a;
        for (int d = 0; d < a->spatial_ndim && spatial; d++)
            at->spatial[d] = spatial[d];
        /* Each formula reads the other operand of the pair. */
        if (count >= 2 && tsr__node_needs_grad(node, 1))
            st = tsr__node_save(node, SAVED_FIRST, first, "input");
        if (st == TSR_OK && count >= 2 && tsr__node_needs_grad(node, 0))
            st = tsr__node_save(node, SAVED_SECOND, second, "weight");
    }
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

/* A saved operand, or NULL after setting *st. */
static tsr_tensor *saved(tsr__node *node, int slot, tsr_status *st)
{
    tsr_tensor *t = NULL;
    if (*st == TSR_OK)
        *st = tsr__node_saved(node, slot, &t);
    return t;
}

static tsr_status im2col_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const conv_node_attrs *at = tsr__node_attrs(node);
    return tsr__conv_col2im(NAME, grads[0], &at->conv, at->spatial, &gi[0]);
}

tsr_status tsr__grad_record_im2col(const tsr_tensor *x, const tsr_conv_attrs *a, tsr_tensor *out)
{
    return record("im2col", im2col_backward, x, NULL, NULL, a, x->shape + 2, out);
}

static tsr_status col2im_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const conv_node_attrs *at = tsr__node_attrs(node);
    return tsr__conv_im2col(NAME, grads[0], &at->conv, &gi[0]);
}

tsr_status tsr__grad_record_col2im(const tsr_tensor *cols, const tsr_conv_attrs *a, tsr_tensor *out)
{
    return record("col2im", col2im_backward, cols, NULL, NULL, a, NULL, out);
}

/* G summed over every dim but the channels: the bias gradient. */
static tsr_status bias_gradient(const tsr_tensor *g, tsr_tensor **out)
{
    int64_t dims[TSR_MAX_DIMS];
    int n = 0;
    for (int d = 0; d < g->ndim; d++)
        if (d != 1)
            dims[n++] = d;
    return tsr_sum(g, dims, n, false, g->dtype, out);
}

static tsr_status conv_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const conv_node_attrs *at = tsr__node_attrs(node);
    tsr_status st = TSR_OK;
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *w = saved(node, SAVED_SECOND, &st);
        if (st == TSR_OK)
            st = tsr__conv_backward_data(NAME, grads[0], w, &at->conv, at->spatial, &gi[0]);
        tsr_tensor_release(w);
    }
    if (st == TSR_OK && tsr__node_needs_grad(node, 1)) {
        tsr_tensor *x = saved(node, SAVED_FIRST, &st);
        if (st == TSR_OK)
            st = tsr__conv_backward_weight(NAME, grads[0], x, &at->conv, &gi[1]);
        tsr_tensor_release(x);
    }
    if (st == TSR_OK && tsr__node_num_inputs(node) == 3 && tsr__node_needs_grad(node, 2))
        st = bias_gradient(grads[0], &gi[2]);
    return st;
}

tsr_status tsr__grad_record_conv(const tsr_tensor *x, const tsr_tensor *w, const tsr_tensor *bias,
                                 const tsr_conv_attrs *a, tsr_tensor *out)
{
    return record("convolution", conv_backward, x, w, bias, a, x->shape + 2, out);
}

static tsr_status backward_data_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const conv_node_attrs *at = tsr__node_attrs(node);
    tsr_status st = TSR_OK;
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *w = saved(node, SAVED_SECOND, &st);
        if (st == TSR_OK)
            st = tsr__conv_forward(NAME, grads[0], w, NULL, &at->conv, &gi[0]);
        tsr_tensor_release(w);
    }
    if (st == TSR_OK && tsr__node_needs_grad(node, 1)) {
        tsr_tensor *dy = saved(node, SAVED_FIRST, &st);
        if (st == TSR_OK)
            st = tsr__conv_backward_weight(NAME, dy, grads[0], &at->conv, &gi[1]);
        tsr_tensor_release(dy);
    }
    return st;
}

tsr_status tsr__grad_record_conv_backward_data(const tsr_tensor *dy, const tsr_tensor *w,
                                               const tsr_conv_attrs *a, tsr_tensor *out)
{
    return record("convolution_backward_data", backward_data_backward, dy, w, NULL, a, NULL, out);
}

static tsr_status backward_weight_backward(tsr__node *node, tsr_tensor *const *grads,
                                           tsr_tensor **gi)
{
    const conv_node_attrs *at = tsr__node_attrs(node);
    tsr_status st = TSR_OK;
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *x = saved(node, SAVED_SECOND, &st);
        if (st == TSR_OK)
            st = tsr__conv_forward(NAME, x, grads[0], NULL, &at->conv, &gi[0]);
        tsr_tensor_release(x);
    }
    if (st == TSR_OK && tsr__node_needs_grad(node, 1)) {
        tsr_tensor *dy = saved(node, SAVED_FIRST, &st);
        if (st == TSR_OK)
            st = tsr__conv_backward_data(NAME, dy, grads[0], &at->conv, at->spatial, &gi[1]);
        tsr_tensor_release(dy);
    }
    return st;
}

tsr_status tsr__grad_record_conv_backward_weight(const tsr_tensor *dy, const tsr_tensor *x,
                                                 const tsr_conv_attrs *a, tsr_tensor *out)
{
    return record("convolution_backward_weight", backward_weight_backward, dy, x, NULL, a,
                  x->shape + 2, out);
}
