/* Views: strides, offsets and aliasing of every view function. */
#include "check.h"

static tsr_tensor *arange_f32(int64_t n)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_FLOAT32, NULL, &t));
    return t;
}

static tsr_tensor *shaped(int64_t n, int ndim, const int64_t *shape)
{
    tsr_tensor *flat = arange_f32(n), *t = NULL;
    CHECK_OK(tsr_view(flat, ndim, shape, &t));
    tsr_tensor_release(flat);
    return t;
}

static void check_geometry(const tsr_tensor *t, int ndim, const int64_t *shape,
                           const int64_t *strides, int64_t offset)
{
    CHECK_INT(tsr_tensor_ndim(t), ndim);
    for (int i = 0; i < ndim && i < tsr_tensor_ndim(t); i++) {
        CHECK_INT(tsr_tensor_shape(t)[i], shape[i]);
        CHECK_INT(tsr_tensor_strides(t)[i], strides[i]);
    }
    CHECK_INT(tsr_tensor_offset(t), offset);
}

/* Reads a float32 tensor through its view and compares with expected values. */
static void check_values(const tsr_tensor *t, const float *expected, size_t n)
{
    float got[64];
    CHECK_INT(tsr_tensor_numel(t), (int64_t)n);
    if (n > 64 || tsr_to_host(t, got, n * sizeof(float)) != TSR_OK) {
        CHECK_TRUE(!"readable view");
        return;
    }
    for (size_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], 0);
}

static void transpose_swaps_strides_and_shares_storage(void)
{
    int64_t shape[2] = {2, 3};
    tsr_tensor *a = shaped(6, 2, shape), *t = NULL;
    CHECK_OK(tsr_transpose(a, 0, -1, &t));
    check_geometry(t, 2, (int64_t[]){3, 2}, (int64_t[]){1, 3}, 0);
    CHECK_TRUE(tsr_tensor_shares_storage(a, t));
    CHECK_TRUE(!tsr_tensor_is_contiguous(t));
    check_values(t, (float[]){0, 3, 1, 4, 2, 5}, 6);
    tsr_tensor_release(a);
    tsr_tensor_release(t);
}

static void slice_with_step_moves_offset_and_scales_stride(void)
{
    int64_t shape[2] = {4, 5};
    tsr_tensor *a = shaped(20, 2, shape), *s = NULL;
    CHECK_OK(tsr_slice(a, 1, 1, 100, 2, &s)); /* columns 1 and 3, end clamped */
    check_geometry(s, 2, (int64_t[]){4, 2}, (int64_t[]){5, 2}, 1);
    check_values(s, (float[]){1, 3, 6, 8, 11, 13, 16, 18}, 8);
    tsr_tensor *neg = NULL;
    CHECK_OK(tsr_slice(a, 0, -2, -1, 1, &neg)); /* row 2 only */
    check_geometry(neg, 2, (int64_t[]){1, 5}, (int64_t[]){5, 1}, 10);
    CHECK_ERROR(tsr_slice(a, 0, 0, 2, 0, &s), TSR_ERR_VALUE, "step must be positive");
    tsr_tensor_release(a);
    tsr_tensor_release(s);
    tsr_tensor_release(neg);
}

static void expand_uses_zero_strides_and_rejects_mismatch(void)
{
    int64_t shape[2] = {3, 1};
    tsr_tensor *a = shaped(3, 2, shape), *e = NULL, *bad = NULL;
    CHECK_OK(tsr_expand(a, 3, (int64_t[]){2, -1, 4}, &e));
    check_geometry(e, 3, (int64_t[]){2, 3, 4}, (int64_t[]){0, 1, 0}, 0);
    check_values(e, (float[]){0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}, 24);
    CHECK_ERROR(tsr_expand(a, 2, (int64_t[]){4, 4}, &bad), TSR_ERR_SHAPE, "must match");
    CHECK_ERROR(tsr_expand(a, 3, (int64_t[]){-1, 3, 1}, &bad), TSR_ERR_SHAPE, "leading");
    CHECK_TRUE(bad == NULL);
    tsr_tensor_release(a);
    tsr_tensor_release(e);
}

static void diagonal_combines_strides_with_offset(void)
{
    int64_t shape[2] = {3, 4};
    tsr_tensor *a = shaped(12, 2, shape), *d = NULL, *lower = NULL, *none = NULL;
    CHECK_OK(tsr_diagonal(a, 1, 0, 1, &d));
    check_geometry(d, 1, (int64_t[]){3}, (int64_t[]){5}, 1);
    check_values(d, (float[]){1, 6, 11}, 3);
    CHECK_OK(tsr_diagonal(a, -1, 0, 1, &lower));
    check_values(lower, (float[]){4, 9}, 2);
    CHECK_OK(tsr_diagonal(a, 7, 0, 1, &none));
    CHECK_INT(tsr_tensor_numel(none), 0);
    CHECK_ERROR(tsr_diagonal(a, 0, 1, -1, &d), TSR_ERR_INVALID_ARGUMENT, "cannot be the same");
    tsr_tensor_release(a);
    tsr_tensor_release(d);
    tsr_tensor_release(lower);
    tsr_tensor_release(none);
}

