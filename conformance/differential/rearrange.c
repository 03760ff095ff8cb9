/* Differential draws for the copying rearrangements: tril, triu, flip, roll,
 * repeat, tile, repeat_interleave, pad. */
#include "differential/draw_helpers.h"

#include <string.h>

static bool draw_triangle(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 2, 4, true, general(), &n, s);
    if (pick(d, 0.6))
        conf_draft_arg_int(d, "diagonal", range(d, -3, 3));
    return true;
}

/* A list of distinct dims (at least one when ndim > 0). */
static int distinct_dims(conf_draft *d, int ndim, int64_t *dims)
{
    int n = 0;
    for (int i = 0; i < ndim; i++) {
        if (pick(d, 0.5))
            dims[n++] = pick(d, 0.2) ? i - ndim : i;
    }
    if (n == 0 && ndim > 0)
        dims[n++] = range(d, 0, ndim - 1);
    return n;
}

static bool draw_flip(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS], dims[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    int k = distinct_dims(d, n, dims);
    conf_draft_arg_int_list(d, "dims", k, dims);
    return true;
}

static bool draw_roll(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS], dims[TSR_MAX_DIMS], shifts[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 4, true, general(), &n, s);
    int k = pick(d, 0.3) ? 0 : distinct_dims(d, n, dims);
    for (int i = 0; i < (k ? k : 1); i++)
        shifts[i] = range(d, -7, 7);
    conf_draft_arg_int_list(d, "shifts", k ? k : 1, shifts);
    if (k)
        conf_draft_arg_int_list(d, "dims", k, dims);
    return true;
}

static bool draw_repeat_tile(conf_draft *d)
{
    bool repeat = strcmp(d->c->op, "repeat") == 0;
    int n;
    int64_t s[TSR_MAX_DIMS], reps[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, general(), &n, s);
    int k = repeat ? n + (int)range(d, 0, 1) : (int)range(d, 1, 4);
    if (k == 0 && repeat)
        k = 1;
    for (int i = 0; i < k; i++)
        reps[i] = range(d, 0, 3);
    conf_draft_arg_int_list(d, repeat ? "repeats" : "dims", k, reps);
    return true;
}

static bool draw_repeat_interleave(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, general(), &n, s);
    bool has_dim = n > 0 && pick(d, 0.6);
    int64_t dim = has_dim ? conf_draft_dim(d, n) : 0, len = 1;
    if (has_dim)
        len = s[wrap_dim(dim, n)];
    else
        for (int i = 0; i < n; i++)
            len *= s[i];
    if (pick(d, 0.5))
        conf_draft_scalar(d, "repeats", tsr_scalar_int(range(d, 0, 3)));
    else
        conf_draft_tensor(d, "repeats", TSR_INT64, 1, &len, conf_values_range(0, 3),
                          CONF_LAYOUT_CONTIGUOUS);
    if (has_dim)
        conf_draft_arg_int(d, "dim", dim);
    return true;
}

static bool draw_pad(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS], pad[2 * TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 4, false, general(), &n, s);
    int k = 2 * (int)range(d, 1, n);
    for (int i = 0; i < k; i++)
        pad[i] = range(d, 0, 2);
    conf_draft_arg_int_list(d, "pad", k, pad);
    if (pick(d, 0.5))
        conf_draft_arg_double(d, "value", (double)range(d, -3, 3));
    return true;
}

const conf_diff_op conf_diff_draws_rearrange[] = {
    {"tril", draw_triangle, EXACT},
    {"triu", draw_triangle, EXACT},
    {"flip", draw_flip, EXACT},
    {"roll", draw_roll, EXACT},
    {"repeat", draw_repeat_tile, EXACT},
    {"tile", draw_repeat_tile, EXACT},
    {"repeat_interleave", draw_repeat_interleave, EXACT},
    {"pad", draw_pad, EXACT},
};
const size_t conf_diff_draws_rearrange_count =
    sizeof conf_diff_draws_rearrange / sizeof conf_diff_draws_rearrange[0];
