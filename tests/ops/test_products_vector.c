/* The products family's vector products: trace, kron, inner, mv, addmv,
 * addr, addbmm, cross, linalg_cross, linalg_vecdot. The rules the golden
 * cases cannot show: error messages and untouched outputs, beta = 0 ignoring
 * NaN, bool's and/or in addr, integer wrap-around, a long inner dimension,
 * and gradients (float64 gradcheck). Expected values are worked by hand
 * from PyTorch 1.13's definitions. */
#include "products_support.h"

#include <math.h>

static void trace_sums_the_diagonal_of_integers_as_int64(void)
{
    tsr_tensor *t = pt_make(TSR_INT8, 2, (int64_t[]){2, 3}, (double[]){100, 1, 2, 3, 100, 5});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_trace(t, &r));
    pt_check(r, TSR_INT64, 0, NULL, (double[]){200}, 0); /* no int8 wrap */
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *b = pt_full(TSR_BOOL, 2, (int64_t[]){2, 2}, 1);
    tsr_tensor *three = pt_full(TSR_FLOAT32, 3, (int64_t[]){2, 2, 2}, 1);
    CHECK_ERROR(tsr_trace(b, &r), TSR_ERR_DTYPE, "trace: not implemented for bool");
    CHECK_ERROR(tsr_trace(three, &r), TSR_ERR_SHAPE,
                "expected a matrix, but got tensor with dim 3");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){t, b, three}, 3);
}

static void kron_pads_the_lower_rank_and_promotes(void)
{
    tsr_tensor *a = pt_make(TSR_INT32, 1, (int64_t[]){2}, (double[]){1, 2});
    tsr_tensor *b = pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){1, 10, 100, 1000});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_kron(a, b, &r));
    /* a is [1, 2]: result [2, 4] = [[b00*1, b01*1, b00*2, b01*2], ...] */
    pt_check(r, TSR_FLOAT32, 2, (int64_t[]){2, 4}, (double[]){1, 10, 2, 20, 100, 1000, 200, 2000},
             0);
    pt_release((tsr_tensor *[]){a, b, r}, 3);
}

static void inner_multiplies_a_zero_d_operand_and_names_mismatched_shapes(void)
{
    tsr_tensor *s = pt_make(TSR_INT32, 0, NULL, (double[]){3});
    tsr_tensor *v = pt_make(TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){1.5, 2});
    tsr_tensor *m = pt_full(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 1);
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_inner(s, v, &r));
    pt_check(r, TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){4.5, 6}, 0);
    tsr_tensor_release(r);
    r = NULL;
    CHECK_ERROR(tsr_inner(m, v, &r), TSR_ERR_SHAPE,
                "the last dimension must match on both input tensors but got shapes [2, 3] and "
                "[2]");
    tsr_tensor *vi = pt_full(TSR_INT32, 1, (int64_t[]){3}, 1);
    CHECK_ERROR(tsr_inner(m, vi, &r), TSR_ERR_DTYPE, "inner: expected input and other");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){s, v, m, vi}, 4);
}

static void mv_checks_ranks_sizes_and_wraps_integers(void)
{
    tsr_tensor *m = pt_make(TSR_INT8, 2, (int64_t[]){1, 2}, (double[]){100, 100});
    tsr_tensor *v = pt_make(TSR_INT8, 1, (int64_t[]){2}, (double[]){1, 1});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_mv(m, v, &r));
    pt_check(r, TSR_INT8, 1, (int64_t[]){1}, (double[]){-56}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *v3 = pt_full(TSR_INT8, 1, (int64_t[]){3}, 1);
    CHECK_ERROR(tsr_mv(m, v3, &r), TSR_ERR_SHAPE,
                "mv: size mismatch, mat is [1, 2] and vec is [3]");
    CHECK_ERROR(tsr_mv(v, v, &r), TSR_ERR_SHAPE, "mv: expected mat to be a 2-d tensor, got 1-d");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){m, v, v3}, 3);
}

