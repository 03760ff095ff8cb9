/* Chains of matrix products: linalg_multi_dot and linalg_matrix_power, as
 * sequences of mm / matmul in the order PyTorch 1.13 multiplies (so results
 * round as PyTorch's do and gradients compose through the products). */
#include "ops/products.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "runtime/alloc.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <stdint.h>
#include <stdlib.h>

/* ======================================================================== */
/* linalg_multi_dot                                                          */
/* ======================================================================== */

#define MULTI_DOT "linalg_multi_dot"

/* The chain's operands as matrices (a 1-d first operand a row, a 1-d last
 * one a column) after PyTorch's checks, in order. */
static tsr_status chain_operands(const tsr_tensor *const *tensors, size_t count,
                                 tsr_tensor **matrices)
{
    for (size_t i = 0; i < count; i++) {
        const tsr_tensor *t = tensors[i];
        if (!t)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensor %zu is NULL", MULTI_DOT, i);
        bool end = i == 0 || i == count - 1;
        if (end && t->ndim != 1 && t->ndim != 2)
            return tsr__set_error(TSR_ERR_SHAPE, "%s: the %s tensor must be 1D or 2D but got %dD",
                                  MULTI_DOT, i == 0 ? "first" : "last", t->ndim);
        if (!end && t->ndim != 2)
            return tsr__set_error(TSR_ERR_SHAPE, "%s: tensor %zu must be 2D but got %dD", MULTI_DOT,
                                  i, t->ndim);
        if (t->dtype != tensors[0]->dtype)
            return tsr__set_error(TSR_ERR_DTYPE,
                                  "%s: all tensors must have the same dtype but tensor 0 is %s "
                                  "and tensor %zu %s",
                                  MULTI_DOT, tsr_dtype_name(tensors[0]->dtype), i,
                                  tsr_dtype_name(t->dtype));
    }
    tsr_status st = TSR_OK;
    for (size_t i = 0; i < count && st == TSR_OK; i++) {
        const tsr_tensor *t = tensors[i];
        if (t->ndim == 1)
            st = tsr_unsqueeze(t, i == 0 ? 0 : 1, &matrices[i]);
        else
            st = tsr_view(t, 2, t->shape, &matrices[i]);
    }
    for (size_t i = 0; i + 1 < count && st == TSR_OK; i++) {
        if (matrices[i]->shape[1] != matrices[i + 1]->shape[0]) {
            char bufa[160], bufb[160];
            st = tsr__set_error(
                TSR_ERR_SHAPE, "%s: tensors %zu and %zu with shapes %s and %s cannot be multiplied",
                MULTI_DOT, i, i + 1, tsr__shape_str(2, matrices[i]->shape, bufa, sizeof bufa),
                tsr__shape_str(2, matrices[i + 1]->shape, bufb, sizeof bufb));
        }
    }
    return st;
}

/* The product of matrices[i..j] split where `split` (n x n, row-major)
 * says, as PyTorch's matrix_chain_multiplication recurses. */
static tsr_status chain_product(tsr_tensor *const *matrices, const size_t *split, size_t n,
                                size_t i, size_t j, tsr_tensor **out)
{
    if (i == j)
        return tsr_view(matrices[i], 2, matrices[i]->shape, out);
    size_t k = split[i * n + j];
    tsr_tensor *left = NULL, *right = NULL;
    tsr_status st = chain_product(matrices, split, n, i, k, &left);
    if (st == TSR_OK)
        st = chain_product(matrices, split, n, k + 1, j, &right);
    if (st == TSR_OK)
        st = tsr_mm(left, right, out);
    tsr_tensor_release(left);
    tsr_tensor_release(right);
    return st;
}

/* The classic O(n^3) dynamic programme over the dims p[0..n]: cost[i][j]
 * is the fewest scalar multiplications for matrices i..j, split[i][j] the
 * first k reaching it (strictly smaller costs win, as in PyTorch). Two and
 * three operands take PyTorch's shortcuts: mm, and (AB)C unless A(BC) is
 * strictly cheaper. */
