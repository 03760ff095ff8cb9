/* The linalg family's argument checks, info messages, batch broadcasting
 * and pivot permutations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/linalg.h"
#include "runtime/error.h"
#include "tensor/shape.h"

/* PyTorch's ScalarType names, as its messages print them. */
static const char *torch_dtype_name(tsr_dtype dtype)
{
    static const char *const names[TSR_DTYPE_COUNT] = {
        "Bool", "Byte",     "Char",  "Short",  "Int",          "Long",
        "Half", "BFloat16", "Float", "Double", "ComplexFloat", "ComplexDouble"};
    return (int)dtype >= 0 && dtype < TSR_DTYPE_COUNT ? names[dtype] : "invalid";
}

tsr_status tsr__linalg_check_matrix(const char *api, const char *arg, const tsr_tensor *t,
                                    bool square)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s must not be NULL", api, arg);
    if (t->ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: The input tensor %s must have at least 2 dimensions.", api, arg);
    tsr_dtype d = t->dtype;
    if (d == TSR_FLOAT16 || d == TSR_BFLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: Low precision dtypes not supported. Got %s", api,
                              torch_dtype_name(d));
    if (d != TSR_FLOAT32 && d != TSR_FLOAT64 && d != TSR_COMPLEX64 && d != TSR_COMPLEX128)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: Expected a floating point or complex tensor as input. Got %s",
                              api, torch_dtype_name(d));
    int64_t m = t->shape[t->ndim - 2], n = t->shape[t->ndim - 1];
    if (square && m != n)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: %s must be batches of square matrices, but they are %lld by "
                              "%lld matrices",
                              api, arg, (long long)m, (long long)n);
    return TSR_OK;
}

tsr_status tsr__linalg_check_same_dtype(const char *api, const char *an, const tsr_tensor *a,
                                        const char *bn, const tsr_tensor *b)
{
    if (a->dtype == b->dtype)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_DTYPE,
                          "%s: Expected %s and %s to have the same dtype, but found %s of type %s "
                          "and %s of type %s instead",
                          api, an, bn, an, torch_dtype_name(a->dtype), bn,
                          torch_dtype_name(b->dtype));
}

static tsr_status info_error(const char *api, int64_t element, bool batched, int32_t k,
                             tsr__linalg_failure failure)
{
    char batch[64] = "";
    if (batched)
        snprintf(batch, sizeof batch, "(Batch element %lld): ", (long long)element);
    switch (failure) {
    case TSR__LINALG_NOT_PD:
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: %sThe factorization could not be completed because the input "
                              "is not positive-definite (the leading minor of order %d is not "
                              "positive-definite).",
                              api, batch, (int)k);
    case TSR__LINALG_SINGULAR:
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: %sThe solver failed because the input matrix is singular.", api,
                              batch);
    case TSR__LINALG_INV:
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: %sThe diagonal element %d is zero, the inversion could not be "
                              "completed because the input matrix is singular.",
                              api, batch, (int)k);
    case TSR__LINALG_LU_FACTOR:
    default:
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: %sU[%d,%d] is zero and using it on lu_solve would result in a "
                              "division by zero. If you still want to perform the factorization, "
                              "consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, "
                              "pivot)",
                              api, batch, (int)k, (int)k);
    }
}

/* The int32 values of t, contiguous in host memory (free with free()). */
static tsr_status int32_to_host(const char *api, const tsr_tensor *t, int32_t **out)
{
    int64_t count = tsr__numel(t->ndim, t->shape);
    int32_t *values = malloc((size_t)(count > 0 ? count : 1) * sizeof *values);
    if (!values)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", api);
    tsr_status st = tsr_to_host(t, values, (size_t)count * sizeof *values);
    if (st != TSR_OK) {
        free(values);
        return st;
    }
    *out = values;
    return TSR_OK;
}

tsr_status tsr__linalg_check_info(const char *api, const tsr_tensor *info, bool batched,
                                  tsr__linalg_failure failure)
{
    int32_t *values = NULL;
    tsr_status st = int32_to_host(api, info, &values);
    if (st != TSR_OK)
        return st;
    int64_t count = tsr__numel(info->ndim, info->shape);
    for (int64_t i = 0; i < count && st == TSR_OK; i++) {
        if (values[i] > 0)
            st = info_error(api, i, batched, values[i], failure);
    }
    free(values);
    return st;
}

tsr_status tsr__linalg_mT(const tsr_tensor *t, tsr_tensor **out)
{
    return tsr_transpose(t, -2, -1, out);
}

static tsr_status expand_to_batch(const tsr_tensor *t, int mat, int nbatch, const int64_t *batch,
                                  tsr_tensor **out)
{
    int64_t sizes[TSR_MAX_DIMS];
    memcpy(sizes, batch, (size_t)nbatch * sizeof *sizes);
    for (int i = 0; i < mat; i++)
        sizes[nbatch + i] = t->shape[t->ndim - mat + i];
    return tsr_expand(t, nbatch + mat, sizes, out);
}

