/* Products: matmul's rank rules, mm/bmm/dot strictness, dtypes and errors as
 * PyTorch 1.13 on CPU, addmm's coefficients, einsum, tensordot, layout
 * independence and gradients. Expected values were recorded from PyTorch
 * 1.13 (complex dot products from its einsum: the Debian build's BLAS dot
 * returns 0 for complex vectors, a linkage bug we do not copy). */
#include "check.h"

#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* A tensor of `dtype` holding float64 values (converted as copy converts). */
static tsr_tensor *make(tsr_dtype dtype, int ndim, const int64_t *shape, const double *values)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *f = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof(double), ndim, shape, TSR_FLOAT64, NULL, &f));
    if (f)
        CHECK_OK(tsr_to_dtype(f, dtype, &t));
    tsr_tensor_release(f);
    return t;
}

/* start, start + step, ... in C order, as `dtype`. */
static tsr_tensor *ramp(tsr_dtype dtype, int ndim, const int64_t *shape, double start, double step)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    double *values = malloc((size_t)(n ? n : 1) * sizeof *values);
    for (int64_t i = 0; i < n; i++)
        values[i] = start + step * (double)i;
    tsr_tensor *t = make(dtype, ndim, shape, values);
    free(values);
    return t;
}

/* Complex tensors from interleaved (re, im) pairs. */
static tsr_tensor *make_complex(tsr_dtype dtype, int64_t n, const double *pairs)
{
    tsr_tensor *c = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(pairs, (size_t)n * 2 * sizeof(double), 1, &n, TSR_COMPLEX128, NULL, &c));
    if (c)
        CHECK_OK(tsr_to_dtype(c, dtype, &t));
    tsr_tensor_release(c);
    return t;
}

/* Reads a real tensor as float64. */
static void read_values(const tsr_tensor *t, double *out, size_t n)
{
    tsr_tensor *f = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &f));
    CHECK_INT(tsr_tensor_numel(t), (int64_t)n);
    if (f && tsr_tensor_numel(t) == (int64_t)n)
        CHECK_OK(tsr_to_host(f, out, n * sizeof *out));
    tsr_tensor_release(f);
}

static void check_shape(const tsr_tensor *t, int ndim, const int64_t *shape)
{
    CHECK_INT(tsr_tensor_ndim(t), ndim);
    for (int i = 0; i < ndim && i < tsr_tensor_ndim(t); i++)
        CHECK_INT(tsr_tensor_shape(t)[i], shape[i]);
}

/* t has `dtype`, `shape` and (as float64) `expected`, within tolerance. */
static void check_tensor(const tsr_tensor *t, tsr_dtype dtype, int ndim, const int64_t *shape,
                         const double *expected, double tolerance)
{
    if (!t) {
        CHECK_TRUE(!"a result");
        return;
    }
    CHECK_STR(tsr_dtype_name(tsr_tensor_dtype(t)), tsr_dtype_name(dtype));
    check_shape(t, ndim, shape);
    int64_t n = tsr_tensor_numel(t);
    double *got = calloc((size_t)(n ? n : 1), sizeof *got);
    read_values(t, got, (size_t)n);
    for (int64_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], tolerance);
    free(got);
}

static void release_all(tsr_tensor **ts, int n)
{
    for (int i = 0; i < n; i++)
        tsr_tensor_release(ts[i]);
}

/* ------------------------------------------------------------------------ */
/* matmul's rank rules                                                       */
/* ------------------------------------------------------------------------ */

static void matmul_vector_vector_is_a_0d_dot(void)
{
    tsr_tensor *a = make(TSR_FLOAT32, 1, (int64_t[]){3}, (double[]){1, 2, 3});
    tsr_tensor *b = make(TSR_FLOAT32, 1, (int64_t[]){3}, (double[]){4, 5, 6});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_matmul(a, b, &r));
    check_tensor(r, TSR_FLOAT32, 0, NULL, (double[]){32}, 0);
    release_all((tsr_tensor *[]){a, b, r}, 3);
}

static void matmul_vector_operands_lose_their_added_dim(void)
{
    tsr_tensor *v = ramp(TSR_FLOAT64, 1, (int64_t[]){3}, 1, 1);
    tsr_tensor *m32 = ramp(TSR_FLOAT64, 2, (int64_t[]){3, 2}, 0, 1);
    tsr_tensor *m23 = ramp(TSR_FLOAT64, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *vm = NULL, *mv = NULL;
    CHECK_OK(tsr_matmul(v, m32, &vm));
    CHECK_OK(tsr_matmul(m23, v, &mv));
    check_tensor(vm, TSR_FLOAT64, 1, (int64_t[]){2}, (double[]){16, 22}, 0);
    check_tensor(mv, TSR_FLOAT64, 1, (int64_t[]){2}, (double[]){8, 26}, 0);
    release_all((tsr_tensor *[]){v, m32, m23, vm, mv}, 5);
}

static void matmul_vector_against_a_batch_broadcasts(void)
{
    tsr_tensor *v = ramp(TSR_FLOAT64, 1, (int64_t[]){3}, 1, 1);
    tsr_tensor *b = ramp(TSR_FLOAT64, 3, (int64_t[]){5, 3, 2}, -2, 0.5);
    tsr_tensor *a = ramp(TSR_FLOAT64, 3, (int64_t[]){5, 2, 3}, -2, 0.5);
    tsr_tensor *vb = NULL, *av = NULL;
    CHECK_OK(tsr_matmul(v, b, &vb));
    CHECK_OK(tsr_matmul(a, v, &av));
    check_tensor(vb, TSR_FLOAT64, 2, (int64_t[]){5, 2},
                 (double[]){-4, -1, 14, 17, 32, 35, 50, 53, 68, 71}, 0);
    check_tensor(av, TSR_FLOAT64, 2, (int64_t[]){5, 2},
                 (double[]){-8, 1, 10, 19, 28, 37, 46, 55, 64, 73}, 0);
    release_all((tsr_tensor *[]){v, a, b, vb, av}, 5);
}

static void matmul_batch_dims_broadcast(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT64, 4, (int64_t[]){2, 1, 3, 4}, -3, 0.5);
    tsr_tensor *b = ramp(TSR_FLOAT64, 3, (int64_t[]){5, 4, 2}, 1, -0.25);
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_matmul(a, b, &r));
    if (r) {
        check_shape(r, 4, (int64_t[]){2, 5, 3, 2});
        double got[60], sum = 0;
        read_values(r, got, 60);
        for (int i = 0; i < 60; i++)
            sum += got[i];
        CHECK_DOUBLE(sum, -2632.5, 0);
        CHECK_DOUBLE(got[((1 * 5 + 3) * 3 + 2) * 2 + 1], -187.25, 0); /* r[1, 3, 2, 1] */
        CHECK_DOUBLE(got[((0 * 5 + 4) * 3 + 0) * 2 + 0], 68.5, 0);    /* r[0, 4, 0, 0] */
    }
    release_all((tsr_tensor *[]){a, b, r}, 3);
}

