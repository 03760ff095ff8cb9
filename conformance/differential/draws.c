/* The lookup over every family's table of draws (differential/FAMILY.c).
 * An op is in one table at most, so the order here does not matter. */
#include "differential/draws.h"

#include <string.h>

typedef struct draw_table {
    const conf_diff_op *entries;
    const size_t *count;
} draw_table;

static const draw_table draw_tables[] = {
    {conf_diff_draws_elementwise, &conf_diff_draws_elementwise_count},
    {conf_diff_draws_elementwise2, &conf_diff_draws_elementwise2_count},
    {conf_diff_draws_ternary, &conf_diff_draws_ternary_count},
    {conf_diff_draws_reduce, &conf_diff_draws_reduce_count},
    {conf_diff_draws_scan, &conf_diff_draws_scan_count},
    {conf_diff_draws_products, &conf_diff_draws_products_count},
    {conf_diff_draws_index, &conf_diff_draws_index_count},
    {conf_diff_draws_mask, &conf_diff_draws_mask_count},
    {conf_diff_draws_scatter, &conf_diff_draws_scatter_count},
    {conf_diff_draws_rearrange, &conf_diff_draws_rearrange_count},
    {conf_diff_draws_join, &conf_diff_draws_join_count},
    {conf_diff_draws_views, &conf_diff_draws_views_count},
    {conf_diff_draws_copy, &conf_diff_draws_copy_count},
    {conf_diff_draws_sort, &conf_diff_draws_sort_count},
    {conf_diff_draws_unique, &conf_diff_draws_unique_count},
    {conf_diff_draws_softmax, &conf_diff_draws_softmax_count},
    {conf_diff_draws_norm, &conf_diff_draws_norm_count},
    {conf_diff_draws_loss, &conf_diff_draws_loss_count},
    {conf_diff_draws_nn, &conf_diff_draws_nn_count},
    {conf_diff_draws_creation, &conf_diff_draws_creation_count},
    {conf_diff_draws_inplace, &conf_diff_draws_inplace_count},
    {conf_diff_draws_pool, &conf_diff_draws_pool_count},
    {conf_diff_draws_conv, &conf_diff_draws_conv_count},
    {conf_diff_draws_products_vector, &conf_diff_draws_products_vector_count},
    {conf_diff_draws_resample, &conf_diff_draws_resample_count},
    {conf_diff_draws_fft, &conf_diff_draws_fft_count},
    {conf_diff_draws_linalg, &conf_diff_draws_linalg_count},
};

const conf_diff_op *conf_diff_op_find(const char *op)
{
    for (size_t t = 0; t < sizeof draw_tables / sizeof draw_tables[0]; t++) {
        for (size_t i = 0; i < *draw_tables[t].count; i++) {
            if (strcmp(draw_tables[t].entries[i].op, op) == 0)
                return &draw_tables[t].entries[i];
        }
    }
    return NULL;
}
