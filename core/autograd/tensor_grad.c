/* Autograd on tensors: requires_grad, .grad and its accumulation, detach,
 * and the rules for in-place ops. */
#include "autograd/node.h"

#include "runtime/error.h"
#include "tensor/shape.h"

#include <string.h>

static tsr_status out_of_memory(const char *name)
{
    return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory for autograd", name);
}

tsr_status tsr_tensor_set_requires_grad(tsr_tensor *t, bool requires_grad)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "requires_grad_: tensor must not be NULL");
    tsr__autograd_meta *meta = t->autograd;
    if (!requires_grad) {
        if (meta && meta->grad_fn)
            return tsr__set_error(TSR_ERR_AUTOGRAD,
                                  "requires_grad_: you can only change requires_grad flags of "
                                  "leaf tensors; use tsr_detach for a tensor without history");
        if (meta)
            meta->requires_grad = false;
        return TSR_OK;
    }
    if (!tsr_dtype_is_floating(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "requires_grad_: only tensors of floating point dtype can require "
                              "gradients, got %s (complex autograd is not implemented)",
                              tsr_dtype_name(t->dtype));
    if (!(meta = tsr__autograd_meta_get(t)))
        return out_of_memory("requires_grad_");
    meta->requires_grad = true;
    return TSR_OK;
}

bool tsr_tensor_requires_grad(const tsr_tensor *t)
{
    return tsr__requires_grad(t);
}

bool tsr_tensor_is_leaf(const tsr_tensor *t)
{
    if (t && !tsr__view_is_stale(t))
        return !t->autograd || !t->autograd->grad_fn;
    return !tsr__requires_grad(t); /* a stale view gets history when used */
}

const char *tsr_tensor_grad_fn_name(const tsr_tensor *t)
{
    if (t && tsr__view_refresh(t) != TSR_OK)
        tsr_clear_error(); /* the old name is all there is to report */
    return t && t->autograd && t->autograd->grad_fn ? tsr__node_name(t->autograd->grad_fn) : NULL;
}

tsr_status tsr_tensor_grad(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "grad: tensor and out must not be NULL");
    tsr_tensor *grad = t->autograd ? t->autograd->grad : NULL;
    tsr_tensor_retain(grad);
    *out = grad;
    return TSR_OK;
}

static bool same_shape(int ndim_a, const int64_t *a, int ndim_b, const int64_t *b)
{
    return ndim_a == ndim_b && memcmp(a, b, (size_t)ndim_a * sizeof *a) == 0;
}

tsr_status tsr_tensor_set_grad(tsr_tensor *t, const tsr_tensor *grad)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "set_grad: tensor must not be NULL");
    if (grad) {
        char a[160], b[160];
        if (!same_shape(t->ndim, t->shape, grad->ndim, grad->shape))
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "set_grad: assigned grad has shape %s, but the "
                                  "tensor has shape %s",
                                  tsr__shape_str(grad->ndim, grad->shape, a, sizeof a),
                                  tsr__shape_str(t->ndim, t->shape, b, sizeof b));
        if (grad->dtype != t->dtype)
            return tsr__set_error(TSR_ERR_DTYPE,
                                  "set_grad: assigned grad has dtype %s, but the "
                                  "tensor has dtype %s",
                                  tsr_dtype_name(grad->dtype), tsr_dtype_name(t->dtype));
        if (grad->storage->backend != t->storage->backend)
            return tsr__set_error(TSR_ERR_DEVICE_MISMATCH, "set_grad: assigned grad lives on "
                                                           "another backend than the tensor");
    }
    tsr__autograd_meta *meta = grad ? tsr__autograd_meta_get(t) : t->autograd;
    if (grad && !meta)
        return out_of_memory("set_grad");
    if (!meta)
        return TSR_OK;
    tsr_tensor_retain(grad);
    tsr_tensor_release(meta->grad);
    meta->grad = (tsr_tensor *)grad;
    return TSR_OK;
}

tsr_status tsr_tensor_zero_grad(tsr_tensor *t)
{
    return tsr_tensor_set_grad(t, NULL);
}

tsr_status tsr_detach(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "detach: input and out must not be NULL");
    return tsr__tensor_restride(t, t->ndim, t->shape, t->strides, t->offset, out);
}

/* ---- accumulation into leaves ------------------------------------------ */

/* Whether nobody but the engine can see g, so .grad may take it as it is. */
static bool exclusive(const tsr_tensor *g)
{
    return atomic_load(&g->refcount) == 1 && atomic_load(&g->storage->refcount) == 1 &&
           !g->autograd && tsr_tensor_is_contiguous(g);
}

/* As PyTorch's AccumulateGrad: the first gradient becomes .grad (taken or
 * cloned), later ones are added in place, or out of place when a graph is
 * being built (create_graph) or .grad already has one. */
tsr_status tsr__accumulate_grad(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **unused)
{
    (void)unused;
    tsr__autograd_meta *meta = node->leaf->autograd;
    tsr_tensor *g = grads[0], *sum = NULL;
    bool create_graph = tsr_grad_mode_enabled();
    tsr_status st = TSR_OK;
    if (!meta->grad) {
        if (!create_graph && exclusive(g)) {
            tsr_tensor_retain(g);
            meta->grad = g;
            return TSR_OK;
        }
        if ((st = tsr_clone(g, &sum)) == TSR_OK)
            meta->grad = sum;
        return st;
    }
    if (create_graph || tsr__requires_grad(meta->grad)) {
        if ((st = tsr_add(meta->grad, g, &sum)) == TSR_OK) {
            tsr_tensor_release(meta->grad);
            meta->grad = sum;
        }
        return st;
    }
    return tsr_add_(meta->grad, tsr_operand_tensor(g), tsr_scalar_int(1));
}

/* ---- in-place ops ------------------------------------------------------- */

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
    if (st == TSR_OK && (st = take_history(*out, t)) != TSR_OK)
        tsr_tensor_release(*out);
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
