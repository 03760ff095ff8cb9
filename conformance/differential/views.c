/* Differential draws for indexing, joining and movement, and the lookup over
 * every table of draws. */
#include "differential/draws.h"

#include <stdlib.h>
#include <string.h>

static conf_value_spec general(void)
{
    return conf_values_of(CONF_VALUES_GENERAL);
}

static bool pick(conf_draft *d, double p)
{
    return conf_rng_chance(d->rng, p);
}

static int64_t range(conf_draft *d, int64_t lo, int64_t hi)
{
    return conf_rng_range(d->rng, lo, hi);
}

/* A tensor of d->dtype of rank lo..hi; no empty dims unless allowed. */
static conf_input *tensor_of_rank(conf_draft *d, const char *name, int lo, int hi, bool empty,
                                  conf_value_spec values, int *ndim, int64_t *shape)
{
    *ndim = conf_draft_rank(d, lo, hi);
    conf_draft_shape(d, *ndim, empty, shape);
    return conf_draft_tensor(d, name, d->dtype, *ndim, shape, values, CONF_LAYOUT_COUNT);
}

/* int64 indices in [0, bound), or in [-bound, bound) with `negative`. */
static conf_input *indices(conf_draft *d, const char *name, int ndim, const int64_t *shape,
                           int64_t bound, bool negative, conf_layout layout)
{
    int64_t lo = negative ? -bound : 0, hi = bound > 0 ? bound - 1 : 0;
    return conf_draft_tensor(d, name, TSR_INT64, ndim, shape, conf_values_range(lo, hi), layout);
}

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

static int64_t wrap_dim(int64_t dim, int ndim)
{
    return dim < 0 ? dim + (ndim ? ndim : 1) : dim;
}

/* ------------------------------------------------------------------------ */
/* Indexing                                                                  */
/* ------------------------------------------------------------------------ */

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

static bool draw_masked(conf_draft *d, bool fill)
{
    int n, nm;
    int64_t s[TSR_MAX_DIMS], m[TSR_MAX_DIMS];
    bool inplace = fill && d->c->op[strlen(d->c->op) - 1] == '_';
    n = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "input", d->dtype, n, s, general(),
                      inplace ? conf_random_layout(d->rng, false) : CONF_LAYOUT_COUNT);
    conf_draft_broadcastable(d, n, s, &nm, m);
    conf_draft_tensor(d, "mask", TSR_BOOL, nm, m, general(), CONF_LAYOUT_COUNT);
    if (fill)
        conf_draft_scalar(d, "value", conf_draft_scalar_value(d, d->dtype, general()));
    return true;
}

static bool draw_masked_fill(conf_draft *d)
{
    return draw_masked(d, true);
}

static bool draw_masked_select(conf_draft *d)
{
    return draw_masked(d, false);
}

static bool draw_nonzero(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, conf_values_range(-1, 1), &n, s);
    return true;
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

/* ------------------------------------------------------------------------ */
/* Joining and splitting                                                     */
/* ------------------------------------------------------------------------ */

