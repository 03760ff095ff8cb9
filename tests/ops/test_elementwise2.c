/* The second elementwise family: each test pins one PyTorch 1.13 rule
 * (values recorded from torch on x86-64). */
#include "check.h"

#include <float.h>

/* ---- helpers ------------------------------------------------------------ */

static tsr_tensor *from_doubles(tsr_dtype dtype, int n, const double *values)
{
    tsr_tensor *wide = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof *values, 1, (int64_t[]){n}, TSR_FLOAT64, NULL,
                           &wide));
    CHECK_OK(tsr_to_dtype(wide, dtype, &t));
    tsr_tensor_release(wide);
    return t;
}

static tsr_tensor *from_ints(tsr_dtype dtype, int n, const int64_t *values)
{
    tsr_tensor *wide = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof *values, 1, (int64_t[]){n}, TSR_INT64, NULL,
                           &wide));
    CHECK_OK(tsr_to_dtype(wide, dtype, &t));
    tsr_tensor_release(wide);
    return t;
}

static void read_doubles(const tsr_tensor *t, double *out, int n)
{
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &wide));
    CHECK_OK(tsr_to_host(wide, out, (size_t)n * sizeof *out));
    tsr_tensor_release(wide);
}

static void read_ints(const tsr_tensor *t, int64_t *out, int n)
{
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_INT64, &wide));
    CHECK_OK(tsr_to_host(wide, out, (size_t)n * sizeof *out));
    tsr_tensor_release(wide);
}

/* Values must match bit for bit, signed zeros included. */
static void check_doubles(const tsr_tensor *t, int n, const double *expected)
{
    double got[16];
    read_doubles(t, got, n);
    for (int i = 0; i < n; i++) {
        CHECK_DOUBLE(got[i], expected[i], 0.0);
        if (got[i] == 0.0 && expected[i] == 0.0)
            CHECK_INT(signbit(got[i]) != 0, signbit(expected[i]) != 0);
    }
}

static void check_ints(const tsr_tensor *t, int n, const int64_t *expected)
{
    int64_t got[16];
    read_ints(t, got, n);
    for (int i = 0; i < n; i++)
        CHECK_INT(got[i], expected[i]);
}

static tsr_operand op_t(const tsr_tensor *t)
{
    return tsr_operand_tensor(t);
}

/* ---- dtypes ------------------------------------------------------------- */

