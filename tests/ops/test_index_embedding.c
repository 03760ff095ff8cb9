/* tsr_embedding_ex: max_norm renormalising the referenced rows of weight in
 * place (visible in weight, each row once, the version bumped once, nothing
 * touched when the call fails), norm_type, scale_grad_by_freq's gradient
 * (against the plain one in float64), and sparse=True refused. Expected
 * values follow PyTorch 1.13's embedding_renorm_ and embedding_backward,
 * worked by hand. */
#include "check.h"

#include <math.h>
#include <stdlib.h>

static tsr_tensor *f32(int ndim, const int64_t *shape, const float *values)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    return make_f32(ndim, shape, values, (size_t)n);
}

static void check_f32(const tsr_tensor *t, const float *expected, int64_t n, double tolerance)
{
    float got[64] = {0};
    CHECK_INT(tsr_tensor_numel(t), n);
    if (n > 64 || tsr_tensor_numel(t) != n)
        return;
    CHECK_OK(tsr_to_host(t, got, (size_t)n * sizeof *got));
    for (int64_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], tolerance);
}

static void max_norm_renormalises_referenced_rows_in_place(void)
{
    /* norms 5, 0.5, 10: only row 0 is referenced and too long. */
    tsr_tensor *w = f32(2, (int64_t[]){3, 2}, (float[]){3, 4, 0.3f, 0.4f, 6, 8});
    int64_t idx[3] = {0, 0, 1};
    tsr_tensor *i = make_i64(1, (int64_t[]){3}, idx, 3), *out = NULL;
    uint64_t before = tsr_tensor_version(w);
    double max_norm = 1.0;
    CHECK_OK(tsr_embedding_ex(i, w, NULL, &max_norm, 2.0, false, false, &out));
    float s = (float)(1.0 / (5.0 + 1e-7));
    float renormed[6] = {3 * s, 4 * s, 0.3f, 0.4f, 6, 8};
    check_f32(w, renormed, 6, 0); /* rows 1 and 2 keep their bits */
    check_f32(out, (float[]){3 * s, 4 * s, 3 * s, 4 * s, 0.3f, 0.4f}, 6, 0);
    CHECK_INT(tsr_tensor_version(w), before + 1);
    tsr_tensor_release(out);
    tsr_tensor_release(i);
    tsr_tensor_release(w);
}

/* A negative max_norm flips every referenced row (norm > max_norm always):
 * renormalising row 0 twice would flip it back. */
static void rows_referenced_twice_are_renormalised_once(void)
{
    tsr_tensor *w = f32(2, (int64_t[]){2, 2}, (float[]){3, 4, 1, 0});
    tsr_tensor *i = make_i64(1, (int64_t[]){2}, (int64_t[]){0, 0}, 2), *out = NULL;
    double max_norm = -1.0;
    CHECK_OK(tsr_embedding_ex(i, w, NULL, &max_norm, 2.0, false, false, &out));
    float s = (float)(-1.0 / (5.0 + 1e-7));
    check_f32(w, (float[]){3 * s, 4 * s, 1, 0}, 4, 0);
    tsr_tensor_release(out);
    tsr_tensor_release(i);
    tsr_tensor_release(w);
}

static void norm_type_picks_the_norm(void)
{
    /* L1 norm 7 and inf norm 4 of [3, -4]; max_norm 2. */
    double max_norm = 2.0;
    double types[2] = {1.0, INFINITY}, norms[2] = {7.0, 4.0};
    for (int k = 0; k < 2; k++) {
        tsr_tensor *w = f32(2, (int64_t[]){1, 2}, (float[]){3, -4});
        tsr_tensor *i = make_i64(1, (int64_t[]){1}, (int64_t[]){0}, 1), *out = NULL;
        CHECK_OK(tsr_embedding_ex(i, w, NULL, &max_norm, types[k], false, false, &out));
        float s = (float)(2.0 / (norms[k] + 1e-7));
        check_f32(w, (float[]){3 * s, -4 * s}, 2, 0);
        tsr_tensor_release(out);
        tsr_tensor_release(i);
        tsr_tensor_release(w);
    }
}

