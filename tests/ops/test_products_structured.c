/* The products family's chains and structured matrices: linalg_multi_dot,
 * linalg_matrix_power, diag_embed, linalg_vander. Pinned here: the order in
 * which the chains multiply (bit for bit against the same products written
 * out in PyTorch's order), refusals and their messages, n < 0 as powers of
 * the inverse, a large diag_embed, and float64 gradcheck of each. */
#include "products_support.h"

#include <math.h>
#include <string.h>

/* Whether a and b hold the same float64 bits (both float64, one shape). */
static bool same_bits(const tsr_tensor *a, const tsr_tensor *b)
{
    int64_t n = tsr_tensor_numel(a);
    if (!a || !b || n != tsr_tensor_numel(b))
        return false;
    double *x = calloc((size_t)(n ? n : 1), sizeof *x), *y = calloc((size_t)(n ? n : 1), sizeof *y);
    CHECK_OK(tsr_to_host(a, x, (size_t)n * sizeof *x));
    CHECK_OK(tsr_to_host(b, y, (size_t)n * sizeof *y));
    bool same = memcmp(x, y, (size_t)n * sizeof *x) == 0;
    free(x);
    free(y);
    return same;
}

static tsr_tensor *random_f64(tsr_generator *gen, int ndim, const int64_t *shape)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_randn(gen, ndim, shape, TSR_FLOAT64, NULL, &t));
    return t;
}

static tsr_tensor *mm(const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_matmul(a, b, &r));
    return r;
}

/* Dims 10 x 30, 30 x 5, 5 x 60, 60 x 2. By the DP: AB 1500, BC 9000, CD 600;
 * ABC: (AB)C 4500 < A(BC) 27000; BCD: B(CD) 900 < (BC)D 12600; ABCD: A(BCD)
 * 1500 < (AB)(CD) 2200 < (ABC)D 5700. So A @ (B @ (C @ D)). */
static void multi_dot_multiplies_in_the_cheapest_order(void)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(11, &gen));
    tsr_tensor *a = random_f64(gen, 2, (int64_t[]){10, 30});
    tsr_tensor *b = random_f64(gen, 2, (int64_t[]){30, 5});
    tsr_tensor *c = random_f64(gen, 2, (int64_t[]){5, 60});
    tsr_tensor *d = random_f64(gen, 2, (int64_t[]){60, 2});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_linalg_multi_dot((const tsr_tensor *[]){a, b, c, d}, 4, &r));
    tsr_tensor *cd = mm(c, d), *bcd = mm(b, cd), *expected = mm(a, bcd);
    CHECK_TRUE(same_bits(r, expected));
    /* Three operands: (AB)C unless A(BC) is strictly cheaper. [2, 30] [30, 5]
     * [5, 60]: (AB)C costs 2*5*(30+60) = 900, A(BC) 30*60*(2+5) = 12600. */
    tsr_tensor *a2 = random_f64(gen, 2, (int64_t[]){2, 30}), *r3 = NULL;
    CHECK_OK(tsr_linalg_multi_dot((const tsr_tensor *[]){a2, b, c}, 3, &r3));
    tsr_tensor *ab = mm(a2, b), *abc = mm(ab, c);
    CHECK_TRUE(same_bits(r3, abc));
    pt_release((tsr_tensor *[]){a, b, c, d, r, cd, bcd, expected, a2, r3, ab, abc}, 12);
    tsr_generator_destroy(gen);
}

