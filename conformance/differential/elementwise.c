/* Differential draws for the elementwise ops: torch.add ... torch.clamp,
 * where. The unary, binary and division draws serve elementwise2.c too. */
#include "differential/draw_helpers.h"

#include <string.h>

/* Integer divisors: zeros replaced by 1 but now and then, so that the error
 * path is drawn too without drowning the rest. */
static void avoid_zeros(conf_draft *d, const conf_input *in)
{
    conf_array *a = conf_draft_array(d, in);
    if (!a || !is_int(a->dtype) || pick(d, 0.1))
        return;
    size_t size = tsr_dtype_size(a->dtype), n = 1;
    for (int i = 0; i < a->ndim; i++)
        n *= (size_t)a->shape[i];
    static const unsigned char zero[8] = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned char *p = (unsigned char *)a->data + i * size;
        if (memcmp(p, zero, size) == 0)
            p[0] = 1;
    }
}

bool conf_diff_draw_unary(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    return random_tensor(d, "input", general(), &n, s) != NULL;
}

static bool draw_gelu(conf_draft *d)
{
    if (pick(d, 0.6))
        conf_draft_arg_string(d, "approximate", pick(d, 0.5) ? "tanh" : "none");
    return conf_diff_draw_unary(d);
}

/* clamp(input, min=, max=): each bound a scalar or a broadcastable tensor. */
static bool draw_clamp(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    if (!random_tensor(d, "input", general(), &n, s))
        return false;
    int which = (int)conf_rng_range(d->rng, 1, 3); /* bit 1: min, bit 2: max */
    static const char *const names[] = {"min", "max"};
    for (int b = 0; b < 2; b++) {
        if (!(which & (1 << b)))
            continue;
        if (pick(d, 0.6)) {
            conf_draft_scalar(d, names[b], conf_draft_scalar_value(d, d->dtype, general()));
        } else {
            int nb;
            int64_t sb[TSR_MAX_DIMS];
            conf_draft_broadcastable(d, n, s, &nb, sb);
            conf_draft_tensor(d, names[b], d->dtype, nb, sb, general(), CONF_LAYOUT_COUNT);
        }
    }
    return true;
}

