/* Bad input: every call fails with a status and a message naming op,
 * argument and problem; nothing is modified, nothing is half-made. */
#include "check.h"

static tsr_tensor *ones_f32(int ndim, const int64_t *shape)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_ones(ndim, shape, TSR_FLOAT32, NULL, &t));
    return t;
}

static void null_arguments_are_refused(void)
{
    tsr_tensor *out = NULL, *a = ones_f32(1, (int64_t[]){2});
    CHECK_ERROR(tsr_add(a, NULL, NULL), TSR_ERR_INVALID_ARGUMENT, "add");
    CHECK_ERROR(tsr_unary(TSR_OP_EXP, NULL, &out), TSR_ERR_INVALID_ARGUMENT, "exp");
    CHECK_ERROR(tsr_transpose(NULL, 0, 1, &out), TSR_ERR_INVALID_ARGUMENT, "transpose");
    CHECK_ERROR(tsr_to_host(a, NULL, 8), TSR_ERR_INVALID_ARGUMENT, "to_host");
    CHECK_ERROR(tsr_copy_(NULL, a), TSR_ERR_INVALID_ARGUMENT, "copy_");
    /* two Python numbers: only where PyTorch's schema has that form */
    CHECK_ERROR(tsr_binary(TSR_OP_MAXIMUM, tsr_operand_scalar(tsr_scalar_int(1)),
                           tsr_operand_scalar(tsr_scalar_int(2)), &out),
                TSR_ERR_INVALID_ARGUMENT, "both Python scalars");
    CHECK_TRUE(out == NULL);
    CHECK_ERROR(tsr_binary(TSR_OP_ATAN2, tsr_operand_tensor(a),
                           tsr_operand_scalar(tsr_scalar_float(2.0)), &out),
                TSR_ERR_INVALID_ARGUMENT, "argument 'other' must be a tensor");
    CHECK_ERROR(tsr_binary(TSR_OP_EQ, tsr_operand_scalar(tsr_scalar_int(2)),
                           tsr_operand_tensor(a), &out),
                TSR_ERR_INVALID_ARGUMENT, "argument 'input' must be a tensor");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(a);
}

/* tsr_operand_tensor(NULL) is a missing tensor, not the scalar False: every
 * op that takes an operand refuses it by name and leaves self as it was. */
