/* Solves, inverses and determinants: linalg_solve_triangular and the older
 * triangular_solve, linalg_solve(_ex), linalg_inv(_ex), linalg_det,
 * linalg_slogdet and logdet, written with the LU and triangular-solve
 * kernels and other ops, so their gradients follow. */
#include <math.h>

#include "autograd/graph.h"
#include "ops/linalg.h"
#include "runtime/error.h"

static tsr_status check_pair(const char *api, const tsr_tensor *a, const tsr_tensor *b, bool left)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st == TSR_OK)
        st = tsr__linalg_check_matrix(api, "B", b, false);
    if (st == TSR_OK)
        st = tsr__linalg_check_same_dtype(api, "A", a, "B", b);
    if (st != TSR_OK)
        return st;
    int64_t n = a->shape[a->ndim - 1];
    int64_t br = b->shape[b->ndim - 2], bc = b->shape[b->ndim - 1];
    if ((left && br != n) || (!left && bc != n))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld "
                              "and %lldx%lld)",
                              api, left ? "AX = B" : "XA = B", (long long)n, (long long)n,
                              (long long)br, (long long)bc);
    return TSR_OK;
}

/* X with A X = B (left) or X A = B: the latter as A^T X^T = B^T. */
static tsr_status solve_triangular_run(const char *api, const tsr_tensor *a, const tsr_tensor *b,
                                       int32_t flags, bool left, tsr_tensor **out)
{
    tsr_tensor *ab = NULL, *bb = NULL, *at = NULL, *bt = NULL, *xt = NULL;
    tsr_status st = tsr__linalg_broadcast_batch(api, a, 2, b, 2, &ab, &bb);
    if (st == TSR_OK && left) {
        st = tsr__linalg_trsm_kernel(ab, bb, flags, out);
    } else if (st == TSR_OK) {
        st = tsr__linalg_mT(ab, &at);
        if (st == TSR_OK)
            st = tsr__linalg_mT(bb, &bt);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(at, bt, flags ^ TSR_LINALG_UPPER, &xt);
        if (st == TSR_OK)
            st = tsr__linalg_mT(xt, out);
    }
    tsr_tensor_release(ab);
    tsr_tensor_release(bb);
    tsr_tensor_release(at);
    tsr_tensor_release(bt);
    tsr_tensor_release(xt);
    return st;
}

tsr_status tsr_linalg_solve_triangular(const tsr_tensor *a, const tsr_tensor *b, bool upper,
                                       bool left, bool unitriangular, tsr_tensor **out)
{
    const char *api = "linalg.solve_triangular";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    /* Unlike the other solves, PyTorch promotes A and B to one dtype here. */
    tsr_dtype dtype;
    tsr_status st = TSR_OK;
    if (!a || !b)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: A and B must not be NULL", api);
    if ((st = tsr_promote_types(a->dtype, b->dtype, &dtype)) != TSR_OK)
        return st;
    tsr_tensor *ac = NULL, *bc = NULL;
    st = tsr_to_dtype(a, dtype, &ac);
    if (st == TSR_OK)
        st = tsr_to_dtype(b, dtype, &bc);
    if (st == TSR_OK)
        st = check_pair(api, ac, bc, left);
    int32_t flags = (upper ? TSR_LINALG_UPPER : 0) | (unitriangular ? TSR_LINALG_UNIT_DIAGONAL : 0);
    if (st == TSR_OK)
        st = solve_triangular_run(api, ac, bc, flags, left, out);
    tsr_tensor_release(ac);
    tsr_tensor_release(bc);
    return st;
}

tsr_status tsr_triangular_solve(const tsr_tensor *b, const tsr_tensor *a, bool upper,
                                bool transpose, bool unitriangular, tsr_tensor **solution,
                                tsr_tensor **cloned_coefficient)
{
    const char *api = "triangular_solve";
    if (!solution || !cloned_coefficient)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: outputs must not be NULL", api);
    tsr_status st = check_pair(api, a, b, true);
    if (st != TSR_OK)
        return st;
    int32_t flags = (upper ? TSR_LINALG_UPPER : 0) | (unitriangular ? TSR_LINALG_UNIT_DIAGONAL : 0);
    tsr_tensor *ab = NULL, *bb = NULL, *at = NULL, *x = NULL, *copy = NULL;
    st = tsr__linalg_broadcast_batch(api, a, 2, b, 2, &ab, &bb);
    if (st == TSR_OK && transpose) {
        st = tsr__linalg_mT(ab, &at);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(at, bb, flags ^ TSR_LINALG_UPPER, &x);
    } else if (st == TSR_OK) {
        st = tsr__linalg_trsm_kernel(ab, bb, flags, &x);
    }
    if (st == TSR_OK)
        st = tsr_clone(ab, &copy);
    tsr_tensor_release(ab);
    tsr_tensor_release(bb);
    tsr_tensor_release(at);
    if (st != TSR_OK) {
        tsr_tensor_release(x);
        return st;
    }
    *solution = x;
    *cloned_coefficient = copy;
    return TSR_OK;
}

