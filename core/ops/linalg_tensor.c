/* The ops that reshape into matrices: linalg_tensorinv, linalg_tensorsolve
 * and linalg_householder_product, composites of inv, solve and matmul. */
#include <string.h>

#include "autograd/graph.h"
#include "ops/linalg.h"
#include "runtime/error.h"
#include "tensor/shape.h"

tsr_status tsr_linalg_tensorinv(const tsr_tensor *a, int64_t ind, tsr_tensor **out)
{
    const char *api = "linalg.tensorinv";
    if (!a || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: A and out must not be NULL", api);
    if (ind <= 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: Expected a strictly positive integer for 'ind', "
                              "but got %lld",
                              api, (long long)ind);
    if (ind > a->ndim)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: ind %lld is past A's %d dims", api,
                              (long long)ind, a->ndim);
    int64_t rows = tsr__numel((int)ind, a->shape),
            cols = tsr__numel(a->ndim - (int)ind, a->shape + ind);
    if (rows != cols)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected self to satisfy the requirement "
                              "prod(self.shape[ind:]) == prod(self.shape[:ind]), but got %lld != "
                              "%lld",
                              api, (long long)cols, (long long)rows);
    int64_t shape[TSR_MAX_DIMS], k = 0;
    for (int i = (int)ind; i < a->ndim; i++)
        shape[k++] = a->shape[i];
    for (int i = 0; i < ind; i++)
        shape[k++] = a->shape[i];
    tsr_tensor *m = NULL, *inv = NULL;
    tsr_status st = tsr_reshape(a, 2, (int64_t[]){rows, cols}, &m);
    if (st == TSR_OK)
        st = tsr_linalg_inv(m, &inv);
    if (st == TSR_OK)
        st = tsr_reshape(inv, a->ndim, shape, out);
    tsr_tensor_release(m);
    tsr_tensor_release(inv);
    return st;
}

tsr_status tsr_linalg_tensorsolve(const tsr_tensor *a, const tsr_tensor *b, const int64_t *dims,
                                  int ndims, tsr_tensor **out)
{
    const char *api = "linalg.tensorsolve";
    if (!a || !b || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: A, B and out must not be NULL", api);
    tsr_tensor *moved = NULL;
    tsr_status st = TSR_OK;
    if (dims && ndims > 0) { /* the named dims of A go last, in order */
        int64_t perm[TSR_MAX_DIMS];
        bool taken[TSR_MAX_DIMS] = {false};
        int k = 0;
        for (int i = 0; i < ndims && st == TSR_OK; i++) {
            int d;
            st = tsr__wrap_dim(api, "dims", dims[i], a->ndim, &d);
            if (st == TSR_OK)
                taken[d] = true;
        }
        for (int i = 0; i < a->ndim && st == TSR_OK; i++)
            if (!taken[i])
                perm[k++] = i;
        for (int i = 0; i < ndims && st == TSR_OK; i++)
            perm[k++] = dims[i] < 0 ? dims[i] + a->ndim : dims[i];
        if (st == TSR_OK)
            st = tsr_permute(a, a->ndim, perm, &moved);
    } else {
        tsr_tensor_retain(moved = (tsr_tensor *)a);
    }
    if (st != TSR_OK)
        return st;
    int64_t rows = tsr__numel(b->ndim, b->shape);
    int64_t cols =
        b->ndim <= moved->ndim ? tsr__numel(moved->ndim - b->ndim, moved->shape + b->ndim) : -1;
    bool prefix = b->ndim <= moved->ndim &&
                  memcmp(moved->shape, b->shape, sizeof(int64_t) * (size_t)b->ndim) == 0;
    if (!prefix || rows != cols) {
        tsr_tensor_release(moved);
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Expected self to satisfy the requirement "
                              "prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), "
                              "and other to have the shape of self's leading dims",
                              api);
    }
    tsr_tensor *m = NULL, *v = NULL, *x = NULL;
    st = tsr_reshape(moved, 2, (int64_t[]){rows, cols}, &m);
    if (st == TSR_OK)
        st = tsr_reshape(b, 1, (int64_t[]){rows}, &v);
    if (st == TSR_OK)
        st = tsr_linalg_solve(m, v, true, &x);
    if (st == TSR_OK)
        st = tsr_reshape(x, moved->ndim - b->ndim, moved->shape + b->ndim, out);
    tsr_tensor_release(moved);
    tsr_tensor_release(m);
    tsr_tensor_release(v);
    tsr_tensor_release(x);
    return st;
}

/* c := H_i c (left) or c H_i (right) for H_i = I - tau_i v_i v_i^T, over
 * i = k-1 .. 0 (backwards) or 0 .. k-1: with v the reflectors' columns,
 * tau [..., k]. Takes c's reference and returns the result's. */
