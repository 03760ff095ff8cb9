/* retain_grad on non-leaves and tensor hooks (register_hook / remove_hook),
 * with PyTorch's semantics. Expected gradients are derived in comments:
 * every loss is sum(c * y) seeded with ones, so d loss / d y = c. */
#include "check_autograd.h"

static tsr_tensor *mul(const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_mul(a, b, &out));
    return out;
}

/* backward of sum(c * y) with c given, i.e. y seeded with c */
static int backward_with(const tsr_tensor *y, const tsr_tensor *c, uint32_t flags)
{
    return tsr_backward(y, c, flags);
}

static void retain_grad_fills_a_non_leaf_and_accumulates(void)
{
    tsr_tensor *x = vec(3, (double[]){1, 2, 3}, true), *c = vec(3, (double[]){2, 3, 4}, false);
    tsr_tensor *y = mul(x, x); /* dy/dx = 2x */
    CHECK_TRUE(!tsr_tensor_is_leaf(y));
    CHECK_TRUE(!tsr_tensor_retains_grad(y));
    CHECK_OK(tsr_retain_grad(y));
    CHECK_OK(tsr_retain_grad(y)); /* twice is once */
    CHECK_TRUE(tsr_tensor_retains_grad(y));
    CHECK_OK(backward_with(y, c, TSR_GRAD_RETAIN_GRAPH));
    check_grad(y, (double[]){2, 3, 4}, 3);
    check_grad(x, (double[]){4, 12, 24}, 3); /* 2x * c */
    tsr_tensor *first = NULL;
    CHECK_OK(tsr_tensor_grad(y, &first));
    CHECK_OK(backward_with(y, c, 0));
    check_grad(y, (double[]){4, 6, 8}, 3);       /* c + c */
    check_values(first, (double[]){2, 3, 4}, 3); /* accumulated out of place */
    tsr_tensor_release(first);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void without_retain_grad_a_non_leaf_has_no_grad(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    tsr_tensor *y = mul(x, x);
    CHECK_OK(backward_with(y, c, 0));
    CHECK_TRUE(!has_grad(y));
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void retain_grad_on_leaves_and_plain_tensors(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *p = vec(2, (double[]){1, 2}, false);
    CHECK_OK(tsr_retain_grad(x)); /* a no-op: leaves get .grad anyway */
    CHECK_TRUE(!tsr_tensor_retains_grad(x));
    CHECK_ERROR(tsr_retain_grad(p), TSR_ERR_AUTOGRAD, "requires_grad=False");
    CHECK_ERROR(tsr_retain_grad(NULL), TSR_ERR_INVALID_ARGUMENT, "retain_grad");
    CHECK_TRUE(!tsr_tensor_retains_grad(NULL));
    tsr_tensor_release(x);
    tsr_tensor_release(p);
}

static void retain_grad_follows_an_inplace_op(void)
{
    /* y = 2x; y *= 3 (in place); loss = sum(c * y): y's retained grad is
     * that of the new value, c; x.grad = 6c */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 5}, false);
    tsr_tensor *y = NULL;
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(x), S(2), &y));
    CHECK_OK(tsr_retain_grad(y));
    CHECK_OK(tsr_binary_(TSR_OP_MUL, y, S(3)));
    CHECK_TRUE(tsr_tensor_retains_grad(y));
    CHECK_OK(backward_with(y, c, 0));
    check_grad(y, (double[]){1, 5}, 2);
    check_grad(x, (double[]){6, 30}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void autograd_grad_does_not_fill_retained_grads(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    tsr_tensor *y = mul(x, x), *gx = NULL;
    CHECK_OK(tsr_retain_grad(y));
    const tsr_tensor *outs[] = {y}, *ins[] = {x}, *gos[] = {c};
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, gos, 0, &gx));
    check_values(gx, (double[]){2, 4}, 2);
    CHECK_TRUE(!has_grad(y));
    CHECK_TRUE(!has_grad(x));
    tsr_tensor_release(gx);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

