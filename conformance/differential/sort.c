/* Differential draws for sorting: sort, argsort, topk, kthvalue, median,
 * searchsorted, bucketize. */
#include "differential/draw_helpers.h"

#include <string.h>

static int compare_rows(const void *a, const void *b, tsr_dtype dtype);

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

const conf_diff_op conf_diff_draws_sort[] = {
    {"sort", draw_sort, EXACT},
    {"argsort", draw_sort, EXACT},
    {"topk", draw_selection, EXACT},
    {"kthvalue", draw_selection, EXACT},
    {"median", draw_selection, EXACT},
    {"searchsorted", draw_searchsorted, EXACT},
    {"bucketize", draw_searchsorted, EXACT},
};
const size_t conf_diff_draws_sort_count =
    sizeof conf_diff_draws_sort / sizeof conf_diff_draws_sort[0];
