/* cross_entropy with class indices, through whichever path the run selects:
 * CTest runs this file on the reference and cpu backends, with the fused
 * kernel (TESSERA_FUSED_CROSS_ENTROPY unset) and with the composite
 * (TESSERA_FUSED_CROSS_ENTROPY=0). Expected values come from the
 * definition, evaluated here in double: with lse_n = log sum_c exp(x_nc),
 * Q_nc = (1 - s) w[t_n] [c = t_n] + s / C w[c] (0 on ignored samples),
 *     loss_n = sum_c Q_nc (lse_n - x_nc),
 *     d loss_n / d x_nc = (sum_k Q_nk) softmax(x_n)_c - Q_nc,
 * and 'mean' divides by the summed w[t_n] of the kept samples. */
#include "check_values.h"

#include <stdlib.h>

enum { MAX_VALUES = 4096, MAX_CLASSES = 1024 };

typedef struct problem {
    int64_t batch, classes, spatial; /* logits [batch, classes, spatial] */
    const double *x;
    const int64_t *target; /* batch * spatial */
    const double *weight;  /* NULL: all 1 */
    int64_t ignore_index;
    double smoothing;
} problem;

static double x_at(const problem *p, int64_t n, int64_t c, int64_t d)
{
    return p->x[(n * p->classes + c) * p->spatial + d];
}

static double w_at(const problem *p, int64_t c)
{
    return p->weight ? p->weight[c] : 1.0;
}

/* Per-sample losses into loss[], the 'mean' divisor into *kept_weight, and
 * (grad not NULL) d sum(loss) / d x into grad[]. */
static void expected(const problem *p, double *loss, double *kept_weight, double *grad)
{
    *kept_weight = 0.0;
    CHECK_TRUE(p->classes <= MAX_CLASSES && p->batch * p->spatial * p->classes <= MAX_VALUES);
    for (int64_t n = 0; n < p->batch && p->classes <= MAX_CLASSES; n++) {
        for (int64_t d = 0; d < p->spatial; d++) {
            int64_t s = n * p->spatial + d, t = p->target[s];
            double sum = 0.0;
            for (int64_t c = 0; c < p->classes; c++)
                sum += exp(x_at(p, n, c, d));
            double lse = log(sum), total_q = 0.0, q[MAX_CLASSES];
            bool kept = t != p->ignore_index;
            for (int64_t c = 0; c < p->classes; c++) {
                q[c] = kept ? p->smoothing / (double)p->classes * w_at(p, c) : 0.0;
                if (kept && c == t)
                    q[c] += (1.0 - p->smoothing) * w_at(p, c);
                total_q += q[c];
            }
            loss[s] = 0.0;
            for (int64_t c = 0; c < p->classes; c++)
                loss[s] += q[c] * (lse - x_at(p, n, c, d));
            *kept_weight += kept ? w_at(p, t) : 0.0;
            for (int64_t c = 0; grad && c < p->classes; c++)
                grad[(n * p->classes + c) * p->spatial + d] =
                    total_q * exp(x_at(p, n, c, d) - lse) - q[c];
        }
    }
}

/* Runs every reduction on the problem in `dtype` and checks values and,
 * for 'mean' and 'none', the gradient (of sum(loss) for 'none'). */
