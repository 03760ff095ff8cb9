/* Structured matrices built from a vector: diag_embed and linalg_vander.
 * Both are copies and cumulative products arranged by views, cat and
 * reshape, so they take every dtype those do, give PyTorch's bits, and their
 * gradients compose. */
#include "ops/products.h"

#include "runtime/error.h"
#include "tensor/shape.h"

#include <string.h>

/* ======================================================================== */
/* diag_embed                                                                */
/* ======================================================================== */

#define DIAG_EMBED "diag_embed"

/* zeros of t's dtype and backend, of t's shape with the last size replaced. */
static tsr_status zeros_beside(const tsr_tensor *t, int64_t last, tsr_tensor **out)
{
    int64_t shape[TSR_MAX_DIMS];
    memcpy(shape, t->shape, (size_t)t->ndim * sizeof *shape);
    shape[t->ndim - 1] = last;
    return tsr_zeros(t->ndim, shape, t->dtype, tsr_tensor_backend(t), out);
}

/* cat(a, b) along the last dim, releasing a (b is borrowed). */
static tsr_status append_last(tsr_tensor **a, const tsr_tensor *b)
{
    const tsr_tensor *pair[2] = {*a, b};
    tsr_tensor *joined = NULL;
    tsr_status st = tsr_cat(pair, 2, -1, &joined);
    tsr_tensor_release(*a);
    *a = joined;
    return st;
}

/* The batch of m x m matrices [batch..., m, m] whose diagonal `offset`
 * holds x's last dim (n). Element i of row r0 + i, column c0 + i lies at
 * flat position i * (m + 1) + r0 * m + c0: x as a column, a block of m
 * zeros after each element, lead zeros before and the tail cut or padded to
 * m * m put every element there. */
static tsr_status embedded_matrices(const tsr_tensor *x, int64_t offset, tsr_tensor **out)
{
    int nb = x->ndim - 1;
    int64_t n = x->shape[nb], m = n + (offset < 0 ? -offset : offset);
    int64_t lead = (offset < 0 ? -offset : 0) * m + (offset > 0 ? offset : 0);
    int64_t shape[TSR_MAX_DIMS + 1];
    memcpy(shape, x->shape, (size_t)nb * sizeof *shape);
    tsr_tensor *column = NULL, *pad = NULL, *flat = NULL, *filler = NULL, *cut = NULL;
    tsr_status st = tsr_unsqueeze(x, -1, &column);
    if (st == TSR_OK)
        st = zeros_beside(column, m, &pad);
    if (st == TSR_OK)
        st = append_last(&column, pad); /* [batch..., n, m + 1] */
    shape[nb] = n * (m + 1);
    if (st == TSR_OK)
        st = tsr_reshape(column, nb + 1, shape, &flat);
    if (st == TSR_OK)
        st = zeros_beside(flat, lead, &filler);
    if (st == TSR_OK) {
        const tsr_tensor *pair[2] = {filler, flat};
        st = tsr_cat(pair, 2, -1, &cut);
    }
    int64_t length = lead + n * (m + 1);
    if (st == TSR_OK && length > m * m) {
        tsr_tensor *narrowed = NULL;
        st = tsr_narrow(cut, nb, 0, m * m, &narrowed);
        tsr_tensor_release(cut);
        cut = narrowed;
    } else if (st == TSR_OK && length < m * m) {
        tsr_tensor_release(filler);
        filler = NULL;
        st = zeros_beside(cut, m * m - length, &filler);
        if (st == TSR_OK)
            st = append_last(&cut, filler);
    }
    shape[nb] = m;
    shape[nb + 1] = m;
    if (st == TSR_OK)
        st = tsr_reshape(cut, nb + 2, shape, out);
    tsr_tensor *all[] = {column, pad, flat, filler, cut};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
    return st;
}

tsr_status tsr_diag_embed(const tsr_tensor *input, int64_t offset, int64_t dim1, int64_t dim2,
                          tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL",
                              DIAG_EMBED);
    int ndim = input->ndim + 1, d1 = 0, d2 = 0;
    if (ndim > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: the result would have %d dims (at most %d)",
                              DIAG_EMBED, ndim, TSR_MAX_DIMS);
    tsr_status st = tsr__wrap_dim(DIAG_EMBED, "dim1", dim1, ndim, &d1);
    if (st == TSR_OK)
        st = tsr__wrap_dim(DIAG_EMBED, "dim2", dim2, ndim, &d2);
    if (st != TSR_OK)
        return st;
    if (d1 == d2)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: diagonal dimensions cannot be identical %lld, %lld", DIAG_EMBED,
                              (long long)dim1, (long long)dim2);
    if (input->ndim == 0) /* unreachable: one result dim cannot hold two */
        return tsr__set_error(TSR_ERR_SHAPE, "%s: input must have at least 1 dim", DIAG_EMBED);
    tsr_tensor *matrices = NULL;
    st = embedded_matrices(input, offset, &matrices);
    /* The batch dims keep their order; the rows go to d1, the columns to d2. */
    int64_t perm[TSR_MAX_DIMS];
    for (int d = 0, next = 0; d < ndim; d++)
        perm[d] = d == d1 ? ndim - 2 : d == d2 ? ndim - 1 : next++;
    if (st == TSR_OK)
        st = tsr_permute(matrices, ndim, perm, out);
    tsr_tensor_release(matrices);
    return tsr__claim_error(DIAG_EMBED, st);
}

/* ======================================================================== */
/* linalg_vander                                                             */
/* ======================================================================== */

#define VANDER "linalg_vander"

/* PyTorch's construction: x^1 .. x^(N-1) as the cumulative product of x
 * repeated N - 1 times, after a column of ones (int64 for integers, as
 * cumprod gives). */
tsr_status tsr_linalg_vander(const tsr_tensor *x, const int64_t *N, tsr_tensor **out)
{
    if (!x || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: x and out must not be NULL", VANDER);
    tsr_dtype t = x->dtype;
    if (t == TSR_BOOL || t == TSR_FLOAT16 || t == TSR_BFLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: supports floating point, complex, and integer tensors, but got "
                              "%s",
                              VANDER, tsr_dtype_name(t));
    int nd = x->ndim ? x->ndim : 1;
    if (nd + 1 > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: x has too many dims (%d)", VANDER, x->ndim);
    int64_t shape[TSR_MAX_DIMS];
    if (x->ndim)
        memcpy(shape, x->shape, (size_t)nd * sizeof *shape);
    else
        shape[0] = 1;
    int64_t n = N ? *N : shape[nd - 1];
    if (n <= 1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: N must be greater than 1, got %lld",
                              VANDER, (long long)n);
    tsr_tensor *vector = NULL, *column = NULL, *repeated = NULL, *powers = NULL, *ones = NULL;
    tsr_status st = tsr_reshape(x, nd, shape, &vector);
    if (st == TSR_OK)
        st = tsr_unsqueeze(vector, -1, &column);
    shape[nd] = n - 1;
    if (st == TSR_OK)
        st = tsr_expand(column, nd + 1, shape, &repeated);
    if (st == TSR_OK)
        st = tsr_cumprod(repeated, -1, TSR_DTYPE_INFER, &powers);
    shape[nd] = 1;
    if (st == TSR_OK)
        st = tsr_ones(nd + 1, shape, powers->dtype, tsr_tensor_backend(x), &ones);
    if (st == TSR_OK) {
        const tsr_tensor *pair[2] = {ones, powers};
        st = tsr_cat(pair, 2, -1, out);
    }
    tsr_tensor *all[] = {vector, column, repeated, powers, ones};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
    return tsr__claim_error(VANDER, st);
}