/* beta 0: input is never read, so its NaN and inf do not reach the result. */
static void add_products_with_beta_zero_ignore_nan_in_input(void)
{
    tsr_tensor *nan2 = pt_make(TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){NAN, INFINITY});
    tsr_tensor *nan22 =
        pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){NAN, 1, INFINITY, NAN});
    tsr_tensor *mat = pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *vec = pt_make(TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){1, -1});
    tsr_tensor *batch = pt_make(TSR_FLOAT32, 3, (int64_t[]){1, 2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_addmv(nan2, mat, vec, tsr_scalar_int(0), tsr_scalar_float(2), &r));
    pt_check(r, TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){-2, -2}, 0);
    tsr_tensor_release(r);
    CHECK_OK(tsr_addr(nan22, vec, vec, tsr_scalar_float(0), tsr_scalar_int(3), &r));
    pt_check(r, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){3, -3, -3, 3}, 0);
    tsr_tensor_release(r);
    CHECK_OK(tsr_addbmm(nan22, batch, batch, tsr_scalar_int(0), tsr_scalar_int(1), &r));
    pt_check(r, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){7, 10, 15, 22}, 0);
    tsr_tensor_release(r);
    pt_release((tsr_tensor *[]){nan2, nan22, mat, vec, batch}, 5);
}

static void addmv_converts_input_to_mats_dtype_and_checks_its_shape(void)
{
    tsr_tensor *in = pt_make(TSR_FLOAT64, 1, (int64_t[]){1}, (double[]){0.5});
    tsr_tensor *mat = pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 1}, (double[]){1, 2});
    tsr_tensor *vec = pt_make(TSR_FLOAT32, 1, (int64_t[]){1}, (double[]){4});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_addmv(in, mat, vec, tsr_scalar_int(2), tsr_scalar_int(1), &r));
    pt_check(r, TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){5, 9}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *bad = pt_full(TSR_FLOAT32, 1, (int64_t[]){3}, 1);
    CHECK_ERROR(tsr_addmv(bad, mat, vec, tsr_scalar_int(1), tsr_scalar_int(1), &r), TSR_ERR_SHAPE,
                "addmv: input must be 0-d or a 1-d tensor of size 1 or 2");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){in, mat, vec, bad}, 4);
}

static void addr_on_bool_is_and_or_and_checks_coefficient_kinds(void)
{
    tsr_tensor *in = pt_make(TSR_BOOL, 2, (int64_t[]){2, 2}, (double[]){1, 0, 0, 0});
    tsr_tensor *v1 = pt_make(TSR_BOOL, 1, (int64_t[]){2}, (double[]){0, 1});
    tsr_tensor *v2 = pt_make(TSR_BOOL, 1, (int64_t[]){2}, (double[]){1, 1});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_addr(in, v1, v2, tsr_scalar_int(2), tsr_scalar_bool(true), &r));
    pt_check(r, TSR_BOOL, 2, (int64_t[]){2, 2}, (double[]){1, 0, 1, 1}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *i = pt_full(TSR_INT64, 2, (int64_t[]){2, 2}, 1);
    tsr_tensor *iv = pt_full(TSR_INT64, 1, (int64_t[]){2}, 1);
    tsr_tensor *f = pt_full(TSR_FLOAT32, 1, (int64_t[]){2}, 1);
    CHECK_ERROR(tsr_addr(i, iv, iv, tsr_scalar_int(1), tsr_scalar_float(1.5), &r), TSR_ERR_DTYPE,
                "argument alpha must not be a floating point number");
    CHECK_ERROR(tsr_addr(f, f, f, tsr_scalar_bool(true), tsr_scalar_int(1), &r), TSR_ERR_DTYPE,
                "Boolean beta only supported for Boolean results");
    CHECK_ERROR(tsr_addr(f, i, f, tsr_scalar_int(1), tsr_scalar_int(1), &r), TSR_ERR_SHAPE,
                "expected 1-D argument vec1, but got 2-D");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){in, v1, v2, i, iv, f}, 6);
}