static void check_problem(const char *what, const problem *p, tsr_dtype dtype, double tol)
{
    int64_t samples = p->batch * p->spatial, numel = samples * p->classes;
    int64_t shape[3] = {p->batch, p->classes, p->spatial}, tshape[2] = {p->batch, p->spatial};
    int ndim = p->spatial > 1 ? 3 : 2;
    double loss[MAX_VALUES], grad[MAX_VALUES], kept = 0.0, sum = 0.0;
    expected(p, loss, &kept, grad);
    for (int64_t s = 0; s < samples; s++)
        sum += loss[s];
    tsr_tensor *x = from_doubles(p->x, ndim, shape, dtype);
    tsr_tensor *t = from_int64s(p->target, ndim - 1, tshape);
    tsr_tensor *w = p->weight ? from_doubles(p->weight, 1, &p->classes, dtype) : NULL;
    CHECK_OK(tsr_tensor_set_requires_grad(x, true));
    for (int reduction = TSR_LOSS_NONE; reduction <= TSR_LOSS_SUM; reduction++) {
        tsr_tensor *y = NULL, *g = NULL;
        CHECK_OK(tsr_cross_entropy(x, t, w, p->ignore_index, reduction, p->smoothing, &y));
        fprintf(stderr, "  %s, reduction %d\n", what, reduction);
        if (reduction == TSR_LOSS_NONE) {
            check_shape(y, ndim - 1, tshape);
            check_values(y, loss, samples, tol);
        } else {
            CHECK_INT(tsr_tensor_ndim(y), 0);
            check_values(y, (double[]){reduction == TSR_LOSS_SUM ? sum : sum / kept}, 1, tol);
        }
        tsr_tensor *total = NULL;
        CHECK_OK(tsr_sum(y, NULL, 0, false, TSR_DTYPE_INFER, &total));
        CHECK_OK(tsr_backward(total, NULL, 0));
        CHECK_OK(tsr_tensor_grad(x, &g));
        double scaled[MAX_VALUES];
        for (int64_t i = 0; i < numel; i++)
            scaled[i] = reduction == TSR_LOSS_MEAN ? grad[i] / kept : grad[i];
        check_values(g, scaled, numel, tol);
        CHECK_OK(tsr_tensor_zero_grad(x));
        tsr_tensor_release(total);
        tsr_tensor_release(g);
        tsr_tensor_release(y);
    }
    tsr_tensor_release(x);
    tsr_tensor_release(t);
    tsr_tensor_release(w);
}

/* Deterministic logits in [-3, 3). */
static void fill(double *x, int64_t n, unsigned seed)
{
    uint64_t state = seed * 2654435761u + 1;
    for (int64_t i = 0; i < n; i++) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (double)(state >> 11) / 9007199254740992.0 * 6.0 - 3.0;
    }
}

static const double W6[6] = {0.5, 1.25, 2.0, 0.75, 1.5, 1.0};

static void weights_ignore_index_and_smoothing(void)
{
    double x[8 * 6];
    fill(x, 8 * 6, 1);
    /* -100 twice, and class 4 doubling as ignore_index in the second run */
    int64_t target[8] = {0, 5, -100, 4, 2, -100, 4, 1};
    problem p = {8, 6, 1, x, target, W6, -100, 0.15};
    check_problem("float64 weights, -100, smoothing 0.15", &p, TSR_FLOAT64, 1e-12);
    check_problem("float32 weights, -100, smoothing 0.15", &p, TSR_FLOAT32, 2e-5);
    p.ignore_index = 4;
    target[2] = target[5] = 3;
    check_problem("float64 ignore_index 4, smoothing 0.15", &p, TSR_FLOAT64, 1e-12);
    p.weight = NULL;
    p.smoothing = 0.0;
    check_problem("float64 no weight, ignore_index 4", &p, TSR_FLOAT64, 1e-12);
    p.smoothing = 1.0;
    check_problem("float64 smoothing 1", &p, TSR_FLOAT64, 1e-12);
}

static void spatial_targets(void)
{
    double x[2 * 6 * 3];
    fill(x, 2 * 6 * 3, 2);
    int64_t target[6] = {1, -100, 5, 0, 3, 3};
    problem p = {2, 6, 3, x, target, W6, -100, 0.2};
    check_problem("float64 spatial", &p, TSR_FLOAT64, 1e-12);
}

