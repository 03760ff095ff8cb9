/* Autograd: the graph, accumulation into leaves, grad mode, detach,
 * autograd_grad and double backward. */
#include "check.h"

#include <pthread.h>

static tsr_tensor *tensor_of(tsr_dtype dtype, int ndim, const int64_t *shape, const double *v,
                             bool requires_grad)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *wide = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(v, (size_t)n * sizeof *v, ndim, shape, TSR_FLOAT64, NULL, &wide));
    CHECK_OK(tsr_to_dtype(wide, dtype, &t));
    tsr_tensor_release(wide);
    if (requires_grad)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static tsr_tensor *vec(int64_t n, const double *v, bool requires_grad)
{
    return tensor_of(TSR_FLOAT64, 1, &n, v, requires_grad);
}

static tsr_tensor *scalar(double v, bool requires_grad)
{
    return tensor_of(TSR_FLOAT64, 0, NULL, &v, requires_grad);
}

/* Compares a tensor's values (any floating dtype) with expected ones. */
static void check_values(const tsr_tensor *t, const double *expected, int64_t n, double tol)
{
    CHECK_TRUE(t != NULL);
    if (!t)
        return;
    CHECK_INT(tsr_tensor_numel(t), n);
    double got[64];
    tsr_tensor *wide = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &wide));
    if (n > 64 || !wide || tsr_to_host(wide, got, (size_t)n * sizeof *got) != TSR_OK) {
        CHECK_TRUE(!"readable tensor");
        tsr_tensor_release(wide);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], tol);
    tsr_tensor_release(wide);
}

static void check_grad(const tsr_tensor *leaf, const double *expected, int64_t n)
{
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(leaf, &g));
    check_values(g, expected, n, 1e-12);
    tsr_tensor_release(g);
}

static tsr_tensor *sum_all(const tsr_tensor *t)
{
    /* the reductions family may not exist yet: sum with a dot against ones */
    tsr_tensor *flat = NULL, *out = NULL;
    CHECK_OK(tsr_reshape(t, 1, (int64_t[]){-1}, &flat));
    int64_t n = tsr_tensor_numel(flat);
    tsr_tensor *acc = NULL;
    CHECK_OK(tsr_narrow(flat, 0, 0, 1, &acc));
    for (int64_t i = 1; i < n; i++) {
        tsr_tensor *e = NULL, *s = NULL;
        CHECK_OK(tsr_narrow(flat, 0, i, 1, &e));
        CHECK_OK(tsr_add(acc, e, &s));
        tsr_tensor_release(e);
        tsr_tensor_release(acc);
        acc = s;
    }
    CHECK_OK(tsr_reshape(acc, 0, NULL, &out));
    tsr_tensor_release(acc);
    tsr_tensor_release(flat);
    return out;
}

static void requires_grad_only_for_floating_tensors(void)
{
    tsr_tensor *i = NULL;
    CHECK_OK(tsr_zeros(1, (int64_t[]){3}, TSR_INT64, NULL, &i));
    CHECK_ERROR(tsr_tensor_set_requires_grad(i, true), TSR_ERR_DTYPE, "floating point");
    CHECK_TRUE(!tsr_tensor_requires_grad(i));
    CHECK_OK(tsr_tensor_set_requires_grad(i, false));
    tsr_tensor_release(i);
}

static void leaves_and_grad_fn_names(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){3, 4}, false);
    tsr_tensor *y = NULL, *z = NULL;
    CHECK_OK(tsr_mul(x, c, &y));
    CHECK_OK(tsr_add(c, c, &z));
    CHECK_TRUE(tsr_tensor_is_leaf(x));
    CHECK_TRUE(tsr_tensor_requires_grad(x));
    CHECK_TRUE(!tsr_tensor_is_leaf(y));
    CHECK_TRUE(tsr_tensor_requires_grad(y));
    CHECK_STR(tsr_tensor_grad_fn_name(y), "mul");
    CHECK_TRUE(tsr_tensor_grad_fn_name(x) == NULL);
    CHECK_TRUE(tsr_tensor_is_leaf(z)); /* no input requires grad: no node */
    CHECK_TRUE(!tsr_tensor_requires_grad(z));
    CHECK_ERROR(tsr_tensor_set_requires_grad(y, false), TSR_ERR_AUTOGRAD, "leaf");
    tsr_tensor *eq = NULL;
    CHECK_OK(tsr_binary(TSR_OP_EQ, tsr_operand_tensor(x), tsr_operand_tensor(c), &eq));
    CHECK_TRUE(!tsr_tensor_requires_grad(eq)); /* bool results are not differentiable */
    tsr_tensor_release(eq);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
}

