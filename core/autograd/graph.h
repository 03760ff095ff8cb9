/* Autograd internals: nodes, edges, saved tensors, and the helpers op
 * families use to record their gradients (internal). docs/autograd.md has
 * the walk-through; "How a new op adds its gradient" shows a whole example. */
#ifndef TSR_CORE_AUTOGRAD_H
#define TSR_CORE_AUTOGRAD_H

#include "tensor/tensor.h"

typedef struct tsr__node tsr__node;
typedef struct tsr__hook tsr__hook;

/* Where a gradient goes: input `input_nr` of `node` (the node's output of
 * that number in the forward direction). node NULL means nowhere. */
typedef struct tsr__edge {
    tsr__node *node;
    int input_nr;
} tsr__edge;

/* What autograd keeps on a tensor (tsr_tensor.autograd, NULL until needed). */
typedef struct tsr__autograd_meta {
    bool requires_grad;
    tsr__node *grad_fn;     /* strong; NULL for leaves */
    int output_nr;          /* which output of grad_fn this tensor is */
    tsr__node *accumulator; /* weak: a leaf's AccumulateGrad node while it exists */
    tsr_tensor *grad;       /* .grad, owned */
    uint64_t history;       /* bumped whenever grad_fn is set: views compare it */
    bool retains_grad;      /* tsr_retain_grad: an entry on grad_fn fills .grad */
    tsr__hook *hooks;       /* a leaf's tensor hooks (owned); a non-leaf's live on grad_fn */
} tsr__autograd_meta;

/* Shape, dtype and backend of one forward output: what its gradient must match. */
typedef struct tsr__grad_meta {
    tsr_backend *backend;
    tsr_dtype dtype;
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
} tsr__grad_meta;

/* A node's backward: grads[i] is d(loss)/d(output i) (never NULL; zeros when
 * nothing flowed into an output). Writes new references to grad_inputs[i]
 * for the inputs with tsr__node_needs_grad, leaving the rest NULL; may leave
 * a needed one NULL when it is zero. A gradient may have the output's
 * broadcast shape or another dtype: the engine sums it to the input's shape
 * and converts it. Runs with grad mode on exactly when the caller asked for
 * create_graph, so formulas written with public ops are differentiable. */
typedef tsr_status (*tsr__backward_fn)(tsr__node *node, tsr_tensor *const *grads,
                                       tsr_tensor **grad_inputs);

/* ---- grad mode ---------------------------------------------------------- */

/* Whether an op with these tensor inputs (NULLs skipped) must record a node:
 * grad mode is on and an input requires grad or is a stale view (whose
 * recording then fails, naming the problem). */
bool tsr__grad_wanted(const tsr_tensor *const *inputs, int count);
/* Whether results of this dtype carry gradients: real floating and complex
 * (PyTorch's rule; integer and bool results record nothing). */
bool tsr__grad_dtype(tsr_dtype dtype);
bool tsr__requires_grad(const tsr_tensor *t);
/* A view whose base got a new history after the view was made. */
bool tsr__view_is_stale(const tsr_tensor *t);

/* ---- nodes -------------------------------------------------------------- */

/* A node for op `name` (a string literal: "mul") with its edges unset, no
 * saved tensors yet and `attrs_size` zeroed bytes of attributes. */
tsr_status tsr__node_create(const char *name, tsr__backward_fn backward, int num_inputs,
                            int num_outputs, int num_saved, size_t attrs_size, tsr__node **out);
void tsr__node_retain(tsr__node *node);
void tsr__node_release(tsr__node *node);
const char *tsr__node_name(const tsr__node *node);
void *tsr__node_attrs(tsr__node *node);
int tsr__node_num_inputs(const tsr__node *node);
/* Connects forward input i to t's gradient edge (nothing for NULL or a
 * tensor that does not require grad). */
tsr_status tsr__node_set_input(tsr__node *node, int i, const tsr_tensor *t);
/* Declares that node's formula is right for complex tensors: it gives
 * PyTorch's conjugate Wirtinger gradients (docs/autograd.md, "Complex
 * numbers"). The engine refuses to run a node without it when one of its
 * outputs or gradient-receiving inputs is complex (TSR_ERR_UNIMPLEMENTED),
 * so a real-only formula never silently gives a wrong complex gradient. */
void tsr__node_allow_complex(tsr__node *node);
/* Whether input i receives a gradient. */
bool tsr__node_needs_grad(const tsr__node *node, int i);
/* Shape, dtype and backend of the tensor behind input i (needs_grad only). */
const tsr__grad_meta *tsr__node_input_meta(const tsr__node *node, int i);