/* ---- hooks -------------------------------------------------------------- */

typedef struct probe {
    double scale, shift; /* the replacement is grad * scale + shift */
    bool keep;           /* return no replacement */
    tsr_status fail;     /* return this status */
    int calls;
    int order; /* the value of *clock when called */
    int *clock;
    double seen[4]; /* the gradient it received */
} probe;

static tsr_status probe_hook(void *user_data, const tsr_tensor *grad, tsr_tensor **replacement)
{
    probe *p = user_data;
    p->calls++;
    if (p->clock)
        p->order = ++*p->clock;
    int64_t n = tsr_tensor_numel(grad);
    if (n <= 4)
        CHECK_OK(tsr_to_host(grad, p->seen, (size_t)n * sizeof(double)));
    if (p->fail != TSR_OK)
        return p->fail;
    if (p->keep)
        return TSR_OK;
    tsr_tensor *scaled = NULL;
    tsr_status st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(grad), S(p->scale), &scaled);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(scaled), S(p->shift), replacement);
    tsr_tensor_release(scaled);
    return st;
}

static void hooks_on_a_leaf_run_in_order_before_accumulation(void)
{
    /* y = x * x, seed c: the incoming gradient is 2xc = {4, 12}; hooks a
     * then b give (g + 1) * 10 = {50, 130}; the other order would give 41,
     * 121 */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){2, 3}, false);
    int clock = 0;
    probe a = {.scale = 1, .shift = 1, .clock = &clock};
    probe b = {.scale = 10, .shift = 0, .clock = &clock};
    CHECK_OK(tsr_register_hook(x, probe_hook, &a, NULL));
    CHECK_OK(tsr_register_hook(x, probe_hook, &b, NULL));
    tsr_tensor *y = mul(x, x);
    CHECK_OK(backward_with(y, c, 0));
    CHECK_INT(a.order, 1);
    CHECK_INT(b.order, 2);
    CHECK_DOUBLE(a.seen[0], 4, 0);
    CHECK_DOUBLE(b.seen[1], 13, 0);
    check_grad(x, (double[]){50, 130}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void a_hook_on_a_non_leaf_changes_what_flows_on(void)
{
    /* y = x * x, z = 3y; seed c on z: y receives 3c = {3, 6}; the hook
     * doubles it to {6, 12}; x.grad = 2x * {6, 12} = {12, 48}; retained y.grad
     * sees the hooked value */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 2}, false);
    tsr_tensor *y = mul(x, x), *z = NULL;
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(y), S(3), &z));
    probe p = {.scale = 2};
    CHECK_OK(tsr_retain_grad(y));
    CHECK_OK(tsr_register_hook(y, probe_hook, &p, NULL));
    CHECK_OK(backward_with(z, c, 0));
    CHECK_INT(p.calls, 1);
    CHECK_DOUBLE(p.seen[0], 3, 0);
    CHECK_DOUBLE(p.seen[1], 6, 0);
    check_grad(y, (double[]){6, 12}, 2);
    check_grad(x, (double[]){12, 48}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
}

static void removed_hooks_do_not_run(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    probe p = {.scale = 100};
    tsr_hook_handle *h = NULL;
    CHECK_OK(tsr_register_hook(x, probe_hook, &p, &h));
    CHECK_TRUE(h != NULL);
    tsr_remove_hook(h);
    tsr_remove_hook(NULL);
    tsr_tensor *y = mul(x, x);
    CHECK_OK(backward_with(y, c, 0));
    CHECK_INT(p.calls, 0);
    check_grad(x, (double[]){2, 4}, 2);
    /* a handle outliving its tensor is still removable */
    tsr_tensor *w = vec(1, (double[]){1}, true);
    CHECK_OK(tsr_register_hook(w, probe_hook, &p, &h));
    tsr_tensor_release(w);
    tsr_remove_hook(h);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void hooks_run_only_where_a_gradient_flows(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    tsr_tensor *y = mul(x, x), *z = NULL;
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(x), S(3), &z));
    probe p = {.keep = true};
    CHECK_OK(tsr_register_hook(y, probe_hook, &p, NULL));
    CHECK_OK(backward_with(z, c, 0)); /* z does not depend on y */
    CHECK_INT(p.calls, 0);
    check_grad(x, (double[]){3, 3}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
}

