/* Every SIMD set this CPU supports agrees with the generic set: bit for bit
 * on add, sub, mul, div (with alpha), sums in lane order and layer_norm /
 * rms_norm rows; within 1 ulp on SLEEF's functions (the sets share SLEEF's
 * algorithm but not its instruction sequences); within 4 ulps on softmax
 * rows, whose exp values feed the sum. Lengths cover empty rows, every tail
 * length of the widest vector and long rows. Sets the CPU lacks are skipped
 * with a message. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"

static const int64_t LENGTHS[] = {0,   1,    2,    3,    7,    8,    9,    15,
                                  16,  17,   31,   32,   33,   47,   63,   64,
                                  65,  1000, 1023, 1024, 1025, 4096, 4097, 3 * 4096 + 17,
                                  9000};
enum { LENGTH_COUNT = sizeof LENGTHS / sizeof LENGTHS[0], MAX_LENGTH = 16384 };

static const tsr__cpu_simd *generic;

/* Inputs with special values sprinkled in: signed zeros, infinities, NaN. */
static void fill_special_f32(float *x, int64_t n, uint64_t seed, float lo, float hi)
{
    test_fill_f32(x, n, seed, lo, hi);
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -3.5f, 88.5f};
    for (int64_t i = 5; i < n; i += 37) {
        x[i] = specials[(i / 37) % 8];
    }
}

static void fill_special_f64(double *x, int64_t n, uint64_t seed, double lo, double hi)
{
    test_fill_f64(x, n, seed, lo, hi);
    static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, -3.5, 700.5};
    for (int64_t i = 5; i < n; i += 37) {
        x[i] = specials[(i / 37) % 8];
    }
}

static void binary_ops_agree_bit_for_bit(const tsr__cpu_simd *set)
{
    static float a32[MAX_LENGTH], b32[MAX_LENGTH], want32[MAX_LENGTH], got32[MAX_LENGTH];
    static double a64[MAX_LENGTH], b64[MAX_LENGTH], want64[MAX_LENGTH], got64[MAX_LENGTH];
    fill_special_f32(a32, MAX_LENGTH, 1, -4.0f, 4.0f);
    fill_special_f32(b32, MAX_LENGTH, 2, -4.0f, 4.0f);
    fill_special_f64(a64, MAX_LENGTH, 3, -4.0, 4.0);
    fill_special_f64(b64, MAX_LENGTH, 4, -4.0, 4.0);
    for (int op = TSR__CPU_BIN_ADD; op <= TSR__CPU_BIN_AXPY; op++) {
        for (int steps = 0; steps < 4; steps++) {
            int64_t as = steps & 1 ? 0 : 1, bs = steps & 2 ? 0 : 1;
            for (int l = 0; l < LENGTH_COUNT; l++) {
                int64_t n = LENGTHS[l];
                generic->binary_f32(op, want32, a32, as, b32, bs, n, 0.3f);
                set->binary_f32(op, got32, a32, as, b32, bs, n, 0.3f);
                CHECK_SAME_BITS("binary_f32", got32, want32, n, 4);
                generic->binary_f64(op, want64, a64, as, b64, bs, n, 0.3);
                set->binary_f64(op, got64, a64, as, b64, bs, n, 0.3);
                CHECK_SAME_BITS("binary_f64", got64, want64, n, 8);
            }
        }
    }
}

static void binary_ops_work_in_place(const tsr__cpu_simd *set)
{
    static float a[1025], b[1025], want[1025];
    test_fill_f32(a, 1025, 5, -1.0f, 1.0f);
    test_fill_f32(b, 1025, 6, -1.0f, 1.0f);
    generic->binary_f32(TSR__CPU_BIN_DIV, want, a, 1, b, 1, 1025, 1.0f);
    set->binary_f32(TSR__CPU_BIN_DIV, a, a, 1, b, 1, 1025, 1.0f);
    CHECK_SAME_BITS("in-place div", a, want, 1025, 4);
}

