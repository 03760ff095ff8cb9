/* Writing backward formulas with public ops: tsr__gx chains and
 * sum_to_shape (internal). */
#ifndef TSR_CORE_OPS_GRAD_EXPR_H
#define TSR_CORE_OPS_GRAD_EXPR_H

#include "autograd/graph.h"

/* Sums t over the dims that broadcasting added or expanded so that it has
 * `shape`, in t's dtype. Differentiable. */
tsr_status tsr__sum_to_shape(const tsr_tensor *t, int ndim, const int64_t *shape, tsr_tensor **out);

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

#endif