/* PyTorch 1.13's rule: B is a vector when 1-d, or when it is A's shape
 * without A's last dim. */
static bool vector_rhs(const tsr_tensor *a, const tsr_tensor *b)
{
    if (b->ndim == 1)
        return true;
    if (b->ndim != a->ndim - 1)
        return false;
    for (int i = 0; i < b->ndim; i++)
        if (b->shape[i] != a->shape[i])
            return false;
    return true;
}

static tsr_status solve_named(const char *api, const char *check_api, tsr__linalg_failure failure,
                              const tsr_tensor *a, const tsr_tensor *b, bool left,
                              bool check_errors, tsr_tensor **result, tsr_tensor **info)
{
    if (!a || !b)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: A and B must not be NULL", api);
    bool vector = a->ndim >= 2 && vector_rhs(a, b);
    tsr_tensor *bm = NULL, *lu = NULL, *pivots = NULL, *codes = NULL, *x = NULL;
    tsr_status st = TSR_OK;
    if (vector)
        st = tsr_unsqueeze(b, left ? -1 : -2, &bm);
    else
        tsr_tensor_retain(bm = (tsr_tensor *)b);
    if (st == TSR_OK)
        st = check_pair(api, a, bm, left);
    if (st == TSR_OK)
        st = tsr__linalg_lu_kernel(a, &lu, &pivots, &codes);
    if (st == TSR_OK && check_errors)
        st = tsr__linalg_check_info(check_api, codes, a->ndim > 2, failure);
    if (st == TSR_OK)
        st = tsr__linalg_lu_solve_named(api, lu, pivots, bm, left, false, &x);
    if (st == TSR_OK && vector) {
        tsr_tensor *squeezed = NULL;
        st = tsr_squeeze_dim(x, left ? -1 : -2, &squeezed);
        tsr_tensor_release(x);
        x = squeezed;
    }
    tsr_tensor_release(bm);
    tsr_tensor_release(lu);
    tsr_tensor_release(pivots);
    if (st != TSR_OK) {
        tsr_tensor_release(codes);
        tsr_tensor_release(x);
        return st;
    }
    *result = x;
    if (info)
        *info = codes;
    else
        tsr_tensor_release(codes);
    return TSR_OK;
}

tsr_status tsr_linalg_solve_ex(const tsr_tensor *a, const tsr_tensor *b, bool left,
                               bool check_errors, tsr_tensor **result, tsr_tensor **info)
{
    if (!result || !info)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "linalg.solve_ex: outputs must not be NULL");
    return solve_named("linalg.solve_ex", "torch.linalg.solve_ex", TSR__LINALG_SINGULAR, a, b, left,
                       check_errors, result, info);
}

tsr_status tsr_linalg_solve(const tsr_tensor *a, const tsr_tensor *b, bool left, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.solve: out must not be NULL");
    return solve_named("linalg.solve", "torch.linalg.solve", TSR__LINALG_SINGULAR, a, b, left, true,
                       out, NULL);
}

static tsr_status inv_named(const char *api, const tsr_tensor *a, bool check_errors,
                            tsr_tensor **inverse, tsr_tensor **info)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st != TSR_OK)
        return st;
    tsr_tensor *eye = NULL;
    st = tsr__linalg_eye_like(a, a->ndim, a->shape, &eye);
    if (st == TSR_OK)
        st = solve_named(api, api, TSR__LINALG_INV, a, eye, true, check_errors, inverse, info);
    tsr_tensor_release(eye);
    return st;
}

tsr_status tsr_linalg_inv_ex(const tsr_tensor *a, bool check_errors, tsr_tensor **inverse,
                             tsr_tensor **info)
{
    if (!inverse || !info)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.inv_ex: outputs must not be NULL");
    return inv_named("linalg.inv_ex", a, check_errors, inverse, info);
}

tsr_status tsr_linalg_inv(const tsr_tensor *a, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.inv: out must not be NULL");
    return inv_named("linalg.inv", a, true, out, NULL);
}

/* ---- determinants ---------------------------------------------------------- */

/* U's diagonal [..., n] and P's sign (int64 +-1, [...]) of A's LU. */
static tsr_status lu_diag_sign(const char *api, const tsr_tensor *a, tsr_tensor **diag,
                               tsr_tensor **sign)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st != TSR_OK)
        return st;
    int64_t n = a->shape[a->ndim - 1], last = -1;
    tsr_tensor *lu = NULL, *pivots = NULL, *codes = NULL, *positions = NULL, *moved = NULL;
    tsr_tensor *count = NULL, *parity = NULL, *twice = NULL;
    st = tsr__linalg_lu_kernel(a, &lu, &pivots, &codes);
    if (st == TSR_OK)
        st = tsr_diagonal(lu, 0, -2, -1, diag);
    if (st == TSR_OK)
        st = tsr_arange(tsr_scalar_int(1), tsr_scalar_int(n + 1), tsr_scalar_int(1), TSR_INT32,
                        a->storage->backend, &positions);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_NE, tsr_operand_tensor(pivots), tsr_operand_tensor(positions),
                        &moved);
    if (st == TSR_OK)
        st = tsr_sum(moved, &last, 1, false, TSR_INT64, &count);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_REMAINDER, tsr_operand_tensor(count),
                        tsr_operand_scalar(tsr_scalar_int(2)), &parity);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(parity),
                        tsr_operand_scalar(tsr_scalar_int(-2)), &twice);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(twice),
                        tsr_operand_scalar(tsr_scalar_int(1)), sign);
    if (st != TSR_OK && *diag) {
        tsr_tensor_release(*diag);
        *diag = NULL;
    }
    tsr_tensor *temps[] = {lu, pivots, codes, positions, moved, count, parity, twice};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
    return st;
}

