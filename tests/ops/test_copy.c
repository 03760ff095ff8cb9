/* Conversions between dtypes, with the results PyTorch 1.13 gives on x86-64
 * (recorded from torch: float→int goes through the hardware's truncating
 * conversion, whose out-of-range answer is the most negative integer). */
#include "check.h"

static const double specials[] = {NAN, INFINITY, -INFINITY, 3e9, -3e9, 300.7, -1.5, 2.5, -0.0};
enum { N_SPECIALS = sizeof specials / sizeof *specials };

static void convert_specials(tsr_dtype to, int64_t *got)
{
    tsr_tensor *src = NULL, *dst = NULL, *wide = NULL;
    CHECK_OK(tsr_from_host(specials, sizeof specials, 1, (int64_t[]){N_SPECIALS}, TSR_FLOAT64, NULL, &src));
    CHECK_OK(tsr_to_dtype(src, to, &dst));
    CHECK_OK(tsr_to_dtype(dst, TSR_INT64, &wide));
    CHECK_OK(tsr_to_host(wide, got, N_SPECIALS * sizeof *got));
    tsr_tensor_release(src);
    tsr_tensor_release(dst);
    tsr_tensor_release(wide);
}

static void check_row(tsr_dtype to, const int64_t *expected)
{
    int64_t got[N_SPECIALS] = {0};
    convert_specials(to, got);
    for (int i = 0; i < N_SPECIALS; i++) {
        if (got[i] != expected[i])
            fprintf(stderr, "  %s of %g\n", tsr_dtype_name(to), specials[i]);
        CHECK_INT(got[i], expected[i]);
    }
}

static void float_to_int32_out_of_range_gives_int_min(void)
{
    const int64_t m = INT32_MIN;
    check_row(TSR_INT32, (int64_t[]){m, m, m, m, m, 300, -1, 2, 0});
}

static void float_to_int64_truncates_and_saturates_to_int_min(void)
{
    const int64_t m = INT64_MIN;
    check_row(TSR_INT64, (int64_t[]){m, m, m, 3000000000ll, -3000000000ll, 300, -1, 2, 0});
}

static void float_to_narrow_ints_wraps_through_int32(void)
{
    check_row(TSR_INT8, (int64_t[]){0, 0, 0, 0, 0, 44, -1, 2, 0});
    check_row(TSR_UINT8, (int64_t[]){0, 0, 0, 0, 0, 44, 255, 2, 0});
    check_row(TSR_INT16, (int64_t[]){0, 0, 0, 0, 0, 300, -1, 2, 0});
}

static void float_to_bool_is_nonzero_and_nan_is_true(void)
{
    check_row(TSR_BOOL, (int64_t[]){1, 1, 1, 1, 1, 1, 1, 1, 0});
}

static void read_floats(const tsr_tensor *t, double *out, int n)
{
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &wide));
    CHECK_OK(tsr_to_host(wide, out, (size_t)n * sizeof *out));
    tsr_tensor_release(wide);
}

static void half_types_round_to_nearest_even(void)
{
    const float in16[] = {1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 65520.0f, 1e-8f};
    const float in_bf[] = {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 3.4e38f, -0.0f};
    double got[4];
    tsr_tensor *src = NULL, *h = NULL;
    CHECK_OK(tsr_from_host(in16, sizeof in16, 1, (int64_t[]){4}, TSR_FLOAT32, NULL, &src));
    CHECK_OK(tsr_to_dtype(src, TSR_FLOAT16, &h));
    read_floats(h, got, 4);
    CHECK_DOUBLE(got[0], 1.0, 0);          /* tie: down to even */
    CHECK_DOUBLE(got[1], 1.001953125, 0);  /* tie: up to even */
    CHECK_DOUBLE(got[2], INFINITY, 0);     /* past the largest half */
    CHECK_DOUBLE(got[3], 0.0, 0);          /* below half the smallest subnormal */
    tsr_tensor_release(src);
    tsr_tensor_release(h);
    CHECK_OK(tsr_from_host(in_bf, sizeof in_bf, 1, (int64_t[]){4}, TSR_FLOAT32, NULL, &src));
    CHECK_OK(tsr_to_dtype(src, TSR_BFLOAT16, &h));
    read_floats(h, got, 4);
    CHECK_DOUBLE(got[0], 1.0, 0);
    CHECK_DOUBLE(got[1], 1.015625, 0);
    CHECK_DOUBLE(got[2], INFINITY, 0);
    CHECK_TRUE(got[3] == 0 && signbit(got[3]));
    tsr_tensor_release(src);
    tsr_tensor_release(h);
}