static bool draw_cat_stack(conf_draft *d)
{
    const char *op = d->c->op;
    bool stack = strcmp(op, "stack") == 0, hstack = strcmp(op, "hstack") == 0;
    bool vstack = strcmp(op, "vstack") == 0;
    int n = conf_draft_rank(d, stack ? 0 : 1, 3), count = (int)range(d, 1, 3);
    int64_t s[TSR_MAX_DIMS], shapes[3][TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    int64_t dim = stack ? range(d, -n - 1, n) : conf_draft_dim(d, n);
    int64_t join = hstack ? (n == 1 ? 0 : 1) : vstack ? 0 : wrap_dim(dim, n);
    for (int i = 0; i < count; i++) {
        memcpy(shapes[i], s, sizeof s);
        if (!stack && !(vstack && n == 1))
            shapes[i][join] = range(d, 0, 3);
    }
    conf_draft_list(d, "tensors", count, d->dtype, n, (const int64_t(*)[TSR_MAX_DIMS])shapes,
                    general());
    if (!hstack && !vstack)
        conf_draft_arg_int(d, "dim", dim);
    return true;
}

static bool draw_split(conf_draft *d)
{
    const char *op = d->c->op;
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, strcmp(op, "split") == 0 ? "tensor" : "input", 1, 3, true, general(), &n, s);
    int64_t dim = conf_draft_dim(d, n), size = s[wrap_dim(dim, n)];
    if (strcmp(op, "split") == 0) {
        if (pick(d, 0.5)) {
            conf_draft_arg_int(d, "split_size_or_sections", range(d, 1, 3));
        } else {
            int64_t sections[3] = {0};
            sections[0] = range(d, 0, size);
            sections[1] = size - sections[0];
            conf_draft_arg_int_list(d, "split_size_or_sections", 2, sections);
        }
    } else if (strcmp(op, "chunk") == 0) {
        conf_draft_arg_int(d, "chunks", range(d, 1, 4));
    }
    conf_draft_arg_int(d, "dim", dim);
    return true;
}

/* ------------------------------------------------------------------------ */
/* Movement                                                                  */
/* ------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

enum { EXACT = CONF_DIFF_EXACT };

const conf_diff_op conf_diff_ops_index[] = {
    {"index_select", draw_index_select, EXACT},
    {"gather", draw_gather, EXACT},
    {"take", draw_take, EXACT},
    {"take_along_dim", draw_take_along_dim, EXACT},
    {"embedding", draw_embedding, EXACT},
    {"one_hot", draw_one_hot, EXACT},
    {"masked_fill", draw_masked_fill, EXACT},
    {"masked_fill_", draw_masked_fill, EXACT},
    {"masked_select", draw_masked_select, EXACT},
    {"nonzero", draw_nonzero, EXACT},
    {"scatter", draw_scatter, 0},
    {"scatter_", draw_scatter, 0},
    {"scatter_add", draw_scatter, 0},
    {"scatter_add_", draw_scatter, 0},
    {"scatter_reduce", draw_scatter, 0},
    {"index_add", draw_index_add_copy, 0},
    {"index_add_", draw_index_add_copy, 0},
    {"index_copy", draw_index_add_copy, EXACT},
    {"index_copy_", draw_index_add_copy, EXACT},
    {"tril", draw_triangle, EXACT},
    {"triu", draw_triangle, EXACT},
    {"flip", draw_flip, EXACT},
    {"roll", draw_roll, EXACT},
    {"repeat", draw_repeat_tile, EXACT},
    {"tile", draw_repeat_tile, EXACT},
    {"repeat_interleave", draw_repeat_interleave, EXACT},
    {"pad", draw_pad, EXACT},
    {"cat", draw_cat_stack, EXACT},
    {"stack", draw_cat_stack, EXACT},
    {"hstack", draw_cat_stack, EXACT},
    {"vstack", draw_cat_stack, EXACT},
    {"split", draw_split, EXACT},
    {"chunk", draw_split, EXACT},
    {"unbind", draw_split, EXACT},
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
    {"contiguous", draw_self_only, EXACT},
    {"clone", draw_input_only, EXACT},
    {"to", draw_to, EXACT},
};
const size_t conf_diff_ops_index_count = sizeof conf_diff_ops_index / sizeof conf_diff_ops_index[0];

const conf_diff_op *conf_diff_op_find(const char *op)
{
    for (size_t i = 0; i < conf_diff_ops_elementwise_count; i++) {
        if (strcmp(conf_diff_ops_elementwise[i].op, op) == 0)
            return &conf_diff_ops_elementwise[i];
    }
    for (size_t i = 0; i < conf_diff_ops_index_count; i++) {
        if (strcmp(conf_diff_ops_index[i].op, op) == 0)
            return &conf_diff_ops_index[i];
    }
    for (size_t i = 0; i < conf_diff_ops_sort_count; i++) {
        if (strcmp(conf_diff_ops_sort[i].op, op) == 0)
            return &conf_diff_ops_sort[i];
    }
    return NULL;
}