static void matmul_batch_dims_that_do_not_broadcast_are_refused(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT32, 3, (int64_t[]){2, 3, 4}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT32, 3, (int64_t[]){3, 4, 2}, 0, 1);
    tsr_tensor *r = NULL;
    CHECK_ERROR(tsr_matmul(a, b, &r), TSR_ERR_SHAPE, "[2, 3, 4] and [3, 4, 2]");
    CHECK_TRUE(r == NULL);
    release_all((tsr_tensor *[]){a, b}, 2);
}

static void matmul_names_both_shapes_when_inner_dims_differ(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 4}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT32, 2, (int64_t[]){5, 2}, 0, 1);
    tsr_tensor *v3 = ramp(TSR_FLOAT32, 1, (int64_t[]){3}, 0, 1);
    tsr_tensor *v4 = ramp(TSR_FLOAT32, 1, (int64_t[]){4}, 0, 1);
    tsr_tensor *zero_d = ramp(TSR_FLOAT32, 0, NULL, 1, 0);
    tsr_tensor *r = NULL;
    CHECK_ERROR(tsr_matmul(a, b, &r), TSR_ERR_SHAPE, "[3, 4] and [5, 2]");
    CHECK_ERROR(tsr_matmul(v3, v4, &r), TSR_ERR_SHAPE, "3 and 4 elements");
    CHECK_ERROR(tsr_matmul(zero_d, v3, &r), TSR_ERR_SHAPE, "at least 1 dim");
    CHECK_ERROR(tsr_mm(a, a, &r), TSR_ERR_SHAPE, "[3, 4] and [3, 4]");
    CHECK_ERROR(tsr_mm(a, v4, &r), TSR_ERR_SHAPE, "mat2 must be a 2-d tensor, got 1-d");
    release_all((tsr_tensor *[]){a, b, v3, v4, zero_d}, 5);
}

static void matmul_requires_one_dtype(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT64, 2, (int64_t[]){3, 2}, 0, 1);
    tsr_tensor *i = ramp(TSR_INT64, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *v32 = ramp(TSR_FLOAT32, 1, (int64_t[]){3}, 0, 1);
    tsr_tensor *v64 = ramp(TSR_FLOAT64, 1, (int64_t[]){3}, 0, 1);
    tsr_tensor *r = NULL;
    CHECK_ERROR(tsr_matmul(a, b, &r), TSR_ERR_DTYPE, "float32 and float64");
    CHECK_ERROR(tsr_mm(i, b, &r), TSR_ERR_DTYPE, "int64 and float64");
    CHECK_ERROR(tsr_dot(v32, v64, &r), TSR_ERR_DTYPE, "float32 and float64");
    CHECK_ERROR(tsr_matmul(v32, v64, &r), TSR_ERR_DTYPE, "same dtype");
    release_all((tsr_tensor *[]){a, b, i, v32, v64}, 5);
}

/* ------------------------------------------------------------------------ */
/* Dtypes                                                                    */
/* ------------------------------------------------------------------------ */

static void bool_and_float16_products_are_refused(void)
{
    tsr_dtype refused[2] = {TSR_BOOL, TSR_FLOAT16};
    for (int k = 0; k < 2; k++) {
        tsr_tensor *a = ramp(refused[k], 2, (int64_t[]){2, 3}, 1, 0);
        tsr_tensor *b = ramp(refused[k], 2, (int64_t[]){3, 2}, 1, 0);
        tsr_tensor *v = ramp(refused[k], 1, (int64_t[]){0}, 1, 0);
        tsr_tensor *r = NULL;
        CHECK_ERROR(tsr_mm(a, b, &r), TSR_ERR_DTYPE, tsr_dtype_name(refused[k]));
        CHECK_ERROR(tsr_matmul(a, b, &r), TSR_ERR_DTYPE, tsr_dtype_name(refused[k]));
        /* dot refuses them even when there is nothing to multiply */
        CHECK_ERROR(tsr_dot(v, v, &r), TSR_ERR_DTYPE, tsr_dtype_name(refused[k]));
        CHECK_TRUE(r == NULL);
        release_all((tsr_tensor *[]){a, b, v}, 3);
    }
}

static void empty_inner_dim_gives_zeros_in_every_dtype(void)
{
    tsr_dtype dtypes[4] = {TSR_FLOAT32, TSR_FLOAT16, TSR_BOOL, TSR_INT8};
    for (int k = 0; k < 4; k++) {
        tsr_tensor *a = ramp(dtypes[k], 2, (int64_t[]){2, 0}, 0, 1);
        tsr_tensor *b = ramp(dtypes[k], 2, (int64_t[]){0, 3}, 0, 1);
        tsr_tensor *r = NULL;
        CHECK_OK(tsr_mm(a, b, &r));
        check_tensor(r, dtypes[k], 2, (int64_t[]){2, 3}, (double[]){0, 0, 0, 0, 0, 0}, 0);
        release_all((tsr_tensor *[]){a, b, r}, 3);
    }
}

static void empty_result_needs_no_kernel_in_any_dtype(void)
{
    tsr_tensor *a = ramp(TSR_BOOL, 3, (int64_t[]){0, 2, 3}, 1, 0);
    tsr_tensor *b = ramp(TSR_BOOL, 3, (int64_t[]){0, 3, 2}, 1, 0);
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_bmm(a, b, &r));
    check_tensor(r, TSR_BOOL, 3, (int64_t[]){0, 2, 2}, NULL, 0);
    release_all((tsr_tensor *[]){a, b, r}, 3);
}