static void failing_calls_leave_weight_untouched(void)
{
    float values[4] = {3, 4, 6, 8};
    tsr_tensor *w = f32(2, (int64_t[]){2, 2}, values), *out = NULL;
    tsr_tensor *bad = make_i64(1, (int64_t[]){2}, (int64_t[]){0, 2}, 2);
    tsr_tensor *neg = make_i64(1, (int64_t[]){2}, (int64_t[]){0, -1}, 2);
    tsr_tensor *ok = make_i64(1, (int64_t[]){1}, (int64_t[]){0}, 1);
    int64_t wide_pad = 5;
    double max_norm = 1.0;
    uint64_t before = tsr_tensor_version(w);
    CHECK_ERROR(tsr_embedding_ex(bad, w, NULL, &max_norm, 2.0, false, false, &out), TSR_ERR_INDEX,
                "embedding: index 2 is out of range for weight with 2 rows");
    CHECK_ERROR(tsr_embedding_ex(neg, w, NULL, &max_norm, 2.0, false, false, &out), TSR_ERR_INDEX,
                "index -1 is out of range");
    CHECK_ERROR(tsr_embedding_ex(ok, w, &wide_pad, &max_norm, 2.0, false, false, &out),
                TSR_ERR_INDEX, "padding_idx 5");
    CHECK_ERROR(tsr_embedding_ex(ok, w, NULL, &max_norm, 2.0, false, true, &out),
                TSR_ERR_UNIMPLEMENTED, "sparse=True");
    check_f32(w, values, 4, 0);
    CHECK_INT(tsr_tensor_version(w), before);
    tsr_tensor *iw = make_i64(2, (int64_t[]){2, 2}, (int64_t[]){3, 4, 6, 8}, 4);
    CHECK_ERROR(tsr_embedding_ex(ok, iw, NULL, &max_norm, 2.0, false, false, &out), TSR_ERR_DTYPE,
                "max_norm needs a floating point or complex weight, got int64");
    CHECK_TRUE(out == NULL);
    tsr_tensor *all[] = {w, bad, neg, ok, iw};
    for (int k = 0; k < 5; k++)
        tsr_tensor_release(all[k]);
}

/* The gradient of sum(embedding(...)) with respect to weight. */
static tsr_tensor *sum_gradient(tsr_tensor *w, const tsr_tensor *indices, const int64_t *padding,
                                const double *max_norm, bool scale)
{
    tsr_tensor *out = NULL, *total = NULL, *grad = NULL;
    CHECK_OK(tsr_embedding_ex(indices, w, padding, max_norm, 2.0, scale, false, &out));
    if (out)
        CHECK_STR(tsr_tensor_grad_fn_name(out), "embedding");
    CHECK_OK(tsr_sum(out, NULL, 0, false, TSR_DTYPE_INFER, &total));
    CHECK_OK(tsr_backward(total, NULL, 0));
    CHECK_OK(tsr_tensor_grad(w, &grad));
    tsr_tensor_release(out);
    tsr_tensor_release(total);
    return grad;
}

static void scale_grad_by_freq_divides_by_each_index_count(void)
{
    tsr_tensor *i = make_i64(1, (int64_t[]){4}, (int64_t[]){0, 2, 2, 2}, 4);
    float third = (float)(1.0 / 3.0);
    float expected[3][6] = {{1, 1, 0, 0, 3, 3},
                            {1, 1, 0, 0, third + third + third, third + third + third},
                            {1, 1, 0, 0, 0, 0}};
    int64_t padding = 2;
    for (int k = 0; k < 3; k++) {
        tsr_tensor *w = f32(2, (int64_t[]){3, 2}, (float[]){1, 2, 3, 4, 5, 6});
        CHECK_OK(tsr_tensor_set_requires_grad(w, true));
        tsr_tensor *g = sum_gradient(w, i, k == 2 ? &padding : NULL, NULL, k > 0);
        check_f32(g, expected[k], 6, 1e-7);
        tsr_tensor_release(g);
        tsr_tensor_release(w);
    }
    tsr_tensor_release(i);
}

/* A leaf that requires grad is renormalised with grad mode off (not an
 * in-place error) and still gets the lookup's gradient. */
static void max_norm_on_a_leaf_that_requires_grad(void)
{
    tsr_tensor *w = f32(2, (int64_t[]){2, 2}, (float[]){3, 4, 0.1f, 0});
    CHECK_OK(tsr_tensor_set_requires_grad(w, true));
    tsr_tensor *i = make_i64(1, (int64_t[]){3}, (int64_t[]){1, 0, 1}, 3);
    double max_norm = 1.0;
    tsr_tensor *g = sum_gradient(w, i, NULL, &max_norm, false);
    check_f32(g, (float[]){1, 1, 2, 2}, 4, 0);
    float s = (float)(1.0 / (5.0 + 1e-7));
    check_f32(w, (float[]){3 * s, 4 * s, 0.1f, 0}, 4, 0);
    tsr_tensor_release(g);
    tsr_tensor_release(i);
    tsr_tensor_release(w);
}

