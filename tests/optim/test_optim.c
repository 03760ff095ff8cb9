/* Optimisers, initialisation and saved state: steps compared with values
 * recorded from PyTorch 1.13 (tests/data/make_optim_values.py writes
 * tests/data/optim_values.json), init bounds and draws, and save/load round
 * trips and refusals. */
#define _POSIX_C_SOURCE 200809L

#include "check_json.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

static cJSON *values;

static cJSON *load_values(void)
{
    return check_load_json(TSR_TEST_DATA_DIR "/optim_values.json");
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                    */
/* ------------------------------------------------------------------------ */

/* A tensor of `dtype` holding the doubles v (converted as torch.tensor would). */
static tsr_tensor *make(const double *v, int ndim, const int64_t *shape, tsr_dtype dtype)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    tsr_tensor *t64 = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)n * sizeof *v, ndim, shape, TSR_FLOAT64, NULL, &t64));
    if (t64)
        CHECK_OK(tsr_to_dtype(t64, dtype, &t));
    tsr_tensor_release(t64);
    return t;
}

static tsr_tensor *make_json(const cJSON *array, int ndim, const int64_t *shape, tsr_dtype dtype)
{
    double v[64];
    int n = cJSON_GetArraySize(array);
    for (int i = 0; i < n && i < 64; i++)
        v[i] = cJSON_GetArrayItem(array, i)->valuedouble;
    return make(v, ndim, shape, dtype);
}

/* The elements of t as doubles, in a malloc'd array of numel entries. */
static double *read_all(const tsr_tensor *t)
{
    int64_t n = tsr_tensor_numel(t);
    double *v = calloc((size_t)(n > 0 ? n : 1), sizeof *v);
    tsr_tensor *t64 = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &t64));
    if (t64)
        CHECK_OK(tsr_to_host(t64, v, (size_t)n * sizeof *v));
    tsr_tensor_release(t64);
    return v;
}

/* Every element of t within tol (absolute, and relative to the larger) of array. */
static void check_close(const char *what, const tsr_tensor *t, const cJSON *array, double tol)
{
    double *v = read_all(t);
    int n = cJSON_GetArraySize(array);
    CHECK_INT(tsr_tensor_numel(t), n);
    for (int i = 0; i < n && i < tsr_tensor_numel(t); i++) {
        double e = cJSON_GetArrayItem(array, i)->valuedouble;
        check_count++;
        if (!(fabs(v[i] - e) <= tol * fmax(1.0, fabs(e))))
            CHECK_FAIL_("%s[%d] is %.17g, PyTorch has %.17g", what, i, v[i], e);
    }
    free(v);
}

static bool same_values(const tsr_tensor *a, const tsr_tensor *b)
{
    if (tsr_tensor_numel(a) != tsr_tensor_numel(b))
        return false;
    double *va = read_all(a), *vb = read_all(b);
    bool same = memcmp(va, vb, (size_t)tsr_tensor_numel(a) * sizeof *va) == 0;
    free(va);
    free(vb);
    return same;
}

static double option(const cJSON *options, const char *key, double fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(options, key);
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v) ? 1.0 : 0.0;
    return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

static tsr_optimizer *optimizer_for(const char *kind, const cJSON *o, tsr_tensor **params,
                                    size_t count)
{
    tsr_optimizer *opt = NULL;
    if (strcmp(kind, "sgd") == 0) {
        tsr_sgd_options s = tsr_sgd_options_default(option(o, "lr", 0));
        s.momentum = option(o, "momentum", s.momentum);
        s.dampening = option(o, "dampening", s.dampening);
        s.weight_decay = option(o, "weight_decay", s.weight_decay);
        s.nesterov = option(o, "nesterov", 0) != 0;
        s.maximize = option(o, "maximize", 0) != 0;
        CHECK_OK(tsr_optimizer_create_sgd(params, count, &s, &opt));
        return opt;
    }
    bool w = strcmp(kind, "adamw") == 0;
    tsr_adam_options a = w ? tsr_adamw_options_default() : tsr_adam_options_default();
    a.lr = option(o, "lr", a.lr);
    a.beta1 = option(o, "beta1", a.beta1);
    a.beta2 = option(o, "beta2", a.beta2);
    a.eps = option(o, "eps", a.eps);
    a.weight_decay = option(o, "weight_decay", a.weight_decay);
    a.amsgrad = option(o, "amsgrad", 0) != 0;
    a.maximize = option(o, "maximize", 0) != 0;
    CHECK_OK(w ? tsr_optimizer_create_adamw(params, count, &a, &opt)
               : tsr_optimizer_create_adam(params, count, &a, &opt));
    return opt;
}

