/* LU: linalg_lu_factor(_ex), linalg_lu, lu_unpack, linalg_lu_solve and the
 * older lu_solve. The factorisation is the kernel's; unpacking is tril,
 * triu and a permutation matrix; solving is a row gather and two
 * triangular solves, so gradients follow from the kernels'. */
#include "autograd/graph.h"
#include "ops/linalg.h"
#include "runtime/error.h"

static tsr_status lu_factor_named(const char *api, const tsr_tensor *a, bool pivot,
                                  bool check_errors, tsr_tensor **lu, tsr_tensor **pivots,
                                  tsr_tensor **info)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    if (st != TSR_OK)
        return st;
    if (!pivot)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "%s: LU without pivoting is not implemented on the CPU", api);
    tsr_tensor *f = NULL, *p = NULL, *codes = NULL;
    st = tsr__linalg_lu_kernel(a, &f, &p, &codes);
    if (st == TSR_OK && check_errors)
        st = tsr__linalg_check_info(api, codes, a->ndim > 2, TSR__LINALG_LU_FACTOR);
    if (st != TSR_OK) {
        tsr_tensor_release(f);
        tsr_tensor_release(p);
        tsr_tensor_release(codes);
        return st;
    }
    *lu = f;
    *pivots = p;
    if (info)
        *info = codes;
    else
        tsr_tensor_release(codes);
    return TSR_OK;
}

tsr_status tsr_linalg_lu_factor_ex(const tsr_tensor *a, bool pivot, bool check_errors,
                                   tsr_tensor **lu, tsr_tensor **pivots, tsr_tensor **info)
{
    if (!lu || !pivots || !info)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "torch.linalg.lu_factor_ex: outputs must not be NULL");
    return lu_factor_named("torch.linalg.lu_factor_ex", a, pivot, check_errors, lu, pivots, info);
}

tsr_status tsr_linalg_lu_factor(const tsr_tensor *a, bool pivot, tsr_tensor **lu,
                                tsr_tensor **pivots)
{
    if (!lu || !pivots)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "torch.linalg.lu_factor: outputs must not be NULL");
    return lu_factor_named("torch.linalg.lu_factor", a, pivot, true, lu, pivots, NULL);
}

static tsr_status empty_1d(const tsr_tensor *like, tsr_tensor **out)
{
    int64_t zero = 0;
    return tsr_empty(1, &zero, like->dtype, like->storage->backend, out);
}

/* L = tril(LU[..., :, :k], -1) + I (m x k), U = triu(LU[..., :k, :]). */
static tsr_status unpack_data(const tsr_tensor *lu, tsr_tensor **l, tsr_tensor **u)
{
    int nd = lu->ndim;
    int64_t m = lu->shape[nd - 2], n = lu->shape[nd - 1], k = m < n ? m : n;
    tsr_tensor *cols = NULL, *strict = NULL, *eye = NULL, *eye_b = NULL, *rows = NULL;
    tsr_status st = tsr_narrow(lu, -1, 0, k, &cols);
    if (st == TSR_OK)
        st = tsr_tril(cols, -1, &strict);
    if (st == TSR_OK)
        st = tsr_eye(m, k, lu->dtype, lu->storage->backend, &eye);
    if (st == TSR_OK)
        st = tsr_expand(eye, strict->ndim, strict->shape, &eye_b);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(strict), tsr_operand_tensor(eye_b), l);
    if (st == TSR_OK)
        st = tsr_narrow(lu, -2, 0, k, &rows);
    if (st == TSR_OK && (st = tsr_triu(rows, 0, u)) != TSR_OK) {
        tsr_tensor_release(*l);
        *l = NULL;
    }
    tsr_tensor_release(cols);
    tsr_tensor_release(strict);
    tsr_tensor_release(eye);
    tsr_tensor_release(eye_b);
    tsr_tensor_release(rows);
    return st;
}

