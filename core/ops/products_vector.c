/* The vector products of torch: trace, kron, inner, mv, addmv, addr, addbmm.
 * Each is a composite: it checks PyTorch 1.13's ranks and dtypes with its own
 * messages, then reduces to the general product (tsr__matmul_general, which
 * records the gradient), to tensordot, or to views, mul and sum, whose
 * gradients compose. */
#include "ops/products.h"

#include "runtime/error.h"
#include "tensor/scalar.h"
#include "tensor/shape.h"

#include <string.h>

static tsr_status null_check(const char *name, const void *a, const void *b, const void *c,
                             tsr_tensor **out)
{
    if (!a || !b || !c || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: operands and out must not be NULL",
                              name);
    return TSR_OK;
}

static tsr_status rank_is(const char *name, const char *what, const tsr_tensor *t, int rank)
{
    if (t->ndim == rank)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_SHAPE, "%s: expected %s to be a %d-d tensor, got %d-d", name,
                          what, rank, t->ndim);
}

/* Whether shape (ndim dims) broadcasts to [rows, cols]. */
static bool broadcasts_to_matrix(int ndim, const int64_t *shape, int64_t rows, int64_t cols)
{
    const int64_t target[2] = {rows, cols};
    if (ndim > 2)
        return false;
    for (int i = 0; i < ndim; i++) {
        int64_t size = shape[ndim - 1 - i];
        if (size != 1 && size != target[1 - i])
            return false;
    }
    return true;
}

static bool is_integral(tsr_dtype dtype)
{
    return !tsr_dtype_is_floating(dtype) && !tsr_dtype_is_complex(dtype);
}

/* ======================================================================== */
/* trace, kron                                                               */
/* ======================================================================== */

tsr_status tsr_trace(const tsr_tensor *t, tsr_tensor **out)
{
    tsr_status st = null_check("trace", t, t, t, out);
    if (st != TSR_OK)
        return st;
    if (t->ndim != 2)
        return tsr__set_error(TSR_ERR_SHAPE, "trace: expected a matrix, but got tensor with dim %d",
                              t->ndim);
    if (t->dtype == TSR_BOOL || t->dtype == TSR_FLOAT16 || t->dtype == TSR_BFLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE, "trace: not implemented for %s",
                              tsr_dtype_name(t->dtype));
    tsr_tensor *diagonal = NULL;
    st = tsr_diagonal(t, 0, 0, 1, &diagonal);
    if (st == TSR_OK)
        st = tsr_sum(diagonal, NULL, 0, false, TSR_DTYPE_INFER, out);
    tsr_tensor_release(diagonal);
    return tsr__claim_error("trace", st);
}

/* a as [a0, 1, a1, 1, ...] and b as [1, b0, 1, b1, ...] (both padded with
 * leading 1s to one rank): their broadcast product holds a[i] * b[j] at
 * [i0, j0, i1, j1, ...], which reshapes to the Kronecker product. */
tsr_status tsr_kron(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    tsr_status st = null_check("kron", a, b, b, out);
    if (st != TSR_OK)
        return st;
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    if (2 * n > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "kron: operands of %d dims are not supported (at "
                              "most %d)",
                              n, TSR_MAX_DIMS / 2);
    int64_t sa[TSR_MAX_DIMS], sb[TSR_MAX_DIMS], result[TSR_MAX_DIMS];
    for (int d = 0; d < n; d++) {
        int ia = d - (n - a->ndim), ib = d - (n - b->ndim);
        int64_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
        sa[2 * d] = da, sa[2 * d + 1] = 1;
        sb[2 * d] = 1, sb[2 * d + 1] = db;
        result[d] = da * db;
    }
    tsr_tensor *va = NULL, *vb = NULL, *product = NULL;
    st = tsr_reshape(a, 2 * n, sa, &va);
    if (st == TSR_OK)
        st = tsr_reshape(b, 2 * n, sb, &vb);
    if (st == TSR_OK)
        st = tsr_mul(va, vb, &product);
    if (st == TSR_OK)
        st = tsr_reshape(product, n, result, out);
    tsr_tensor_release(va);
    tsr_tensor_release(vb);
    tsr_tensor_release(product);
    return tsr__claim_error("kron", st);
}