static tsr_tensor *leaf(const double *v, int ndim, const int64_t *shape, tsr_dtype dtype)
{
    tsr_tensor *t = make(v, ndim, shape, dtype);
    if (t)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* ------------------------------------------------------------------------ */
/* Optimisers against PyTorch                                                 */
/* ------------------------------------------------------------------------ */

static void run_torch_case(const cJSON *c)
{
    const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
    const char *kind = cJSON_GetObjectItem(c, "optimizer")->valuestring;
    tsr_dtype dtype;
    CHECK_OK(tsr_dtype_from_name(cJSON_GetObjectItem(c, "dtype")->valuestring, &dtype));
    /* The reference backend agrees with PyTorch to the last bit; about one
     * ulp of slack leaves room for a backend that fuses differently. */
    double tol = dtype == TSR_FLOAT64 ? 4e-16 : 1.2e-7;
    const cJSON *shape_json = cJSON_GetObjectItem(c, "shape");
    int64_t shape[2] = {cJSON_GetArrayItem(shape_json, 0)->valueint,
                        cJSON_GetArrayItem(shape_json, 1)->valueint};
    tsr_tensor *p = make_json(cJSON_GetObjectItem(c, "param"), 2, shape, dtype);
    CHECK_OK(tsr_tensor_set_requires_grad(p, true));
    tsr_optimizer *opt = optimizer_for(kind, cJSON_GetObjectItem(c, "options"), &p, 1);
    if (!opt) {
        tsr_tensor_release(p);
        return;
    }
    const cJSON *grads = cJSON_GetObjectItem(c, "grads");
    const cJSON *after = cJSON_GetObjectItem(c, "params_after");
    for (int k = 0; k < cJSON_GetArraySize(grads); k++) {
        tsr_tensor *g = make_json(cJSON_GetArrayItem(grads, k), 2, shape, dtype);
        CHECK_OK(tsr_tensor_set_grad(p, g));
        tsr_tensor_release(g);
        CHECK_OK(tsr_optimizer_step(opt));
        char what[128];
        snprintf(what, sizeof what, "%s/%s param after step %d", name, tsr_dtype_name(dtype),
                 k + 1);
        check_close(what, p, cJSON_GetArrayItem(after, k), tol);
    }
    const char *keys[] = {"momentum_buffer", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
    const cJSON *state = cJSON_GetObjectItem(c, "state");
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        bool sgd_key = i == 0, is_sgd = strcmp(kind, "sgd") == 0;
        if (sgd_key != is_sgd)
            continue;
        tsr_tensor *s = NULL;
        CHECK_OK(tsr_optimizer_state(opt, 0, keys[i], &s));
        const cJSON *want = cJSON_GetObjectItem(state, keys[i]);
        CHECK_TRUE((s != NULL) == (want != NULL));
        if (s && want) {
            char what[128];
            snprintf(what, sizeof what, "%s/%s %s", name, tsr_dtype_name(dtype), keys[i]);
            check_close(what, s, want, tol);
        }
        tsr_tensor_release(s);
    }
    int64_t steps = 0;
    CHECK_OK(tsr_optimizer_step_count(opt, 0, &steps));
    CHECK_INT(steps, cJSON_GetObjectItem(c, "step")->valueint);
    tsr_optimizer_destroy(opt);
    tsr_tensor_release(p);
}

static void optimizer_steps_match_pytorch(void)
{
    const cJSON *cases = cJSON_GetObjectItem(values, "optimizers");
    CHECK_TRUE(cJSON_GetArraySize(cases) >= 16);
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        run_torch_case(c);
    }
}

static void step_updates_in_place_without_recording(void)
{
    const double v[3] = {1, 2, 3}, gv[3] = {1, 1, 1};
    int64_t n = 3;
    tsr_tensor *p = leaf(v, 1, &n, TSR_FLOAT32), *g = make(gv, 1, &n, TSR_FLOAT32);
    tsr_sgd_options o = tsr_sgd_options_default(0.5);
    tsr_optimizer *opt = NULL;
    CHECK_OK(tsr_optimizer_create_sgd(&p, 1, &o, &opt));
    CHECK_OK(tsr_tensor_set_grad(p, g));
    uint64_t before = tsr_tensor_version(p);
    CHECK_OK(tsr_optimizer_step(opt));
    CHECK_TRUE(tsr_tensor_version(p) > before);
    CHECK_TRUE(tsr_tensor_is_leaf(p));
    CHECK_TRUE(tsr_tensor_requires_grad(p));
    CHECK_TRUE(tsr_tensor_grad_fn_name(p) == NULL);
    CHECK_TRUE(tsr_grad_mode_enabled());
    double *got = read_all(p);
    CHECK_DOUBLE(got[0], 0.5, 0);
    CHECK_DOUBLE(got[2], 2.5, 0);
    free(got);
    tsr_optimizer_destroy(opt);
    tsr_tensor_release(p);
    tsr_tensor_release(g);
}

static void step_skips_parameters_without_grad(void)
{
    const double v[2] = {1, 2}, gv[2] = {1, 1};
    int64_t n = 2;
    tsr_tensor *params[2] = {leaf(v, 1, &n, TSR_FLOAT32), leaf(v, 1, &n, TSR_FLOAT32)};
    tsr_tensor *g = make(gv, 1, &n, TSR_FLOAT32);
    tsr_adam_options o = tsr_adam_options_default();
    tsr_optimizer *opt = NULL;
    CHECK_OK(tsr_optimizer_create_adam(params, 2, &o, &opt));
    CHECK_OK(tsr_tensor_set_grad(params[0], g));
    uint64_t version = tsr_tensor_version(params[1]);
    CHECK_OK(tsr_optimizer_step(opt));
    CHECK_INT(tsr_tensor_version(params[1]), version);
    tsr_tensor *s0 = NULL, *s1 = NULL;
    CHECK_OK(tsr_optimizer_state(opt, 0, "exp_avg", &s0));
    CHECK_OK(tsr_optimizer_state(opt, 1, "exp_avg", &s1));
    CHECK_TRUE(s0 != NULL && s1 == NULL);
    int64_t steps[2] = {-1, -1};
    CHECK_OK(tsr_optimizer_step_count(opt, 0, &steps[0]));
    CHECK_OK(tsr_optimizer_step_count(opt, 1, &steps[1]));
    CHECK_INT(steps[0], 1);
    CHECK_INT(steps[1], 0);
    CHECK_ERROR(tsr_optimizer_state(opt, 0, "momentum_buffer", &s1), TSR_ERR_INVALID_ARGUMENT,
                "no state \"momentum_buffer\"");
    tsr_tensor_release(s0);
    tsr_optimizer_destroy(opt);
    tsr_tensor_release(params[0]);
    tsr_tensor_release(params[1]);
    tsr_tensor_release(g);
}

