/* F.pad's non-constant modes, each test pinning one PyTorch 1.13 rule
 * (expected values printed by torch 1.13). The golden cases hold the bulk;
 * these pin the edges a case file cannot show: messages, inputs left alone,
 * crop-then-wrap order, and gradients to second order.
 *
 * Family: rearrange (pad). Constant, reflect and replicate gradients are in
 * test_index_grad.c's table. */
#include "check.h"
#include "grad_harness.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static tsr_tensor *ramp(int ndim, const int64_t *shape, tsr_dtype dtype)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *flat = NULL, *t = NULL;
    CHECK_OK(tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), dtype, NULL, &flat));
    CHECK_OK(tsr_reshape(flat, ndim, shape, &t));
    tsr_tensor_release(flat);
    return t;
}

static void check_values(const tsr_tensor *t, int ndim, const int64_t *shape, const double *expected)
{
    if (!t || tsr_tensor_ndim(t) != ndim) {
        CHECK_TRUE(!"a tensor of the expected rank");
        return;
    }
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        CHECK_INT(tsr_tensor_shape(t)[i], shape[i]);
        n *= shape[i];
    }
    tsr_tensor *wide = NULL;
    double got[64];
    if (n > 64 || tsr_tensor_numel(t) != n || tsr_to_dtype(t, TSR_FLOAT64, &wide) != TSR_OK ||
        tsr_to_host(wide, got, (size_t)n * sizeof(double)) != TSR_OK) {
        CHECK_TRUE(!"values readable as float64");
        tsr_tensor_release(wide);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], 0);
    tsr_tensor_release(wide);
}

static tsr_status pad_circular(const tsr_tensor *t, const int64_t *pad, int npad, tsr_tensor **out)
{
    return tsr_pad(t, pad, npad, TSR_PAD_CIRCULAR, tsr_scalar_float(0), out);
}

/* F.pad(arange(6.).view(1, 1, 6), (2, 3), 'circular'). */
static void circular_wraps_both_sides(void)
{
    tsr_tensor *x = ramp(3, SHAPE(1, 1, 6), TSR_FLOAT32), *y = NULL;
    CHECK_OK(pad_circular(x, SHAPE(2, 3), 2, &y));
    check_values(y, 3, SHAPE(1, 1, 11), (const double[]){4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2});
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

/* (-1, 2): the left pad crops first, and the wrap reads the cropped
 * tensor: [1, 2, 3, 4, 5, 1, 2], not [..., 0, 1]. */
static void circular_crops_before_it_wraps(void)
{
    tsr_tensor *x = ramp(3, SHAPE(1, 1, 6), TSR_FLOAT64), *y = NULL;
    CHECK_OK(pad_circular(x, SHAPE(-1, 2), 2, &y));
    check_values(y, 3, SHAPE(1, 1, 7), (const double[]){1, 2, 3, 4, 5, 1, 2});
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

/* A pad may equal its dim (one whole extra copy), never exceed it. */
static void circular_pad_wraps_at_most_once(void)
{
    tsr_tensor *x = ramp(3, SHAPE(1, 1, 6), TSR_FLOAT32), *y = NULL;
    CHECK_OK(pad_circular(x, SHAPE(6, 0), 2, &y));
    check_values(y, 3, SHAPE(1, 1, 12), (const double[]){0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
    tsr_tensor_release(y);
    y = NULL;
    CHECK_ERROR(pad_circular(x, SHAPE(7, 0), 2, &y), TSR_ERR_SHAPE, "more than once");
    CHECK_TRUE(y == NULL);
    tsr_tensor_release(x);
}

/* Any dtype: an int64 image padded over its last two dims. */
static void circular_pads_integers_over_two_dims(void)
{
    tsr_tensor *x = ramp(4, SHAPE(1, 1, 3, 4), TSR_INT64), *y = NULL;
    CHECK_OK(pad_circular(x, SHAPE(1, 1, 1, 0), 4, &y));
    CHECK_INT(y ? (int)tsr_tensor_dtype(y) : -1, (int)TSR_INT64);
    check_values(y, 4, SHAPE(1, 1, 4, 6),
                 (const double[]){11, 8, 9, 10, 11, 8, 3, 0, 1, 2, 3, 0,
                                  7,  4, 5, 6,  7,  4, 11, 8, 9, 10, 11, 8});
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

/* A transposed view pads as its values read, not as its memory lies. */
static void circular_reads_a_view_by_its_strides(void)
{
    tsr_tensor *x = ramp(3, SHAPE(1, 3, 2), TSR_FLOAT32), *t = NULL, *y = NULL;
    CHECK_OK(tsr_transpose(x, 1, 2, &t)); /* [[0, 2, 4], [1, 3, 5]] */
    CHECK_OK(pad_circular(t, SHAPE(1, 1), 2, &y));
    check_values(y, 3, SHAPE(1, 2, 5), (const double[]){4, 0, 2, 4, 0, 5, 1, 3, 5, 1});
    tsr_tensor_release(y);
    tsr_tensor_release(t);
    tsr_tensor_release(x);
}

/* torch: "Only 2D, 3D, 4D, 5D padding with non-constant padding are
 * supported"; and circular needs a batch and a channel dim before the
 * padded ones. Failures leave the input's values alone. */
static void circular_refuses_wrong_ranks_and_odd_pad_lists(void)
{
    tsr_tensor *v = ramp(1, SHAPE(6), TSR_FLOAT32), *x = ramp(3, SHAPE(1, 1, 6), TSR_FLOAT32);
    tsr_tensor *y = NULL;
    CHECK_TRUE(pad_circular(v, SHAPE(1, 1), 2, &y) != TSR_OK);
    CHECK_TRUE(y == NULL);
    CHECK_TRUE(pad_circular(x, SHAPE(1, 1, 1), 3, &y) != TSR_OK);
    CHECK_TRUE(pad_circular(x, SHAPE(1, 1, 1, 1), 4, &y) != TSR_OK); /* pads the channel dim */
    CHECK_TRUE(y == NULL);
    check_values(x, 3, SHAPE(1, 1, 6), (const double[]){0, 1, 2, 3, 4, 5});
    tsr_tensor_release(x);
    tsr_tensor_release(v);
}

static tsr_status circular_fn(const tsr_tensor *const *inputs, tsr_tensor **output)
{
    return pad_circular(inputs[0], SHAPE(2, -1, 1, 3), 4, output);
}

static void circular_gradient_matches_finite_differences(void)
{
    tsr_generator *gen = NULL;
    tsr_tensor *x = NULL;
    CHECK_OK(tsr_generator_create(7, &gen));
    CHECK_OK(tsr_randn(gen, 4, SHAPE(2, 1, 3, 4), TSR_FLOAT64, NULL, &x));
    tsr_generator_destroy(gen);
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    grad_harness h = {"pad circular", circular_fn, 1, 0, 0};
    grad_harness_check(&h, &x, false);
    grad_harness_check(&h, &x, true);
    tsr_tensor_release(x);
}

int main(void)
{
    RUN_TEST(circular_wraps_both_sides);
    RUN_TEST(circular_crops_before_it_wraps);
    RUN_TEST(circular_pad_wraps_at_most_once);
    RUN_TEST(circular_pads_integers_over_two_dims);
    RUN_TEST(circular_reads_a_view_by_its_strides);
    RUN_TEST(circular_refuses_wrong_ranks_and_odd_pad_lists);
    RUN_TEST(circular_gradient_matches_finite_differences);
    return check_summary("test_rearrange");
}
