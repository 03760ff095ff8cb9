/* Gradients of the view ops and of the copies (contiguous, clone, to). */
#include "autograd/node.h"

#include "runtime/error.h"

#include <string.h>

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
    if (tsr__grad_wanted(&t, 1) && tsr_dtype_is_floating(result->dtype)) {
        tsr__node *node = NULL;
        st = tsr__node_create(name, copy_backward, 1, 1, 0, 0, &node);
        if (st == TSR_OK)
            st = tsr__node_set_input(node, 0, t);
        if (st == TSR_OK)
            st = tsr__node_attach(node, 0, result);
        tsr__node_release(node);
    }
    return tsr__deliver(st, result, out);
}