static void lane_sums_agree_bit_for_bit(const tsr__cpu_simd *set)
{
    static float x32[MAX_LENGTH];
    static double x64[MAX_LENGTH];
    double want[MAX_LENGTH / 1024 + 1], got[MAX_LENGTH / 1024 + 1];
    test_fill_f32(x32, MAX_LENGTH, 7, -1000.0f, 1000.0f);
    test_fill_f64(x64, MAX_LENGTH, 8, -1000.0, 1000.0);
    for (int l = 0; l < LENGTH_COUNT; l++) {
        int64_t n = LENGTHS[l], blocks = (n + 1023) / 1024;
        generic->sum_blocks_f32(x32, n, want);
        set->sum_blocks_f32(x32, n, got);
        CHECK_SAME_BITS("sum_blocks_f32", got, want, blocks, 8);
        generic->sum_blocks_f64(x64, n, want);
        set->sum_blocks_f64(x64, n, got);
        CHECK_SAME_BITS("sum_blocks_f64", got, want, blocks, 8);
    }
}

static void norm_rows_agree_bit_for_bit(const tsr__cpu_simd *set)
{
    static float x32[MAX_LENGTH], w32[MAX_LENGTH], b32[MAX_LENGTH], want32[MAX_LENGTH],
        got32[MAX_LENGTH];
    static double x64[MAX_LENGTH], w64[MAX_LENGTH], b64[MAX_LENGTH], want64[MAX_LENGTH],
        got64[MAX_LENGTH];
    test_fill_f32(x32, MAX_LENGTH, 9, 90.0f, 110.0f);
    test_fill_f32(w32, MAX_LENGTH, 10, 0.5f, 1.5f);
    test_fill_f32(b32, MAX_LENGTH, 11, -1.0f, 1.0f);
    test_fill_f64(x64, MAX_LENGTH, 12, 90.0, 110.0);
    test_fill_f64(w64, MAX_LENGTH, 13, 0.5, 1.5);
    test_fill_f64(b64, MAX_LENGTH, 14, -1.0, 1.0);
    for (int variant = 0; variant < 4; variant++) {
        int rms = variant == 3;
        tsr__cpu_norm_row p32 = {variant >= 1 ? w32 : NULL, variant == 2 ? b32 : NULL, 1e-5, rms};
        tsr__cpu_norm_row p64 = {variant >= 1 ? w64 : NULL, variant == 2 ? b64 : NULL, 1e-5, rms};
        for (int l = 1; l < LENGTH_COUNT; l++) {
            int64_t n = LENGTHS[l];
            double stats_want[2], stats_got[2];
            generic->norm_row_f32(want32, x32, n, &p32, &stats_want[0], &stats_want[1]);
            set->norm_row_f32(got32, x32, n, &p32, &stats_got[0], &stats_got[1]);
            CHECK_SAME_BITS("norm_row_f32", got32, want32, n, 4);
            CHECK_SAME_BITS("norm_row_f32 statistics", stats_got, stats_want, 2, 8);
            generic->norm_row_f64(want64, x64, n, &p64, &stats_want[0], &stats_want[1]);
            set->norm_row_f64(got64, x64, n, &p64, &stats_got[0], &stats_got[1]);
            CHECK_SAME_BITS("norm_row_f64", got64, want64, n, 8);
            CHECK_SAME_BITS("norm_row_f64 statistics", stats_got, stats_want, 2, 8);
        }
    }
}

static void check_ulps_f32(const char *what, int op, const float *got, const float *want, int64_t n,
                           int64_t allowed)
{
    test_checks++;
    for (int64_t i = 0; i < n; i++) {
        /* Subnormal results carry fewer bits: compare them absolutely. */
        if (fabsf(got[i] - want[i]) <= FLT_MIN) {
            continue;
        }
        if (test_ulps_f32(got[i], want[i]) > allowed) {
            TEST_FAIL("%s op %d: element %lld is %.9g, generic gives %.9g", what, op, (long long)i,
                      got[i], want[i]);
            return;
        }
    }
}

