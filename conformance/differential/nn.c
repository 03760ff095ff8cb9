/* Differential draws for F.linear. */
#include "differential/draw_helpers.h"

static bool draw_linear(conf_draft *d)
{
    int n = conf_draft_rank(d, 1, 3);
    int64_t s[TSR_MAX_DIMS], out = range(d, 1, 4);
    conf_draft_shape(d, n, true, s);
    conf_value_spec values = conf_values_of(CONF_VALUES_NO_HUGE);
    conf_draft_tensor(d, "input", d->dtype, n, s, values, CONF_LAYOUT_COUNT);
    int64_t w[2] = {out, s[n - 1]};
    conf_draft_tensor(d, "weight", d->dtype, 2, w, values, CONF_LAYOUT_COUNT);
    if (pick(d, 0.6))
        conf_draft_tensor(d, "bias", d->dtype, 1, &out, values, CONF_LAYOUT_COUNT);
    return true;
}

const conf_diff_op conf_diff_draws_nn[] = {
    {"linear", draw_linear, 0},
};
const size_t conf_diff_draws_nn_count = sizeof conf_diff_draws_nn / sizeof conf_diff_draws_nn[0];
