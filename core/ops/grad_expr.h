/* Writing backward formulas with public ops: recording a node, tsr__gx
 * chains and sum_to_shape (internal). */
#ifndef TSR_CORE_OPS_GRAD_EXPR_H
#define TSR_CORE_OPS_GRAD_EXPR_H

#include "autograd/graph.h"

/* Sums t over the dims that broadcasting added or expanded so that it has
 * `shape`, in t's dtype. Differentiable. */
tsr_status tsr__sum_to_shape(const tsr_tensor *t, int ndim, const int64_t *shape, tsr_tensor **out);

/* ---- recording a node -------------------------------------------------- */

/* A node for `name` with one output and its inputs connected (NULL entries
 * and tensors that need no gradient get no edge), or NULL in *node when no
 * input wants a gradient or out is not floating. On failure *node is NULL. */
tsr_status tsr__grad_node_start(const char *name, tsr__backward_fn fn,
                                const tsr_tensor *const *inputs, int count, int saved,
                                size_t attrs_size, const tsr_tensor *out, tsr__node **node);
/* Ends what tsr__grad_node_start began (nothing when node is NULL): saves
 * `saved` (NULL: nothing) in slot 0 under the name "index", attaches out
 * and lets out own the node. Returns st or the first failure after it. */
tsr_status tsr__grad_node_finish(tsr__node *node, tsr_status st, const tsr_tensor *saved,
                                 tsr_tensor *out);
/* zeros with the shape of node's input i and g's dtype and backend. */
tsr_status tsr__grad_zeros_for(tsr__node *node, int i, const tsr_tensor *g, tsr_tensor **out);
/* A new reference to g in *out (a gradient passed through unchanged). */
tsr_status tsr__grad_retain(const tsr_tensor *g, tsr_tensor **out);

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
/* A double as an operand. */
tsr_operand tsr__gx_float(double v);
/* op(t, other) for a t that may be NULL (a failed step). */
tsr_tensor *tsr__gx_compare(tsr__gx *x, tsr_op op, const tsr_tensor *t, tsr_operand other);
/* g itself, as a temporary of x. */
tsr_tensor *tsr__gx_same(tsr__gx *x, const tsr_tensor *g);
/* Positions 0 .. n-1 of a dim of size n (int64), shaped to broadcast along
 * dim `at` of a tensor of rank `ndim`. */
tsr_tensor *tsr__gx_positions(tsr__gx *x, tsr_backend *backend, int64_t n, int at, int ndim);
/* where(condition, a, 0) */
tsr_tensor *tsr__gx_mask(tsr__gx *x, const tsr_tensor *condition, const tsr_tensor *a);
tsr_tensor *tsr__gx_where(tsr__gx *x, const tsr_tensor *condition, tsr_operand a, tsr_operand b);
tsr_tensor *tsr__gx_zeros_like(tsr__gx *x, const tsr_tensor *t);
/* ---- complex tensors (docs/autograd.md, "Complex numbers") ------------- */

/* conj(t), recorded; t itself (no new temporary) when t is real, so a
 * formula written as PyTorch's `grad * f'(x).conj()` costs nothing for real
 * tensors. NULL stays NULL. */
tsr_tensor *tsr__gx_conj(tsr__gx *x, const tsr_tensor *t);
/* An operand with its tensor or complex scalar conjugated. */
tsr_operand tsr__gx_conj_operand(tsr__gx *x, tsr_operand o);
tsr_scalar tsr__gx_conj_scalar(tsr_scalar s);
/* Re(t) in t's real dtype, recorded; t itself when t is real. */
tsr_tensor *tsr__gx_real(tsr__gx *x, const tsr_tensor *t);
/* torch.sgn: t / |t| (0 where t == 0) for complex t, sign(t) for real t. */
tsr_tensor *tsr__gx_sgn(tsr__gx *x, const tsr_tensor *t);

/* Stores a new reference to t in *slot (when the formula succeeded so far). */
void tsr__gx_result(tsr__gx *x, tsr_tensor **slot, tsr_tensor *t);
tsr_status tsr__gx_finish(tsr__gx *x);

#endif