static void backward_accumulates_into_leaves(void)
{
    tsr_tensor *x = vec(3, (double[]){1, 2, 3}, true), *y = NULL, *loss = NULL;
    CHECK_OK(tsr_mul(x, x, &y)); /* d/dx sum(x*x) = 2x */
    loss = sum_all(y);
    CHECK_OK(tsr_backward(loss, NULL, TSR_GRAD_RETAIN_GRAPH));
    check_grad(x, (double[]){2, 4, 6}, 3);
    CHECK_OK(tsr_backward(loss, NULL, 0)); /* adds to the existing .grad */
    check_grad(x, (double[]){4, 8, 12}, 3);
    CHECK_OK(tsr_tensor_zero_grad(x));
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(x, &g));
    CHECK_TRUE(g == NULL);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(loss);
}

static void a_leaf_used_twice_gets_the_sum(void)
{
    /* z = x * w + x  with x shared: dz/dx = w + 1 */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *w = vec(2, (double[]){5, 7}, true);
    tsr_tensor *xw = NULL, *z = NULL;
    CHECK_OK(tsr_mul(x, w, &xw));
    CHECK_OK(tsr_add(xw, x, &z));
    tsr_tensor *ones = vec(2, (double[]){1, 1}, false);
    CHECK_OK(tsr_backward(z, ones, 0));
    tsr_tensor_release(ones);
    check_grad(x, (double[]){6, 8}, 2);
    check_grad(w, (double[]){1, 2}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(xw);
    tsr_tensor_release(z);
}

static void backward_needs_a_gradient_for_non_scalar_outputs(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL;
    CHECK_OK(tsr_unary(TSR_OP_EXP, x, &y));
    CHECK_ERROR(tsr_backward(y, NULL, 0), TSR_ERR_AUTOGRAD, "only for outputs with one element");
    tsr_tensor *bad = vec(3, (double[]){1, 1, 1}, false);
    CHECK_ERROR(tsr_backward(y, bad, 0), TSR_ERR_SHAPE, "mismatch in shape");
    tsr_tensor *g = vec(2, (double[]){1, 10}, false);
    CHECK_OK(tsr_backward(y, g, 0));
    check_grad(x, (double[]){exp(1), 10 * exp(2)}, 2);
    tsr_tensor *c = vec(2, (double[]){1, 2}, false);
    CHECK_ERROR(tsr_backward(c, g, 0), TSR_ERR_AUTOGRAD, "does not require grad");
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(bad);
    tsr_tensor_release(g);
    tsr_tensor_release(c);
}

static void broadcast_gradients_sum_to_the_input_shape(void)
{
    int64_t s23[2] = {2, 3}, s1[2] = {1, 3};
    tsr_tensor *a = tensor_of(TSR_FLOAT64, 2, s23, (double[]){1, 2, 3, 4, 5, 6}, true);
    tsr_tensor *b = tensor_of(TSR_FLOAT64, 2, s1, (double[]){10, 20, 30}, true);
    tsr_tensor *s = scalar(2, true), *ab = NULL, *y = NULL;
    CHECK_OK(tsr_mul(a, b, &ab));
    CHECK_OK(tsr_mul(ab, s, &y));
    tsr_tensor *loss = sum_all(y);
    CHECK_OK(tsr_backward(loss, NULL, 0));
    check_grad(a, (double[]){20, 40, 60, 20, 40, 60}, 6);
    check_grad(b, (double[]){10, 14, 18}, 3);
    check_grad(s, (double[]){1 * 10 + 2 * 20 + 3 * 30 + 4 * 10 + 5 * 20 + 6 * 30}, 1);
    tsr_tensor *gb = NULL;
    CHECK_OK(tsr_tensor_grad(b, &gb));
    CHECK_INT(tsr_tensor_ndim(gb), 2);
    CHECK_INT(tsr_tensor_shape(gb)[0], 1);
    tsr_tensor_release(gb);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(s);
    tsr_tensor_release(ab);
    tsr_tensor_release(y);
    tsr_tensor_release(loss);
}

static void gradient_dtype_follows_the_input(void)
{
    int64_t n = 2;
    tsr_tensor *a = tensor_of(TSR_FLOAT32, 1, &n, (double[]){1, 2}, true);
    tsr_tensor *b = tensor_of(TSR_FLOAT64, 1, &n, (double[]){3, 4}, true);
    tsr_tensor *y = NULL, *h = NULL, *hy = NULL;
    CHECK_OK(tsr_mul(a, b, &y));
    CHECK_INT(tsr_tensor_dtype(y), TSR_FLOAT64);
    CHECK_OK(tsr_to_dtype(a, TSR_FLOAT16, &h));
    CHECK_OK(tsr_add(y, h, &hy));
    tsr_tensor *ones = vec(2, (double[]){1, 1}, false);
    CHECK_OK(tsr_backward(hy, ones, 0));
    tsr_tensor_release(ones);
    tsr_tensor *ga = NULL, *gb = NULL;
    CHECK_OK(tsr_tensor_grad(a, &ga));
    CHECK_OK(tsr_tensor_grad(b, &gb));
    CHECK_INT(tsr_tensor_dtype(ga), TSR_FLOAT32);
    CHECK_INT(tsr_tensor_dtype(gb), TSR_FLOAT64);
    check_values(ga, (double[]){4, 5}, 2, 0);
    check_values(gb, (double[]){1, 2}, 2, 0);
    tsr_tensor_release(ga);
    tsr_tensor_release(gb);
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(y);
    tsr_tensor_release(h);
    tsr_tensor_release(hy);
}

static void *grad_mode_in_new_thread(void *arg)
{
    *(bool *)arg = tsr_grad_mode_enabled();
    return NULL;
}

static void no_grad_mode_records_nothing_and_is_per_thread(void)
{
    CHECK_TRUE(tsr_grad_mode_enabled());
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL;
    bool previous = tsr_grad_mode_set(false);
    CHECK_TRUE(previous);
    CHECK_TRUE(!tsr_grad_mode_enabled());
    CHECK_OK(tsr_mul(x, x, &y));
    CHECK_TRUE(!tsr_tensor_requires_grad(y));
    CHECK_TRUE(tsr_tensor_is_leaf(y));
    bool other = false;
    pthread_t thread;
    CHECK_INT(pthread_create(&thread, NULL, grad_mode_in_new_thread, &other), 0);
    pthread_join(thread, NULL);
    CHECK_TRUE(other); /* another thread still records */
    CHECK_TRUE(!tsr_grad_mode_set(previous));
    CHECK_TRUE(tsr_grad_mode_enabled());
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void detach_shares_storage_and_cuts_history(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL, *d = NULL;
    CHECK_OK(tsr_mul(x, x, &y));
    CHECK_OK(tsr_detach(y, &d));
    CHECK_TRUE(!tsr_tensor_requires_grad(d));
    CHECK_TRUE(tsr_tensor_is_leaf(d));
    CHECK_TRUE(tsr_tensor_shares_storage(d, y));
    uint64_t before = tsr_tensor_version(y);
    CHECK_OK(tsr_add_(d, tsr_operand_scalar(tsr_scalar_int(1)), tsr_scalar_int(1)));
    CHECK_INT(tsr_tensor_version(y), before + 1); /* one version counter */
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(d);
}

static void autograd_grad_leaves_grad_untouched(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *w = vec(2, (double[]){3, 4}, true);
    tsr_tensor *y = NULL, *u = vec(2, (double[]){9, 9}, true);
    CHECK_OK(tsr_mul(x, w, &y));
    const tsr_tensor *outs[1] = {y}, *ins[2] = {x, w}, *seeds[1] = {NULL};
    tsr_tensor *results[2] = {NULL, NULL};
    tsr_tensor *g = vec(2, (double[]){1, 1}, false);
    seeds[0] = g;
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 2, seeds, TSR_GRAD_RETAIN_GRAPH, results));
    check_values(results[0], (double[]){3, 4}, 2, 0);
    check_values(results[1], (double[]){1, 2}, 2, 0);
    tsr_tensor *gx = NULL;
    CHECK_OK(tsr_tensor_grad(x, &gx));
    CHECK_TRUE(gx == NULL);
    tsr_tensor_release(results[0]);
    tsr_tensor_release(results[1]);
    /* an input the output does not depend on */
    const tsr_tensor *with_unused[2] = {x, u};
    results[0] = results[1] = NULL;
    CHECK_ERROR(tsr_autograd_grad(outs, 1, with_unused, 2, seeds, TSR_GRAD_RETAIN_GRAPH, results),
                TSR_ERR_AUTOGRAD, "not to have been used");
    CHECK_TRUE(results[0] == NULL);
    CHECK_OK(tsr_autograd_grad(outs, 1, with_unused, 2, seeds,
                               TSR_GRAD_RETAIN_GRAPH | TSR_GRAD_ALLOW_UNUSED, results));
    check_values(results[0], (double[]){3, 4}, 2, 0);
    CHECK_TRUE(results[1] == NULL);
    tsr_tensor_release(results[0]);
    const tsr_tensor *constant[1] = {g};
    CHECK_ERROR(tsr_autograd_grad(outs, 1, constant, 1, seeds, 0, results), TSR_ERR_AUTOGRAD,
                "does not require grad");
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(u);
    tsr_tensor_release(y);
    tsr_tensor_release(g);
}