static void check_ulps_f64(const char *what, int op, const double *got, const double *want,
                           int64_t n, int64_t allowed)
{
    test_checks++;
    for (int64_t i = 0; i < n; i++) {
        if (fabs(got[i] - want[i]) <= DBL_MIN) {
            continue;
        }
        if (test_ulps_f64(got[i], want[i]) > allowed) {
            TEST_FAIL("%s op %d: element %lld is %.17g, generic gives %.17g", what, op,
                      (long long)i, got[i], want[i]);
            return;
        }
    }
}

/* SLEEF's own functions may differ by an ulp between sets, sqrt and neg not
 * at all; formulas around exp or erfc compound a few roundings. */
static int64_t allowed_ulps(int op)
{
    switch (op) {
    case TSR__CPU_UN_SQRT:
    case TSR__CPU_UN_NEG:
        return 0;
    case TSR__CPU_UN_SIGMOID:
    case TSR__CPU_UN_SILU:
    case TSR__CPU_UN_GELU:
        return 4;
    default:
        return 1;
    }
}

/* gelu's tanh form is 1 + tanh(...), which cancels for negative x: an ulp
 * of tanh is an error of about eps * |x| in the result, in every set. */
static int tanh_gelu_close(double got, double want, double x, double eps)
{
    if (got == want) {
        return 1;
    }
    if (isnan(got) || isnan(want)) {
        return isnan(got) && isnan(want);
    }
    return fabs(got - want) <= 4.0 * eps * fmax(1.0, fabs(x));
}

static void unary_functions_agree_within_an_ulp(const tsr__cpu_simd *set)
{
    static float x32[MAX_LENGTH], want32[MAX_LENGTH], got32[MAX_LENGTH];
    static double x64[MAX_LENGTH], want64[MAX_LENGTH], got64[MAX_LENGTH];
    fill_special_f32(x32, MAX_LENGTH, 15, -20.0f, 20.0f);
    fill_special_f64(x64, MAX_LENGTH, 16, -20.0, 20.0);
    for (int op = TSR__CPU_UN_EXP; op <= TSR__CPU_UN_SILU; op++) {
        for (int l = 0; l < LENGTH_COUNT; l++) {
            int64_t n = LENGTHS[l];
            generic->unary_f32(op, want32, x32, n);
            set->unary_f32(op, got32, x32, n);
            generic->unary_f64(op, want64, x64, n);
            set->unary_f64(op, got64, x64, n);
            if (op != TSR__CPU_UN_GELU_TANH) {
                check_ulps_f32("unary_f32", op, got32, want32, n, allowed_ulps(op));
                check_ulps_f64("unary_f64", op, got64, want64, n, allowed_ulps(op));
                continue;
            }
            test_checks++;
            for (int64_t i = 0; i < n; i++) {
                if (!tanh_gelu_close(got32[i], want32[i], x32[i], 0x1p-23) ||
                    !tanh_gelu_close(got64[i], want64[i], x64[i], 0x1p-52)) {
                    TEST_FAIL("gelu (tanh) at %lld: %.9g / %.17g, generic gives %.9g / %.17g",
                              (long long)i, got32[i], got64[i], want32[i], want64[i]);
                    break;
                }
            }
        }
    }
}

static void softmax_rows_agree_within_4_ulps(const tsr__cpu_simd *set)
{
    static float x32[MAX_LENGTH], want32[MAX_LENGTH], got32[MAX_LENGTH];
    static double x64[MAX_LENGTH], want64[MAX_LENGTH], got64[MAX_LENGTH];
    test_fill_f32(x32, MAX_LENGTH, 17, -10.0f, 10.0f);
    test_fill_f64(x64, MAX_LENGTH, 18, -10.0, 10.0);
    for (int log_form = 0; log_form < 2; log_form++) {
        for (int l = 1; l < LENGTH_COUNT; l++) {
            int64_t n = LENGTHS[l];
            generic->softmax_row_f32(want32, x32, n, log_form);
            set->softmax_row_f32(got32, x32, n, log_form);
            check_ulps_f32("softmax_row_f32", log_form, got32, want32, n, 4);
            generic->softmax_row_f64(want64, x64, n, log_form);
            set->softmax_row_f64(got64, x64, n, log_form);
            check_ulps_f64("softmax_row_f64", log_form, got64, want64, n, 4);
        }
    }
}