/* ======================================================================== */
/* inner, mv, addmv                                                          */
/* ======================================================================== */

tsr_status tsr_inner(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    tsr_status st = null_check("inner", a, b, b, out);
    if (st != TSR_OK)
        return st;
    if (a->ndim == 0 || b->ndim == 0)
        return tsr__claim_error("inner", tsr_mul(a, b, out));
    if (a->shape[a->ndim - 1] != b->shape[b->ndim - 1]) {
        char bufa[160], bufb[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "inner: the last dimension must match on both input tensors but "
                              "got shapes %s and %s",
                              tsr__shape_str(a->ndim, a->shape, bufa, sizeof bufa),
                              tsr__shape_str(b->ndim, b->shape, bufb, sizeof bufb));
    }
    st = tsr__matmul_same_dtype("inner", "input", a, "other", b);
    if (st != TSR_OK)
        return st;
    int64_t last = -1;
    return tsr__claim_error("inner", tsr_tensordot_dims(a, b, 1, &last, &last, out));
}

/* mat [N, M] and vec [M]: PyTorch's checks for mv and addmv. */
static tsr_status check_matrix_vector(const char *name, const tsr_tensor *mat,
                                      const tsr_tensor *vec)
{
    tsr_status st = rank_is(name, "mat", mat, 2);
    if (st == TSR_OK)
        st = rank_is(name, "vec", vec, 1);
    if (st == TSR_OK && mat->shape[1] != vec->shape[0])
        st = tsr__set_error(
            TSR_ERR_SHAPE, "%s: size mismatch, mat is [%lld, %lld] and vec is [%lld]", name,
            (long long)mat->shape[0], (long long)mat->shape[1], (long long)vec->shape[0]);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype(name, "mat", mat, "vec", vec);
    return st;
}

/* beta * c + alpha * (mat @ vec) with c NULL or [N, 1]-broadcastable. */
static tsr_status matrix_vector(const char *name, const tsr_tensor *mat, const tsr_tensor *vec,
                                const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta,
                                tsr_tensor **out)
{
    tsr_tensor *column = NULL, *product = NULL;
    tsr_status st = tsr_unsqueeze(vec, 1, &column);
    if (st == TSR_OK)
        st = tsr__matmul_general(name, mat, column, c, alpha, beta, &product);
    if (st == TSR_OK)
        st = tsr_view(product, 1, mat->shape, out);
    tsr_tensor_release(column);
    tsr_tensor_release(product);
    return st;
}

tsr_status tsr_mv(const tsr_tensor *mat, const tsr_tensor *vec, tsr_tensor **out)
{
    tsr_status st = null_check("mv", mat, vec, vec, out);
    if (st == TSR_OK)
        st = check_matrix_vector("mv", mat, vec);
    if (st != TSR_OK)
        return st;
    return matrix_vector("mv", mat, vec, NULL, tsr_scalar_int(1), tsr_scalar_int(0), out);
}

/* beta and alpha of the add-products: valid for dtype (products.c's rule). */
static tsr_status check_coefficients(const char *name, tsr_scalar beta, tsr_scalar alpha,
                                     tsr_dtype dtype)
{
    tsr_status st = tsr__matmul_check_coefficient(name, "beta", beta, dtype);
    if (st == TSR_OK)
        st = tsr__matmul_check_coefficient(name, "alpha", alpha, dtype);
    return st;
}

tsr_status tsr_addmv(const tsr_tensor *input, const tsr_tensor *mat, const tsr_tensor *vec,
                     tsr_scalar beta, tsr_scalar alpha, tsr_tensor **out)
{
    tsr_status st = null_check("addmv", input, mat, vec, out);
    if (st == TSR_OK)
        st = check_matrix_vector("addmv", mat, vec);
    if (st == TSR_OK && (input->ndim > 1 || (input->ndim == 1 && input->shape[0] != 1 &&
                                             input->shape[0] != mat->shape[0])))
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "addmv: input must be 0-d or a 1-d tensor of size 1 or %lld (mat's "
                            "rows), got %d-d of size %lld",
                            (long long)mat->shape[0], input->ndim,
                            (long long)(input->ndim ? input->shape[0] : 1));
    if (st == TSR_OK)
        st = check_coefficients("addmv", beta, alpha, mat->dtype);
    if (st != TSR_OK)
        return st;
    /* PyTorch writes input into a result of mat's dtype. */
    tsr_tensor *converted = NULL, *column = NULL;
    if (input->dtype != mat->dtype)
        st = tsr_to_dtype(input, mat->dtype, &converted);
    const tsr_tensor *c = converted ? converted : input;
    if (st == TSR_OK && c->ndim == 1)
        st = tsr_unsqueeze(c, 1, &column);
    if (st == TSR_OK)
        st = matrix_vector("addmv", mat, vec, column ? column : c, alpha, beta, out);
    tsr_tensor_release(converted);
    tsr_tensor_release(column);
    return tsr__claim_error("addmv", st);
}