static void autograd_grad_of_an_intermediate(void)
{
    /* y = exp(x); z = y * y: dz/dy = 2y, read at y's node */
    tsr_tensor *x = vec(2, (double[]){0, 1}, true), *y = NULL, *z = NULL;
    CHECK_OK(tsr_unary(TSR_OP_EXP, x, &y));
    CHECK_OK(tsr_mul(y, y, &z));
    tsr_tensor *seed = vec(2, (double[]){1, 1}, false);
    const tsr_tensor *outs[1] = {z}, *ins[2] = {y, x}, *seeds[1] = {seed};
    tsr_tensor *r[2] = {NULL, NULL};
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 2, seeds, 0, r));
    check_values(r[0], (double[]){2, 2 * exp(1)}, 2, 1e-12);
    check_values(r[1], (double[]){2, 2 * exp(2)}, 2, 1e-12);
    tsr_tensor_release(r[0]);
    tsr_tensor_release(r[1]);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
    tsr_tensor_release(seed);
}

static void backward_twice_without_retain_graph_fails(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL;
    CHECK_OK(tsr_mul(x, x, &y));
    tsr_tensor *loss = sum_all(y);
    CHECK_OK(tsr_backward(loss, NULL, 0));
    CHECK_ERROR(tsr_backward(loss, NULL, 0), TSR_ERR_AUTOGRAD, "a second time");
    check_grad(x, (double[]){2, 4}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(loss);
}

static void nodes_that_save_nothing_can_run_twice(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL;
    CHECK_OK(
        tsr_binary(TSR_OP_ADD, tsr_operand_tensor(x), tsr_operand_scalar(tsr_scalar_int(3)), &y));
    tsr_tensor *ones = vec(2, (double[]){1, 1}, false);
    CHECK_OK(tsr_backward(y, ones, 0));
    CHECK_OK(tsr_backward(y, ones, 0)); /* as PyTorch: add keeps no tensors */
    check_grad(x, (double[]){2, 2}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(ones);
}

static void backward_twice_with_retain_graph_works(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL;
    CHECK_OK(tsr_unary(TSR_OP_TANH, x, &y));
    tsr_tensor *loss = sum_all(y);
    CHECK_OK(tsr_backward(loss, NULL, true)); /* the bool of the PyTorch call */
    CHECK_OK(tsr_backward(loss, NULL, false));
    double d1 = 1 - tanh(1) * tanh(1), d2 = 1 - tanh(2) * tanh(2);
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(x, &g));
    check_values(g, (double[]){2 * d1, 2 * d2}, 2, 1e-12);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(loss);
}

static void double_backward_of_tanh(void)
{
    tsr_tensor *x = vec(3, (double[]){-0.5, 0.25, 1.5}, true), *y = NULL;
    CHECK_OK(tsr_unary(TSR_OP_TANH, x, &y));
    tsr_tensor *seed = vec(3, (double[]){1, 1, 1}, false);
    const tsr_tensor *outs[1] = {y}, *ins[1] = {x}, *seeds[1] = {seed};
    tsr_tensor *dy = NULL;
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, seeds, TSR_GRAD_CREATE_GRAPH, &dy));
    CHECK_TRUE(tsr_tensor_requires_grad(dy));
    tsr_tensor *loss = sum_all(dy);
    CHECK_OK(tsr_backward(loss, NULL, 0));
    double expected[3];
    const double xs[3] = {-0.5, 0.25, 1.5};
    for (int i = 0; i < 3; i++) {
        double t = tanh(xs[i]);
        expected[i] = -2 * t * (1 - t * t);
    }
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(x, &g));
    check_values(g, expected, 3, 1e-12);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(seed);
    tsr_tensor_release(dy);
    tsr_tensor_release(loss);
}

