/* Sorting, searching and sets: each test pins one PyTorch 1.13 rule
 * (expected values computed with torch).
 *
 * Families here: sort (sort, topk, kthvalue, median, searchsorted) and unique. */
#include "check.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static void check_shape(const tsr_tensor *t, int ndim, const int64_t *shape)
{
    if (!t) {
        CHECK_TRUE(!"tensor exists");
        return;
    }
    CHECK_INT(tsr_tensor_ndim(t), ndim);
    for (int i = 0; i < ndim && i < tsr_tensor_ndim(t); i++)
        CHECK_INT(tsr_tensor_shape(t)[i], shape[i]);
}

/* Bitwise for zeros' signs: sort moves elements, it never rewrites them. */
static void check_f32_bits(const tsr_tensor *t, const float *expected, size_t n)
{
    float got[64];
    if (!t || tsr_tensor_numel(t) != (int64_t)n || n > 64 || tsr_tensor_dtype(t) != TSR_FLOAT32 ||
        tsr_to_host(t, got, n * sizeof(float)) != TSR_OK) {
        CHECK_TRUE(!"a float32 tensor of the expected size");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        CHECK_DOUBLE(got[i], expected[i], 0);
        CHECK_INT(signbit(got[i]) != 0, signbit(expected[i]) != 0);
    }
}

static void check_int(const tsr_tensor *t, tsr_dtype dtype, const int64_t *expected, size_t n)
{
    int64_t got[64];
    tsr_tensor *wide = NULL;
    if (!t || tsr_tensor_numel(t) != (int64_t)n || n > 64 || tsr_tensor_dtype(t) != dtype ||
        tsr_to_dtype(t, TSR_INT64, &wide) != TSR_OK ||
        tsr_to_host(wide, got, n * sizeof(int64_t)) != TSR_OK) {
        CHECK_TRUE(!"an integer tensor of the expected dtype and size");
        tsr_tensor_release(wide);
        return;
    }
    for (size_t i = 0; i < n; i++)
        CHECK_INT(got[i], expected[i]);
    tsr_tensor_release(wide);
}

/* Releases *t and forgets it, so a later failing call cannot leave a stale
 * pointer behind. */
static void drop(tsr_tensor **t)
{
    tsr_tensor_release(*t);
    *t = NULL;
}

static void release(tsr_tensor **ts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tsr_tensor_release(ts[i]);
}

static const float SPECIALS[8] = {0.0f, -0.0f, NAN, 1.0f, -NAN, 0.0f, -0.0f, -INFINITY};

static void sort_puts_nan_last_and_keeps_equal_zeros_in_order(void)
{
    tsr_tensor *t = make_f32(1, SHAPE(8), SPECIALS, 8), *v = NULL, *i = NULL;
    CHECK_OK(tsr_sort(t, 0, false, &v, &i));
    check_f32_bits(v, (float[]){-INFINITY, 0.0f, -0.0f, 0.0f, -0.0f, 1, NAN, -NAN}, 8);
    check_int(i, TSR_INT64, (int64_t[]){7, 0, 1, 5, 6, 3, 2, 4}, 8);
    release((tsr_tensor *[]){v, i}, 2);
    CHECK_OK(tsr_sort(t, -1, true, &v, &i));
    check_f32_bits(v, (float[]){NAN, -NAN, 1, 0.0f, -0.0f, 0.0f, -0.0f, -INFINITY}, 8);
    check_int(i, TSR_INT64, (int64_t[]){2, 4, 3, 0, 1, 5, 6, 7}, 8);
    release((tsr_tensor *[]){t, v, i}, 3);
}

static void sort_descending_is_stable_for_ties(void)
{
    tsr_tensor *t = make_i64(1, SHAPE(6), (int64_t[]){2, 1, 2, 1, 2, 3}, 6), *idx = NULL;
    CHECK_OK(tsr_argsort(t, 0, true, &idx));
    check_int(idx, TSR_INT64, (int64_t[]){5, 0, 2, 4, 1, 3}, 6);
    release((tsr_tensor *[]){t, idx}, 2);
}

static void sort_of_a_transposed_view_sorts_along_dim(void)
{
    tsr_tensor *t = make_i64(2, SHAPE(3, 2), (int64_t[]){3, 0, 1, 5, 2, 4}, 6), *tt = NULL;
    tsr_tensor *v = NULL, *i = NULL;
    CHECK_OK(tsr_transpose(t, 0, 1, &tt)); /* [[3, 1, 2], [0, 5, 4]] */
    CHECK_OK(tsr_sort(tt, 1, false, &v, &i));
    check_int(v, TSR_INT64, (int64_t[]){1, 2, 3, 0, 4, 5}, 6);
    check_int(i, TSR_INT64, (int64_t[]){1, 2, 0, 0, 2, 1}, 6);
    release((tsr_tensor *[]){t, tt, v, i}, 4);
}

