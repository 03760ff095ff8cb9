/* tensordot: the contracted dims of each operand moved together, both
 * operands flattened to matrices, one mm, and the result reshaped. A
 * contracted dim of size 1 on one side is summed away on the other first
 * (in the operand's own dtype), as PyTorch does. */
#include "ops/products.h"

#include "autograd/graph.h"
#include "runtime/error.h"
#include "tensor/shape.h"

/* t summed over dim d, keeping it with size 1, in t's dtype. */
static tsr_status sum_keep(tsr_tensor **t, int d)
{
    int64_t dim = d;
    tsr_tensor *sum = NULL;
    tsr_status st = tsr_sum(*t, &dim, 1, true, (*t)->dtype, &sum);
    if (st != TSR_OK) {
        tsr__prefix_error("tensordot");
        return st;
    }
    tsr_tensor_release(*t);
    *t = sum;
    return TSR_OK;
}

/* The wrapped dims of one side, each at most once. */
static tsr_status wrap_dims(const char *arg, const tsr_tensor *t, int n, const int64_t *dims,
                            int *out, bool *contracted)
{
    for (int d = 0; d < t->ndim; d++)
        contracted[d] = false;
    for (int i = 0; i < n; i++) {
        tsr_status st = tsr__wrap_dim("tensordot", arg, dims[i], t->ndim, &out[i]);
        if (st != TSR_OK)
            return st;
        if (t->ndim == 0 || contracted[out[i]])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "tensordot: dim %lld appears more than once in %s",
                                  (long long)dims[i], arg);
        contracted[out[i]] = true;
    }
    return TSR_OK;
}

/* t permuted to (its kept dims, then `dims`) or (`dims`, then kept) and
 * reshaped to a matrix [kept, contracted] or [contracted, kept]. */
static tsr_status as_matrix(const tsr_tensor *t, const int *dims, int n, const bool *contracted,
                            bool contracted_first, int64_t csize, tsr_tensor **out)
{
    int64_t perm[TSR_MAX_DIMS], kept_size = 1;
    int k = 0;
    if (contracted_first) {
        for (int i = 0; i < n; i++)
            perm[k++] = dims[i];
    }
    for (int d = 0; d < t->ndim; d++) {
        if (!contracted[d]) {
            perm[k++] = d;
            kept_size *= t->shape[d];
        }
    }
    if (!contracted_first) {
        for (int i = 0; i < n; i++)
            perm[k++] = dims[i];
    }
    int64_t shape[2] = {contracted_first ? csize : kept_size, contracted_first ? kept_size : csize};
    tsr_tensor *permuted = NULL;
    tsr_status st = tsr_permute(t, t->ndim, perm, &permuted);
    if (st == TSR_OK)
        st = tsr_reshape(permuted, 2, shape, out);
    tsr_tensor_release(permuted);
    return st;
}

/* Checks the paired sizes and sums size-1 broadcast dims away; *csize is
 * the product of the contracted sizes left. */
static tsr_status match_sizes(tsr_tensor **t1, tsr_tensor **t2, const int *da, const int *db, int n,
                              int64_t *csize)
{
    *csize = 1;
    for (int i = 0; i < n; i++) {
        int64_t s1 = (*t1)->shape[da[i]], s2 = (*t2)->shape[db[i]];
        tsr_status st = TSR_OK;
        if (s2 == 1)
            st = sum_keep(t1, da[i]);
        else if (s1 == 1)
            st = sum_keep(t2, db[i]);
        else if (s1 != s2)
            st = tsr__set_error(TSR_ERR_SHAPE,
                                "tensordot: contracted dimensions need to match, but a has size "
                                "%lld in dim %d and b has size %lld in dim %d",
                                (long long)s1, da[i], (long long)s2, db[i]);
        else
            *csize *= s1;
        if (st != TSR_OK)
            return st;
    }
    return TSR_OK;
}