static void double_backward_of_mul(void)
{
    /* d/da (a*b) = b; d/db of sum(v * b) = v */
    tsr_tensor *a = vec(2, (double[]){1, 2}, true), *b = vec(2, (double[]){3, 5}, true);
    tsr_tensor *y = NULL, *v = vec(2, (double[]){7, 11}, false);
    CHECK_OK(tsr_mul(a, b, &y));
    const tsr_tensor *outs[1] = {y}, *ins[1] = {a}, *seeds[1] = {v};
    tsr_tensor *da = NULL;
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, seeds, TSR_GRAD_CREATE_GRAPH, &da));
    check_values(da, (double[]){21, 55}, 2, 0);
    tsr_tensor *loss = sum_all(da);
    CHECK_OK(tsr_backward(loss, NULL, 0));
    check_grad(b, (double[]){7, 11}, 2);
    tsr_tensor *ga = NULL;
    CHECK_OK(tsr_tensor_grad(a, &ga));
    CHECK_TRUE(ga == NULL); /* da does not depend on a */
    tsr_tensor_release(a);
    tsr_tensor_release(b);
    tsr_tensor_release(y);
    tsr_tensor_release(v);
    tsr_tensor_release(da);
    tsr_tensor_release(loss);
}

static void backward_with_create_graph_keeps_a_graph_in_grad(void)
{
    tsr_tensor *x = scalar(3, true), *y = NULL, *xy = NULL;
    CHECK_OK(tsr_mul(x, x, &xy));
    CHECK_OK(tsr_mul(xy, x, &y)); /* x^3 */
    CHECK_OK(tsr_backward(y, NULL, TSR_GRAD_CREATE_GRAPH));
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(x, &g)); /* 3x^2 = 27, with history */
    check_values(g, (double[]){27}, 1, 1e-12);
    CHECK_TRUE(tsr_tensor_requires_grad(g));
    const tsr_tensor *outs[1] = {g}, *ins[1] = {x};
    tsr_tensor *gg = NULL;
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, NULL, 0, &gg));
    check_values(gg, (double[]){18}, 1, 1e-12); /* 6x */
    /* .grad holds a graph that reaches x: drop it to break the cycle */
    CHECK_OK(tsr_tensor_zero_grad(x));
    tsr_tensor_release(g);
    tsr_tensor_release(gg);
    tsr_tensor_release(x);
    tsr_tensor_release(xy);
    tsr_tensor_release(y);
}