/* Rows of 600 classes: the cpu kernel's fast path, split over threads. */
static void long_rows(void)
{
    static double x[6 * 600];
    fill(x, 6 * 600, 3);
    int64_t target[6] = {599, 0, 17, -100, 300, 42};
    problem p = {6, 600, 1, x, target, NULL, -100, 0.1};
    double loss[6], kept = 0.0;
    expected(&p, loss, &kept, NULL);
    tsr_tensor *xt = from_doubles(x, 2, (int64_t[]){6, 600}, TSR_FLOAT32);
    tsr_tensor *t = from_int64s(target, 1, (int64_t[]){6}), *y = NULL;
    CHECK_OK(tsr_cross_entropy(xt, t, NULL, -100, TSR_LOSS_NONE, 0.1, &y));
    check_values(y, loss, 6, 2e-5);
    tsr_tensor_release(xt);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void unbatched_input_gives_a_0d_loss(void)
{
    double x[5] = {0.5, -1.0, 2.0, 0.25, -0.5};
    int64_t target = 2;
    problem p = {1, 5, 1, x, &target, NULL, -100, 0.0};
    double loss[1], kept;
    expected(&p, loss, &kept, NULL);
    tsr_tensor *xt = from_doubles(x, 1, (int64_t[]){5}, TSR_FLOAT64);
    tsr_tensor *t = from_int64s(&target, 0, NULL), *y = NULL;
    CHECK_OK(tsr_cross_entropy(xt, t, NULL, -100, TSR_LOSS_NONE, 0.0, &y));
    CHECK_INT(tsr_tensor_ndim(y), 0);
    check_values(y, loss, 1, 1e-14);
    tsr_tensor_release(xt);
    tsr_tensor_release(t);
    tsr_tensor_release(y);
}

static void bad_targets_fail_and_all_ignored_mean_is_nan(void)
{
    double x[6] = {1, 2, 3, 4, 5, 6};
    tsr_tensor *xt = from_doubles(x, 2, (int64_t[]){2, 3}, TSR_FLOAT32);
    tsr_tensor *bad_t = from_int64s((int64_t[]){0, 3}, 1, (int64_t[]){2});
    tsr_tensor *ignored = from_int64s((int64_t[]){-100, -100}, 1, (int64_t[]){2});
    tsr_tensor *y = NULL;
    CHECK_ERROR(tsr_cross_entropy(xt, bad_t, NULL, -100, TSR_LOSS_MEAN, 0.0, &y), TSR_ERR_INDEX,
                "Target 3 is out of bounds");
    CHECK_TRUE(y == NULL);
    CHECK_OK(tsr_cross_entropy(xt, ignored, NULL, -100, TSR_LOSS_MEAN, 0.3, &y));
    check_values(y, (double[]){NAN}, 1, 0);
    tsr_tensor_release(y);
    y = NULL;
    CHECK_OK(tsr_cross_entropy(xt, ignored, NULL, -100, TSR_LOSS_SUM, 0.3, &y));
    check_values(y, (double[]){0.0}, 1, 0);
    tsr_tensor_release(y);
    tsr_tensor_release(xt);
    tsr_tensor_release(bad_t);
    tsr_tensor_release(ignored);
}

/* The run is meant to test the fused kernel unless told otherwise: the
 * backend must have it, or the variants would all test the composite. */
static void the_fused_kernel_is_there_unless_disabled(void)
{
    const char *env = getenv("TESSERA_FUSED_CROSS_ENTROPY");
    tsr_tensor *probe = from_doubles((double[]){0}, 1, (int64_t[]){1}, TSR_FLOAT32);
    bool has = probe && tsr_backend_has_kernel(tsr_tensor_backend(probe), TSR_OP_CROSS_ENTROPY,
                                               TSR_FLOAT32, TSR_FLOAT32);
    fprintf(stderr, "  path: %s\n", env && strcmp(env, "0") == 0 ? "composite" : "fused");
    CHECK_TRUE(has);
    tsr_tensor_release(probe);
}

int main(void)
{
    RUN_TEST(the_fused_kernel_is_there_unless_disabled);
    RUN_TEST(weights_ignore_index_and_smoothing);
    RUN_TEST(spatial_targets);
    RUN_TEST(long_rows);
    RUN_TEST(unbatched_input_gives_a_0d_loss);
    RUN_TEST(bad_targets_fail_and_all_ignored_mean_is_nan);
    return check_summary("test_loss_cross_entropy");
}