static void sort_refuses_complex_and_selections_refuse_bool(void)
{
    tsr_tensor *z = NULL, *b = NULL, *v = NULL, *i = NULL;
    CHECK_OK(tsr_zeros(1, SHAPE(3), TSR_COMPLEX64, NULL, &z));
    CHECK_OK(tsr_zeros(1, SHAPE(3), TSR_BOOL, NULL, &b));
    CHECK_ERROR(tsr_sort(z, 0, false, &v, &i), TSR_ERR_DTYPE, "complex64");
    CHECK_OK(tsr_sort(b, 0, false, &v, &i)); /* sort takes bool, topk does not */
    release((tsr_tensor *[]){v, i}, 2);
    CHECK_ERROR(tsr_topk(b, 1, 0, true, &v, &i), TSR_ERR_DTYPE, "bool");
    release((tsr_tensor *[]){z, b}, 2);
}

static void topk_takes_the_largest_or_smallest_in_order(void)
{
    tsr_tensor *t = make_f32(1, SHAPE(4), (float[]){3, NAN, 1, -1}, 4), *v = NULL, *i = NULL;
    CHECK_OK(tsr_topk(t, 2, 0, true, &v, &i)); /* NaN is the largest */
    check_f32_bits(v, (float[]){NAN, 3}, 2);
    check_int(i, TSR_INT64, (int64_t[]){1, 0}, 2);
    release((tsr_tensor *[]){v, i}, 2);
    CHECK_OK(tsr_topk(t, 2, 0, false, &v, &i));
    check_f32_bits(v, (float[]){-1, 1}, 2);
    release((tsr_tensor *[]){v, i}, 2);
    CHECK_ERROR(tsr_topk(t, 5, 0, true, &v, &i), TSR_ERR_INDEX, "out of range");
    tsr_tensor_release(t);
}

static void kthvalue_and_median_take_the_lower_middle(void)
{
    tsr_tensor *t = make_f32(2, SHAPE(2, 4), (float[]){4, 3, 1, 2, 1, NAN, 2, NAN}, 8);
    tsr_tensor *v = NULL, *i = NULL, *m = NULL, *empty = NULL;
    CHECK_OK(tsr_median_dim(t, 1, false, &v, &i));
    check_shape(v, 1, SHAPE(2));
    check_f32_bits(v, (float[]){2, NAN}, 2); /* lower median; NaN where the row has one */
    check_int(i, TSR_INT64, (int64_t[]){3, 1}, 2);
    release((tsr_tensor *[]){v, i}, 2);
    CHECK_OK(tsr_kthvalue(t, 3, 1, true, &v, &i));
    check_shape(v, 2, SHAPE(2, 1));
    check_f32_bits(v, (float[]){3, NAN}, 2);
    check_int(i, TSR_INT64, (int64_t[]){1, 1}, 2);
    release((tsr_tensor *[]){v, i}, 2);
    CHECK_ERROR(tsr_kthvalue(t, 0, 1, false, &v, &i), TSR_ERR_INDEX, "out of range");
    CHECK_OK(tsr_empty(1, SHAPE(0), TSR_FLOAT32, NULL, &empty));
    CHECK_OK(tsr_median(empty, &m));
    check_shape(m, 0, NULL);
    check_f32_bits(m, (float[]){NAN}, 1);
    CHECK_ERROR(tsr_median_dim(empty, 0, false, &v, &i), TSR_ERR_INDEX, "non-zero size");
    release((tsr_tensor *[]){t, m, empty}, 3);
}

static const float SEQ[7] = {-1.0f, 0.0f, 0.5f, 0.5f, 0.5f, 2.0f, 3.0f};
static const float VALUES[10] = {0.5f, -2.0f,    3.0f,      4.0f,  0.25f,
                                 NAN,  INFINITY, -INFINITY, -0.0f, 2.0f};

static void searchsorted_bisects_like_pytorch(void)
{
    tsr_tensor *seq = make_f32(1, SHAPE(7), SEQ, 7), *vals = make_f32(1, SHAPE(10), VALUES, 10);
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_searchsorted(seq, tsr_operand_tensor(vals), false, false, NULL, NULL, &out));
    check_int(out, TSR_INT64, (int64_t[]){2, 0, 6, 7, 2, 7, 7, 0, 1, 5}, 10);
    drop(&out);
    CHECK_OK(tsr_searchsorted(seq, tsr_operand_tensor(vals), true, false, "right", NULL, &out));
    check_int(out, TSR_INT32, (int64_t[]){5, 0, 7, 7, 2, 7, 7, 0, 2, 6}, 10);
    drop(&out);
    CHECK_OK(tsr_searchsorted(seq, tsr_operand_scalar(tsr_scalar_float(0.5)), false, false, NULL,
                              NULL, &out));
    check_shape(out, 0, NULL);
    check_int(out, TSR_INT64, (int64_t[]){2}, 1);
    drop(&out);
    CHECK_ERROR(tsr_searchsorted(seq, tsr_operand_tensor(vals), false, true, "left", NULL, &out),
                TSR_ERR_VALUE, "opposites");
    release((tsr_tensor *[]){seq, vals}, 2);
}