static void zero_grad_zeroes_or_drops(void)
{
    const double v[2] = {1, 2}, gv[2] = {3, 4};
    int64_t n = 2;
    tsr_tensor *p = leaf(v, 1, &n, TSR_FLOAT64), *g = make(gv, 1, &n, TSR_FLOAT64);
    tsr_sgd_options o = tsr_sgd_options_default(0.1);
    tsr_optimizer *opt = NULL;
    CHECK_OK(tsr_optimizer_create_sgd(&p, 1, &o, &opt));
    CHECK_OK(tsr_tensor_set_grad(p, g));
    CHECK_OK(tsr_optimizer_zero_grad(opt, false));
    tsr_tensor *now = NULL;
    CHECK_OK(tsr_tensor_grad(p, &now));
    CHECK_TRUE(now != NULL);
    if (now) {
        double *z = read_all(now);
        CHECK_DOUBLE(z[0], 0, 0);
        CHECK_DOUBLE(z[1], 0, 0);
        free(z);
    }
    tsr_tensor_release(now);
    CHECK_OK(tsr_optimizer_zero_grad(opt, true));
    CHECK_OK(tsr_tensor_grad(p, &now));
    CHECK_TRUE(now == NULL);

    /* A .grad with history (create_graph) is detached before it is zeroed,
     * which also breaks the leaf -> .grad -> graph -> leaf cycle. */
    tsr_tensor *sq = NULL, *loss = NULL;
    CHECK_OK(tsr_mul(p, p, &sq));
    CHECK_OK(tsr_sum(sq, NULL, 0, false, TSR_DTYPE_INFER, &loss));
    CHECK_OK(tsr_backward(loss, NULL, TSR_GRAD_CREATE_GRAPH));
    CHECK_OK(tsr_tensor_grad(p, &now));
    CHECK_TRUE(now && !tsr_tensor_is_leaf(now));
    tsr_tensor_release(now);
    CHECK_OK(tsr_optimizer_zero_grad(opt, false));
    CHECK_OK(tsr_tensor_grad(p, &now));
    CHECK_TRUE(now && tsr_tensor_is_leaf(now) && !tsr_tensor_requires_grad(now));
    if (now) {
        double *z = read_all(now);
        CHECK_DOUBLE(z[0], 0, 0);
        CHECK_DOUBLE(z[1], 0, 0);
        free(z);
    }
    tsr_tensor_release(now);
    tsr_tensor_release(sq);
    tsr_tensor_release(loss);
    tsr_optimizer_destroy(opt);
    tsr_tensor_release(p);
    tsr_tensor_release(g);
}

static void options_are_checked_as_pytorch(void)
{
    const double v[1] = {1};
    int64_t n = 1;
    tsr_tensor *p = leaf(v, 1, &n, TSR_FLOAT32);
    tsr_optimizer *opt = NULL;
    tsr_sgd_options s = tsr_sgd_options_default(-1);
    CHECK_ERROR(tsr_optimizer_create_sgd(&p, 1, &s, &opt), TSR_ERR_VALUE,
                "Invalid learning rate: -1");
    s = tsr_sgd_options_default(0.1);
    s.nesterov = true;
    CHECK_ERROR(tsr_optimizer_create_sgd(&p, 1, &s, &opt), TSR_ERR_VALUE,
                "Nesterov momentum requires a momentum and zero dampening");
    s.momentum = 0.9;
    s.dampening = 0.1;
    CHECK_ERROR(tsr_optimizer_create_sgd(&p, 1, &s, &opt), TSR_ERR_VALUE, "Nesterov");
    s = tsr_sgd_options_default(0.1);
    s.struct_size = 0;
    CHECK_ERROR(tsr_optimizer_create_sgd(&p, 1, &s, &opt), TSR_ERR_INVALID_ARGUMENT, "struct_size");
    tsr_adam_options a = tsr_adam_options_default();
    a.beta1 = 1.0;
    CHECK_ERROR(tsr_optimizer_create_adam(&p, 1, &a, &opt), TSR_ERR_VALUE,
                "Invalid beta parameter at index 0: 1");
    a = tsr_adamw_options_default();
    a.eps = -1e-8;
    CHECK_ERROR(tsr_optimizer_create_adamw(&p, 1, &a, &opt), TSR_ERR_VALUE,
                "Invalid epsilon value");
    a = tsr_adam_options_default();
    a.lr = NAN;
    CHECK_ERROR(tsr_optimizer_create_adam(&p, 1, &a, &opt), TSR_ERR_VALUE, "Invalid learning rate");
    CHECK_TRUE(opt == NULL);
    CHECK_DOUBLE(tsr_adamw_options_default().weight_decay, 1e-2, 0);
    a = tsr_adam_options_default();
    CHECK_OK(tsr_optimizer_create_adam(&p, 1, &a, &opt));
    CHECK_STR(tsr_optimizer_kind(opt), "adam");
    CHECK_DOUBLE(tsr_optimizer_lr(opt), 1e-3, 0);
    CHECK_OK(tsr_optimizer_set_lr(opt, 0.25));
    CHECK_DOUBLE(tsr_optimizer_lr(opt), 0.25, 0);
    CHECK_ERROR(tsr_optimizer_set_lr(opt, -0.5), TSR_ERR_VALUE, "Invalid learning rate");
    tsr_optimizer_destroy(opt);
    tsr_tensor_release(p);
}