static tsr_status chain_order(tsr_tensor *const *matrices, size_t n, size_t *split)
{
    if (n == 3) {
        int64_t a = matrices[0]->shape[0], b = matrices[1]->shape[0];
        int64_t c = matrices[2]->shape[0], d = matrices[2]->shape[1];
        split[0 * n + 2] = (a * c) * (b + d) > (b * d) * (a + c) ? 0 : 1;
        split[0 * n + 1] = 0;
        split[1 * n + 2] = 1;
        return TSR_OK;
    }
    int64_t *cost = tsr__calloc(n * n, sizeof *cost);
    if (!cost)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", MULTI_DOT);
    for (size_t len = 1; len < n; len++) {
        for (size_t i = 0; i + len < n; i++) {
            size_t j = i + len;
            cost[i * n + j] = INT64_MAX;
            for (size_t k = i; k < j; k++) {
                int64_t q = cost[i * n + k] + cost[(k + 1) * n + j] +
                            matrices[i]->shape[0] * matrices[k]->shape[1] * matrices[j]->shape[1];
                if (q < cost[i * n + j]) {
                    cost[i * n + j] = q;
                    split[i * n + j] = k;
                }
            }
        }
    }
    free(cost);
    return TSR_OK;
}

/* The chain's product with the dims of 1-d ends dropped. */
static tsr_status drop_vector_ends(const tsr_tensor *product, bool row, bool column,
                                   tsr_tensor **out)
{
    int64_t shape[2];
    int ndim = 0;
    if (!row)
        shape[ndim++] = product->shape[0];
    if (!column)
        shape[ndim++] = product->shape[1];
    return tsr_view(product, ndim, shape, out);
}

tsr_status tsr_linalg_multi_dot(const tsr_tensor *const *tensors, size_t count, tsr_tensor **out)
{
    if (!out || (!tensors && count))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors and out must not be NULL",
                              MULTI_DOT);
    if (count < 2)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: expected at least 2 tensors but got %zu", MULTI_DOT, count);
    tsr_tensor **matrices = tsr__calloc(count, sizeof *matrices);
    size_t *split = tsr__calloc(count * count, sizeof *split);
    tsr_tensor *product = NULL;
    tsr_status st = matrices && split
                        ? TSR_OK
                        : tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", MULTI_DOT);
    if (st == TSR_OK)
        st = chain_operands(tensors, count, matrices);
    if (st == TSR_OK && count > 2)
        st = chain_order(matrices, count, split);
    if (st == TSR_OK)
        st = chain_product(matrices, split, count, 0, count - 1, &product);
    if (st == TSR_OK)
        st = drop_vector_ends(product, tensors[0]->ndim == 1, tensors[count - 1]->ndim == 1, out);
    for (size_t i = 0; matrices && i < count; i++)
        tsr_tensor_release(matrices[i]);
    free(matrices);
    free(split);
    tsr_tensor_release(product);
    return tsr__claim_error(MULTI_DOT, st);
}

/* ======================================================================== */
/* linalg_matrix_power                                                       */
/* ======================================================================== */

#define MATRIX_POWER "linalg_matrix_power"

/* a^0 does not depend on a: PyTorch's copy_ of the identities into a clone
 * of a gives a zero gradient, recorded here as such. */
static tsr_status zero_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    return tsr__grad_zeros_for(node, 0, grads[0], &gi[0]);
}

