/* Tensor hooks (register_hook) and retain_grad. A leaf's hooks live on its
 * autograd record, because its AccumulateGrad node comes and goes; a
 * non-leaf's live on the grad_fn it had, keyed by output number, since the
 * node (not the tensor) is what the engine sees. retain_grad is an entry of
 * the same list that points weakly back at the tensor's record. Running
 * them is the engine's (hooks_run.c). */
#include "autograd/node.h"

#include "runtime/alloc.h"
#include "runtime/error.h"

#include <stdlib.h>
#include <string.h>

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
    tsr__hook *h = tsr__calloc(1, sizeof *h);
    tsr_hook_handle *shared = handle ? tsr__calloc(1, sizeof *shared) : NULL;
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
    tsr__hook *h = tsr__calloc(1, sizeof *h);
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
    if (!h && !(h = tsr__calloc(1, sizeof *h)))
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
