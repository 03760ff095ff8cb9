/* Legal int64 arguments whose sizes multiply or add past INT64_MAX: each call
 * must answer with an error or a right result, never overflow (the
 * sanitizer build aborts on signed overflow). */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#define BIG ((int64_t)1 << 62)

static tsr_tensor *arange_f32(int64_t n)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_FLOAT32,
                        NULL, &t));
    return t;
}

static void empty_with_huge_dims_overflows_storage(void)
{
    const int64_t shape[3] = {0, BIG, BIG};
    tsr_tensor *t = NULL;
    CHECK_ERROR(tsr_empty(3, shape, TSR_FLOAT32, NULL, &t), TSR_ERR_OVERFLOW,
                "Storage size calculation overflowed");
    CHECK_ERROR(tsr_zeros(3, shape, TSR_FLOAT32, NULL, &t), TSR_ERR_OVERFLOW,
                "Storage size calculation overflowed");
    CHECK_TRUE(t == NULL);
    /* extents that fit stay legal */
    const int64_t fits[3] = {0, BIG, 1};
    CHECK_OK(tsr_empty(3, fits, TSR_FLOAT32, NULL, &t));
    CHECK_INT(tsr_tensor_numel(t), 0);
    tsr_tensor_release(t);
}

static void slice_with_huge_step_or_end(void)
{
    tsr_tensor *x = arange_f32(10), *s = NULL;
    CHECK_OK(tsr_slice(x, 0, 0, INT64_MAX, INT64_MAX, &s));
    CHECK_INT(tsr_tensor_shape(s)[0], 1);
    tsr_tensor_release(s);
    s = NULL;
    CHECK_OK(tsr_slice(x, 0, 3, INT64_MAX, 1, &s));
    CHECK_INT(tsr_tensor_shape(s)[0], 7);
    tsr_tensor_release(s);
    s = NULL;
    CHECK_OK(tsr_slice(x, 0, INT64_MIN, INT64_MAX, INT64_MAX - 1, &s));
    CHECK_INT(tsr_tensor_shape(s)[0], 1);
    tsr_tensor_release(s);
    s = NULL;
    CHECK_OK(tsr_slice(x, 0, 9, INT64_MAX, 3, &s));
    CHECK_INT(tsr_tensor_shape(s)[0], 1);
    CHECK_INT(tsr_tensor_offset(s), 9);
    tsr_tensor_release(s);
    tsr_tensor_release(x);
}

static void one_hot_of_int64_max_classes(void)
{
    int64_t v[2] = {0, INT64_MAX};
    const int64_t n = 2;
    tsr_tensor *idx = NULL, *out = NULL;
    CHECK_OK(tsr_from_host(v, sizeof v, 1, &n, TSR_INT64, NULL, &idx));
    CHECK_ERROR(tsr_one_hot(idx, -1, &out), TSR_ERR_OVERFLOW, "one_hot");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(idx);
    int64_t zero = 0;
    CHECK_OK(tsr_from_host(&zero, sizeof zero, 1, &(int64_t){1}, TSR_INT64, NULL, &idx));
    CHECK_TRUE(tsr_one_hot(idx, INT64_MAX, &out) != TSR_OK);
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(idx);
}

static void split_with_huge_size(void)
{
    tsr_tensor *x = arange_f32(5), *outs[2] = {NULL, NULL};
    size_t count = 0;
    CHECK_OK(tsr_split(x, INT64_MAX, 0, outs, 2, &count));
    CHECK_INT(count, 1);
    CHECK_INT(tsr_tensor_shape(outs[0])[0], 5);
    tsr_tensor_release(outs[0]);
    tsr_tensor_release(x);
}

static void repeat_tile_interleave_with_huge_sizes(void)
{
    tsr_tensor *x = arange_f32(4), *out = NULL;
    const int64_t huge[1] = {BIG};
    CHECK_ERROR(tsr_repeat(x, huge, 1, &out), TSR_ERR_OVERFLOW, "repeat");
    CHECK_ERROR(tsr_tile(x, huge, 1, &out), TSR_ERR_OVERFLOW, "tile");
    CHECK_ERROR(tsr_repeat_interleave(x, BIG, NULL, &out), TSR_ERR_OVERFLOW,
                "repeat_interleave");
    const int64_t two[2] = {BIG, BIG};
    CHECK_ERROR(tsr_repeat(x, two, 2, &out), TSR_ERR_OVERFLOW, "repeat");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(x);
    /* an empty input with huge repeats still has a storage that overflows */
    tsr_tensor *e = arange_f32(0);
    CHECK_ERROR(tsr_repeat(e, two, 2, &out), TSR_ERR_OVERFLOW, "overflow");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(e);
}

static void pad_with_huge_sizes(void)
{
    tsr_tensor *x = arange_f32(4), *out = NULL;
    const int64_t pad[2] = {INT64_MAX, INT64_MAX};
    CHECK_ERROR(tsr_pad(x, pad, 2, TSR_PAD_CONSTANT, tsr_scalar_float(0), &out), TSR_ERR_OVERFLOW,
                "pad");
    const int64_t neg[2] = {INT64_MIN, INT64_MAX};
    CHECK_TRUE(tsr_pad(x, neg, 2, TSR_PAD_CONSTANT, tsr_scalar_float(0), &out) != TSR_OK);
    tsr_tensor *m = NULL;
    const int64_t shape[2] = {1, 4};
    CHECK_OK(tsr_view(x, 2, shape, &m));
    const int64_t small_pad[2] = {-2, INT64_MAX};
    CHECK_ERROR(tsr_pad(m, small_pad, 2, TSR_PAD_REPLICATE, tsr_scalar_float(0), &out),
                TSR_ERR_OVERFLOW, "pad");
    CHECK_TRUE(out == NULL);
    /* a huge negative left pad with a huge right pad: 13 copies of the last */
    const int64_t far[2] = {INT64_MIN + 10, INT64_MAX};
    CHECK_OK(tsr_pad(m, far, 2, TSR_PAD_REPLICATE, tsr_scalar_float(0), &out));
    float got[13] = {0};
    CHECK_INT(tsr_tensor_numel(out), 13);
    CHECK_OK(tsr_to_host(out, got, sizeof got));
    for (int i = 0; i < 13; i++)
        CHECK_DOUBLE(got[i], 3, 0);
    tsr_tensor_release(out);
    tsr_tensor_release(m);
    tsr_tensor_release(x);
}

int main(void)
{
    RUN_TEST(empty_with_huge_dims_overflows_storage);
    RUN_TEST(slice_with_huge_step_or_end);
    RUN_TEST(one_hot_of_int64_max_classes);
    RUN_TEST(split_with_huge_size);
    RUN_TEST(repeat_tile_interleave_with_huge_sizes);
    RUN_TEST(pad_with_huge_sizes);
    return check_summary("test_huge_sizes");
}