static tsr_status check_pivots(const char *api, const tsr_tensor *lu, const tsr_tensor *pivots)
{
    if (!pivots)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: pivots must not be NULL", api);
    if (pivots->dtype != TSR_INT32)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: pivots should be a Tensor of type Int", api);
    int64_t m = lu->shape[lu->ndim - 2], n = lu->shape[lu->ndim - 1];
    bool ok = pivots->ndim == lu->ndim - 1 && pivots->shape[pivots->ndim - 1] == (m < n ? m : n);
    for (int i = 0; ok && i < lu->ndim - 2; i++)
        ok = pivots->shape[i] == lu->shape[i];
    if (!ok)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: pivots must have the batch shape of LU and min(m, n) elements",
                              api);
    return TSR_OK;
}

tsr_status tsr_lu_unpack(const tsr_tensor *lu, const tsr_tensor *pivots, bool unpack_data_,
                         bool unpack_pivots, tsr_tensor **p, tsr_tensor **l, tsr_tensor **u)
{
    const char *api = "lu_unpack";
    if (!p || !l || !u)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: outputs must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "LU_data", lu, false);
    if (st == TSR_OK)
        st = check_pivots(api, lu, pivots);
    if (st != TSR_OK)
        return st;
    tsr_tensor *pm = NULL, *lm = NULL, *um = NULL;
    if (unpack_pivots)
        st = tsr__linalg_pivots_to_matrix(api, pivots, lu->shape[lu->ndim - 2], lu->dtype, &pm);
    else
        st = empty_1d(lu, &pm);
    if (st == TSR_OK && unpack_data_)
        st = unpack_data(lu, &lm, &um);
    else if (st == TSR_OK && (st = empty_1d(lu, &lm)) == TSR_OK)
        st = empty_1d(lu, &um);
    if (st != TSR_OK) {
        tsr_tensor_release(pm);
        tsr_tensor_release(lm);
        tsr_tensor_release(um);
        return st;
    }
    *p = pm;
    *l = lm;
    *u = um;
    return TSR_OK;
}

tsr_status tsr_linalg_lu(const tsr_tensor *a, bool pivot, tsr_tensor **p, tsr_tensor **l,
                         tsr_tensor **u)
{
    const char *api = "linalg.lu";
    if (!p || !l || !u)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: outputs must not be NULL", api);
    tsr_tensor *lu = NULL, *pivots = NULL;
    tsr_status st = lu_factor_named(api, a, pivot, false, &lu, &pivots, NULL);
    if (st == TSR_OK)
        st = tsr_lu_unpack(lu, pivots, true, true, p, l, u);
    tsr_tensor_release(lu);
    tsr_tensor_release(pivots);
    return st;
}

/* Rows of b [..., n, k] reordered: row i of the result is row order[i]. */
static tsr_status gather_rows(const tsr_tensor *b, const tsr_tensor *order, tsr_tensor **out)
{
    tsr_tensor *col = NULL, *index = NULL;
    tsr_status st = tsr_unsqueeze(order, -1, &col);
    if (st == TSR_OK)
        st = tsr_expand(col, b->ndim, b->shape, &index);
    if (st == TSR_OK)
        st = tsr_gather(b, -2, index, out);
    tsr_tensor_release(col);
    tsr_tensor_release(index);
    return st;
}

/* op(A) X = B for A = P L U packed in lu (batch dims equal to b's), op
 * A itself, A^T (transpose) or either conjugated (conj). */
static tsr_status lu_apply(const tsr_tensor *lu, const tsr_tensor *perm, const tsr_tensor *inverse,
                           const tsr_tensor *b, bool transpose, bool conj, tsr_tensor **out)
{
    int32_t c = conj ? TSR_LINALG_CONJ : 0;
    tsr_tensor *t0 = NULL, *t1 = NULL, *lut = NULL;
    tsr_status st;
    if (!transpose) { /* X = U^-1 L^-1 P^T B */
        st = gather_rows(b, perm, &t0);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(lu, t0, TSR_LINALG_UNIT_DIAGONAL | c, &t1);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(lu, t1, TSR_LINALG_UPPER | c, out);
    } else { /* A^T = U^T L^T P^T: X = P L^-T U^-T B */
        st = tsr__linalg_mT(lu, &lut);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(lut, b, c, &t0);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(lut, t0, TSR_LINALG_UPPER | TSR_LINALG_UNIT_DIAGONAL | c,
                                         &t1);
        if (st == TSR_OK)
            st = gather_rows(t1, inverse, out);
    }
    tsr_tensor_release(t0);
    tsr_tensor_release(t1);
    tsr_tensor_release(lut);
    return st;
}

