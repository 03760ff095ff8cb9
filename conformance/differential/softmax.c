/* Differential draws for softmax and log_softmax. */
#include "differential/draw_helpers.h"

static bool draw_softmax(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
    return true;
}

const conf_diff_op conf_diff_draws_softmax[] = {
    {"softmax", draw_softmax, 0},
    {"log_softmax", draw_softmax, 0},
};
const size_t conf_diff_draws_softmax_count =
    sizeof conf_diff_draws_softmax / sizeof conf_diff_draws_softmax[0];
