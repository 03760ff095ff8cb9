/* The gradient of the general matrix product, out = beta * c + alpha * (a @ b),
 * which matmul, mm, bmm, dot, addmm and baddbmm record; outer, einsum and
 * tensordot are built from it, views, sums and mul, so their gradients
 * follow. Formulas as PyTorch's derivatives.yaml for mm and addmm:
 *   grad_a = alpha * grad @ b^T, grad_b = alpha * a^T @ grad, grad_c = beta * grad,
 * over the broadcast batch dims; the engine sums each back to its input's
 * shape. Complex operands and scalars enter conjugated (PyTorch's
 * conj(alpha) * grad @ b^H, conj(alpha) * a^H @ grad, conj(beta) * grad);
 * conjugating a real tensor is free. */
#include "autograd/graph.h"
#include "ops/products.h"

#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/grad_expr.h"

typedef struct matmul_attrs {
    tsr_scalar alpha, beta; /* the formulas multiply by their conjugates */
} matmul_attrs;

enum { SAVED_A, SAVED_B };

/* t scaled by conj(factor) (t itself when factor is 1). */
static tsr_tensor *scaled(tsr__gx *x, tsr_tensor *t, tsr_scalar factor)
{
    if (factor.kind == TSR_SCALAR_COMPLEX)
        return tsr__gx_binary(x, TSR_OP_MUL, tsr_operand_tensor(t),
                              tsr_operand_scalar(tsr__gx_conj_scalar(factor)));
    double f = tsr__scalar_to_double(factor);
    return f == 1.0 ? t : tsr__gx_scale(x, t, f);
}

static tsr_tensor *transposed(tsr__gx *x, tsr_tensor *t)
{
    if (!t)
        return NULL;
    tsr_tensor *out = NULL;
    tsr_status st = tsr_transpose(t, -1, -2, &out);
    return tsr__gx_keep(x, st, out);
}

static tsr_tensor *product(tsr__gx *x, tsr_tensor *a, tsr_tensor *b)
{
    if (!a || !b)
        return NULL;
    tsr_tensor *out = NULL;
    tsr_status st = tsr_matmul(a, b, &out);
    return tsr__gx_keep(x, st, out);
}

static tsr_status matmul_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const matmul_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *grad = grads[0];
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *bt = transposed(&x, tsr__gx_conj(&x, tsr__gx_saved(&x, node, SAVED_B)));
        tsr__gx_result(&x, &gi[0], scaled(&x, product(&x, grad, bt), at->alpha));
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *a_t = transposed(&x, tsr__gx_conj(&x, tsr__gx_saved(&x, node, SAVED_A)));
        tsr__gx_result(&x, &gi[1], scaled(&x, product(&x, a_t, grad), at->alpha));
    }
    if (tsr__node_needs_grad(node, 2))
        tsr__gx_result(&x, &gi[2], scaled(&x, grad, at->beta));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_matmul(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                                   const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta,
                                   tsr_tensor *out)
{
    const tsr_tensor *inputs[3] = {a, b, c};
    if (!tsr__grad_wanted(inputs, 3) || !tsr__grad_dtype(tsr_tensor_dtype(out)))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, matmul_backward, 3, 1, 2, sizeof(matmul_attrs), &node);
    for (int i = 0; i < 3 && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    if (st == TSR_OK) {
        matmul_attrs *at = tsr__node_attrs(node);
        at->alpha = alpha;
        at->beta = beta;
        tsr__node_allow_complex(node);
        if (tsr__node_needs_grad(node, 1))
            st = tsr__node_save(node, SAVED_A, a, "self");
    }
    if (st == TSR_OK && tsr__node_needs_grad(node, 0))
        st = tsr__node_save(node, SAVED_B, b, "mat2");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}
