/* Neural-network functions: softmax, normalisation, dropout, linear layers
 * and attention. Each test pins one of PyTorch's rules; expected values were
 * printed by PyTorch 1.13 (float64). Losses: test_loss.c; gradients:
 * test_loss_grad.c.
 *
 * Families here: norm (layer_norm, rms_norm, group_norm, batch_norm; the
 * most tests, so the file's name), softmax, nn (dropout, linear, bilinear)
 * and attention. */
#include "check_values.h"

/* ------------------------------------------------------------------------ */
/* softmax, log_softmax                                                      */
/* ------------------------------------------------------------------------ */

static void softmax_is_shifted_by_row_max(void)
{
    double x[4] = {1000, 1000, -1000, 999};
    tsr_tensor *t = from_doubles(x, 1, (int64_t[]){4}, TSR_FLOAT32), *y = NULL;
    CHECK_OK(tsr_softmax(t, 0, TSR_DTYPE_INFER, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_FLOAT32);
    check_values(y, (double[]){0.42231879825, 0.42231879825, 0.0, 0.15536240350}, 4, 1e-6);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void log_softmax_stays_exact_where_log_of_softmax_underflows(void)
{
    double x[2] = {-1000, 0};
    tsr_tensor *t = from_doubles(x, 1, (int64_t[]){2}, TSR_FLOAT32), *y = NULL;
    CHECK_OK(tsr_log_softmax(t, -1, TSR_DTYPE_INFER, &y));
    check_values(y, (double[]){-1000.0, 0.0}, 2, 0);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void softmax_rows_with_plus_inf_nan_or_only_minus_inf_are_nan(void)
{
    double x[8] = {INFINITY, 1, -INFINITY, -INFINITY, NAN, 1, -INFINITY, 0};
    tsr_tensor *t = from_doubles(x, 2, (int64_t[]){4, 2}, TSR_FLOAT32), *y = NULL, *ly = NULL;
    CHECK_OK(tsr_softmax(t, 1, TSR_DTYPE_INFER, &y));
    check_values(y, (double[]){NAN, NAN, NAN, NAN, NAN, NAN, 0, 1}, 8, 0);
    CHECK_OK(tsr_log_softmax(t, 1, TSR_DTYPE_INFER, &ly));
    check_values(ly, (double[]){NAN, NAN, NAN, NAN, NAN, NAN, -INFINITY, 0}, 8, 0);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
    tsr_tensor_release(ly);
}

static void softmax_walks_any_dim_and_strides(void)
{
    tsr_tensor *t = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT64), *y = NULL;
    CHECK_OK(tsr_softmax(t, 0, TSR_DTYPE_INFER, &y));
    double dim0[12] = {0.04050072268780512,  0.04050072268780512, 0.024639419539293373,
                       0.040500722687805114, 0.1779174748054818,  0.1779174748054818,
                       0.49986975811944023,  0.17791747480548178, 0.781581802506713,
                       0.781581802506713,    0.47549082234126633, 0.7815818025067132};
    check_values(y, dim0, 12, 1e-14);
    /* The same rows seen through a transpose: dim 1 of the [4, 3] view. */
    tsr_tensor *tt = NULL, *yt = NULL, *back = NULL;
    CHECK_OK(tsr_transpose(t, 0, 1, &tt));
    CHECK_OK(tsr_softmax(tt, 1, TSR_DTYPE_INFER, &yt));
    CHECK_OK(tsr_transpose(yt, 0, 1, &back));
    check_values(back, dim0, 12, 1e-14);
    tsr_tensor *ly = NULL;
    CHECK_OK(tsr_log_softmax(t, 1, TSR_DTYPE_INFER, &ly));
    check_values(ly,
                 (double[]){-2.0252530765895056, -1.6552530765895053, -1.2852530765895054,
                            -0.9152530765895055, -2.718758912508298, -2.348758912508298,
                            -0.4487589125082979, -1.6087589125082982, -2.0252530765895056,
                            -1.6552530765895055, -1.2852530765895054, -0.9152530765895052},
                 12, 1e-14);
    tsr_tensor *temps[] = {t, y, tt, yt, back, ly};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void softmax_dtype_argument_converts_before_computing(void)
{
    tsr_tensor *t = from_int64s((int64_t[]){1, 2, 3}, 1, (int64_t[]){3}), *y = NULL;
    CHECK_ERROR(tsr_softmax(t, 0, TSR_DTYPE_INFER, &y), TSR_ERR_UNIMPLEMENTED, "int64");
    CHECK_OK(tsr_softmax(t, 0, TSR_FLOAT64, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_FLOAT64);
    check_values(y, (double[]){0.09003057317038046, 0.24472847105479767, 0.6652409557748219}, 3,
                 1e-15);
    tsr_tensor_release(y);
    tsr_tensor *h = NULL, *hy = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT16, &h));
    CHECK_ERROR(tsr_log_softmax(h, 0, TSR_DTYPE_INFER, &hy), TSR_ERR_UNIMPLEMENTED, "float16");
    tsr_tensor_release(h);
    tsr_tensor_release(t);
}

static void softmax_of_zero_d_is_one_and_dim_is_checked(void)
{
    double v = 5;
    tsr_tensor *t = from_doubles(&v, 0, NULL, TSR_FLOAT32), *y = NULL, *ly = NULL;
    CHECK_OK(tsr_softmax(t, -1, TSR_DTYPE_INFER, &y));
    check_values(y, (double[]){1.0}, 1, 0);
    CHECK_OK(tsr_log_softmax(t, 0, TSR_DTYPE_INFER, &ly));
    check_values(ly, (double[]){0.0}, 1, 0);
    tsr_tensor *bad = NULL;
    CHECK_ERROR(tsr_softmax(t, 1, TSR_DTYPE_INFER, &bad), TSR_ERR_INDEX, "out of range");
    tsr_tensor_release(t);
    tsr_tensor_release(y);
    tsr_tensor_release(ly);
}

static void softmax_of_bfloat16_rounds_once(void)
{
    tsr_tensor *t = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_BFLOAT16), *y = NULL;
    CHECK_OK(tsr_softmax(t, 1, TSR_DTYPE_INFER, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_BFLOAT16);
    double *v = to_doubles(y);
    for (int r = 0; v && r < 3; r++)
        CHECK_DOUBLE(v[4 * r] + v[4 * r + 1] + v[4 * r + 2] + v[4 * r + 3], 1.0, 1e-2);
    free(v);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

/* ------------------------------------------------------------------------ */
/* layer_norm, rms_norm                                                      */
/* ------------------------------------------------------------------------ */

static void layer_norm_matches_torch_with_and_without_affine(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT64);
    tsr_tensor *w = from_doubles(LN_W, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *b = from_doubles(LN_B, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *y = NULL, *y2 = NULL;
    CHECK_OK(tsr_layer_norm(x, 1, (int64_t[]){4}, w, b, 1e-5, &y));
    check_values(y,
                 (double[]){-0.5708007938052556, 0.6472005292035037, 0.594401058407007,
                            2.012402381415766, -0.4406970928405626, 0.8546039470656408,
                            2.7740432051628785, 0.2984647952479903, -0.5708007938052552,
                            0.6472005292035032, 0.5944010584070079, 2.0124023814157663},
                 12, 1e-13);
    CHECK_OK(tsr_layer_norm(x, 2, (int64_t[]){3, 4}, NULL, NULL, 1e-5, &y2));
    check_values(y2,
                 (double[]){-1.5867332824782108, -1.3152459694067944, -1.043758656335378,
                            -0.7722713432639616, -0.5007840301925451, -0.22929671712112865,
                            1.164827322975334, 0.31367790902170406, 0.5851652220931205,
                            0.8566525351645371, 1.1281398482359535, 1.39962716130737},
                 12, 1e-13);
    tsr_tensor *temps[] = {x, w, b, y, y2};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void layer_norm_variance_is_two_pass(void)
{
    /* E[x^2] - E[x]^2 would cancel to noise here even in float64. */
    double x[4] = {1e8 + 1, 1e8 - 1, 1e8 + 2, 1e8 - 2};
    tsr_tensor *t = from_doubles(x, 2, (int64_t[]){1, 4}, TSR_FLOAT64), *y = NULL;
    CHECK_OK(tsr_layer_norm(t, 1, (int64_t[]){4}, NULL, NULL, 0.0, &y));
    double s = 1.0 / sqrt(2.5);
    check_values(y, (double[]){s, -s, 2 * s, -2 * s}, 4, 1e-7);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void layer_norm_float32_rounds_as_torch_cpu_kernel(void)
{
    /* fma(x, rstd, -rstd * mean) in float: the cancellation PyTorch shows. */
    double x[4] = {1e4 + 1, 1e4 - 1, 1e4 + 2, 1e4 - 2};
    tsr_tensor *t = from_doubles(x, 2, (int64_t[]){1, 4}, TSR_FLOAT32), *y = NULL;
    CHECK_OK(tsr_layer_norm(t, 1, (int64_t[]){4}, NULL, NULL, 1e-5, &y));
    check_values(y,
                 (double[]){0.6322463750839233, -0.6326621770858765, 1.2647006511688232,
                            -1.2651164531707764},
                 4, 0);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void layer_norm_bias_alone_and_empty_batch(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT32);
    tsr_tensor *b = from_doubles(LN_B, 1, (int64_t[]){4}, TSR_FLOAT32), *y = NULL, *plain = NULL;
    CHECK_OK(tsr_layer_norm(x, 1, (int64_t[]){4}, NULL, b, 1e-5, &y));
    CHECK_OK(tsr_layer_norm(x, 1, (int64_t[]){4}, NULL, NULL, 1e-5, &plain));
    double *py = to_doubles(y), *pp = to_doubles(plain);
    for (int i = 0; py && pp && i < 12; i++)
        CHECK_DOUBLE(py[i], pp[i] + LN_B[i % 4], 1e-6);
    free(py);
    free(pp);
    tsr_tensor *empty = NULL, *ey = NULL;
    CHECK_OK(tsr_zeros(2, (int64_t[]){0, 4}, TSR_FLOAT32, NULL, &empty));
    CHECK_OK(tsr_layer_norm(empty, 1, (int64_t[]){4}, NULL, b, 1e-5, &ey));
    check_shape(ey, 2, (int64_t[]){0, 4});
    tsr_tensor *temps[] = {x, b, y, plain, empty, ey};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void layer_norm_checks_shapes_and_dtypes(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT32), *y = NULL;
    tsr_tensor *w64 = from_doubles(LN_W, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *w3 = from_doubles(LN_W, 1, (int64_t[]){3}, TSR_FLOAT32);
    CHECK_ERROR(tsr_layer_norm(x, 1, (int64_t[]){3}, NULL, NULL, 1e-5, &y), TSR_ERR_SHAPE,
                "expected input with shape [*, 3], but got input of size[3, 4]");
    CHECK_ERROR(tsr_layer_norm(x, 0, NULL, NULL, NULL, 1e-5, &y), TSR_ERR_SHAPE,
                "at least 1-dimensional");
    CHECK_ERROR(tsr_layer_norm(x, 1, (int64_t[]){4}, w3, NULL, 1e-5, &y), TSR_ERR_SHAPE,
                "weight of shape [3] and normalized_shape = [4]");
    CHECK_ERROR(tsr_layer_norm(x, 1, (int64_t[]){4}, w64, NULL, 1e-5, &y), TSR_ERR_DTYPE,
                "float64");
    tsr_tensor *i = from_int64s((int64_t[]){1, 2, 3, 4}, 2, (int64_t[]){1, 4});
    CHECK_ERROR(tsr_layer_norm(i, 1, (int64_t[]){4}, NULL, NULL, 1e-5, &y), TSR_ERR_UNIMPLEMENTED,
                "int64");
    tsr_tensor *temps[] = {x, w64, w3, i};
    for (size_t k = 0; k < sizeof temps / sizeof temps[0]; k++)
        tsr_tensor_release(temps[k]);
}

static void rms_norm_scales_by_root_mean_square(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT64);
    tsr_tensor *w = from_doubles(LN_W, 1, (int64_t[]){4}, TSR_FLOAT64), *y = NULL, *y2 = NULL;
    double eps = 1e-6;
    CHECK_OK(tsr_rms_norm(x, 1, (int64_t[]){4}, w, &eps, &y));
    check_values(y,
                 (double[]){-0.7270422253317922, 1.0954102861665669, -1.473472243339099,
                            -0.567092935758798, -0.007922109925916725, -0.2772738474070852,
                            3.564949466662523, 1.2952649728873833, 0.3548814785312016,
                            -0.889634391386437, 2.139011651420941, 1.8740658900517566},
                 12, 1e-13);
    /* eps NULL: torch.finfo(float64).eps. */
    CHECK_OK(tsr_rms_norm(x, 1, (int64_t[]){4}, NULL, NULL, &y2));
    check_values(y2,
                 (double[]){-1.454085133877468, -1.0954108008543593, -0.7367364678312505,
                            -0.3780621348081418, -0.01584422482373817, 0.2772739344154178,
                            1.7824752926705425, 0.8635102528937294, 0.7097630409319621,
                            0.88963449651061, 1.069505952089258, 1.249377407667906},
                 12, 1e-13);
    tsr_tensor *temps[] = {x, w, y, y2};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void rms_norm_promotes_with_a_weight_of_another_dtype(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT32);
    tsr_tensor *w = from_doubles(LN_W, 1, (int64_t[]){4}, TSR_FLOAT64), *y = NULL, *zero = NULL;
    CHECK_OK(tsr_rms_norm(x, 1, (int64_t[]){4}, w, NULL, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_FLOAT64);
    /* A row of zeros stays zero: eps keeps the root finite. */
    CHECK_OK(tsr_zeros(2, (int64_t[]){2, 3}, TSR_FLOAT16, NULL, &zero));
    tsr_tensor *zy = NULL;
    CHECK_OK(tsr_rms_norm(zero, 1, (int64_t[]){3}, NULL, NULL, &zy));
    check_values(zy, (double[]){0, 0, 0, 0, 0, 0}, 6, 0);
    tsr_tensor *temps[] = {x, w, y, zero, zy};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

/* ------------------------------------------------------------------------ */
/* group_norm, batch_norm                                                    */
/* ------------------------------------------------------------------------ */

/* xg = arange(24) ** 1.3 * 0.1 as [2, 4, 3], and per-channel parameters. */
static tsr_tensor *grouped_input(tsr_dtype dtype)
{
    double v[24];
    for (int i = 0; i < 24; i++)
        v[i] = pow(i, 1.3) * 0.1;
    return from_doubles(v, 3, (int64_t[]){2, 4, 3}, dtype);
}

static const double CH_W[4] = {1.0, 0.5, -1.0, 2.0};
static const double CH_B[4] = {0.0, 1.0, 0.5, -0.5};

static void group_norm_normalizes_each_group_of_channels(void)
{
    tsr_tensor *x = grouped_input(TSR_FLOAT64), *y = NULL, *bad = NULL;
    tsr_tensor *w = from_doubles(CH_W, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *b = from_doubles(CH_B, 1, (int64_t[]){4}, TSR_FLOAT64);
    CHECK_OK(tsr_group_norm(x, 2, w, b, 1e-5, &y));
    double expected[24] = {
        -1.28878654947266,   -0.9340682374406026,  -0.41536761313384757, 1.0954014746068381,
        1.4309115692468581,  1.792798156169859,    1.92756075911826,     1.3862599256557597,
        0.8211856838012745,  0.031060275546112823, 1.2443365512320546,   2.4946159103724166,
        -1.4430807287179732, -0.8826736732912669,  -0.3091726553083125,  1.1383796889889506,
        1.4372677812856491,  1.7418160583841755,   1.9492837128068348,   1.3813181212578804,
        0.8043099001201014,  0.0628435958514296,   1.251167749300599,    2.4558121232176244};
    check_values(y, expected, 24, 1e-12);
    CHECK_ERROR(tsr_group_norm(x, 3, NULL, NULL, 1e-5, &bad), TSR_ERR_SHAPE, "divisible by");
    tsr_tensor *w3 = from_doubles(CH_W, 1, (int64_t[]){3}, TSR_FLOAT64);
    CHECK_ERROR(tsr_group_norm(x, 2, w3, NULL, 1e-5, &bad), TSR_ERR_SHAPE,
                "weight should be a vector of 4 elements");
    tsr_tensor_release(w3);
    tsr_tensor *temps[] = {x, w, b, y};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void batch_norm_training_updates_running_stats_with_unbiased_variance(void)
{
    tsr_tensor *x = grouped_input(TSR_FLOAT64), *y = NULL, *ye = NULL;
    tsr_tensor *w = from_doubles(CH_W, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *b = from_doubles(CH_B, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *rm = from_doubles((double[]){0.1, 0.2, 0.3, 0.4}, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *rv = from_doubles((double[]){1.0, 2.0, 0.5, 1.5}, 1, (int64_t[]){4}, TSR_FLOAT64);
    CHECK_OK(tsr_batch_norm(x, rm, rv, w, b, true, 0.2, 1e-5, &y));
    double train[24] = {
        -1.0764406562427964, -1.002808160224891,  -0.8951361840166248, 0.44173210535254,
        0.5028703150300047,  0.5688149717906283,  1.6282031996444588,  1.4929481894755232,
        1.3517529102454076,  -2.7687446271234646, -2.4847488588365985, -2.1920916510035915,
        0.7856685293548714,  0.9898712616015051,  1.198845209527936,   1.3993174410923457,
        1.4949240203115113,  1.5923411464229695,  -0.3048414495957192, -0.4899855347601033,
        -0.6780773150095675, 1.1173228161866517,  1.4802004811166614,  1.8480618396603448};
    check_values(y, train, 24, 1e-12);
    check_values(
        rm,
        (double[]){0.37238195483174663, 0.588894598685276, 0.8255941163144196, 1.0760309024475514},
        4, 1e-13);
    check_values(
        rv,
        (double[]){1.2426595537967005, 2.1744178906285527, 1.0813300735403983, 1.97639503733661}, 4,
        1e-13);
    CHECK_TRUE(tsr_tensor_version(rm) > 0);
    CHECK_OK(tsr_batch_norm(x, rm, rv, w, b, false, 0.2, 1e-5, &ye));
    double eval[24] = {
        -0.3340494787824723, -0.24434333850147885, -0.11316705188311142, 0.9417541944522058,
        1.005897225343398,   1.0750829306170817,   0.30625768103261886,  0.08710532905177841,
        -0.1416719819936512, 0.4443887762435084,   0.8077263556442149,   1.1821451793106517,
        1.9345498062550888,  2.1833290808327726,   2.4379211061146933,   1.9464029418614894,
        2.046708393993768,   2.14891337779135,     -2.825835398815894,   -3.125822524382905,
        -3.430585771071128,  5.416133062285002,    5.880390305234731,    6.351023569858972};
    check_values(ye, eval, 24, 1e-12);
    tsr_tensor *temps[] = {x, w, b, rm, rv, y, ye};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void batch_norm_refuses_what_torch_refuses(void)
{
    tsr_tensor *one = NULL, *x = grouped_input(TSR_FLOAT32), *y = NULL;
    CHECK_OK(tsr_ones(2, (int64_t[]){1, 3}, TSR_FLOAT32, NULL, &one));
    CHECK_ERROR(tsr_batch_norm(one, NULL, NULL, NULL, NULL, true, 0.1, 1e-5, &y), TSR_ERR_VALUE,
                "more than 1 value per channel");
    CHECK_ERROR(tsr_batch_norm(x, NULL, NULL, NULL, NULL, false, 0.1, 1e-5, &y),
                TSR_ERR_INVALID_ARGUMENT, "running_mean must be defined in evaluation mode");
    tsr_tensor *rm3 = NULL, *rm64 = NULL;
    CHECK_OK(tsr_zeros(1, (int64_t[]){3}, TSR_FLOAT32, NULL, &rm3));
    CHECK_OK(tsr_zeros(1, (int64_t[]){4}, TSR_FLOAT64, NULL, &rm64));
    CHECK_ERROR(tsr_batch_norm(x, rm3, rm3, NULL, NULL, false, 0.1, 1e-5, &y), TSR_ERR_SHAPE,
                "running_mean should be a vector of 4 elements");
    CHECK_ERROR(tsr_batch_norm(x, rm64, rm64, NULL, NULL, false, 0.1, 1e-5, &y), TSR_ERR_DTYPE,
                "float64");
    tsr_tensor *temps[] = {one, x, rm3, rm64};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

/* Both running statistics are checked before either is written: an
 * expanded running_var leaves running_mean as it was. */
static void batch_norm_refuses_an_overlapping_running_stat_before_writing(void)
{
    tsr_tensor *x = grouped_input(TSR_FLOAT64), *y = NULL, *one = NULL, *rv = NULL;
    tsr_tensor *rm = from_doubles((double[]){0.1, 0.2, 0.3, 0.4}, 1, (int64_t[]){4}, TSR_FLOAT64);
    CHECK_OK(tsr_ones(1, (int64_t[]){1}, TSR_FLOAT64, NULL, &one));
    CHECK_OK(tsr_expand(one, 1, (int64_t[]){4}, &rv));
    uint64_t version = tsr_tensor_version(rm);
    CHECK_ERROR(tsr_batch_norm(x, rm, rv, NULL, NULL, true, 0.2, 1e-5, &y),
                TSR_ERR_INVALID_ARGUMENT, "batch_norm: running_var has internal overlap");
    CHECK_ERROR(tsr_batch_norm(x, rv, rm, NULL, NULL, true, 0.2, 1e-5, &y),
                TSR_ERR_INVALID_ARGUMENT, "batch_norm: running_mean has internal overlap");
    CHECK_TRUE(y == NULL);
    check_values(rm, (double[]){0.1, 0.2, 0.3, 0.4}, 4, 0);
    check_values(one, (double[]){1}, 1, 0);
    CHECK_INT(tsr_tensor_version(rm), version);
    tsr_tensor *temps[] = {x, one, rv, rm};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void batch_norm_of_an_empty_batch_leaves_running_stats(void)
{
    tsr_tensor *x = NULL, *rm = NULL, *y = NULL;
    CHECK_OK(tsr_zeros(2, (int64_t[]){0, 3}, TSR_FLOAT32, NULL, &x));
    CHECK_OK(tsr_ones(1, (int64_t[]){3}, TSR_FLOAT32, NULL, &rm));
    CHECK_OK(tsr_batch_norm(x, rm, rm, NULL, NULL, true, 0.5, 1e-5, &y));
    check_shape(y, 2, (int64_t[]){0, 3});
    check_values(rm, (double[]){1, 1, 1}, 3, 0);
    tsr_tensor_release(x);
    tsr_tensor_release(rm);
    tsr_tensor_release(y);
}

/* ------------------------------------------------------------------------ */
/* dropout, linear, bilinear                                                 */
/* ------------------------------------------------------------------------ */

static void dropout_without_training_or_p_zero_returns_input_itself(void)
{
    tsr_tensor *x = from_doubles(X34, 2, (int64_t[]){3, 4}, TSR_FLOAT32), *y = NULL, *bad = NULL;
    CHECK_OK(tsr_dropout(x, 0.5, false, NULL, &y));
    CHECK_TRUE(y == x);
    tsr_tensor_release(y);
    CHECK_OK(tsr_dropout(x, 0.0, true, NULL, &y));
    CHECK_TRUE(y == x);
    tsr_tensor_release(y);
    CHECK_ERROR(tsr_dropout(x, 1.5, true, NULL, &bad), TSR_ERR_VALUE, "between 0 and 1");
    CHECK_ERROR(tsr_dropout(x, 0.5, true, NULL, &bad), TSR_ERR_INVALID_ARGUMENT, "generator");
    tsr_tensor_release(x);
}

static void dropout_p_one_multiplies_by_zero_so_nan_stays(void)
{
    tsr_tensor *x =
                   from_doubles((double[]){NAN, INFINITY, -1.5, 2}, 1, (int64_t[]){4}, TSR_FLOAT32),
               *y = NULL;
    CHECK_OK(tsr_dropout(x, 1.0, true, NULL, &y));
    check_values(y, (double[]){NAN, NAN, 0, 0}, 4, 0);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void dropout_is_seeded_and_scales_kept_elements(void)
{
    int64_t n = 4000;
    tsr_tensor *x = NULL, *a = NULL, *b = NULL;
    CHECK_OK(tsr_ones(1, &n, TSR_FLOAT32, NULL, &x));
    tsr_generator *g1 = NULL, *g2 = NULL;
    CHECK_OK(tsr_generator_create(42, &g1));
    CHECK_OK(tsr_generator_create(42, &g2));
    CHECK_OK(tsr_dropout(x, 0.25, true, g1, &a));
    CHECK_OK(tsr_dropout(x, 0.25, true, g2, &b));
    double *va = to_doubles(a), *vb = to_doubles(b);
    int64_t kept = 0, same = 0;
    for (int64_t i = 0; va && vb && i < n; i++) {
        kept += va[i] != 0.0;
        same += va[i] == vb[i];
        if (va[i] != 0.0)
            CHECK_DOUBLE(va[i], (double)(float)(1.0 / 0.75), 0);
    }
    CHECK_INT(same, n);
    CHECK_TRUE(kept > 2800 && kept < 3200); /* 3000 expected, sd 27 */
    free(va);
    free(vb);
    tsr_generator_destroy(g1);
    tsr_generator_destroy(g2);
    tsr_tensor_release(x);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
}

static void linear_and_bilinear_match_torch(void)
{
    double xi[6], wi[12], x1[6], x2[8], w3[24];
    for (int i = 0; i < 6; i++) {
        xi[i] = i * 0.5 - 1;
        x1[i] = sin(i);
    }
    for (int i = 0; i < 12; i++)
        wi[i] = cos(i);
    for (int i = 0; i < 8; i++)
        x2[i] = cos(i);
    for (int i = 0; i < 24; i++)
        w3[i] = i * 0.1 - 1;
    tsr_tensor *x = from_doubles(xi, 2, (int64_t[]){2, 3}, TSR_FLOAT64);
    tsr_tensor *w = from_doubles(wi, 2, (int64_t[]){4, 3}, TSR_FLOAT64);
    tsr_tensor *b = from_doubles((double[]){0.1, 0.2, 0.3, 0.4}, 1, (int64_t[]){4}, TSR_FLOAT64);
    tsr_tensor *y = NULL, *yb = NULL, *bad = NULL;
    CHECK_OK(tsr_linear(x, w, b, &y));
    check_values(y,
                 (double[]){-1.1701511529340698, 1.5168143070322513, -1.0371214138220182,
                            1.7306660264229032, 0.5160820510474261, -0.5231465909689952,
                            1.3157373469555673, -0.8879981130367146},
                 8, 1e-14);
    tsr_tensor *w2 = from_doubles(wi, 2, (int64_t[]){6, 2}, TSR_FLOAT64);
    CHECK_TRUE(tsr_linear(x, w2, NULL, &bad) != TSR_OK); /* 3 features against 2 */
    tsr_tensor_release(w2);
    tsr_tensor *a1 = from_doubles(x1, 2, (int64_t[]){2, 3}, TSR_FLOAT64);
    tsr_tensor *a2 = from_doubles(x2, 2, (int64_t[]){2, 4}, TSR_FLOAT64);
    tsr_tensor *wb = from_doubles(w3, 3, (int64_t[]){2, 3, 4}, TSR_FLOAT64);
    tsr_tensor *bb = from_doubles((double[]){0.5, -0.5}, 1, (int64_t[]){2}, TSR_FLOAT64);
    CHECK_OK(tsr_bilinear(a1, a2, wb, bb, &yb));
    check_values(yb,
                 (double[]){-0.1632305619035873, -0.8813646083235875, 0.47525143065365105,
                            -3.0644465015366134},
                 4, 1e-14);
    CHECK_ERROR(tsr_bilinear(a2, a1, wb, bb, &bad), TSR_ERR_SHAPE, "size does not match weight");
    tsr_tensor *temps[] = {x, w, b, y, a1, a2, wb, bb, yb};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

/* ------------------------------------------------------------------------ */
/* scaled_dot_product_attention                                              */
/* ------------------------------------------------------------------------ */

enum { ATT_L = 3, ATT_S = 200, ATT_E = 4, ATT_EV = 2 };

/* q [2, 3, 4], k [200, 4], v [200, 2]: four blocks of keys, the last partial. */
static void attention_operands(tsr_tensor **q, tsr_tensor **k, tsr_tensor **v)
{
    static double qv[2 * ATT_L * ATT_E], kv[ATT_S * ATT_E], vv[ATT_S * ATT_EV];
    for (int i = 0; i < 2 * ATT_L * ATT_E; i++)
        qv[i] = sin(0.37 * i);
    for (int i = 0; i < ATT_S * ATT_E; i++)
        kv[i] = 2 * cos(0.11 * i);
    for (int i = 0; i < ATT_S * ATT_EV; i++)
        vv[i] = sin(0.05 * i + 1);
    *q = from_doubles(qv, 3, (int64_t[]){2, ATT_L, ATT_E}, TSR_FLOAT64);
    *k = from_doubles(kv, 2, (int64_t[]){ATT_S, ATT_E}, TSR_FLOAT64);
    *v = from_doubles(vv, 2, (int64_t[]){ATT_S, ATT_EV}, TSR_FLOAT64);
}

static void attention_over_key_blocks_equals_the_full_softmax(void)
{
    tsr_tensor *q, *k, *v, *y = NULL, *yc = NULL;
    attention_operands(&q, &k, &v);
    CHECK_OK(tsr_scaled_dot_product_attention(q, k, v, NULL, 0.0, false, NULL, NULL, &y));
    check_shape(y, 3, (int64_t[]){2, ATT_L, ATT_EV});
    check_values(y,
                 (double[]){0.050691153360583524, 0.05067533677504341, 0.049685798357328254,
                            0.04987524844714281, 0.05706545183655555, 0.05717714042995387,
                            0.058400799900576755, 0.05842603251094972, 0.05272773786231681,
                            0.05266229855786203, 0.04960652836544463, 0.049757713442111925},
                 12, 1e-13);
    CHECK_OK(tsr_scaled_dot_product_attention(q, k, v, NULL, 0.0, true, NULL, NULL, &yc));
    check_values(yc,
                 (double[]){0.8414709848078965, 0.867423225594017, 0.8602666391811783,
                            0.8845577352474634, 0.8997489687405671, 0.9200693648326838,
                            0.8414709848078965, 0.867423225594017, 0.8639775758456525,
                            0.8879407023332567, 0.8666274060591969, 0.8902548508544216},
                 12, 1e-13);
    tsr_tensor *temps[] = {q, k, v, y, yc};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void attention_masks_add_or_hide_scores(void)
{
    tsr_tensor *q, *k, *v, *y = NULL, *yf = NULL;
    attention_operands(&q, &k, &v);
    bool keep[ATT_L * ATT_S];
    double add[ATT_L * ATT_S];
    for (int i = 0; i < ATT_L; i++) {
        for (int j = 0; j < ATT_S; j++) {
            keep[i * ATT_S + j] = i % 3 != 0 || j > 100;
            add[i * ATT_S + j] = 2 * cos(i * ATT_S + j);
        }
    }
    tsr_tensor *bmask = NULL, *fmask = from_doubles(add, 2, (int64_t[]){ATT_L, ATT_S}, TSR_FLOAT64);
    CHECK_OK(
        tsr_from_host(keep, sizeof keep, 2, (int64_t[]){ATT_L, ATT_S}, TSR_BOOL, NULL, &bmask));
    double scale = 0.3;
    CHECK_OK(tsr_scaled_dot_product_attention(q, k, v, bmask, 0.0, false, &scale, NULL, &y));
    check_values(y,
                 (double[]){0.07059930715302314, 0.07942532611298961, 0.05052126600226006,
                            0.05066459344718153, 0.0562098636342071, 0.05630714379119206,
                            0.05168793926909154, 0.06157468899647247, 0.053349511437106284,
                            0.05333479650854349, 0.05034046781163727, 0.050459292561068216},
                 12, 1e-13);
    CHECK_OK(tsr_scaled_dot_product_attention(q, k, v, fmask, 0.0, false, NULL, NULL, &yf));
    check_values(yf,
                 (double[]){0.004526512079555921, 0.009722474764352614, 0.1141325172561946,
                            0.12207038203024469, 0.10774126412187904, 0.1073657026194905,
                            -0.04451980844980096, -0.03799194951076715, 0.07458132134738427,
                            0.07556098093935296, 0.2171389169589172, 0.21798558615493088},
                 12, 1e-13);
    tsr_tensor *bad = NULL;
    CHECK_ERROR(tsr_scaled_dot_product_attention(q, k, v, bmask, 0.0, true, NULL, NULL, &bad),
                TSR_ERR_INVALID_ARGUMENT, "is_causal");
    CHECK_ERROR(tsr_scaled_dot_product_attention(q, v, v, NULL, 0.0, false, NULL, NULL, &bad),
                TSR_ERR_SHAPE, "embedding dim");
    tsr_tensor *temps[] = {q, k, v, y, yf, bmask, fmask};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void attention_row_with_no_visible_key_is_nan(void)
{
    tsr_tensor *q, *k, *v, *y = NULL;
    attention_operands(&q, &k, &v);
    /* Row 0 sees nothing; row 1 only the last block; row 2 everything. */
    bool keep[ATT_L * ATT_S];
    for (int i = 0; i < ATT_L; i++) {
        for (int j = 0; j < ATT_S; j++)
            keep[i * ATT_S + j] = i == 2 || (i == 1 && j >= 192);
    }
    tsr_tensor *mask = NULL;
    CHECK_OK(tsr_from_host(keep, sizeof keep, 2, (int64_t[]){ATT_L, ATT_S}, TSR_BOOL, NULL, &mask));
    CHECK_OK(tsr_scaled_dot_product_attention(q, k, v, mask, 0.0, false, NULL, NULL, &y));
    double *got = to_doubles(y);
    for (int b = 0; got && b < 2; b++) {
        const double *row = got + b * ATT_L * ATT_EV;
        CHECK_TRUE(isnan(row[0]) && isnan(row[1]));
        CHECK_TRUE(isfinite(row[2]) && isfinite(row[3]));
        CHECK_TRUE(isfinite(row[4]) && isfinite(row[5]));
    }
    free(got);
    tsr_tensor *temps[] = {q, k, v, y, mask};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

static void attention_of_bfloat16_accumulates_in_float32(void)
{
    tsr_tensor *q, *k, *v, *y = NULL, *ref = NULL;
    attention_operands(&q, &k, &v);
    tsr_tensor *qb = NULL, *kb = NULL, *vb = NULL;
    CHECK_OK(tsr_to_dtype(q, TSR_BFLOAT16, &qb));
    CHECK_OK(tsr_to_dtype(k, TSR_BFLOAT16, &kb));
    CHECK_OK(tsr_to_dtype(v, TSR_BFLOAT16, &vb));
    CHECK_OK(tsr_scaled_dot_product_attention(qb, kb, vb, NULL, 0.0, false, NULL, NULL, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_BFLOAT16);
    CHECK_OK(tsr_scaled_dot_product_attention(q, k, v, NULL, 0.0, false, NULL, NULL, &ref));
    double *expected = to_doubles(ref);
    if (expected)
        check_values(y, expected, 12, 2e-2);
    free(expected);
    tsr_tensor *temps[] = {q, k, v, y, ref, qb, kb, vb};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
}

int main(void)
{
    RUN_TEST(softmax_is_shifted_by_row_max);
    RUN_TEST(log_softmax_stays_exact_where_log_of_softmax_underflows);
    RUN_TEST(softmax_rows_with_plus_inf_nan_or_only_minus_inf_are_nan);
    RUN_TEST(softmax_walks_any_dim_and_strides);
    RUN_TEST(softmax_dtype_argument_converts_before_computing);
    RUN_TEST(softmax_of_zero_d_is_one_and_dim_is_checked);
    RUN_TEST(softmax_of_bfloat16_rounds_once);
    RUN_TEST(layer_norm_matches_torch_with_and_without_affine);
    RUN_TEST(layer_norm_variance_is_two_pass);
    RUN_TEST(layer_norm_float32_rounds_as_torch_cpu_kernel);
    RUN_TEST(layer_norm_bias_alone_and_empty_batch);
    RUN_TEST(layer_norm_checks_shapes_and_dtypes);
    RUN_TEST(rms_norm_scales_by_root_mean_square);
    RUN_TEST(rms_norm_promotes_with_a_weight_of_another_dtype);
    RUN_TEST(group_norm_normalizes_each_group_of_channels);
    RUN_TEST(batch_norm_training_updates_running_stats_with_unbiased_variance);
    RUN_TEST(batch_norm_refuses_what_torch_refuses);
    RUN_TEST(batch_norm_refuses_an_overlapping_running_stat_before_writing);
    RUN_TEST(batch_norm_of_an_empty_batch_leaves_running_stats);
    RUN_TEST(dropout_without_training_or_p_zero_returns_input_itself);
    RUN_TEST(dropout_p_one_multiplies_by_zero_so_nan_stays);
    RUN_TEST(dropout_is_seeded_and_scales_kept_elements);
    RUN_TEST(linear_and_bilinear_match_torch);
    RUN_TEST(attention_over_key_blocks_equals_the_full_softmax);
    RUN_TEST(attention_masks_add_or_hide_scores);
    RUN_TEST(attention_row_with_no_visible_key_is_nan);
    RUN_TEST(attention_of_bfloat16_accumulates_in_float32);
    return check_summary("test_norm");
}