static void integer_products_wrap(void)
{
    tsr_tensor *a = make(TSR_INT8, 2, (int64_t[]){2, 2}, (double[]){100, 100, 1, 2});
    tsr_tensor *b = make(TSR_INT8, 2, (int64_t[]){2, 2}, (double[]){2, 1, 1, 100});
    tsr_tensor *u = make(TSR_UINT8, 2, (int64_t[]){2, 2}, (double[]){200, 3, 7, 250});
    tsr_tensor *r8 = NULL, *ru = NULL, *rl = NULL, *l = NULL;
    CHECK_OK(tsr_mm(a, b, &r8));
    CHECK_OK(tsr_mm(u, u, &ru));
    check_tensor(r8, TSR_INT8, 2, (int64_t[]){2, 2}, (double[]){44, 116, 4, -55}, 0);
    check_tensor(ru, TSR_UINT8, 2, (int64_t[]){2, 2}, (double[]){85, 70, 78, 57}, 0);
    int64_t big[4] = {INT64_C(1) << 62, 3, 1, -5}, got[4] = {0};
    CHECK_OK(tsr_from_host(big, sizeof big, 2, (int64_t[]){2, 2}, TSR_INT64, NULL, &l));
    CHECK_OK(tsr_mm(l, l, &rl));
    if (rl)
        CHECK_OK(tsr_to_host(rl, got, sizeof got));
    CHECK_INT(got[0], 3);
    CHECK_INT(got[1], INT64_C(-4611686018427387919));
    CHECK_INT(got[2], INT64_C(4611686018427387899));
    CHECK_INT(got[3], 28);
    release_all((tsr_tensor *[]){a, b, u, r8, ru, rl, l}, 7);
}

static void bfloat16_products_round_once(void)
{
    tsr_tensor *a = make(TSR_BFLOAT16, 2, (int64_t[]){1, 3}, (double[]){1.0 / 3, 1.0 / 3, 1.0 / 3});
    tsr_tensor *b = make(TSR_BFLOAT16, 2, (int64_t[]){3, 1}, (double[]){3, 3, 3});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_mm(a, b, &r));
    check_tensor(r, TSR_BFLOAT16, 2, (int64_t[]){1, 1}, (double[]){3.0}, 0);
    release_all((tsr_tensor *[]){a, b, r}, 3);
}

static void vdot_conjugates_its_first_operand_and_dot_does_not(void)
{
    tsr_dtype dtypes[2] = {TSR_COMPLEX64, TSR_COMPLEX128};
    for (int k = 0; k < 2; k++) {
        tsr_tensor *a = make_complex(dtypes[k], 2, (double[]){1, 2, 3, 4});
        tsr_tensor *b = make_complex(dtypes[k], 2, (double[]){5, 6, 7, 8});
        tsr_tensor *d = NULL, *v = NULL, *d128 = NULL, *v128 = NULL;
        double dv[2] = {0}, vv[2] = {0};
        CHECK_OK(tsr_dot(a, b, &d));
        CHECK_OK(tsr_vdot(a, b, &v));
        if (d && v) {
            CHECK_INT(tsr_tensor_ndim(d), 0);
            CHECK_OK(tsr_to_dtype(d, TSR_COMPLEX128, &d128));
            CHECK_OK(tsr_to_dtype(v, TSR_COMPLEX128, &v128));
            CHECK_OK(tsr_to_host(d128, dv, sizeof dv));
            CHECK_OK(tsr_to_host(v128, vv, sizeof vv));
        }
        CHECK_DOUBLE(dv[0], -18, 0);
        CHECK_DOUBLE(dv[1], 68, 0);
        CHECK_DOUBLE(vv[0], 70, 0);
        CHECK_DOUBLE(vv[1], -8, 0);
        /* the operand itself is left alone */
        double av[4] = {0};
        tsr_tensor *a128 = NULL;
        CHECK_OK(tsr_to_dtype(a, TSR_COMPLEX128, &a128));
        CHECK_OK(tsr_to_host(a128, av, sizeof av));
        CHECK_DOUBLE(av[1], 2, 0);
        release_all((tsr_tensor *[]){a, b, d, v, d128, v128, a128}, 7);
    }
}

static void outer_promotes_as_mul_does(void)
{
    tsr_tensor *a = make(TSR_INT32, 1, (int64_t[]){3}, (double[]){1, 2, 3});
    tsr_tensor *b = make(TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){0.5, 2});
    tsr_tensor *p = make(TSR_BOOL, 1, (int64_t[]){2}, (double[]){1, 0});
    tsr_tensor *r = NULL, *rb = NULL, *bad = NULL;
    CHECK_OK(tsr_outer(a, b, &r));
    CHECK_OK(tsr_outer(p, p, &rb));
    check_tensor(r, TSR_FLOAT32, 2, (int64_t[]){3, 2}, (double[]){0.5, 2, 1, 4, 1.5, 6}, 0);
    check_tensor(rb, TSR_BOOL, 2, (int64_t[]){2, 2}, (double[]){1, 0, 0, 0}, 0);
    CHECK_ERROR(tsr_outer(r, b, &bad), TSR_ERR_SHAPE, "self must be a 1-d tensor, got 2-d");
    release_all((tsr_tensor *[]){a, b, p, r, rb}, 5);
}

/* ------------------------------------------------------------------------ */
/* mm, bmm                                                                   */
/* ------------------------------------------------------------------------ */

static void bmm_does_not_broadcast_batches(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT32, 3, (int64_t[]){2, 3, 4}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT32, 3, (int64_t[]){1, 4, 2}, 0, 1);
    tsr_tensor *m = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 4}, 0, 1);
    tsr_tensor *r = NULL;
    CHECK_ERROR(tsr_bmm(a, b, &r), TSR_ERR_SHAPE, "[2, 4]");
    CHECK_ERROR(tsr_bmm(m, m, &r), TSR_ERR_SHAPE, "batch1 must be a 3-d tensor");
    CHECK_OK(tsr_matmul(a, b, &r)); /* matmul does broadcast */
    if (r)
        check_shape(r, 3, (int64_t[]){2, 3, 2});
    release_all((tsr_tensor *[]){a, b, m, r}, 4);
}

/* The kernel sums over K in one fixed order, so a product's bits do not
 * depend on the operands' strides. */
