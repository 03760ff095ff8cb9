/* The cpu cross_entropy kernel against the formula it implements, written
 * out here in double from its definition (plugin.h):
 *     lse = log(sum_c exp(x_c)),  picked = w[t],
 *     loss = (1 - s) w[t] (lse - x_t) + s / C sum_c w[c] (lse - x_c),
 * on every SIMD set the CPU has; the same bits on 1, 2 and 3 threads; the
 * reference kernel's fallbacks (strided logits, a bad target) through the
 * cpu table; and rows without a distribution. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"

typedef struct ce_case {
    int32_t dtype;
    int64_t rows, classes;
    int has_weight;
    int64_t ignore_index;
    double smoothing;
} ce_case;

typedef struct ce_data {
    ce_case k;
    void *x, *w, *out[3];
    int64_t *target;
} ce_data;

static size_t size_of(int32_t dtype)
{
    return dtype == TSR_FLOAT32 ? 4 : 8;
}

static double get(int32_t dtype, const void *p, int64_t i)
{
    return dtype == TSR_FLOAT32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static void *zeroed(size_t bytes)
{
    void *p = calloc(bytes + 1, 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Logits in [-4, 4), weights in [0.5, 2), targets cycling over the classes
 * with every seventh row ignored. */
static ce_data make(ce_case k, uint64_t seed)
{
    ce_data d = {.k = k};
    size_t size = size_of(k.dtype);
    d.x = zeroed((size_t)(k.rows * k.classes) * size);
    d.w = zeroed((size_t)k.classes * size);
    d.target = zeroed((size_t)k.rows * sizeof(int64_t));
    for (int i = 0; i < 3; i++) {
        d.out[i] = zeroed((size_t)k.rows * size);
    }
    if (k.dtype == TSR_FLOAT32) {
        test_fill_f32(d.x, k.rows * k.classes, seed, -4.0f, 4.0f);
        test_fill_f32(d.w, k.classes, seed + 1, 0.5f, 2.0f);
    } else {
        test_fill_f64(d.x, k.rows * k.classes, seed, -4.0, 4.0);
        test_fill_f64(d.w, k.classes, seed + 1, 0.5, 2.0);
    }
    for (int64_t r = 0; r < k.rows; r++) {
        d.target[r] = r % 7 == 3 ? k.ignore_index : (r * 13) % k.classes;
    }
    return d;
}

static void release(ce_data *d)
{
    free(d->x);
    free(d->w);
    free(d->target);
    for (int i = 0; i < 3; i++) {
        free(d->out[i]);
    }
}

static int run(tsr__cpu_backend *backend, ce_data *d, const int64_t *x_strides)
{
    const ce_case *k = &d->k;
    int64_t shape[2] = {k->rows, k->classes}, rows[1] = {k->rows}, wshape[1] = {k->classes};
    int64_t xs[2] = {k->classes, 1}, ts[1] = {1}, ws[1] = {1}, os[3][1] = {{1}, {1}, {1}};
    tsr_tensor_desc in[3] = {
        test_desc(d->x, k->dtype, 2, shape, xs),
        test_desc(d->target, TSR_INT64, 1, rows, ts),
        test_desc(d->w, k->dtype, 1, wshape, ws),
    };
    if (x_strides != NULL) {
        in[0].strides = x_strides;
    }
    tsr_tensor_desc out[3];
    for (int i = 0; i < 3; i++) {
        out[i] = test_desc(d->out[i], k->dtype, 1, rows, os[i]);
    }
    tsr_cross_entropy_attrs attrs = {.struct_size = sizeof attrs,
                                     .ignore_index = k->ignore_index,
                                     .label_smoothing = k->smoothing};
    return test_run(backend, TSR_OP_CROSS_ENTROPY, k->dtype, k->dtype, in, k->has_weight ? 3 : 2,
                    out, 3, &attrs);
}

/* Element (r, c) of logits stored with strides (sr, sc). */
static double logit(const ce_data *d, const int64_t *strides, int64_t r, int64_t c)
{
    int64_t sr = strides ? strides[0] : d->k.classes, sc = strides ? strides[1] : 1;
    return get(d->k.dtype, d->x, r * sr + c * sc);
}

static void check_formula(const char *what, const ce_data *d, const int64_t *strides)
{
    const ce_case *k = &d->k;
    double tol = k->dtype == TSR_FLOAT32 ? 4e-6 : 1e-13;
    int bad = 0;
    for (int64_t r = 0; r < k->rows && bad < 3; r++) {
        double sum = 0.0;
        for (int64_t c = 0; c < k->classes; c++) {
            sum += exp(logit(d, strides, r, c));
        }
        double lse = log(sum), loss = 0.0, picked = 0.0;
        int64_t t = d->target[r];
        if (t != k->ignore_index) {
            picked = k->has_weight ? get(k->dtype, d->w, t) : 1.0;
            loss = (1.0 - k->smoothing) * picked * (lse - logit(d, strides, r, t));
            for (int64_t c = 0; c < k->classes && k->smoothing > 0.0; c++) {
                double wc = k->has_weight ? get(k->dtype, d->w, c) : 1.0;
                loss += k->smoothing / (double)k->classes * wc * (lse - logit(d, strides, r, c));
            }
        }
        double want[3] = {loss, lse, picked};
        for (int i = 0; i < 3; i++) {
            double got = get(k->dtype, d->out[i], r);
            test_checks++;
            if (!(fabs(got - want[i]) <= tol * (1.0 + fabs(want[i])))) {
                TEST_FAIL("%s: output %d row %lld is %.17g, expected %.17g", what, i, (long long)r,
                          got, want[i]);
                bad++;
            }
        }
    }
}

