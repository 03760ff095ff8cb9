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
/* Sums t over the dims that broadcasting added or expanded so that it has
 * `shape`, in t's dtype. Differentiable. */
tsr_status tsr__sum_to_shape(const tsr_tensor *t, int ndim, const int64_t *shape, tsr_tensor **out);
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

/* Before an in-place op on self with these other operands: refuses what
 * autograd cannot record (a leaf that requires grad, a view of one) and
 * prepares the record. `needs_value` says whether the gradient formula reads self's
 * old value (which is then copied). */
tsr_status tsr__inplace_begin(const char *name, tsr_tensor *self, const tsr_operand *others,
                              int count, bool needs_value, tsr__inplace *ip);
/* The other operands to run the op with (self-aliasing ones replaced). */
const tsr_operand *tsr__inplace_operands(const tsr__inplace *ip, const tsr_operand *others);
/* Releases what begin kept; call whatever happened. */
void tsr__inplace_end(tsr__inplace *ip);

/* Views under in-place ops (autograd_views.c). A stale view (its base got a
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

/* ---- gradient expressions ---------------------------------------------- */

enum { TSR__GX_MAX = 24 };

/* A scratch list of temporaries for writing a formula as a chain of calls:
 * each helper returns NULL once any call failed, and tsr__gx_finish releases
 * every temporary and returns the first failure. */
typedef struct tsr__gx {
    tsr_status status;
    int count;
    tsr_tensor *temps[TSR__GX_MAX];
} tsr__gx;

tsr_tensor *tsr__gx_keep(tsr__gx *x, tsr_status st, tsr_tensor *t);
tsr_tensor *tsr__gx_saved(tsr__gx *x, tsr__node *node, int slot);
tsr_tensor *tsr__gx_binary(tsr__gx *x, tsr_op op, tsr_operand a, tsr_operand b);
tsr_tensor *tsr__gx_unary(tsr__gx *x, tsr_op op, const tsr_tensor *t);
tsr_tensor *tsr__gx_mul(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__gx_div(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__gx_add(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__gx_sub(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__gx_scale(tsr__gx *x, const tsr_tensor *a, double factor);
tsr_tensor *tsr__gx_add_scalar(tsr__gx *x, const tsr_tensor *a, double value);
/* value - a */
tsr_tensor *tsr__gx_rsub_scalar(tsr__gx *x, double value, const tsr_tensor *a);
/* where(condition, a, 0) */
tsr_tensor *tsr__gx_mask(tsr__gx *x, const tsr_tensor *condition, const tsr_tensor *a);
tsr_tensor *tsr__gx_where(tsr__gx *x, const tsr_tensor *condition, tsr_operand a, tsr_operand b);
tsr_tensor *tsr__gx_zeros_like(tsr__gx *x, const tsr_tensor *t);
/* Stores a new reference to t in *slot (when the formula succeeded so far). */
void tsr__gx_result(tsr__gx *x, tsr_tensor **slot, tsr_tensor *t);
tsr_status tsr__gx_finish(tsr__gx *x);

/* ---- records of the foundation's ops (grad_elementwise.c, grad_views.c) - */

tsr_status tsr__grad_record_binary(tsr_op op, tsr_operand a, tsr_operand b,
                                   const tsr_elementwise_attrs *attrs, tsr_tensor *out);
tsr_status tsr__grad_record_unary(tsr_op op, const tsr_tensor *t, int mode, tsr_tensor *out);
tsr_status tsr__grad_record_where(const tsr_tensor *condition, tsr_operand a, tsr_operand b,
                                  tsr_tensor *out);
/* clamp's operands as tsr__clamp_operands made them (x, min, max) and mode. */
tsr_status tsr__grad_record_clamp(const tsr_operand *operands, int mode, tsr_tensor *out);
/* Records self.op_(others) after it ran, from what begin prepared. */
tsr_status tsr__grad_record_inplace(tsr_op op, tsr__inplace *ip, const void *attrs,
                                    tsr_tensor *self);
/* Whether in-place op's formula reads self's old value. */
bool tsr__grad_inplace_needs_value(tsr_op op, const tsr_operand *others, int count);

/* The view ops (views.c) and their gradients. */
typedef enum tsr__view_kind {
    TSR__VIEW_RESHAPE,   /* view, reshape, squeeze, unsqueeze: reshape back */
    TSR__VIEW_TRANSPOSE, /* p[0], p[1]: the dims */
    TSR__VIEW_PERMUTE,   /* p[0..ndim): the permutation */
    TSR__VIEW_EXPAND,    /* sum back to the input's shape */
    TSR__VIEW_SLICE,     /* p = {dim, start, end, step}, normalised */
    TSR__VIEW_DIAGONAL,  /* p = {offset, dim1, dim2} */
} tsr__view_kind;

typedef struct tsr__view_args {
    tsr__view_kind kind;
    const char *name;
    int64_t p[TSR_MAX_DIMS];
} tsr__view_args;

/* Finishes a view op: makes result a view of t (or of t's base) and records
 * its node. */
tsr_status tsr__grad_view(tsr_status st, const tsr__view_args *args, const tsr_tensor *t,
                          tsr_tensor *result, bool is_view, tsr_tensor **out);
/* Finishes contiguous, clone, to(dtype), to(backend) (identity results skip). */
tsr_status tsr__grad_copy(tsr_status st, const char *name, const tsr_tensor *t, tsr_tensor *result,
                          tsr_tensor **out);

#endif