static void long_chains_are_released_without_recursion(void)
{
    tsr_tensor *x = scalar(1, true), *cur = NULL;
    tsr_tensor_retain(x);
    cur = x;
    for (int i = 0; i < 20000; i++) {
        tsr_tensor *next = NULL;
        CHECK_OK(tsr_unary(TSR_OP_NEG, cur, &next));
        tsr_tensor_release(cur);
        cur = next;
    }
    CHECK_OK(tsr_backward(cur, NULL, 0));
    check_grad(x, (double[]){1}, 1);
    tsr_tensor_release(cur); /* frees 20000 nodes */
    tsr_tensor_release(x);
}

static void views_propagate_gradients(void)
{
    int64_t shape[2] = {2, 3};
    tsr_tensor *x = tensor_of(TSR_FLOAT64, 2, shape, (double[]){1, 2, 3, 4, 5, 6}, true);
    tsr_tensor *t = NULL, *s = NULL, *e = NULL;
    CHECK_OK(tsr_transpose(x, 0, 1, &t));   /* [3, 2] */
    CHECK_OK(tsr_slice(t, 0, 1, 3, 1, &s)); /* rows 1..2: [2, 2] */
    CHECK_OK(tsr_expand(s, 3, (int64_t[]){2, 2, 2}, &e));
    CHECK_STR(tsr_tensor_grad_fn_name(e), "expand");
    tsr_tensor *loss = sum_all(e);
    CHECK_OK(tsr_backward(loss, NULL, 0));
    check_grad(x, (double[]){0, 2, 2, 0, 2, 2}, 6);
    tsr_tensor_release(x);
    tsr_tensor_release(t);
    tsr_tensor_release(s);
    tsr_tensor_release(e);
    tsr_tensor_release(loss);
}

