/* Differential draws for unique and unique_consecutive. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_unique(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, conf_values_range(-2, 2), &n, s);
    if (strcmp(d->c->op, "unique") == 0)
        conf_draft_arg_bool(d, "sorted", true);
    conf_draft_arg_bool(d, "return_inverse", pick(d, 0.5));
    conf_draft_arg_bool(d, "return_counts", pick(d, 0.5));
    return true;
}

const conf_diff_op conf_diff_draws_unique[] = {
    {"unique", draw_unique, EXACT},
    {"unique_consecutive", draw_unique, EXACT},
};
const size_t conf_diff_draws_unique_count =
    sizeof conf_diff_draws_unique / sizeof conf_diff_draws_unique[0];