/* a's dims that are not contracted, then b's: the result's shape (the
 * count may exceed TSR_MAX_DIMS; shape holds up to twice that). */
static int result_shape(const tsr_tensor *a, const bool *ca, const tsr_tensor *b, const bool *cb,
                        int64_t *shape)
{
    int ndim = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (!ca[d])
            shape[ndim++] = a->shape[d];
    }
    for (int d = 0; d < b->ndim; d++) {
        if (!cb[d])
            shape[ndim++] = b->shape[d];
    }
    return ndim;
}

tsr_status tsr_tensordot_dims(const tsr_tensor *a, const tsr_tensor *b, int n,
                              const int64_t *dims_a, const int64_t *dims_b, tsr_tensor **out)
{
    if (!a || !b || !out || (n > 0 && (!dims_a || !dims_b)))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tensordot: operands, dims and out must not be NULL");
    if (n < 0 || n > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tensordot: expected 0 to %d dims to contract, got %d", TSR_MAX_DIMS,
                              n);
    if (a->dtype != b->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "tensordot: both inputs should have the same dtype, got %s and %s",
                              tsr_dtype_name(a->dtype), tsr_dtype_name(b->dtype));
    int da[TSR_MAX_DIMS], db[TSR_MAX_DIMS];
    bool ca[TSR_MAX_DIMS], cb[TSR_MAX_DIMS];
    int64_t shape[2 * TSR_MAX_DIMS];
    tsr_status st = wrap_dims("dims_a", a, n, dims_a, da, ca);
    if (st == TSR_OK)
        st = wrap_dims("dims_b", b, n, dims_b, db, cb);
    int ndim = st == TSR_OK ? result_shape(a, ca, b, cb, shape) : 0;
    if (st == TSR_OK && ndim > TSR_MAX_DIMS)
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "tensordot: the result would have %d dims; tessera "
                            "supports %d",
                            ndim, TSR_MAX_DIMS);
    if (st != TSR_OK)
        return st;
    tsr_tensor *t1 = (tsr_tensor *)a, *t2 = (tsr_tensor *)b, *m1 = NULL, *m2 = NULL;
    tsr_tensor *product = NULL, *result = NULL;
    tsr_tensor_retain(t1);
    tsr_tensor_retain(t2);
    int64_t csize = 1;
    st = match_sizes(&t1, &t2, da, db, n, &csize);
    if (st == TSR_OK)
        st = as_matrix(t1, da, n, ca, false, csize, &m1);
    if (st == TSR_OK)
        st = as_matrix(t2, db, n, cb, true, csize, &m2);
    if (st == TSR_OK)
        st = tsr__matmul_general("tensordot", m1, m2, NULL, tsr_scalar_int(1), tsr_scalar_int(0),
                                 &product);
    if (st == TSR_OK)
        st = tsr_reshape(product, ndim, shape, &result);
    tsr_tensor_release(t1);
    tsr_tensor_release(t2);
    tsr_tensor_release(m1);
    tsr_tensor_release(m2);
    tsr_tensor_release(product);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_tensordot(const tsr_tensor *a, const tsr_tensor *b, int64_t dims, tsr_tensor **out)
{
    if (!a || !b || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tensordot: operands and out must not be NULL");
    if (dims < 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tensordot: expects dims >= 0, got %lld",
                              (long long)dims);
    if (dims > a->ndim || dims > b->ndim)
        return tsr__set_error(TSR_ERR_INDEX,
                              "tensordot: cannot contract %lld dims of tensors with %d and %d dims",
                              (long long)dims, a->ndim, b->ndim);
    int64_t dims_a[TSR_MAX_DIMS], dims_b[TSR_MAX_DIMS];
    for (int64_t i = 0; i < dims; i++) {
        dims_a[i] = i - dims;
        dims_b[i] = i;
    }
    return tsr_tensordot_dims(a, b, (int)dims, dims_a, dims_b, out);
}