static void backward_of_a_leaf_accumulates_the_seed(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *seed = vec(2, (double[]){3, 4}, false);
    CHECK_OK(tsr_backward(x, seed, 0));
    check_grad(x, (double[]){3, 4}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(seed);
}

static void autograd_grad_sums_over_several_outputs(void)
{
    /* y1 = x * x, y2 = exp(x): d(sum y1 + 2 sum y2)/dx = 2x + 2 exp(x) */
    tsr_tensor *x = vec(2, (double[]){0, 1}, true), *y1 = NULL, *y2 = NULL;
    CHECK_OK(tsr_mul(x, x, &y1));
    CHECK_OK(tsr_unary(TSR_OP_EXP, x, &y2));
    tsr_tensor *ones = vec(2, (double[]){1, 1}, false), *twos = vec(2, (double[]){2, 2}, false);
    const tsr_tensor *outs[2] = {y1, y2}, *ins[1] = {x}, *seeds[2] = {ones, twos};
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_autograd_grad(outs, 2, ins, 1, seeds, 0, &g));
    check_values(g, (double[]){2, 2 + 2 * exp(1)}, 2, 1e-12);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
    tsr_tensor_release(y1);
    tsr_tensor_release(y2);
    tsr_tensor_release(ones);
    tsr_tensor_release(twos);
}

/* torch.autograd.grad(x, x, g) is g: the output is the input leaf itself,
 * whose accumulator no op has created yet. */
