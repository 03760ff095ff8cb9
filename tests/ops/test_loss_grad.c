/* Gradients of the neural-network functions: one autograd node per op with
 * a hand-written formula, checked against central finite differences in
 * float64 (tsr_gradcheck), and PyTorch's own choices where they differ from
 * the exact derivative.
 *
 * Families here: loss (the most tests, so the file's name), softmax, norm,
 * attention and nn (dropout, linear). */
#include "check_values.h"

/* ------------------------------------------------------------------------ */
/* Gradients: one node per op, checked against finite differences            */
/* ------------------------------------------------------------------------ */

/* A float64 leaf that requires grad, values sin(salt + 0.7 i) * scale + shift. */
static tsr_tensor *leaf(int ndim, const int64_t *shape, int salt, double scale, double shift)
{
    double v[512];
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    for (int64_t i = 0; i < n && i < 512; i++)
        v[i] = sin(salt + 0.7 * (double)i) * scale + shift;
    tsr_tensor *t = from_doubles(v, ndim, shape, TSR_FLOAT64);
    CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* gradcheck of fn over n inputs, which it releases. */
static void gradcheck(tsr_gradcheck_fn fn, void *context, tsr_tensor **inputs, int n)
{
    double worst = 0;
    CHECK_OK(tsr_gradcheck(fn, context, (const tsr_tensor *const *)inputs, n, NULL, &worst));
    for (int i = 0; i < n; i++)
        tsr_tensor_release(inputs[i]);
}

/* The op's one node: the result's grad_fn is named after it. */
static void check_single_node(tsr_gradcheck_fn fn, void *context, tsr_tensor **inputs, int n,
                              const char *name)
{
    tsr_tensor *y = NULL;
    CHECK_OK(fn(context, (const tsr_tensor *const *)inputs, n, &y));
    CHECK_STR(y ? tsr_tensor_grad_fn_name(y) : NULL, name);
    tsr_tensor_release(y);
}

static tsr_status f_softmax(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    return *(int *)c ? tsr_log_softmax(in[0], 1, TSR_DTYPE_INFER, out)
                     : tsr_softmax(in[0], 1, TSR_DTYPE_INFER, out);
}

static void softmax_family_records_one_node_with_its_gradient(void)
{
    for (int log_form = 0; log_form < 2; log_form++) {
        tsr_tensor *in[1] = {leaf(3, (int64_t[]){2, 3, 4}, 1, 2.0, 0.0)};
        check_single_node(f_softmax, &log_form, in, 1, log_form ? "log_softmax" : "softmax");
        gradcheck(f_softmax, &log_form, in, 1);
    }
}

static tsr_status f_layer_norm(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    return tsr_layer_norm(in[0], 2, (int64_t[]){3, 4}, in[1], n > 2 ? in[2] : NULL, 1e-5, out);
}

static tsr_status f_rms_norm(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    (void)n;
    double eps = 1e-6;
    return tsr_rms_norm(in[0], 1, (int64_t[]){4}, in[1], &eps, out);
}

static void norm_gradients_reach_input_weight_and_bias(void)
{
    int64_t xs[3] = {2, 3, 4}, ws[2] = {3, 4};
    tsr_tensor *ln[3] = {leaf(3, xs, 1, 1.5, 0.3), leaf(2, ws, 2, 1.0, 1.0),
                         leaf(2, ws, 3, 0.5, 0)};
    check_single_node(f_layer_norm, NULL, ln, 3, "layer_norm");
    gradcheck(f_layer_norm, NULL, ln, 3);
    tsr_tensor *rms[2] = {leaf(3, xs, 4, 1.5, 0.3), leaf(1, (int64_t[]){4}, 5, 1.0, 1.0)};
    check_single_node(f_rms_norm, NULL, rms, 2, "rms_norm");
    gradcheck(f_rms_norm, NULL, rms, 2);
}

static tsr_status f_group_norm(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    (void)n;
    return tsr_group_norm(in[0], 2, in[1], in[2], 1e-5, out);
}

static tsr_status f_batch_norm(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    (void)n;
    return tsr_batch_norm(in[0], NULL, NULL, in[1], in[2], true, 0.1, 1e-5, out);
}

static void group_and_batch_norm_differentiate_through_layer_norm(void)
{
    int64_t xs[3] = {3, 4, 2}, cs[1] = {4};
    tsr_tensor *g[3] = {leaf(3, xs, 1, 1.5, 0.2), leaf(1, cs, 2, 1, 1), leaf(1, cs, 3, 1, 0)};
    gradcheck(f_group_norm, NULL, g, 3);
    tsr_tensor *b[3] = {leaf(3, xs, 4, 1.5, 0.2), leaf(1, cs, 5, 1, 1), leaf(1, cs, 6, 1, 0)};
    gradcheck(f_batch_norm, NULL, b, 3);
}

typedef struct class_loss_case {
    const tsr_tensor *target, *weight;
    int reduction;
    double smoothing;
    bool nll;
} class_loss_case;

static tsr_status f_class_loss(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    const class_loss_case *k = c;
    const tsr_tensor *target = n > 1 ? in[1] : k->target;
    return k->nll
               ? tsr_nll_loss(in[0], target, k->weight, -100, k->reduction, out)
               : tsr_cross_entropy(in[0], target, k->weight, -100, k->reduction, k->smoothing, out);
}

static void class_losses_record_one_node_with_torch_gradient(void)
{
    tsr_tensor *t = from_int64s((int64_t[]){0, 3, -100, 4}, 1, (int64_t[]){4});
    tsr_tensor *w =
        from_doubles((double[]){0.5, 1.0, 2.0, 1.5, 0.75}, 1, (int64_t[]){5}, TSR_FLOAT64);
    for (int red = TSR_LOSS_NONE; red <= TSR_LOSS_SUM; red++) {
        class_loss_case k = {t, w, red, 0.2, false};
        tsr_tensor *in[1] = {leaf(2, (int64_t[]){4, 5}, red, 2.0, 0)};
        check_single_node(f_class_loss, &k, in, 1, "cross_entropy");
        gradcheck(f_class_loss, &k, in, 1);
        k.nll = true;
        tsr_tensor *nin[1] = {leaf(2, (int64_t[]){4, 5}, red + 3, 2.0, 0)};
        check_single_node(f_class_loss, &k, nin, 1, "nll_loss");
        gradcheck(f_class_loss, &k, nin, 1);
        /* class probabilities: the target gets a gradient too */
        class_loss_case p = {NULL, w, red, 0.1, false};
        tsr_tensor *pin[2] = {leaf(2, (int64_t[]){4, 5}, red + 6, 2.0, 0),
                              leaf(2, (int64_t[]){4, 5}, red + 9, 0.4, 0.5)};
        gradcheck(f_class_loss, &p, pin, 2);
    }
    tsr_tensor_release(t);
    tsr_tensor_release(w);
}

static tsr_status f_bce(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    (void)n;
    return tsr_binary_cross_entropy(in[0], in[1], NULL, TSR_LOSS_SUM, out);
}

static void binary_cross_entropy_gradient_divides_by_at_least_1e_minus_12(void)
{
    tsr_tensor *in[2] = {leaf(1, (int64_t[]){6}, 1, 0.4, 0.5),
                         leaf(1, (int64_t[]){6}, 2, 0.4, 0.5)};
    check_single_node(f_bce, NULL, in, 2, "binary_cross_entropy");
    gradcheck(f_bce, NULL, in, 2);
    /* At x = 1e-13 the exact (x - t) / (x (1 - x)) is -1e13; PyTorch clamps
     * the denominator at 1e-12 and gives -1e12. */
    tsr_tensor *x = from_doubles((double[]){1e-13}, 1, (int64_t[]){1}, TSR_FLOAT64);
    tsr_tensor *t = from_doubles((double[]){1.0}, 1, (int64_t[]){1}, TSR_FLOAT64);
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    tsr_tensor *loss = NULL, *g[1] = {NULL};
    CHECK_OK(tsr_binary_cross_entropy(x, t, NULL, TSR_LOSS_SUM, &loss));
    CHECK_OK(tsr_autograd_grad((const tsr_tensor *const *)&loss, 1, (const tsr_tensor *const *)&x,
                               1, NULL, 0, g));
    check_values(g[0], (double[]){-(1.0 - 1e-13) / 1e-12}, 1, 1e-12);
    tsr_tensor *temps[] = {x, t, loss, g[0]};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

typedef struct attention_case {
    const tsr_tensor *mask;
    bool causal;
    double dropout;
    tsr_generator *gen;
} attention_case;

static tsr_status f_attention(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    const attention_case *a = c;
    (void)n;
    return tsr_scaled_dot_product_attention(in[0], in[1], in[2], a->mask, a->dropout, a->causal,
                                            NULL, a->gen, out);
}

static void attention_gradient_is_computed_block_by_block(void)
{
    /* 70 keys: two blocks, the second partial; keys broadcast over the batch. */
    attention_case plain = {NULL, false, 0.0, NULL}, causal = {NULL, true, 0.0, NULL};
    tsr_tensor *in[3] = {leaf(3, (int64_t[]){2, 3, 4}, 1, 1, 0),
                         leaf(2, (int64_t[]){70, 4}, 2, 1, 0),
                         leaf(2, (int64_t[]){70, 2}, 3, 1, 0)};
    check_single_node(f_attention, &plain, in, 3, "scaled_dot_product_attention");
    gradcheck(f_attention, &plain, in, 3);
    tsr_tensor *cin[3] = {leaf(3, (int64_t[]){1, 3, 4}, 4, 1, 0),
                          leaf(3, (int64_t[]){1, 5, 4}, 5, 1, 0),
                          leaf(3, (int64_t[]){1, 5, 3}, 6, 1, 0)};
    gradcheck(f_attention, &causal, cin, 3);
    /* Dropout's mask is not kept: backward refuses rather than guess. */
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(7, &gen));
    attention_case dropped = {NULL, false, 0.5, gen};
    tsr_tensor *din[3] = {leaf(2, (int64_t[]){3, 4}, 7, 1, 0), leaf(2, (int64_t[]){5, 4}, 8, 1, 0),
                          leaf(2, (int64_t[]){5, 2}, 9, 1, 0)};
    tsr_tensor *y = NULL, *total = NULL;
    CHECK_OK(f_attention(&dropped, (const tsr_tensor *const *)din, 3, &y));
    CHECK_OK(tsr_sum(y, NULL, 0, false, TSR_DTYPE_INFER, &total));
    CHECK_ERROR(tsr_backward(total, NULL, 0), TSR_ERR_UNIMPLEMENTED, "dropout");
    tsr_generator_destroy(gen);
    tsr_tensor *temps[] = {din[0], din[1], din[2], y, total};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void smooth_l1_gradient_at_a_tie_with_beta_zero_is_minus_g_for_both(void)
{
    /* PyTorch's smooth_l1_loss_backward takes its first branch (d <= -beta)
     * for input and, with the operands swapped, for target. */
    tsr_tensor *x = from_doubles((double[]){1.0, 2.0}, 1, (int64_t[]){2}, TSR_FLOAT64);
    tsr_tensor *t = from_doubles((double[]){1.0, 1.5}, 1, (int64_t[]){2}, TSR_FLOAT64);
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    tsr_tensor *loss = NULL, *g[2] = {NULL, NULL};
    const tsr_tensor *wrt[2] = {x, t};
    CHECK_OK(tsr_smooth_l1_loss(x, t, TSR_LOSS_SUM, 0.0, &loss));
    CHECK_OK(tsr_autograd_grad((const tsr_tensor *const *)&loss, 1, wrt, 2, NULL, 0, g));
    check_values(g[0], (double[]){-1.0, 1.0}, 2, 0);
    check_values(g[1], (double[]){-1.0, -1.0}, 2, 0);
    tsr_tensor *temps[] = {x, t, loss, g[0], g[1]};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static tsr_status f_linear_vector(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    (void)n;
    return tsr_linear(in[0], in[1], in[2], out);
}

static tsr_status f_dropout_eval(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)c;
    (void)n;
    return tsr_dropout(in[0], 0.5, false, NULL, out);
}

static void identity_dropout_and_vector_linear_pass_gradients(void)
{
    tsr_tensor *d[1] = {leaf(2, (int64_t[]){3, 4}, 1, 1, 0)};
    gradcheck(f_dropout_eval, NULL, d, 1);
    /* A 1-d input: matmul gives a view, so the bias is added out of place. */
    tsr_tensor *l[3] = {leaf(1, (int64_t[]){4}, 2, 1, 0), leaf(2, (int64_t[]){3, 4}, 3, 1, 0),
                        leaf(1, (int64_t[]){3}, 4, 1, 0)};
    gradcheck(f_linear_vector, NULL, l, 3);
}

int main(void)
{
    RUN_TEST(softmax_family_records_one_node_with_its_gradient);
    RUN_TEST(norm_gradients_reach_input_weight_and_bias);
    RUN_TEST(group_and_batch_norm_differentiate_through_layer_norm);
    RUN_TEST(class_losses_record_one_node_with_torch_gradient);
    RUN_TEST(binary_cross_entropy_gradient_divides_by_at_least_1e_minus_12);
    RUN_TEST(attention_gradient_is_computed_block_by_block);
    RUN_TEST(smooth_l1_gradient_at_a_tie_with_beta_zero_is_minus_g_for_both);
    RUN_TEST(identity_dropout_and_vector_linear_pass_gradients);
    return check_summary("test_loss_grad");
}
