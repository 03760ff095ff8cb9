/* Gradients of the view ops and of the copies (contiguous, clone, to), and
 * the formulas of the nodes autograd records for views under in-place ops
 * (as_strided remaps and CopySlices, handed down to autograd/views.c). */
#include "ops/views_grad.h"

#include "autograd/node.h"
#include "ops/elementwise_grad.h"
#include "runtime/error.h"
#include "ops/grad_expr.h"

#include <string.h>

/* ---- views under in-place ops ------------------------------------------ */

/* The lowest and highest storage element g reaches (g has elements). */
static void extent(const tsr__view_geometry *g, int64_t *lo, int64_t *hi)
{
    *lo = *hi = g->offset;
    for (int i = 0; i < g->ndim; i++) {
        int64_t span = (g->shape[i] - 1) * g->strides[i];
        *(span < 0 ? lo : hi) += span;
    }
}

static bool empty(const tsr__view_geometry *g)
{
    for (int i = 0; i < g->ndim; i++) {
        if (g->shape[i] == 0)
            return true;
    }
    return false;
}

static tsr_status remap(const tsr__remap_attrs *at, const tsr_tensor *g, tsr_tensor **out);

static tsr_status remap_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const tsr__remap_attrs *at = tsr__node_attrs(node);
    tsr__remap_attrs back = {at->to, at->from};
    return remap(&back, grads[0], &gi[0]);
}

static tsr_status record_remap(const char *name, const tsr__remap_attrs *at,
                               const tsr_tensor *input, tsr_tensor *out)
{
    return tsr__record_one_to_one(name, remap_backward, input, at, sizeof *at, out);
}

/* g laid out as at->from, read back as at->to: written into a zeroed stretch
 * of scratch storage covering both, so elements of `to` outside `from` are
 * zero. With neither overlapping itself this is linear with its adjoint the
 * reverse remap, which is how it is recorded (differentiable). */
static tsr_status remap(const tsr__remap_attrs *at, const tsr_tensor *g, tsr_tensor **out)
{
    int64_t lo = 0, hi = -1;
    const tsr__view_geometry *both[2] = {&at->from, &at->to};
    for (int k = 0; k < 2; k++) {
        int64_t a, b;
        if (empty(both[k]))
            continue;
        extent(both[k], &a, &b);
        bool first = hi < lo;
        lo = first || a < lo ? a : lo;
        hi = first || b > hi ? b : hi;
    }
    int64_t n = hi >= lo ? hi - lo + 1 : 0;
    tsr_tensor *scratch = NULL, *in = NULL, *result = NULL, *read = NULL;
    bool previous = tsr_grad_mode_set(false);
    tsr_status st = tsr_zeros(1, &n, g->dtype, g->storage->backend, &scratch);
    if (st == TSR_OK)
        st = tsr__tensor_restride(scratch, at->from.ndim, at->from.shape, at->from.strides,
                                  at->from.offset - lo, &in);
    if (st == TSR_OK)
        st = tsr_copy_(in, g);
    if (st == TSR_OK)
        st = tsr__tensor_restride(scratch, at->to.ndim, at->to.shape, at->to.strides,
                                  at->to.offset - lo, &read);
    if (st == TSR_OK)
        st = tsr_clone(read, &result);
    tsr_grad_mode_set(previous);
    tsr_tensor_release(scratch);
    tsr_tensor_release(in);
    tsr_tensor_release(read);
    if (st == TSR_OK && tsr__grad_wanted(&g, 1))
        st = record_remap("as_strided", at, g, result);
    return tsr__deliver(st, result, out);
}

/* The base's gradient G splits in two: outside the view it goes to the
 * base's old history (input 0); inside, it goes to the in-place op's node
 * (input 1), whose own input is the view's old value, so it reaches the
 * base's old history through the old view node. */
static tsr_status copy_slices_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const tsr__remap_attrs *at = tsr__node_attrs(node);
    tsr__remap_attrs back = {at->to, at->from};
    tsr_tensor *inside = NULL, *spread = NULL;
    tsr_status st = remap(at, grads[0], &inside);
    if (st == TSR_OK && tsr__node_needs_grad(node, 0))
        st = remap(&back, inside, &spread);
    if (st == TSR_OK && spread)
        st = tsr_sub(grads[0], spread, &gi[0]);
    tsr_tensor_release(spread);
    if (st == TSR_OK && tsr__node_needs_grad(node, 1)) {
        gi[1] = inside;
        inside = NULL;
    }
    tsr_tensor_release(inside);
    return st;
}

static const tsr__view_rules view_rules = {remap_backward, copy_slices_backward};

/* ---- view ops ----------------------------------------------------------- */


typedef struct view_attrs {
    tsr__view_args args;
    int ndim; /* the input's shape */
    int64_t shape[TSR_MAX_DIMS];
} view_attrs;

/* The view again, on another tensor of the input's shape. */
static tsr_status replay(const view_attrs *at, const tsr_tensor *t, tsr_tensor **out)
{
    const int64_t *p = at->args.p;
    if (at->args.kind == TSR__VIEW_SLICE)
        return tsr_slice(t, p[0], p[1], p[2], p[3], out);
    return tsr_diagonal(t, p[0], p[1], p[2], out);
}

