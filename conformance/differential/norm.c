/* Differential draws for layer_norm and rms_norm. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_norm(conf_draft *d)
{
    bool layer = strcmp(d->c->op, "layer_norm") == 0;
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 4, true, conf_values_of(CONF_VALUES_NO_HUGE), &n, s);
    int k = (int)range(d, 1, n);
    const int64_t *normalized = s + (n - k);
    if (pick(d, 0.6))
        conf_draft_tensor(d, "weight", d->dtype, k, normalized, general(), CONF_LAYOUT_COUNT);
    if (layer && pick(d, 0.6))
        conf_draft_tensor(d, "bias", d->dtype, k, normalized, general(), CONF_LAYOUT_COUNT);
    conf_draft_arg_int_list(d, "normalized_shape", k, normalized);
    if (pick(d, 0.4))
        conf_draft_arg_double(d, "eps", pick(d, 0.5) ? 1e-3 : 0.0);
    return true;
}

const conf_diff_op conf_diff_draws_norm[] = {
    {"layer_norm", draw_norm, 0},
    {"rms_norm", draw_norm, 0},
};
const size_t conf_diff_draws_norm_count =
    sizeof conf_diff_draws_norm / sizeof conf_diff_draws_norm[0];
