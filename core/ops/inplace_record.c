/* Recording in-place ops: what every in-place op does before and after it
 * writes self, so that autograd sees self's old value and history (a leaf
 * that requires grad, or a view of one, is refused). */
#include "ops/inplace.h"

#include "runtime/error.h"

#include <string.h>

static tsr_status out_of_memory(const char *name)
{
    return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory for autograd", name);
}

/* Gives copy the gradient edge of from, so that a node recorded on copy
 * sends its gradient into from's history. */
static tsr_status take_history(tsr_tensor *copy, const tsr_tensor *from)
{
    tsr__edge edge;
    tsr_status st = tsr__gradient_edge(from, &edge);
    if (st != TSR_OK || !edge.node)
        return st;
    tsr__autograd_meta *meta = tsr__autograd_meta_get(copy);
    if (!meta) {
        tsr__node_release(edge.node);
        return out_of_memory("in-place");
    }
    meta->grad_fn = edge.node;
    meta->output_nr = edge.input_nr;
    meta->requires_grad = true;
    return TSR_OK;
}

static tsr_status refuse(const char *name, const tsr_tensor *self)
{
    const tsr__autograd_meta *meta = self->autograd;
    if (meta && meta->requires_grad && !meta->grad_fn)
        return tsr__set_error(TSR_ERR_AUTOGRAD,
                              "%s: a leaf tensor that requires grad is being used in an in-place "
                              "operation; switch grad mode off around it "
                              "(tsr_grad_mode_set(false)) or work on a clone",
                              name);
    const tsr_tensor *base = self->view_base;
    if (base && base->autograd && base->autograd->requires_grad && !base->autograd->grad_fn)
        return tsr__set_error(TSR_ERR_AUTOGRAD,
                              "%s: a view of a leaf tensor that requires grad is being used in an "
                              "in-place operation",
                              name);
    return TSR_OK;
}

static tsr_status copy_with_history(const tsr_tensor *t, bool copy_value, tsr_tensor **out)
{
    bool previous = tsr_grad_mode_set(false);
    tsr_status st = copy_value ? tsr_clone(t, out) : tsr_detach(t, out);
    tsr_grad_mode_set(previous);
    if (st == TSR_OK && (st = take_history(*out, t)) != TSR_OK) {
        /* *out is the caller's slot, which tsr__inplace_end releases */
        tsr_tensor_release(*out);
        *out = NULL;
    }
    return st;
}

tsr_status tsr__inplace_begin(const char *name, tsr_tensor *self, const tsr_operand *others,
                              int count, bool needs_value, tsr__inplace *ip)
{
    memset(ip, 0, sizeof *ip);
    if (count < 0 || count > 3)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: at most 3 other operands", name);
    const tsr_tensor *tensors[4] = {self};
    for (int i = 0; i < count; i++) {
        tensors[i + 1] = others[i].tensor;
        ip->others[i] = others[i];
    }
    ip->count = count;
    if (!tsr__grad_wanted(tensors, count + 1))
        return TSR_OK;
    tsr_status st = refuse(name, self);
    if (st == TSR_OK)
        st = copy_with_history(self, needs_value, &ip->old);
    if (st == TSR_OK && self->view_base)
        st = tsr__view_rebase_begin(name, ip, self);
    /* An operand on self's storage would be read after the write. */
    for (int i = 0; i < count && st == TSR_OK; i++) {
        const tsr_tensor *o = others[i].tensor;
        if (o && tsr__requires_grad(o) && o->storage == self->storage) {
            st = copy_with_history(o, true, &ip->copies[i]);
            if (st == TSR_OK)
                ip->others[i] = tsr_operand_tensor(ip->copies[i]);
        }
    }
    if (st != TSR_OK) {
        tsr__inplace_end(ip);
        return st;
    }
    ip->active = true;
    return TSR_OK;
}

const tsr_operand *tsr__inplace_operands(const tsr__inplace *ip, const tsr_operand *others)
{
    return ip->active ? ip->others : others;
}

void tsr__inplace_end(tsr__inplace *ip)
{
    tsr__view_rebase_end(ip);
    tsr_tensor_release(ip->old);
    ip->old = NULL;
    for (int i = 0; i < 3; i++) {
        tsr_tensor_release(ip->copies[i]);
        ip->copies[i] = NULL;
    }
    ip->active = false;
}