static void product_bits_do_not_depend_on_layout(void)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(7, &gen));
    tsr_tensor *a = NULL, *bt = NULL, *b = NULL, *b_strided = NULL, *a_copy = NULL;
    CHECK_OK(tsr_randn(gen, 2, (int64_t[]){7, 300}, TSR_FLOAT32, NULL, &a));
    CHECK_OK(tsr_randn(gen, 2, (int64_t[]){5, 300}, TSR_FLOAT32, NULL, &bt));
    CHECK_OK(tsr_transpose(bt, 0, 1, &b_strided)); /* [300, 5], column-major */
    CHECK_OK(tsr_contiguous(b_strided, &b));
    tsr_tensor *at = NULL, *a_strided = NULL;
    CHECK_OK(tsr_transpose(a, 0, 1, &at));
    CHECK_OK(tsr_contiguous(at, &a_copy)); /* [300, 7] */
    CHECK_OK(tsr_transpose(a_copy, 0, 1, &a_strided));
    tsr_tensor *r1 = NULL, *r2 = NULL;
    CHECK_OK(tsr_mm(a, b, &r1));
    CHECK_OK(tsr_mm(a_strided, b_strided, &r2));
    float x[35] = {0}, y[35] = {1};
    if (r1 && r2) {
        CHECK_OK(tsr_to_host(r1, x, sizeof x));
        CHECK_OK(tsr_to_host(r2, y, sizeof y));
    }
    CHECK_TRUE(memcmp(x, y, sizeof x) == 0);
    release_all((tsr_tensor *[]){a, bt, b, b_strided, a_copy, at, a_strided, r1, r2}, 9);
    tsr_generator_destroy(gen);
}

/* ------------------------------------------------------------------------ */
/* addmm, baddbmm                                                            */
/* ------------------------------------------------------------------------ */

static void addmm_beta_zero_ignores_nan_in_input(void)
{
    tsr_tensor *in = make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){NAN, INFINITY, 1, NAN});
    tsr_tensor *m1 = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 1, 1);
    tsr_tensor *m2 = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 2}, 1, 1);
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_addmm(in, m1, m2, tsr_scalar_int(0), tsr_scalar_int(1), &r));
    check_tensor(r, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){22, 28, 49, 64}, 0);
    release_all((tsr_tensor *[]){in, m1, m2, r}, 4);
}

static void addmm_alpha_zero_ignores_nan_in_the_product(void)
{
    tsr_tensor *in = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 2}, 1, 0);
    tsr_tensor *m1 = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 2}, 1, 0);
    tsr_tensor *m2 = make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){NAN, 1, 2, 3});
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_addmm(in, m1, m2, tsr_scalar_int(1), tsr_scalar_int(0), &r));
    check_tensor(r, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){1, 1, 1, 1}, 0);
    release_all((tsr_tensor *[]){in, m1, m2, r}, 4);
}

static void addmm_truncates_coefficients_for_integers(void)
{
    tsr_tensor *in = make(TSR_INT64, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *m1 = ramp(TSR_INT64, 2, (int64_t[]){2, 3}, 1, 1);
    tsr_tensor *m2 = ramp(TSR_INT64, 2, (int64_t[]){3, 2}, 1, 1);
    tsr_tensor *r = NULL, *r8 = NULL, *ru = NULL;
    CHECK_OK(tsr_addmm(in, m1, m2, tsr_scalar_float(0.5), tsr_scalar_int(1), &r));
    check_tensor(r, TSR_INT64, 2, (int64_t[]){2, 2}, (double[]){22, 28, 49, 64}, 0);
    tsr_tensor *in8 = NULL, *a8 = NULL, *b8 = NULL;
    CHECK_OK(tsr_to_dtype(in, TSR_INT8, &in8));
    CHECK_OK(tsr_to_dtype(m1, TSR_INT8, &a8));
    CHECK_OK(tsr_to_dtype(m2, TSR_INT8, &b8));
    CHECK_OK(tsr_addmm(in8, a8, b8, tsr_scalar_int(2), tsr_scalar_int(3), &r8));
    check_tensor(r8, TSR_INT8, 2, (int64_t[]){2, 2}, (double[]){68, 88, -103, -56}, 0);
    tsr_tensor *inu = NULL, *au = NULL, *bu = NULL;
    CHECK_OK(tsr_to_dtype(in, TSR_UINT8, &inu));
    CHECK_OK(tsr_to_dtype(m1, TSR_UINT8, &au));
    CHECK_OK(tsr_to_dtype(m2, TSR_UINT8, &bu));
    CHECK_OK(tsr_addmm(inu, au, bu, tsr_scalar_int(-1), tsr_scalar_int(3), &ru));
    check_tensor(ru, TSR_UINT8, 2, (int64_t[]){2, 2}, (double[]){65, 82, 144, 188}, 0);
    release_all((tsr_tensor *[]){in, m1, m2, r, in8, a8, b8, r8, inu, au, bu, ru}, 12);
}

/* With K = 0, PyTorch copies input and scales it in place: mul_'s rule
 * that the result's category must fit the dtype applies. */
static void addmm_empty_inner_dim_scales_input_as_mul_(void)
{
    tsr_tensor *in = make(TSR_INT64, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4});
    tsr_tensor *a = ramp(TSR_INT64, 2, (int64_t[]){2, 0}, 0, 1);
    tsr_tensor *b = ramp(TSR_INT64, 2, (int64_t[]){0, 2}, 0, 1);
    tsr_tensor *r = NULL, *rh = NULL, *rz = NULL;
    CHECK_ERROR(tsr_addmm(in, a, b, tsr_scalar_float(0.5), tsr_scalar_int(1), &r), TSR_ERR_DTYPE,
                "");
    CHECK_OK(tsr_addmm(in, a, b, tsr_scalar_int(2), tsr_scalar_int(1), &r));
    check_tensor(r, TSR_INT64, 2, (int64_t[]){2, 2}, (double[]){2, 4, 6, 8}, 0);
    tsr_tensor *inh = ramp(TSR_FLOAT16, 2, (int64_t[]){2, 2}, 1, 0);
    tsr_tensor *ah = ramp(TSR_FLOAT16, 2, (int64_t[]){2, 0}, 1, 0);
    tsr_tensor *bh = ramp(TSR_FLOAT16, 2, (int64_t[]){0, 2}, 1, 0);
    CHECK_OK(tsr_addmm(inh, ah, bh, tsr_scalar_float(0.3), tsr_scalar_int(1), &rh));
    check_tensor(rh, TSR_FLOAT16, 2, (int64_t[]){2, 2},
                 (double[]){0.300048828125, 0.300048828125, 0.300048828125, 0.300048828125}, 0);
    tsr_tensor *nan = make(TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){NAN, NAN, NAN, NAN});
    tsr_tensor *af = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 0}, 1, 0);
    tsr_tensor *bf = ramp(TSR_FLOAT32, 2, (int64_t[]){0, 2}, 1, 0);
    CHECK_OK(tsr_addmm(nan, af, bf, tsr_scalar_int(0), tsr_scalar_int(1), &rz));
    check_tensor(rz, TSR_FLOAT32, 2, (int64_t[]){2, 2}, (double[]){0, 0, 0, 0}, 0);
    release_all((tsr_tensor *[]){in, a, b, r, inh, ah, bh, rh, nan, af, bf, rz}, 12);
}