static void null_tensor_operands_are_refused(void)
{
    float values[2] = {3, 4}, got[2];
    tsr_tensor *out = NULL, *a = make_f32(1, (int64_t[]){2}, values, 2), *m = NULL;
    tsr_operand none = tsr_operand_tensor(NULL), one = tsr_operand_scalar(tsr_scalar_int(1));
    CHECK_OK(tsr_ones(1, (int64_t[]){2}, TSR_BOOL, NULL, &m));
    uint64_t version = tsr_tensor_version(a);
    CHECK_ERROR(tsr_mul(a, NULL, &out), TSR_ERR_INVALID_ARGUMENT, "mul: other is a NULL tensor");
    CHECK_ERROR(tsr_mul(NULL, a, &out), TSR_ERR_INVALID_ARGUMENT, "mul: input is a NULL tensor");
    CHECK_ERROR(tsr_add_scaled(tsr_operand_tensor(a), none, tsr_scalar_int(2), &out),
                TSR_ERR_INVALID_ARGUMENT, "add: other is a NULL tensor");
    CHECK_ERROR(tsr_where(m, none, tsr_operand_tensor(a), &out), TSR_ERR_INVALID_ARGUMENT,
                "where: input is a NULL tensor");
    CHECK_ERROR(tsr_clamp(a, &none, NULL, &out), TSR_ERR_INVALID_ARGUMENT,
                "clamp: min is a NULL tensor");
    CHECK_ERROR(tsr_lerp(a, a, none, &out), TSR_ERR_INVALID_ARGUMENT,
                "lerp: weight is a NULL tensor");
    CHECK_ERROR(tsr_addcmul(a, a, NULL, tsr_scalar_int(1), &out), TSR_ERR_INVALID_ARGUMENT,
                "addcmul");
    CHECK_ERROR(tsr_masked_fill(a, m, none, &out), TSR_ERR_INVALID_ARGUMENT,
                "masked_fill: value is a NULL tensor");
    CHECK_ERROR(tsr_searchsorted(a, none, false, false, NULL, NULL, &out),
                TSR_ERR_INVALID_ARGUMENT, "searchsorted: values is a NULL tensor");
    tsr_dtype dtype;
    CHECK_ERROR(tsr_result_type((tsr_operand[]){tsr_operand_tensor(a), none}, 2, &dtype),
                TSR_ERR_INVALID_ARGUMENT, "result_type: operand 1 is a NULL tensor");
    CHECK_TRUE(out == NULL);
    CHECK_ERROR(tsr_binary_(TSR_OP_MUL, a, none), TSR_ERR_INVALID_ARGUMENT,
                "mul_: other is a NULL tensor");
    CHECK_ERROR(tsr_add_(a, none, tsr_scalar_int(1)), TSR_ERR_INVALID_ARGUMENT,
                "add_: other is a NULL tensor");
    CHECK_ERROR(tsr_clamp_(a, &one, &none), TSR_ERR_INVALID_ARGUMENT,
                "clamp_: max is a NULL tensor");
    CHECK_ERROR(tsr_lerp_(a, a, none), TSR_ERR_INVALID_ARGUMENT, "lerp_: weight is a NULL tensor");
    CHECK_ERROR(tsr_masked_fill_(a, m, none), TSR_ERR_INVALID_ARGUMENT,
                "masked_fill_: value is a NULL tensor");
    CHECK_OK(tsr_to_host(a, got, sizeof got));
    CHECK_DOUBLE(got[0], 3, 0);
    CHECK_DOUBLE(got[1], 4, 0);
    CHECK_INT(tsr_tensor_version(a), version);
    tsr_tensor_release(a);
    tsr_tensor_release(m);
}

/* The getters answer "nothing" for NULL, as tessera.h documents. */
static void getters_take_null(void)
{
    CHECK_INT(tsr_tensor_dtype(NULL), TSR_DTYPE_COUNT);
    CHECK_INT(tsr_tensor_ndim(NULL), 0);
    CHECK_TRUE(tsr_tensor_shape(NULL) == NULL);
    CHECK_TRUE(tsr_tensor_strides(NULL) == NULL);
    CHECK_INT(tsr_tensor_offset(NULL), 0);
    CHECK_INT(tsr_tensor_numel(NULL), 0);
    CHECK_TRUE(!tsr_tensor_is_contiguous(NULL));
    CHECK_TRUE(tsr_tensor_backend(NULL) == NULL);
    CHECK_TRUE(!tsr_tensor_shares_storage(NULL, NULL));
    CHECK_INT(tsr_tensor_version(NULL), 0);
    CHECK_TRUE(!tsr_tensor_requires_grad(NULL));
    CHECK_TRUE(!tsr_tensor_is_leaf(NULL));
    CHECK_TRUE(tsr_tensor_grad_fn_name(NULL) == NULL);
    CHECK_TRUE(!tsr_tensor_retains_grad(NULL));
}

/* randint's bounds must be values of the dtype, as PyTorch's
 * check_from_to_in_range: low and high - 1. */
static void randint_bounds_outside_the_dtype_are_refused(void)
{
    tsr_generator *gen = NULL;
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_generator_create(7, &gen));
    int64_t shape[1] = {4};
    CHECK_ERROR(tsr_randint(gen, 0, 1000, 1, shape, TSR_INT8, NULL, &out), TSR_ERR_VALUE,
                "randint: to - 1 is out of bounds for int8");
    CHECK_ERROR(tsr_randint(gen, -1, 10, 1, shape, TSR_UINT8, NULL, &out), TSR_ERR_VALUE,
                "randint: from is out of bounds for uint8");
    CHECK_ERROR(tsr_randint(gen, 0, 70000, 1, shape, TSR_FLOAT16, NULL, &out), TSR_ERR_VALUE,
                "to - 1 is out of bounds for float16");
    CHECK_TRUE(out == NULL);
    CHECK_OK(tsr_randint(gen, -128, 128, 1, shape, TSR_INT8, NULL, &out));
    int8_t got[4];
    CHECK_OK(tsr_to_host(out, got, sizeof got));
    tsr_tensor_release(out);
    out = NULL;
    CHECK_OK(tsr_randint(gen, 0, 256, 1, shape, TSR_UINT8, NULL, &out));
    tsr_tensor_release(out);
    tsr_generator_destroy(gen);
}

