/* Pooling: the rules golden cases cannot show (argument errors and their
 * messages, inputs left alone on failure, planes past 2^16 elements) and
 * the gradients in float64: gradcheck of every op, and of max and avg
 * pooling's own backward (the double backward PyTorch has). Expected values
 * are worked out by hand from PyTorch 1.13's rules. */
#include <math.h>
#include <stdlib.h>

#include "check_autograd.h"

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})

static tsr_tensor *f64(int ndim, const int64_t *shape, const double *v, bool grad)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *t = make_tensor(TSR_FLOAT64, ndim, shape, v, (size_t)n * sizeof *v);
    if (t && grad)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* Distinct values in a pattern without ties: (i * 37 mod 101) / 10 - 5. */
static tsr_tensor *distinct(int ndim, const int64_t *shape, bool grad)
{
    static double v[1024];
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    for (int64_t i = 0; i < n && i < 1024; i++)
        v[i] = (double)((i * 37) % 101) / 10.0 - 5.0;
    return f64(ndim, shape, v, grad);
}

static void check_i64(const tsr_tensor *t, const int64_t *expected, int64_t n)
{
    int64_t got[16];
    CHECK_TRUE(t && tsr_tensor_numel(t) == n && n <= 16);
    if (!t || tsr_tensor_numel(t) != n || n > 16 || tsr_to_host(t, got, (size_t)n * 8) != TSR_OK)
        return;
    for (int64_t i = 0; i < n; i++)
        CHECK_INT(got[i], expected[i]);
}

static tsr_pool_options window(int64_t k, int64_t s, int64_t p)
{
    tsr_pool_options o = TSR_POOL_OPTIONS_INIT;
    o.kernel_size[0] = k;
    o.kernel_count = 1;
    if (s > 0) {
        o.stride[0] = s;
        o.stride_count = 1;
    }
    o.padding[0] = p;
    o.padding_count = 1;
    return o;
}

/* ---- values PyTorch pins ------------------------------------------------- */

static void max_pool_nan_wins_with_the_last_nan_index(void)
{
    tsr_tensor *x = f64(3, SHAPE(1, 1, 5), (double[]){1, NAN, 3, NAN, 2}, false);
    tsr_tensor *y = NULL, *i = NULL;
    tsr_pool_options o = window(5, 0, 0);
    CHECK_OK(tsr_max_pool1d(x, &o, &y, &i));
    double v = 0;
    CHECK_OK(tsr_to_host(y, &v, sizeof v));
    CHECK_TRUE(isnan(v));
    check_i64(i, (int64_t[]){3}, 1);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(i);
}

static void max_pool_ties_keep_the_first_index_and_minus_inf_the_first_tap(void)
{
    tsr_tensor *x = f64(3, SHAPE(1, 1, 6), (double[]){2, 5, 5, -INFINITY, -INFINITY, 1}, false);
    tsr_tensor *y = NULL, *i = NULL;
    tsr_pool_options o = window(3, 2, 1); /* windows [-1,1], [1,3], [3,5] */
    CHECK_OK(tsr_max_pool1d(x, &o, &y, &i));
    check_values(y, (double[]){5, 5, 1}, 3);
    check_i64(i, (int64_t[]){1, 1, 5}, 3);
    tsr_tensor_release(y);
    tsr_tensor_release(i);
    o = window(2, 2, 0); /* a window of -inf only: its first tap */
    tsr_tensor *minf = f64(3, SHAPE(1, 1, 4), (double[]){0, 1, -INFINITY, -INFINITY}, false);
    CHECK_OK(tsr_max_pool1d(minf, &o, &y, &i));
    check_i64(i, (int64_t[]){1, 2}, 2);
    tsr_tensor_release(minf);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(i);
}

