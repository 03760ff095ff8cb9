/* Tensor hooks (register_hook) and retain_grad. A leaf's hooks live on its
 * autograd record, because its AccumulateGrad node comes and goes; a
 * non-leaf's live on the grad_fn it had, keyed by output number, since the
 * node (not the tensor) is what the engine sees. retain_grad is an entry of
 * the same list that points weakly back at the tensor's record. */
#include "autograd/node.h"

#include "runtime/error.h"

#include <stdlib.h>
#include <string.h>

struct tsr_hook_handle {
    atomic_long refcount; /* the hook's entry and the user */
    atomic_bool removed;
};

static void handle_release(tsr_hook_handle *h)
{
    if (h && atomic_fetch_sub_explicit(&h->refcount, 1, memory_order_acq_rel) == 1)
        free(h);
}

void tsr__hooks_free(tsr__hook *list)
{
    while (list) {
        tsr__hook *next = list->next;
        handle_release(list->handle);
        free(list);
        list = next;
    }
}

static void append(tsr__hook **list, tsr__hook *h)
{
    while (*list)
        list = &(*list)->next;
    *list = h;
}

/* The list a hook of t goes to, and the output it watches. A stale view is
 * regenerated first (tsr__gradient_edge), so the hook sees the gradient of
 * the view's current value. */
static tsr_status hook_list(const char *name, tsr_tensor *t, tsr__hook ***list, int *output_nr)
{
    tsr__edge edge;
    tsr_status st = tsr__gradient_edge(t, &edge);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", name);
        return st;
    }
    tsr__node_release(edge.node); /* the tensor keeps it alive */
    tsr__autograd_meta *meta = t->autograd;
    if (meta->grad_fn) {
        *list = &meta->grad_fn->hooks;
        *output_nr = meta->output_nr;
    } else {
        *list = &meta->hooks;
        *output_nr = 0;
    }
    return TSR_OK;
}

tsr_status tsr_register_hook(tsr_tensor *t, tsr_tensor_hook_fn fn, void *user_data,
                             tsr_hook_handle **handle)
{
    if (!t || !fn)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "register_hook: tensor and fn must not be NULL");
    if (!tsr__requires_grad(t))
        return tsr__set_error(TSR_ERR_AUTOGRAD, "register_hook: cannot register a hook on a "
                                                "tensor that doesn't require gradient");
    tsr__hook **list;
    int output_nr;
    tsr_status st = hook_list("register_hook", t, &list, &output_nr);
    if (st != TSR_OK)
        return st;
    tsr__hook *h = calloc(1, sizeof *h);
    tsr_hook_handle *shared = handle ? calloc(1, sizeof *shared) : NULL;
    if (!h || (handle && !shared)) {
        free(h);
        free(shared);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "register_hook: out of host memory");
    }
    if (shared) {
        atomic_init(&shared->refcount, 2);
        atomic_init(&shared->removed, false);
        *handle = shared;
    }
    *h = (tsr__hook){.output_nr = output_nr, .fn = fn, .user_data = user_data, .handle = shared};
    append(list, h);
    return TSR_OK;
}

void tsr_remove_hook(tsr_hook_handle *handle)
{
    if (!handle)
        return;
    /* the entry stays in its list, skipped, until the list is freed: the
     * handle cannot reach the list, which may already be gone */
    atomic_store(&handle->removed, true);
    handle_release(handle);
}

tsr_status tsr_retain_grad(tsr_tensor *t)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "retain_grad: tensor must not be NULL");
    if (!tsr__requires_grad(t))
        return tsr__set_error(TSR_ERR_AUTOGRAD, "retain_grad: can't retain_grad on a tensor that "
                                                "has requires_grad=False");
    tsr__hook **list;
    int output_nr;
    tsr_status st = hook_list("retain_grad", t, &list, &output_nr);
    if (st != TSR_OK || !t->autograd->grad_fn || t->autograd->retains_grad)
        return st; /* leaves get .grad anyway */
    tsr__hook *h = calloc(1, sizeof *h);
    if (!h)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "retain_grad: out of host memory");
    *h = (tsr__hook){.output_nr = output_nr, .retain = t->autograd};
    append(list, h);
    t->autograd->retains_grad = true;
    return TSR_OK;
}