/* input and `second` broadcasting together (second a scalar sometimes). */
conf_input *conf_diff_binary_operands(conf_draft *d, const char *second, conf_value_spec a_values,
                                      conf_value_spec b_values)
{
    int n, na, nb;
    int64_t s[TSR_MAX_DIMS], a[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_broadcastable(d, n, s, &na, a);
    conf_draft_broadcastable(d, n, s, &nb, b);
    if (pick(d, 0.5)) /* one side full, so the result has the drawn shape */
        conf_draft_tensor(d, "input", d->dtype, n, s, a_values, CONF_LAYOUT_COUNT);
    else
        conf_draft_tensor(d, "input", d->dtype, na, a, a_values, CONF_LAYOUT_COUNT);
    if (pick(d, 0.15)) {
        conf_draft_scalar(d, second, conf_draft_scalar_value(d, d->dtype, b_values));
        return NULL;
    }
    return conf_draft_tensor(d, second, d->dtype, nb, b, b_values, CONF_LAYOUT_COUNT);
}

bool conf_diff_draw_binary(conf_draft *d)
{
    conf_diff_binary_operands(d, "other", general(), general());
    return d->c->ninputs == 2;
}

static bool draw_add_sub(conf_draft *d)
{
    conf_diff_binary_operands(d, "other", general(), general());
    if (d->dtype != TSR_BOOL && pick(d, 0.3))
        arg_number(d, "alpha", conf_rng_range(d->rng, -3, 3), pick(d, 0.5) ? 0.5 : -2.0);
    return d->c->ninputs == 2;
}

bool conf_diff_draw_division(conf_draft *d)
{
    avoid_zeros(d, conf_diff_binary_operands(d, "other", general(), general()));
    return d->c->ninputs == 2;
}

static bool draw_div(conf_draft *d)
{
    int mode = (int)conf_rng_range(d->rng, 0, 2);
    if (mode > 0)
        conf_draft_arg_string(d, "rounding_mode", mode == 1 ? "trunc" : "floor");
    return conf_diff_draw_division(d);
}

static bool draw_pow(conf_draft *d)
{
    if (is_int(d->dtype))
        conf_diff_binary_operands(d, "exponent", conf_values_range(-4, 4), conf_values_range(0, 4));
    else
        conf_diff_binary_operands(d, "exponent", general(), general());
    return d->c->ninputs == 2;
}

static bool draw_where(conf_draft *d)
{
    int n, nb;
    int64_t s[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_broadcastable(d, n, s, &nb, b);
    conf_draft_tensor(d, "condition", TSR_BOOL, nb, b, general(), CONF_LAYOUT_COUNT);
    static const char *const names[] = {"input", "other"};
    for (int i = 0; i < 2; i++) {
        if (pick(d, 0.15)) {
            conf_draft_scalar(d, names[i], conf_draft_scalar_value(d, d->dtype, general()));
        } else {
            conf_draft_broadcastable(d, n, s, &nb, b);
            conf_draft_tensor(d, names[i], d->dtype, i == 0 ? n : nb, i == 0 ? s : b, general(),
                              CONF_LAYOUT_COUNT);
        }
    }
    return d->c->ninputs == 3;
}

const conf_diff_op conf_diff_draws_elementwise[] = {
    {"neg", conf_diff_draw_unary, EXACT | UNARY_},
    {"abs", conf_diff_draw_unary, EXACT | UNARY_},
    {"sign", conf_diff_draw_unary, EXACT | UNARY_},
    {"exp", conf_diff_draw_unary, UNARY_},
    {"log", conf_diff_draw_unary, UNARY_},
    {"log1p", conf_diff_draw_unary, UNARY_},
    {"expm1", conf_diff_draw_unary, UNARY_},
    {"sqrt", conf_diff_draw_unary, UNARY_},
    {"rsqrt", conf_diff_draw_unary, UNARY_},
    {"sin", conf_diff_draw_unary, UNARY_},
    {"cos", conf_diff_draw_unary, UNARY_},
    {"tanh", conf_diff_draw_unary, UNARY_},
    {"sigmoid", conf_diff_draw_unary, UNARY_},
    {"relu", conf_diff_draw_unary, EXACT | UNARY_},
    {"erf", conf_diff_draw_unary, UNARY_},
    {"logical_not", conf_diff_draw_unary, UNARY_},
    {"gelu", draw_gelu, 0},
    {"clamp", draw_clamp, EXACT},
    {"add", draw_add_sub, BINARY_},
    {"sub", draw_add_sub, BINARY_},
    {"mul", conf_diff_draw_binary, BINARY_},
    {"div", draw_div, BINARY_},
    {"floor_divide", conf_diff_draw_division, BINARY_},
    {"remainder", conf_diff_draw_division, BINARY_},
    {"pow", draw_pow, BINARY_},
    {"maximum", conf_diff_draw_binary, EXACT | BINARY_},
    {"minimum", conf_diff_draw_binary, EXACT | BINARY_},
    {"eq", conf_diff_draw_binary, 0},
    {"ne", conf_diff_draw_binary, 0},
    {"lt", conf_diff_draw_binary, 0},
    {"le", conf_diff_draw_binary, 0},
    {"gt", conf_diff_draw_binary, 0},
    {"ge", conf_diff_draw_binary, 0},
    {"logical_and", conf_diff_draw_binary, 0},
    {"logical_or", conf_diff_draw_binary, 0},
    {"logical_xor", conf_diff_draw_binary, 0},
    {"where", draw_where, EXACT},
};
const size_t conf_diff_draws_elementwise_count =
    sizeof conf_diff_draws_elementwise / sizeof conf_diff_draws_elementwise[0];
