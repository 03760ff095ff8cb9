/* Losses: cross_entropy, nll_loss, the pointwise losses and binary cross
 * entropy. Expected values were printed by PyTorch 1.13 (float64). */
#include "check_values.h"

/* ------------------------------------------------------------------------ */
/* Losses                                                                    */
/* ------------------------------------------------------------------------ */

static const double CE_W[4] = {0.5, 1.0, 2.0, 1.5};

static void cross_entropy_mean_divides_by_weights_of_kept_targets(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT64);
    tsr_tensor *w = from_doubles(CE_W, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *t = from_int64s((int64_t[]){0, -100, 2}, 1, (int64_t[]){3});
    tsr_tensor *y = NULL, *none = NULL;
    CHECK_OK(tsr_cross_entropy(x, t, w, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_MEAN, 0.0, &y));
    CHECK_INT(tsr_tensor_ndim(y), 0);
    check_values(y, (double[]){1.4332530765895055}, 1, 1e-14);
    tsr_tensor_release(y);
    CHECK_OK(tsr_cross_entropy(x, t, w, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_MEAN, 0.2, &y));
    check_values(y, (double[]){1.4110530765895055}, 1, 1e-14);
    CHECK_OK(tsr_cross_entropy(x, t, w, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_NONE, 0.2, &none));
    check_values(none, (double[]){1.1406644997831787, 0.0, 2.3869681916905847}, 3, 1e-14);
    tsr_tensor *temps[] = {x, w, t, y, none};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void cross_entropy_smoothing_mean_divides_by_kept_targets(void)
{
    /* Not by all targets: the ignored one counts in neither term. */
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT64);
    tsr_tensor *t = from_int64s((int64_t[]){0, -100, 2}, 1, (int64_t[]){3}), *y = NULL;
    CHECK_OK(tsr_cross_entropy(x, t, NULL, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_MEAN, 0.2, &y));
    check_values(y, (double[]){1.6182530765895056}, 1, 1e-14);
    tsr_tensor_release(x);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void cross_entropy_takes_class_probabilities_of_input_shape(void)
{
    double p[12] = {0.49731001447353845, 0.31403860024726915, 0.12067087118936705,
                    0.06798051408982542, 0.07898309407521287, 0.20165123319948397,
                    0.39664740523682995, 0.32271826748847326, 0.31983863725213124,
                    0.14873800194056266, 0.15985147690123497, 0.37157188390607104};
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT64);
    tsr_tensor *t = from_doubles(p, 2, (int64_t[]){3, 4}, TSR_FLOAT64);
    tsr_tensor *w = from_doubles(CE_W, 1, (int64_t[]){4}, TSR_FLOAT64), *y = NULL, *none = NULL;
    CHECK_OK(tsr_cross_entropy(x, t, w, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_MEAN, 0.1, &y));
    check_values(y, (double[]){1.558810460209455}, 1, 1e-14);
    CHECK_OK(tsr_cross_entropy(x, t, NULL, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_NONE, 0.0, &none));
    check_values(none, (double[]){1.7443039791781783, 1.3855410694246797, 1.4394851318288442}, 3,
                 1e-14);
    tsr_tensor *bad = NULL;
    CHECK_ERROR(tsr_cross_entropy(x, t, NULL, 1, TSR_LOSS_MEAN, 0.0, &bad), TSR_ERR_VALUE,
                "ignore_index is not supported for floating point target");
    CHECK_ERROR(tsr_cross_entropy(x, t, NULL, -100, TSR_LOSS_MEAN, 1.5, &bad), TSR_ERR_VALUE,
                "label_smoothing must be between 0.0 and 1.0");
    tsr_tensor *temps[] = {x, t, w, y, none};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void class_index_losses_refuse_bad_targets_as_torch(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT32), *y = NULL;
    tsr_tensor *oob = from_int64s((int64_t[]){0, 1, 5}, 1, (int64_t[]){3});
    tsr_tensor *neg = from_int64s((int64_t[]){0, -1, 2}, 1, (int64_t[]){3});
    tsr_tensor *short_t = from_int64s((int64_t[]){0, 1}, 1, (int64_t[]){2}), *i32 = NULL;
    CHECK_OK(tsr_to_dtype(neg, TSR_INT32, &i32));
    CHECK_ERROR(tsr_cross_entropy(x, oob, NULL, -100, TSR_LOSS_MEAN, 0.0, &y), TSR_ERR_INDEX,
                "Target 5 is out of bounds.");
    CHECK_ERROR(tsr_nll_loss(x, neg, NULL, -100, TSR_LOSS_SUM, &y), TSR_ERR_INDEX,
                "Target -1 is out of bounds.");
    CHECK_ERROR(tsr_nll_loss(x, i32, NULL, -100, TSR_LOSS_SUM, &y), TSR_ERR_DTYPE, "int32");
    CHECK_ERROR(tsr_cross_entropy(x, short_t, NULL, -100, TSR_LOSS_MEAN, 0.0, &y), TSR_ERR_SHAPE,
                "batch_size (3) to match target batch_size (2)");
    CHECK_ERROR(tsr_nll_loss(x, oob, NULL, -100, 7, &y), TSR_ERR_VALUE, "reduction");
    /* float16 has no log_softmax kernel: an error, on every path. */
    tsr_tensor *h = NULL;
    CHECK_OK(tsr_to_dtype(x, TSR_FLOAT16, &h));
    CHECK_ERROR(tsr_cross_entropy(h, short_t, NULL, -100, TSR_LOSS_MEAN, 0.0, &y), TSR_ERR_SHAPE,
                "batch_size");
    tsr_tensor *t3 = from_int64s((int64_t[]){0, 1, 2}, 1, (int64_t[]){3});
    CHECK_ERROR(tsr_cross_entropy(h, t3, NULL, -100, TSR_LOSS_MEAN, 0.1, &y), TSR_ERR_DTYPE,
                "float16");
    CHECK_ERROR(tsr_cross_entropy(h, h, NULL, -100, TSR_LOSS_MEAN, 0.1, &y), TSR_ERR_UNIMPLEMENTED,
                "float16");
    tsr_tensor_release(h);
    tsr_tensor_release(t3);
    /* An out-of-range ignore_index is fine: those targets are skipped. */
    CHECK_OK(tsr_nll_loss(x, oob, NULL, 5, TSR_LOSS_SUM, &y));
    /* uint8 class indices are read as int64 (a negative ignore_index never
     * matches one). */
    tsr_tensor *u8 = NULL, *i64 = from_int64s((int64_t[]){0, 3, 2}, 1, (int64_t[]){3});
    tsr_tensor *a = NULL, *b = NULL;
    CHECK_OK(tsr_to_dtype(i64, TSR_UINT8, &u8));
    CHECK_OK(tsr_cross_entropy(x, u8, NULL, -253, TSR_LOSS_NONE, 0.1, &a));
    CHECK_OK(tsr_cross_entropy(x, i64, NULL, -253, TSR_LOSS_NONE, 0.1, &b));
    double *va = to_doubles(a);
    if (va)
        check_values(b, va, 3, 0);
    free(va);
    tsr_tensor *more[] = {u8, i64, a, b};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        tsr_tensor_release(more[i]);
    tsr_tensor *temps[] = {x, oob, neg, short_t, i32, y};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void nll_loss_spatial_and_all_ignored_mean_is_nan(void)
{
    double v[24];
    for (int i = 0; i < 24; i++)
        v[i] = sin(i);
    tsr_tensor *x = from_doubles(v, 3, (int64_t[]){2, 3, 4}, TSR_FLOAT64);
    tsr_tensor *t = from_int64s((int64_t[]){0, 2, 1, 1, 2, 2, 0, -100}, 2, (int64_t[]){2, 4});
    tsr_tensor *sum = NULL, *mean = NULL, *none = NULL;
    CHECK_OK(tsr_nll_loss(x, t, NULL, -100, TSR_LOSS_SUM, &sum));
    check_values(sum, (double[]){-3.5298978307201736}, 1, 1e-14);
    CHECK_OK(tsr_nll_loss(x, t, NULL, -100, TSR_LOSS_MEAN, &mean));
    check_values(mean, (double[]){-0.5042711186743105}, 1, 1e-14);
    CHECK_OK(tsr_nll_loss(x, t, NULL, -100, TSR_LOSS_NONE, &none));
    check_shape(none, 2, (int64_t[]){2, 4});
    tsr_tensor_release(mean);
    tsr_tensor *ignored = from_int64s((int64_t[]){-100, -100}, 1, (int64_t[]){2}), *x2 = NULL;
    CHECK_OK(tsr_zeros(2, (int64_t[]){2, 3}, TSR_FLOAT32, NULL, &x2));
    CHECK_OK(tsr_nll_loss(x2, ignored, NULL, -100, TSR_LOSS_MEAN, &mean));
    check_values(mean, (double[]){NAN}, 1, 0);
    tsr_tensor *temps[] = {x, t, sum, mean, none, ignored, x2};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void binary_cross_entropy_log_is_clamped_at_minus_100(void)
{
    tsr_tensor *x = from_doubles((double[]){0.0, 1.0, 0.25, 0.9}, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *t = from_doubles((double[]){1.0, 0.0, 0.5, 1.0}, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *y = NULL, *bad = NULL;
    CHECK_OK(tsr_binary_cross_entropy(x, t, NULL, TSR_LOSS_NONE, &y));
    check_values(y, (double[]){100.0, 100.0, 0.8369882167858358, 0.10536051565782628}, 4, 1e-14);
    tsr_tensor *big = from_doubles((double[]){1.5}, 1, (int64_t[]){1}, TSR_FLOAT64);
    tsr_tensor *nan = from_doubles((double[]){NAN}, 1, (int64_t[]){1}, TSR_FLOAT64);
    CHECK_ERROR(tsr_binary_cross_entropy(big, big, NULL, TSR_LOSS_MEAN, &bad), TSR_ERR_VALUE,
                "between 0 and 1");
    CHECK_ERROR(tsr_binary_cross_entropy(nan, nan, NULL, TSR_LOSS_MEAN, &bad), TSR_ERR_VALUE,
                "between 0 and 1");
    tsr_tensor *t32 = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT32, &t32));
    CHECK_ERROR(tsr_binary_cross_entropy(x, t32, NULL, TSR_LOSS_MEAN, &bad), TSR_ERR_DTYPE,
                "found dtype float32 but expected float64");
    tsr_tensor *temps[] = {x, t, y, big, nan, t32};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void binary_cross_entropy_with_logits_is_stable_for_large_logits(void)
{
    double logits[6] = {100, -100, 1000, -1000, 0, 2.5};
    tsr_tensor *x = from_doubles(logits, 1, (int64_t[]){6}, TSR_FLOAT32);
    tsr_tensor *t = from_doubles((double[]){0, 1, 1, 0, 0.5, 0.25}, 1, (int64_t[]){6}, TSR_FLOAT32);
    tsr_tensor *pw =
        from_doubles((double[]){2, 0.5, 1.5, 3, 1, 0.25}, 1, (int64_t[]){6}, TSR_FLOAT32);
    tsr_tensor *y = NULL, *yp = NULL, *bad = NULL;
    CHECK_OK(tsr_binary_cross_entropy_with_logits(x, t, NULL, NULL, TSR_LOSS_NONE, &y));
    check_values(y, (double[]){100.0, 100.0, 0.0, 0.0, 0.6931471824645996, 1.9538897275924683}, 6,
                 1e-7);
    CHECK_OK(tsr_binary_cross_entropy_with_logits(x, t, NULL, pw, TSR_LOSS_NONE, &yp));
    check_values(yp, (double[]){100.0, 50.0, 0.0, 0.0, 0.6931471824645996, 1.9390978813171387}, 6,
                 1e-7);
    tsr_tensor *t2 = NULL;
    CHECK_OK(tsr_view(t, 2, (int64_t[]){2, 3}, &t2));
    CHECK_ERROR(tsr_binary_cross_entropy_with_logits(x, t2, NULL, NULL, TSR_LOSS_MEAN, &bad),
                TSR_ERR_SHAPE, "must be the same as input size");
    tsr_tensor *temps[] = {x, t, pw, y, yp, t2};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void smooth_l1_is_quadratic_below_beta_and_l1_at_beta_zero(void)
{
    tsr_tensor *a = from_doubles((double[]){0, 0.5, 2, -3}, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *b = NULL, *y = NULL, *s = NULL, *l1 = NULL, *z = NULL, *bad = NULL;
    CHECK_OK(tsr_zeros(1, (int64_t[]){4}, TSR_FLOAT64, NULL, &b));
    CHECK_OK(tsr_smooth_l1_loss(a, b, TSR_LOSS_NONE, 1.0, &y));
    check_values(y, (double[]){0.0, 0.125, 1.5, 2.5}, 4, 1e-15);
    CHECK_OK(tsr_smooth_l1_loss(a, b, TSR_LOSS_SUM, 0.5, &s));
    check_values(s, (double[]){4.75}, 1, 1e-15);
    CHECK_OK(tsr_smooth_l1_loss(a, b, TSR_LOSS_NONE, 0.0, &z));
    CHECK_OK(tsr_l1_loss(a, b, TSR_LOSS_NONE, &l1));
    check_values(z, (double[]){0, 0.5, 2, 3}, 4, 0);
    check_values(l1, (double[]){0, 0.5, 2, 3}, 4, 0);
    CHECK_ERROR(tsr_smooth_l1_loss(a, b, TSR_LOSS_SUM, -1.0, &bad), TSR_ERR_VALUE,
                "negative values for beta");
    tsr_tensor *temps[] = {a, b, y, s, l1, z};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void pointwise_losses_promote_and_broadcast_as_torch(void)
{
    tsr_tensor *a = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT32);
    tsr_tensor *b = from_doubles(LN_W, 1, (int64_t[]){4}, TSR_FLOAT64), *y = NULL, *bad = NULL;
    CHECK_OK(tsr_mse_loss(a, b, TSR_LOSS_NONE, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_FLOAT64);
    check_shape(y, 2, (int64_t[]){3, 4});
    tsr_tensor_release(y);
    tsr_tensor *i = from_int64s((int64_t[]){1, 2, 3}, 1, (int64_t[]){3}), *j = NULL;
    CHECK_OK(tsr_zeros(1, (int64_t[]){3}, TSR_INT64, NULL, &j));
    CHECK_ERROR(tsr_mse_loss(i, j, TSR_LOSS_SUM, &bad), TSR_ERR_DTYPE, "int64");
    CHECK_OK(tsr_l1_loss(i, j, TSR_LOSS_SUM, &y)); /* integer l1 sums in int64 */
    CHECK_INT(tsr_tensor_dtype(y), TSR_INT64);
    check_values(y, (double[]){6}, 1, 0);
    tsr_tensor *empty = NULL, *em = NULL;
    CHECK_OK(tsr_zeros(2, (int64_t[]){0, 3}, TSR_FLOAT32, NULL, &empty));
    CHECK_OK(tsr_mse_loss(empty, empty, TSR_LOSS_MEAN, &em));
    check_values(em, (double[]){NAN}, 1, 0);
    tsr_tensor *temps[] = {a, b, y, i, j, empty, em};
    for (size_t k = 0; k < sizeof temps / sizeof temps[0]; k++)
        tsr_tensor_release(temps[k]);
}

int main(void)
{
    RUN_TEST(cross_entropy_mean_divides_by_weights_of_kept_targets);
    RUN_TEST(cross_entropy_smoothing_mean_divides_by_kept_targets);
    RUN_TEST(cross_entropy_takes_class_probabilities_of_input_shape);
    RUN_TEST(class_index_losses_refuse_bad_targets_as_torch);
    RUN_TEST(nll_loss_spatial_and_all_ignored_mean_is_nan);
    RUN_TEST(binary_cross_entropy_log_is_clamped_at_minus_100);
    RUN_TEST(binary_cross_entropy_with_logits_is_stable_for_large_logits);
    RUN_TEST(smooth_l1_is_quadratic_below_beta_and_l1_at_beta_zero);
    RUN_TEST(pointwise_losses_promote_and_broadcast_as_torch);
    return check_summary("test_loss");
}
