/* Cholesky: linalg_cholesky(_ex), the older cholesky, cholesky_solve and
 * cholesky_inverse. The factor is the kernel's; the solves are two
 * triangular solves, so gradients follow from theirs. */
#include "autograd/graph.h"
#include "ops/linalg.h"
#include "ops/linalg_grad.h"
#include "runtime/error.h"

static tsr_status cholesky_named(const char *api, const tsr_tensor *a, bool upper,
                                 bool check_errors, tsr_tensor **l, tsr_tensor **info)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, true);
    if (st != TSR_OK)
        return st;
    tsr_tensor *factor = NULL, *codes = NULL;
    st = tsr__linalg_cholesky_kernel(a, upper, &factor, &codes);
    if (st == TSR_OK && check_errors)
        st = tsr__linalg_check_info(api, codes, a->ndim > 2, TSR__LINALG_NOT_PD);
    if (st != TSR_OK) {
        tsr_tensor_release(factor);
        tsr_tensor_release(codes);
        return st;
    }
    *l = factor;
    if (info)
        *info = codes;
    else
        tsr_tensor_release(codes);
    return TSR_OK;
}

tsr_status tsr_linalg_cholesky_ex(const tsr_tensor *a, bool upper, bool check_errors,
                                  tsr_tensor **l, tsr_tensor **info)
{
    if (!l || !info)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "linalg.cholesky_ex: outputs must not be NULL");
    return cholesky_named("linalg.cholesky_ex", a, upper, check_errors, l, info);
}

tsr_status tsr_linalg_cholesky(const tsr_tensor *a, bool upper, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "linalg.cholesky: out must not be NULL");
    return cholesky_named("linalg.cholesky", a, upper, true, out, NULL);
}

tsr_status tsr_cholesky(const tsr_tensor *a, bool upper, tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "cholesky: out must not be NULL");
    return cholesky_named("cholesky", a, upper, true, out, NULL);
}

/* (L L^H) X = B: L Y = B, then L^H X = Y; with upper, U^H Y = B, U X = Y.
 * L^H is L's transposed view read with the kernel's conjugate flag. The
 * solves run without recording: the op has a node of its own, whose
 * gradient treats L as a whole matrix as PyTorch's does. */
static tsr_status cholesky_solves(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                                  tsr_tensor **out);

static tsr_status cholesky_solve_batched(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                                         tsr_tensor **out)
{
    tsr_tensor *x = NULL;
    bool previous = tsr_grad_mode_set(false);
    tsr_status st = cholesky_solves(b, l, upper, &x);
    tsr_grad_mode_set(previous);
    if (st == TSR_OK)
        st = tsr__grad_record_cholesky_solve(b, l, upper, x);
    return tsr__deliver(st, x, out);
}

static tsr_status cholesky_solves(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                                  tsr_tensor **out)
{
    tsr_tensor *lt = NULL, *y = NULL;
    tsr_status st = tsr__linalg_mT(l, &lt);
    if (st != TSR_OK)
        return st;
    if (upper) {
        st = tsr__linalg_trsm_kernel(lt, b, TSR_LINALG_CONJ, &y);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(l, y, TSR_LINALG_UPPER, out);
    } else {
        st = tsr__linalg_trsm_kernel(l, b, 0, &y);
        if (st == TSR_OK)
            st = tsr__linalg_trsm_kernel(lt, y, TSR_LINALG_UPPER | TSR_LINALG_CONJ, out);
    }
    tsr_tensor_release(lt);
    tsr_tensor_release(y);
    return st;
}

tsr_status tsr_cholesky_solve(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                              tsr_tensor **out)
{
    const char *api = "cholesky_solve";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "input", b, false);
    if (st == TSR_OK)
        st = tsr__linalg_check_matrix(api, "input2", l, true);
    if (st == TSR_OK)
        st = tsr__linalg_check_same_dtype(api, "input", b, "input2", l);
    if (st == TSR_OK && b->shape[b->ndim - 2] != l->shape[l->ndim - 1])
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "%s: Incompatible matrix sizes for cholesky_solve: each A matrix is "
                            "%lld by %lld but each b matrix is %lld by %lld",
                            api, (long long)l->shape[l->ndim - 1], (long long)l->shape[l->ndim - 1],
                            (long long)b->shape[b->ndim - 2], (long long)b->shape[b->ndim - 1]);
    if (st != TSR_OK)
        return st;
    tsr_tensor *lb = NULL, *bb = NULL;
    st = tsr__linalg_broadcast_batch(api, l, 2, b, 2, &lb, &bb);
    if (st == TSR_OK)
        st = cholesky_solve_batched(bb, lb, upper, out);
    tsr_tensor_release(lb);
    tsr_tensor_release(bb);
    return st;
}

tsr_status tsr_cholesky_inverse(const tsr_tensor *l, bool upper, tsr_tensor **out)
{
    const char *api = "cholesky_inverse";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "input", l, true);
    if (st != TSR_OK)
        return st;
    tsr_tensor *eye = NULL;
    st = tsr__linalg_eye_like(l, l->ndim, l->shape, &eye);
    if (st == TSR_OK)
        st = cholesky_solve_batched(eye, l, upper, out);
    tsr_tensor_release(eye);
    return st;
}
