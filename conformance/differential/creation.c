/* Differential draws for the factory functions: arange, linspace, eye, zeros, ones, full. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_creation(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_arg_int_list(d, "size", n, s);
    if (strcmp(d->c->op, "full") == 0) {
        tsr_scalar v = conf_draft_scalar_value(d, d->dtype, general());
        if (v.kind == TSR_SCALAR_BOOL || v.kind == TSR_SCALAR_INT)
            conf_draft_arg_int(d, "fill_value", v.v.i);
        else
            conf_draft_arg_double(d, "fill_value", v.kind == TSR_SCALAR_FLOAT ? v.v.f : v.v.c.re);
    }
    conf_draft_arg_dtype(d, "dtype", d->dtype);
    return d->dtype != TSR_COMPLEX64 && d->dtype != TSR_COMPLEX128;
}

/* arange(start, end, step), linspace(start, end, steps), eye(n, m). */
static bool draw_range_creation(conf_draft *d)
{
    const char *op = d->c->op;
    bool floating = tsr_dtype_is_floating(d->dtype);
    if (tsr_dtype_is_complex(d->dtype) || d->dtype == TSR_BOOL)
        return false;
    if (strcmp(op, "eye") == 0) {
        conf_draft_arg_int(d, "n", range(d, 0, 5));
        if (pick(d, 0.5))
            conf_draft_arg_int(d, "m", range(d, 0, 5));
    } else if (strcmp(op, "linspace") == 0) {
        conf_draft_arg_double(d, "start", (double)range(d, -10, 10) * 0.5);
        conf_draft_arg_double(d, "end", (double)range(d, -10, 10) * 0.75);
        conf_draft_arg_int(d, "steps", range(d, 0, 9));
    } else {
        int64_t start = range(d, -5, 5), step = range(d, 1, 3) * (pick(d, 0.2) ? -1 : 1);
        int64_t end = start + step * range(d, 0, 8);
        if (floating && pick(d, 0.5)) {
            conf_draft_arg_double(d, "start", (double)start * 0.5);
            conf_draft_arg_double(d, "end", (double)end * 0.5 + 0.25);
            conf_draft_arg_double(d, "step", (double)step * 0.5);
        } else {
            conf_draft_arg_int(d, "start", start);
            conf_draft_arg_int(d, "end", end);
            conf_draft_arg_int(d, "step", step);
        }
    }
    conf_draft_arg_dtype(d, "dtype", d->dtype);
    return true;
}

const conf_diff_op conf_diff_draws_creation[] = {
    {"arange", draw_range_creation, 0},  {"linspace", draw_range_creation, 0},
    {"eye", draw_range_creation, EXACT}, {"zeros", draw_creation, EXACT},
    {"ones", draw_creation, EXACT},      {"full", draw_creation, EXACT},
};
const size_t conf_diff_draws_creation_count =
    sizeof conf_diff_draws_creation / sizeof conf_diff_draws_creation[0];