static void multi_dot_drops_the_dims_of_vector_ends_and_names_bad_operands(void)
{
    tsr_tensor *v = pt_make(TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){1, 2});
    tsr_tensor *m = pt_make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_linalg_multi_dot((const tsr_tensor *[]){v, m, v}, 3, &r));
    pt_check(r, TSR_FLOAT32, 0, NULL, (double[]){27}, 0); /* [7, 10] . [1, 2] */
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *m3 = pt_full(TSR_FLOAT32, 2, (int64_t[]){3, 3}, 1);
    tsr_tensor *d = pt_full(TSR_FLOAT64, 2, (int64_t[]){2, 2}, 1);
    CHECK_ERROR(tsr_linalg_multi_dot((const tsr_tensor *[]){m}, 1, &r), TSR_ERR_INVALID_ARGUMENT,
                "expected at least 2 tensors but got 1");
    CHECK_ERROR(tsr_linalg_multi_dot((const tsr_tensor *[]){m, v, m}, 3, &r), TSR_ERR_SHAPE,
                "tensor 1 must be 2D but got 1D");
    CHECK_ERROR(tsr_linalg_multi_dot((const tsr_tensor *[]){m, m3}, 2, &r), TSR_ERR_SHAPE,
                "tensors 0 and 1 with shapes [2, 2] and [3, 3] cannot be multiplied");
    CHECK_ERROR(tsr_linalg_multi_dot((const tsr_tensor *[]){m, d}, 2, &r), TSR_ERR_DTYPE,
                "tensor 0 is float32 and tensor 1 float64");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){v, m, m3, d}, 4);
}

/* n = 6 in PyTorch's binary order: z = a, a^2, a^4; result = a^2 @ a^4. */
static void matrix_power_squares_in_pytorchs_order(void)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(12, &gen));
    tsr_tensor *a = random_f64(gen, 3, (int64_t[]){2, 4, 4}), *r = NULL;
    CHECK_OK(tsr_linalg_matrix_power(a, 6, &r));
    tsr_tensor *a2 = mm(a, a), *a4 = mm(a2, a2), *expected = mm(a2, a4);
    CHECK_TRUE(same_bits(r, expected));
    tsr_tensor *r3 = NULL;
    CHECK_OK(tsr_linalg_matrix_power(a, 3, &r3)); /* (a @ a) @ a */
    tsr_tensor *a3 = mm(a2, a);
    CHECK_TRUE(same_bits(r3, a3));
    pt_release((tsr_tensor *[]){a, r, a2, a4, expected, r3, a3}, 7);
    tsr_generator_destroy(gen);
}

/* n < 0 is the inverse raised to |n| in the same order of products, bit for
 * bit; a singular or integer matrix is refused as linalg_inv refuses it. */
static void matrix_power_negative_powers_the_inverse(void)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(13, &gen));
    tsr_tensor *a = random_f64(gen, 3, (int64_t[]){2, 4, 4}), *inv = NULL, *r = NULL, *r1 = NULL;
    CHECK_OK(tsr_linalg_inv(a, &inv));
    CHECK_OK(tsr_linalg_matrix_power(a, -3, &r));
    tsr_tensor *inv2 = mm(inv, inv), *expected = mm(inv2, inv);
    CHECK_TRUE(same_bits(r, expected));
    CHECK_OK(tsr_linalg_matrix_power(a, -1, &r1));
    CHECK_TRUE(same_bits(r1, inv));
    tsr_tensor *singular = pt_full(TSR_FLOAT64, 2, (int64_t[]){3, 3}, 2), *bad = NULL;
    CHECK_ERROR(tsr_linalg_matrix_power(singular, -2, &bad), TSR_ERR_VALUE, "singular");
    tsr_tensor *ints = pt_full(TSR_INT32, 2, (int64_t[]){2, 2}, 1);
    CHECK_ERROR(tsr_linalg_matrix_power(ints, -1, &bad), TSR_ERR_DTYPE,
                "Expected a floating point or complex tensor as input. Got Int");
    CHECK_TRUE(bad == NULL);
    pt_release((tsr_tensor *[]){a, inv, r, r1, inv2, expected, singular, ints}, 8);
    tsr_generator_destroy(gen);
}