static void parameters_must_be_distinct_floating_leaves(void)
{
    const double v[2] = {1, 2};
    int64_t n = 2;
    tsr_tensor *p = leaf(v, 1, &n, TSR_FLOAT32), *q = NULL, *i = make(v, 1, &n, TSR_INT64);
    CHECK_OK(tsr_mul(p, p, &q));
    tsr_sgd_options s = tsr_sgd_options_default(0.1);
    tsr_optimizer *opt = NULL;
    CHECK_ERROR(tsr_optimizer_create_sgd(&q, 1, &s, &opt), TSR_ERR_VALUE,
                "can't optimize a non-leaf Tensor");
    CHECK_ERROR(tsr_optimizer_create_sgd(&i, 1, &s, &opt), TSR_ERR_DTYPE, "int64");
    tsr_tensor *twice[2] = {p, p};
    CHECK_ERROR(tsr_optimizer_create_sgd(twice, 2, &s, &opt), TSR_ERR_VALUE,
                "params[1] is params[0] again");
    CHECK_ERROR(tsr_optimizer_create_sgd(&p, 0, &s, &opt), TSR_ERR_VALUE, "empty");
    CHECK_TRUE(opt == NULL);
    tsr_tensor_release(p);
    tsr_tensor_release(q);
    tsr_tensor_release(i);
}

/* The whole loop: backward fills .grad, step moves the parameter, zero_grad
 * clears it. Minimises sum((p - target)^2). */
static void training_loop_converges(void)
{
    const double v[3] = {0, 0, 0}, t[3] = {1, -2, 0.5};
    int64_t n = 3;
    tsr_tensor *p = leaf(v, 1, &n, TSR_FLOAT32), *target = make(t, 1, &n, TSR_FLOAT32);
    tsr_adam_options o = tsr_adam_options_default();
    o.lr = 0.1;
    tsr_optimizer *opt = NULL;
    CHECK_OK(tsr_optimizer_create_adam(&p, 1, &o, &opt));
    for (int step = 0; step < 200 && opt; step++) {
        tsr_tensor *d = NULL, *sq = NULL, *loss = NULL;
        CHECK_OK(tsr_optimizer_zero_grad(opt, true));
        CHECK_OK(tsr_sub(p, target, &d));
        CHECK_OK(tsr_mul(d, d, &sq));
        CHECK_OK(tsr_sum(sq, NULL, 0, false, TSR_DTYPE_INFER, &loss));
        CHECK_OK(tsr_backward(loss, NULL, 0));
        CHECK_OK(tsr_optimizer_step(opt));
        tsr_tensor_release(d);
        tsr_tensor_release(sq);
        tsr_tensor_release(loss);
    }
    double *got = read_all(p);
    for (int i = 0; i < 3; i++)
        CHECK_DOUBLE(got[i], t[i], 1e-2);
    free(got);
    tsr_optimizer_destroy(opt);
    tsr_tensor_release(p);
    tsr_tensor_release(target);
}

/* ------------------------------------------------------------------------ */
/* Initialisation                                                             */
/* ------------------------------------------------------------------------ */

static tsr_tensor *empty_of(const cJSON *shape_json, tsr_dtype dtype)
{
    int64_t shape[8];
    int nd = cJSON_GetArraySize(shape_json);
    for (int d = 0; d < nd && d < 8; d++)
        shape[d] = cJSON_GetArrayItem(shape_json, d)->valueint;
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_zeros(nd, shape, dtype, NULL, &t));
    return t;
}

static void gains_and_fans_match_pytorch(void)
{
    const cJSON *init = cJSON_GetObjectItem(values, "init");
    const cJSON *gains = cJSON_GetObjectItem(init, "gains");
    const struct {
        const char *key;
        int nl;
        double param;
        bool has_param;
    } g[] = {{"linear", TSR_NONLINEARITY_LINEAR, 0, false},
             {"sigmoid", TSR_NONLINEARITY_SIGMOID, 0, false},
             {"tanh", TSR_NONLINEARITY_TANH, 0, false},
             {"relu", TSR_NONLINEARITY_RELU, 0, false},
             {"leaky_relu", TSR_NONLINEARITY_LEAKY_RELU, 0, false},
             {"selu", TSR_NONLINEARITY_SELU, 0, false},
             {"leaky_relu_0.2", TSR_NONLINEARITY_LEAKY_RELU, 0.2, true}};
    for (size_t i = 0; i < sizeof g / sizeof *g; i++) {
        double gain = -1;
        CHECK_OK(tsr_init_calculate_gain(g[i].nl, g[i].has_param ? &g[i].param : NULL, &gain));
        CHECK_DOUBLE(gain, cJSON_GetObjectItem(gains, g[i].key)->valuedouble, 0);
    }
    double gain;
    CHECK_ERROR(tsr_init_calculate_gain(42, NULL, &gain), TSR_ERR_VALUE, "Unsupported");
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItem(init, "fans"))
    {
        tsr_tensor *t = empty_of(cJSON_GetObjectItem(f, "shape"), TSR_FLOAT32);
        int64_t fan_in = -1, fan_out = -1;
        CHECK_OK(tsr_init_calculate_fans(t, &fan_in, &fan_out));
        CHECK_INT(fan_in, cJSON_GetObjectItem(f, "fan_in")->valueint);
        CHECK_INT(fan_out, cJSON_GetObjectItem(f, "fan_out")->valueint);
        tsr_tensor_release(t);
    }
    int64_t n = 4, fi, fo;
    tsr_tensor *v = NULL;
    CHECK_OK(tsr_zeros(1, &n, TSR_FLOAT32, NULL, &v));
    CHECK_ERROR(tsr_init_calculate_fans(v, &fi, &fo), TSR_ERR_SHAPE, "fewer than 2 dimensions");
    tsr_tensor_release(v);
}

