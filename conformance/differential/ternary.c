/* Differential draws for torch.lerp, addcmul and addcdiv. */
#include "differential/draw_helpers.h"

/* input, a and b broadcasting together. */
static void three_operands(conf_draft *d, const char *a, const char *b)
{
    int n, nb;
    int64_t s[TSR_MAX_DIMS], sb[TSR_MAX_DIMS];
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "input", d->dtype, n, s, general(), CONF_LAYOUT_COUNT);
    conf_draft_broadcastable(d, n, s, &nb, sb);
    conf_draft_tensor(d, a, d->dtype, nb, sb, general(), CONF_LAYOUT_COUNT);
    if (b) {
        conf_draft_broadcastable(d, n, s, &nb, sb);
        conf_draft_tensor(d, b, d->dtype, nb, sb, general(), CONF_LAYOUT_COUNT);
    }
}

static bool draw_lerp(conf_draft *d)
{
    three_operands(d, "end", pick(d, 0.5) ? "weight" : NULL);
    if (d->c->ninputs == 2)
        conf_draft_scalar(d, "weight", tsr_scalar_float(conf_rng_uniform(d->rng) * 1.5 - 0.25));
    return d->c->ninputs == 3;
}

static bool draw_addc(conf_draft *d)
{
    three_operands(d, "tensor1", "tensor2");
    if (pick(d, 0.5))
        arg_number(d, "value", conf_rng_range(d->rng, -2, 3), pick(d, 0.5) ? 0.5 : -1.5);
    return d->c->ninputs == 3;
}

const conf_diff_op conf_diff_draws_ternary[] = {
    {"lerp", draw_lerp, 0},
    {"addcmul", draw_addc, 0},
    {"addcdiv", draw_addc, 0},
};
const size_t conf_diff_draws_ternary_count =
    sizeof conf_diff_draws_ternary / sizeof conf_diff_draws_ternary[0];