bool tsr_tensor_retains_grad(const tsr_tensor *t)
{
    return t && t->autograd && t->autograd->grad_fn && t->autograd->retains_grad;
}

/* Unlinks meta's retain entry from list; NULL if there is none. */
static tsr__hook *unlink_retain(tsr__hook **list, const tsr__autograd_meta *meta)
{
    for (; *list; list = &(*list)->next) {
        if ((*list)->retain == meta) {
            tsr__hook *h = *list;
            *list = h->next;
            h->next = NULL;
            return h;
        }
    }
    return NULL;
}

tsr_status tsr__retain_move(tsr__autograd_meta *meta, tsr__node *old_fn)
{
    tsr__hook *h = old_fn ? unlink_retain(&old_fn->hooks, meta) : NULL;
    if (!h && !(h = calloc(1, sizeof *h)))
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "retain_grad: out of host memory");
    *h = (tsr__hook){.output_nr = meta->output_nr, .retain = meta};
    append(&meta->grad_fn->hooks, h);
    return TSR_OK;
}

void tsr__retain_forget(tsr__autograd_meta *meta)
{
    if (meta->retains_grad && meta->grad_fn)
        free(unlink_retain(&meta->grad_fn->hooks, meta));
}

/* ---- running them ------------------------------------------------------ */

static bool same_geometry(const tsr_tensor *a, const tsr_tensor *b)
{
    return a->ndim == b->ndim && a->dtype == b->dtype &&
           a->storage->backend == b->storage->backend &&
           memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof *a->shape) == 0;
}

static tsr_status call_hook(const tsr__node *node, const tsr__hook *h, tsr_tensor **grad)
{
    tsr_tensor *replacement = NULL;
    tsr_clear_error();
    tsr_status st = h->fn(h->user_data, *grad, &replacement);
    if (st != TSR_OK) {
        tsr_tensor_release(replacement);
        if (!tsr_last_error()[0])
            return tsr__set_error(st, "backward: a hook on the gradient of %s's output %d failed",
                                  node->name, h->output_nr);
        tsr__prefix_error("backward: a hook on the gradient of %s's output %d", node->name,
                          h->output_nr);
        return st;
    }
    if (!replacement)
        return TSR_OK;
    if (!same_geometry(replacement, *grad)) {
        tsr_tensor_release(replacement);
        return tsr__set_error(TSR_ERR_AUTOGRAD,
                              "backward: a hook on the gradient of %s's output %d returned a "
                              "tensor whose shape, dtype or backend differs from the gradient's",
                              node->name, h->output_nr);
    }
    tsr_tensor_release(*grad);
    *grad = replacement;
    return TSR_OK;
}

/* retain_grad's accumulation, out of place as PyTorch's: a .grad handed out
 * earlier keeps its value. */
static tsr_status retain(tsr__autograd_meta *meta, const tsr_tensor *grad)
{
    tsr_tensor *sum = NULL;
    tsr_status st = meta->grad ? tsr_add(meta->grad, grad, &sum) : tsr_clone(grad, &sum);
    if (st != TSR_OK)
        return st;
    tsr_tensor_release(meta->grad);
    meta->grad = sum;
    return TSR_OK;
}

static tsr_status run_list(const tsr__node *node, const tsr__hook *list, tsr_tensor **buffer,
                           bool retaining)
{
    tsr_status st = TSR_OK;
    for (const tsr__hook *h = list; h && st == TSR_OK; h = h->next) {
        tsr_tensor **grad = &buffer[h->output_nr];
        if (!*grad || h->retain || (h->handle && atomic_load(&h->handle->removed)))
            continue;
        st = call_hook(node, h, grad);
    }
    for (const tsr__hook *h = list; h && st == TSR_OK && retaining; h = h->next) {
        if (h->retain && buffer[h->output_nr])
            st = retain(h->retain, buffer[h->output_nr]);
    }
    return st;
}

tsr_status tsr__hooks_run(tsr__node *node, tsr_tensor **buffer, bool retaining)
{
    tsr_status st = run_list(node, node->hooks, buffer, retaining);
    if (st == TSR_OK && node->leaf && node->leaf->autograd)
        st = run_list(node, node->leaf->autograd->hooks, buffer, false);
    return st;
}