static tsr_status apply_reflectors(const tsr_tensor *v, const tsr_tensor *tau, int64_t k, bool left,
                                   bool backwards, tsr_tensor **c)
{
    tsr_status st = TSR_OK;
    for (int64_t step = 0; step < k && st == TSR_OK; step++) {
        int64_t i = backwards ? k - 1 - step : step;
        tsr_tensor *vi = NULL, *vt = NULL, *w = NULL, *ti = NULL, *t2 = NULL, *tw = NULL;
        tsr_tensor *outer = NULL, *next = NULL;
        st = tsr_narrow(v, -1, i, 1, &vi);
        if (st == TSR_OK)
            st = tsr_transpose(vi, -2, -1, &vt);
        if (st == TSR_OK) /* v^T c [.., 1, cols] or c v [.., rows, 1] */
            st = left ? tsr_matmul(vt, *c, &w) : tsr_matmul(*c, vi, &w);
        if (st == TSR_OK)
            st = tsr_narrow(tau, -1, i, 1, &ti);
        if (st == TSR_OK)
            st = tsr_unsqueeze(ti, -1, &t2);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(w), tsr_operand_tensor(t2), &tw);
        if (st == TSR_OK)
            st = left ? tsr_matmul(vi, tw, &outer) : tsr_matmul(tw, vt, &outer);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_SUB, tsr_operand_tensor(*c), tsr_operand_tensor(outer), &next);
        tsr_tensor *done[] = {vi, vt, w, ti, t2, tw, outer};
        for (size_t j = 0; j < sizeof done / sizeof done[0]; j++)
            tsr_tensor_release(done[j]);
        if (st == TSR_OK) {
            tsr_tensor_release(*c);
            *c = next;
        }
    }
    return st;
}

/* The reflectors' columns of a [..., m, n]: below the diagonal, a one on it. */
static tsr_status reflectors(const tsr_tensor *a, tsr_tensor **v)
{
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    tsr_tensor *strict = NULL, *eye = NULL;
    tsr_status st = tsr_tril(a, -1, &strict);
    if (st == TSR_OK)
        st = tsr_eye(m, n, a->dtype, a->storage->backend, &eye);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(strict), tsr_operand_tensor(eye), v);
    tsr_tensor_release(strict);
    tsr_tensor_release(eye);
    return st;
}

static tsr_status check_reflectors(const char *api, const tsr_tensor *a, const tsr_tensor *tau)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    if (st == TSR_OK && !tau)
        st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tau must not be NULL", api);
    if (st == TSR_OK)
        st = tsr__linalg_check_same_dtype(api, "A", a, "tau", tau);
    if (st == TSR_OK && (a->dtype == TSR_COMPLEX64 || a->dtype == TSR_COMPLEX128))
        st = tsr__set_error(TSR_ERR_UNIMPLEMENTED, "%s: complex inputs are not supported yet", api);
    int64_t n = a->shape[a->ndim - 1], k = tau && tau->ndim > 0 ? tau->shape[tau->ndim - 1] : 0;
    if (st == TSR_OK && (tau->ndim != a->ndim - 1 || k > n))
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "%s: input.shape[-1] must be greater than or equal to tau.shape[-1] "
                            "and tau must have the batch dims of input",
                            api);
    return st;
}

/* Q = H_0 H_1 ... H_(k-1) applied to I's first n columns (m x n). Real
 * dtypes (the complex form needs v^H). */
tsr_status tsr_linalg_householder_product(const tsr_tensor *a, const tsr_tensor *tau,
                                          tsr_tensor **out)
{
    const char *api = "linalg.householder_product";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = check_reflectors(api, a, tau);
    if (st != TSR_OK)
        return st;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    if (m < n)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: input.shape[-2] must be greater than or equal to "
                              "input.shape[-1]",
                              api);
    tsr_tensor *v = NULL, *eye = NULL, *q = NULL;
    st = reflectors(a, &v);
    if (st == TSR_OK)
        st = tsr_eye(m, n, a->dtype, a->storage->backend, &eye);
    if (st == TSR_OK)
        st = tsr_expand(eye, a->ndim, a->shape, &q);
    if (st == TSR_OK)
        st = apply_reflectors(v, tau, tau->shape[tau->ndim - 1], true, true, &q);
    tsr_tensor_release(v);
    tsr_tensor_release(eye);
    return tsr__deliver(st, q, out);
}

/* torch.ormqr(A, tau, C, left, transpose): op(Q) C or C op(Q) with Q the
 * full m x m product of the reflectors. */
tsr_status tsr_ormqr(const tsr_tensor *a, const tsr_tensor *tau, const tsr_tensor *c, bool left,
                     bool transpose, tsr_tensor **out)
{
    const char *api = "ormqr";
    if (!out || !c)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: C and out must not be NULL", api);
    tsr_status st = check_reflectors(api, a, tau);
    if (st == TSR_OK)
        st = tsr__linalg_check_same_dtype(api, "A", a, "C", c);
    if (st == TSR_OK && c->ndim < 2)
        st = tsr__set_error(TSR_ERR_SHAPE, "%s: C must have at least 2 dimensions", api);
    if (st != TSR_OK)
        return st;
    int64_t m = a->shape[a->ndim - 2];
    int64_t side = left ? c->shape[c->ndim - 2] : c->shape[c->ndim - 1];
    if (side != m)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: input.shape[-2] must be equal to other.shape[%d] (%lld != %lld)",
                              api, left ? -2 : -1, (long long)m, (long long)side);
    tsr_tensor *v = NULL, *cc = NULL;
    st = reflectors(a, &v);
    if (st == TSR_OK)
        st = tsr_clone(c, &cc);
    /* Q C and C Q^T take the reflectors from the last, Q^T C and C Q from the first */
    if (st == TSR_OK)
        st = apply_reflectors(v, tau, tau->shape[tau->ndim - 1], left, left != transpose, &cc);
    tsr_tensor_release(v);
    return tsr__deliver(st, cc, out);
}
