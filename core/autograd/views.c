/* Views and in-place ops, as PyTorch's rebase_history: an in-place op on a
 * view gives the view's base a CopySlices node, and a view whose base got
 * a new history has its grad_fn regenerated from the base's. Both need the
 * view's place inside its base, which is read off the two tensors'
 * geometry (they share storage), so any chain of view ops is covered, as
 * PyTorch's as_strided fallback does. The two nodes' backward formulas
 * compute with ops, so they live with the views family (ops/views_grad.c),
 * which hands them down. */
#include "autograd/node.h"

#include "runtime/error.h"

#include <stdatomic.h>
#include <string.h>

/* Handed down by the views family (ops/views_grad.c) before it makes the
 * first view: no view can be stale or rebased before one exists. */
static _Atomic(const tsr__view_rules *) view_rules;

void tsr__view_rules_set(const tsr__view_rules *rules)
{
    /* Called for every view made: a store only the first time keeps the
     * cache line shared between threads. */
    if (atomic_load_explicit(&view_rules, memory_order_acquire) != rules)
        atomic_store_explicit(&view_rules, rules, memory_order_release);
}

static tsr_status rules(const char *name, const tsr__view_rules **out)
{
    *out = atomic_load_explicit(&view_rules, memory_order_acquire);
    if (*out)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_AUTOGRAD, "%s: the view rules were not handed to autograd", name);
}

void tsr__view_geometry_of(const tsr_tensor *t, tsr__view_geometry *g)
{
    g->ndim = t->ndim;
    g->offset = t->offset;
    memcpy(g->shape, t->shape, sizeof g->shape);
    memcpy(g->strides, t->strides, sizeof g->strides);
}


tsr_status tsr__record_one_to_one(const char *name, tsr__backward_fn fn, const tsr_tensor *input,
                                  const void *attrs, size_t attrs_size, tsr_tensor *out)
{
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, fn, 1, 1, 0, attrs_size, &node);
    tsr__node_allow_complex(node); /* views and remaps move elements: no conjugate */
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, input);
    if (st == TSR_OK) {
        memcpy(tsr__node_attrs(node), attrs, attrs_size);
        st = tsr__node_attach(node, 0, out);
    }
    tsr__node_release(node);
    return st;
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
    const tsr__view_rules *r;
    if ((st = rules("view", &r)) != TSR_OK)
        return st;
    tsr__remap_attrs at;
    tsr__view_geometry_of(base, &at.from);
    tsr__view_geometry_of(view, &at.to);
    /* the view's value now comes out of the base's new history */
    st = tsr__record_one_to_one("as_strided", r->as_strided, base, &at, sizeof at, view);
    if (st == TSR_OK)
        view->view_history = base->autograd ? base->autograd->history : 0;
    return st;
}

/* ---- CopySlices --------------------------------------------------------- */

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
    const tsr__view_rules *r;
    tsr_status st = rules("CopySlices", &r);
    if (st == TSR_OK)
        st = tsr__node_create("CopySlices", r->copy_slices, 2, 1, 0, sizeof(tsr__remap_attrs),
                              &node);
    if (st != TSR_OK)
        return st;
    tsr__node_allow_complex(node);
    tsr__remap_attrs *at = tsr__node_attrs(node);
    tsr__view_geometry_of(base, &at->from);
    tsr__view_geometry_of(view, &at->to);
    node->next[0] = ip->base_edge; /* taken over */
    ip->base_edge.node = NULL;
    if ((st = tsr__node_set_input(node, 1, view)) == TSR_OK &&
        (st = tsr__node_attach(node, 0, base)) == TSR_OK)
        st = tsr__view_refresh(view); /* now a view of the base's new history */
    tsr__node_release(node);
    return st;
}