/* Identities of a's shape and dtype (n = 0), a fresh tensor as PyTorch's. */
static tsr_status identities(const tsr_tensor *a, tsr_tensor **out)
{
    if (a->dtype == TSR_BFLOAT16) /* torch 1.13's CPU eye has no bfloat16 */
        return tsr__set_error(TSR_ERR_DTYPE, "%s: n = 0 is not implemented for bfloat16 (eye)",
                              MATRIX_POWER);
    int64_t m = a->shape[a->ndim - 1];
    tsr_tensor *eye = NULL, *expanded = NULL;
    tsr_status st = tsr_eye(m, m, a->dtype, tsr_tensor_backend(a), &eye);
    if (st == TSR_OK)
        st = tsr_expand(eye, a->ndim, a->shape, &expanded);
    tsr_tensor *result = NULL;
    if (st == TSR_OK)
        st = tsr_clone(expanded, &result);
    tsr__node *node = NULL;
    if (st == TSR_OK)
        st = tsr__grad_node_start(MATRIX_POWER, zero_backward, &a, 1, 0, 0, result, &node);
    st = tsr__grad_node_finish(node, st, NULL, result);
    tsr_tensor_release(eye);
    tsr_tensor_release(expanded);
    return tsr__deliver(st, result, out);
}

/* *acc = *acc @ t, or t itself when *acc is NULL; takes a reference to t. */
static tsr_status multiply_into(tsr_tensor **acc, tsr_tensor *t)
{
    if (!*acc) {
        tsr_tensor_retain(t);
        *acc = t;
        return TSR_OK;
    }
    tsr_tensor *product = NULL;
    tsr_status st = tsr_matmul(*acc, t, &product);
    tsr_tensor_release(*acc);
    *acc = product;
    return st;
}

/* a^n for n >= 2 in PyTorch's order: a @ a, (a @ a) @ a, else a binary
 * decomposition: z runs over a^(2^i) and result multiplies in each z whose
 * bit of n is set, lowest first. */
static tsr_status power(const tsr_tensor *a, uint64_t n, tsr_tensor **out)
{
    if (n == 2)
        return tsr_matmul(a, a, out);
    tsr_tensor *z = NULL, *result = NULL;
    tsr_status st = TSR_OK;
    if (n == 3) {
        st = tsr_matmul(a, a, &z);
        if (st == TSR_OK)
            st = tsr_matmul(z, a, &result);
        tsr_tensor_release(z);
        return tsr__deliver(st, result, out);
    }
    while (n > 0 && st == TSR_OK) {
        bool bit = n % 2 == 1;
        n /= 2;
        if (!z) {
            st = tsr_view(a, a->ndim, a->shape, &z);
        } else {
            tsr_tensor *squared = NULL;
            st = tsr_matmul(z, z, &squared);
            tsr_tensor_release(z);
            z = squared;
        }
        if (st == TSR_OK && bit)
            st = multiply_into(&result, z);
    }
    tsr_tensor_release(z);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_linalg_matrix_power(const tsr_tensor *a, int64_t n, tsr_tensor **out)
{
    if (!a || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: A and out must not be NULL",
                              MATRIX_POWER);
    if (a->ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: the input tensor A must have at least 2 dimensions, got %d",
                              MATRIX_POWER, a->ndim);
    int64_t rows = a->shape[a->ndim - 2], cols = a->shape[a->ndim - 1];
    if (rows != cols)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: A must be batches of square matrices, but they are %lld by "
                              "%lld matrices",
                              MATRIX_POWER, (long long)rows, (long long)cols);
    if (n == 0)
        return tsr__claim_error(MATRIX_POWER, identities(a, out));
    /* n < 0 inverts first and raises the inverse to |n|, as PyTorch; the
     * magnitude is negated in unsigned arithmetic so that INT64_MIN has one. */
    tsr_tensor *inverse = NULL;
    tsr_status st = TSR_OK;
    if (n < 0)
        st = tsr_linalg_inv(a, &inverse);
    uint64_t magnitude = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
    const tsr_tensor *base = inverse ? inverse : a;
    if (st == TSR_OK)
        st = magnitude == 1 ? tsr_clone(base, out) : power(base, magnitude, out);
    tsr_tensor_release(inverse);
    return tsr__claim_error(MATRIX_POWER, st);
}
