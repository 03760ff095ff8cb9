/* Differential draws for the copies: contiguous, clone, Tensor.to(dtype),
 * Tensor.copy_ (whose self the engine puts in a guarded view). */
#include "differential/draw_helpers.h"

static bool draw_self_only(conf_draft *d) /* contiguous */
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "self", 0, 4, true, general(), &n, s);
    return true;
}

static bool draw_input_only(conf_draft *d) /* clone */
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    return true;
}

/* Tensor.to(dtype): float to integer conversions of values out of range
 * (or NaN) are undefined in C and unspecified in PyTorch, so those draw
 * values every dtype holds. */
static bool draw_to(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    bool to_int = tsr_dtype_is_integral(d->dtype_out, true);
    bool from_float = !tsr_dtype_is_integral(d->dtype, true);
    conf_value_spec values = to_int && from_float
                                 ? conf_values_range(d->dtype_out == TSR_INT8 ? -100 : 0, 100)
                                 : general();
    conf_draft_tensor(d, "self", d->dtype, n, s, values, CONF_LAYOUT_COUNT);
    conf_draft_arg_dtype(d, "dtype", d->dtype_out);
    return true;
}

/* copy_(self, src): src of d->dtype converted into a self of d->dtype_out. */
static bool draw_copy_(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4), nb;
    int64_t s[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype_out, n, s, general(), conf_random_layout(d->rng, false));
    conf_draft_broadcastable(d, n, s, &nb, b);
    bool to_int = tsr_dtype_is_integral(d->dtype_out, true);
    bool from_float = !tsr_dtype_is_integral(d->dtype, true);
    conf_value_spec values = to_int && from_float
                                 ? conf_values_range(d->dtype_out == TSR_INT8 ? -100 : 0, 100)
                                 : general();
    conf_draft_tensor(d, "src", d->dtype, nb, b, values, CONF_LAYOUT_COUNT);
    return true;
}

const conf_diff_op conf_diff_draws_copy[] = {
    {"contiguous", draw_self_only, EXACT},
    {"clone", draw_input_only, EXACT},
    {"to", draw_to, EXACT},
    {"copy_", draw_copy_, EXACT},
};
const size_t conf_diff_draws_copy_count =
    sizeof conf_diff_draws_copy / sizeof conf_diff_draws_copy[0];
