/* Differential draws for the losses: mse_loss ... nll_loss. */
#include "differential/draw_helpers.h"

#include <string.h>

/* mse_loss, l1_loss, smooth_l1_loss(input, target, reduction=, beta=). */
static bool draw_pointwise_loss(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, conf_values_of(CONF_VALUES_NO_HUGE), &n, s);
    conf_draft_tensor(d, "target", d->dtype, n, s, conf_values_of(CONF_VALUES_NO_HUGE),
                      CONF_LAYOUT_COUNT);
    static const char *const reductions[] = {"mean", "sum", "none"};
    if (pick(d, 0.6))
        conf_draft_arg_string(d, "reduction", reductions[range(d, 0, 2)]);
    if (strcmp(d->c->op, "smooth_l1_loss") == 0 && pick(d, 0.6))
        conf_draft_arg_double(d, "beta", pick(d, 0.3) ? 0.0 : 0.5);
    return true;
}

/* cross_entropy / nll_loss with class indices: input (N, C) or (C). */
static bool draw_class_loss(conf_draft *d)
{
    int64_t classes = range(d, 1, 5), batch = range(d, 0, 4);
    int64_t in[2] = {batch, classes};
    bool batched = pick(d, 0.8);
    conf_draft_tensor(d, "input", d->dtype, batched ? 2 : 1, batched ? in : in + 1,
                      conf_values_of(CONF_VALUES_NO_HUGE), CONF_LAYOUT_COUNT);
    conf_draft_tensor(d, "target", TSR_INT64, batched ? 1 : 0, &batch,
                      conf_values_range(0, classes - 1), CONF_LAYOUT_COUNT);
    if (pick(d, 0.3))
        conf_draft_tensor(d, "weight", d->dtype, 1, &classes, conf_values_range(0, 3),
                          CONF_LAYOUT_CONTIGUOUS);
    static const char *const reductions[] = {"mean", "sum", "none"};
    if (pick(d, 0.6))
        conf_draft_arg_string(d, "reduction", reductions[range(d, 0, 2)]);
    return true;
}

const conf_diff_op conf_diff_draws_loss[] = {
    {"mse_loss", draw_pointwise_loss, 0},       {"l1_loss", draw_pointwise_loss, 0},
    {"smooth_l1_loss", draw_pointwise_loss, 0}, {"cross_entropy", draw_class_loss, 0},
    {"nll_loss", draw_class_loss, 0},
};
const size_t conf_diff_draws_loss_count =
    sizeof conf_diff_draws_loss / sizeof conf_diff_draws_loss[0];
