/* Autograd's safety rules around in-place ops, as PyTorch's: saved tensors
 * carry versions, leaves that require grad are not written in place while
 * recording (nor views of them), and in-place ops on other tensors record
 * their node. In-place ops on views: test_autograd_views.c. */
#include "check_autograd.h"

static void inplace_on_a_leaf_that_requires_grad_fails(void)
{
    tsr_tensor *w = vec(2, (double[]){1, 2}, true), *src = vec(2, (double[]){5, 6}, false);
    CHECK_ERROR(tsr_add_(w, S(1), tsr_scalar_int(1)), TSR_ERR_AUTOGRAD,
                "add_: a leaf tensor that requires grad is being used in an in-place operation");
    CHECK_ERROR(tsr_binary_(TSR_OP_MUL, w, S(2)), TSR_ERR_AUTOGRAD, "mul_: a leaf tensor");
    CHECK_ERROR(tsr_zero_(w), TSR_ERR_AUTOGRAD, "fill_: a leaf tensor");
    CHECK_ERROR(tsr_copy_(w, src), TSR_ERR_AUTOGRAD, "copy_: a leaf tensor");
    CHECK_INT(tsr_tensor_version(w), 0); /* nothing was written */
    check_values(w, (double[]){1, 2}, 2);
    tsr_tensor_release(w);
    tsr_tensor_release(src);
}

static void inplace_on_a_leaf_in_no_grad_mode_is_allowed(void)
{
    /* an optimiser step: w -= lr * grad, without recording */
    tsr_tensor *w = vec(2, (double[]){1, 2}, true), *y = NULL;
    CHECK_OK(tsr_mul(w, w, &y));
    CHECK_OK(backward_ones(y));
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(w, &g));
    bool previous = tsr_grad_mode_set(false);
    CHECK_OK(tsr_sub_(w, tsr_operand_tensor(g), tsr_scalar_float(0.25)));
    tsr_grad_mode_set(previous);
    check_values(w, (double[]){0.5, 1}, 2);
    CHECK_TRUE(tsr_tensor_is_leaf(w));
    CHECK_TRUE(tsr_tensor_requires_grad(w));
    tsr_tensor_release(g);
    tsr_tensor_release(w);
    tsr_tensor_release(y);
}

static void modified_saved_input_fails_backward_naming_the_op(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){3, 4}, false);
    tsr_tensor *y = NULL;
    CHECK_OK(tsr_mul(x, c, &y)); /* saves c for x's gradient */
    CHECK_OK(tsr_add_(c, S(1), tsr_scalar_int(1)));
    CHECK_ERROR(backward_ones(y), TSR_ERR_AUTOGRAD,
                "modified by an inplace operation: mul's saved other");
    CHECK_ERROR(backward_ones(y), TSR_ERR_AUTOGRAD, "is at version 1; expected version 0");
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void modified_saved_output_fails_backward(void)
{
    tsr_tensor *x = vec(2, (double[]){0, 1}, true), *y = NULL, *z = NULL;
    CHECK_OK(tsr_unary(TSR_OP_EXP, x, &y)); /* saves its result */
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(y), S(2), &z));
    CHECK_OK(tsr_add_(y, S(1), tsr_scalar_int(1))); /* y is not a leaf: allowed */
    CHECK_ERROR(backward_ones(z), TSR_ERR_AUTOGRAD, "exp's saved result");
    tsr_tensor_release(x);
    tsr_tensor_release(y);
    tsr_tensor_release(z);
}

static void unsaved_inputs_may_change(void)
{
    /* add saves nothing, so changing its input afterwards is harmless */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *c = vec(2, (double[]){3, 4}, false);
    tsr_tensor *y = NULL;
    CHECK_OK(tsr_add(x, c, &y));
    CHECK_OK(tsr_add_(c, S(1), tsr_scalar_int(1)));
    CHECK_OK(backward_ones(y));
    check_grad(x, (double[]){1, 1}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(c);
    tsr_tensor_release(y);
}

static void inplace_on_a_non_leaf_records_its_node(void)
{
    /* y = 2x; y += w; y *= w; y -= x; y /= 4  ->  ((2x + w) * w - x) / 4 */
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *w = vec(2, (double[]){3, 5}, true);
    tsr_tensor *y = NULL;
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(x), S(2), &y));
    CHECK_OK(tsr_add_(y, tsr_operand_tensor(w), tsr_scalar_int(1)));
    CHECK_STR(tsr_tensor_grad_fn_name(y), "add");
    CHECK_OK(tsr_binary_(TSR_OP_MUL, y, tsr_operand_tensor(w)));
    CHECK_OK(tsr_sub_(y, tsr_operand_tensor(x), tsr_scalar_int(1)));
    CHECK_OK(tsr_div_(y, S(4), TSR_ROUND_NONE));
    CHECK_STR(tsr_tensor_grad_fn_name(y), "div");
    check_values(y, (double[]){(5.0 * 3 - 1) / 4, (9.0 * 5 - 2) / 4}, 2);
    CHECK_OK(backward_ones(y));
    /* dy/dx = (2w - 1)/4, dy/dw = (2x + 2w)/4 */
    check_grad(x, (double[]){5.0 / 4, 9.0 / 4}, 2);
    check_grad(w, (double[]){8.0 / 4, 14.0 / 4}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(w);
    tsr_tensor_release(y);
}

