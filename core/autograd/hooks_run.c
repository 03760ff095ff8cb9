/* Running the tensor hooks and retain_grad entries of a node's outputs
 * during backward (the engine's side of hooks.c). */
#include "autograd/engine.h"

#include "runtime/error.h"

#include <string.h>

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