/* A complex value with an imaginary part overflows every real dtype. */
static void complex_values_do_not_fill_real_tensors(void)
{
    float values[2] = {3, 4}, got[2];
    tsr_tensor *out = NULL, *a = make_f32(1, (int64_t[]){2}, values, 2);
    tsr_scalar z = tsr_scalar_complex(1, 2);
    CHECK_ERROR(tsr_full(1, (int64_t[]){2}, z, TSR_FLOAT32, NULL, &out), TSR_ERR_OVERFLOW,
                "full: value (1+2j) cannot be converted to type float32 without overflow");
    CHECK_ERROR(tsr_full(1, (int64_t[]){2}, z, TSR_INT64, NULL, &out), TSR_ERR_OVERFLOW,
                "int64 without overflow");
    CHECK_TRUE(out == NULL);
    uint64_t version = tsr_tensor_version(a);
    CHECK_ERROR(tsr_fill_(a, z), TSR_ERR_OVERFLOW, "fill_: value (1+2j) cannot be converted");
    CHECK_OK(tsr_to_host(a, got, sizeof got));
    CHECK_DOUBLE(got[0], 3, 0);
    CHECK_DOUBLE(got[1], 4, 0);
    CHECK_INT(tsr_tensor_version(a), version);
    CHECK_OK(tsr_fill_(a, tsr_scalar_complex(5, 0))); /* a real complex converts */
    CHECK_OK(tsr_to_host(a, got, sizeof got));
    CHECK_DOUBLE(got[0], 5, 0);
    CHECK_OK(tsr_full(1, (int64_t[]){2}, z, TSR_COMPLEX64, NULL, &out));
    tsr_tensor_release(out);
    tsr_tensor_release(a);
}

/* x[1:5] += x[0:4] reads elements it has written: PyTorch refuses it; the
 * same view on both sides is a full overlap, which it takes. */
static void partially_overlapping_in_place_operands_are_refused(void)
{
    float values[6] = {0, 1, 2, 3, 4, 5}, got[6];
    tsr_tensor *x = make_f32(1, (int64_t[]){6}, values, 6), *dst = NULL, *src = NULL;
    CHECK_OK(tsr_slice(x, 0, 1, 5, 1, &dst));
    CHECK_OK(tsr_slice(x, 0, 0, 4, 1, &src));
    uint64_t version = tsr_tensor_version(x);
    const char *words = "unsupported operation: some elements of the input tensor and the "
                        "written-to tensor refer to a single memory location";
    CHECK_ERROR(tsr_add_(dst, tsr_operand_tensor(src), tsr_scalar_int(1)),
                TSR_ERR_INVALID_ARGUMENT, words);
    CHECK_ERROR(tsr_binary_(TSR_OP_MUL, dst, tsr_operand_tensor(src)), TSR_ERR_INVALID_ARGUMENT,
                "mul_: unsupported operation");
    tsr_operand bound = tsr_operand_tensor(src);
    CHECK_ERROR(tsr_clamp_(dst, &bound, NULL), TSR_ERR_INVALID_ARGUMENT,
                "clamp_: unsupported operation");
    CHECK_ERROR(tsr_lerp_(dst, src, tsr_operand_scalar(tsr_scalar_float(0.5))),
                TSR_ERR_INVALID_ARGUMENT, "lerp_: unsupported operation");
    CHECK_ERROR(tsr_addcmul_(dst, src, dst, tsr_scalar_int(1)), TSR_ERR_INVALID_ARGUMENT,
                "addcmul_: unsupported operation");
    CHECK_ERROR(tsr_copy_(dst, src), TSR_ERR_INVALID_ARGUMENT, "copy_: unsupported operation");
    CHECK_OK(tsr_to_host(x, got, sizeof got));
    for (int k = 0; k < 6; k++)
        CHECK_DOUBLE(got[k], values[k], 0);
    CHECK_INT(tsr_tensor_version(x), version);
    CHECK_OK(tsr_add_(dst, tsr_operand_tensor(dst), tsr_scalar_int(1)));
    CHECK_OK(tsr_to_host(x, got, sizeof got));
    CHECK_DOUBLE(got[1], 2, 0);
    CHECK_DOUBLE(got[4], 8, 0);
    tsr_tensor_release(dst);
    tsr_tensor_release(src);
    tsr_tensor_release(x);
}