static const ce_case CASES[] = {
    {TSR_FLOAT32, 37, 1000, 1, -100, 0.1}, /* weights, ignored rows, smoothing */
    {TSR_FLOAT32, 50, 7, 0, 2, 0.0},       /* ignore_index that is a class */
    {TSR_FLOAT64, 23, 1000, 1, -100, 0.0},
    {TSR_FLOAT64, 5, 5000, 0, -100, 0.25}, /* longer than the scratch row */
    {TSR_FLOAT32, 4, 5000, 1, -100, 0.0},
    {TSR_FLOAT32, 1, 1, 0, -100, 1.0}, /* one class: every loss is 0 */
};

static void matches_the_formula_on_every_simd_set(void)
{
    for (int isa = 0; isa <= (int)tsr__cpu_isa_detect(); isa++) {
        if (tsr__cpu_simd_for((tsr__cpu_isa)isa) == NULL) {
            continue;
        }
        tsr__cpu_backend *backend = test_backend(2, (tsr__cpu_isa)isa);
        for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
            ce_data d = make(CASES[i], 40 + i);
            char what[96];
            snprintf(what, sizeof what, "%s case %zu", tsr__cpu_isa_name((tsr__cpu_isa)isa), i);
            CHECK_OK(run(backend, &d, NULL));
            check_formula(what, &d, NULL);
            release(&d);
        }
        tsr__cpu_backend_destroy(backend);
    }
}

static void gives_the_same_bits_on_1_2_and_3_threads(void)
{
    ce_case k = {TSR_FLOAT32, 301, 1000, 1, -100, 0.05}; /* 19 tasks of 16 rows */
    ce_data base = make(k, 7);
    tsr__cpu_backend *one = test_backend(1, tsr__cpu_isa_detect());
    CHECK_OK(run(one, &base, NULL));
    tsr__cpu_backend_destroy(one);
    for (int threads = 2; threads <= 3; threads++) {
        ce_data d = make(k, 7);
        tsr__cpu_backend *backend = test_backend(threads, tsr__cpu_isa_detect());
        CHECK_OK(run(backend, &d, NULL));
        for (int i = 0; i < 3; i++) {
            CHECK_SAME_BITS("cross_entropy output", d.out[i], base.out[i], k.rows, 4);
        }
        tsr__cpu_backend_destroy(backend);
        release(&d);
    }
    release(&base);
}

/* Column-major logits are not the fast path: the reference kernel answers. */
static void strided_logits_go_to_the_reference_kernel(void)
{
    ce_case k = {TSR_FLOAT64, 9, 6, 1, -100, 0.3};
    ce_data d = make(k, 3);
    int64_t strides[2] = {1, k.rows};
    tsr__cpu_backend *backend = test_backend(2, tsr__cpu_isa_detect());
    CHECK_OK(run(backend, &d, strides));
    check_formula("column-major", &d, strides);
    tsr__cpu_backend_destroy(backend);
    release(&d);
}

static void a_target_out_of_range_is_an_error_and_writes_nothing(void)
{
    ce_case k = {TSR_FLOAT32, 8, 4, 0, -100, 0.0};
    ce_data d = make(k, 5);
    d.target[6] = 4;
    memset(d.out[0], 0x7f, (size_t)k.rows * 4);
    unsigned char before[32];
    memcpy(before, d.out[0], sizeof before);
    tsr__cpu_backend *backend = test_backend(2, tsr__cpu_isa_detect());
    CHECK_INT(run(backend, &d, NULL), TSR_ERR_INDEX);
    CHECK_TRUE(strstr(test_last_error(), "target 4 is out of bounds") != NULL);
    CHECK_TRUE(memcmp(before, d.out[0], sizeof before) == 0);
    tsr__cpu_backend_destroy(backend);
    release(&d);
}

/* +inf, NaN or only -inf in a row: lse and loss are NaN, as log_softmax's
 * row is; the other rows are untouched by it. */
static void rows_without_a_distribution_give_nan(void)
{
    ce_case k = {TSR_FLOAT32, 4, 3, 0, -100, 0.0};
    ce_data d = make(k, 9);
    float *x = d.x;
    x[0] = INFINITY;
    x[3] = NAN;
    x[6] = x[7] = x[8] = -INFINITY;
    tsr__cpu_backend *backend = test_backend(1, tsr__cpu_isa_detect());
    CHECK_OK(run(backend, &d, NULL));
    for (int64_t r = 0; r < 3; r++) {
        CHECK_TRUE(isnan(((float *)d.out[0])[r]) && isnan(((float *)d.out[1])[r]));
    }
    CHECK_TRUE(isfinite(((float *)d.out[0])[3]) && isfinite(((float *)d.out[1])[3]));
    tsr__cpu_backend_destroy(backend);
    release(&d);
}

int main(void)
{
    RUN_TEST(matches_the_formula_on_every_simd_set);
    RUN_TEST(gives_the_same_bits_on_1_2_and_3_threads);
    RUN_TEST(strided_logits_go_to_the_reference_kernel);
    RUN_TEST(a_target_out_of_range_is_an_error_and_writes_nothing);
    RUN_TEST(rows_without_a_distribution_give_nan);
    return test_finish();
}