/* ======================================================================== */
/* addr                                                                      */
/* ======================================================================== */

/* PyTorch's checks of addr's beta and alpha against the result dtype. */
static tsr_status check_addr_coefficient(const char *what, tsr_scalar s, tsr_dtype dtype)
{
    if (!tsr__scalar_valid(s))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "addr: %s has an invalid scalar kind",
                              what);
    if (s.kind == TSR_SCALAR_BOOL && dtype != TSR_BOOL)
        return tsr__set_error(TSR_ERR_DTYPE, "addr: Boolean %s only supported for Boolean results",
                              what);
    if (is_integral(dtype) && (s.kind == TSR_SCALAR_FLOAT || s.kind == TSR_SCALAR_COMPLEX))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "addr: for integral input tensors, argument %s must not be a "
                              "floating point number",
                              what);
    return tsr__matmul_check_coefficient("addr", what, s, dtype == TSR_BOOL ? TSR_INT64 : dtype);
}

static bool coefficient_is(tsr_scalar s, double value)
{
    if (s.kind == TSR_SCALAR_COMPLEX)
        return s.v.c.re == value && s.v.c.im == 0.0;
    return tsr__scalar_to_double(s) == value;
}

/* t * s in t's dtype; for bool, `and` with s != 0. NULL *out means t itself
 * (s is 1). */
static tsr_status scale(const tsr_tensor *t, tsr_scalar s, tsr_tensor **out)
{
    *out = NULL;
    if (coefficient_is(s, 1.0))
        return TSR_OK;
    if (t->dtype == TSR_BOOL)
        s = tsr_scalar_bool(!coefficient_is(s, 0.0));
    return tsr_binary(TSR_OP_MUL, tsr_operand_tensor(t), tsr_operand_scalar(s), out);
}

/* (alpha * vec1[i]) * vec2[j], then beta * input + that unless beta is 0,
 * in the order of PyTorch's kernel; bool's mul and add are `and` and `or`. */
static tsr_status addr_compute(const tsr_tensor *input, const tsr_tensor *vec1,
                               const tsr_tensor *vec2, tsr_scalar beta, tsr_scalar alpha,
                               tsr_tensor **out)
{
    tsr_tensor *column = NULL, *scaled = NULL, *row = NULL, *product = NULL, *part = NULL;
    tsr_status st = tsr_unsqueeze(vec1, 1, &column);
    if (st == TSR_OK)
        st = scale(column, alpha, &scaled);
    if (st == TSR_OK)
        st = tsr_unsqueeze(vec2, 0, &row);
    if (st == TSR_OK)
        st = tsr_mul(scaled ? scaled : column, row, &product);
    if (st == TSR_OK && coefficient_is(beta, 0.0)) {
        *out = product; /* input's broadcast was checked by the caller */
        product = NULL;
    } else if (st == TSR_OK) {
        st = scale(input, beta, &part);
        if (st == TSR_OK)
            st = tsr_add(part ? part : input, product, out);
    }
    tsr_tensor *all[] = {column, scaled, row, product, part};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        tsr_tensor_release(all[i]);
    return st;
}