/* B * K = 2^17 terms in one inner dimension, all exact in float32. */
static void addbmm_sums_every_batch_over_a_long_inner_dim(void)
{
    int64_t b = 512, k = 256;
    tsr_tensor *b1 = pt_full(TSR_FLOAT32, 3, (int64_t[]){b, 2, k}, 1);
    tsr_tensor *b2 = pt_full(TSR_FLOAT32, 3, (int64_t[]){b, k, 1}, 0.5);
    tsr_tensor *in = pt_full(TSR_FLOAT32, 0, NULL, 3);
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_addbmm(in, b1, b2, tsr_scalar_int(-1), tsr_scalar_int(2), &r));
    pt_check(r, TSR_FLOAT32, 2, (int64_t[]){2, 1}, (double[]){131069, 131069}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *other = pt_full(TSR_FLOAT32, 3, (int64_t[]){b - 1, k, 1}, 1);
    CHECK_ERROR(tsr_addbmm(in, b1, other, tsr_scalar_int(1), tsr_scalar_int(1), &r), TSR_ERR_SHAPE,
                "batch1 and batch2 must have same number of batches, got 512 and 511");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){b1, b2, in, other}, 4);
}

static void cross_without_dim_takes_inputs_first_dim_of_size_3(void)
{
    tsr_tensor *a = pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 3}, (double[]){1, 0, 0, 0, 1, 0});
    tsr_tensor *b = pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 3}, (double[]){0, 1, 0, 0, 0, 1});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_cross(a, b, NULL, &r)); /* dim 1: x cross y = z, y cross z = x */
    pt_check(r, TSR_FLOAT32, 2, (int64_t[]){2, 3}, (double[]){0, 0, 1, 1, 0, 0}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *wide = pt_full(TSR_FLOAT32, 2, (int64_t[]){2, 4}, 1);
    CHECK_ERROR(tsr_cross(wide, wide, NULL, &r), TSR_ERR_SHAPE,
                "cross: no dimension of size 3 in input");
    CHECK_ERROR(tsr_cross(a, b, (int64_t[]){0}, &r), TSR_ERR_SHAPE,
                "cross: inputs dimension 0 must have length 3, got 2 and 2");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){a, b, wide}, 3);
}

/* Each product wraps in int8 before the subtraction, as PyTorch's kernel. */
static void linalg_cross_wraps_integers_and_checks_ranks(void)
{
    tsr_tensor *a = pt_make(TSR_INT8, 1, (int64_t[]){3}, (double[]){100, 100, 1});
    tsr_tensor *b = pt_make(TSR_INT8, 1, (int64_t[]){3}, (double[]){1, -100, 100});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_linalg_cross(a, b, -1, &r));
    pt_check(r, TSR_INT8, 1, (int64_t[]){3}, (double[]){116, -15, -116}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *m = pt_full(TSR_INT8, 2, (int64_t[]){2, 3}, 1);
    tsr_tensor *h = pt_full(TSR_FLOAT16, 1, (int64_t[]){3}, 1);
    CHECK_ERROR(tsr_linalg_cross(m, a, -1, &r), TSR_ERR_SHAPE,
                "inputs must have the same number of dimensions, got 2 and 1");
    CHECK_ERROR(tsr_linalg_cross(h, h, -1, &r), TSR_ERR_DTYPE, "not implemented for float16");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){a, b, m, h}, 4);
}

static void linalg_vecdot_broadcasts_and_refuses_integers(void)
{
    tsr_tensor *x = pt_make(TSR_FLOAT64, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *y = pt_make(TSR_FLOAT64, 1, (int64_t[]){2}, (double[]){10, 100});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_linalg_vecdot(x, y, -1, &r));
    pt_check(r, TSR_FLOAT64, 1, (int64_t[]){2}, (double[]){210, 430}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *i = pt_full(TSR_INT64, 1, (int64_t[]){2}, 1);
    tsr_tensor *f = pt_full(TSR_FLOAT32, 1, (int64_t[]){2}, 1);
    CHECK_ERROR(tsr_linalg_vecdot(i, i, -1, &r), TSR_ERR_DTYPE,
                "expected a floating point or complex tensor as input, got int64");
    CHECK_ERROR(tsr_linalg_vecdot(f, y, -1, &r), TSR_ERR_DTYPE,
                "found x of type float32 and y of type float64");
    CHECK_ERROR(tsr_linalg_vecdot(x, y, 2, &r), TSR_ERR_INDEX, "linalg_vecdot:");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){x, y, i, f}, 4);
}

