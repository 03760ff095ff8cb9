/* Differential draws for the in-place Tensor methods: add_ ... clamp_, fill_,
 * zero_ (whose self the engine puts in a guarded view). */
#include "differential/draw_helpers.h"

#include <string.h>

/* self (never expanded: it is written) and an operand broadcasting to it. */
static bool draw_inplace_binary(conf_draft *d)
{
    const char *op = d->c->op;
    int n = conf_draft_rank(d, 0, 4), nb;
    int64_t s[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), conf_random_layout(d->rng, false));
    const char *name = strcmp(op, "pow_") == 0 ? "exponent" : "other";
    if (pick(d, 0.2)) {
        conf_draft_scalar(d, name, conf_draft_scalar_value(d, d->dtype, general()));
        return true;
    }
    conf_draft_broadcastable(d, n, s, &nb, b);
    conf_value_spec values = general();
    if (tsr_dtype_is_integral(d->dtype, false) && strcmp(op, "pow_") == 0)
        values = conf_values_range(0, 4);
    conf_draft_tensor(d, name, d->dtype, nb, b, values, CONF_LAYOUT_COUNT);
    if (strcmp(op, "div_") == 0 && pick(d, 0.5))
        conf_draft_arg_string(d, "rounding_mode", pick(d, 0.5) ? "trunc" : "floor");
    return true;
}

static bool draw_clamp_(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), conf_random_layout(d->rng, false));
    conf_draft_scalar(d, "min", conf_draft_scalar_value(d, d->dtype, general()));
    if (pick(d, 0.5))
        conf_draft_scalar(d, "max", conf_draft_scalar_value(d, d->dtype, general()));
    return true;
}

static bool draw_fill_zero_(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS], none = 0;
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), conf_random_layout(d->rng, false));
    if (strcmp(d->c->op, "fill_") != 0)
        return true;
    if (pick(d, 0.7))
        conf_draft_scalar(d, "value", conf_draft_scalar_value(d, d->dtype, general()));
    else
        conf_draft_tensor(d, "value", d->dtype, 0, &none, general(), CONF_LAYOUT_CONTIGUOUS);
    return true;
}

const conf_diff_op conf_diff_draws_inplace[] = {
    {"add_", draw_inplace_binary, 0},          {"sub_", draw_inplace_binary, 0},
    {"mul_", draw_inplace_binary, 0},          {"div_", draw_inplace_binary, 0},
    {"floor_divide_", draw_inplace_binary, 0}, {"remainder_", draw_inplace_binary, 0},
    {"pow_", draw_inplace_binary, 0},          {"clamp_", draw_clamp_, EXACT},
    {"fill_", draw_fill_zero_, EXACT},         {"zero_", draw_fill_zero_, EXACT},
};
const size_t conf_diff_draws_inplace_count =
    sizeof conf_diff_draws_inplace / sizeof conf_diff_draws_inplace[0];