static int mode_of(const char *s)
{
    return strcmp(s, "fan_in") == 0 ? TSR_FAN_IN : TSR_FAN_OUT;
}

static int nonlinearity_of(const char *s)
{
    return strcmp(s, "relu") == 0         ? TSR_NONLINEARITY_RELU
           : strcmp(s, "leaky_relu") == 0 ? TSR_NONLINEARITY_LEAKY_RELU
                                          : TSR_NONLINEARITY_LINEAR;
}

static void bounds_match_pytorch(void)
{
    const cJSON *init = cJSON_GetObjectItem(values, "init");
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(init, "kaiming"))
    {
        tsr_tensor *t = empty_of(cJSON_GetObjectItem(k, "shape"), TSR_FLOAT32);
        double bound = -1;
        CHECK_OK(tsr_init_kaiming_uniform_bound(
            t, cJSON_GetObjectItem(k, "a")->valuedouble,
            mode_of(cJSON_GetObjectItem(k, "mode")->valuestring),
            nonlinearity_of(cJSON_GetObjectItem(k, "nonlinearity")->valuestring), &bound));
        CHECK_DOUBLE(bound, cJSON_GetObjectItem(k, "bound")->valuedouble, 0);
        tsr_tensor_release(t);
    }
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(init, "xavier"))
    {
        tsr_tensor *t = empty_of(cJSON_GetObjectItem(k, "shape"), TSR_FLOAT32);
        double bound = -1;
        CHECK_OK(
            tsr_init_xavier_uniform_bound(t, cJSON_GetObjectItem(k, "gain")->valuedouble, &bound));
        CHECK_DOUBLE(bound, cJSON_GetObjectItem(k, "bound")->valuedouble, 0);
        tsr_tensor_release(t);
    }
}

/* Every value within [-bound, bound] (the bound rounded to t's dtype), the
 * mean near 0 and the variance near bound^2 / 3. */
static void check_uniform_draws(const char *what, const tsr_tensor *t, double bound)
{
    int64_t n = tsr_tensor_numel(t);
    double *v = read_all(t), sum = 0, sumsq = 0, limit = bound;
    if (tsr_tensor_dtype(t) == TSR_FLOAT32)
        limit = (float)bound;
    int64_t outside = 0;
    for (int64_t i = 0; i < n; i++) {
        outside += fabs(v[i]) > limit;
        sum += v[i];
        sumsq += v[i] * v[i];
    }
    double mean = sum / n, var = sumsq / n - mean * mean, want = bound * bound / 3;
    check_count++;
    if (outside)
        CHECK_FAIL_("%s: %lld of %lld values outside +-%.17g", what, (long long)outside,
                    (long long)n, bound);
    /* The mean's standard error is bound / sqrt(3 n); allow 6 of them. */
    CHECK_TRUE(fabs(mean) < 6 * bound / sqrt(3.0 * n));
    CHECK_TRUE(fabs(var - want) < 0.05 * want);
    free(v);
}

static void uniform_initialisers_stay_within_bounds(void)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(1234, &gen));
    int64_t shape[2] = {256, 128};
    tsr_tensor *w = NULL;
    CHECK_OK(tsr_empty(2, shape, TSR_FLOAT32, NULL, &w));
    CHECK_OK(tsr_tensor_set_requires_grad(w, true)); /* a leaf that requires grad is fine */
    double bound;
    CHECK_OK(tsr_init_kaiming_uniform_bound(w, 0.0, TSR_FAN_IN, TSR_NONLINEARITY_RELU, &bound));
    CHECK_OK(tsr_init_kaiming_uniform_(w, gen, 0.0, TSR_FAN_IN, TSR_NONLINEARITY_RELU));
    check_uniform_draws("kaiming_uniform_ float32", w, bound);
    CHECK_TRUE(tsr_tensor_is_leaf(w));

    tsr_tensor *x = NULL;
    CHECK_OK(tsr_empty(2, shape, TSR_FLOAT64, NULL, &x));
    CHECK_OK(tsr_init_xavier_uniform_bound(x, 2.0, &bound));
    CHECK_OK(tsr_init_xavier_uniform_(x, gen, 2.0));
    check_uniform_draws("xavier_uniform_ float64", x, bound);

    tsr_tensor *u = NULL;
    CHECK_OK(tsr_empty(2, shape, TSR_FLOAT32, NULL, &u));
    CHECK_OK(tsr_init_uniform_(u, gen, -3.0, 3.0));
    check_uniform_draws("uniform_", u, 3.0);
    CHECK_ERROR(tsr_init_uniform_(u, gen, 1.0, -1.0), TSR_ERR_VALUE, "low <= high");

    int64_t empty_shape[2] = {0, 4};
    tsr_tensor *e = NULL, *ints = NULL;
    CHECK_OK(tsr_empty(2, empty_shape, TSR_FLOAT32, NULL, &e));
    CHECK_OK(tsr_init_kaiming_uniform_(e, gen, 0, TSR_FAN_IN, TSR_NONLINEARITY_LEAKY_RELU));
    CHECK_OK(tsr_zeros(2, shape, TSR_INT32, NULL, &ints));
    CHECK_ERROR(tsr_init_uniform_(ints, gen, 0, 1), TSR_ERR_DTYPE, "floating");
    tsr_tensor *all[] = {w, x, u, e, ints};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tsr_tensor_release(all[i]);
    tsr_generator_destroy(gen);
}