static void addmm_checks_dtypes_coefficients_and_input_shape(void)
{
    tsr_tensor *in64 = ramp(TSR_FLOAT64, 2, (int64_t[]){3, 2}, 0, 1);
    tsr_tensor *in33 = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 3}, 0, 1);
    tsr_tensor *in2 = ramp(TSR_FLOAT32, 1, (int64_t[]){2}, 1, 1);
    tsr_tensor *m1 = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 4}, 0, 1);
    tsr_tensor *m2 = ramp(TSR_FLOAT32, 2, (int64_t[]){4, 2}, 0, 0);
    tsr_tensor *r = NULL;
    tsr_scalar one = tsr_scalar_int(1);
    CHECK_ERROR(tsr_addmm(in64, m1, m2, one, one, &r), TSR_ERR_DTYPE, "float64 and float32");
    CHECK_ERROR(tsr_addmm(in33, m1, m2, one, one, &r), TSR_ERR_SHAPE, "[3, 3]");
    CHECK_ERROR(tsr_addmm(in2, m1, m2, tsr_scalar_complex(1, 1), one, &r), TSR_ERR_OVERFLOW,
                "beta");
    CHECK_TRUE(r == NULL);
    CHECK_OK(tsr_addmm(in2, m1, m2, tsr_scalar_int(2), one, &r)); /* input broadcasts */
    check_tensor(r, TSR_FLOAT32, 2, (int64_t[]){3, 2}, (double[]){2, 4, 2, 4, 2, 4}, 0);
    release_all((tsr_tensor *[]){in64, in33, in2, m1, m2, r}, 6);
}

static void baddbmm_converts_input_to_the_batches_dtype(void)
{
    tsr_tensor *in = ramp(TSR_FLOAT64, 3, (int64_t[]){2, 2, 2}, 1.0 / 3, 0);
    tsr_tensor *b1 = ramp(TSR_FLOAT32, 3, (int64_t[]){2, 2, 3}, 1, 0);
    tsr_tensor *b2 = ramp(TSR_FLOAT32, 3, (int64_t[]){2, 3, 2}, 1, 0);
    tsr_tensor *b3 = ramp(TSR_FLOAT32, 3, (int64_t[]){3, 3, 2}, 1, 0);
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_baddbmm(in, b1, b2, tsr_scalar_int(1), tsr_scalar_int(1), &r));
    double v = (double)(float)(1.0 / 3 + 3);
    check_tensor(r, TSR_FLOAT32, 3, (int64_t[]){2, 2, 2}, (double[]){v, v, v, v, v, v, v, v}, 0);
    tsr_tensor_release(r);
    r = NULL;
    CHECK_ERROR(tsr_baddbmm(in, b1, b3, tsr_scalar_int(1), tsr_scalar_int(1), &r), TSR_ERR_SHAPE,
                "batch2");
    release_all((tsr_tensor *[]){in, b1, b2, b3}, 4);
}

/* ------------------------------------------------------------------------ */
/* einsum                                                                    */
/* ------------------------------------------------------------------------ */

static tsr_tensor *einsum1(const char *eq, const tsr_tensor *a)
{
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_einsum(eq, &a, 1, &r));
    return r;
}

static tsr_tensor *einsum2(const char *eq, const tsr_tensor *a, const tsr_tensor *b)
{
    const tsr_tensor *ops[2] = {a, b};
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_einsum(eq, ops, 2, &r));
    return r;
}

static void einsum_repeated_label_takes_the_diagonal(void)
{
    tsr_tensor *m = ramp(TSR_INT8, 2, (int64_t[]){3, 3}, 0, 1);
    tsr_tensor *t = ramp(TSR_FLOAT32, 3, (int64_t[]){3, 3, 2}, 0, 1);
    tsr_tensor *d = einsum1("ii->i", m), *tr = einsum1("ii->", m), *s = einsum1("iij->j", t);
    check_tensor(d, TSR_INT8, 1, (int64_t[]){3}, (double[]){0, 4, 8}, 0);
    /* a sum of integers is int64, as PyTorch's sum makes it */
    check_tensor(tr, TSR_INT64, 0, NULL, (double[]){12}, 0);
    check_tensor(s, TSR_FLOAT32, 1, (int64_t[]){2}, (double[]){24, 27}, 0);
    release_all((tsr_tensor *[]){m, t, d, tr, s}, 5);
}

static void einsum_implicit_output_sorts_labels_uppercase_first(void)
{
    tsr_tensor *m = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *ba = einsum1("ba", m), *ab = einsum1("aB", m);
    check_tensor(ba, TSR_FLOAT32, 2, (int64_t[]){3, 2}, (double[]){0, 3, 1, 4, 2, 5}, 0);
    check_tensor(ab, TSR_FLOAT32, 2, (int64_t[]){3, 2}, (double[]){0, 3, 1, 4, 2, 5}, 0);
    release_all((tsr_tensor *[]){m, ba, ab}, 3);
}