tsr_status tsr__linalg_lu_solve_named(const char *api, const tsr_tensor *lu,
                                      const tsr_tensor *pivots, const tsr_tensor *b, bool left,
                                      bool adjoint, tsr_tensor **out)
{
    int64_t n = lu->shape[lu->ndim - 1];
    tsr_tensor *perm = NULL, *inverse = NULL, *bt = NULL, *lub = NULL, *bb = NULL;
    tsr_tensor *permb = NULL, *invb = NULL, *x = NULL;
    tsr_status st =
        left ? (tsr_tensor_retain(b), bt = (tsr_tensor *)b, TSR_OK) : tsr__linalg_mT(b, &bt);
    if (st == TSR_OK)
        st = tsr__linalg_pivots_to_perm(api, pivots, n, &perm, &inverse);
    if (st == TSR_OK)
        st = tsr__linalg_broadcast_batch(api, lu, 2, bt, 2, &lub, &bb);
    int64_t shape[TSR_MAX_DIMS];
    if (st == TSR_OK) {
        for (int i = 0; i < bb->ndim - 1; i++)
            shape[i] = bb->shape[i];
        shape[bb->ndim - 2] = n;
        st = tsr_expand(perm, bb->ndim - 1, shape, &permb);
    }
    if (st == TSR_OK)
        st = tsr_expand(inverse, bb->ndim - 1, shape, &invb);
    if (st == TSR_OK)
        st = lu_apply(lub, permb, invb, bb, left ? adjoint : !adjoint, adjoint, &x);
    if (st == TSR_OK && !left) {
        tsr_tensor *xt = NULL;
        st = tsr__linalg_mT(x, &xt);
        tsr_tensor_release(x);
        x = xt;
    }
    tsr_tensor_release(perm);
    tsr_tensor_release(inverse);
    tsr_tensor_release(bt);
    tsr_tensor_release(lub);
    tsr_tensor_release(bb);
    tsr_tensor_release(permb);
    tsr_tensor_release(invb);
    return tsr__deliver(st, x, out);
}

static tsr_status lu_solve_checked(const char *api, const tsr_tensor *lu, const tsr_tensor *pivots,
                                   const tsr_tensor *b, bool left, bool adjoint, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "LU", lu, true);
    if (st == TSR_OK)
        st = tsr__linalg_check_matrix(api, "B", b, false);
    if (st == TSR_OK)
        st = tsr__linalg_check_same_dtype(api, "LU", lu, "B", b);
    if (st == TSR_OK)
        st = check_pivots(api, lu, pivots);
    if (st != TSR_OK)
        return st;
    int64_t n = lu->shape[lu->ndim - 1];
    int64_t br = b->shape[b->ndim - 2], bc = b->shape[b->ndim - 1];
    if ((left && br != n) || (!left && bc != n))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld "
                              "and %lldx%lld)",
                              api, left ? "AX = B" : "XA = B", (long long)n, (long long)n,
                              (long long)br, (long long)bc);
    return tsr__linalg_lu_solve_named(api, lu, pivots, b, left, adjoint, out);
}

tsr_status tsr_linalg_lu_solve(const tsr_tensor *lu, const tsr_tensor *pivots, const tsr_tensor *b,
                               bool left, bool adjoint, tsr_tensor **out)
{
    return lu_solve_checked("linalg.lu_solve", lu, pivots, b, left, adjoint, out);
}

tsr_status tsr_lu_solve(const tsr_tensor *b, const tsr_tensor *lu, const tsr_tensor *pivots,
                        tsr_tensor **out)
{
    return lu_solve_checked("lu_solve", lu, pivots, b, true, false, out);
}