static void matrix_power_zero_gives_identities(void)
{
    tsr_tensor *a = pt_full(TSR_INT16, 3, (int64_t[]){2, 2, 2}, 7), *r = NULL;
    CHECK_OK(tsr_linalg_matrix_power(a, 0, &r));
    pt_check(r, TSR_INT16, 3, (int64_t[]){2, 2, 2}, (double[]){1, 0, 0, 1, 1, 0, 0, 1}, 0);
    tsr_tensor_release(r);
    r = NULL;
    tsr_tensor *f = pt_full(TSR_FLOAT32, 2, (int64_t[]){2, 2}, 1);
    tsr_tensor *bf = pt_full(TSR_BFLOAT16, 2, (int64_t[]){2, 2}, 1);
    tsr_tensor *wide = pt_full(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 1);
    CHECK_OK(tsr_tensor_set_requires_grad(f, true)); /* a^0 records a zero gradient */
    CHECK_OK(tsr_linalg_matrix_power(f, 0, &r));
    tsr_tensor *g = NULL;
    if (r) {
        CHECK_STR(tsr_tensor_grad_fn_name(r), "linalg_matrix_power");
        tsr_tensor *ones = pt_full(TSR_FLOAT32, 2, (int64_t[]){2, 2}, 1);
        CHECK_OK(tsr_backward(r, ones, 0));
        CHECK_OK(tsr_tensor_grad(f, &g));
        pt_check(g, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){0, 0, 0, 0}, 0);
        tsr_tensor_release(ones);
    }
    tsr_tensor_release(g);
    tsr_tensor_release(r);
    r = NULL;
    CHECK_ERROR(tsr_linalg_matrix_power(bf, 0, &r), TSR_ERR_DTYPE, "bfloat16");
    CHECK_ERROR(tsr_linalg_matrix_power(wide, 2, &r), TSR_ERR_SHAPE,
                "but they are 2 by 3 matrices");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){a, f, bf, wide}, 4);
}