static void einsum_sums_labels_missing_from_the_output(void)
{
    tsr_tensor *t = ramp(TSR_FLOAT32, 3, (int64_t[]){2, 3, 4}, 0, 1);
    tsr_tensor *m = ramp(TSR_FLOAT64, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *k = make(TSR_FLOAT64, 1, (int64_t[]){2}, (double[]){1, 2});
    tsr_tensor *i8 = ramp(TSR_INT8, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *k8 = make(TSR_INT8, 1, (int64_t[]){2}, (double[]){1, 2});
    tsr_tensor *s = einsum1("ijk->ik", t), *p = einsum2("ij,k->i", m, k);
    tsr_tensor *p8 = einsum2("ij,k->i", i8, k8);
    check_tensor(s, TSR_FLOAT32, 2, (int64_t[]){2, 4}, (double[]){12, 15, 18, 21, 48, 51, 54, 57},
                 0);
    check_tensor(p, TSR_FLOAT64, 1, (int64_t[]){2}, (double[]){9, 36}, 0);
    check_tensor(p8, TSR_INT64, 1, (int64_t[]){2}, (double[]){9, 36}, 0);
    release_all((tsr_tensor *[]){t, m, k, i8, k8, s, p, p8}, 8);
}

static void einsum_ellipsis_and_size_one_dims_broadcast(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT64, 3, (int64_t[]){2, 3, 4}, -1, 0.5);
    tsr_tensor *b = ramp(TSR_FLOAT64, 2, (int64_t[]){4, 5}, 2, -0.25);
    tsr_tensor *b1 = ramp(TSR_FLOAT64, 3, (int64_t[]){1, 4, 5}, 2, -0.25);
    tsr_tensor *e = einsum2("...ij,...jk->...ik", a, b), *f = einsum2("bij,bjk->bik", a, b1);
    tsr_tensor *m = NULL;
    CHECK_OK(tsr_matmul(a, b, &m));
    double want[30];
    if (m)
        read_values(m, want, 30);
    check_tensor(e, TSR_FLOAT64, 3, (int64_t[]){2, 3, 5}, want, 0);
    check_tensor(f, TSR_FLOAT64, 3, (int64_t[]){2, 3, 5}, want, 0);
    release_all((tsr_tensor *[]){a, b, b1, e, f, m}, 6);
}

static void einsum_contracts_three_operands_left_to_right(void)
{
    tsr_tensor *x = make(TSR_FLOAT32, 1, (int64_t[]){3}, (double[]){1, 2, 3});
    tsr_tensor *m = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 4}, 0, 1);
    tsr_tensor *y = make(TSR_FLOAT32, 1, (int64_t[]){4}, (double[]){1, -1, 2, 0.5});
    const tsr_tensor *ops[3] = {x, m, y};
    tsr_tensor *r = NULL;
    CHECK_OK(tsr_einsum("i,ij,j->", ops, 3, &r));
    check_tensor(r, TSR_FLOAT32, 0, NULL, (double[]){107}, 0);
    release_all((tsr_tensor *[]){x, m, y, r}, 4);
}

/* A pair with nothing to contract is a multiply (which promotes); a pair
 * with contracted labels is a bmm (one dtype, no bool or float16). */
static void einsum_dtype_rules_follow_the_step_taken(void)
{
    tsr_tensor *f32 = ramp(TSR_FLOAT32, 1, (int64_t[]){3}, 1, 1);
    tsr_tensor *f64 = ramp(TSR_FLOAT64, 1, (int64_t[]){2}, 1, 1);
    tsr_tensor *m32 = ramp(TSR_FLOAT32, 2, (int64_t[]){3, 2}, 1, 1);
    tsr_tensor *m64 = ramp(TSR_FLOAT64, 2, (int64_t[]){2, 2}, 1, 1);
    tsr_tensor *bm = ramp(TSR_BOOL, 2, (int64_t[]){3, 3}, 1, 0);
    tsr_tensor *o = einsum2("i,j->ij", f32, f64), *bo = einsum2("ij,ij->ij", bm, bm), *r = NULL;
    if (o)
        CHECK_STR(tsr_dtype_name(tsr_tensor_dtype(o)), "float64");
    if (bo)
        CHECK_STR(tsr_dtype_name(tsr_tensor_dtype(bo)), "bool");
    const tsr_tensor *mixed[2] = {m32, m64}, *bools[2] = {bm, bm};
    CHECK_ERROR(tsr_einsum("ij,jk->ik", mixed, 2, &r), TSR_ERR_DTYPE, "float32 and float64");
    CHECK_ERROR(tsr_einsum("ij,jk->ik", bools, 2, &r), TSR_ERR_DTYPE, "bool");
    release_all((tsr_tensor *[]){f32, f64, m32, m64, bm, o, bo}, 7);
}

static void einsum_refuses_malformed_equations(void)
{
    tsr_tensor *m23 = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *m22 = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 2}, 0, 1);
    tsr_tensor *v2 = ramp(TSR_FLOAT32, 1, (int64_t[]){2}, 0, 1);
    tsr_tensor *v3 = ramp(TSR_FLOAT32, 1, (int64_t[]){3}, 0, 1);
    const tsr_tensor *one[1] = {m23}, *sq[1] = {m22}, *vv[2] = {v2, v3}, *v[1] = {v2};
    tsr_tensor *r = NULL;
    CHECK_ERROR(tsr_einsum("ii->i", one, 1, &r), TSR_ERR_SHAPE, "3 != 2");
    CHECK_ERROR(tsr_einsum("ij->ii", sq, 1, &r), TSR_ERR_INVALID_ARGUMENT,
                "appears more than once in the output");
    CHECK_ERROR(tsr_einsum("ij->k", sq, 1, &r), TSR_ERR_INVALID_ARGUMENT,
                "does not appear in the equation");
    CHECK_ERROR(tsr_einsum("i,i->i", vv, 2, &r), TSR_ERR_SHAPE, "subscript i has size 3");
    CHECK_ERROR(tsr_einsum("i1", v, 1, &r), TSR_ERR_INVALID_ARGUMENT, "index 1");
    CHECK_ERROR(tsr_einsum("ij", v, 1, &r), TSR_ERR_SHAPE, "2 subscripts");
    CHECK_ERROR(tsr_einsum("ij,jk->ik", one, 1, &r), TSR_ERR_INVALID_ARGUMENT, "more operands");
    CHECK_ERROR(tsr_einsum("i", vv, 2, &r), TSR_ERR_INVALID_ARGUMENT, "2 operands were given");
    CHECK_ERROR(tsr_einsum("i..j", sq, 1, &r), TSR_ERR_INVALID_ARGUMENT, "ellipsis");
    CHECK_TRUE(r == NULL);
    release_all((tsr_tensor *[]){m23, m22, v2, v3}, 4);
}

