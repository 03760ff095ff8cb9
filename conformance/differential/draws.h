/* What the differential mode draws for each op: a draw function per adapter
 * name, building a case of the drawn dtype in a conf_draft, and flags that
 * say how results compare and which in-place form to check with guards.
 *
 * The tables are split by op family (diff_ops_elementwise.c,
 * diff_ops_index.c); conf_diff_op_find searches them. */
#ifndef CONF_DIFF_OPS_H
#define CONF_DIFF_OPS_H

#include "differential/case.h"

enum {
    /* Results are compared bit for bit (signed zeros included; NaN matches
     * any NaN): movement and selection ops, which compute nothing. */
    CONF_DIFF_EXACT = 1u << 0,
    /* tsr_unary_(kernel, self) is the op's in-place form. */
    CONF_DIFF_INPLACE_UNARY = 1u << 1,
    /* tsr_binary_(kernel, self, other) is the op's in-place form. */
    CONF_DIFF_INPLACE_BINARY = 1u << 2,
};

typedef struct conf_diff_op {
    const char *op; /* the adapter's name */
    /* Draws a case for d->dtype (and d->dtype_out); false when the op has
     * no input of that dtype to draw. */
    bool (*draw)(conf_draft *d);
    unsigned flags; /* CONF_DIFF_* */
} conf_diff_op;

/* The entry for an adapter name, NULL if the op has no draw function. */
const conf_diff_op *conf_diff_op_find(const char *op);

extern const conf_diff_op conf_diff_ops_elementwise[];
extern const size_t conf_diff_ops_elementwise_count;
extern const conf_diff_op conf_diff_ops_index[];
extern const size_t conf_diff_ops_index_count;
extern const conf_diff_op conf_diff_ops_sort[];
extern const size_t conf_diff_ops_sort_count;

#endif