/* exp differs by an ulp between sets; summed in double, the float result
 * keeps within an ulp and the double one within a few. */
static void logsumexp_rows_agree(const tsr__cpu_simd *set)
{
    static float x32[MAX_LENGTH];
    static double x64[MAX_LENGTH];
    fill_special_f32(x32, MAX_LENGTH, 19, -30.0f, 30.0f);
    test_fill_f64(x64, MAX_LENGTH, 20, -30.0, 30.0);
    for (int l = 1; l < LENGTH_COUNT; l++) {
        int64_t n = LENGTHS[l];
        float want32 = (float)generic->logsumexp_row_f32(x32 + 7, n);
        float got32 = (float)set->logsumexp_row_f32(x32 + 7, n);
        check_ulps_f32("logsumexp_row_f32", (int)n, &got32, &want32, 1, 1);
        double want64 = generic->logsumexp_row_f64(x64, n), got64 = set->logsumexp_row_f64(x64, n);
        check_ulps_f64("logsumexp_row_f64", (int)n, &got64, &want64, 1, 8);
    }
    float all_minus_inf[20], one_inf[20];
    for (int i = 0; i < 20; i++) {
        all_minus_inf[i] = -INFINITY;
        one_inf[i] = (float)i;
    }
    one_inf[11] = INFINITY;
    CHECK_TRUE(set->logsumexp_row_f32(all_minus_inf, 20) == -INFINITY);
    CHECK_TRUE(set->logsumexp_row_f32(one_inf, 20) == INFINITY);
}

static void softmax_rows_with_inf_or_nan_are_all_nan(const tsr__cpu_simd *set)
{
    float x[20], y[20];
    for (int special = 0; special < 3; special++) {
        for (int i = 0; i < 20; i++) {
            x[i] = special == 2 ? -INFINITY : (float)i;
        }
        if (special < 2) {
            x[13] = special == 0 ? INFINITY : NAN;
        }
        for (int log_form = 0; log_form < 2; log_form++) {
            set->softmax_row_f32(y, x, 20, log_form);
            int all_nan = 1;
            for (int i = 0; i < 20; i++) {
                all_nan &= isnan(y[i]) != 0;
            }
            CHECK_TRUE(all_nan);
        }
    }
}

static void run_set(tsr__cpu_isa isa)
{
    const tsr__cpu_simd *set = tsr__cpu_simd_for(isa);
    if (set == NULL) {
        printf("skip %s: this CPU or build lacks it\n", tsr__cpu_isa_name(isa));
        return;
    }
    printf("-- %s against generic\n", set->name);
    binary_ops_agree_bit_for_bit(set);
    binary_ops_work_in_place(set);
    lane_sums_agree_bit_for_bit(set);
    norm_rows_agree_bit_for_bit(set);
    unary_functions_agree_within_an_ulp(set);
    softmax_rows_agree_within_4_ulps(set);
    softmax_rows_with_inf_or_nan_are_all_nan(set);
    logsumexp_rows_agree(set);
    printf("%s %s\n", test_failures == 0 ? "ok  " : "FAIL", set->name);
}

int main(void)
{
    generic = tsr__cpu_simd_generic();
    printf("this CPU: %s\n", tsr__cpu_isa_name(tsr__cpu_isa_detect()));
    for (int isa = 0; isa < TSR__CPU_ISA_COUNT; isa++) {
        run_set((tsr__cpu_isa)isa);
    }
    return test_finish();
}