tsr_status tsr_linalg_det(const tsr_tensor *a, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.det: out must not be NULL");
    tsr_tensor *diag = NULL, *sign = NULL, *product = NULL;
    int64_t last = -1;
    tsr_status st = lu_diag_sign("linalg.det", a, &diag, &sign);
    if (st == TSR_OK)
        st = tsr_prod(diag, &last, 1, false, TSR_DTYPE_INFER, &product);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(product), tsr_operand_tensor(sign), out);
    tsr_tensor_release(diag);
    tsr_tensor_release(sign);
    tsr_tensor_release(product);
    return st;
}

/* The unit-modulus sign of each element: sign(x) for real dtypes, z / |z|
 * (0 at 0) for complex ones. */
static tsr_status unit_sign(const tsr_tensor *t, const tsr_tensor *magnitude, tsr_tensor **out)
{
    if (t->dtype != TSR_COMPLEX64 && t->dtype != TSR_COMPLEX128)
        return tsr_unary(TSR_OP_SIGN, t, out);
    tsr_tensor *zero = NULL, *ratio = NULL;
    tsr_status st = tsr_binary(TSR_OP_EQ, tsr_operand_tensor(magnitude),
                               tsr_operand_scalar(tsr_scalar_float(0.0)), &zero);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_DIV, tsr_operand_tensor(t), tsr_operand_tensor(magnitude), &ratio);
    if (st == TSR_OK)
        st = tsr_where(zero, tsr_operand_scalar(tsr_scalar_float(0.0)), tsr_operand_tensor(ratio),
                       out);
    tsr_tensor_release(zero);
    tsr_tensor_release(ratio);
    return st;
}

static tsr_status slogdet_named(const char *api, const tsr_tensor *a, tsr_tensor **sign,
                                tsr_tensor **logabsdet)
{
    tsr_tensor *diag = NULL, *psign = NULL, *magnitude = NULL, *logs = NULL, *units = NULL;
    tsr_tensor *product = NULL, *s = NULL, *l = NULL;
    int64_t last = -1;
    tsr_status st = lu_diag_sign(api, a, &diag, &psign);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_ABS, diag, &magnitude);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_LOG, magnitude, &logs);
    if (st == TSR_OK)
        st = tsr_sum(logs, &last, 1, false, TSR_DTYPE_INFER, &l);
    if (st == TSR_OK)
        st = unit_sign(diag, magnitude, &units);
    if (st == TSR_OK)
        st = tsr_prod(units, &last, 1, false, TSR_DTYPE_INFER, &product);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(product), tsr_operand_tensor(psign), &s);
    tsr_tensor *temps[] = {diag, psign, magnitude, logs, units, product};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
    if (st != TSR_OK) {
        tsr_tensor_release(s);
        tsr_tensor_release(l);
        return st;
    }
    *sign = s;
    *logabsdet = l;
    return TSR_OK;
}

tsr_status tsr_linalg_slogdet(const tsr_tensor *a, tsr_tensor **sign, tsr_tensor **logabsdet)
{
    if (!sign || !logabsdet)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.slogdet: outputs must not be NULL");
    return slogdet_named("linalg.slogdet", a, sign, logabsdet);
}

tsr_status tsr_logdet(const tsr_tensor *a, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "logdet: out must not be NULL");
    tsr_tensor *sign = NULL, *l = NULL, *negative = NULL, *logsign = NULL;
    tsr_status st = slogdet_named("logdet", a, &sign, &l);
    bool complex = st == TSR_OK && (a->dtype == TSR_COMPLEX64 || a->dtype == TSR_COMPLEX128);
    if (st == TSR_OK && complex) {
        st = tsr_unary(TSR_OP_LOG, sign, &logsign);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(logsign), tsr_operand_tensor(l), out);
    } else if (st == TSR_OK) {
        st = tsr_binary(TSR_OP_LT, tsr_operand_tensor(sign),
                        tsr_operand_scalar(tsr_scalar_float(0.0)), &negative);
        if (st == TSR_OK)
            st = tsr_where(negative, tsr_operand_scalar(tsr_scalar_float(NAN)),
                           tsr_operand_tensor(l), out);
    }
    tsr_tensor_release(sign);
    tsr_tensor_release(l);
    tsr_tensor_release(negative);
    tsr_tensor_release(logsign);
    return st;
}
