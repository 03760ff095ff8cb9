/* Autograd nodes: creation, edges, saved tensors with version checks, and
 * their release. */
#include "autograd/node.h"

#include "runtime/alloc.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <pthread.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static size_t align_up(size_t n)
{
    size_t a = alignof(max_align_t);
    return (n + a - 1) / a * a;
}

tsr_status tsr__node_create(const char *name, tsr__backward_fn backward, int num_inputs,
                            int num_outputs, int num_saved, size_t attrs_size, tsr__node **out)
{
    size_t head = align_up(sizeof(tsr__node));
    size_t next = align_up((size_t)num_inputs * sizeof(tsr__edge));
    size_t outputs = align_up((size_t)num_outputs * sizeof(tsr__grad_meta));
    size_t saved = align_up((size_t)num_saved * sizeof(tsr__saved));
    char *block = tsr__calloc(1, head + next + outputs + saved + align_up(attrs_size));
    if (!block)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory for an autograd node",
                              name);
    tsr__node *node = (tsr__node *)block;
    atomic_init(&node->refcount, 1);
    node->name = name;
    node->backward = backward;
    node->num_inputs = num_inputs;
    node->num_outputs = num_outputs;
    node->num_saved = num_saved;
    node->next = (tsr__edge *)(block + head);
    node->outputs = (tsr__grad_meta *)(block + head + next);
    node->saved = (tsr__saved *)(block + head + next + outputs);
    node->attrs = block + head + next + outputs + saved;
    *out = node;
    return TSR_OK;
}

void tsr__node_allow_complex(tsr__node *node)
{
    if (node)
        node->complex_ok = true;
}

void tsr__node_retain(tsr__node *node)
{
    if (node)
        atomic_fetch_add_explicit(&node->refcount, 1, memory_order_relaxed);
}

/* A leaf's accumulator is kept weakly on its record and cleared when the
 * node dies, while other threads may be picking it up to use the leaf:
 * both happen under the record's stripe of these locks, so a node seen
 * there is not yet freed, and one whose count already reached zero is
 * replaced rather than revived. Only ops on leaves that require grad lock. */
static tsr__lock_stripes accumulator_locks = TSR__LOCK_STRIPES_INIT;

static pthread_mutex_t *accumulator_lock(const tsr__autograd_meta *meta)
{
    return tsr__lock_stripe(&accumulator_locks, meta);
}

/* Takes a reference to node unless its last one is already gone. */
static bool retain_if_alive(tsr__node *node)
{
    long count = atomic_load_explicit(&node->refcount, memory_order_relaxed);
    while (count > 0 && !atomic_compare_exchange_weak_explicit(&node->refcount, &count, count + 1,
                                                               memory_order_relaxed,
                                                               memory_order_relaxed))
        ;
    return count > 0;
}

/* Dropping the last reference to a long chain would recurse once per node;
 * nodes whose count reaches zero while one is being destroyed queue up on
 * the thread's list instead, so the depth stays constant. */
enum { PENDING_INLINE = 64 };
static _Thread_local tsr__node *pending_inline[PENDING_INLINE];
static _Thread_local tsr__node **pending = NULL;
static _Thread_local size_t pending_count, pending_capacity;
static _Thread_local bool draining;

static bool push_pending(tsr__node *node)
{
    if (!pending) {
        pending = pending_inline;
        pending_capacity = PENDING_INLINE;
    }
    if (pending_count == pending_capacity) {
        size_t capacity = pending_capacity * 2;
        tsr__node **grown = tsr__malloc(capacity * sizeof *grown);
        if (!grown)
            return false;
        memcpy(grown, pending, pending_count * sizeof *grown);
        if (pending != pending_inline)
            free(pending);
        pending = grown;
        pending_capacity = capacity;
    }
    pending[pending_count++] = node;
    return true;
}

static void clear_saved(tsr__saved *s)
{
    tsr_tensor_release(s->data);
    s->data = NULL;
    tsr__node_release(s->edge.node);
    s->edge.node = NULL;
}

static void destroy(tsr__node *node)
{
    for (int i = 0; i < node->num_saved; i++)
        clear_saved(&node->saved[i]);
    for (int i = 0; i < node->num_inputs; i++)
        tsr__node_release(node->next[i].node);
    tsr__hooks_free(node->hooks);
    tsr__autograd_meta *meta = node->leaf ? node->leaf->autograd : NULL;
    if (meta) {
        pthread_mutex_lock(accumulator_lock(meta));
        if (meta->accumulator == node)
            meta->accumulator = NULL;
        pthread_mutex_unlock(accumulator_lock(meta));
    }
    tsr_tensor_release(node->leaf); /* outside the lock: it may free nodes */
    free(node);
}

