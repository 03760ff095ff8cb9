/* Differential draws for indexing: index_select ... one_hot, nonzero. */
#include "differential/draw_helpers.h"

#include <math.h>

static bool draw_index_select(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, false, general(), &n, s);
    int64_t dim = conf_draft_dim(d, n), size = n ? s[wrap_dim(dim, n)] : 1;
    int64_t len = range(d, 0, 5);
    indices(d, "index", pick(d, 0.1) ? 0 : 1, &len, size, false, CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "dim", dim);
    return true;
}

static bool draw_gather(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS], is[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 3, false, general(), &n, s);
    int64_t dim = conf_draft_dim(d, n), w = wrap_dim(dim, n);
    for (int i = 0; i < n; i++)
        is[i] = i == w ? range(d, 0, 4) : range(d, 0, s[i]);
    indices(d, "index", n, is, s[w], false, CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "dim", dim);
    return true;
}

static bool draw_take(conf_draft *d)
{
    int n, ni;
    int64_t s[TSR_MAX_DIMS], is[TSR_MAX_DIMS], numel = 1;
    tensor_of_rank(d, "input", 0, 3, false, general(), &n, s);
    for (int i = 0; i < n; i++)
        numel *= s[i];
    ni = conf_draft_rank(d, 0, 2);
    conf_draft_shape(d, ni, true, is);
    indices(d, "index", ni, is, numel, true, CONF_LAYOUT_COUNT);
    return true;
}

static bool draw_take_along_dim(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS], is[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 3, false, general(), &n, s);
    int64_t dim = conf_draft_dim(d, n), w = wrap_dim(dim, n);
    for (int i = 0; i < n; i++)
        is[i] = i == w ? range(d, 0, 4) : pick(d, 0.2) ? 1 : s[i];
    indices(d, "indices", n, is, s[w], false, CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "dim", dim);
    return true;
}

static bool draw_embedding(conf_draft *d)
{
    int64_t w[2] = {range(d, 1, 6), range(d, 1, 4)}, is[TSR_MAX_DIMS];
    int ni = conf_draft_rank(d, 0, 2);
    conf_draft_shape(d, ni, true, is);
    indices(d, "input", ni, is, w[0], false, CONF_LAYOUT_COUNT);
    conf_draft_tensor(d, "weight", d->dtype, 2, w, general(), CONF_LAYOUT_COUNT);
    if (pick(d, 0.3))
        conf_draft_arg_int(d, "padding_idx", range(d, 0, w[0] - 1));
    /* max_norm renormalises a copy of weight (the adapter returns it too);
     * integer weights are refused on both backends. */
    if (pick(d, 0.3)) {
        static const double norm_types[] = {2.0, 1.0, 3.0, HUGE_VAL};
        conf_draft_arg_double(d, "max_norm", pick(d, 0.5) ? 1.0 : 0.25);
        conf_draft_arg_double(d, "norm_type", norm_types[range(d, 0, 3)]);
    }
    if (pick(d, 0.2))
        conf_draft_arg_bool(d, "scale_grad_by_freq", true);
    return true;
}

static bool draw_one_hot(conf_draft *d)
{
    if (d->dtype != TSR_INT64)
        return false;
    int64_t classes = range(d, 1, 5), s[TSR_MAX_DIMS];
    int n = conf_draft_rank(d, 0, 2);
    conf_draft_shape(d, n, true, s);
    indices(d, "input", n, s, classes, false, CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "num_classes", pick(d, 0.5) ? classes + range(d, 0, 2) : -1);
    return true;
}

static bool draw_nonzero(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, conf_values_range(-1, 1), &n, s);
    return true;
}

const conf_diff_op conf_diff_draws_index[] = {
    {"index_select", draw_index_select, EXACT},
    {"gather", draw_gather, EXACT},
    {"take", draw_take, EXACT},
    {"take_along_dim", draw_take_along_dim, EXACT},
    {"embedding", draw_embedding, EXACT},
    {"one_hot", draw_one_hot, EXACT},
    {"nonzero", draw_nonzero, EXACT},
};
const size_t conf_diff_draws_index_count =
    sizeof conf_diff_draws_index / sizeof conf_diff_draws_index[0];