static void searchsorted_promotes_and_applies_a_sorter(void)
{
    tsr_tensor *seq = make_i64(1, SHAPE(4), (int64_t[]){1, 2, 2, 3}, 4), *out = NULL;
    tsr_tensor *vals = make_f32(1, SHAPE(2), (float[]){2.5f, 2}, 2);
    tsr_tensor *unsorted = make_f32(1, SHAPE(3), (float[]){3, 1, 2}, 3);
    tsr_tensor *sorter = make_i64(1, SHAPE(3), (int64_t[]){1, 2, 0}, 3);
    CHECK_OK(tsr_searchsorted(seq, tsr_operand_tensor(vals), false, false, NULL, NULL, &out));
    check_int(out, TSR_INT64, (int64_t[]){3, 1}, 2);
    drop(&out);
    CHECK_OK(
        tsr_searchsorted(unsorted, tsr_operand_tensor(vals), false, false, NULL, sorter, &out));
    check_int(out, TSR_INT64, (int64_t[]){2, 1}, 2);
    drop(&out);
    tsr_tensor *two_d = NULL;
    CHECK_OK(tsr_reshape(seq, 2, SHAPE(2, 2), &two_d));
    CHECK_ERROR(tsr_bucketize(tsr_operand_tensor(vals), two_d, false, false, &out), TSR_ERR_SHAPE,
                "1 dimension");
    CHECK_ERROR(tsr_searchsorted(two_d, tsr_operand_tensor(vals), false, false, NULL, NULL, &out),
                TSR_ERR_SHAPE, "first N-1 dimensions");
    release((tsr_tensor *[]){seq, vals, unsorted, sorter, two_d}, 5);
}

static void unique_sorts_and_reports_inverse_and_counts(void)
{
    tsr_tensor *t = make_i64(1, SHAPE(6), (int64_t[]){3, 1, 2, 3, 5, 1}, 6);
    tsr_tensor *u = NULL, *inv = NULL, *counts = NULL;
    CHECK_OK(tsr_unique(t, false, NULL, &u, &inv, &counts));
    check_int(u, TSR_INT64, (int64_t[]){1, 2, 3, 5}, 4);
    check_int(inv, TSR_INT64, (int64_t[]){2, 0, 1, 2, 3, 0}, 6);
    check_int(counts, TSR_INT64, (int64_t[]){2, 1, 2, 1}, 4);
    release((tsr_tensor *[]){t, u, inv, counts}, 4);
}

static void unique_with_dim_orders_rows_lexicographically(void)
{
    tsr_tensor *t = make_i64(2, SHAPE(4, 2), (int64_t[]){1, 2, 0, 5, 1, 2, 0, 4}, 8);
    tsr_tensor *u = NULL, *inv = NULL, *counts = NULL;
    int64_t dim = 0;
    CHECK_OK(tsr_unique(t, true, &dim, &u, &inv, &counts));
    check_shape(u, 2, SHAPE(3, 2));
    check_int(u, TSR_INT64, (int64_t[]){0, 4, 0, 5, 1, 2}, 6);
    check_int(inv, TSR_INT64, (int64_t[]){2, 1, 2, 0}, 4);
    check_int(counts, TSR_INT64, (int64_t[]){1, 1, 2}, 3);
    release((tsr_tensor *[]){t, u, inv, counts}, 4);
}

static void unique_consecutive_treats_each_nan_as_new(void)
{
    tsr_tensor *t = make_f32(1, SHAPE(7), (float[]){1, 1, NAN, NAN, 2, 2, 1}, 7);
    tsr_tensor *u = NULL, *inv = NULL, *counts = NULL, *half = NULL;
    CHECK_OK(tsr_unique_consecutive(t, NULL, &u, &inv, &counts));
    check_f32_bits(u, (float[]){1, NAN, NAN, 2, 1}, 5);
    check_int(inv, TSR_INT64, (int64_t[]){0, 0, 1, 2, 3, 3, 4}, 7);
    check_int(counts, TSR_INT64, (int64_t[]){2, 1, 1, 2, 1}, 5);
    release((tsr_tensor *[]){u, inv, counts}, 3);
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT16, &half));
    CHECK_ERROR(tsr_unique(half, true, NULL, &u, NULL, NULL), TSR_ERR_DTYPE, "float16");
    release((tsr_tensor *[]){t, half}, 2);
}

int main(void)
{
    RUN_TEST(sort_puts_nan_last_and_keeps_equal_zeros_in_order);
    RUN_TEST(sort_descending_is_stable_for_ties);
    RUN_TEST(sort_of_a_transposed_view_sorts_along_dim);
    RUN_TEST(sort_refuses_complex_and_selections_refuse_bool);
    RUN_TEST(topk_takes_the_largest_or_smallest_in_order);
    RUN_TEST(kthvalue_and_median_take_the_lower_middle);
    RUN_TEST(searchsorted_bisects_like_pytorch);
    RUN_TEST(searchsorted_promotes_and_applies_a_sorter);
    RUN_TEST(unique_sorts_and_reports_inverse_and_counts);
    RUN_TEST(unique_with_dim_orders_rows_lexicographically);
    RUN_TEST(unique_consecutive_treats_each_nan_as_new);
    return check_summary("test_sort");
}