static void same_seed_gives_same_parameters(void)
{
    tsr_generator *g1 = NULL, *g2 = NULL;
    CHECK_OK(tsr_generator_create(7, &g1));
    CHECK_OK(tsr_generator_create(7, &g2));
    tsr_tensor *w1 = NULL, *b1 = NULL, *w2 = NULL, *b2 = NULL;
    CHECK_OK(tsr_linear_params_create(64, 128, TSR_FLOAT32, NULL, g1, &w1, &b1));
    CHECK_OK(tsr_linear_params_create(64, 128, TSR_FLOAT32, NULL, g2, &w2, &b2));
    CHECK_TRUE(w1 && b1 && w2 && b2);
    if (w1 && b1 && w2 && b2) {
        CHECK_TRUE(same_values(w1, w2));
        CHECK_TRUE(same_values(b1, b2));
        CHECK_INT(tsr_tensor_shape(w1)[0], 128);
        CHECK_INT(tsr_tensor_shape(w1)[1], 64);
        CHECK_INT(tsr_tensor_shape(b1)[0], 128);
        CHECK_TRUE(tsr_tensor_requires_grad(w1) && tsr_tensor_is_leaf(w1));
        CHECK_TRUE(tsr_tensor_requires_grad(b1) && tsr_tensor_is_leaf(b1));
        /* nn.Linear(64, 128): both uniform on +-1/sqrt(64) (PyTorch's JSON entry). */
        const cJSON *lin =
            cJSON_GetObjectItem(cJSON_GetObjectItem(values, "init"), "linear_64_128");
        double wb = cJSON_GetObjectItem(lin, "weight_bound")->valuedouble;
        double bb = cJSON_GetObjectItem(lin, "bias_bound")->valuedouble;
        double *w = read_all(w1), *b = read_all(b1), wmax = 0, bmax = 0;
        for (int i = 0; i < 128 * 64; i++)
            wmax = fmax(wmax, fabs(w[i]));
        for (int i = 0; i < 128; i++)
            bmax = fmax(bmax, fabs(b[i]));
        CHECK_TRUE(wmax <= (float)wb && wmax > 0.95 * wb);
        CHECK_TRUE(bmax <= (float)bb && bmax > 0.8 * bb);
        free(w);
        free(b);
    }
    tsr_tensor *no_bias = NULL;
    CHECK_OK(tsr_linear_params_create(3, 2, TSR_FLOAT64, NULL, g1, &no_bias, NULL));
    tsr_tensor *all[] = {w1, b1, w2, b2, no_bias};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        tsr_tensor_release(all[i]);
    tsr_generator_destroy(g1);
    tsr_generator_destroy(g2);
}

/* ------------------------------------------------------------------------ */
/* Saving and loading                                                         */
/* ------------------------------------------------------------------------ */

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

typedef struct model {
    tsr_tensor *params[2]; /* fc.weight [3, 4], fc.bias [3] */
    tsr_optimizer *opt;
} model;

static const char *const model_names[2] = {"fc.weight", "fc.bias"};

static void model_create(model *m, uint64_t seed, bool adam)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(seed, &gen));
    CHECK_OK(tsr_linear_params_create(4, 3, TSR_FLOAT32, NULL, gen, &m->params[0], &m->params[1]));
    tsr_generator_destroy(gen);
    if (adam) {
        tsr_adam_options o = tsr_adam_options_default();
        o.lr = 0.05;
        o.amsgrad = true;
        CHECK_OK(tsr_optimizer_create_adam(m->params, 2, &o, &m->opt));
    } else {
        tsr_sgd_options o = tsr_sgd_options_default(0.1);
        o.momentum = 0.9;
        CHECK_OK(tsr_optimizer_create_sgd(m->params, 2, &o, &m->opt));
    }
}

static void model_destroy(model *m)
{
    tsr_optimizer_destroy(m->opt);
    tsr_tensor_release(m->params[0]);
    tsr_tensor_release(m->params[1]);
}

/* One step with gradients that depend only on k. */
static void model_step(model *m, int k)
{
    for (int i = 0; i < 2; i++) {
        tsr_tensor *g = NULL;
        const tsr_tensor *p = m->params[i];
        CHECK_OK(tsr_full(tsr_tensor_ndim(p), tsr_tensor_shape(p), tsr_scalar_float(0.1 * k - i),
                          TSR_FLOAT32, NULL, &g));
        CHECK_OK(tsr_tensor_set_grad(m->params[i], g));
        tsr_tensor_release(g);
    }
    CHECK_OK(tsr_optimizer_step(m->opt));
}