/* Saves forward input t in slot `slot` with its current version. `what`
 * names it in errors ("self", "other"). NULL t leaves the slot empty. */
tsr_status tsr__node_save(tsr__node *node, int slot, const tsr_tensor *t, const char *what);
/* Saves output `output_nr` of this node (call after tsr__node_attach). The
 * node keeps the output's data, not the output, so there is no cycle. */
tsr_status tsr__node_save_output(tsr__node *node, int slot, const tsr_tensor *out, int output_nr);
/* A saved tensor as a new reference, after checking that no in-place op
 * changed it since it was saved (TSR_ERR_AUTOGRAD naming the op otherwise).
 * Under grad mode it is connected to the graph again, for double backward. */
tsr_status tsr__node_saved(tsr__node *node, int slot, tsr_tensor **out);
/* Makes `out` output `output_nr` of node: it now requires grad and its
 * grad_fn is node (out's previous history, if any, is dropped). */
tsr_status tsr__node_attach(tsr__node *node, int output_nr, tsr_tensor *out);

/* ---- helpers for ops ---------------------------------------------------- */

/* Records a node whose backward fails with TSR_ERR_UNIMPLEMENTED ("the
 * derivative of NAME is not implemented"): for floating results of ops that
 * have no formula yet, so a missing gradient is an error, never a silent
 * zero. Does nothing unless tsr__grad_wanted(inputs). */
tsr_status tsr__grad_record_unimplemented(const char *name, const tsr_tensor *const *inputs,
                                          int count, tsr_tensor *out);

/* On success writes result to *out; on failure releases result. */
tsr_status tsr__deliver(tsr_status st, tsr_tensor *result, tsr_tensor **out);
/* The gradient edge of t: (grad_fn, output_nr), or the leaf's accumulator. */
tsr_status tsr__gradient_edge(const tsr_tensor *t, tsr__edge *out);
/* Releases a tensor's autograd record (from tsr_tensor_release). */
void tsr__autograd_meta_free(tsr__autograd_meta *meta);
tsr__autograd_meta *tsr__autograd_meta_get(tsr_tensor *t); /* creates it; NULL if out of memory */

/* ---- in-place ops ------------------------------------------------------- */

/* What an in-place op on self must remember to record its node afterwards. */
typedef struct tsr__inplace {
    bool active;     /* a node will be recorded */
    tsr_tensor *old; /* self before the op, carrying self's old history */
    tsr_operand others[3];
    tsr_tensor *copies[3]; /* others that shared self's storage, copied */
    int count;
    tsr_tensor *view;     /* self when it is a view: its base gets a CopySlices node */
    tsr__edge base_edge;  /* then the base's history before the op (strong) */
    struct tsr__inplace *outer; /* an in-place op on a view running around this one */
} tsr__inplace;

/* Where a view sits in its storage, and the attributes of a node that
 * moves a gradient from one such geometry to another (as_strided remaps,
 * CopySlices). */
typedef struct tsr__view_geometry {
    int ndim;
    int64_t offset;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS];
} tsr__view_geometry;

typedef struct tsr__remap_attrs {
    tsr__view_geometry from, to;
} tsr__remap_attrs;

void tsr__view_geometry_of(const tsr_tensor *t, tsr__view_geometry *g);

/* The backward formulas of the nodes autograd/views.c records by itself.
 * They compute with ops, a layer above, so the views family hands them down
 * (tsr__view_rules_set) before it makes the first view. */
typedef struct tsr__view_rules {
    tsr__backward_fn as_strided;  /* remap: grads[0] from attrs.to back to attrs.from */
    tsr__backward_fn copy_slices; /* a base's gradient split around its view */
} tsr__view_rules;

void tsr__view_rules_set(const tsr__view_rules *rules);

/* Views under in-place ops (autograd/views.c). A stale view (its base got a
 * new history since) gets a grad_fn reading it out of the base's current
 * history; tsr__gradient_edge calls this, so every use sees fresh history. */
tsr_status tsr__view_refresh(const tsr_tensor *view);
/* From tsr__inplace_begin when self is a view: remembers the base's history
 * so that attaching the op's node to self (tsr__node_attach calls
 * tsr__view_rebase) gives the base a CopySlices node and self a grad_fn
 * through it. end forgets it. */
tsr_status tsr__view_rebase_begin(const char *name, tsr__inplace *ip, tsr_tensor *self);
void tsr__view_rebase_end(tsr__inplace *ip);
tsr_status tsr__view_rebase(const tsr_tensor *out);

#endif