static void autograd_grad_of_a_leaf_with_respect_to_itself_is_the_incoming_gradient(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *g = vec(2, (double[]){3, 4}, false);
    tsr_tensor *u = vec(2, (double[]){5, 6}, true), *r[2] = {NULL, NULL};
    const tsr_tensor *outs[1] = {x}, *ins[2] = {x, u}, *seeds[1] = {g};
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, seeds, 0, r));
    check_values(r[0], (double[]){3, 4}, 2, 0);
    tsr_tensor_release(r[0]);
    r[0] = NULL;
    tsr_tensor *gx = NULL;
    CHECK_OK(tsr_tensor_grad(x, &gx));
    CHECK_TRUE(gx == NULL);
    /* twice: the accumulator made for the first call is gone or reused */
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, seeds, 0, r));
    check_values(r[0], (double[]){3, 4}, 2, 0);
    tsr_tensor_release(r[0]);
    r[0] = NULL;
    /* a scalar leaf with no gradient given gets ones */
    tsr_tensor *s = scalar(7, true), *gs = NULL;
    const tsr_tensor *souts[1] = {s};
    CHECK_OK(tsr_autograd_grad(souts, 1, souts, 1, NULL, 0, &gs));
    check_values(gs, (double[]){1}, 1, 0);
    tsr_tensor_release(gs);
    /* another leaf, unused, is still reported */
    CHECK_ERROR(tsr_autograd_grad(outs, 1, ins, 2, seeds, 0, r), TSR_ERR_AUTOGRAD,
                "not to have been used");
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 2, seeds, TSR_GRAD_ALLOW_UNUSED, r));
    check_values(r[0], (double[]){3, 4}, 2, 0);
    CHECK_TRUE(r[1] == NULL);
    tsr_tensor_release(r[0]);
    tsr_tensor_release(x);
    tsr_tensor_release(u);
    tsr_tensor_release(g);
    tsr_tensor_release(s);
}

/* An identity of the leaf passes g on too: a same-shape view (ViewBackward in
 * torch) and dropout with p = 0, which returns the input itself. */
static void autograd_grad_through_an_identity_of_a_leaf_is_the_incoming_gradient(void)
{
    tsr_tensor *x = vec(3, (double[]){1, 2, 3}, true), *g = vec(3, (double[]){4, 5, 6}, false);
    tsr_tensor *v = NULL, *d = NULL, *r = NULL;
    CHECK_OK(tsr_view(x, 1, (int64_t[]){3}, &v));
    const tsr_tensor *ins[1] = {x}, *seeds[1] = {g}, *vouts[1] = {v};
    CHECK_OK(tsr_autograd_grad(vouts, 1, ins, 1, seeds, 0, &r));
    check_values(r, (double[]){4, 5, 6}, 3, 0);
    tsr_tensor_release(r);
    CHECK_OK(tsr_dropout(x, 0.0, true, NULL, &d));
    CHECK_TRUE(d == x);
    const tsr_tensor *douts[1] = {d};
    CHECK_OK(tsr_autograd_grad(douts, 1, ins, 1, seeds, 0, &r));
    check_values(r, (double[]){4, 5, 6}, 3, 0);
    tsr_tensor_release(r);
    tsr_tensor_release(d);
    CHECK_OK(tsr_dropout(x, 0.5, false, NULL, &d));
    douts[0] = d;
    CHECK_OK(tsr_autograd_grad(douts, 1, ins, 1, seeds, 0, &r));
    check_values(r, (double[]){4, 5, 6}, 3, 0);
    tsr_tensor_release(r);
    tsr_tensor_release(d);
    tsr_tensor_release(v);
    tsr_tensor_release(x);
    tsr_tensor_release(g);
}

/* A tiny regression fitted by gradient descent: every step's graph must be
 * freed (the sanitizer build checks for leaks) and the loss must fall. */