static void make_temp_dir(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/tessera_optim_XXXXXX");
    if (!mkdtemp(dir))
        CHECK_FAIL_("mkdtemp failed");
}

/* single: one .safetensors file instead of a directory of .npy files */
static void save_load_round_trip(bool adam, bool single)
{
    char dir[64];
    make_temp_dir(dir, sizeof dir);
    char sub[96];
    snprintf(sub, sizeof sub, "%s/state%s", dir, single ? ".safetensors" : ""); /* made by save */
    model a = {0}, b = {0};
    model_create(&a, 1, adam);
    model_create(&b, 2, adam);
    model_step(&a, 1);
    model_step(&a, 2);
    CHECK_OK(tsr_state_save(sub, (const tsr_tensor *const *)a.params, model_names, 2, a.opt));
    CHECK_OK(tsr_state_load(sub, b.params, model_names, 2, b.opt));
    if (single) { /* a plain safetensors file: the tensors under their record keys */
        char **names = NULL;
        tsr_tensor **tensors = NULL;
        size_t count = 0;
        CHECK_OK(tsr_load_safetensors(sub, NULL, &names, &tensors, &count));
        CHECK_INT(count, adam ? 8 : 4);
        CHECK_TRUE(count > 0 && strcmp(names[0], "param0") == 0);
        char other[128];
        snprintf(other, sizeof other, "%s/plain.safetensors", dir);
        CHECK_OK(tsr_save_safetensors(other, (const char *const *)names,
                                      (const tsr_tensor *const *)tensors, count));
        CHECK_ERROR(tsr_state_load(other, b.params, model_names, 2, NULL), TSR_ERR_FORMAT,
                    "__metadata__ has no \"tessera-state\"");
        tsr_named_tensors_free(names, tensors, count);
    }
    for (int i = 0; i < 2; i++) {
        CHECK_TRUE(same_values(a.params[i], b.params[i]));
        CHECK_TRUE(tsr_tensor_is_leaf(b.params[i]) && tsr_tensor_requires_grad(b.params[i]));
        int64_t sa = -1, sb = -2;
        CHECK_OK(tsr_optimizer_step_count(a.opt, (size_t)i, &sa));
        CHECK_OK(tsr_optimizer_step_count(b.opt, (size_t)i, &sb));
        CHECK_INT(sb, sa);
        const char *keys[3] = {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
        for (int k = 0; k < (adam ? 3 : 1); k++) {
            tsr_tensor *x = NULL, *y = NULL;
            const char *key = adam ? keys[k] : "momentum_buffer";
            CHECK_OK(tsr_optimizer_state(a.opt, (size_t)i, key, &x));
            CHECK_OK(tsr_optimizer_state(b.opt, (size_t)i, key, &y));
            CHECK_TRUE(x && y && same_values(x, y));
            tsr_tensor_release(x);
            tsr_tensor_release(y);
        }
    }
    CHECK_DOUBLE(tsr_optimizer_lr(b.opt), tsr_optimizer_lr(a.opt), 0);
    /* Continuing either gives the same bits. */
    model_step(&a, 3);
    model_step(&b, 3);
    CHECK_TRUE(same_values(a.params[0], b.params[0]));
    CHECK_TRUE(same_values(a.params[1], b.params[1]));
    model_destroy(&a);
    model_destroy(&b);
    remove_tree(sub);
    remove_tree(dir);
}

static void save_load_round_trips_adam_and_sgd(void)
{
    save_load_round_trip(true, false);
    save_load_round_trip(false, false);
    save_load_round_trip(true, true);
    save_load_round_trip(false, true);
}

/* A failing load must leave the targets exactly as they were. */
static void check_untouched(tsr_tensor *const *params, size_t n, const uint64_t *versions)
{
    for (size_t i = 0; i < n; i++)
        CHECK_INT(tsr_tensor_version(params[i]), versions[i]);
}

static void load_refuses_mismatches_by_name(void)
{
    char dir[64];
    make_temp_dir(dir, sizeof dir);
    model a = {0};
    model_create(&a, 1, true);
    model_step(&a, 1);
    CHECK_OK(tsr_state_save(dir, (const tsr_tensor *const *)a.params, model_names, 2, a.opt));

    int64_t wrong_shape[2] = {4, 3}, bias_shape = 3;
    tsr_tensor *w = NULL, *b = NULL, *w64 = NULL;
    CHECK_OK(tsr_zeros(2, wrong_shape, TSR_FLOAT32, NULL, &w));
    CHECK_OK(tsr_zeros(1, &bias_shape, TSR_FLOAT32, NULL, &b));
    tsr_tensor *shape_params[2] = {w, b};
    uint64_t versions[2] = {tsr_tensor_version(w), tsr_tensor_version(b)};
    CHECK_ERROR(tsr_state_load(dir, shape_params, model_names, 2, NULL), TSR_ERR_SHAPE,
                "parameter \"fc.weight\": the file holds shape [3, 4], the tensor has [4, 3]");
    check_untouched(shape_params, 2, versions);

    int64_t good_shape[2] = {3, 4};
    CHECK_OK(tsr_zeros(2, good_shape, TSR_FLOAT64, NULL, &w64));
    tsr_tensor *dtype_params[2] = {w64, b};
    CHECK_ERROR(tsr_state_load(dir, dtype_params, model_names, 2, NULL), TSR_ERR_DTYPE,
                "parameter \"fc.weight\": the file holds float32, the tensor is float64");
    check_untouched(&b, 1, &versions[1]);

    model other = {0};
    model_create(&other, 2, false);
    uint64_t other_versions[2] = {tsr_tensor_version(other.params[0]),
                                  tsr_tensor_version(other.params[1])};
    CHECK_ERROR(tsr_state_load(dir, other.params, model_names, 2, other.opt), TSR_ERR_VALUE,
                "the saved optimizer is adam, not sgd");
    check_untouched(other.params, 2, other_versions);
    const char *renamed[2] = {"fc.weight", "fc.b"};
    CHECK_ERROR(tsr_state_load(dir, other.params, renamed, 2, NULL), TSR_ERR_VALUE,
                "unexpected parameter \"fc.bias\"");
    CHECK_ERROR(tsr_state_load(dir, other.params, model_names, 1, NULL), TSR_ERR_VALUE,
                "unexpected parameter \"fc.bias\"");
    const char *bad_names[2] = {"fc weight", "b"};
    CHECK_ERROR(tsr_state_load(dir, other.params, bad_names, 2, NULL), TSR_ERR_INVALID_ARGUMENT,
                "without whitespace");
    CHECK_OK(tsr_state_load(dir, other.params, model_names, 2, NULL)); /* params only */
    CHECK_TRUE(same_values(other.params[0], a.params[0]));

    /* An index cut short (no "end") is refused. */
    char path[128];
    snprintf(path, sizeof path, "%s/index.txt", dir);
    FILE *f = fopen(path, "r+");
    if (f) {
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fclose(f);
        CHECK_TRUE(truncate(path, n - 4) == 0);
    }
    CHECK_ERROR(tsr_state_load(dir, other.params, model_names, 2, NULL), TSR_ERR_FORMAT,
                "before its \"end\" record");
    CHECK_ERROR(tsr_state_load("/nonexistent/tessera", other.params, model_names, 2, NULL),
                TSR_ERR_IO, "cannot open");

    model_destroy(&a);
    model_destroy(&other);
    tsr_tensor_release(w);
    tsr_tensor_release(b);
    tsr_tensor_release(w64);
    remove_tree(dir);
}

/* Writes `text` as dir's index.txt and loads it with no parameters. */
static int load_index(const char *dir, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/index.txt", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return TSR_ERR_IO;
    fputs(text, f);
    fclose(f);
    return tsr_state_load(dir, NULL, NULL, 0, NULL);
}

static void load_refuses_malformed_index_lines(void)
{
    char dir[64];
    make_temp_dir(dir, sizeof dir);
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w param0.npy float32 1 3\n"
                                "param w param1.npy float32 1 3\nend\n"),
                TSR_ERR_FORMAT, "index.txt:3: malformed param record: duplicate");
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w p.npy float32 1 99999999999999999999\n"
                                "end\n"),
                TSR_ERR_FORMAT, "index.txt:2: malformed param record");
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w p.npy float32 3 0 4611686018427387904 "
                                "4611686018427387904\nend\n"),
                TSR_ERR_FORMAT, "index.txt:2: malformed param record");
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w p.npy float32 1 3\n"
                                "optimizer sgd 1\nstep 0 1\nstep 0 2\nend\n"),
                TSR_ERR_FORMAT, "index.txt:5: malformed step record: duplicate");
    CHECK_ERROR(load_index(dir, "tessera-state 1\noptimizer sgd 4294967296\nend\n"),
                TSR_ERR_FORMAT, "index.txt:2: malformed optimizer record");
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w p.npy float32 1 3\n"
                                "optimizer sgd 1 extra\nend\n"),
                TSR_ERR_FORMAT, "index.txt:3: malformed optimizer record");
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w p.npy float32 1 3\n"
                                "optimizer sgd 1\noption lr 0.1 extra\nend\n"),
                TSR_ERR_FORMAT, "index.txt:4: malformed or unknown option");
    CHECK_ERROR(load_index(dir, "tessera-state 1\nparam w p.npy float32 1 3\n"
                                "optimizer sgd 1\nstep 0 1 2\nend\n"),
                TSR_ERR_FORMAT, "index.txt:4: malformed step record");
    remove_tree(dir);
}

int main(void)
{
    values = load_values();
    if (!values)
        return check_summary("test_optim");
    RUN_TEST(optimizer_steps_match_pytorch);
    RUN_TEST(step_updates_in_place_without_recording);
    RUN_TEST(step_skips_parameters_without_grad);
    RUN_TEST(zero_grad_zeroes_or_drops);
    RUN_TEST(options_are_checked_as_pytorch);
    RUN_TEST(parameters_must_be_distinct_floating_leaves);
    RUN_TEST(training_loop_converges);
    RUN_TEST(gains_and_fans_match_pytorch);
    RUN_TEST(bounds_match_pytorch);
    RUN_TEST(uniform_initialisers_stay_within_bounds);
    RUN_TEST(same_seed_gives_same_parameters);
    RUN_TEST(save_load_round_trips_adam_and_sgd);
    RUN_TEST(load_refuses_mismatches_by_name);
    RUN_TEST(load_refuses_malformed_index_lines);
    cJSON_Delete(values);
    return check_summary("test_optim");
}
