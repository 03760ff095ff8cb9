/* Differential draws for the scatters and their in-place forms: scatter ... index_copy_. */
#include "differential/draw_helpers.h"

#include <stdlib.h>
#include <string.h>

/* Makes a contiguous int64 index array distinct along `dim` (each run a
 * random choice of distinct values below `bound`, which must be at least
 * the dim's size): scatter and index_copy with repeated targets keep an
 * unspecified one of the sources. */
static void distinct_along(conf_draft *d, const conf_input *in, int dim, int64_t bound)
{
    conf_array *a = conf_draft_array(d, in);
    if (!a || a->ndim == 0 || bound <= 0)
        return;
    int64_t n = a->shape[dim], inner = 1, outer = 1;
    for (int i = dim + 1; i < a->ndim; i++)
        inner *= a->shape[i];
    for (int i = 0; i < dim; i++)
        outer *= a->shape[i];
    int64_t *pool = malloc((size_t)bound * sizeof *pool), *data = a->data;
    if (!pool)
        return;
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t k = 0; k < inner; k++) {
            for (int64_t v = 0; v < bound; v++)
                pool[v] = v;
            for (int64_t j = 0; j < n; j++) { /* a partial Fisher-Yates shuffle */
                int64_t r = range(d, j, bound - 1), t = pool[j];
                pool[j] = pool[r];
                pool[r] = t;
                data[(o * n + j) * inner + k] = pool[j];
            }
        }
    }
    free(pool);
}

/* scatter family: self (written when in place), index no larger than src
 * (and than self off `dim`), src. */
static bool draw_scatter(conf_draft *d)
{
    const char *op = d->c->op;
    bool inplace = op[strlen(op) - 1] == '_';
    bool plain = strncmp(op, "scatter", 7) == 0 && strncmp(op, "scatter_add", 11) != 0 &&
                 strcmp(op, "scatter_reduce") != 0;
    int n = conf_draft_rank(d, 1, 3);
    int64_t s[TSR_MAX_DIMS], is[TSR_MAX_DIMS], ss[TSR_MAX_DIMS];
    conf_draft_shape(d, n, false, s);
    conf_draft_tensor(d, "input", d->dtype, n, s, general(), conf_random_layout(d->rng, !inplace));
    int64_t dim = conf_draft_dim(d, n), w = wrap_dim(dim, n);
    for (int i = 0; i < n; i++) {
        is[i] = range(d, 0, s[i]);
        ss[i] = is[i] + range(d, 0, 1);
    }
    const char *reduce = NULL;
    if (plain && pick(d, 0.3))
        reduce = pick(d, 0.5) ? "add" : "multiply";
    if (strcmp(op, "scatter_reduce") == 0) {
        static const char *const modes[] = {"sum", "prod", "mean", "amax", "amin"};
        reduce = modes[range(d, 0, 4)];
        conf_draft_arg_bool(d, "include_self", pick(d, 0.5));
    }
    bool distinct = plain && !reduce;
    conf_input *index = indices(d, "index", n, is, s[w], false,
                                distinct ? CONF_LAYOUT_CONTIGUOUS : CONF_LAYOUT_COUNT);
    if (distinct)
        distinct_along(d, index, (int)w, s[w]);
    if (plain && pick(d, 0.3))
        conf_draft_scalar(d, "value", conf_draft_scalar_value(d, d->dtype, general()));
    else
        conf_draft_tensor(d, "src", d->dtype, n, ss, general(), CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "dim", dim);
    if (reduce)
        conf_draft_arg_string(d, "reduce", reduce);
    return true;
}

static bool draw_index_add_copy(conf_draft *d)
{
    const char *op = d->c->op;
    bool inplace = op[strlen(op) - 1] == '_', copy = strncmp(op, "index_copy", 10) == 0;
    int n = conf_draft_rank(d, 1, 3);
    int64_t s[TSR_MAX_DIMS], src[TSR_MAX_DIMS];
    conf_draft_shape(d, n, false, s);
    conf_draft_tensor(d, "input", d->dtype, n, s, general(), conf_random_layout(d->rng, !inplace));
    int64_t dim = conf_draft_dim(d, n), w = wrap_dim(dim, n);
    memcpy(src, s, sizeof src);
    src[w] = copy ? range(d, 0, s[w]) : range(d, 0, 5);
    conf_input *index = indices(d, "index", 1, &src[w], s[w], false,
                                copy ? CONF_LAYOUT_CONTIGUOUS : CONF_LAYOUT_COUNT);
    if (copy)
        distinct_along(d, index, 0, s[w]);
    conf_draft_tensor(d, "source", d->dtype, n, src, general(), CONF_LAYOUT_COUNT);
    conf_draft_arg_int(d, "dim", dim);
    if (!copy && pick(d, 0.3))
        conf_draft_arg_int(d, "alpha", range(d, -2, 3));
    return true;
}

const conf_diff_op conf_diff_draws_scatter[] = {
    {"scatter", draw_scatter, 0},
    {"scatter_", draw_scatter, 0},
    {"scatter_add", draw_scatter, 0},
    {"scatter_add_", draw_scatter, 0},
    {"scatter_reduce", draw_scatter, 0},
    {"index_add", draw_index_add_copy, 0},
    {"index_add_", draw_index_add_copy, 0},
    {"index_copy", draw_index_add_copy, EXACT},
    {"index_copy_", draw_index_add_copy, EXACT},
};
const size_t conf_diff_draws_scatter_count =
    sizeof conf_diff_draws_scatter / sizeof conf_diff_draws_scatter[0];
