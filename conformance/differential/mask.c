/* Differential draws for masked_fill (and its in-place form), masked_select. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_masked(conf_draft *d, bool fill)
{
    int n, nm;
    int64_t s[TSR_MAX_DIMS], m[TSR_MAX_DIMS];
    bool inplace = fill && d->c->op[strlen(d->c->op) - 1] == '_';
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "input", d->dtype, n, s, general(),
                      inplace ? conf_random_layout(d->rng, false) : CONF_LAYOUT_COUNT);
    conf_draft_broadcastable(d, n, s, &nm, m);
    conf_draft_tensor(d, "mask", TSR_BOOL, nm, m, general(), CONF_LAYOUT_COUNT);
    if (fill)
        conf_draft_scalar(d, "value", conf_draft_scalar_value(d, d->dtype, general()));
    return true;
}

static bool draw_masked_fill(conf_draft *d)
{
    return draw_masked(d, true);
}

static bool draw_masked_select(conf_draft *d)
{
    return draw_masked(d, false);
}

const conf_diff_op conf_diff_draws_mask[] = {
    {"masked_fill", draw_masked_fill, EXACT},
    {"masked_fill_", draw_masked_fill, EXACT},
    {"masked_select", draw_masked_select, EXACT},
};
const size_t conf_diff_draws_mask_count =
    sizeof conf_diff_draws_mask / sizeof conf_diff_draws_mask[0];