/* ------------------------------------------------------------------------ */
/* Gradients                                                                 */
/* ------------------------------------------------------------------------ */

typedef enum {
    G_TRACE,
    G_KRON,
    G_INNER,
    G_MV,
    G_ADDMV,
    G_ADDR,
    G_ADDBMM,
    G_CROSS,
    G_VECDOT
} grad_op;

static tsr_status call_op(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    switch (*(const grad_op *)context) {
    case G_TRACE:
        return tsr_trace(in[0], out);
    case G_KRON:
        return tsr_kron(in[0], in[1], out);
    case G_INNER:
        return tsr_inner(in[0], in[1], out);
    case G_MV:
        return tsr_mv(in[0], in[1], out);
    case G_ADDMV:
        return tsr_addmv(in[0], in[1], in[2], tsr_scalar_float(0.5), tsr_scalar_int(-2), out);
    case G_ADDR:
        return tsr_addr(in[0], in[1], in[2], tsr_scalar_int(3), tsr_scalar_float(0.25), out);
    case G_ADDBMM:
        return tsr_addbmm(in[0], in[1], in[2], tsr_scalar_float(-1), tsr_scalar_float(1.5), out);
    case G_CROSS:
        return tsr_linalg_cross(in[0], in[1], 0, out);
    default:
        return tsr_linalg_vecdot(in[0], in[1], 1, out);
    }
}

static void vector_product_gradients_match_finite_differences(void)
{
    grad_op op = G_TRACE;
    pt_gradcheck(call_op, &op, 1, (const int[][6]){{2, 3, 4}}, 1);
    op = G_KRON;
    pt_gradcheck(call_op, &op, 2, (const int[][6]){{2, 2, 3}, {3, 2, 1, 2}}, 2);
    op = G_INNER;
    pt_gradcheck(call_op, &op, 2, (const int[][6]){{2, 2, 3}, {3, 2, 2, 3}}, 3);
    op = G_MV;
    pt_gradcheck(call_op, &op, 2, (const int[][6]){{2, 3, 4}, {1, 4}}, 4);
    op = G_ADDMV;
    pt_gradcheck(call_op, &op, 3, (const int[][6]){{1, 1}, {2, 3, 4}, {1, 4}}, 5);
    op = G_ADDR;
    pt_gradcheck(call_op, &op, 3, (const int[][6]){{1, 2}, {1, 3}, {1, 2}}, 6);
    op = G_ADDBMM;
    pt_gradcheck(call_op, &op, 3, (const int[][6]){{2, 2, 3}, {3, 4, 2, 5}, {3, 4, 5, 3}}, 7);
    op = G_CROSS;
    pt_gradcheck(call_op, &op, 2, (const int[][6]){{2, 3, 1}, {2, 3, 4}}, 8);
    op = G_VECDOT;
    pt_gradcheck(call_op, &op, 2, (const int[][6]){{3, 2, 1, 4}, {2, 3, 4}}, 9);
}

int main(void)
{
    RUN_TEST(trace_sums_the_diagonal_of_integers_as_int64);
    RUN_TEST(kron_pads_the_lower_rank_and_promotes);
    RUN_TEST(inner_multiplies_a_zero_d_operand_and_names_mismatched_shapes);
    RUN_TEST(mv_checks_ranks_sizes_and_wraps_integers);
    RUN_TEST(add_products_with_beta_zero_ignore_nan_in_input);
    RUN_TEST(addmv_converts_input_to_mats_dtype_and_checks_its_shape);
    RUN_TEST(addr_on_bool_is_and_or_and_checks_coefficient_kinds);
    RUN_TEST(addbmm_sums_every_batch_over_a_long_inner_dim);
    RUN_TEST(cross_without_dim_takes_inputs_first_dim_of_size_3);
    RUN_TEST(linalg_cross_wraps_integers_and_checks_ranks);
    RUN_TEST(linalg_vecdot_broadcasts_and_refuses_integers);
    RUN_TEST(vector_product_gradients_match_finite_differences);
    return check_summary("test_products_vector");
}
