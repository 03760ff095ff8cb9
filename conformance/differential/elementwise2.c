/* Differential draws for the second elementwise family: torch.fmod ...
 * torch.nan_to_num, with the activations of torch.nn.functional (the plain
 * unary and binary draws are elementwise.c's). */
#include "differential/draw_helpers.h"

static bool draw_round(conf_draft *d)
{
    if (pick(d, 0.4))
        conf_draft_arg_int(d, "decimals", conf_rng_range(d->rng, -2, 3));
    return conf_diff_draw_unary(d);
}

static bool draw_softplus(conf_draft *d)
{
    static const double betas[] = {0.5, 1.0, 2.0}, thresholds[] = {1.0, 5.0, 20.0};
    if (pick(d, 0.5))
        conf_draft_arg_double(d, "beta", betas[conf_rng_range(d->rng, 0, 2)]);
    if (pick(d, 0.5))
        conf_draft_arg_double(d, "threshold", thresholds[conf_rng_range(d->rng, 0, 2)]);
    return conf_diff_draw_unary(d);
}

static bool draw_leaky_relu(conf_draft *d)
{
    static const double slopes[] = {0.01, 0.2, -0.5, 0.0};
    if (pick(d, 0.6))
        conf_draft_arg_double(d, "negative_slope", slopes[conf_rng_range(d->rng, 0, 3)]);
    return conf_diff_draw_unary(d);
}

static bool draw_elu(conf_draft *d)
{
    static const double alphas[] = {1.0, 0.5, 2.0};
    if (pick(d, 0.6))
        conf_draft_arg_double(d, "alpha", alphas[conf_rng_range(d->rng, 0, 2)]);
    return conf_diff_draw_unary(d);
}

static bool draw_hardtanh(conf_draft *d)
{
    if (pick(d, 0.6)) {
        int64_t lo = conf_rng_range(d->rng, -3, 0), hi = conf_rng_range(d->rng, 0, 3);
        arg_number(d, "min_val", lo, (double)lo * 0.5);
        arg_number(d, "max_val", hi, (double)hi * 0.75);
    }
    return conf_diff_draw_unary(d);
}

static bool draw_nan_to_num(conf_draft *d)
{
    static const char *const names[] = {"nan", "posinf", "neginf"};
    for (int i = 0; i < 3; i++) {
        if (pick(d, 0.4))
            conf_draft_arg_double(d, names[i], conf_rng_normal(d->rng) * 10.0);
    }
    return conf_diff_draw_unary(d);
}

static bool draw_shift(conf_draft *d)
{
    int64_t bits = 8 * (int64_t)tsr_dtype_size(d->dtype);
    conf_value_spec amount =
        pick(d, 0.8) ? conf_values_range(0, bits - 1) : conf_values_range(-2, bits + 2);
    conf_diff_binary_operands(d, "other", general(), amount);
    return d->c->ninputs == 2;
}

const conf_diff_op conf_diff_draws_elementwise2[] = {
    {"bitwise_not", conf_diff_draw_unary, EXACT | UNARY_},
    {"exp2", conf_diff_draw_unary, UNARY_},
    {"log2", conf_diff_draw_unary, UNARY_},
    {"log10", conf_diff_draw_unary, UNARY_},
    {"tan", conf_diff_draw_unary, UNARY_},
    {"asin", conf_diff_draw_unary, UNARY_},
    {"acos", conf_diff_draw_unary, UNARY_},
    {"atan", conf_diff_draw_unary, UNARY_},
    {"sinh", conf_diff_draw_unary, UNARY_},
    {"cosh", conf_diff_draw_unary, UNARY_},
    {"asinh", conf_diff_draw_unary, UNARY_},
    {"acosh", conf_diff_draw_unary, UNARY_},
    {"atanh", conf_diff_draw_unary, UNARY_},
    {"erfc", conf_diff_draw_unary, UNARY_},
    {"silu", conf_diff_draw_unary, UNARY_},
    {"floor", conf_diff_draw_unary, EXACT | UNARY_},
    {"ceil", conf_diff_draw_unary, EXACT | UNARY_},
    {"trunc", conf_diff_draw_unary, EXACT | UNARY_},
    {"frac", conf_diff_draw_unary, UNARY_},
    {"reciprocal", conf_diff_draw_unary, UNARY_},
    {"square", conf_diff_draw_unary, UNARY_},
    {"isnan", conf_diff_draw_unary, 0},
    {"isinf", conf_diff_draw_unary, 0},
    {"isfinite", conf_diff_draw_unary, 0},
    {"round", draw_round, EXACT | UNARY_},
    {"softplus", draw_softplus, 0},
    {"leaky_relu", draw_leaky_relu, 0},
    {"elu", draw_elu, 0},
    {"hardtanh", draw_hardtanh, EXACT},
    {"nan_to_num", draw_nan_to_num, EXACT},
    {"fmod", conf_diff_draw_division, BINARY_},
    {"fmax", conf_diff_draw_binary, EXACT},
    {"fmin", conf_diff_draw_binary, EXACT},
    {"atan2", conf_diff_draw_binary, BINARY_},
    {"hypot", conf_diff_draw_binary, BINARY_},
    {"copysign", conf_diff_draw_binary, EXACT | BINARY_},
    {"bitwise_and", conf_diff_draw_binary, EXACT | BINARY_},
    {"bitwise_or", conf_diff_draw_binary, EXACT | BINARY_},
    {"bitwise_xor", conf_diff_draw_binary, EXACT | BINARY_},
    {"bitwise_left_shift", draw_shift, EXACT | BINARY_},
    {"bitwise_right_shift", draw_shift, EXACT | BINARY_},
};
const size_t conf_diff_draws_elementwise2_count =
    sizeof conf_diff_draws_elementwise2 / sizeof conf_diff_draws_elementwise2[0];
