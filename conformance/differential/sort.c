/* Differential draws for sorting, the nn kernels and losses, creation and
 * the in-place Tensor methods (whose self the engine puts in a guarded
 * view). */
#include "differential/draws.h"

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

static int64_t wrap_dim(int64_t dim, int ndim)
{
    return dim < 0 ? dim + (ndim ? ndim : 1) : dim;
}

/* ------------------------------------------------------------------------ */
/* Sorting                                                                   */
/* ------------------------------------------------------------------------ */

static bool draw_sort(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, general(), &n, s);
    if (pick(d, 0.7))
        conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
    if (pick(d, 0.5))
        conf_draft_arg_bool(d, "descending", pick(d, 0.5));
    if (pick(d, 0.3))
        conf_draft_arg_bool(d, "stable", true);
    return true;
}

/* topk, kthvalue, median: distinct values, whose indices are unambiguous. */
static bool draw_selection(conf_draft *d)
{
    const char *op = d->c->op;
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, false, conf_values_of(CONF_VALUES_DISTINCT), &n, s);
    int64_t dim = conf_draft_dim(d, n), size = n ? s[wrap_dim(dim, n)] : 1;
    if (strcmp(op, "median") == 0) {
        if (pick(d, 0.6)) {
            conf_draft_arg_int(d, "dim", dim);
            conf_draft_arg_bool(d, "keepdim", pick(d, 0.5));
        }
        return true;
    }
    conf_draft_arg_int(d, "dim", dim);
    if (strcmp(op, "topk") == 0) {
        conf_draft_arg_int(d, "k", range(d, 0, size));
        conf_draft_arg_bool(d, "largest", pick(d, 0.5));
    } else {
        conf_draft_arg_int(d, "k", range(d, 1, size));
        conf_draft_arg_bool(d, "keepdim", pick(d, 0.5));
    }
    return true;
}

static int compare_rows(const void *a, const void *b, tsr_dtype dtype);

static int compare_rows(const void *a, const void *b, tsr_dtype dtype)
{
    double x = conf_load_double(dtype, a), y = conf_load_double(dtype, b);
    if (x != x || y != y) /* NaN last */
        return (x != x) - (y != y);
    return (x > y) - (x < y);
}

/* Sorts each last-dim row of a contiguous array (by value, NaN last). */
static void sort_rows(conf_array *a)
{
    size_t size = tsr_dtype_size(a->dtype);
    int64_t row = a->ndim ? a->shape[a->ndim - 1] : 1, n = 1;
    for (int i = 0; i < a->ndim; i++)
        n *= a->shape[i];
    for (int64_t r = 0; row > 0 && r < n / row; r++) {
        unsigned char *p = (unsigned char *)a->data + (size_t)(r * row) * size;
        for (int64_t i = 1; i < row; i++) { /* insertion sort: rows are short */
            unsigned char tmp[16];
            memcpy(tmp, p + (size_t)i * size, size);
            int64_t j = i;
            for (; j > 0 && compare_rows(p + (size_t)(j - 1) * size, tmp, a->dtype) > 0; j--)
                memcpy(p + (size_t)j * size, p + (size_t)(j - 1) * size, size);
            memcpy(p + (size_t)j * size, tmp, size);
        }
    }
}

static bool draw_searchsorted(conf_draft *d)
{
    bool bucketize = strcmp(d->c->op, "bucketize") == 0;
    int64_t len = range(d, 0, 6), s[TSR_MAX_DIMS];
    int n = conf_draft_rank(d, 0, 3);
    conf_draft_shape(d, n, true, s);
    conf_value_spec values = conf_values_of(CONF_VALUES_DISTINCT);
    conf_input *seq = conf_draft_tensor(d, bucketize ? "boundaries" : "sorted_sequence", d->dtype,
                                        1, &len, values, CONF_LAYOUT_CONTIGUOUS);
    sort_rows(conf_draft_array(d, seq));
    conf_draft_tensor(d, "input", d->dtype, n, s, general(), CONF_LAYOUT_COUNT);
    if (pick(d, 0.5))
        conf_draft_arg_bool(d, "right", true);
    if (d->dtype_out == TSR_INT32)
        conf_draft_arg_bool(d, "out_int32", true);
    return d->dtype_out == TSR_INT32 || d->dtype_out == TSR_INT64;
}