static void inplace_with_itself_as_operand(void)
{
    /* y = x * 1; y *= y  ->  x^2 */
    tsr_tensor *x = vec(2, (double[]){3, -2}, true), *y = NULL;
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(x), S(1), &y));
    CHECK_OK(tsr_binary_(TSR_OP_MUL, y, tsr_operand_tensor(y)));
    check_values(y, (double[]){9, 4}, 2);
    CHECK_OK(backward_ones(y));
    check_grad(x, (double[]){6, -4}, 2);
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void inplace_into_a_plain_tensor_gives_it_history(void)
{
    tsr_tensor *buf = vec(2, (double[]){0, 0}, false), *x = vec(2, (double[]){1, 2}, true);
    CHECK_OK(tsr_copy_(buf, x));
    CHECK_TRUE(tsr_tensor_requires_grad(buf));
    CHECK_STR(tsr_tensor_grad_fn_name(buf), "copy");
    CHECK_OK(tsr_binary_(TSR_OP_MUL, buf, S(3)));
    CHECK_OK(backward_ones(buf));
    check_grad(x, (double[]){3, 3}, 2);
    tsr_tensor_release(buf);
    tsr_tensor_release(x);
}

static void overwriting_a_non_leaf_cuts_its_gradient(void)
{
    tsr_tensor *x = vec(2, (double[]){1, 2}, true), *y = NULL;
    CHECK_OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(x), S(5), &y));
    CHECK_OK(tsr_fill_(y, tsr_scalar_float(7)));
    CHECK_OK(backward_ones(y));
    check_grad(x, (double[]){0, 0}, 2); /* zeros, as PyTorch, not none */
    tsr_tensor_release(x);
    tsr_tensor_release(y);
}

static void inplace_on_a_view_of_a_leaf_fails(void)
{
    tsr_tensor *w = vec(4, (double[]){1, 2, 3, 4}, true), *v = NULL;
    CHECK_OK(tsr_narrow(w, 0, 1, 2, &v));
    CHECK_TRUE(tsr_tensor_requires_grad(v));
    CHECK_ERROR(tsr_add_(v, S(1), tsr_scalar_int(1)), TSR_ERR_AUTOGRAD,
                "a view of a leaf tensor that requires grad");
    tsr_tensor_release(w);
    tsr_tensor_release(v);
}

static void versions_count_every_inplace_write(void)
{
    tsr_tensor *t = vec(2, (double[]){1, 2}, false), *v = NULL;
    CHECK_INT(tsr_tensor_version(t), 0);
    CHECK_OK(tsr_add_(t, S(1), tsr_scalar_int(1)));
    CHECK_OK(tsr_narrow(t, 0, 0, 1, &v));
    CHECK_OK(tsr_zero_(v));
    CHECK_INT(tsr_tensor_version(t), 2); /* views share the counter */
    tsr_tensor_release(t);
    tsr_tensor_release(v);
}

int main(void)
{
    RUN_TEST(inplace_on_a_leaf_that_requires_grad_fails);
    RUN_TEST(inplace_on_a_leaf_in_no_grad_mode_is_allowed);
    RUN_TEST(modified_saved_input_fails_backward_naming_the_op);
    RUN_TEST(modified_saved_output_fails_backward);
    RUN_TEST(unsaved_inputs_may_change);
    RUN_TEST(inplace_on_a_non_leaf_records_its_node);
    RUN_TEST(inplace_with_itself_as_operand);
    RUN_TEST(inplace_into_a_plain_tensor_gives_it_history);
    RUN_TEST(overwriting_a_non_leaf_cuts_its_gradient);
    RUN_TEST(inplace_on_a_view_of_a_leaf_fails);
    RUN_TEST(versions_count_every_inplace_write);
    return check_summary("test_autograd_inplace");
}
