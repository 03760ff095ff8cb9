/* In-place ops on views of tensors with history (PyTorch's CopySlices) and
 * views whose base changed after they were taken (regenerated grad_fn).
 * Every loss is sum(c * x), seeded with c; the expected gradients are
 * derived in comments, and gradcheck covers a mixed chain. */
#include "check_autograd.h"

static tsr_tensor *narrow(const tsr_tensor *t, int64_t start, int64_t length)
{
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_narrow(t, 0, start, length, &out));
    return out;
}

static tsr_tensor *clone(const tsr_tensor *t)
{
    tsr_tensor *out = NULL;
    CHECK_OK(tsr_clone(t, &out));
    return out;
}

static const double C4[4] = {1, 10, 100, 1000};

static void inplace_on_a_slice_of_a_clone(void)
{
    /* x = a.clone(); x[1:3] *= 2: x = (1, 4, 6, 4) and d sum(c x)/da =
     * c * (1, 2, 2, 1) */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(4, C4, false);
    tsr_tensor *x = clone(a), *v = narrow(x, 1, 2);
    CHECK_OK(tsr_binary_(TSR_OP_MUL, v, S(2)));
    check_values(x, (double[]){1, 4, 6, 4}, 4);
    CHECK_STR(tsr_tensor_grad_fn_name(x), "CopySlices");
    CHECK_STR(tsr_tensor_grad_fn_name(v), "as_strided");
    CHECK_OK(tsr_backward(x, c, 0));
    check_grad(a, (double[]){1, 20, 200, 1000}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
}

static void the_view_itself_carries_the_new_history(void)
{
    /* after x[1:3] *= 2, v = 2 a[1:3]: d sum(c' v)/da = (0, 2c'0, 2c'1, 0) */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(2, (double[]){3, 5}, false);
    tsr_tensor *x = clone(a), *v = narrow(x, 1, 2);
    CHECK_OK(tsr_binary_(TSR_OP_MUL, v, S(2)));
    CHECK_OK(tsr_backward(v, c, 0));
    check_grad(a, (double[]){0, 6, 10, 0}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
}

static void a_value_dependent_op_on_a_view(void)
{
    /* x = a * a; x[1:3] *= x[1:3] (self as operand): x_i = a_i^4 inside, so
     * the gradient is 4 a^3 there and 2 a outside: (2, 32, 108, 8) * c */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(4, C4, false);
    tsr_tensor *x = NULL;
    CHECK_OK(tsr_mul(a, a, &x));
    tsr_tensor *v = narrow(x, 1, 2);
    CHECK_OK(tsr_binary_(TSR_OP_MUL, v, tsr_operand_tensor(v)));
    check_values(x, (double[]){1, 16, 81, 16}, 4);
    CHECK_OK(tsr_backward(x, c, 0));
    check_grad(a, (double[]){2, 320, 10800, 8000}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
}

static void a_chain_of_views_into_the_base(void)
{
    /* m = x viewed 2x2, column 0 of m is t = m^T row 0 = (x0, x2); t *= 5
     * gives x = (5, 2, 15, 4) and the gradient c * (5, 1, 5, 1) */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(4, C4, false);
    tsr_tensor *x = clone(a), *m = NULL, *t = NULL, *row = NULL;
    CHECK_OK(tsr_view(x, 2, (int64_t[]){2, 2}, &m));
    CHECK_OK(tsr_transpose(m, 0, 1, &t));
    CHECK_OK(tsr_narrow(t, 0, 0, 1, &row));
    CHECK_OK(tsr_binary_(TSR_OP_MUL, row, S(5)));
    check_values(x, (double[]){5, 2, 15, 4}, 4);
    CHECK_OK(tsr_backward(x, c, 0));
    check_grad(a, (double[]){5, 10, 500, 1000}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(x);
    tsr_tensor_release(m);
    tsr_tensor_release(t);
    tsr_tensor_release(row);
}

static void a_view_taken_before_its_base_changed(void)
{
    /* x = a.clone(); v = x[0:2]; x *= 3; v now reads 3 a[0:2]: PyTorch
     * regenerates v's grad_fn, so d sum(c' v)/da = (3c'0, 3c'1, 0, 0) */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(2, (double[]){1, 7}, false);
    tsr_tensor *x = clone(a), *v = narrow(x, 0, 2), *z = NULL;
    CHECK_OK(tsr_binary_(TSR_OP_MUL, x, S(3)));
    CHECK_TRUE(!tsr_tensor_is_leaf(v));
    CHECK_OK(tsr_mul(v, c, &z));
    CHECK_OK(tsr_backward(z, c, 0)); /* sum(c' * c' * v) */
    check_grad(a, (double[]){3, 147, 0, 0}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
    tsr_tensor_release(z);
}

static void a_stale_view_written_in_place(void)
{
    /* x = a.clone(); v = x[0:2]; x *= 2; v += 1: x = 2a + (1, 1, 0, 0) and
     * the gradient is 2c */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(4, C4, false);
    tsr_tensor *x = clone(a), *v = narrow(x, 0, 2);
    CHECK_OK(tsr_binary_(TSR_OP_MUL, x, S(2)));
    CHECK_OK(tsr_add_(v, S(1), tsr_scalar_int(1)));
    check_values(x, (double[]){3, 5, 6, 8}, 4);
    CHECK_OK(tsr_backward(x, c, 0));
    check_grad(a, (double[]){2, 20, 200, 2000}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
}

static void writing_a_tensor_with_grad_into_a_plain_buffer(void)
{
    /* buf = zeros(4); q = buf[1:3] taken first; buf[0:2] = w: buf gets
     * CopySlices, w.grad = c[0:2]; q = (w1, 0) so d sum(c' q)/dw = (0, c'0) */
    tsr_tensor *w = vec(2, (double[]){5, 6}, true), *c = vec(4, C4, false);
    tsr_tensor *buf = vec(4, (double[]){0, 0, 0, 0}, false);
    tsr_tensor *q = narrow(buf, 1, 2), *part = narrow(buf, 0, 2);
    CHECK_OK(tsr_copy_(part, w));
    CHECK_TRUE(tsr_tensor_requires_grad(buf));
    CHECK_TRUE(tsr_tensor_requires_grad(q));
    CHECK_OK(tsr_backward(buf, c, TSR_GRAD_RETAIN_GRAPH));
    check_grad(w, (double[]){1, 10}, 2);
    CHECK_OK(tsr_tensor_zero_grad(w));
    tsr_tensor *c2 = vec(2, (double[]){7, 9}, false);
    CHECK_OK(tsr_backward(q, c2, 0));
    check_grad(w, (double[]){0, 7}, 2);
    tsr_tensor_release(w);
    tsr_tensor_release(c);
    tsr_tensor_release(c2);
    tsr_tensor_release(buf);
    tsr_tensor_release(q);
    tsr_tensor_release(part);
}

static void double_backward_through_copy_slices(void)
{
    /* x = a.clone(); x[0:2] *= x[0:2]: sum(x) has gradient (2a0, 2a1, 1, 1);
     * the sum of that gradient differentiates to (2, 2, 0, 0) */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *ones = NULL, *g = NULL;
    tsr_tensor *x = clone(a), *v = narrow(x, 0, 2);
    CHECK_OK(tsr_binary_(TSR_OP_MUL, v, tsr_operand_tensor(v)));
    CHECK_OK(tsr_ones(1, (int64_t[]){4}, TSR_FLOAT64, NULL, &ones));
    const tsr_tensor *outs[] = {x}, *ins[] = {a}, *gos[] = {ones};
    CHECK_OK(tsr_autograd_grad(outs, 1, ins, 1, gos, TSR_GRAD_CREATE_GRAPH, &g));
    check_values(g, (double[]){2, 4, 1, 1}, 4);
    CHECK_OK(tsr_backward(g, ones, 0));
    check_grad(a, (double[]){2, 2, 0, 0}, 4);
    tsr_tensor_release(a);
    tsr_tensor_release(ones);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
}

static void other_inplace_ops_on_views(void)
{
    /* x = a.clone(); x[1:3].masked_fill_((true, false), 0) zeroes x1: the
     * gradient is c * (1, 0, 1, 1); then x[0:2].index_add_(0, (1), w, 2)
     * adds 2 w0 to x1: w.grad = 2 c1 */
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *c = vec(4, C4, false);
    tsr_tensor *w = vec(1, (double[]){5}, true), *x = clone(a), *v = narrow(x, 1, 2);
    tsr_tensor *mask = NULL, *index = NULL, *head = narrow(x, 0, 2);
    CHECK_OK(tsr_from_host((bool[]){true, false}, 2, 1, (int64_t[]){2}, TSR_BOOL, NULL, &mask));
    CHECK_OK(tsr_from_host((int64_t[]){1}, 8, 1, (int64_t[]){1}, TSR_INT64, NULL, &index));
    CHECK_OK(tsr_masked_fill_(v, mask, S(0)));
    CHECK_OK(tsr_index_add_(head, 0, index, w, tsr_scalar_float(2)));
    check_values(x, (double[]){1, 10, 3, 4}, 4);
    CHECK_OK(tsr_backward(x, c, 0));
    check_grad(a, (double[]){1, 0, 100, 1000}, 4);
    check_grad(w, (double[]){20}, 1);
    const tsr_tensor *all[] = {a, c, w, x, v, mask, index, head};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
}

static void what_stays_refused(void)
{
    tsr_tensor *a = vec(4, (double[]){1, 2, 3, 4}, true), *v = narrow(a, 1, 2);
    CHECK_ERROR(tsr_add_(v, S(1), tsr_scalar_int(1)), TSR_ERR_AUTOGRAD,
                "a view of a leaf tensor that requires grad");
    check_values(a, (double[]){1, 2, 3, 4}, 4);
    /* an expanded view cannot be read out of its base's new history */
    tsr_tensor *x = clone(a), *one = narrow(x, 0, 1), *e = NULL, *z = NULL;
    CHECK_OK(tsr_expand(one, 1, (int64_t[]){3}, &e));
    CHECK_OK(tsr_binary_(TSR_OP_MUL, x, S(2)));
    CHECK_ERROR(tsr_mul(e, e, &z), TSR_ERR_AUTOGRAD, "the view has internal overlap");
    CHECK_TRUE(z == NULL);
    tsr_tensor_release(a);
    tsr_tensor_release(v);
    tsr_tensor_release(x);
    tsr_tensor_release(one);
    tsr_tensor_release(e);
}

/* x = 1.5 a; x[1:3] *= a[0:2]; sin_ on x[2:4]; returns x * x */
static tsr_status chain(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)context, (void)n;
    tsr_tensor *x = NULL, *v = NULL, *w = NULL, *u = NULL;
    tsr_status st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(in[0]), S(1.5), &x);
    if (st == TSR_OK)
        st = tsr_narrow(x, 0, 1, 2, &v);
    if (st == TSR_OK)
        st = tsr_narrow(in[0], 0, 0, 2, &w);
    if (st == TSR_OK)
        st = tsr_binary_(TSR_OP_MUL, v, tsr_operand_tensor(w));
    if (st == TSR_OK)
        st = tsr_narrow(x, 0, 2, 2, &u);
    if (st == TSR_OK)
        st = tsr_unary_(TSR_OP_SIN, u);
    if (st == TSR_OK)
        st = tsr_mul(x, x, out);
    tsr_tensor_release(x);
    tsr_tensor_release(v);
    tsr_tensor_release(w);
    tsr_tensor_release(u);
    return st;
}

static void gradcheck_of_overlapping_inplace_views(void)
{
    tsr_tensor *a = vec(4, (double[]){0.3, -0.7, 1.1, 0.4}, true);
    double max_error = -1;
    CHECK_OK(tsr_gradcheck(chain, NULL, (const tsr_tensor *const[]){a}, 1, NULL, &max_error));
    CHECK_TRUE(max_error >= 0 && max_error < 1e-6);
    tsr_tensor_release(a);
}

int main(void)
{
    RUN_TEST(inplace_on_a_slice_of_a_clone);
    RUN_TEST(the_view_itself_carries_the_new_history);
    RUN_TEST(a_value_dependent_op_on_a_view);
    RUN_TEST(a_chain_of_views_into_the_base);
    RUN_TEST(a_view_taken_before_its_base_changed);
    RUN_TEST(a_stale_view_written_in_place);
    RUN_TEST(writing_a_tensor_with_grad_into_a_plain_buffer);
    RUN_TEST(double_backward_through_copy_slices);
    RUN_TEST(other_inplace_ops_on_views);
    RUN_TEST(what_stays_refused);
    RUN_TEST(gradcheck_of_overlapping_inplace_views);
    return check_summary("test_autograd_views");
}