static bool draw_unique(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, conf_values_range(-2, 2), &n, s);
    if (strcmp(d->c->op, "unique") == 0)
        conf_draft_arg_bool(d, "sorted", true);
    conf_draft_arg_bool(d, "return_inverse", pick(d, 0.5));
    conf_draft_arg_bool(d, "return_counts", pick(d, 0.5));
    return true;
}

/* ------------------------------------------------------------------------ */
/* nn kernels and creation                                                   */
/* ------------------------------------------------------------------------ */

static bool draw_softmax(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 4, true, general(), &n, s);
    conf_draft_arg_int(d, "dim", conf_draft_dim(d, n));
    return true;
}

static bool draw_norm(conf_draft *d)
{
    bool layer = strcmp(d->c->op, "layer_norm") == 0;
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 1, 4, true, conf_values_of(CONF_VALUES_NO_HUGE), &n, s);
    int k = (int)range(d, 1, n);
    const int64_t *normalized = s + (n - k);
    if (pick(d, 0.6))
        conf_draft_tensor(d, "weight", d->dtype, k, normalized, general(), CONF_LAYOUT_COUNT);
    if (layer && pick(d, 0.6))
        conf_draft_tensor(d, "bias", d->dtype, k, normalized, general(), CONF_LAYOUT_COUNT);
    conf_draft_arg_int_list(d, "normalized_shape", k, normalized);
    if (pick(d, 0.4))
        conf_draft_arg_double(d, "eps", pick(d, 0.5) ? 1e-3 : 0.0);
    return true;
}

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

/* mse_loss, l1_loss, smooth_l1_loss(input, target, reduction=, beta=). */
static bool draw_pointwise_loss(conf_draft *d)
{
    int n;
    int64_t s[TSR_MAX_DIMS];
    tensor_of_rank(d, "input", 0, 3, true, conf_values_of(CONF_VALUES_NO_HUGE), &n, s);
    conf_draft_tensor(d, "target", d->dtype, n, s, conf_values_of(CONF_VALUES_NO_HUGE),
                      CONF_LAYOUT_COUNT);
    static const char *const reductions[] = {"mean", "sum", "none"};
    if (pick(d, 0.6))
        conf_draft_arg_string(d, "reduction", reductions[range(d, 0, 2)]);
    if (strcmp(d->c->op, "smooth_l1_loss") == 0 && pick(d, 0.6))
        conf_draft_arg_double(d, "beta", pick(d, 0.3) ? 0.0 : 0.5);
    return true;
}

/* cross_entropy / nll_loss with class indices: input (N, C) or (C). */
static bool draw_class_loss(conf_draft *d)
{
    int64_t classes = range(d, 1, 5), batch = range(d, 0, 4);
    int64_t in[2] = {batch, classes};
    bool batched = pick(d, 0.8);
    conf_draft_tensor(d, "input", d->dtype, batched ? 2 : 1, batched ? in : in + 1,
                      conf_values_of(CONF_VALUES_NO_HUGE), CONF_LAYOUT_COUNT);
    conf_draft_tensor(d, "target", TSR_INT64, batched ? 1 : 0, &batch,
                      conf_values_range(0, classes - 1), CONF_LAYOUT_COUNT);
    if (pick(d, 0.3))
        conf_draft_tensor(d, "weight", d->dtype, 1, &classes, conf_values_range(0, 3),
                          CONF_LAYOUT_CONTIGUOUS);
    static const char *const reductions[] = {"mean", "sum", "none"};
    if (pick(d, 0.6))
        conf_draft_arg_string(d, "reduction", reductions[range(d, 0, 2)]);
    return true;
}