tsr_status tsr__linalg_broadcast_batch(const char *api, const tsr_tensor *a, int a_mat,
                                       const tsr_tensor *b, int b_mat, tsr_tensor **a_out,
                                       tsr_tensor **b_out)
{
    int64_t batch[TSR_MAX_DIMS];
    int nbatch = 0;
    tsr_status st = tsr__broadcast_shapes(api, a->ndim - a_mat, a->shape, b->ndim - b_mat, b->shape,
                                          &nbatch, batch);
    if (st == TSR_OK && (nbatch + a_mat > TSR_MAX_DIMS || nbatch + b_mat > TSR_MAX_DIMS))
        st = tsr__set_error(TSR_ERR_SHAPE, "%s: too many dims", api);
    if (st != TSR_OK)
        return st;
    tsr_tensor *x = NULL, *y = NULL;
    st = expand_to_batch(a, a_mat, nbatch, batch, &x);
    if (st == TSR_OK)
        st = expand_to_batch(b, b_mat, nbatch, batch, &y);
    if (st != TSR_OK) {
        tsr_tensor_release(x);
        return st;
    }
    *a_out = x;
    *b_out = y;
    return TSR_OK;
}

tsr_status tsr__linalg_eye_like(const tsr_tensor *t, int ndim, const int64_t *shape,
                                tsr_tensor **out)
{
    tsr_tensor *eye = NULL;
    int64_t n = shape[ndim - 1];
    tsr_status st = tsr_eye(n, n, t->dtype, t->storage->backend, &eye);
    if (st == TSR_OK)
        st = tsr_expand(eye, ndim, shape, out);
    tsr_tensor_release(eye);
    return st;
}

/* perm and its inverse on the host: m entries per matrix. */
static tsr_status host_perms(const char *api, const tsr_tensor *pivots, int64_t m, int64_t **perm,
                             int64_t **inverse, int64_t *batch)
{
    if (pivots->dtype != TSR_INT32)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: pivots should be a Tensor of type Int", api);
    int64_t k = pivots->ndim > 0 ? pivots->shape[pivots->ndim - 1] : 0;
    int64_t count = tsr__numel(pivots->ndim - 1, pivots->shape);
    int32_t *piv = NULL;
    tsr_status st = int32_to_host(api, pivots, &piv);
    if (st != TSR_OK)
        return st;
    size_t total = (size_t)(count * m > 0 ? count * m : 1);
    int64_t *p = malloc(total * sizeof *p), *q = malloc(total * sizeof *q);
    if (!p || !q)
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", api);
    for (int64_t b = 0; b < count && st == TSR_OK; b++) {
        int64_t *row = p + b * m;
        for (int64_t i = 0; i < m; i++)
            row[i] = i;
        for (int64_t j = 0; j < k && j < m && st == TSR_OK; j++) {
            int64_t to = (int64_t)piv[b * k + j] - 1;
            if (to < 0 || to >= m) {
                st = tsr__set_error(TSR_ERR_INDEX, "%s: pivots must be between 1 and %lld, got %d",
                                    api, (long long)m, (int)piv[b * k + j]);
                break;
            }
            int64_t t = row[j];
            row[j] = row[to];
            row[to] = t;
        }
        for (int64_t i = 0; i < m && st == TSR_OK; i++)
            q[b * m + row[i]] = i;
    }
    free(piv);
    if (st != TSR_OK) {
        free(p);
        free(q);
        return st;
    }
    *perm = p;
    *inverse = q;
    *batch = count;
    return TSR_OK;
}

tsr_status tsr__linalg_pivots_to_perm(const char *api, const tsr_tensor *pivots, int64_t m,
                                      tsr_tensor **perm, tsr_tensor **inverse)
{
    int64_t *p = NULL, *q = NULL, count = 0;
    tsr_status st = host_perms(api, pivots, m, &p, &q, &count);
    if (st != TSR_OK)
        return st;
    int64_t shape[TSR_MAX_DIMS];
    memcpy(shape, pivots->shape, sizeof shape);
    shape[pivots->ndim - 1] = m;
    size_t bytes = (size_t)(count * m) * sizeof(int64_t);
    tsr_backend *b = pivots->storage->backend;
    if (perm)
        st = tsr_from_host(p, bytes, pivots->ndim, shape, TSR_INT64, b, perm);
    if (st == TSR_OK && inverse) {
        st = tsr_from_host(q, bytes, pivots->ndim, shape, TSR_INT64, b, inverse);
        if (st != TSR_OK && perm) {
            tsr_tensor_release(*perm);
            *perm = NULL;
        }
    }
    free(p);
    free(q);
    return st;
}

tsr_status tsr__linalg_pivots_to_matrix(const char *api, const tsr_tensor *pivots, int64_t m,
                                        tsr_dtype dtype, tsr_tensor **out)
{
    int64_t *p = NULL, *q = NULL, count = 0;
    tsr_status st = host_perms(api, pivots, m, &p, &q, &count);
    if (st != TSR_OK)
        return st;
    size_t size = tsr_dtype_size(dtype), total = (size_t)(count * m * m);
    unsigned char *data = calloc(total > 0 ? total : 1, size);
    if (!data) {
        free(p);
        free(q);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", api);
    }
    for (int64_t b = 0; b < count; b++) {
        for (int64_t i = 0; i < m; i++) {
            /* A = P (L U) where row i of L U is row perm[i] of A. */
            unsigned char *at = data + ((size_t)(b * m * m + p[b * m + i] * m + i)) * size;
            if (dtype == TSR_FLOAT32 || dtype == TSR_COMPLEX64) {
                float one = 1.0f;
                memcpy(at, &one, sizeof one);
            } else {
                double one = 1.0;
                memcpy(at, &one, sizeof one);
            }
        }
    }
    int64_t shape[TSR_MAX_DIMS];
    memcpy(shape, pivots->shape, sizeof shape);
    shape[pivots->ndim - 1] = m;
    shape[pivots->ndim] = m;
    st = tsr_from_host(data, total * size, pivots->ndim + 1, shape, dtype, pivots->storage->backend,
                       out);
    free(data);
    free(p);
    free(q);
    return st;
}