/* ------------------------------------------------------------------------ */
/* tensordot                                                                 */
/* ------------------------------------------------------------------------ */

static void tensordot_contracts_dims_given_as_count_or_lists(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT64, 3, (int64_t[]){3, 4, 5}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT64, 3, (int64_t[]){4, 5, 2}, 1, -0.5);
    tsr_tensor *c = ramp(TSR_FLOAT64, 3, (int64_t[]){5, 4, 2}, 1, -0.5);
    tsr_tensor *r2 = NULL, *rl = NULL;
    CHECK_OK(tsr_tensordot(a, b, 2, &r2));
    CHECK_OK(tsr_tensordot_dims(a, c, 2, (int64_t[]){1, 2}, (int64_t[]){1, 0}, &rl));
    check_tensor(r2, TSR_FLOAT64, 2, (int64_t[]){3, 2},
                 (double[]){-2280, -2375, -5680, -5975, -9080, -9575}, 0);
    check_tensor(rl, TSR_FLOAT64, 2, (int64_t[]){3, 2},
                 (double[]){-1900, -1995, -5300, -5595, -8700, -9195}, 0);
    release_all((tsr_tensor *[]){a, b, c, r2, rl}, 5);
}

static void tensordot_zero_dims_is_an_outer_product_and_size_one_sums(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT64, 1, (int64_t[]){2}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT64, 1, (int64_t[]){3}, 1, 1);
    tsr_tensor *m = ramp(TSR_FLOAT64, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *row = ramp(TSR_FLOAT64, 2, (int64_t[]){1, 4}, 1, 1);
    tsr_tensor *o = NULL, *s = NULL;
    CHECK_OK(tsr_tensordot(a, b, 0, &o));
    CHECK_OK(tsr_tensordot_dims(m, row, 1, (int64_t[]){1}, (int64_t[]){0}, &s));
    check_tensor(o, TSR_FLOAT64, 2, (int64_t[]){2, 3}, (double[]){0, 0, 0, 1, 2, 3}, 0);
    check_tensor(s, TSR_FLOAT64, 2, (int64_t[]){2, 4}, (double[]){3, 6, 9, 12, 12, 24, 36, 48}, 0);
    release_all((tsr_tensor *[]){a, b, m, row, o, s}, 6);
}

static void tensordot_refuses_mismatches(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT32, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT32, 2, (int64_t[]){4, 2}, 0, 1);
    tsr_tensor *d = ramp(TSR_FLOAT64, 2, (int64_t[]){3, 2}, 0, 1);
    tsr_tensor *r = NULL;
    CHECK_ERROR(tsr_tensordot(a, b, 1, &r), TSR_ERR_SHAPE, "size 3 in dim 1");
    CHECK_ERROR(tsr_tensordot(a, d, 1, &r), TSR_ERR_DTYPE, "float32 and float64");
    CHECK_ERROR(tsr_tensordot(a, b, -1, &r), TSR_ERR_INVALID_ARGUMENT, "dims >= 0");
    CHECK_ERROR(tsr_tensordot(a, b, 3, &r), TSR_ERR_INDEX, "3 dims");
    CHECK_TRUE(r == NULL);
    release_all((tsr_tensor *[]){a, b, d}, 3);
}

/* ------------------------------------------------------------------------ */
/* Gradients                                                                 */
/* ------------------------------------------------------------------------ */

typedef enum grad_case {
    G_MATMUL,
    G_MATMUL_VEC,
    G_MM,
    G_BMM,
    G_DOT,
    G_OUTER,
    G_ADDMM,
    G_BADDBMM,
    G_EINSUM,
    G_EINSUM_TRACE,
    G_TENSORDOT,
} grad_case;

static tsr_status call_product(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    switch (*(const grad_case *)context) {
    case G_MATMUL:
    case G_MATMUL_VEC:
        return tsr_matmul(in[0], in[1], out);
    case G_MM:
        return tsr_mm(in[0], in[1], out);
    case G_BMM:
        return tsr_bmm(in[0], in[1], out);
    case G_DOT:
        return tsr_dot(in[0], in[1], out);
    case G_OUTER:
        return tsr_outer(in[0], in[1], out);
    case G_ADDMM:
        return tsr_addmm(in[2], in[0], in[1], tsr_scalar_float(0.5), tsr_scalar_float(-2), out);
    case G_BADDBMM:
        return tsr_baddbmm(in[2], in[0], in[1], tsr_scalar_int(2), tsr_scalar_float(0.25), out);
    case G_EINSUM:
        return tsr_einsum("bij,jk,b->ik", in, 3, out);
    case G_EINSUM_TRACE:
        return tsr_einsum("iij->j", in, 1, out);
    default:
        return tsr_tensordot_dims(in[0], in[1], 2, (int64_t[]){1, 2}, (int64_t[]){1, 0}, out);
    }
}

static void gradcheck_one(grad_case which, int n, const int (*shapes)[5])
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(100 + (uint64_t)which, &gen));
    tsr_tensor *in[3] = {NULL, NULL, NULL};
    for (int i = 0; i < n; i++) {
        int64_t shape[4];
        for (int d = 0; d < shapes[i][0]; d++)
            shape[d] = shapes[i][d + 1];
        CHECK_OK(tsr_randn(gen, shapes[i][0], shape, TSR_FLOAT64, NULL, &in[i]));
        if (in[i])
            CHECK_OK(tsr_tensor_set_requires_grad(in[i], true));
    }
    double max_error = -1;
    CHECK_OK(
        tsr_gradcheck(call_product, &which, (const tsr_tensor *const *)in, n, NULL, &max_error));
    CHECK_TRUE(max_error >= 0 && max_error < 1e-6);
    release_all(in, n);
    tsr_generator_destroy(gen);
}