static void hook_errors_abort_backward(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    tsr_tensor *y = mul(x, x);
    probe bad = {.fail = TSR_ERR_INVALID_ARGUMENT};
    tsr_hook_handle *h = NULL;
    CHECK_OK(tsr_register_hook(x, probe_hook, &bad, &h));
    CHECK_ERROR(backward_with(y, c, TSR_GRAD_RETAIN_GRAPH), TSR_ERR_INVALID_ARGUMENT,
                "a hook on the gradient of AccumulateGrad's output 0 failed");
    CHECK_TRUE(!has_grad(x)); /* nothing was accumulated */
    tsr_remove_hook(h);
    /* the graph was kept; without the failing hook the same walk works */
    probe keep = {.keep = true};
    CHECK_OK(tsr_register_hook(y, probe_hook, &keep, NULL));
    CHECK_OK(backward_with(y, c, 0));
    CHECK_INT(keep.calls, 1);
    check_grad(x, (double[]){2, 4}, 2);
    tsr_tensor *one = vec(1, (double[]){1}, false);
    CHECK_ERROR(tsr_register_hook(one, probe_hook, &keep, NULL), TSR_ERR_AUTOGRAD,
                "doesn't require gradient");
    CHECK_ERROR(tsr_register_hook(NULL, probe_hook, &keep, NULL), TSR_ERR_INVALID_ARGUMENT,
                "register_hook");
    tsr_tensor_release(one);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static tsr_status shape_changing_hook(void *user_data, const tsr_tensor *grad,
                                      tsr_tensor **replacement)
{
    (void)user_data;
    return tsr_narrow(grad, 0, 0, 1, replacement);
}

static void a_hook_may_not_change_the_shape(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    tsr_tensor *y = mul(x, x);
    CHECK_OK(tsr_register_hook(y, shape_changing_hook, NULL, NULL));
    CHECK_ERROR(backward_with(y, c, 0), TSR_ERR_AUTOGRAD, "differs from the gradient's");
    CHECK_TRUE(!has_grad(x));
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void hooks_apply_to_autograd_grad(void)
{
    /* d(sum(x*x))/dx = 2x = {2, 4}; the leaf's hook adds 1 */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){1, 1}, false);
    tsr_tensor *y = mul(x, x), *gx = NULL;
    probe p = {.scale = 1, .shift = 1};
    CHECK_OK(tsr_register_hook(x, probe_hook, &p, NULL));
    const tsr_tensor *outs[] = {y}, *ins[] = {x}, *gos[] = {c};
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, gos, 0, &gx));
    check_values(gx, (double[]){3, 5}, 2);
    CHECK_TRUE(!has_grad(x));
    tsr_tensor_release(gx);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

int main(void)
{
    RUN_TEST(retain_grad_fills_a_non_leaf_and_accumulates);
    RUN_TEST(without_retain_grad_a_non_leaf_has_no_grad);
    RUN_TEST(retain_grad_on_leaves_and_plain_tensors);
    RUN_TEST(retain_grad_follows_an_inplace_op);
    RUN_TEST(autograd_grad_does_not_fill_retained_grads);
    RUN_TEST(hooks_on_a_leaf_run_in_order_before_accumulation);
    RUN_TEST(a_hook_on_a_non_leaf_changes_what_flows_on);
    RUN_TEST(removed_hooks_do_not_run);
    RUN_TEST(hooks_run_only_where_a_gradient_flows);
    RUN_TEST(hook_errors_abort_backward);
    RUN_TEST(a_hook_may_not_change_the_shape);
    RUN_TEST(hooks_apply_to_autograd_grad);
    return check_summary("test_autograd_hooks");
}