static tsr_status record(const char *name, tsr__backward_fn fn, const tsr_tensor *input,
                         const view_attrs *at, tsr_tensor *out)
{
    return tsr__record_one_to_one(name, fn, input, at, sizeof *at, out);
}

static tsr_status view_scatter(const view_attrs *at, const tsr_tensor *g, tsr_tensor **out);

/* The gradient of the scatter is the view of the gradient. */
static tsr_status scatter_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    return replay(tsr__node_attrs(node), grads[0], &gi[0]);
}

/* zeros of the input's shape with g written through the view: the gradient
 * of slice and diagonal, itself recorded so that it is differentiable. */
static tsr_status view_scatter(const view_attrs *at, const tsr_tensor *g, tsr_tensor **out)
{
    tsr_tensor *z = NULL, *v = NULL;
    tsr_status st = tsr_zeros(at->ndim, at->shape, tsr_tensor_dtype(g), tsr_tensor_backend(g), &z);
    bool previous = tsr_grad_mode_set(false);
    if (st == TSR_OK)
        st = replay(at, z, &v);
    if (st == TSR_OK)
        st = tsr_copy_(v, g);
    tsr_grad_mode_set(previous);
    tsr_tensor_release(v);
    if (st == TSR_OK && tsr__grad_wanted(&g, 1))
        st = record(at->args.name, scatter_backward, g, at, z);
    return tsr__deliver(st, z, out);
}

static tsr_status view_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const view_attrs *at = tsr__node_attrs(node);
    const int64_t *p = at->args.p;
    const tsr_tensor *g = grads[0];
    switch (at->args.kind) {
    case TSR__VIEW_RESHAPE:
        return tsr_reshape(g, at->ndim, at->shape, &gi[0]);
    case TSR__VIEW_TRANSPOSE:
        return tsr_transpose(g, p[0], p[1], &gi[0]);
    case TSR__VIEW_PERMUTE: {
        int64_t inverse[TSR_MAX_DIMS];
        for (int i = 0; i < at->ndim; i++)
            inverse[p[i]] = i;
        return tsr_permute(g, at->ndim, inverse, &gi[0]);
    }
    case TSR__VIEW_EXPAND:
        return tsr__sum_to_shape(g, at->ndim, at->shape, &gi[0]);
    case TSR__VIEW_SLICE:
    case TSR__VIEW_DIAGONAL:
        return view_scatter(at, g, &gi[0]);
    }
    return tsr__set_error(TSR_ERR_AUTOGRAD, "%s: unknown view kind", at->args.name);
}

tsr_status tsr__grad_view(tsr_status st, const tsr__view_args *args, const tsr_tensor *t,
                          tsr_tensor *result, bool is_view, tsr_tensor **out)
{
    if (st != TSR_OK)
        return st;
    if (is_view) {
        tsr__view_rules_set(&view_rules); /* before the first view can need them */
        tsr_tensor *base = t->view_base ? t->view_base : (tsr_tensor *)t;
        tsr_tensor_retain(base);
        result->view_base = base;
        result->view_history = base->autograd ? base->autograd->history : 0;
    }
    if (tsr__grad_wanted(&t, 1)) {
        view_attrs at = {.args = *args, .ndim = t->ndim};
        memcpy(at.shape, t->shape, (size_t)t->ndim * sizeof *t->shape);
        st = record(args->name, view_backward, t, &at, result);
    }
    return tsr__deliver(st, result, out);
}

/* ---- copies ------------------------------------------------------------- */

static tsr_status copy_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    if (!tsr__node_needs_grad(node, 0))
        return TSR_OK;
    const tsr__grad_meta *m = tsr__node_input_meta(node, 0);
    tsr_tensor *converted = NULL;
    tsr_status st = tsr_to_dtype(grads[0], m->dtype, &converted);
    if (st == TSR_OK)
        st = tsr_to_backend(converted, m->backend, &gi[0]);
    tsr_tensor_release(converted);
    return st;
}

tsr_status tsr__grad_copy(tsr_status st, const char *name, const tsr_tensor *t, tsr_tensor *result,
                          tsr_tensor **out)
{
    if (st != TSR_OK || result == t)
        return tsr__deliver(st, result, out);
    if (tsr__grad_wanted(&t, 1) && tsr__grad_dtype(result->dtype)) {
        tsr__node *node = NULL;
        st = tsr__node_create(name, copy_backward, 1, 1, 0, 0, &node);
        /* complex -> real gives back g + 0i, real -> complex Re(g): the
         * conversion of the gradient (PyTorch's _to_copy_backward) */
        tsr__node_allow_complex(node);
        if (st == TSR_OK)
            st = tsr__node_set_input(node, 0, t);
        if (st == TSR_OK)
            st = tsr__node_attach(node, 0, result);
        tsr__node_release(node);
    }
    return tsr__deliver(st, result, out);
}
