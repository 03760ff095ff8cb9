/* Backward of scatter(..., reduce=multiply) with a value (the src form is
 * unimplemented, as in PyTorch 1.13) and
 * scatter_reduce(prod)'s refusal of double backward where zeros of src
 * meet, as PyTorch's DelayedError. Values are derived in comments and
 * checked against gradcheck. */
#include "check_autograd.h"

static tsr_tensor *indices(int64_t n, const int64_t *v)
{
    return make_i64(1, &n, v, (size_t)n);
}

static const int64_t IDX[4] = {0, 0, 2, 3};

static void scatter_multiply_with_src_is_unimplemented(void)
{
    /* PyTorch 1.13: "derivative for aten::scatter is not implemented"; an
     * error, never a silent zero */
    tsr_tensor *s = vec(4, (double[]){1, 2, 3, 0.5}, true);
    tsr_tensor *src = vec(4, (double[]){2, 3, 5, 7}, true), *index = indices(4, IDX);
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_scatter(s, 0, index, src, TSR_REDUCE_PROD, &out));
    check_values(out, (double[]){6, 2, 15, 3.5}, 4);
    CHECK_ERROR(backward_ones(out), TSR_ERR_UNIMPLEMENTED, "the derivative of scatter");
    tsr_tensor_release(s);
    tsr_tensor_release(src);
    tsr_tensor_release(index);
    tsr_tensor_release(out);
}

static void scatter_multiply_with_a_value(void)
{
    /* index (0, 0, 2) and value 2: out = (4 s0, s1, 2 s2, s3), so the
     * gradient is 2^count = (4, 1, 2, 1) */
    tsr_tensor *s = vec(4, (double[]){1, 2, 3, 4}, true), *index = indices(3, IDX);
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_scatter_value(s, 0, index, tsr_scalar_float(2), TSR_REDUCE_PROD, &out));
    check_values(out, (double[]){4, 2, 6, 4}, 4);
    CHECK_OK(backward_ones(out));
    check_grad(s, (double[]){4, 1, 2, 1}, 4);
    tsr_tensor_release(s);
    tsr_tensor_release(index);
    tsr_tensor_release(out);
}

typedef struct scatter_case {
    const tsr_tensor *index;
} scatter_case;

static tsr_status scatter_fn(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    const scatter_case *c = context;
    (void)n;
    return tsr_scatter_value(in[0], 0, c->index, tsr_scalar_float(-1.5), TSR_REDUCE_PROD, out);
}

static void scatter_multiply_gradcheck(void)
{
    tsr_tensor *s = vec(4, (double[]){0.7, -1.2, 0.4, 2.1}, true), *index = indices(4, IDX);
    const tsr_tensor *inputs[1] = {s};
    scatter_case c = {index};
    double err = -1;
    CHECK_OK(tsr_gradcheck(scatter_fn, &c, inputs, 1, NULL, &err));
    CHECK_TRUE(err >= 0 && err < 1e-6);
    tsr_tensor_release(s);
    tsr_tensor_release(index);
}

/* d sum(scatter_reduce(s, 0, index, src, prod))/dsrc with create_graph */
static tsr_tensor *prod_src_grad(const tsr_tensor *s, const tsr_tensor *src,
                                 const tsr_tensor *index)
{
    tsr_tensor *out = NULL, *ones = NULL, *g = NULL;
    CHECK_OK(tsr_scatter_reduce(s, 0, index, src, TSR_REDUCE_PROD, true, &out));
    CHECK_OK(tsr_ones(1, tsr_tensor_shape(out), TSR_FLOAT64, NULL, &ones));
    const tsr_tensor *outs[] = {out}, *ins[] = {src}, *gos[] = {ones};
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, gos, TSR_GRAD_CREATE_GRAPH, &g));
    tsr_tensor_release(out);
    tsr_tensor_release(ones);
    return g;
}

static void prod_double_backward_with_one_zero_works(void)
{
    /* s = (1, 2, 3), src = (0, 4, 5) at (1, 1, 2): out1 = s1 src0 src1 and
     * out2 = s2 src2; d/dsrc = (s1 src1, s1 src0, s2) = (8, 0, 3); the sum
     * of that differentiates to (s1, s1, 0) = (2, 2, 0) */
    tsr_tensor *s = vec(3, (double[]){1, 2, 3}, false), *src = vec(3, (double[]){0, 4, 5}, true);
    tsr_tensor *index = indices(3, (int64_t[]){1, 1, 2});
    tsr_tensor *g = prod_src_grad(s, src, index);
    check_values(g, (double[]){8, 0, 3}, 3);
    CHECK_OK(backward_ones(g));
    check_grad(src, (double[]){2, 2, 0}, 3);
    tsr_tensor_release(s);
    tsr_tensor_release(src);
    tsr_tensor_release(index);
    tsr_tensor_release(g);
}

static void prod_double_backward_with_meeting_zeros_is_refused(void)
{
    /* s = (1, 0, 3), src = (0, 0, 5) at (1, 1, 2): the first gradient is
     * (0, 0, 3) (PyTorch 1.13 gives the same); differentiating it fails */
    tsr_tensor *s = vec(3, (double[]){1, 0, 3}, false), *src = vec(3, (double[]){0, 0, 5}, true);
    tsr_tensor *index = indices(3, (int64_t[]){1, 1, 2});
    tsr_tensor *g = prod_src_grad(s, src, index);
    check_values(g, (double[]){0, 0, 3}, 3);
    CHECK_ERROR(backward_ones(g), TSR_ERR_AUTOGRAD, "double backward is unsupported for src");
    CHECK_TRUE(!has_grad(src));
    tsr_tensor_release(s);
    tsr_tensor_release(src);
    tsr_tensor_release(index);
    tsr_tensor_release(g);
}

int main(void)
{
    RUN_TEST(scatter_multiply_with_src_is_unimplemented);
    RUN_TEST(scatter_multiply_with_a_value);
    RUN_TEST(scatter_multiply_gradcheck);
    RUN_TEST(prod_double_backward_with_one_zero_works);
    RUN_TEST(prod_double_backward_with_meeting_zeros_is_refused);
    return check_summary("test_scatter_grad");
}