void tsr__node_release(tsr__node *node)
{
    if (!node || atomic_fetch_sub_explicit(&node->refcount, 1, memory_order_acq_rel) != 1)
        return;
    if (!push_pending(node)) {
        destroy(node); /* out of memory for the list: recurse instead */
        return;
    }
    if (draining)
        return;
    draining = true;
    while (pending_count > 0)
        destroy(pending[--pending_count]);
    draining = false;
    if (pending != pending_inline) {
        free(pending);
        pending = pending_inline;
        pending_capacity = PENDING_INLINE;
    }
}

void tsr__node_release_saved(tsr__node *node)
{
    for (int i = 0; i < node->num_saved; i++) {
        /* only a node that held something cannot run again (PyTorch's rule) */
        node->released = node->released || node->saved[i].data;
        clear_saved(&node->saved[i]);
    }
}

const char *tsr__node_name(const tsr__node *node)
{
    return node->name;
}

void *tsr__node_attrs(tsr__node *node)
{
    return node->attrs;
}

int tsr__node_num_inputs(const tsr__node *node)
{
    return node->num_inputs;
}

void tsr__grad_meta_of(const tsr_tensor *t, tsr__grad_meta *meta)
{
    meta->backend = t->storage->backend;
    meta->dtype = t->dtype;
    meta->ndim = t->ndim;
    memcpy(meta->shape, t->shape, (size_t)t->ndim * sizeof *t->shape);
}

/* ---- tensors' autograd records ----------------------------------------- */

/* Threads may make the record of a tensor they share at once: the first
 * to install its record wins and the others free theirs. t->autograd is a
 * plain pointer, read plainly on the ops' hot path, so the install uses
 * the compilers' atomic builtins rather than an _Atomic field. */
tsr__autograd_meta *tsr__autograd_meta_get(tsr_tensor *t)
{
    tsr__autograd_meta *meta = __atomic_load_n(&t->autograd, __ATOMIC_ACQUIRE);
    if (meta)
        return meta;
    tsr__tensor_set_autograd_release(tsr__autograd_meta_free);
    tsr__autograd_meta *made = tsr__calloc(1, sizeof *made);
    if (!made)
        return NULL;
    if (__atomic_compare_exchange_n(&t->autograd, &meta, made, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return made;
    free(made);
    return meta;
}

void tsr__autograd_meta_free(tsr__autograd_meta *meta)
{
    if (!meta)
        return;
    tsr__retain_forget(meta);
    tsr__hooks_free(meta->hooks);
    tsr__node_release(meta->grad_fn);
    tsr_tensor_release(meta->grad);
    free(meta);
}

/* Under the record's accumulator lock. */
static tsr_status make_accumulator(tsr_tensor *leaf, tsr__node **out)
{
    tsr__node *node;
    tsr_status st = tsr__node_create("AccumulateGrad", NULL, 0, 1, 0, 0, &node);
    if (st != TSR_OK)
        return st;
    tsr_tensor_retain(leaf);
    node->leaf = leaf;
    tsr__grad_meta_of(leaf, &node->outputs[0]);
    leaf->autograd->accumulator = node;
    *out = node;
    return TSR_OK;
}

tsr_status tsr__gradient_edge(const tsr_tensor *t, tsr__edge *out)
{
    *out = (tsr__edge){NULL, 0};
    tsr_status st = tsr__view_refresh(t);
    if (st != TSR_OK || !tsr__requires_grad(t))
        return st;
    tsr__autograd_meta *meta = t->autograd;
    if (meta->grad_fn) {
        tsr__node_retain(meta->grad_fn);
        *out = (tsr__edge){meta->grad_fn, meta->output_nr};
        return TSR_OK;
    }
    pthread_mutex_lock(accumulator_lock(meta));
    tsr__node *node = meta->accumulator;
    if (!node || !retain_if_alive(node))
        st = make_accumulator((tsr_tensor *)t, &node); /* a dying one is replaced */
    pthread_mutex_unlock(accumulator_lock(meta));
    if (st == TSR_OK)
        *out = (tsr__edge){node, 0};
    return st;
}

tsr_status tsr__node_set_input(tsr__node *node, int i, const tsr_tensor *t)
{
    tsr__edge edge;
    tsr_status st = tsr__gradient_edge(t, &edge);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", node->name);
        return st;
    }
    tsr__node_release(node->next[i].node);
    node->next[i] = edge;
    return TSR_OK;
}

bool tsr__node_needs_grad(const tsr__node *node, int i)
{
    return i >= 0 && i < node->num_inputs && node->next[i].node != NULL;
}

const tsr__grad_meta *tsr__node_input_meta(const tsr__node *node, int i)
{
    const tsr__edge *e = &node->next[i];
    return &e->node->outputs[e->input_nr];
}

tsr_status tsr__node_attach(tsr__node *node, int output_nr, tsr_tensor *out)
{
    tsr__autograd_meta *meta = tsr__autograd_meta_get(out);
    if (!meta)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory for autograd",
                              node->name);
    tsr__node *old_fn = meta->grad_fn;
    tsr__node_retain(node);
    meta->grad_fn = node;
    meta->output_nr = output_nr;
    meta->requires_grad = true;
    meta->history++;
    tsr__grad_meta_of(out, &node->outputs[output_nr]);
    tsr_status st = meta->retains_grad ? tsr__retain_move(meta, old_fn) : TSR_OK;
    tsr__node_release(old_fn);
    return st == TSR_OK ? tsr__view_rebase(out) : st;
}

