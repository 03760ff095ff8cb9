/* Differential draws for the movement ops: reshape ... unflatten. */
#include "differential/draw_helpers.h"

#include <string.h>

static int64_t numel_of(int n, const int64_t *s)
{
    int64_t numel = 1;
    for (int i = 0; i < n; i++)
        numel *= s[i];
    return numel;
}

/* A new shape with the same number of elements: adjacent dims merged at
 * random, size-1 dims sprinkled in, one dim -1 sometimes. */
static int regroup(conf_draft *d, int n, const int64_t *s, int64_t *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (k > 0 && pick(d, 0.4))
            out[k - 1] *= s[i];
        else
            out[k++] = s[i];
        if (k < TSR_MAX_DIMS - 1 && pick(d, 0.1))
            out[k++] = 1;
    }
    if (k > 0 && numel_of(n, s) > 0 && pick(d, 0.3))
        out[range(d, 0, k - 1)] = -1;
    return k;
}

static bool draw_reshape_view(conf_draft *d)
{
    bool view = strcmp(d->c->op, "view") == 0;
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS], t[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, view ? "self" : "input", d->dtype, n, s, general(),
                      view && pick(d, 0.7) ? CONF_LAYOUT_CONTIGUOUS : CONF_LAYOUT_COUNT);
    int k = regroup(d, n, s, t);
    conf_draft_arg_int_list(d, view ? "size" : "shape", k, t);
    return true;
}

static bool draw_transpose_permute(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS], p[TSR_MAX_DIMS];
    bool permute = strcmp(d->c->op, "permute") == 0;
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    if (!permute) {
        conf_draft_arg_int(d, "dim0", conf_draft_dim(d, n));
        conf_draft_arg_int(d, "dim1", conf_draft_dim(d, n));
        return true;
    }
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int64_t j = range(d, 0, i), tmp = p[i];
        p[i] = p[j];
        p[j] = tmp;
    }
    conf_draft_arg_int_list(d, "dims", n, p);
    return true;
}

static bool draw_expand(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 3), lead = (int)range(d, 0, 1);
    int64_t s[TSR_MAX_DIMS], t[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), CONF_LAYOUT_COUNT);
    for (int i = 0; i < lead; i++)
        t[i] = range(d, 0, 3);
    for (int i = 0; i < n; i++)
        t[lead + i] = s[i] == 1 ? range(d, 0, 3) : pick(d, 0.3) ? -1 : s[i];
    conf_draft_arg_int_list(d, "size", lead + n, t);
    return true;
}

static bool draw_narrow(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 4, true, general(), &n, s);
    int64_t dim = conf_draft_dim(d, n), size = s[wrap_dim(dim, n)];
    int64_t start = range(d, 0, size);
    conf_draft_arg_int(d, "dim", dim);
    conf_draft_arg_int(d, "start", start);
    conf_draft_arg_int(d, "length", range(d, 0, size - start));
    return true;
}

static bool draw_squeeze_unsqueeze(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    bool unsqueeze = strcmp(d->c->op, "unsqueeze") == 0;
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    if (unsqueeze)
        conf_draft_arg_int(d, "dim", range(d, -n - 1, n));
    else if (pick(d, 0.6))
        conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
    return true;
}

static bool draw_diagonal(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 2, 4, true, general(), &n, s);
    int64_t a = range(d, 0, n - 1), b = (a + range(d, 1, n - 1)) % n;
    conf_draft_arg_int(d, "offset", range(d, -2, 2));
    conf_draft_arg_int(d, "dim1", a);
    conf_draft_arg_int(d, "dim2", b);
    return true;
}

static bool draw_flatten(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    int64_t start = n ? range(d, 0, n - 1) : 0, end = n ? range(d, start, n - 1) : 0;
    conf_draft_arg_int(d, "start_dim", start);
    conf_draft_arg_int(d, "end_dim", end);
    return true;
}

static bool draw_unflatten(conf_draft *d)
{
    int64_t a = range(d, 1, 3), b = range(d, 0, 3), s[TSR_MAX_DIMS];
    int n = conf_draft_rank(d, 1, 3);
    conf_draft_shape(d, n, true, s);
    int64_t dim = range(d, 0, n - 1);
    s[dim] = a * b;
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), CONF_LAYOUT_COUNT);
    int64_t sizes[2] = {a, b > 0 && pick(d, 0.3) ? -1 : b};
    conf_draft_arg_int(d, "dim", dim);
    conf_draft_arg_int_list(d, "sizes", 2, sizes);
    return true;
}

const conf_diff_op conf_diff_draws_views[] = {
    {"reshape", draw_reshape_view, EXACT},
    {"view", draw_reshape_view, EXACT},
    {"transpose", draw_transpose_permute, EXACT},
    {"permute", draw_transpose_permute, EXACT},
    {"expand", draw_expand, EXACT},
    {"narrow", draw_narrow, EXACT},
    {"squeeze", draw_squeeze_unsqueeze, EXACT},
    {"unsqueeze", draw_squeeze_unsqueeze, EXACT},
    {"diagonal", draw_diagonal, EXACT},
    {"flatten", draw_flatten, EXACT},
    {"unflatten", draw_unflatten, EXACT},
};
const size_t conf_diff_draws_views_count =
    sizeof conf_diff_draws_views / sizeof conf_diff_draws_views[0];