static void product_gradients_match_finite_differences(void)
{
    gradcheck_one(G_MATMUL, 2, (const int[][5]){{4, 2, 1, 3, 4}, {3, 5, 4, 2}});
    gradcheck_one(G_MATMUL_VEC, 2, (const int[][5]){{1, 3}, {3, 2, 3, 2}});
    gradcheck_one(G_MM, 2, (const int[][5]){{2, 3, 4}, {2, 4, 2}});
    gradcheck_one(G_BMM, 2, (const int[][5]){{3, 2, 3, 4}, {3, 2, 4, 2}});
    gradcheck_one(G_DOT, 2, (const int[][5]){{1, 5}, {1, 5}});
    gradcheck_one(G_OUTER, 2, (const int[][5]){{1, 3}, {1, 4}});
    gradcheck_one(G_ADDMM, 3, (const int[][5]){{2, 3, 4}, {2, 4, 2}, {1, 2}});
    gradcheck_one(G_BADDBMM, 3, (const int[][5]){{3, 2, 3, 4}, {3, 2, 4, 2}, {2, 3, 1}});
    gradcheck_one(G_EINSUM, 3, (const int[][5]){{3, 2, 3, 4}, {2, 4, 2}, {1, 2}});
    gradcheck_one(G_TENSORDOT, 2, (const int[][5]){{3, 3, 4, 5}, {3, 5, 4, 2}});
}

/* Whether tsr_sum records a node yet: einsum sums labels that only one
 * operand has with it, so those gradients depend on sum's. */
static bool sum_has_gradient(void)
{
    tsr_tensor *x = NULL, *s = NULL;
    CHECK_OK(tsr_ones(1, (int64_t[]){2}, TSR_FLOAT64, NULL, &x));
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(tsr_sum(x, NULL, 0, false, TSR_DTYPE_INFER, &s));
    bool recorded = s && tsr_tensor_grad_fn_name(s) != NULL;
    release_all((tsr_tensor *[]){x, s}, 2);
    return recorded;
}

static void einsum_gradient_through_its_sums(void)
{
    if (!sum_has_gradient()) {
        fprintf(stderr, "skip einsum_gradient_through_its_sums: tsr_sum records no gradient "
                        "yet\n");
        return;
    }
    gradcheck_one(G_EINSUM_TRACE, 1, (const int[][5]){{3, 3, 3, 2}});
}

static void product_records_one_node_named_after_the_op(void)
{
    tsr_tensor *a = ramp(TSR_FLOAT64, 2, (int64_t[]){2, 3}, 0, 1);
    tsr_tensor *b = ramp(TSR_FLOAT64, 2, (int64_t[]){3, 2}, 0, 1);
    CHECK_OK(tsr_tensor_set_requires_grad(a, true));
    tsr_tensor *r = NULL, *i = NULL;
    CHECK_OK(tsr_mm(a, b, &r));
    if (r)
        CHECK_STR(tsr_tensor_grad_fn_name(r), "mm");
    tsr_tensor *c = ramp(TSR_FLOAT64, 2, (int64_t[]){3, 3}, 0, 1);
    CHECK_OK(tsr_addmm(c, b, a, tsr_scalar_int(1), tsr_scalar_int(1), &i));
    if (i) {
        CHECK_STR(tsr_tensor_grad_fn_name(i), "addmm");
        tsr_tensor *g = NULL, *ones = NULL;
        CHECK_OK(tsr_ones(2, (int64_t[]){3, 3}, TSR_FLOAT64, NULL, &ones));
        CHECK_OK(tsr_backward(i, ones, 0));
        CHECK_OK(tsr_tensor_grad(a, &g));
        /* d/da sum(b @ a) = b^T @ ones: column sums of b in every column */
        check_tensor(g, TSR_FLOAT64, 2, (int64_t[]){2, 3}, (double[]){6, 6, 6, 9, 9, 9}, 0);
        release_all((tsr_tensor *[]){g, ones}, 2);
    }
    release_all((tsr_tensor *[]){a, b, c, r, i}, 5);
}

int main(void)
{
    RUN_TEST(matmul_vector_vector_is_a_0d_dot);
    RUN_TEST(matmul_vector_operands_lose_their_added_dim);
    RUN_TEST(matmul_vector_against_a_batch_broadcasts);
    RUN_TEST(matmul_batch_dims_broadcast);
    RUN_TEST(matmul_batch_dims_that_do_not_broadcast_are_refused);
    RUN_TEST(matmul_names_both_shapes_when_inner_dims_differ);
    RUN_TEST(matmul_requires_one_dtype);
    RUN_TEST(bool_and_float16_products_are_refused);
    RUN_TEST(empty_inner_dim_gives_zeros_in_every_dtype);
    RUN_TEST(empty_result_needs_no_kernel_in_any_dtype);
    RUN_TEST(integer_products_wrap);
    RUN_TEST(bfloat16_products_round_once);
    RUN_TEST(vdot_conjugates_its_first_operand_and_dot_does_not);
    RUN_TEST(outer_promotes_as_mul_does);
    RUN_TEST(bmm_does_not_broadcast_batches);
    RUN_TEST(product_bits_do_not_depend_on_layout);
    RUN_TEST(addmm_beta_zero_ignores_nan_in_input);
    RUN_TEST(addmm_alpha_zero_ignores_nan_in_the_product);
    RUN_TEST(addmm_truncates_coefficients_for_integers);
    RUN_TEST(addmm_empty_inner_dim_scales_input_as_mul_);
    RUN_TEST(addmm_checks_dtypes_coefficients_and_input_shape);
    RUN_TEST(baddbmm_converts_input_to_the_batches_dtype);
    RUN_TEST(einsum_repeated_label_takes_the_diagonal);
    RUN_TEST(einsum_implicit_output_sorts_labels_uppercase_first);
    RUN_TEST(einsum_sums_labels_missing_from_the_output);
    RUN_TEST(einsum_ellipsis_and_size_one_dims_broadcast);
    RUN_TEST(einsum_contracts_three_operands_left_to_right);
    RUN_TEST(einsum_dtype_rules_follow_the_step_taken);
    RUN_TEST(einsum_refuses_malformed_equations);
    RUN_TEST(tensordot_contracts_dims_given_as_count_or_lists);
    RUN_TEST(tensordot_zero_dims_is_an_outer_product_and_size_one_sums);
    RUN_TEST(tensordot_refuses_mismatches);
    RUN_TEST(product_gradients_match_finite_differences);
    RUN_TEST(einsum_gradient_through_its_sums);
    RUN_TEST(product_records_one_node_named_after_the_op);
    return check_summary("test_products");
}
