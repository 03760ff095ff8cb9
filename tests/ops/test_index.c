/* Indexing, joining and rearranging ops: each test pins one PyTorch 1.13
 * rule (expected values computed with torch).
 *
 * Families here: index (index_select, gather, take, take_along_dim,
 * embedding, one_hot, nonzero), join, mask, scatter and rearrange. */
#include "check.h"

#include <stdlib.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static tsr_tensor *arange(int64_t n, tsr_dtype dtype)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), dtype, NULL, &t));
    return t;
}

/* arange(prod(shape)) as float32 of that shape. */
static tsr_tensor *grid(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *flat = arange(n, TSR_FLOAT32), *t = NULL;
    CHECK_OK(tsr_reshape(flat, ndim, shape, &t));
    tsr_tensor_release(flat);
    return t;
}

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

static void check_f32(const tsr_tensor *t, const float *expected, size_t n)
{
    float got[256];
    if (!t || tsr_tensor_numel(t) != (int64_t)n || n > 256 || tsr_tensor_dtype(t) != TSR_FLOAT32 ||
        tsr_to_host(t, got, n * sizeof(float)) != TSR_OK) {
        CHECK_TRUE(!"a float32 tensor of the expected size");
        return;
    }
    for (size_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], 0);
}

static void check_i64(const tsr_tensor *t, const int64_t *expected, size_t n)
{
    int64_t got[256];
    if (!t || tsr_tensor_numel(t) != (int64_t)n || n > 256 || tsr_tensor_dtype(t) != TSR_INT64 ||
        tsr_to_host(t, got, n * sizeof(int64_t)) != TSR_OK) {
        CHECK_TRUE(!"an int64 tensor of the expected size");
        return;
    }
    for (size_t i = 0; i < n; i++)
        CHECK_INT(got[i], expected[i]);
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

/* ------------------------------------------------------------------------ */
/* Joining and splitting                                                     */
/* ------------------------------------------------------------------------ */

static void cat_promotes_and_skips_legacy_empty_vectors(void)
{
    tsr_tensor *a = grid(2, SHAPE(2, 2)), *b = NULL, *empty = NULL, *out = NULL;
    int64_t ints[2] = {7, 8};
    b = make_i64(2, SHAPE(1, 2), ints, 2);
    CHECK_OK(tsr_empty(1, SHAPE(0), TSR_FLOAT64, NULL, &empty));
    const tsr_tensor *list[3] = {a, empty, b};
    CHECK_OK(tsr_cat(list, 3, 0, &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_FLOAT64); /* the skipped float64 still promotes */
    check_shape(out, 2, SHAPE(3, 2));
    tsr_tensor *back = NULL;
    CHECK_OK(tsr_to_dtype(out, TSR_FLOAT32, &back));
    check_f32(back, (float[]){0, 1, 2, 3, 7, 8}, 6);
    release((tsr_tensor *[]){a, b, empty, out, back}, 5);
}

static void cat_rejects_zero_d_and_mismatched_sizes(void)
{
    tsr_tensor *a = grid(2, SHAPE(2, 3)), *b = grid(2, SHAPE(2, 4)), *s = NULL, *out = NULL;
    CHECK_OK(tsr_zeros(0, NULL, TSR_FLOAT32, NULL, &s));
    CHECK_ERROR(tsr_cat((const tsr_tensor *[]){a, b}, 2, 0, &out), TSR_ERR_SHAPE,
                "must match except in dimension 0");
    CHECK_ERROR(tsr_cat((const tsr_tensor *[]){s, s}, 2, 0, &out), TSR_ERR_SHAPE,
                "zero-dimensional tensor (at position 0)");
    CHECK_ERROR(tsr_cat(NULL, 0, 0, &out), TSR_ERR_INVALID_ARGUMENT, "non-empty");
    CHECK_ERROR(tsr_cat((const tsr_tensor *[]){a, a}, 2, 2, &out), TSR_ERR_INDEX, "out of range");
    CHECK_OK(tsr_cat((const tsr_tensor *[]){a, b}, 2, -1, &out));
    check_shape(out, 2, SHAPE(2, 7));
    release((tsr_tensor *[]){a, b, s, out}, 4);
}

static void stack_wraps_dim_over_one_more_dim(void)
{
    tsr_tensor *a = grid(2, SHAPE(2, 3)), *out = NULL, *bad = grid(2, SHAPE(3, 2));
    CHECK_OK(tsr_stack((const tsr_tensor *[]){a, a}, 2, -1, &out));
    check_shape(out, 3, SHAPE(2, 3, 2));
    check_f32(out, (float[]){0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}, 12);
    drop(&out);
    CHECK_ERROR(tsr_stack((const tsr_tensor *[]){a, bad}, 2, 0, &out), TSR_ERR_SHAPE, "equal size");
    release((tsr_tensor *[]){a, bad}, 2);
}

static void hstack_and_vstack_lift_low_rank_tensors(void)
{
    tsr_tensor *s = NULL, *v = arange(2, TSR_FLOAT32), *m = grid(2, SHAPE(2, 2)), *out = NULL;
    CHECK_OK(tsr_full(0, NULL, tsr_scalar_float(9), TSR_FLOAT32, NULL, &s));
    CHECK_OK(tsr_hstack((const tsr_tensor *[]){s, v}, 2, &out));
    check_f32(out, (float[]){9, 0, 1}, 3);
    drop(&out);
    CHECK_OK(tsr_vstack((const tsr_tensor *[]){v, m}, 2, &out));
    check_shape(out, 2, SHAPE(3, 2));
    check_f32(out, (float[]){0, 1, 0, 1, 2, 3}, 6);
    release((tsr_tensor *[]){s, v, m, out}, 4);
}

static void split_counts_then_fills_views(void)
{
    tsr_tensor *t = grid(2, SHAPE(5, 2)), *pieces[3] = {NULL};
    size_t n = 0;
    CHECK_OK(tsr_split(t, 2, 0, NULL, 0, &n));
    CHECK_INT(n, 3);
    CHECK_ERROR(tsr_split(t, 2, 0, pieces, 2, &n), TSR_ERR_INVALID_ARGUMENT, "room for 2");
    CHECK_OK(tsr_split(t, 2, 0, pieces, 3, &n));
    check_shape(pieces[2], 2, SHAPE(1, 2)); /* the last piece is shorter */
    check_f32(pieces[2], (float[]){8, 9}, 2);
    CHECK_TRUE(tsr_tensor_shares_storage(pieces[1], t));
    release(pieces, 3);
    CHECK_ERROR(tsr_split(t, 0, 0, pieces, 3, &n), TSR_ERR_VALUE, "only be 0 if");
    CHECK_ERROR(tsr_split_sections(t, SHAPE(1, 3), 2, 0, pieces), TSR_ERR_VALUE, "sum exactly");
    CHECK_OK(tsr_split_sections(t, SHAPE(0, 5), 2, 0, pieces));
    check_shape(pieces[0], 2, SHAPE(0, 2));
    release(pieces, 2);
    tsr_tensor_release(t);
}

static void chunk_of_an_empty_dim_gives_every_chunk_empty(void)
{
    tsr_tensor *t = NULL, *pieces[4] = {NULL}, *six = grid(2, SHAPE(6, 2));
    size_t n = 0;
    CHECK_OK(tsr_zeros(2, SHAPE(0, 3), TSR_FLOAT32, NULL, &t));
    CHECK_OK(tsr_chunk(t, 2, 0, pieces, 4, &n));
    CHECK_INT(n, 2);
    release(pieces, n);
    CHECK_OK(tsr_chunk(six, 4, 0, pieces, 4, &n)); /* ceil(6 / 4) = 2 rows each: 3 pieces */
    CHECK_INT(n, 3);
    release(pieces, n);
    CHECK_ERROR(tsr_chunk(six, 0, 0, pieces, 4, &n), TSR_ERR_VALUE, "greater than 0");
    release((tsr_tensor *[]){t, six}, 2);
}

static void unbind_drops_the_dim(void)
{
    tsr_tensor *t = grid(2, SHAPE(2, 3)), *pieces[3] = {NULL}, *s = NULL;
    size_t n = 0;
    CHECK_OK(tsr_unbind(t, 1, pieces, 3, &n));
    CHECK_INT(n, 3);
    check_shape(pieces[1], 1, SHAPE(2));
    check_f32(pieces[1], (float[]){1, 4}, 2);
    release(pieces, 3);
    CHECK_OK(tsr_zeros(0, NULL, TSR_FLOAT32, NULL, &s));
    CHECK_ERROR(tsr_unbind(s, 0, pieces, 3, &n), TSR_ERR_INDEX, "no dimensions");
    release((tsr_tensor *[]){t, s}, 2);
}

/* ------------------------------------------------------------------------ */
/* Masks                                                                     */
/* ------------------------------------------------------------------------ */

static tsr_tensor *bools(int ndim, const int64_t *shape, const uint8_t *v, size_t n)
{
    return make_tensor(TSR_BOOL, ndim, shape, v, n);
}

static void masked_fill_broadcasts_and_checks_the_value(void)
{
    tsr_tensor *t = arange(4, TSR_FLOAT32), *mask = bools(2, SHAPE(2, 1), (uint8_t[]){1, 0}, 2);
    tsr_tensor *out = NULL, *u8 = NULL, *i8 = NULL, *value = NULL;
    CHECK_OK(tsr_masked_fill(t, mask, tsr_operand_scalar(tsr_scalar_float(-1)), &out));
    check_shape(out, 2, SHAPE(2, 4)); /* the mask grows the output */
    check_f32(out, (float[]){-1, -1, -1, -1, 0, 1, 2, 3}, 8);
    drop(&out);
    u8 = make_tensor(TSR_UINT8, 1, SHAPE(4), (uint8_t[]){1, 0, 2, 0}, 4);
    CHECK_ERROR(tsr_masked_fill(t, u8, tsr_operand_scalar(tsr_scalar_int(1)), &out), TSR_ERR_VALUE,
                "0 and 1 values only");
    CHECK_OK(tsr_to_dtype(t, TSR_INT8, &i8));
    CHECK_ERROR(tsr_masked_fill(i8, mask, tsr_operand_scalar(tsr_scalar_float(1e10)), &out),
                TSR_ERR_OVERFLOW, "int8");
    CHECK_ERROR(tsr_masked_fill(t, mask, tsr_operand_scalar(tsr_scalar_complex(1, 2)), &out),
                TSR_ERR_OVERFLOW, "float32");
    CHECK_OK(tsr_full(0, NULL, tsr_scalar_float(3.7), TSR_FLOAT64, NULL, &value));
    CHECK_OK(tsr_masked_fill(i8, mask, tsr_operand_tensor(value), &out));
    int8_t got[8];
    CHECK_OK(tsr_to_host(out, got, sizeof got));
    CHECK_INT(got[0], 3); /* a 0-d float value truncates into an integer tensor */
    CHECK_INT(got[4], 0);
    release((tsr_tensor *[]){t, mask, out, u8, i8, value}, 6);
}

static void masked_fill_in_place_bumps_version_and_refuses_growth(void)
{
    tsr_tensor *t = arange(4, TSR_FLOAT32), *mask = bools(1, SHAPE(4), (uint8_t[]){0, 1, 0, 1}, 4);
    tsr_tensor *big = bools(2, SHAPE(2, 4), (uint8_t[]){0, 0, 0, 0, 1, 1, 1, 1}, 8);
    tsr_tensor *one = arange(1, TSR_FLOAT32), *expanded = NULL;
    uint64_t v0 = tsr_tensor_version(t);
    CHECK_OK(tsr_masked_fill_(t, mask, tsr_operand_scalar(tsr_scalar_int(7))));
    check_f32(t, (float[]){0, 7, 2, 7}, 4);
    CHECK_TRUE(tsr_tensor_version(t) > v0);
    CHECK_ERROR(tsr_masked_fill_(t, big, tsr_operand_scalar(tsr_scalar_int(7))), TSR_ERR_SHAPE,
                "doesn't match the broadcast shape");
    CHECK_OK(tsr_expand(one, 1, SHAPE(4), &expanded));
    CHECK_ERROR(tsr_masked_fill_(expanded, mask, tsr_operand_scalar(tsr_scalar_int(7))),
                TSR_ERR_INVALID_ARGUMENT, "internal overlap");
    release((tsr_tensor *[]){t, mask, big, one, expanded}, 5);
}

static void masked_select_and_nonzero_follow_c_order(void)
{
    float values[6] = {NAN, -0.0f, 0.0f, 1e-40f, -INFINITY, 2};
    tsr_tensor *t = make_f32(2, SHAPE(2, 3), values, 6), *nz = NULL, *sel = NULL;
    tsr_tensor *mask = bools(1, SHAPE(3), (uint8_t[]){1, 0, 1}, 3);
    CHECK_OK(tsr_nonzero(t, &nz)); /* NaN and denormals count, -0.0 does not */
    check_shape(nz, 2, SHAPE(4, 2));
    check_i64(nz, (int64_t[]){0, 0, 1, 0, 1, 1, 1, 2}, 8);
    CHECK_OK(tsr_masked_select(t, mask, &sel));
    check_shape(sel, 1, SHAPE(4));
    check_f32(sel, (float[]){NAN, 0.0f, 1e-40f, 2}, 4);
    tsr_tensor *i64mask = NULL;
    CHECK_OK(tsr_to_dtype(mask, TSR_INT64, &i64mask));
    CHECK_ERROR(tsr_masked_select(t, i64mask, &sel), TSR_ERR_DTYPE, "bool");
    release((tsr_tensor *[]){t, nz, sel, mask, i64mask}, 5);
}

/* ------------------------------------------------------------------------ */
/* Selecting by index                                                        */
/* ------------------------------------------------------------------------ */

static void index_select_takes_int32_and_names_a_bad_index(void)
{
    tsr_tensor *t = grid(2, SHAPE(3, 2)), *idx = NULL, *out = NULL;
    idx = make_tensor(TSR_INT32, 1, SHAPE(3), (int32_t[]){2, 0, 2}, 12);
    CHECK_OK(tsr_index_select(t, 0, idx, &out));
    check_f32(out, (float[]){4, 5, 0, 1, 4, 5}, 6);
    drop(&out);
    tsr_tensor_release(idx);
    idx = make_i64(1, SHAPE(1), (int64_t[]){3}, 1);
    CHECK_ERROR(tsr_index_select(t, 0, idx, &out), TSR_ERR_INDEX, "index 3 is out of bounds");
    release((tsr_tensor *[]){t, idx}, 2);
}

static void gather_reads_along_dim_and_names_a_bad_index(void)
{
    tsr_tensor *t = grid(2, SHAPE(2, 3)), *idx = make_i64(2, SHAPE(2, 2), (int64_t[]){2, 0, 1, 1}, 4);
    tsr_tensor *out = NULL, *bad = make_i64(2, SHAPE(1, 1), (int64_t[]){-1}, 1);
    CHECK_OK(tsr_gather(t, 1, idx, &out));
    check_f32(out, (float[]){2, 0, 4, 4}, 4);
    CHECK_ERROR(tsr_gather(t, 0, bad, &out), TSR_ERR_INDEX, "index -1");
    release((tsr_tensor *[]){t, idx, out, bad}, 4);
}

static void take_wraps_negative_indices_and_names_the_given_value(void)
{
    tsr_tensor *t = grid(2, SHAPE(2, 3)), *idx = make_i64(1, SHAPE(3), (int64_t[]){-1, -6, 4}, 3);
    tsr_tensor *out = NULL, *bad = make_i64(1, SHAPE(1), (int64_t[]){-7}, 1);
    CHECK_OK(tsr_take(t, idx, &out));
    check_f32(out, (float[]){5, 0, 4}, 3);
    CHECK_ERROR(tsr_take(t, bad, &out), TSR_ERR_INDEX, "index -7");
    release((tsr_tensor *[]){t, idx, out, bad}, 4);
}

static void take_along_dim_broadcasts_outside_dim(void)
{
    tsr_tensor *t = grid(3, SHAPE(1, 2, 3)), *idx = make_i64(3, SHAPE(2, 1, 1), (int64_t[]){0, 1}, 2);
    tsr_tensor *out = NULL;
    int64_t dim = 2;
    CHECK_OK(tsr_take_along_dim(t, idx, &dim, &out));
    check_shape(out, 3, SHAPE(2, 2, 1));
    check_f32(out, (float[]){0, 3, 1, 4}, 4);
    release((tsr_tensor *[]){t, idx, out}, 3);
}

static void embedding_picks_rows_and_checks_padding_idx(void)
{
    tsr_tensor *w = grid(2, SHAPE(3, 2)), *idx = make_i64(2, SHAPE(1, 2), (int64_t[]){2, 0}, 2);
    tsr_tensor *out = NULL;
    int64_t pad = -1, bad_pad = 3;
    CHECK_OK(tsr_embedding(idx, w, &pad, &out));
    check_shape(out, 3, SHAPE(1, 2, 2));
    check_f32(out, (float[]){4, 5, 0, 1}, 4);
    CHECK_ERROR(tsr_embedding(idx, w, &bad_pad, &out), TSR_ERR_INDEX, "padding_idx");
    release((tsr_tensor *[]){w, idx, out}, 3);
}

static void one_hot_infers_classes_from_the_largest_index(void)
{
    tsr_tensor *t = make_i64(1, SHAPE(2), (int64_t[]){1, 2}, 2), *out = NULL;
    CHECK_OK(tsr_one_hot(t, -1, &out));
    check_shape(out, 2, SHAPE(2, 3));
    check_i64(out, (int64_t[]){0, 1, 0, 0, 0, 1}, 6);
    drop(&out);
    CHECK_ERROR(tsr_one_hot(t, 2, &out), TSR_ERR_INDEX, "smaller than num_classes");
    tsr_tensor_release(t);
}

/* ------------------------------------------------------------------------ */
/* Scattering                                                                */
/* ------------------------------------------------------------------------ */

static void scatter_add_sums_repeated_indices_in_index_order(void)
{
    /* (0 + 1e8) + -1e8 + 1 is 1 in float32; any other order gives 0 */
    tsr_tensor *self = NULL, *idx = make_i64(1, SHAPE(3), (int64_t[]){0, 0, 0}, 3), *out = NULL;
    tsr_tensor *src = make_f32(1, SHAPE(3), (float[]){1e8f, -1e8f, 1}, 3);
    CHECK_OK(tsr_zeros(1, SHAPE(1), TSR_FLOAT32, NULL, &self));
    CHECK_OK(tsr_scatter_add(self, 0, idx, src, &out));
    check_f32(out, (float[]){1}, 1);
    drop(&out);
    CHECK_OK(tsr_index_add(self, 0, idx, src, tsr_scalar_int(1), &out));
    check_f32(out, (float[]){1}, 1);
    release((tsr_tensor *[]){self, idx, src, out}, 4);
}

static void scatter_reduce_mean_floors_integers_and_can_exclude_self(void)
{
    tsr_tensor *self = make_i64(1, SHAPE(4), (int64_t[]){10, 20, 30, 40}, 4);
    tsr_tensor *idx = make_i64(1, SHAPE(5), (int64_t[]){0, 0, 1, 3, 3}, 5);
    tsr_tensor *src = make_i64(1, SHAPE(5), (int64_t[]){1, 2, 3, -5, 4}, 5), *out = NULL;
    CHECK_OK(tsr_scatter_reduce(self, 0, idx, src, TSR_REDUCE_MEAN, true, &out));
    check_i64(out, (int64_t[]){4, 11, 30, 13}, 4);
    drop(&out);
    CHECK_OK(tsr_scatter_reduce(self, 0, idx, src, TSR_REDUCE_MEAN, false, &out));
    check_i64(out, (int64_t[]){1, 3, 30, -1}, 4); /* -1 / 2 floors to -1 */
    drop(&out);
    CHECK_OK(tsr_scatter_reduce(self, 0, idx, src, TSR_REDUCE_AMAX, false, &out));
    check_i64(out, (int64_t[]){2, 3, 30, 4}, 4);
    drop(&out);
    CHECK_OK(tsr_scatter_reduce(self, 0, idx, src, TSR_REDUCE_PROD, true, &out));
    check_i64(out, (int64_t[]){20, 60, 30, -800}, 4);
    release((tsr_tensor *[]){self, idx, src, out}, 4);
}

static void scatter_in_place_checks_every_index_before_writing(void)
{
    tsr_tensor *self = arange(3, TSR_FLOAT32), *idx = make_i64(1, SHAPE(2), (int64_t[]){0, 3}, 2);
    tsr_tensor *src = make_f32(1, SHAPE(2), (float[]){9, 9}, 2);
    uint64_t v0 = tsr_tensor_version(self);
    CHECK_ERROR(tsr_scatter_(self, 0, idx, src, TSR_REDUCE_NONE), TSR_ERR_INDEX, "index 3");
    check_f32(self, (float[]){0, 1, 2}, 3); /* index 0 was not written either */
    CHECK_INT(tsr_tensor_version(self), v0);
    tsr_tensor *ok = make_i64(1, SHAPE(2), (int64_t[]){2, 2}, 2);
    CHECK_OK(tsr_scatter_value_(self, 0, ok, tsr_scalar_float(2.5), TSR_REDUCE_PROD));
    check_f32(self, (float[]){0, 1, 12.5f}, 3);
    CHECK_TRUE(tsr_tensor_version(self) > v0);
    release((tsr_tensor *[]){self, idx, src, ok}, 4);
}

static void scatter_in_place_refuses_src_sharing_self(void)
{
    tsr_tensor *self = arange(4, TSR_FLOAT32), *idx = make_i64(1, SHAPE(1), (int64_t[]){0}, 1);
    tsr_tensor *part = NULL, *i32 = make_tensor(TSR_INT32, 1, SHAPE(1), (int32_t[]){0}, 4);
    CHECK_OK(tsr_narrow(self, 0, 2, 1, &part));
    CHECK_ERROR(tsr_scatter_(self, 0, idx, part, TSR_REDUCE_NONE), TSR_ERR_INVALID_ARGUMENT,
                "shares memory with self");
    CHECK_ERROR(tsr_scatter_(self, 0, i32, part, TSR_REDUCE_NONE), TSR_ERR_DTYPE,
                "int64 for index");
    CHECK_ERROR(tsr_index_copy_(self, 0, i32, part), TSR_ERR_DTYPE, "int64");
    CHECK_ERROR(tsr_scatter_reduce(self, 0, idx, part, 7, true, &part), TSR_ERR_INVALID_ARGUMENT,
                "sum, prod, mean");
    release((tsr_tensor *[]){self, idx, part, i32}, 4);
}

static void index_add_scales_by_alpha_and_index_copy_keeps_the_last(void)
{
    tsr_tensor *self = NULL, *idx = make_i64(1, SHAPE(3), (int64_t[]){1, 1, 0}, 3);
    tsr_tensor *src = grid(2, SHAPE(3, 2)), *out = NULL;
    CHECK_OK(tsr_zeros(2, SHAPE(2, 2), TSR_FLOAT32, NULL, &self));
    CHECK_OK(tsr_index_add(self, 0, idx, src, tsr_scalar_float(-1.5), &out));
    check_f32(out, (float[]){-6, -7.5f, -3, -6}, 4);
    drop(&out);
    CHECK_OK(tsr_index_copy_(self, 0, idx, src));
    check_f32(self, (float[]){4, 5, 2, 3}, 4);
    release((tsr_tensor *[]){self, idx, src}, 3);
}

/* ------------------------------------------------------------------------ */
/* Rearranging copies                                                        */
/* ------------------------------------------------------------------------ */

static void flip_and_roll_copy_even_when_nothing_moves(void)
{
    tsr_tensor *t = grid(2, SHAPE(2, 3)), *out = NULL;
    CHECK_OK(tsr_flip(t, SHAPE(0, -1), 2, &out));
    check_f32(out, (float[]){5, 4, 3, 2, 1, 0}, 6);
    drop(&out);
    CHECK_ERROR(tsr_flip(t, SHAPE(0, -2), 2, &out), TSR_ERR_INVALID_ARGUMENT, "multiple times");
    CHECK_OK(tsr_flip(t, NULL, 0, &out));
    CHECK_TRUE(!tsr_tensor_shares_storage(out, t));
    drop(&out);
    CHECK_OK(tsr_roll(t, SHAPE(1, -1), 2, SHAPE(0, 1), 2, &out));
    check_f32(out, (float[]){4, 5, 3, 1, 2, 0}, 6);
    drop(&out);
    CHECK_OK(tsr_roll(t, SHAPE(7), 1, NULL, 0, &out)); /* flattened: shift 7 is shift 1 */
    check_f32(out, (float[]){5, 0, 1, 2, 3, 4}, 6);
    drop(&out);
    CHECK_ERROR(tsr_roll(t, SHAPE(1), 1, SHAPE(0, 1), 2, &out), TSR_ERR_INVALID_ARGUMENT, "align");
    tsr_tensor_release(t);
}

static void repeat_tile_and_repeat_interleave(void)
{
    tsr_tensor *t = grid(2, SHAPE(2, 3)), *out = NULL, *reps = NULL;
    CHECK_OK(tsr_repeat(t, SHAPE(2, 1, 2), 3, &out));
    check_shape(out, 3, SHAPE(2, 2, 6));
    drop(&out);
    CHECK_ERROR(tsr_repeat(t, SHAPE(2), 1, &out), TSR_ERR_SHAPE, "can not be smaller");
    CHECK_OK(tsr_tile(t, SHAPE(2), 1, &out)); /* tile pads the dims with leading ones */
    check_f32(out, (float[]){0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5}, 12);
    drop(&out);
    int64_t dim = 1;
    reps = make_i64(1, SHAPE(3), (int64_t[]){2, 0, 1}, 3);
    CHECK_OK(tsr_repeat_interleave_tensor(t, reps, &dim, &out));
    check_f32(out, (float[]){0, 0, 2, 3, 3, 5}, 6);
    drop(&out);
    CHECK_OK(tsr_repeat_interleave(t, 2, NULL, &out));
    check_shape(out, 1, SHAPE(12));
    drop(&out);
    CHECK_ERROR(tsr_repeat_interleave(t, -1, NULL, &out), TSR_ERR_VALUE, "negative");
    release((tsr_tensor *[]){t, reps}, 2);
}

static void pad_constant_crops_and_reflect_mirrors_without_the_edge(void)
{
    tsr_tensor *t = grid(2, SHAPE(2, 3)), *t3 = grid(3, SHAPE(1, 2, 3)), *out = NULL;
    CHECK_OK(tsr_pad(t, SHAPE(-1, 2, 1, 0), 4, TSR_PAD_CONSTANT, tsr_scalar_int(9), &out));
    check_f32(out, (float[]){9, 9, 9, 9, 1, 2, 9, 9, 4, 5, 9, 9}, 12);
    drop(&out);
    CHECK_OK(tsr_pad(t3, SHAPE(2, 1), 2, TSR_PAD_REFLECT, tsr_scalar_int(0), &out));
    check_f32(out, (float[]){2, 1, 0, 1, 2, 1, 5, 4, 3, 4, 5, 4}, 12);
    drop(&out);
    CHECK_OK(tsr_pad(t3, SHAPE(2, 1), 2, TSR_PAD_REPLICATE, tsr_scalar_int(0), &out));
    check_f32(out, (float[]){0, 0, 0, 1, 2, 2, 3, 3, 3, 4, 5, 5}, 12);
    drop(&out);
    CHECK_ERROR(tsr_pad(t3, SHAPE(3, 0), 2, TSR_PAD_REFLECT, tsr_scalar_int(0), &out),
                TSR_ERR_SHAPE, "less than the corresponding input dimension");
    CHECK_ERROR(tsr_pad(t, SHAPE(1, 1, 1), 3, TSR_PAD_CONSTANT, tsr_scalar_int(0), &out),
                TSR_ERR_VALUE, "divisible by 2");
    CHECK_ERROR(tsr_pad(t, SHAPE(-2, -2), 2, TSR_PAD_CONSTANT, tsr_scalar_int(0), &out),
                TSR_ERR_SHAPE, "negative size");
    tsr_tensor *ints = arange(3, TSR_INT64), *u8 = NULL;
    CHECK_ERROR(tsr_pad(ints, SHAPE(1, 1), 2, TSR_PAD_REFLECT, tsr_scalar_int(0), &out),
                TSR_ERR_DTYPE, "int64");
    CHECK_OK(tsr_to_dtype(ints, TSR_UINT8, &u8));
    CHECK_ERROR(tsr_pad(u8, SHAPE(1, 1), 2, TSR_PAD_CONSTANT, tsr_scalar_int(-1), &out),
                TSR_ERR_OVERFLOW, "uint8"); /* the value is a float: -1.0 does not wrap */
    release((tsr_tensor *[]){t, t3, ints, u8}, 4);
}

static void tril_and_triu_zero_outside_the_band(void)
{
    tsr_tensor *t = grid(2, SHAPE(3, 4)), *out = NULL, *v = arange(3, TSR_FLOAT32);
    CHECK_OK(tsr_tril(t, -1, &out));
    check_f32(out, (float[]){0, 0, 0, 0, 4, 0, 0, 0, 8, 9, 0, 0}, 12);
    drop(&out);
    CHECK_OK(tsr_triu(t, 1, &out));
    check_f32(out, (float[]){0, 1, 2, 3, 0, 0, 6, 7, 0, 0, 0, 11}, 12);
    drop(&out);
    CHECK_ERROR(tsr_tril(v, 0, &out), TSR_ERR_SHAPE, "at least 2 dimensions");
    release((tsr_tensor *[]){t, v}, 2);
}

int main(void)
{
    RUN_TEST(cat_promotes_and_skips_legacy_empty_vectors);
    RUN_TEST(cat_rejects_zero_d_and_mismatched_sizes);
    RUN_TEST(stack_wraps_dim_over_one_more_dim);
    RUN_TEST(hstack_and_vstack_lift_low_rank_tensors);
    RUN_TEST(split_counts_then_fills_views);
    RUN_TEST(chunk_of_an_empty_dim_gives_every_chunk_empty);
    RUN_TEST(unbind_drops_the_dim);
    RUN_TEST(masked_fill_broadcasts_and_checks_the_value);
    RUN_TEST(masked_fill_in_place_bumps_version_and_refuses_growth);
    RUN_TEST(masked_select_and_nonzero_follow_c_order);
    RUN_TEST(index_select_takes_int32_and_names_a_bad_index);
    RUN_TEST(gather_reads_along_dim_and_names_a_bad_index);
    RUN_TEST(take_wraps_negative_indices_and_names_the_given_value);
    RUN_TEST(take_along_dim_broadcasts_outside_dim);
    RUN_TEST(embedding_picks_rows_and_checks_padding_idx);
    RUN_TEST(one_hot_infers_classes_from_the_largest_index);
    RUN_TEST(scatter_add_sums_repeated_indices_in_index_order);
    RUN_TEST(scatter_reduce_mean_floors_integers_and_can_exclude_self);
    RUN_TEST(scatter_in_place_checks_every_index_before_writing);
    RUN_TEST(scatter_in_place_refuses_src_sharing_self);
    RUN_TEST(index_add_scales_by_alpha_and_index_copy_keeps_the_last);
    RUN_TEST(flip_and_roll_copy_even_when_nothing_moves);
    RUN_TEST(repeat_tile_and_repeat_interleave);
    RUN_TEST(pad_constant_crops_and_reflect_mirrors_without_the_edge);
    RUN_TEST(tril_and_triu_zero_outside_the_band);
    return check_summary("test_index");
}