/* ---- saved tensors ------------------------------------------------------ */

static tsr_status alias(const tsr_tensor *t, tsr_tensor **out)
{
    return tsr__tensor_restride(t, t->ndim, t->shape, t->strides, t->offset, out);
}

tsr_status tsr__node_save(tsr__node *node, int slot, const tsr_tensor *t, const char *what)
{
    tsr__saved *s = &node->saved[slot];
    clear_saved(s);
    if (!t)
        return TSR_OK;
    tsr_status st = alias(t, &s->data);
    if (st != TSR_OK)
        tsr__prefix_error("%s: saving %s for backward", node->name, what ? what : "an input");
    if (st == TSR_OK)
        st = tsr__gradient_edge(t, &s->edge);
    if (st != TSR_OK) {
        clear_saved(s);
        return st;
    }
    s->version = tsr_tensor_version(t);
    s->is_output = false;
    s->what = what;
    return TSR_OK;
}

tsr_status tsr__node_save_output(tsr__node *node, int slot, const tsr_tensor *out, int output_nr)
{
    tsr__saved *s = &node->saved[slot];
    clear_saved(s);
    tsr_status st = alias(out, &s->data);
    if (st != TSR_OK) {
        tsr__prefix_error("%s: saving its output for backward", node->name);
        return st;
    }
    s->version = tsr_tensor_version(out);
    s->is_output = true;
    s->output_nr = output_nr;
    s->what = "result";
    return TSR_OK;
}

static tsr_status check_version(const tsr__node *node, const tsr__saved *s)
{
    uint64_t now = tsr_tensor_version(s->data);
    if (now == s->version)
        return TSR_OK;
    char shape[160];
    return tsr__set_error(TSR_ERR_AUTOGRAD,
                          "one of the variables needed for gradient computation has been modified "
                          "by an inplace operation: %s's saved %s (a %s tensor of shape %s) is at "
                          "version %llu; expected version %llu instead",
                          node->name, s->what, tsr_dtype_name(s->data->dtype),
                          tsr__shape_str(s->data->ndim, s->data->shape, shape, sizeof shape),
                          (unsigned long long)now, (unsigned long long)s->version);
}

tsr_status tsr__node_saved(tsr__node *node, int slot, tsr_tensor **out)
{
    tsr__saved *s = &node->saved[slot];
    if (!s->data)
        return tsr__set_error(TSR_ERR_AUTOGRAD,
                              "%s: trying to backward through the graph a second time (or to read "
                              "saved tensors after they were freed); pass TSR_GRAD_RETAIN_GRAPH to "
                              "the first backward to walk the graph again",
                              node->name);
    tsr_status st = check_version(node, s);
    if (st != TSR_OK)
        return st;
    tsr__edge edge = s->is_output ? (tsr__edge){node, s->output_nr} : s->edge;
    if (!tsr_grad_mode_enabled() || !edge.node) {
        tsr_tensor_retain(s->data);
        *out = s->data;
        return TSR_OK;
    }
    /* Differentiating the backward: the value rejoins its history. */
    tsr_tensor *t;
    if ((st = alias(s->data, &t)) != TSR_OK)
        return st;
    tsr__autograd_meta *meta = tsr__autograd_meta_get(t);
    if (!meta) {
        tsr_tensor_release(t);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory for autograd",
                              node->name);
    }
    tsr__node_retain(edge.node);
    meta->grad_fn = edge.node;
    meta->output_nr = edge.input_nr;
    meta->requires_grad = true;
    *out = t;
    return TSR_OK;
}

tsr_status tsr__deliver(tsr_status st, tsr_tensor *result, tsr_tensor **out)
{
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}

static tsr_status unimplemented_backward(tsr__node *node, tsr_tensor *const *grads,
                                         tsr_tensor **grad_inputs)
{
    (void)grads, (void)grad_inputs;
    return tsr__set_error(TSR_ERR_UNIMPLEMENTED, "the derivative of %s is not implemented",
                          node->name);
}

tsr_status tsr__grad_record_unimplemented(const char *name, const tsr_tensor *const *inputs,
                                          int count, tsr_tensor *out)
{
    if (!tsr__grad_wanted(inputs, count) || !tsr__grad_dtype(out->dtype))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, unimplemented_backward, count, 1, 0, 0, &node);
    tsr__node_allow_complex(node); /* it fails either way, with its own message */
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}