static bool draw_linear(conf_draft *d)
{
    int n = conf_draft_rank(d, 1, 3);
    int64_t s[TSR_MAX_DIMS], out = range(d, 1, 4);
    conf_draft_shape(d, n, true, s);
    conf_value_spec values = conf_values_of(CONF_VALUES_NO_HUGE);
    conf_draft_tensor(d, "input", d->dtype, n, s, values, CONF_LAYOUT_COUNT);
    int64_t w[2] = {out, s[n - 1]};
    conf_draft_tensor(d, "weight", d->dtype, 2, w, values, CONF_LAYOUT_COUNT);
    if (pick(d, 0.6))
        conf_draft_tensor(d, "bias", d->dtype, 1, &out, values, CONF_LAYOUT_COUNT);
    return true;
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

/* ------------------------------------------------------------------------ */
/* In-place Tensor methods                                                   */
/* ------------------------------------------------------------------------ */

/* self (never expanded: it is written) and an operand broadcasting to it. */
static bool draw_inplace_binary(conf_draft *d)
{
    const char *op = d->c->op;
    int n = conf_draft_rank(d, 0, 4), nb;
    int64_t s[TSR_MAX_DIMS], b[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), conf_random_layout(d->rng, false));
    const char *name = strcmp(op, "pow_") == 0 ? "exponent" : "other";
    if (pick(d, 0.2)) {
        conf_draft_scalar(d, name, conf_draft_scalar_value(d, d->dtype, general()));
        return true;
    }
    conf_draft_broadcastable(d, n, s, &nb, b);
    conf_value_spec values = general();
    if (tsr_dtype_is_integral(d->dtype, false) && strcmp(op, "pow_") == 0)
        values = conf_values_range(0, 4);
    conf_draft_tensor(d, name, d->dtype, nb, b, values, CONF_LAYOUT_COUNT);
    if (strcmp(op, "div_") == 0 && pick(d, 0.5))
        conf_draft_arg_string(d, "rounding_mode", pick(d, 0.5) ? "trunc" : "floor");
    return true;
}

static bool draw_clamp_(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS];
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), conf_random_layout(d->rng, false));
    conf_draft_scalar(d, "min", conf_draft_scalar_value(d, d->dtype, general()));
    if (pick(d, 0.5))
        conf_draft_scalar(d, "max", conf_draft_scalar_value(d, d->dtype, general()));
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

static bool draw_fill_zero_(conf_draft *d)
{
    int n = conf_draft_rank(d, 0, 4);
    int64_t s[TSR_MAX_DIMS], none = 0;
    conf_draft_shape(d, n, true, s);
    conf_draft_tensor(d, "self", d->dtype, n, s, general(), conf_random_layout(d->rng, false));
    if (strcmp(d->c->op, "fill_") != 0)
        return true;
    if (pick(d, 0.7))
        conf_draft_scalar(d, "value", conf_draft_scalar_value(d, d->dtype, general()));
    else
        conf_draft_tensor(d, "value", d->dtype, 0, &none, general(), CONF_LAYOUT_CONTIGUOUS);
    return true;
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

enum { EXACT = CONF_DIFF_EXACT };

const conf_diff_op conf_diff_ops_sort[] = {
    {"sort", draw_sort, EXACT},
    {"argsort", draw_sort, EXACT},
    {"topk", draw_selection, EXACT},
    {"kthvalue", draw_selection, EXACT},
    {"median", draw_selection, EXACT},
    {"searchsorted", draw_searchsorted, EXACT},
    {"bucketize", draw_searchsorted, EXACT},
    {"unique", draw_unique, EXACT},
    {"unique_consecutive", draw_unique, EXACT},
    {"softmax", draw_softmax, 0},
    {"log_softmax", draw_softmax, 0},
    {"layer_norm", draw_norm, 0},
    {"rms_norm", draw_norm, 0},
    {"mse_loss", draw_pointwise_loss, 0},
    {"l1_loss", draw_pointwise_loss, 0},
    {"smooth_l1_loss", draw_pointwise_loss, 0},
    {"cross_entropy", draw_class_loss, 0},
    {"nll_loss", draw_class_loss, 0},
    {"linear", draw_linear, 0},
    {"arange", draw_range_creation, 0},
    {"linspace", draw_range_creation, 0},
    {"eye", draw_range_creation, EXACT},
    {"zeros", draw_creation, EXACT},
    {"ones", draw_creation, EXACT},
    {"full", draw_creation, EXACT},
    {"add_", draw_inplace_binary, 0},
    {"sub_", draw_inplace_binary, 0},
    {"mul_", draw_inplace_binary, 0},
    {"div_", draw_inplace_binary, 0},
    {"floor_divide_", draw_inplace_binary, 0},
    {"remainder_", draw_inplace_binary, 0},
    {"pow_", draw_inplace_binary, 0},
    {"clamp_", draw_clamp_, EXACT},
    {"copy_", draw_copy_, EXACT},
    {"fill_", draw_fill_zero_, EXACT},
    {"zero_", draw_fill_zero_, EXACT},
};
const size_t conf_diff_ops_sort_count = sizeof conf_diff_ops_sort / sizeof conf_diff_ops_sort[0];