static void int64_to_float_rounds_to_nearest(void)
{
    const int64_t in[] = {(1ll << 24) + 1, (1ll << 53) + 1};
    double got[2];
    tsr_tensor *src = NULL, *f = NULL;
    CHECK_OK(tsr_from_host(in, sizeof in, 1, (int64_t[]){2}, TSR_INT64, NULL, &src));
    CHECK_OK(tsr_to_dtype(src, TSR_FLOAT32, &f));
    read_floats(f, got, 2);
    CHECK_DOUBLE(got[0], 16777216.0, 0);
    CHECK_DOUBLE(got[1], 9007199254740992.0, 0);
    tsr_tensor_release(src);
    tsr_tensor_release(f);
}

/* PyTorch 1.13's complex -> bool reads the real part only: 0+3i is false. */
static void complex_to_real_and_bool_use_the_real_part(void)
{
    const double in[4] = {1.5, -2.0, 0.0, 3.0}; /* 1.5-2i, 0+3i */
    double got[2];
    tsr_tensor *src = NULL, *re = NULL, *b = NULL;
    CHECK_OK(tsr_from_host(in, sizeof in, 1, (int64_t[]){2}, TSR_COMPLEX128, NULL, &src));
    CHECK_OK(tsr_to_dtype(src, TSR_FLOAT32, &re));
    read_floats(re, got, 2);
    CHECK_DOUBLE(got[0], 1.5, 0);
    CHECK_DOUBLE(got[1], 0.0, 0);
    CHECK_OK(tsr_to_dtype(src, TSR_BOOL, &b));
    bool truth[2];
    CHECK_OK(tsr_to_host(b, truth, sizeof truth));
    CHECK_TRUE(truth[0] && !truth[1]);
    tsr_tensor_release(src);
    tsr_tensor_release(re);
    tsr_tensor_release(b);
}

static void every_pair_of_dtypes_converts(void)
{
    for (int from = 0; from < TSR_DTYPE_COUNT; from++) {
        tsr_tensor *base = NULL, *src = NULL;
        CHECK_OK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(5), tsr_scalar_int(1), TSR_INT8,
                            NULL, &base));
        CHECK_OK(tsr_to_dtype(base, (tsr_dtype)from, &src));
        tsr_tensor_release(base);
        for (int to = 0; to < TSR_DTYPE_COUNT; to++) {
            tsr_tensor *dst = NULL;
            double got[5];
            CHECK_OK(tsr_to_dtype(src, (tsr_dtype)to, &dst));
            if (!dst)
                continue;
            read_floats(dst, got, 5);
            for (int i = 0; i < 5; i++)
                CHECK_DOUBLE(got[i], (from == TSR_BOOL || to == TSR_BOOL) ? (i != 0) : i, 0);
            tsr_tensor_release(dst);
        }
        tsr_tensor_release(src);
    }
}

int main(void)
{
    RUN_TEST(float_to_int32_out_of_range_gives_int_min);
    RUN_TEST(float_to_int64_truncates_and_saturates_to_int_min);
    RUN_TEST(float_to_narrow_ints_wraps_through_int32);
    RUN_TEST(float_to_bool_is_nonzero_and_nan_is_true);
    RUN_TEST(half_types_round_to_nearest_even);
    RUN_TEST(int64_to_float_rounds_to_nearest);
    RUN_TEST(complex_to_real_and_bool_use_the_real_part);
    RUN_TEST(every_pair_of_dtypes_converts);
    return check_summary("test_copy");
}