static void diag_embed_places_offset_diagonals_over_any_two_dims(void)
{
    tsr_tensor *x = pt_make(TSR_INT32, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *r = NULL;
    /* offset 1 over dims (0, 2): r[i, b, j] = x[b, i] where j = i + 1. */
    CHECK_OK(tsr_diag_embed(x, 1, 0, 2, &r));
    pt_check(r, TSR_INT32, 3, (int64_t[]){3, 2, 3},
             (double[]){0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 4, 0, 0, 0, 0, 0, 0}, 0);
    tsr_tensor_release(r);
    r = NULL;
    CHECK_ERROR(tsr_diag_embed(x, 0, 1, -2, &r), TSR_ERR_INVALID_ARGUMENT,
                "diagonal dimensions cannot be identical 1, -2");
    CHECK_ERROR(tsr_diag_embed(x, 0, 3, 0, &r), TSR_ERR_INDEX, "diag_embed: dim1 3");
    CHECK_TRUE(r == NULL);
    tsr_tensor_release(x);
}

/* A 300 x 300 result (2^16 < 90000 elements) with offset -1. */
static void diag_embed_of_a_long_vector(void)
{
    tsr_tensor *x = pt_full(TSR_FLOAT32, 1, (int64_t[]){299}, 2), *r = NULL, *s = NULL, *d = NULL;
    CHECK_OK(tsr_diag_embed(x, -1, -2, -1, &r));
    CHECK_OK(tsr_sum(r, NULL, 0, false, TSR_DTYPE_INFER, &s));
    pt_check(s, TSR_FLOAT32, 0, NULL, (double[]){598}, 0);
    CHECK_OK(tsr_diagonal(r, -1, 0, 1, &d));
    pt_check(d, TSR_FLOAT32, 1, (int64_t[]){299}, NULL, 0);
    tsr_tensor *two = pt_full(TSR_FLOAT32, 1, (int64_t[]){299}, 2), *eq = NULL, *all = NULL;
    CHECK_OK(tsr_eq(d, two, &eq));
    CHECK_OK(tsr_sum(eq, NULL, 0, false, TSR_DTYPE_INFER, &all));
    pt_check(all, TSR_INT64, 0, NULL, (double[]){299}, 0);
    pt_release((tsr_tensor *[]){x, r, s, d, two, eq, all}, 7);
}

static void vander_gives_int64_powers_and_checks_n(void)
{
    tsr_tensor *x = pt_make(TSR_INT8, 1, (int64_t[]){2}, (double[]){100, -3}), *r = NULL;
    int64_t n = 4;
    CHECK_OK(tsr_linalg_vander(x, &n, &r));
    pt_check(r, TSR_INT64, 2, (int64_t[]){2, 4}, (double[]){1, 100, 10000, 1000000, 1, -3, 9, -27},
             0);
    tsr_tensor_release(r);
    r = NULL;
    n = 1;
    tsr_tensor *b = pt_full(TSR_BOOL, 1, (int64_t[]){3}, 1);
    tsr_tensor *s = pt_full(TSR_FLOAT32, 0, NULL, 2);
    CHECK_ERROR(tsr_linalg_vander(x, &n, &r), TSR_ERR_INVALID_ARGUMENT,
                "N must be greater than 1, got 1");
    CHECK_ERROR(tsr_linalg_vander(s, NULL, &r), TSR_ERR_INVALID_ARGUMENT,
                "N must be greater than 1");
    CHECK_ERROR(tsr_linalg_vander(b, NULL, &r), TSR_ERR_DTYPE, "but got bool");
    CHECK_TRUE(r == NULL);
    pt_release((tsr_tensor *[]){x, b, s}, 3);
}

/* ------------------------------------------------------------------------ */
/* Gradients                                                                 */
/* ------------------------------------------------------------------------ */

typedef enum {
    G_MULTI_DOT,
    G_MATRIX_POWER,
    G_MATRIX_POWER_NEGATIVE,
    G_DIAG_EMBED,
    G_VANDER
} grad_op;

static tsr_status call_op(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    switch (*(const grad_op *)context) {
    case G_MULTI_DOT:
        return tsr_linalg_multi_dot(in, (size_t)n, out);
    case G_MATRIX_POWER:
        return tsr_linalg_matrix_power(in[0], 5, out);
    case G_MATRIX_POWER_NEGATIVE:
        return tsr_linalg_matrix_power(in[0], -2, out);
    case G_DIAG_EMBED:
        return tsr_diag_embed(in[0], -1, 2, 0, out);
    default:
        return tsr_linalg_vander(in[0], (int64_t[]){4}, out);
    }
}

static void structured_gradients_match_finite_differences(void)
{
    grad_op op = G_MULTI_DOT;
    pt_gradcheck(call_op, &op, 4, (const int[][6]){{1, 3}, {2, 3, 4}, {2, 4, 2}, {1, 2}}, 21);
    op = G_MATRIX_POWER;
    pt_gradcheck(call_op, &op, 1, (const int[][6]){{3, 2, 3, 3}}, 22);
    op = G_MATRIX_POWER_NEGATIVE;
    pt_gradcheck(call_op, &op, 1, (const int[][6]){{3, 2, 3, 3}}, 25);
    op = G_DIAG_EMBED;
    pt_gradcheck(call_op, &op, 1, (const int[][6]){{2, 2, 3}}, 23);
    op = G_VANDER;
    pt_gradcheck(call_op, &op, 1, (const int[][6]){{2, 2, 3}}, 24);
}

int main(void)
{
    RUN_TEST(multi_dot_multiplies_in_the_cheapest_order);
    RUN_TEST(multi_dot_drops_the_dims_of_vector_ends_and_names_bad_operands);
    RUN_TEST(matrix_power_squares_in_pytorchs_order);
    RUN_TEST(matrix_power_zero_gives_identities);
    RUN_TEST(matrix_power_negative_powers_the_inverse);
    RUN_TEST(diag_embed_places_offset_diagonals_over_any_two_dims);
    RUN_TEST(diag_embed_of_a_long_vector);
    RUN_TEST(vander_gives_int64_powers_and_checks_n);
    RUN_TEST(structured_gradients_match_finite_differences);
    return check_summary("test_products_structured");
}
