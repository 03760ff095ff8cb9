/* Views and in-place ops, as PyTorch's rebase_history: an in-place op on a
 * view gives the view's base a CopySlices node, and a view whose base got
 * a new history has its grad_fn regenerated from the base's. Both need the
 * view's place inside its base, which is read off the two tensors'
 * geometry (they share storage), so any chain of view ops is covered, as
 * PyTorch's as_strided fallback does. */
#include "autograd/node.h"

#include "runtime/error.h"

#include <string.h>

typedef struct geometry {
    int ndim;
    int64_t offset;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS];
} geometry;

/* Moving a gradient from one geometry to another over the same storage. */
typedef struct remap_attrs {
    geometry from, to;
} remap_attrs;

static void geometry_of(const tsr_tensor *t, geometry *g)
{
    g->ndim = t->ndim;
    g->offset = t->offset;
    memcpy(g->shape, t->shape, sizeof g->shape);
    memcpy(g->strides, t->strides, sizeof g->strides);
}

/* The lowest and highest storage element g reaches (g has elements). */
static void extent(const geometry *g, int64_t *lo, int64_t *hi)
{
    *lo = *hi = g->offset;
    for (int i = 0; i < g->ndim; i++) {
        int64_t span = (g->shape[i] - 1) * g->strides[i];
        *(span < 0 ? lo : hi) += span;
    }
}

static bool empty(const geometry *g)
{
    for (int i = 0; i < g->ndim; i++) {
        if (g->shape[i] == 0)
            return true;
    }
    return false;
}

static tsr_status remap(const remap_attrs *at, const tsr_tensor *g, tsr_tensor **out);

static tsr_status remap_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const remap_attrs *at = tsr__node_attrs(node);
    remap_attrs back = {at->to, at->from};
    return remap(&back, grads[0], &gi[0]);
}

tsr_status tsr__record_one_to_one(const char *name, tsr__backward_fn fn, const tsr_tensor *input,
                                  const void *attrs, size_t attrs_size, tsr_tensor *out)
{
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, fn, 1, 1, 0, attrs_size, &node);
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, input);
    if (st == TSR_OK) {
        memcpy(tsr__node_attrs(node), attrs, attrs_size);
        st = tsr__node_attach(node, 0, out);
    }
    tsr__node_release(node);
    return st;
}

static tsr_status record_remap(const char *name, const remap_attrs *at, const tsr_tensor *input,
                               tsr_tensor *out)
{
    return tsr__record_one_to_one(name, remap_backward, input, at, sizeof *at, out);
}

/* g laid out as at->from, read back as at->to: written into a zeroed stretch
 * of scratch storage covering both, so elements of `to` outside `from` are
 * zero. With neither overlapping itself this is linear with its adjoint the
 * reverse remap, which is how it is recorded (differentiable). */
static tsr_status remap(const remap_attrs *at, const tsr_tensor *g, tsr_tensor **out)
{
    int64_t lo = 0, hi = -1;
    const geometry *both[2] = {&at->from, &at->to};
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

/* Why the view's place in its base cannot be used, or NULL. */
static const char *unmappable(const tsr_tensor *view, const tsr_tensor *base)
{
    if (view->dtype != base->dtype)
        return "the view has another dtype than its base";
    if (tsr__has_internal_overlap(base))
        return "the base has internal overlap";
    if (tsr__has_internal_overlap(view))
        return "the view has internal overlap (as after expand)";
    return NULL;
}

static tsr_status check_mappable(const char *name, const tsr_tensor *view)
{
    const char *why = unmappable(view, view->view_base);
    if (!why)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_AUTOGRAD,
                          "%s: autograd cannot follow this view into its base (%s); clone the "
                          "view, or switch grad mode off",
                          name, why);
}

tsr_status tsr__view_refresh(const tsr_tensor *t)
{
    if (!tsr__view_is_stale(t))
        return TSR_OK;
    tsr_tensor *view = (tsr_tensor *)t;
    tsr_tensor *base = view->view_base;
    tsr_status st = check_mappable("view", view);
    if (st != TSR_OK)
        return st;
    remap_attrs at;
    geometry_of(base, &at.from);
    geometry_of(view, &at.to);
    /* the view's value now comes out of the base's new history */
    st = record_remap("as_strided", &at, base, view);
    if (st == TSR_OK)
        view->view_history = base->autograd ? base->autograd->history : 0;
    return st;
}

/* ---- CopySlices --------------------------------------------------------- */

/* The base's gradient G splits in two: outside the view it goes to the
 * base's old history (input 0); inside, it goes to the in-place op's node
 * (input 1), whose own input is the view's old value, so it reaches the
 * base's old history through the old view node. */
static tsr_status copy_slices_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const remap_attrs *at = tsr__node_attrs(node);
    remap_attrs back = {at->to, at->from};
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

/* The in-place op on a view whose node is being attached (per thread: an
 * op runs on one thread from begin to end). */
static _Thread_local tsr__inplace *pending;

tsr_status tsr__view_rebase_begin(const char *name, tsr__inplace *ip, tsr_tensor *self)
{
    tsr_status st = check_mappable(name, self);
    if (st == TSR_OK)
        st = tsr__gradient_edge(self->view_base, &ip->base_edge);
    if (st != TSR_OK)
        return st;
    ip->view = self;
    ip->outer = pending;
    pending = ip;
    return TSR_OK;
}

void tsr__view_rebase_end(tsr__inplace *ip)
{
    if (pending == ip)
        pending = ip->outer;
    tsr__node_release(ip->base_edge.node);
    ip->base_edge.node = NULL;
    ip->view = NULL;
}

tsr_status tsr__view_rebase(const tsr_tensor *out)
{
    if (!pending || pending->view != out)
        return TSR_OK;
    tsr__inplace *ip = pending;
    pending = ip->outer;
    tsr_tensor *view = ip->view, *base = view->view_base;
    tsr__node *node = NULL;
    tsr_status st =
        tsr__node_create("CopySlices", copy_slices_backward, 2, 1, 0, sizeof(remap_attrs), &node);
    if (st != TSR_OK)
        return st;
    remap_attrs *at = tsr__node_attrs(node);
    geometry_of(base, &at->from);
    geometry_of(view, &at->to);
    node->next[0] = ip->base_edge; /* taken over */
    ip->base_edge.node = NULL;
    if ((st = tsr__node_set_input(node, 1, view)) == TSR_OK &&
        (st = tsr__node_attach(node, 0, base)) == TSR_OK)
        st = tsr__view_refresh(view); /* now a view of the base's new history */
    tsr__node_release(node);
    return st;
}