tsr_status tsr_addr(const tsr_tensor *input, const tsr_tensor *vec1, const tsr_tensor *vec2,
                    tsr_scalar beta, tsr_scalar alpha, tsr_tensor **out)
{
    tsr_status st = null_check("addr", input, vec1, vec2, out);
    if (st == TSR_OK && vec1->ndim != 1)
        st = tsr__set_error(TSR_ERR_SHAPE, "addr: expected 1-D argument vec1, but got %d-D",
                            vec1->ndim);
    if (st == TSR_OK && vec2->ndim != 1)
        st = tsr__set_error(TSR_ERR_SHAPE, "addr: expected 1-D argument vec2, but got %d-D",
                            vec2->ndim);
    if (st != TSR_OK)
        return st;
    tsr_dtype dtype = tsr__promote(tsr__promote(input->dtype, vec1->dtype), vec2->dtype);
    st = check_addr_coefficient("beta", beta, dtype);
    if (st == TSR_OK)
        st = check_addr_coefficient("alpha", alpha, dtype);
    int64_t shape[2] = {vec1->shape[0], vec2->shape[0]};
    if (st == TSR_OK && !broadcasts_to_matrix(input->ndim, input->shape, shape[0], shape[1])) {
        char buf[160];
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "addr: input of shape %s cannot be broadcast to [%lld, %lld]",
                            tsr__shape_str(input->ndim, input->shape, buf, sizeof buf),
                            (long long)shape[0], (long long)shape[1]);
    }
    if (st != TSR_OK)
        return st;
    const tsr_tensor *given[3] = {input, vec1, vec2};
    tsr_tensor *converted[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && st == TSR_OK; i++) {
        if (given[i]->dtype != dtype)
            st = tsr_to_dtype(given[i], dtype, &converted[i]);
    }
    if (st == TSR_OK)
        st = addr_compute(converted[0] ? converted[0] : input, converted[1] ? converted[1] : vec1,
                          converted[2] ? converted[2] : vec2, beta, alpha, out);
    for (int i = 0; i < 3; i++)
        tsr_tensor_release(converted[i]);
    return tsr__claim_error("addr", st);
}

/* ======================================================================== */
/* addbmm                                                                    */
/* ======================================================================== */

/* batch1 [B, N, K] as [N, B * K] and batch2 [B, K, P] as [B * K, P]: their
 * product sums the B products batch1[b] @ batch2[b]. */
tsr_status tsr_addbmm(const tsr_tensor *input, const tsr_tensor *batch1, const tsr_tensor *batch2,
                      tsr_scalar beta, tsr_scalar alpha, tsr_tensor **out)
{
    tsr_status st = null_check("addbmm", input, batch1, batch2, out);
    if (st == TSR_OK)
        st = rank_is("addbmm", "batch1", batch1, 3);
    if (st == TSR_OK)
        st = rank_is("addbmm", "batch2", batch2, 3);
    if (st == TSR_OK && batch1->shape[0] != batch2->shape[0])
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "addbmm: batch1 and batch2 must have same number of batches, got "
                            "%lld and %lld",
                            (long long)batch1->shape[0], (long long)batch2->shape[0]);
    if (st == TSR_OK && batch1->shape[2] != batch2->shape[1])
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "addbmm: incompatible matrix sizes for bmm (%lld x %lld and %lld x "
                            "%lld)",
                            (long long)batch1->shape[1], (long long)batch1->shape[2],
                            (long long)batch2->shape[1], (long long)batch2->shape[2]);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype("addbmm", "batch1", batch1, "batch2", batch2);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype("addbmm", "input", input, "batch2", batch2);
    if (st == TSR_OK)
        st = check_coefficients("addbmm", beta, alpha, batch1->dtype);
    if (st != TSR_OK)
        return st;
    int64_t b = batch1->shape[0], n = batch1->shape[1], k = batch1->shape[2];
    int64_t left_shape[2] = {n, b * k}, right_shape[2] = {b * k, batch2->shape[2]};
    tsr_tensor *moved = NULL, *left = NULL, *right = NULL;
    st = tsr_permute(batch1, 3, (int64_t[]){1, 0, 2}, &moved);
    if (st == TSR_OK)
        st = tsr_reshape(moved, 2, left_shape, &left);
    if (st == TSR_OK)
        st = tsr_reshape(batch2, 2, right_shape, &right);
    if (st == TSR_OK)
        st = tsr__matmul_general("addbmm", left, right, input, alpha, beta, out);
    tsr_tensor_release(moved);
    tsr_tensor_release(left);
    tsr_tensor_release(right);
    return st;
}
