/* Differential draws for the reductions: torch.sum ... torch.logsumexp. The
 * scans (scan.c) draw with conf_diff_reduction too. */
#include "differential/draw_helpers.h"

#include <math.h>
#include <string.h>

/* dim: absent (every dim), one dim, or (with `lists`) a list of distinct dims. */
static void arg_dims(conf_draft *d, int ndim, bool lists, bool required)
{
    double u = conf_rng_uniform(d->rng);
    if (!required && u < 0.25)
        return;
    if (!lists || u < 0.6 || ndim == 0) {
        conf_draft_arg_int(d, "dim", conf_draft_dim(d, ndim));
        return;
    }
    int64_t dims[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < ndim; i++) {
        if (pick(d, 0.5))
            dims[n++] = pick(d, 0.2) ? i - ndim : i;
    }
    conf_draft_arg_int_list(d, "dim", n ? n : 1, n ? dims : (int64_t[]){0});
}

static void arg_keepdim(conf_draft *d)
{
    if (pick(d, 0.5))
        conf_draft_arg_bool(d, "keepdim", pick(d, 0.5));
}

bool conf_diff_reduction(conf_draft *d, conf_value_spec values, bool lists, bool required,
                         bool keepdim)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    if (!random_tensor(d, "input", values, &n, s))
        return false;
    arg_dims(d, n, lists, required);
    if (keepdim)
        arg_keepdim(d);
    return true;
}

static bool draw_sum_like(conf_draft *d)
{
    return conf_diff_reduction(d, accumulating(), true, false, true);
}

static bool draw_extremum(conf_draft *d) /* amax, amin, all, any */
{
    bool lists = strcmp(d->c->op, "all") != 0 && strcmp(d->c->op, "any") != 0;
    return conf_diff_reduction(d, general(), lists, false, true);
}

static bool draw_arg_extremum(conf_draft *d) /* argmax, argmin, aminmax */
{
    return conf_diff_reduction(d, general(), false, false, true);
}

/* max / min: (values, indices) along a dim, or the value of everything. */
static bool draw_max_min(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    if (!random_tensor(d, "input", general(), &n, s))
        return false;
    if (pick(d, 0.7)) {
        conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
        arg_keepdim(d);
    }
    return true;
}

static bool draw_moments(conf_draft *d)
{
    if (!conf_diff_reduction(d, accumulating(), true, false, true))
        return false;
    if (pick(d, 0.6))
        conf_draft_arg_int(d, "correction", conf_rng_range(d->rng, 0, 2));
    return true;
}

static bool draw_count_nonzero(conf_draft *d)
{
    return conf_diff_reduction(d, conf_values_range(-1, 1), true, false, false);
}

static bool draw_norm(conf_draft *d)
{
    static const double orders[] = {2.0, 1.0, INFINITY, -INFINITY, 0.0, 3.0, 0.5};
    const char *name = strcmp(d->c->op, "norm") == 0 ? "p" : "ord";
    if (!conf_diff_reduction(d, accumulating(), true, false, true))
        return false;
    if (pick(d, 0.7))
        conf_draft_arg_double(d, name, orders[conf_rng_range(d->rng, 0, 6)]);
    return true;
}

static bool draw_logsumexp(conf_draft *d)
{
    return conf_diff_reduction(d, accumulating(), true, true, true);
}

const conf_diff_op conf_diff_draws_reduce[] = {
    {"sum", draw_sum_like, 0},
    {"nansum", draw_sum_like, 0},
    {"prod", draw_sum_like, 0},
    {"mean", draw_sum_like, 0},
    {"nanmean", draw_sum_like, 0},
    {"amax", draw_extremum, EXACT},
    {"amin", draw_extremum, EXACT},
    {"all", draw_extremum, EXACT},
    {"any", draw_extremum, EXACT},
    {"argmax", draw_arg_extremum, EXACT},
    {"argmin", draw_arg_extremum, EXACT},
    {"aminmax", draw_arg_extremum, EXACT},
    {"max", draw_max_min, EXACT},
    {"min", draw_max_min, EXACT},
    {"var", draw_moments, 0},
    {"std", draw_moments, 0},
    {"var_mean", draw_moments, 0},
    {"std_mean", draw_moments, 0},
    {"count_nonzero", draw_count_nonzero, EXACT},
    {"linalg_vector_norm", draw_norm, 0},
    {"norm", draw_norm, 0},
    {"logsumexp", draw_logsumexp, 0},
};
const size_t conf_diff_draws_reduce_count =
    sizeof conf_diff_draws_reduce / sizeof conf_diff_draws_reduce[0];