static void a_tensor_is_not_its_own_grad(void)
{
    tsr_tensor *t = ones_f32(1, (int64_t[]){2}), *grad = NULL;
    CHECK_ERROR(tsr_tensor_set_grad(t, t), TSR_ERR_INVALID_ARGUMENT,
                "set_grad: can't assign Variable as its own grad");
    CHECK_OK(tsr_tensor_grad(t, &grad));
    CHECK_TRUE(grad == NULL);
    tsr_tensor_release(t);
}

static void shapes_that_do_not_broadcast_name_both_shapes(void)
{
    tsr_tensor *a = ones_f32(2, (int64_t[]){2, 3}), *b = ones_f32(1, (int64_t[]){4}), *out = NULL;
    CHECK_ERROR(tsr_add(a, b, &out), TSR_ERR_SHAPE, "[2, 3] and [4]");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

static void negative_and_overflowing_sizes_are_refused(void)
{
    tsr_tensor *out = NULL;
    CHECK_ERROR(tsr_zeros(2, (int64_t[]){2, -3}, TSR_FLOAT32, NULL, &out), TSR_ERR_SHAPE,
                "negative size");
    CHECK_ERROR(tsr_zeros(3, (int64_t[]){1ll << 31, 1ll << 31, 4}, TSR_FLOAT32, NULL, &out),
                TSR_ERR_OVERFLOW, "overflows");
    CHECK_ERROR(tsr_empty(17, (int64_t[17]){0}, TSR_FLOAT32, NULL, &out), TSR_ERR_SHAPE, "17 dims");
    tsr_tensor *a = ones_f32(1, (int64_t[]){1});
    CHECK_ERROR(tsr_expand(a, 2, (int64_t[]){INT64_MAX, 2}, &out), TSR_ERR_OVERFLOW, "overflow");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(a);
}

static void invalid_dtypes_and_dims_are_refused(void)
{
    tsr_tensor *out = NULL, *a = ones_f32(2, (int64_t[]){2, 2});
    CHECK_ERROR(tsr_zeros(1, (int64_t[]){2}, (tsr_dtype)42, NULL, &out), TSR_ERR_DTYPE, "42");
    CHECK_ERROR(tsr_to_dtype(a, (tsr_dtype)-3, &out), TSR_ERR_DTYPE, "to");
    CHECK_ERROR(tsr_transpose(a, 0, 2, &out), TSR_ERR_INDEX, "dim1 2 is out of range");
    CHECK_ERROR(tsr_squeeze_dim(a, -3, &out), TSR_ERR_INDEX, "squeeze");
    CHECK_ERROR(tsr_unary((tsr_op)999, a, &out), TSR_ERR_INVALID_ARGUMENT, "999");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(a);
}

static void pytorch_dtype_errors_are_reproduced(void)
{
    tsr_tensor *b = NULL, *i = NULL, *out = NULL;
    CHECK_OK(tsr_ones(1, (int64_t[]){3}, TSR_BOOL, NULL, &b));
    CHECK_OK(tsr_ones(1, (int64_t[]){3}, TSR_INT64, NULL, &i));
    CHECK_ERROR(tsr_sub(b, b, &out), TSR_ERR_DTYPE, "sub");
    CHECK_ERROR(tsr_unary(TSR_OP_NEG, b, &out), TSR_ERR_DTYPE, "neg");
    CHECK_ERROR(tsr_binary(TSR_OP_POW, tsr_operand_tensor(i), tsr_operand_scalar(tsr_scalar_int(-1)), &out),
                TSR_ERR_VALUE, "negative integer powers");
    CHECK_ERROR(tsr_add_scaled(tsr_operand_tensor(i), tsr_operand_tensor(i), tsr_scalar_float(0.5), &out),
                TSR_ERR_DTYPE, "alpha");
    CHECK_ERROR(tsr_where(i, tsr_operand_tensor(i), tsr_operand_tensor(i), &out), TSR_ERR_DTYPE,
                "condition must be a bool tensor");
    CHECK_TRUE(out == NULL);
    tsr_tensor_release(b);
    tsr_tensor_release(i);
}

static void failed_in_place_ops_leave_self_unchanged(void)
{
    int64_t values[3] = {1, 2, 3}, got[3];
    tsr_tensor *i = NULL, *wide = NULL;
    CHECK_OK(tsr_from_host(values, sizeof values, 1, (int64_t[]){3}, TSR_INT64, NULL, &i));
    uint64_t version = tsr_tensor_version(i);
    CHECK_ERROR(tsr_add_(i, tsr_operand_scalar(tsr_scalar_float(0.5)), tsr_scalar_int(1)),
                TSR_ERR_DTYPE, "can't be cast");
    CHECK_ERROR(tsr_div_(i, tsr_operand_scalar(tsr_scalar_int(2)), TSR_ROUND_NONE), TSR_ERR_DTYPE,
                "can't be cast");
    CHECK_OK(tsr_ones(2, (int64_t[]){2, 3}, TSR_INT64, NULL, &wide));
    CHECK_ERROR(tsr_binary_(TSR_OP_MUL, i, tsr_operand_tensor(wide)), TSR_ERR_SHAPE,
                "doesn't match the broadcast shape");
    CHECK_OK(tsr_to_host(i, got, sizeof got));
    for (int k = 0; k < 3; k++)
        CHECK_INT(got[k], values[k]);
    CHECK_INT(tsr_tensor_version(i), version);
    tsr_tensor_release(i);
    tsr_tensor_release(wide);
}

static void host_buffers_of_the_wrong_size_are_refused(void)
{
    float buf[4] = {0};
    tsr_tensor *out = NULL, *a = ones_f32(1, (int64_t[]){3});
    CHECK_ERROR(tsr_from_host(buf, sizeof buf, 1, (int64_t[]){3}, TSR_FLOAT32, NULL, &out),
                TSR_ERR_SHAPE, "16 bytes");
    CHECK_ERROR(tsr_to_host(a, buf, sizeof buf), TSR_ERR_SHAPE, "needs 12");
    tsr_tensor_release(a);
}

static void unknown_names_are_refused(void)
{
    tsr_dtype d;
    tsr_op op;
    tsr_backend *b;
    CHECK_ERROR(tsr_dtype_from_name("float128", &d), TSR_ERR_DTYPE, "float128");
    CHECK_ERROR(tsr_op_from_name("frobnicate", &op), TSR_ERR_INVALID_ARGUMENT, "frobnicate");
    CHECK_ERROR(tsr_backend_get("no-such-backend", &b), TSR_ERR_PLUGIN, "no-such-backend");
}

int main(void)
{
    RUN_TEST(null_arguments_are_refused);
    RUN_TEST(null_tensor_operands_are_refused);
    RUN_TEST(getters_take_null);
    RUN_TEST(randint_bounds_outside_the_dtype_are_refused);
    RUN_TEST(complex_values_do_not_fill_real_tensors);
    RUN_TEST(partially_overlapping_in_place_operands_are_refused);
    RUN_TEST(a_tensor_is_not_its_own_grad);
    RUN_TEST(shapes_that_do_not_broadcast_name_both_shapes);
    RUN_TEST(negative_and_overflowing_sizes_are_refused);
    RUN_TEST(invalid_dtypes_and_dims_are_refused);
    RUN_TEST(pytorch_dtype_errors_are_reproduced);
    RUN_TEST(failed_in_place_ops_leave_self_unchanged);
    RUN_TEST(host_buffers_of_the_wrong_size_are_refused);
    RUN_TEST(unknown_names_are_refused);
    return check_summary("test_errors");
}