static void floating_functions_compute_integers_in_float32(void)
{
    tsr_tensor *i = from_ints(TSR_INT64, 3, (int64_t[]){1, -2, 4}), *out = NULL;
    const tsr_op unary[] = {TSR_OP_EXP2,  TSR_OP_LOG2, TSR_OP_TAN,
                            TSR_OP_ATANH, TSR_OP_ERFC, TSR_OP_RECIPROCAL};
    for (size_t k = 0; k < sizeof unary / sizeof *unary; k++) {
        CHECK_OK(tsr_unary(unary[k], i, &out));
        CHECK_INT(tsr_tensor_dtype(out), TSR_FLOAT32);
        tsr_tensor_release(out);
    }
    CHECK_OK(tsr_unary(TSR_OP_RECIPROCAL, i, &out));
    check_doubles(out, 3, (double[]){1.0, -0.5, 0.25});
    tsr_tensor_release(out);
    CHECK_OK(tsr_binary(TSR_OP_ATAN2, op_t(i), op_t(i), &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_FLOAT32);
    tsr_tensor_release(out);
    CHECK_OK(
        tsr_binary(TSR_OP_COPYSIGN, op_t(i), tsr_operand_scalar(tsr_scalar_float(-0.0)), &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_FLOAT32);
    check_doubles(out, 3, (double[]){-1.0, -2.0, -4.0});
    tsr_tensor_release(out);
    tsr_tensor_release(i);
}

static void hypot_frac_and_activations_refuse_integers(void)
{
    tsr_tensor *i = from_ints(TSR_INT64, 2, (int64_t[]){3, 4}), *out = NULL;
    CHECK_ERROR(tsr_binary(TSR_OP_HYPOT, op_t(i), op_t(i), &out), TSR_ERR_UNIMPLEMENTED,
                "no hypot kernel for int64");
    CHECK_ERROR(tsr_unary(TSR_OP_FRAC, i, &out), TSR_ERR_UNIMPLEMENTED, "no frac kernel for int64");
    CHECK_ERROR(tsr_unary(TSR_OP_SILU, i, &out), TSR_ERR_UNIMPLEMENTED, "no silu kernel for int64");
    CHECK_ERROR(tsr_softplus(i, tsr_scalar_int(1), tsr_scalar_int(20), &out), TSR_ERR_UNIMPLEMENTED,
                "no softplus kernel for int64");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(i);
}

static void rounding_returns_integer_tensors_unchanged(void)
{
    tsr_tensor *i = from_ints(TSR_INT8, 3, (int64_t[]){-7, 0, 127}), *out = NULL;
    const tsr_op ops[] = {TSR_OP_FLOOR, TSR_OP_CEIL, TSR_OP_ROUND, TSR_OP_TRUNC};
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        CHECK_OK(tsr_unary(ops[k], i, &out));
        CHECK_INT(tsr_tensor_dtype(out), TSR_INT8);
        CHECK_TRUE(!tsr_tensor_shares_storage(out, i));
        check_ints(out, 3, (int64_t[]){-7, 0, 127});
        tsr_tensor_release(out);
    }
    CHECK_OK(tsr_round_decimals(i, 0, &out));
    tsr_tensor_release(out);
    CHECK_ERROR(tsr_round_decimals(i, 1, &out), TSR_ERR_UNIMPLEMENTED, "no round kernel for int8");
    tsr_tensor *b = from_ints(TSR_BOOL, 1, (int64_t[]){1});
    CHECK_ERROR(tsr_unary(TSR_OP_FLOOR, b, &out), TSR_ERR_UNIMPLEMENTED,
                "no floor kernel for bool");
    tsr_tensor_release(b);
    tsr_tensor_release(i);
}

static void square_of_integers_wraps_and_of_bool_is_int64(void)
{
    tsr_tensor *i = from_ints(TSR_INT8, 3, (int64_t[]){12, -12, 16}), *out = NULL;
    CHECK_OK(tsr_unary(TSR_OP_SQUARE, i, &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_INT8);
    check_ints(out, 3, (int64_t[]){-112, -112, 0});
    tsr_tensor_release(out);
    tsr_tensor *b = from_ints(TSR_BOOL, 2, (int64_t[]){1, 0});
    CHECK_OK(tsr_unary(TSR_OP_SQUARE, b, &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_INT64);
    check_ints(out, 2, (int64_t[]){1, 0});
    tsr_tensor_release(out);
    tsr_tensor_release(b);
    tsr_tensor_release(i);
}

static void predicates_write_bool_for_every_dtype(void)
{
    tsr_tensor *f = from_doubles(TSR_FLOAT16, 4, (double[]){NAN, INFINITY, -INFINITY, 1e5});
    tsr_tensor *i = from_ints(TSR_UINT8, 2, (int64_t[]){0, 255}), *out = NULL;
    CHECK_OK(tsr_unary(TSR_OP_ISNAN, f, &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_BOOL);
    check_ints(out, 4, (int64_t[]){1, 0, 0, 0});
    tsr_tensor_release(out);
    CHECK_OK(tsr_unary(TSR_OP_ISINF, f, &out)); /* 1e5 overflows float16 */
    check_ints(out, 4, (int64_t[]){0, 1, 1, 1});
    tsr_tensor_release(out);
    CHECK_OK(tsr_unary(TSR_OP_ISFINITE, i, &out));
    check_ints(out, 2, (int64_t[]){1, 1});
    tsr_tensor_release(out);
    CHECK_OK(tsr_unary(TSR_OP_ISNAN, i, &out));
    check_ints(out, 2, (int64_t[]){0, 0});
    tsr_tensor_release(out);
    tsr_tensor_release(f);
    tsr_tensor_release(i);
}

/* ---- values ------------------------------------------------------------- */

static void fmax_and_fmin_ignore_nan(void)
{
    tsr_tensor *a = from_doubles(TSR_FLOAT32, 3, (double[]){NAN, 1.0, NAN});
    tsr_tensor *b = from_doubles(TSR_FLOAT32, 3, (double[]){2.0, NAN, NAN}), *out = NULL;
    CHECK_OK(tsr_binary(TSR_OP_FMAX, op_t(a), op_t(b), &out));
    check_doubles(out, 3, (double[]){2.0, 1.0, NAN});
    tsr_tensor_release(out);
    CHECK_OK(tsr_binary(TSR_OP_FMIN, op_t(a), op_t(b), &out));
    check_doubles(out, 3, (double[]){2.0, 1.0, NAN});
    tsr_tensor_release(out);
    CHECK_OK(tsr_binary(TSR_OP_MAXIMUM, op_t(a), op_t(b), &out));
    check_doubles(out, 3, (double[]){NAN, NAN, NAN});
    tsr_tensor_release(out);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

static void fmod_takes_the_dividends_sign(void)
{
    tsr_tensor *a = from_ints(TSR_INT32, 4, (int64_t[]){7, -7, 7, -7});
    tsr_tensor *b = from_ints(TSR_INT32, 4, (int64_t[]){2, 2, -2, -2}), *out = NULL;
    CHECK_OK(tsr_binary(TSR_OP_FMOD, op_t(a), op_t(b), &out));
    check_ints(out, 4, (int64_t[]){1, -1, 1, -1});
    tsr_tensor_release(out);
    CHECK_OK(tsr_binary(TSR_OP_REMAINDER, op_t(a), op_t(b), &out));
    check_ints(out, 4, (int64_t[]){1, 1, -1, -1});
    tsr_tensor_release(out);
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 2, (double[]){-7.5, -0.0});
    CHECK_OK(tsr_binary(TSR_OP_FMOD, op_t(f), tsr_operand_scalar(tsr_scalar_float(2.0)), &out));
    check_doubles(out, 2, (double[]){-1.5, -0.0});
    tsr_tensor_release(out);
    tsr_tensor_release(f);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

static void fmod_of_integers_by_zero_fails(void)
{
    tsr_tensor *a = from_ints(TSR_INT64, 2, (int64_t[]){5, 1});
    tsr_tensor *b = from_ints(TSR_INT64, 2, (int64_t[]){1, 0}), *out = NULL;
    CHECK_ERROR(tsr_binary(TSR_OP_FMOD, op_t(a), op_t(b), &out), TSR_ERR_VALUE, "division by zero");
    CHECK_TRUE(out == NULL);
    tsr_tensor *m = from_ints(TSR_INT8, 1, (int64_t[]){-128});
    CHECK_OK(tsr_binary(TSR_OP_FMOD, op_t(m), tsr_operand_scalar(tsr_scalar_int(-1)), &out));
    check_ints(out, 1, (int64_t[]){0});
    tsr_tensor_release(out);
    tsr_tensor_release(m);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

static void shift_counts_out_of_range_use_their_low_bits(void)
{
    tsr_tensor *one8 = from_ints(TSR_INT8, 4, (int64_t[]){1, 1, 1, 1});
    tsr_tensor *n8 = from_ints(TSR_INT8, 4, (int64_t[]){9, 32, 33, -1}), *out = NULL;
    CHECK_OK(tsr_binary(TSR_OP_BITWISE_LEFT_SHIFT, op_t(one8), op_t(n8), &out));
    check_ints(out, 4, (int64_t[]){0, 1, 2, 0}); /* 5 count bits: 32 -> 0, -1 -> 31 */
    tsr_tensor_release(out);
    tsr_tensor *one64 = from_ints(TSR_INT64, 3, (int64_t[]){1, 1, -8});
    tsr_tensor *n64 = from_ints(TSR_INT64, 3, (int64_t[]){64, 33, 65}), *shifted = NULL;
    CHECK_OK(tsr_binary(TSR_OP_BITWISE_LEFT_SHIFT, op_t(one64), op_t(n64), &shifted));
    check_ints(shifted, 3, (int64_t[]){1, INT64_C(8589934592), -16}); /* 6 count bits */
    CHECK_OK(tsr_binary(TSR_OP_BITWISE_RIGHT_SHIFT, op_t(one64), op_t(n64), &out));
    check_ints(out, 3, (int64_t[]){1, 0, -4}); /* arithmetic for negative values */
    tsr_tensor_release(out);
    tsr_tensor_release(shifted);
    tsr_tensor_release(one64);
    tsr_tensor_release(n64);
    tsr_tensor_release(one8);
    tsr_tensor_release(n8);
}

static void bitwise_ops_take_bool_and_integers_only(void)
{
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 1, (double[]){1.0});
    tsr_tensor *b = from_ints(TSR_BOOL, 2, (int64_t[]){0, 1});
    tsr_tensor *i = from_ints(TSR_INT64, 2, (int64_t[]){6, 3}), *out = NULL;
    CHECK_ERROR(tsr_binary(TSR_OP_BITWISE_AND, op_t(f), op_t(f), &out), TSR_ERR_UNIMPLEMENTED,
                "no bitwise_and kernel for float32");
    CHECK_ERROR(
        tsr_binary(TSR_OP_BITWISE_AND, op_t(i), tsr_operand_scalar(tsr_scalar_float(1.5)), &out),
        TSR_ERR_UNIMPLEMENTED, "no bitwise_and kernel for float32");
    CHECK_ERROR(tsr_binary(TSR_OP_BITWISE_LEFT_SHIFT, op_t(b), op_t(b), &out),
                TSR_ERR_UNIMPLEMENTED, "no bitwise_left_shift kernel for bool");
    CHECK_OK(tsr_binary(TSR_OP_BITWISE_XOR, op_t(b), tsr_operand_scalar(tsr_scalar_int(2)), &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_INT64); /* bool with an int scalar promotes */
    check_ints(out, 2, (int64_t[]){2, 3});
    tsr_tensor_release(out);
    CHECK_OK(tsr_unary(TSR_OP_BITWISE_NOT, b, &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_BOOL);
    check_ints(out, 2, (int64_t[]){1, 0}); /* logical not, not ~1 */
    tsr_tensor_release(out);
    CHECK_OK(tsr_unary(TSR_OP_BITWISE_NOT, i, &out));
    check_ints(out, 2, (int64_t[]){-7, -4});
    tsr_tensor_release(out);
    tsr_tensor_release(f);
    tsr_tensor_release(b);
    tsr_tensor_release(i);
}

static void nan_to_num_defaults_are_the_dtypes_extremes(void)
{
    tsr_tensor *h = from_doubles(TSR_FLOAT16, 3, (double[]){NAN, INFINITY, -INFINITY}), *out = NULL;
    CHECK_OK(tsr_nan_to_num(h, NULL, NULL, NULL, &out));
    check_doubles(out, 3, (double[]){0.0, 65504.0, -65504.0});
    tsr_tensor_release(out);
    double nan = 7.0, posinf = 1e6;
    CHECK_OK(tsr_nan_to_num(h, &nan, &posinf, NULL, &out)); /* 1e6 overflows float16 */
    check_doubles(out, 3, (double[]){7.0, INFINITY, -65504.0});
    tsr_tensor_release(out);
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 1, (double[]){INFINITY});
    CHECK_OK(tsr_unary(TSR_OP_NAN_TO_NUM, f, &out));
    check_doubles(out, 1, (double[]){FLT_MAX});
    tsr_tensor_release(out);
    tsr_tensor *i = from_ints(TSR_INT32, 1, (int64_t[]){5});
    CHECK_OK(tsr_nan_to_num(i, &nan, NULL, NULL, &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_INT32);
    check_ints(out, 1, (int64_t[]){5});
    tsr_tensor_release(out);
    tsr_tensor_release(i);
    tsr_tensor_release(f);
    tsr_tensor_release(h);
}

static void round_breaks_ties_to_even_at_any_decimal(void)
{
    tsr_tensor *f = from_doubles(TSR_FLOAT64, 4, (double[]){0.5, 1.5, 2.5, -0.5}), *out = NULL;
    CHECK_OK(tsr_unary(TSR_OP_ROUND, f, &out));
    check_doubles(out, 4, (double[]){0.0, 2.0, 2.0, -0.0});
    tsr_tensor_release(out);
    tsr_tensor *g = from_doubles(TSR_FLOAT64, 3, (double[]){0.125, 0.375, 1250.0});
    CHECK_OK(tsr_round_decimals(g, 2, &out));
    check_doubles(out, 3, (double[]){0.12, 0.38, 1250.0});
    tsr_tensor_release(out);
    CHECK_OK(tsr_round_decimals(g, -2, &out));
    check_doubles(out, 3, (double[]){0.0, 0.0, 1200.0});
    tsr_tensor_release(out);
    CHECK_OK(tsr_round_decimals(g, 400, &out)); /* 10^400 is inf: NaN, as PyTorch */
    check_doubles(out, 3, (double[]){NAN, NAN, NAN});
    tsr_tensor_release(out);
    tsr_tensor_release(f);
    tsr_tensor_release(g);
}

/* ---- parameters --------------------------------------------------------- */

static void hardtanh_truncates_integer_bounds_and_uint8_refuses_negative_ones(void)
{
    tsr_tensor *i = from_ints(TSR_INT8, 3, (int64_t[]){1, -2, 3}), *out = NULL;
    CHECK_OK(tsr_hardtanh(i, tsr_scalar_float(-0.5), tsr_scalar_float(2.5), &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_INT8);
    check_ints(out, 3, (int64_t[]){1, 0, 2});
    tsr_tensor_release(out);
    CHECK_ERROR(tsr_hardtanh(i, tsr_scalar_int(-1000), tsr_scalar_int(1000), &out), TSR_ERR_VALUE,
                "without overflow");
    tsr_tensor *u = from_ints(TSR_UINT8, 1, (int64_t[]){7});
    CHECK_ERROR(tsr_unary(TSR_OP_HARDTANH, u, &out), TSR_ERR_VALUE, "negative limits");
    CHECK_OK(tsr_hardtanh(u, tsr_scalar_int(0), tsr_scalar_int(5), &out));
    check_ints(out, 1, (int64_t[]){5});
    tsr_tensor_release(out);
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 2, (double[]){NAN, 3.0});
    CHECK_OK(tsr_hardtanh(f, tsr_scalar_float(1.0), tsr_scalar_float(-1.0), &out));
    check_doubles(out, 2, (double[]){NAN, -1.0}); /* min above max gives max */
    tsr_tensor_release(out);
    tsr_tensor_release(f);
    tsr_tensor_release(u);
    tsr_tensor_release(i);
}

static void activations_round_each_step_as_pytorch_does(void)
{
    tsr_tensor *x = from_doubles(TSR_FLOAT32, 2, (double[]){-1e-7, -90.0}), *out = NULL;
    CHECK_OK(tsr_elu(x, tsr_scalar_float(1.0), tsr_scalar_int(1), tsr_scalar_int(1), &out));
    double elu[2];
    read_doubles(out, elu, 2);
    CHECK_DOUBLE(elu[0], -1.1920928955078125e-07, 0.0); /* exp(-1e-7) - 1 in float */
    tsr_tensor_release(out);
    CHECK_OK(tsr_unary(TSR_OP_SILU, x, &out));
    check_doubles(out, 2, (double[]){-5.000000058430487e-08, -0.0}); /* exp(90) overflows */
    tsr_tensor_release(out);
    tsr_tensor *y = from_doubles(TSR_FLOAT64, 2, (double[]){30.0, 1.0});
    CHECK_OK(tsr_softplus(y, tsr_scalar_int(1), tsr_scalar_int(20), &out));
    double soft[2];
    read_doubles(out, soft, 2);
    CHECK_DOUBLE(soft[0], 30.0, 0.0); /* linear above the threshold */
    CHECK_DOUBLE(soft[1], log1p(exp(1.0)), 1e-15);
    tsr_tensor_release(out);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

static void parameters_must_convert_to_the_dtype(void)
{
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 1, (double[]){1.0}), *out = NULL;
    CHECK_ERROR(tsr_softplus(f, tsr_scalar_complex(1.0, 1.0), tsr_scalar_int(20), &out),
                TSR_ERR_VALUE, "beta");
    CHECK_ERROR(tsr_leaky_relu(f, tsr_scalar_float(1e300), &out), TSR_ERR_VALUE, "negative_slope");
    CHECK_ERROR(tsr_lerp(f, f, tsr_operand_scalar(tsr_scalar_float(1e300)), &out), TSR_ERR_VALUE,
                "weight");
    tsr_tensor *i = from_ints(TSR_INT64, 1, (int64_t[]){2});
    CHECK_ERROR(tsr_addcmul(i, i, i, tsr_scalar_float(1e30), &out), TSR_ERR_VALUE, "value");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(i);
    tsr_tensor_release(f);
}

/* ---- lerp, addcmul, addcdiv -------------------------------------------- */

static void lerp_requires_one_dtype_and_keeps_a_scalar_weight_in_float(void)
{
    tsr_tensor *a = from_doubles(TSR_BFLOAT16, 1, (double[]){0.0});
    tsr_tensor *e = from_doubles(TSR_BFLOAT16, 1, (double[]){100.0}), *out = NULL;
    CHECK_OK(tsr_lerp(a, e, tsr_operand_scalar(tsr_scalar_float(0.3)), &out));
    check_doubles(out, 1, (double[]){30.0}); /* weight 0.3 in bfloat16 would give 30.125 */
    tsr_tensor_release(out);
    tsr_tensor *d = from_doubles(TSR_FLOAT64, 1, (double[]){1.0});
    CHECK_ERROR(tsr_lerp(a, d, tsr_operand_scalar(tsr_scalar_float(0.5)), &out), TSR_ERR_DTYPE,
                "`end`");
    CHECK_ERROR(tsr_lerp(a, e, op_t(d), &out), TSR_ERR_DTYPE, "`weight`");
    tsr_tensor *s = from_doubles(TSR_FLOAT32, 1, (double[]){INFINITY});
    tsr_tensor *t = from_doubles(TSR_FLOAT32, 1, (double[]){-INFINITY});
    CHECK_OK(tsr_lerp(s, t, tsr_operand_scalar(tsr_scalar_float(-1.5)), &out));
    check_doubles(out, 1, (double[]){INFINITY}); /* w < 0.5 takes start + w (end - start) */
    tsr_tensor_release(out);
    tsr_tensor_release(s);
    tsr_tensor_release(t);
    tsr_tensor_release(d);
    tsr_tensor_release(a);
    tsr_tensor_release(e);
}

static void addcmul_truncates_its_value_for_integers_and_addcdiv_refuses_them(void)
{
    tsr_tensor *i = from_ints(TSR_INT64, 3, (int64_t[]){1, -2, 3}), *out = NULL;
    CHECK_OK(tsr_addcmul(i, i, i, tsr_scalar_float(0.5), &out));
    check_ints(out, 3, (int64_t[]){1, -2, 3});
    tsr_tensor_release(out);
    CHECK_OK(tsr_addcmul(i, i, i, tsr_scalar_int(2), &out));
    check_ints(out, 3, (int64_t[]){3, 6, 21});
    tsr_tensor_release(out);
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 3, (double[]){1.5, -2.5, 0.5});
    CHECK_ERROR(tsr_addcdiv(f, i, i, tsr_scalar_int(1), &out), TSR_ERR_DTYPE, "Integer division");
    CHECK_OK(tsr_addcdiv(i, f, f, tsr_scalar_int(1), &out));
    CHECK_INT(tsr_tensor_dtype(out), TSR_FLOAT32); /* promoted over the three tensors */
    check_doubles(out, 3, (double[]){2.0, -1.0, 4.0});
    tsr_tensor_release(out);
    tsr_tensor_release(f);
    tsr_tensor_release(i);
}

/* ---- in place ----------------------------------------------------------- */

static void in_place_results_must_fit_selfs_dtype(void)
{
    tsr_tensor *i = from_ints(TSR_INT64, 2, (int64_t[]){1, 2});
    uint64_t version = tsr_tensor_version(i);
    CHECK_ERROR(tsr_unary_(TSR_OP_EXP, i), TSR_ERR_DTYPE, "can't be cast");
    CHECK_ERROR(tsr_unary_(TSR_OP_RECIPROCAL, i), TSR_ERR_DTYPE, "can't be cast");
    CHECK_ERROR(tsr_binary_(TSR_OP_COPYSIGN, i, tsr_operand_scalar(tsr_scalar_int(1))),
                TSR_ERR_DTYPE, "can't be cast");
    tsr_tensor *b = from_ints(TSR_BOOL, 1, (int64_t[]){1});
    CHECK_ERROR(tsr_unary_(TSR_OP_SQUARE, b), TSR_ERR_DTYPE, "can't be cast");
    CHECK_INT(tsr_tensor_version(i), version);
    check_ints(i, 2, (int64_t[]){1, 2});
    CHECK_OK(tsr_unary_(TSR_OP_FLOOR, i)); /* identity, still a write */
    CHECK_INT(tsr_tensor_version(i), version + 1);
    tsr_tensor_release(b);
    tsr_tensor_release(i);
}

static void in_place_ops_write_through_views_and_bump_versions(void)
{
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 4, (double[]){0.0, 2.5, -0.0, NAN}), *v = NULL;
    CHECK_OK(tsr_slice(f, 0, 1, 4, 2, &v)); /* elements 1 and 3 */
    uint64_t version = tsr_tensor_version(f);
    CHECK_OK(tsr_unary_(TSR_OP_LOGICAL_NOT, v)); /* bool results, stored as float */
    check_doubles(f, 4, (double[]){0.0, 0.0, -0.0, 0.0});
    CHECK_INT(tsr_tensor_version(f), version + 1);
    CHECK_OK(tsr_hardtanh_(f, tsr_scalar_float(0.5), tsr_scalar_float(1.0)));
    check_doubles(f, 4, (double[]){0.5, 0.5, 0.5, 0.5});
    tsr_tensor *i = from_ints(TSR_INT32, 2, (int64_t[]){1, 2});
    tsr_tensor *n = from_ints(TSR_INT64, 2, (int64_t[]){40, 1});
    CHECK_OK(tsr_binary_(TSR_OP_BITWISE_LEFT_SHIFT, i, op_t(n)));
    check_ints(i, 2, (int64_t[]){0, 4}); /* computed in int64, stored as int32 */
    tsr_tensor_release(i);
    tsr_tensor_release(n);
    tsr_tensor_release(v);
    tsr_tensor_release(f);
}

static void in_place_ops_refuse_internal_overlap_and_missing_forms(void)
{
    tsr_tensor *f = from_doubles(TSR_FLOAT32, 2, (double[]){1.0, 2.0}), *e = NULL;
    CHECK_OK(tsr_expand(f, 2, (int64_t[]){2, 2}, &e));
    CHECK_ERROR(tsr_unary_(TSR_OP_EXP2, e), TSR_ERR_INVALID_ARGUMENT, "internal overlap");
    CHECK_ERROR(tsr_unary_(TSR_OP_SOFTPLUS, f), TSR_ERR_INVALID_ARGUMENT, "no in-place form");
    CHECK_ERROR(tsr_unary_(TSR_OP_ISNAN, f), TSR_ERR_INVALID_ARGUMENT, "no in-place form");
    CHECK_ERROR(tsr_binary_(TSR_OP_FMAX, f, op_t(f)), TSR_ERR_INVALID_ARGUMENT, "no in-place");
    tsr_tensor *c = NULL;
    CHECK_OK(tsr_to_dtype(f, TSR_COMPLEX64, &c));
    CHECK_ERROR(tsr_unary_(TSR_OP_ABS, c), TSR_ERR_DTYPE, "complex");
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_ones(2, (int64_t[]){3, 2}, TSR_FLOAT32, NULL, &wide));
    CHECK_ERROR(tsr_addcmul_(f, wide, f, tsr_scalar_int(1)), TSR_ERR_SHAPE, "broadcast");
    CHECK_ERROR(tsr_lerp_(f, wide, tsr_operand_scalar(tsr_scalar_float(0.5))), TSR_ERR_SHAPE,
                "broadcast");
    check_doubles(f, 2, (double[]){1.0, 2.0});
    tsr_tensor_release(wide);
    tsr_tensor_release(c);
    tsr_tensor_release(e);
    tsr_tensor_release(f);
}

static void ternary_ops_work_in_place(void)
{
    tsr_tensor *s = from_doubles(TSR_FLOAT64, 2, (double[]){1.0, 2.0});
    tsr_tensor *t = from_doubles(TSR_FLOAT64, 2, (double[]){3.0, 5.0});
    CHECK_OK(tsr_addcmul_(s, t, t, tsr_scalar_float(0.5)));
    check_doubles(s, 2, (double[]){5.5, 14.5});
    CHECK_OK(tsr_addcdiv_(s, t, t, tsr_scalar_int(-1)));
    check_doubles(s, 2, (double[]){4.5, 13.5});
    CHECK_OK(tsr_lerp_(s, t, op_t(t))); /* weights 3 and 5 */
    check_doubles(s, 2, (double[]){0.0, -29.0});
    tsr_tensor_release(s);
    tsr_tensor_release(t);
}

static void fill_takes_a_zero_dim_tensor_value(void)
{
    tsr_tensor *i = from_ints(TSR_INT64, 2, (int64_t[]){1, 2}), *value = NULL;
    CHECK_OK(tsr_full(0, NULL, tsr_scalar_float(2.7), TSR_FLOAT32, NULL, &value));
    CHECK_OK(tsr_fill_tensor_(i, value));
    check_ints(i, 2, (int64_t[]){2, 2});
    tsr_tensor *vector = from_doubles(TSR_FLOAT32, 1, (double[]){1.0});
    CHECK_ERROR(tsr_fill_tensor_(i, vector), TSR_ERR_SHAPE, "0-dimension");
    CHECK_OK(tsr_zero_(i));
    check_ints(i, 2, (int64_t[]){0, 0});
    tsr_tensor_release(vector);
    tsr_tensor_release(value);
    tsr_tensor_release(i);
}

int main(void)
{
    RUN_TEST(floating_functions_compute_integers_in_float32);
    RUN_TEST(hypot_frac_and_activations_refuse_integers);
    RUN_TEST(rounding_returns_integer_tensors_unchanged);
    RUN_TEST(square_of_integers_wraps_and_of_bool_is_int64);
    RUN_TEST(predicates_write_bool_for_every_dtype);
    RUN_TEST(fmax_and_fmin_ignore_nan);
    RUN_TEST(fmod_takes_the_dividends_sign);
    RUN_TEST(fmod_of_integers_by_zero_fails);
    RUN_TEST(shift_counts_out_of_range_use_their_low_bits);
    RUN_TEST(bitwise_ops_take_bool_and_integers_only);
    RUN_TEST(nan_to_num_defaults_are_the_dtypes_extremes);
    RUN_TEST(round_breaks_ties_to_even_at_any_decimal);
    RUN_TEST(hardtanh_truncates_integer_bounds_and_uint8_refuses_negative_ones);
    RUN_TEST(activations_round_each_step_as_pytorch_does);
    RUN_TEST(parameters_must_convert_to_the_dtype);
    RUN_TEST(lerp_requires_one_dtype_and_keeps_a_scalar_weight_in_float);
    RUN_TEST(addcmul_truncates_its_value_for_integers_and_addcdiv_refuses_them);
    RUN_TEST(in_place_results_must_fit_selfs_dtype);
    RUN_TEST(in_place_ops_write_through_views_and_bump_versions);
    RUN_TEST(in_place_ops_refuse_internal_overlap_and_missing_forms);
    RUN_TEST(ternary_ops_work_in_place);
    RUN_TEST(fill_takes_a_zero_dim_tensor_value);
    return check_summary("test_elementwise2");
}