static void view_of_transposed_needs_reshape(void)
{
    int64_t shape[2] = {2, 3};
    tsr_tensor *a = shaped(6, 2, shape), *t = NULL, *v = NULL, *r = NULL;
    CHECK_OK(tsr_transpose(a, 0, 1, &t));
    CHECK_ERROR(tsr_view(t, 1, (int64_t[]){6}, &v), TSR_ERR_SHAPE, "reshape");
    CHECK_OK(tsr_reshape(t, 1, (int64_t[]){-1}, &r));
    CHECK_TRUE(!tsr_tensor_shares_storage(r, a));
    check_values(r, (float[]){0, 3, 1, 4, 2, 5}, 6);
    /* splitting a dim of a transposed tensor is still a view */
    tsr_tensor *split = NULL;
    CHECK_OK(tsr_view(t, 3, (int64_t[]){3, 2, 1}, &split));
    CHECK_TRUE(tsr_tensor_shares_storage(split, a));
    tsr_tensor *all[] = {a, t, r, split};
    for (int i = 0; i < 4; i++)
        tsr_tensor_release(all[i]);
}

static void squeeze_unsqueeze_flatten_unflatten_round_trip(void)
{
    int64_t shape[4] = {2, 1, 3, 1};
    tsr_tensor *a = shaped(6, 4, shape), *s = NULL, *s1 = NULL, *u = NULL, *f = NULL, *uf = NULL;
    CHECK_OK(tsr_squeeze(a, &s));
    check_geometry(s, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    CHECK_OK(tsr_squeeze_dim(a, 0, &s1)); /* size 2: unchanged */
    CHECK_INT(tsr_tensor_ndim(s1), 4);
    CHECK_OK(tsr_unsqueeze(s, -1, &u));
    check_geometry(u, 3, (int64_t[]){2, 3, 1}, (int64_t[]){3, 1, 1}, 0);
    CHECK_OK(tsr_flatten(a, 1, -1, &f));
    check_geometry(f, 2, (int64_t[]){2, 3}, (int64_t[]){3, 1}, 0);
    CHECK_OK(tsr_unflatten(f, 1, 2, (int64_t[]){-1, 1}, &uf));
    check_geometry(uf, 3, (int64_t[]){2, 3, 1}, (int64_t[]){3, 1, 1}, 0);
    tsr_tensor *all[] = {a, s, s1, u, f, uf};
    for (int i = 0; i < 6; i++)
        tsr_tensor_release(all[i]);
}

static void permute_and_narrow_compose(void)
{
    int64_t shape[3] = {2, 3, 4};
    tsr_tensor *a = shaped(24, 3, shape), *p = NULL, *n = NULL;
    CHECK_OK(tsr_permute(a, 3, (int64_t[]){2, 0, 1}, &p));
    check_geometry(p, 3, (int64_t[]){4, 2, 3}, (int64_t[]){1, 12, 4}, 0);
    CHECK_OK(tsr_narrow(p, 0, -2, 2, &n));
    check_geometry(n, 3, (int64_t[]){2, 2, 3}, (int64_t[]){1, 12, 4}, 2);
    CHECK_ERROR(tsr_permute(a, 3, (int64_t[]){0, 0, 1}, &p), TSR_ERR_INVALID_ARGUMENT, "twice");
    CHECK_ERROR(tsr_narrow(a, 2, 3, 2, &p), TSR_ERR_INDEX, "exceeds");
    tsr_tensor_release(a);
    tsr_tensor_release(p);
    tsr_tensor_release(n);
}

static void writes_through_a_view_reach_the_base(void)
{
    int64_t shape[2] = {2, 3};
    tsr_tensor *a = shaped(6, 2, shape), *col = NULL;
    CHECK_OK(tsr_slice(a, 1, 1, 2, 1, &col));
    uint64_t before = tsr_tensor_version(a);
    CHECK_OK(tsr_fill_(col, tsr_scalar_float(-1)));
    CHECK_TRUE(tsr_tensor_version(a) > before);
    check_values(a, (float[]){0, -1, 2, 3, -1, 5}, 6);
    tsr_tensor_release(a);
    tsr_tensor_release(col);
}

static void in_place_add_of_own_transpose_reads_before_writing(void)
{
    int64_t shape[2] = {2, 2};
    tsr_tensor *a = shaped(4, 2, shape), *t = NULL;
    CHECK_OK(tsr_transpose(a, 0, 1, &t));
    CHECK_OK(tsr_add_(a, tsr_operand_tensor(t), tsr_scalar_int(1)));
    check_values(a, (float[]){0, 3, 3, 6}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(t);
}

static void expanded_self_cannot_be_written(void)
{
    tsr_tensor *one = arange_f32(1), *e = NULL;
    CHECK_OK(tsr_expand(one, 1, (int64_t[]){3}, &e));
    CHECK_ERROR(tsr_add_(e, tsr_operand_scalar(tsr_scalar_int(1)), tsr_scalar_int(1)),
                TSR_ERR_INVALID_ARGUMENT, "internal overlap");
    check_values(one, (float[]){0}, 1);
    tsr_tensor_release(one);
    tsr_tensor_release(e);
}

int main(void)
{
    RUN_TEST(transpose_swaps_strides_and_shares_storage);
    RUN_TEST(slice_with_step_moves_offset_and_scales_stride);
    RUN_TEST(expand_uses_zero_strides_and_rejects_mismatch);
    RUN_TEST(diagonal_combines_strides_with_offset);
    RUN_TEST(view_of_transposed_needs_reshape);
    RUN_TEST(squeeze_unsqueeze_flatten_unflatten_round_trip);
    RUN_TEST(permute_and_narrow_compose);
    RUN_TEST(writes_through_a_view_reach_the_base);
    RUN_TEST(in_place_add_of_own_transpose_reads_before_writing);
    RUN_TEST(expanded_self_cannot_be_written);
    return check_summary("test_views");
}