static void training_steps_reduce_the_loss(void)
{
    int64_t n = 4;
    tsr_tensor *x = vec(n, (double[]){-1, -0.5, 0.5, 1}, false);
    tsr_tensor *target = vec(n, (double[]){-0.6, -0.3, 0.3, 0.6}, false);
    tsr_tensor *w = scalar(0.1, true), *b = scalar(0.2, true);
    double first = 0, last = 0;
    for (int step = 0; step < 200; step++) {
        tsr_tensor *xw = NULL, *z = NULL, *y = NULL, *d = NULL, *d2 = NULL;
        CHECK_OK(tsr_mul(x, w, &xw));
        CHECK_OK(tsr_add(xw, b, &z));
        CHECK_OK(tsr_unary(TSR_OP_TANH, z, &y));
        CHECK_OK(tsr_sub(y, target, &d));
        CHECK_OK(tsr_mul(d, d, &d2));
        tsr_tensor *loss = sum_all(d2);
        double value = 0;
        CHECK_OK(tsr_to_host(loss, &value, sizeof value));
        if (step == 0)
            first = value;
        last = value;
        CHECK_OK(tsr_backward(loss, NULL, 0));
        bool previous = tsr_grad_mode_set(false);
        tsr_tensor *params[2] = {w, b};
        for (int i = 0; i < 2; i++) {
            tsr_tensor *g = NULL;
            CHECK_OK(tsr_tensor_grad(params[i], &g));
            CHECK_OK(tsr_sub_(params[i], tsr_operand_tensor(g), tsr_scalar_float(0.1)));
            CHECK_OK(tsr_tensor_zero_grad(params[i]));
            tsr_tensor_release(g);
        }
        tsr_grad_mode_set(previous);
        tsr_tensor *temps[6] = {xw, z, y, d, d2, loss};
        for (int i = 0; i < 6; i++)
            tsr_tensor_release(temps[i]);
    }
    CHECK_TRUE(last < first / 10);
    tsr_tensor_release(x);
    tsr_tensor_release(target);
    tsr_tensor_release(w);
    tsr_tensor_release(b);
}

static void set_grad_checks_shape_and_dtype(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *g = vec(3, (double[]){1, 2, 3}, false);
    CHECK_ERROR(tsr_tensor_set_grad(x, g), TSR_ERR_SHAPE, "shape");
    tsr_tensor *ok = vec(2, (double[]){5, 6}, false);
    CHECK_OK(tsr_tensor_set_grad(x, ok));
    check_grad(x, (double[]){5, 6}, 2);
    CHECK_OK(tsr_tensor_set_grad(x, NULL));
    tsr_tensor_release(x);
    tsr_tensor_release(g);
    tsr_tensor_release(ok);
}

int main(void)
{
    RUN_TEST(requires_grad_only_for_floating_tensors);
    RUN_TEST(leaves_and_grad_fn_names);
    RUN_TEST(backward_accumulates_into_leaves);
    RUN_TEST(a_leaf_used_twice_gets_the_sum);
    RUN_TEST(backward_needs_a_gradient_for_non_scalar_outputs);
    RUN_TEST(broadcast_gradients_sum_to_the_input_shape);
    RUN_TEST(gradient_dtype_follows_the_input);
    RUN_TEST(no_grad_mode_records_nothing_and_is_per_thread);
    RUN_TEST(detach_shares_storage_and_cuts_history);
    RUN_TEST(autograd_grad_leaves_grad_untouched);
    RUN_TEST(autograd_grad_of_an_intermediate);
    RUN_TEST(backward_twice_without_retain_graph_fails);
    RUN_TEST(nodes_that_save_nothing_can_run_twice);
    RUN_TEST(backward_twice_with_retain_graph_works);
    RUN_TEST(double_backward_of_tanh);
    RUN_TEST(double_backward_of_mul);
    RUN_TEST(backward_with_create_graph_keeps_a_graph_in_grad);
    RUN_TEST(long_chains_are_released_without_recursion);
    RUN_TEST(views_propagate_gradients);
    RUN_TEST(backward_of_a_leaf_accumulates_the_seed);
    RUN_TEST(autograd_grad_sums_over_several_outputs);
    RUN_TEST(autograd_grad_of_a_leaf_with_respect_to_itself_is_the_incoming_gradient);
    RUN_TEST(autograd_grad_through_an_identity_of_a_leaf_is_the_incoming_gradient);
    RUN_TEST(training_steps_reduce_the_loss);
    RUN_TEST(set_grad_checks_shape_and_dtype);
    return check_summary("test_autograd");
}