/* 2^17 lookups of 4 rows, 2^15 each: 2^15 gradient terms of 2^-15 per row. */
static void scale_grad_by_freq_over_many_indices(void)
{
    int64_t n = 1 << 17;
    int64_t *idx = malloc((size_t)n * sizeof *idx);
    for (int64_t k = 0; k < n; k++)
        idx[k] = k % 4;
    tsr_tensor *i = make_i64(1, &n, idx, (size_t)n);
    free(idx);
    tsr_tensor *w = f32(2, (int64_t[]){4, 1}, (float[]){1, 2, 3, 4});
    CHECK_OK(tsr_tensor_set_requires_grad(w, true));
    tsr_tensor *g = sum_gradient(w, i, NULL, NULL, true);
    check_f32(g, (float[]){1, 1, 1, 1}, 4, 0);
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_tensor_release(i);
}

/* The gradient with scale_grad_by_freq is the plain gradient (under random
 * grad_outputs, float64) with each row divided by its index count: not a
 * derivative, so no gradcheck, as in PyTorch. */
static tsr_tensor *weighted_gradient(const tsr_tensor *w0, const tsr_tensor *indices,
                                     const tsr_tensor *weights, bool scale)
{
    const int64_t padding = 1;
    tsr_tensor *w = NULL, *out = NULL, *grad = NULL;
    CHECK_OK(tsr_clone(w0, &w));
    CHECK_OK(tsr_tensor_set_requires_grad(w, true));
    CHECK_OK(tsr_embedding_ex(indices, w, &padding, NULL, 2.0, scale, false, &out));
    CHECK_OK(tsr_backward(out, weights, 0));
    CHECK_OK(tsr_tensor_grad(w, &grad));
    tsr_tensor_release(out);
    tsr_tensor_release(w);
    return grad;
}

static void scale_grad_by_freq_is_the_gradient_over_the_counts(void)
{
    tsr_generator *gen = NULL;
    tsr_tensor *w = NULL, *g = NULL;
    CHECK_OK(tsr_generator_create(31, &gen));
    CHECK_OK(tsr_randn(gen, 2, (int64_t[]){4, 3}, TSR_FLOAT64, NULL, &w));
    CHECK_OK(tsr_randn(gen, 3, (int64_t[]){2, 3, 3}, TSR_FLOAT64, NULL, &g));
    tsr_tensor *i = make_i64(2, (int64_t[]){2, 3}, (int64_t[]){0, 3, 3, 1, 0, 3}, 6);
    tsr_tensor *plain = weighted_gradient(w, i, g, false);
    tsr_tensor *scaled = weighted_gradient(w, i, g, true);
    double p[12] = {0}, q[12] = {0}, counts[4] = {2, 1, 1, 3}; /* row 1 is padding: 0 */
    CHECK_OK(tsr_to_host(plain, p, sizeof p));
    CHECK_OK(tsr_to_host(scaled, q, sizeof q));
    for (int k = 0; k < 12; k++)
        CHECK_DOUBLE(q[k], p[k] / counts[k / 3], 1e-12);
    CHECK_DOUBLE(p[3] + p[4] + p[5], 0, 0);
    tsr_tensor_release(plain);
    tsr_tensor_release(scaled);
    tsr_tensor_release(i);
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_generator_destroy(gen);
}

int main(void)
{
    RUN_TEST(max_norm_renormalises_referenced_rows_in_place);
    RUN_TEST(rows_referenced_twice_are_renormalised_once);
    RUN_TEST(norm_type_picks_the_norm);
    RUN_TEST(failing_calls_leave_weight_untouched);
    RUN_TEST(scale_grad_by_freq_divides_by_each_index_count);
    RUN_TEST(max_norm_on_a_leaf_that_requires_grad);
    RUN_TEST(scale_grad_by_freq_over_many_indices);
    RUN_TEST(scale_grad_by_freq_is_the_gradient_over_the_counts);
    return check_summary("test_index_embedding");
}
