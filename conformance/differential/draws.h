/* What the differential mode draws for each op: a draw function per adapter
 * name, building a case of the drawn dtype in a conf_draft, and flags that
 * say how results compare and which in-place form to check with guards.
 *
 * There is a table per op family (differential/FAMILY.c); conf_diff_op_find
 * (draws.c) searches them. */
#ifndef CONF_DIFF_DRAWS_H
#define CONF_DIFF_DRAWS_H

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

extern const conf_diff_op conf_diff_draws_elementwise[];
extern const size_t conf_diff_draws_elementwise_count;
extern const conf_diff_op conf_diff_draws_elementwise2[];
extern const size_t conf_diff_draws_elementwise2_count;
extern const conf_diff_op conf_diff_draws_ternary[];
extern const size_t conf_diff_draws_ternary_count;
extern const conf_diff_op conf_diff_draws_reduce[];
extern const size_t conf_diff_draws_reduce_count;
extern const conf_diff_op conf_diff_draws_scan[];
extern const size_t conf_diff_draws_scan_count;
extern const conf_diff_op conf_diff_draws_products[];
extern const size_t conf_diff_draws_products_count;
extern const conf_diff_op conf_diff_draws_index[];
extern const size_t conf_diff_draws_index_count;
extern const conf_diff_op conf_diff_draws_mask[];
extern const size_t conf_diff_draws_mask_count;
extern const conf_diff_op conf_diff_draws_scatter[];
extern const size_t conf_diff_draws_scatter_count;
extern const conf_diff_op conf_diff_draws_rearrange[];
extern const size_t conf_diff_draws_rearrange_count;
extern const conf_diff_op conf_diff_draws_join[];
extern const size_t conf_diff_draws_join_count;
extern const conf_diff_op conf_diff_draws_views[];
extern const size_t conf_diff_draws_views_count;
extern const conf_diff_op conf_diff_draws_copy[];
extern const size_t conf_diff_draws_copy_count;
extern const conf_diff_op conf_diff_draws_sort[];
extern const size_t conf_diff_draws_sort_count;
extern const conf_diff_op conf_diff_draws_unique[];
extern const size_t conf_diff_draws_unique_count;
extern const conf_diff_op conf_diff_draws_softmax[];
extern const size_t conf_diff_draws_softmax_count;
extern const conf_diff_op conf_diff_draws_norm[];
extern const size_t conf_diff_draws_norm_count;
extern const conf_diff_op conf_diff_draws_loss[];
extern const size_t conf_diff_draws_loss_count;
extern const conf_diff_op conf_diff_draws_nn[];
extern const size_t conf_diff_draws_nn_count;
extern const conf_diff_op conf_diff_draws_creation[];
extern const size_t conf_diff_draws_creation_count;
extern const conf_diff_op conf_diff_draws_inplace[];
extern const size_t conf_diff_draws_inplace_count;
extern const conf_diff_op conf_diff_draws_pool[];
extern const size_t conf_diff_draws_pool_count;
extern const conf_diff_op conf_diff_draws_conv[];
extern const size_t conf_diff_draws_conv_count;
extern const conf_diff_op conf_diff_draws_products_vector[];
extern const size_t conf_diff_draws_products_vector_count;
extern const conf_diff_op conf_diff_draws_resample[];
extern const size_t conf_diff_draws_resample_count;
extern const conf_diff_op conf_diff_draws_fft[];
extern const size_t conf_diff_draws_fft_count;
extern const conf_diff_op conf_diff_draws_linalg[];
extern const size_t conf_diff_draws_linalg_count;

#endif