static void ceil_mode_drops_a_window_starting_in_the_right_padding(void)
{
    /* in 5, k 2, s 2, p 1: ceil gives 4 windows, the 4th would start at 5 */
    tsr_tensor *x = distinct(3, SHAPE(1, 1, 5), false), *y = NULL;
    tsr_pool_options o = window(2, 2, 1);
    o.ceil_mode = true;
    CHECK_OK(tsr_avg_pool1d(x, &o, &y));
    CHECK_INT(tsr_tensor_shape(y)[2], 3);
    tsr_tensor_release(y);
    o.padding[0] = 0; /* without padding the 3rd window starts at 4 < 5: kept */
    CHECK_OK(tsr_max_pool1d(x, &o, &y, NULL));
    CHECK_INT(tsr_tensor_shape(y)[2], 3);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void avg_pool_divisors(void)
{
    /* [1, 2, 3, 4] k 3 s 2 p 1 ceil: windows [-1,1] [1,3] [3,5] */
    tsr_tensor *x = f64(4, SHAPE(1, 1, 1, 4), (double[]){1, 2, 3, 4}, false), *y = NULL;
    tsr_pool_options o = TSR_POOL_OPTIONS_INIT;
    o.kernel_size[0] = 1, o.kernel_size[1] = 3, o.kernel_count = 2;
    o.stride[0] = 1, o.stride[1] = 2, o.stride_count = 2;
    o.padding[0] = 0, o.padding[1] = 1, o.padding_count = 2;
    o.ceil_mode = true;
    CHECK_OK(tsr_avg_pool2d(x, &o, &y)); /* include pad: 3, 3, then 2 (clipped to in + pad) */
    check_values(y, (double[]){3.0 / 3, 9.0 / 3, 4.0 / 2}, 3);
    tsr_tensor_release(y);
    o.count_include_pad = false;
    CHECK_OK(tsr_avg_pool2d(x, &o, &y));
    check_values(y, (double[]){3.0 / 2, 9.0 / 3, 4.0 / 1}, 3);
    tsr_tensor_release(y);
    o.has_divisor = true, o.divisor_override = -2;
    CHECK_OK(tsr_avg_pool2d(x, &o, &y));
    check_values(y, (double[]){-1.5, -4.5, -2}, 3);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void adaptive_windows_overlap_for_uneven_sizes(void)
{
    /* 5 -> 3: [0,2) [1,4) [3,5) */
    tsr_tensor *x = f64(2, SHAPE(1, 5), (double[]){1, 2, 3, 4, 5}, false), *y = NULL, *i = NULL;
    CHECK_OK(tsr_adaptive_avg_pool1d(x, SHAPE(3), 1, &y));
    check_values(y, (double[]){1.5, 3, 4.5}, 3);
    tsr_tensor_release(y);
    CHECK_OK(tsr_adaptive_max_pool1d(x, SHAPE(3), 1, &y, &i));
    check_values(y, (double[]){2, 4, 5}, 3);
    check_i64(i, (int64_t[]){1, 3, 4}, 3);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(i);
}

/* ---- errors -------------------------------------------------------------- */

static void bad_arguments_name_the_argument_and_change_nothing(void)
{
    tsr_tensor *x = distinct(4, SHAPE(1, 2, 3, 3), true), *y = NULL;
    uint64_t version = tsr_tensor_version(x);
    tsr_pool_options o = window(2, 0, 0);
    o.stride_count = 1; /* stride 0 */
    CHECK_ERROR(tsr_max_pool2d(x, &o, &y, NULL), TSR_ERR_INVALID_ARGUMENT, "stride");
    o = window(2, 0, 2);
    CHECK_ERROR(tsr_avg_pool2d(x, &o, &y), TSR_ERR_INVALID_ARGUMENT, "pad should be at most half");
    o = window(4, 0, 0);
    CHECK_ERROR(tsr_max_pool2d(x, &o, &y, NULL), TSR_ERR_SHAPE, "Output size is too small");
    o = window(2, 0, 0);
    o.dilation[0] = 0, o.dilation_count = 1;
    CHECK_ERROR(tsr_max_pool2d(x, &o, &y, NULL), TSR_ERR_INVALID_ARGUMENT, "dilation");
    CHECK_ERROR(tsr_avg_pool2d(x, &o, &y), TSR_ERR_INVALID_ARGUMENT, "dilation");
    o = window(2, 0, 0);
    o.has_divisor = true;
    CHECK_ERROR(tsr_avg_pool2d(x, &o, &y), TSR_ERR_INVALID_ARGUMENT, "divisor must be not zero");
    CHECK_ERROR(tsr_avg_pool1d(x, &o, &y), TSR_ERR_INVALID_ARGUMENT, "divisor_override");
    o = window(2, 0, 0);
    o.kernel_count = 3;
    CHECK_ERROR(tsr_max_pool2d(x, &o, &y, NULL), TSR_ERR_INVALID_ARGUMENT, "kernel_size");
    o = window(2, 0, 0);
    CHECK_ERROR(tsr_max_pool1d(x, &o, &y, NULL), TSR_ERR_SHAPE, "Expected 2D or 3D");
    CHECK_ERROR(tsr_adaptive_avg_pool2d(x, SHAPE(-1), 1, &y), TSR_ERR_INVALID_ARGUMENT,
                "negative dimension");
    CHECK_ERROR(tsr_pixel_shuffle(x, 2, &y), TSR_ERR_SHAPE, "divisible by the square");
    CHECK_ERROR(tsr_pixel_unshuffle(x, 0, &y), TSR_ERR_INVALID_ARGUMENT, "positive");
    CHECK_TRUE(y == NULL);
    CHECK_INT(tsr_tensor_version(x), version);
    tsr_tensor *i32 = NULL;
    CHECK_OK(tsr_to_dtype(x, TSR_INT32, &i32));
    o = window(2, 0, 0);
    CHECK_ERROR(tsr_max_pool2d(i32, &o, &y, NULL), TSR_ERR_DTYPE, "not implemented for 'Int'");
    CHECK_ERROR(tsr_avg_pool2d(i32, &o, &y), TSR_ERR_DTYPE, "not implemented for 'Int'");
    tsr_tensor_release(i32);
    tsr_tensor_release(x);
}

static void max_unpool_checks_indices(void)
{
    tsr_tensor *x = distinct(3, SHAPE(1, 1, 2), false), *y = NULL;
    tsr_tensor *bad = make_i64(3, SHAPE(1, 1, 2), (int64_t[]){0, 9}, 2);
    tsr_pool_options o = window(2, 0, 0);
    CHECK_ERROR(tsr_max_unpool1d(x, bad, &o, NULL, 0, &y), TSR_ERR_INDEX, "");
    CHECK_ERROR(tsr_max_unpool1d(x, bad, &o, SHAPE(9), 1, &y), TSR_ERR_INVALID_ARGUMENT,
                "invalid output_size");
    CHECK_TRUE(y == NULL);
    tsr_tensor_release(bad);
    tsr_tensor_release(x);
}

/* ---- large planes -------------------------------------------------------- */

static void max_pool_over_a_plane_past_2_16(void)
{
    enum { N = 70001 };
    static double v[N];
    for (int i = 0; i < N; i++)
        v[i] = (double)((i * 7919) % 65521);
    tsr_tensor *x = f64(3, SHAPE(1, 1, N), v, false), *y = NULL, *idx = NULL;
    tsr_pool_options o = window(3, 2, 1);
    CHECK_OK(tsr_max_pool1d(x, &o, &y, &idx));
    int64_t out = (N + 2 - 3) / 2 + 1;
    CHECK_INT(tsr_tensor_shape(y)[2], out);
    static double got[N];
    static int64_t at[N];
    CHECK_OK(tsr_to_host(y, got, (size_t)out * sizeof *got));
    CHECK_OK(tsr_to_host(idx, at, (size_t)out * sizeof *at));
    int wrong = 0;
    for (int64_t o2 = 0; o2 < out; o2++) {
        int64_t best = -1;
        for (int64_t j = 2 * o2 - 1; j <= 2 * o2 + 1; j++)
            if (j >= 0 && j < N && (best < 0 || v[j] > v[best]))
                best = j;
        wrong += got[o2] != v[best] || at[o2] != best;
    }
    CHECK_INT(wrong, 0);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(idx);
}

static void avg_pool_over_a_plane_past_2_16(void)
{
    enum { H = 300, W = 300 };
    static double v[H * W];
    for (int i = 0; i < H * W; i++)
        v[i] = (double)(i % 97);
    tsr_tensor *x = f64(4, SHAPE(1, 1, H, W), v, false), *y = NULL;
    tsr_pool_options o = window(2, 0, 0);
    CHECK_OK(tsr_avg_pool2d(x, &o, &y));
    static double got[(H / 2) * (W / 2)];
    CHECK_OK(tsr_to_host(y, got, sizeof got));
    int wrong = 0;
    for (int r = 0; r < H / 2; r++)
        for (int c = 0; c < W / 2; c++) {
            int a = 2 * r * W + 2 * c;
            double e = (v[a] + v[a + 1] + v[a + W] + v[a + W + 1]) / 4;
            wrong += fabs(got[r * (W / 2) + c] - e) > 1e-12;
        }
    CHECK_INT(wrong, 0);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

/* A plane past 2^24 elements: flat indices no float holds exactly. */
static void max_pool_indices_in_a_plane_past_2_24(void)
{
    enum { S = 4097 }; /* 4097^2 = 16785409 > 2^24 */
    float *v = malloc((size_t)S * S * sizeof *v);
    int64_t *at = malloc((size_t)(S / 2) * (S / 2) * sizeof *at);
    float *got = malloc((size_t)(S / 2) * (S / 2) * sizeof *got);
    CHECK_TRUE(v && at && got);
    if (!v || !at || !got) {
        free(v), free(at), free(got);
        return;
    }
    for (int64_t i = 0; i < (int64_t)S * S; i++)
        v[i] = (float)((i * 7919) % 100003);
    tsr_tensor *x = make_f32(4, SHAPE(1, 1, S, S), v, (size_t)S * S), *y = NULL, *idx = NULL;
    tsr_pool_options o = window(2, 0, 0);
    CHECK_OK(tsr_max_pool2d(x, &o, &y, &idx));
    CHECK_OK(tsr_to_host(y, got, (size_t)(S / 2) * (S / 2) * sizeof *got));
    CHECK_OK(tsr_to_host(idx, at, (size_t)(S / 2) * (S / 2) * sizeof *at));
    int64_t wrong = 0;
    for (int64_t r = 0; r < S / 2; r++)
        for (int64_t c = 0; c < S / 2; c++) {
            int64_t best = 2 * r * S + 2 * c, taps[3] = {best + 1, best + S, best + S + 1};
            for (int t = 0; t < 3; t++)
                if (v[taps[t]] > v[best])
                    best = taps[t];
            int64_t e = r * (S / 2) + c;
            wrong += got[e] != v[best] || at[e] != best;
        }
    CHECK_INT(wrong, 0);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(idx);
    free(v), free(at), free(got);
}

/* ---- gradients ----------------------------------------------------------- */

typedef struct pool_case {
    int op;
    tsr_pool_options o;
    const tsr_tensor *indices; /* max_unpool */
} pool_case;

enum { MAX2, AVG2, AVG3, AAVG2, AMAX1, UNPOOL2, LP2, SHUFFLE };

static tsr_status run_op(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    const pool_case *c = context;
    (void)n;
    switch (c->op) {
    case MAX2: return tsr_max_pool2d(in[0], &c->o, out, NULL);
    case AVG2: return tsr_avg_pool2d(in[0], &c->o, out);
    case AVG3: return tsr_avg_pool3d(in[0], &c->o, out);
    case AAVG2: return tsr_adaptive_avg_pool2d(in[0], SHAPE(2, 3), 2, out);
    case AMAX1: return tsr_adaptive_max_pool1d(in[0], SHAPE(3), 1, out, NULL);
    case UNPOOL2: return tsr_max_unpool2d(in[0], c->indices, &c->o, NULL, 0, out);
    case LP2: return tsr_lp_pool2d(in[0], 2.0, &c->o, out);
    default: return tsr_pixel_shuffle(in[0], 2, out);
    }
}

static void gradcheck_case(int op, tsr_pool_options o, tsr_tensor *x, const tsr_tensor *indices)
{
    pool_case c = {op, o, indices};
    const tsr_tensor *inputs[1] = {x};
    double err = -1;
    CHECK_OK(tsr_gradcheck(run_op, &c, inputs, 1, NULL, &err));
    CHECK_TRUE(err >= 0 && err < 1e-6);
    tsr_tensor_release(x);
}

static void every_pooling_op_passes_gradcheck(void)
{
    tsr_pool_options o = window(3, 2, 1);
    o.ceil_mode = true;
    gradcheck_case(MAX2, o, distinct(4, SHAPE(2, 2, 5, 4), true), NULL);
    gradcheck_case(AVG2, o, distinct(4, SHAPE(2, 2, 5, 4), true), NULL);
    o.count_include_pad = false;
    gradcheck_case(AVG2, o, distinct(3, SHAPE(2, 5, 4), true), NULL);
    tsr_pool_options d = window(2, 1, 1);
    d.has_divisor = true, d.divisor_override = 3;
    gradcheck_case(AVG3, d, distinct(5, SHAPE(1, 2, 3, 2, 3), true), NULL);
    gradcheck_case(AAVG2, o, distinct(4, SHAPE(1, 2, 5, 4), true), NULL);
    gradcheck_case(AMAX1, o, distinct(3, SHAPE(2, 2, 7), true), NULL);
    tsr_tensor *idx = make_i64(4, SHAPE(1, 1, 2, 2), (int64_t[]){0, 3, 9, 14}, 4);
    gradcheck_case(UNPOOL2, window(2, 0, 0), distinct(4, SHAPE(1, 1, 2, 2), true), idx);
    tsr_tensor_release(idx);
    double pos[24];
    for (int i = 0; i < 24; i++)
        pos[i] = 0.5 + (double)((i * 5) % 11) / 4;
    gradcheck_case(LP2, window(2, 0, 0), f64(4, SHAPE(1, 2, 3, 4), pos, true), NULL);
    gradcheck_case(SHUFFLE, o, distinct(4, SHAPE(1, 8, 2, 3), true), NULL);
}

/* Double backward: x -> d sum(pool(x)^2) / dx, computed with create_graph
 * (pool's backward applied to 2 pool(x)), is itself checked, so the
 * backward of the backward kernels (a gather for max, the forward for avg)
 * is exercised. */
static tsr_status first_gradient(void *context, const tsr_tensor *const *in, int n,
                                 tsr_tensor **out)
{
    /* gradcheck's finite differences run in no-grad mode on inputs that
     * need no grad: grad mode goes on and a leaf of the same values stands
     * in for them. */
    bool previous = tsr_grad_mode_set(true);
    tsr_tensor *x = NULL, *y = NULL, *z = NULL, *ones = NULL;
    tsr_status st = tsr_tensor_requires_grad(in[0]) ? (tsr_tensor_retain(in[0]), TSR_OK)
                                                    : tsr_detach(in[0], &x);
    if (!x)
        x = (tsr_tensor *)in[0];
    else if (st == TSR_OK)
        st = tsr_tensor_set_requires_grad(x, true);
    const tsr_tensor *xs[1] = {x};
    if (st == TSR_OK)
        st = run_op(context, xs, n, &y);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(y), tsr_operand_tensor(y), &z);
    if (st == TSR_OK)
        st = tsr_ones(tsr_tensor_ndim(z), tsr_tensor_shape(z), TSR_FLOAT64, NULL, &ones);
    if (st == TSR_OK) {
        const tsr_tensor *outs[1] = {z}, *ins[1] = {x}, *gos[1] = {ones};
        st = tsr_autograd_grad(outs, 1, ins, 1, gos, TSR_GRAD_CREATE_GRAPH, out);
    }
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
    tsr_tensor_release(ones);
    tsr_grad_mode_set(previous);
    return st;
}

static void double_backward(int op, tsr_pool_options o)
{
    tsr_tensor *x = distinct(4, SHAPE(1, 2, 5, 4), true);
    pool_case c = {op, o, NULL};
    const tsr_tensor *inputs[1] = {x};
    double err = -1;
    CHECK_OK(tsr_gradcheck(first_gradient, &c, inputs, 1, NULL, &err));
    CHECK_TRUE(err >= 0 && err < 1e-6);
    tsr_tensor_release(x);
}

static void max_and_avg_backward_are_differentiable(void)
{
    tsr_pool_options o = window(3, 2, 1);
    o.ceil_mode = true;
    double_backward(MAX2, o);
    double_backward(AVG2, o);
    double_backward(AAVG2, o);
}

int main(void)
{
    RUN_TEST(max_pool_nan_wins_with_the_last_nan_index);
    RUN_TEST(max_pool_ties_keep_the_first_index_and_minus_inf_the_first_tap);
    RUN_TEST(ceil_mode_drops_a_window_starting_in_the_right_padding);
    RUN_TEST(avg_pool_divisors);
    RUN_TEST(adaptive_windows_overlap_for_uneven_sizes);
    RUN_TEST(bad_arguments_name_the_argument_and_change_nothing);
    RUN_TEST(max_unpool_checks_indices);
    RUN_TEST(max_pool_over_a_plane_past_2_16);
    RUN_TEST(avg_pool_over_a_plane_past_2_16);
    RUN_TEST(max_pool_indices_in_a_plane_past_2_24);
    RUN_TEST(every_pooling_op_passes_gradcheck);
    RUN_TEST(max_and_avg_backward_are_differentiable);
    return check_summary("test_pool");
}
