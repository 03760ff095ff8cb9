/* Norms and the ops on singular values: linalg_matrix_norm, linalg_cond,
 * linalg_matrix_rank, linalg_pinv and pinverse, composites of the SVD (or
 * eigh), the inverse and reductions, so their gradients are those of the
 * ops they are written with. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "autograd/graph.h"
#include "ops/linalg.h"
#include "runtime/error.h"

/* The two matrix dims wrapped, or an error. */
static tsr_status matrix_dims(const char *api, const tsr_tensor *a, const int64_t *dim, int *d0,
                              int *d1)
{
    int64_t want[2] = {dim ? dim[0] : -2, dim ? dim[1] : -1};
    int out[2];
    for (int i = 0; i < 2; i++) {
        int64_t d = want[i] < 0 ? want[i] + a->ndim : want[i];
        if (d < 0 || d >= a->ndim)
            return tsr__set_error(TSR_ERR_INDEX,
                                  "%s: Dimension out of range (expected to be in range of [%d, "
                                  "%d], but got %lld)",
                                  api, -a->ndim, a->ndim - 1, (long long)want[i]);
        out[i] = (int)d;
    }
    if (out[0] == out[1])
        return tsr__set_error(TSR_ERR_VALUE, "%s: dims must be different. Got (%lld, %lld)", api,
                              (long long)want[0], (long long)want[1]);
    *d0 = out[0];
    *d1 = out[1];
    return TSR_OK;
}

/* a with dims d0, d1 moved last (a view). */
static tsr_status move_last(const tsr_tensor *a, int d0, int d1, tsr_tensor **out)
{
    int64_t perm[TSR_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < a->ndim; i++)
        if (i != d0 && i != d1)
            perm[k++] = i;
    perm[k++] = d0;
    perm[k++] = d1;
    return tsr_permute(a, a->ndim, perm, out);
}

/* A reduction over the last dim of values, then the two matrix dims put
 * back as size 1 with keepdim. */
static tsr_status reduce_values(const tsr_tensor *values, char how, bool keepdim, int d0, int d1,
                                tsr_tensor **out)
{
    int64_t last = -1;
    tsr_tensor *r = NULL, *u = NULL;
    tsr_status st = how == 's'   ? tsr_sum(values, &last, 1, false, TSR_DTYPE_INFER, &r)
                    : how == 'M' ? tsr_amax(values, &last, 1, false, &r)
                                 : tsr_amin(values, &last, 1, false, &r);
    if (st == TSR_OK && keepdim) {
        int lo = d0 < d1 ? d0 : d1, hi = d0 < d1 ? d1 : d0;
        st = tsr_unsqueeze(r, lo, &u);
        tsr_tensor_release(r);
        r = NULL;
        if (st == TSR_OK)
            st = tsr_unsqueeze(u, hi, &r);
        tsr_tensor_release(u);
    }
    return tsr__deliver(st, r, out);
}

tsr_status tsr_linalg_matrix_norm(const tsr_tensor *a, const char *ord_name, double ord,
                                  const int64_t *dim, bool keepdim, tsr_tensor **out)
{
    const char *api = "linalg.matrix_norm";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    int d0 = 0, d1 = 0;
    if (st == TSR_OK)
        st = matrix_dims(api, a, dim, &d0, &d1);
    if (st != TSR_OK)
        return st;
    int64_t dims[2] = {d0, d1};
    if (ord_name && strcmp(ord_name, "fro") == 0)
        return tsr_linalg_vector_norm(a, 2.0, dims, 2, keepdim, TSR_DTYPE_INFER, out);
    bool nuc = ord_name && strcmp(ord_name, "nuc") == 0;
    bool spectral = !ord_name && fabs(ord) == 2.0;
    bool sums = !ord_name && (fabs(ord) == 1.0 || isinf(ord));
    if (!nuc && !spectral && !sums) {
        if (ord_name)
            return tsr__set_error(TSR_ERR_VALUE, "%s: Order %s not supported.", api, ord_name);
        return tsr__set_error(TSR_ERR_VALUE, "%s: Order %g not supported.", api, ord);
    }
    if (nuc || spectral) {
        tsr_tensor *moved = NULL, *s = NULL;
        st = move_last(a, d0, d1, &moved);
        if (st == TSR_OK)
            st = tsr_linalg_svdvals(moved, &s);
        if (st == TSR_OK)
            st = reduce_values(s, nuc ? 's' : ord > 0 ? 'M' : 'm', keepdim, d0, d1, out);
        tsr_tensor_release(moved);
        tsr_tensor_release(s);
        return st;
    }
    /* 1: the largest column sum of |A| (over d0, then the max over d1); inf: rows */
    int sum_dim = isinf(ord) ? d1 : d0, max_dim = isinf(ord) ? d0 : d1;
    if (!keepdim && max_dim > sum_dim)
        max_dim--;
    int64_t sd = sum_dim, md = max_dim;
    tsr_tensor *mag = NULL, *sum = NULL;
    st = tsr_unary(TSR_OP_ABS, a, &mag);
    if (st == TSR_OK)
        st = tsr_sum(mag, &sd, 1, keepdim, TSR_DTYPE_INFER, &sum);
    if (st == TSR_OK)
        st = ord > 0 ? tsr_amax(sum, &md, 1, keepdim, out) : tsr_amin(sum, &md, 1, keepdim, out);
    tsr_tensor_release(mag);
    tsr_tensor_release(sum);
    return st;
}

tsr_status tsr_linalg_cond(const tsr_tensor *a, const char *p_name, double p, bool has_p,
                           tsr_tensor **out)
{
    const char *api = "linalg.cond";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    if (st != TSR_OK)
        return st;
    if (!p_name && (!has_p || fabs(p) == 2.0)) { /* ratio of extreme singular values */
        tsr_tensor *s = NULL, *first = NULL, *last = NULL;
        int64_t k = a->shape[a->ndim - 1] < a->shape[a->ndim - 2] ? a->shape[a->ndim - 1]
                                                                  : a->shape[a->ndim - 2];
        st = tsr_linalg_svdvals(a, &s);
        if (st == TSR_OK)
            st = tsr_narrow(s, -1, 0, 1, &first);
        if (st == TSR_OK)
            st = tsr_narrow(s, -1, k - 1, 1, &last);
        tsr_tensor *ratio = NULL;
        if (st == TSR_OK)
            st = !has_p || p > 0 ? tsr_binary(TSR_OP_DIV, tsr_operand_tensor(first),
                                              tsr_operand_tensor(last), &ratio)
                                 : tsr_binary(TSR_OP_DIV, tsr_operand_tensor(last),
                                              tsr_operand_tensor(first), &ratio);
        if (st == TSR_OK)
            st = tsr_squeeze_dim(ratio, -1, out);
        tsr_tensor_release(s);
        tsr_tensor_release(first);
        tsr_tensor_release(last);
        tsr_tensor_release(ratio);
        return st;
    }
    if ((st = tsr__linalg_check_matrix(api, "A", a, true)) != TSR_OK)
        return st;
    tsr_tensor *inv = NULL, *na = NULL, *ni = NULL;
    st = tsr_linalg_inv(a, &inv);
    if (st == TSR_OK)
        st = tsr_linalg_matrix_norm(a, p_name, p, NULL, false, &na);
    if (st == TSR_OK)
        st = tsr_linalg_matrix_norm(inv, p_name, p, NULL, false, &ni);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(na), tsr_operand_tensor(ni), out);
    tsr_tensor_release(inv);
    tsr_tensor_release(na);
    tsr_tensor_release(ni);
    return st;
}

/* The singular values (|eigenvalues| when hermitian) and the cut-off
 * max(atol, rtol * largest) with PyTorch's defaults, as [..., 1]. */
static tsr_status values_and_cutoff(const char *api, const tsr_tensor *a, const double *atol,
                                    const double *rtol, bool hermitian, tsr_tensor **values,
                                    tsr_tensor **cutoff)
{
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, hermitian);
    if (st != TSR_OK)
        return st;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1], last = -1;
    double eps = a->dtype == TSR_FLOAT32 || a->dtype == TSR_COMPLEX64 ? FLT_EPSILON : DBL_EPSILON;
    double at = atol ? *atol : 0.0;
    double rt = rtol ? *rtol : (atol && *atol > 0 ? 0.0 : eps * (double)(m > n ? m : n));
    tsr_tensor *w = NULL, *s = NULL, *largest = NULL, *scaled = NULL;
    if (hermitian) {
        st = tsr_linalg_eigvalsh(a, "L", &w);
        if (st == TSR_OK)
            st = tsr_unary(TSR_OP_ABS, w, &s);
    } else {
        st = tsr_linalg_svdvals(a, &s);
    }
    if (st == TSR_OK)
        st = m * n == 0 ? tsr_sum(s, &last, 1, true, TSR_DTYPE_INFER, &largest)
                        : tsr_amax(s, &last, 1, true, &largest);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(largest),
                        tsr_operand_scalar(tsr_scalar_float(rt)), &scaled);
    tsr_operand floor = tsr_operand_scalar(tsr_scalar_float(at));
    if (st == TSR_OK)
        st = tsr_clamp(scaled, &floor, NULL, cutoff);
    tsr_tensor_release(w);
    tsr_tensor_release(largest);
    tsr_tensor_release(scaled);
    return tsr__deliver(st, s, values);
}

tsr_status tsr_linalg_matrix_rank(const tsr_tensor *a, const double *atol, const double *rtol,
                                  bool hermitian, tsr_tensor **out)
{
    const char *api = "linalg.matrix_rank";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    tsr_tensor *s = NULL, *cut = NULL, *above = NULL;
    int64_t last = -1;
    tsr_status st = values_and_cutoff(api, a, atol, rtol, hermitian, &s, &cut);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_GT, tsr_operand_tensor(s), tsr_operand_tensor(cut), &above);
    if (st == TSR_OK)
        st = tsr_sum(above, &last, 1, false, TSR_INT64, out);
    tsr_tensor_release(s);
    tsr_tensor_release(cut);
    tsr_tensor_release(above);
    return st;
}

tsr_status tsr_linalg_pinv(const tsr_tensor *a, const double *atol, const double *rtol,
                           bool hermitian, tsr_tensor **out)
{
    const char *api = "linalg.pinv";
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", api);
    if (a && (a->dtype == TSR_COMPLEX64 || a->dtype == TSR_COMPLEX128))
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "%s: complex inputs are not supported yet (no conjugation op)", api);
    tsr_tensor *s = NULL, *cut = NULL, *u = NULL, *vh = NULL, *w = NULL, *keep = NULL;
    tsr_tensor *inv = NULL, *sinv = NULL, *scaled = NULL, *ut = NULL, *v = NULL;
    tsr_status st = values_and_cutoff(api, a, atol, rtol, hermitian, &s, &cut);
    tsr_tensor_release(s);
    s = NULL;
    /* the decomposition whose values the cut-off was taken from */
    if (st == TSR_OK && hermitian) {
        st = tsr_linalg_eigh(a, "L", &w, &u);
        if (st == TSR_OK)
            st = tsr_unary(TSR_OP_ABS, w, &s);
    } else if (st == TSR_OK) {
        st = tsr_linalg_svd(a, false, &u, &s, &vh);
    }
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_GT, tsr_operand_tensor(s), tsr_operand_tensor(cut), &keep);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_RECIPROCAL, hermitian ? w : s, &inv);
    if (st == TSR_OK)
        st = tsr_where(keep, tsr_operand_tensor(inv), tsr_operand_scalar(tsr_scalar_float(0.0)),
                       &sinv);
    if (st == TSR_OK)
        st = tsr_unsqueeze(sinv, -2, &scaled); /* a row: scales V's columns */
    if (st == TSR_OK)
        st = tsr__linalg_mT(u, &ut);
    if (st == TSR_OK)
        st = hermitian ? (tsr_tensor_retain(u), v = u, TSR_OK) : tsr__linalg_mT(vh, &v);
    tsr_tensor *vs = NULL;
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(v), tsr_operand_tensor(scaled), &vs);
    if (st == TSR_OK)
        st = tsr_matmul(vs, ut, out);
    tsr_tensor *temps[] = {s, cut, u, vh, w, keep, inv, sinv, scaled, ut, v, vs};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
    return st;
}

tsr_status tsr_pinverse(const tsr_tensor *a, double rcond, tsr_tensor **out)
{
    double atol = 0.0;
    return tsr_linalg_pinv(a, &atol, &rcond, false, out);
}

tsr_status tsr_linalg_norm(const tsr_tensor *a, const char *ord_name, double ord, bool has_ord,
                           const int64_t *dim, int ndim, bool keepdim, tsr_tensor **out)
{
    const char *api = "linalg.norm";
    if (!a || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: A and out must not be NULL", api);
    /* PyTorch 1.13: a matrix norm for a name, for two dims, or for a 2-d A
     * with an order and no dims; a vector norm otherwise (2 by default). */
    bool matrix = ord_name || (dim && ndim == 2) || (!dim && has_ord && a->ndim == 2);
    if (matrix && !(dim && ndim == 2) && a->ndim != 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: If dim is not specified but ord is, the input must be 1D or 2D. "
                              "Got %dD.",
                              api, a->ndim);
    if (matrix)
        return tsr_linalg_matrix_norm(a, ord_name ? ord_name : NULL, ord_name ? 0 : ord, dim,
                                      keepdim, out);
    if (!dim && has_ord && a->ndim != 1)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: If dim is not specified but ord is, the input must be 1D or 2D. "
                              "Got %dD.",
                              api, a->ndim);
    return tsr_linalg_vector_norm(a, has_ord ? ord : 2.0, dim, dim ? ndim : 0, keepdim,
                                  TSR_DTYPE_INFER, out);
}

/* torch.linalg.lstsq through the SVD: the minimum-norm solution, which
 * every LAPACK driver gives for a matrix of full rank (gelsy's and gels's
 * differ from it only on rank-deficient ones), with each driver's outputs:
 * residuals for gelsd, gelss and gels when m > n and every matrix has full
 * rank; rank for all but gels; singular values for gelsd and gelss. Real
 * dtypes (pinv's). */
static tsr_status empty_of(const tsr_tensor *like, tsr_dtype dtype, tsr_tensor **out)
{
    int64_t zero = 0;
    return tsr_empty(1, &zero, dtype, like->storage->backend, out);
}

tsr_status tsr_linalg_lstsq(const tsr_tensor *a, const tsr_tensor *b, const double *rcond,
                            const char *driver, tsr_tensor **solution, tsr_tensor **residuals,
                            tsr_tensor **rank, tsr_tensor **singular_values)
{
    const char *api = "torch.linalg.lstsq";
    if (!solution || !residuals || !rank || !singular_values)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: outputs must not be NULL", api);
    const char *d = driver ? driver : "gelsy";
    bool gels = strcmp(d, "gels") == 0, gelsy = strcmp(d, "gelsy") == 0;
    bool svd_driver = strcmp(d, "gelsd") == 0 || strcmp(d, "gelss") == 0;
    if (!gels && !gelsy && !svd_driver)
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)",
                              api);
    tsr_status st = tsr__linalg_check_matrix(api, "A", a, false);
    if (st == TSR_OK)
        st = tsr__linalg_check_matrix(api, "B", b, false);
    if (st == TSR_OK)
        st = tsr__linalg_check_same_dtype(api, "A", a, "B", b);
    if (st != TSR_OK)
        return st;
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    if (b->shape[b->ndim - 2] != m)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: input.size(-2) should match other.size(-2)", api);
    double eps = a->dtype == TSR_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
    double rt = rcond && *rcond > 0 ? *rcond : eps * (double)(m > n ? m : n), at = 0.0;
    tsr_tensor *pinv = NULL, *x = NULL, *s = NULL, *cut = NULL, *above = NULL, *r = NULL;
    tsr_tensor *res = NULL, *sv = NULL, *diff = NULL, *sq = NULL, *ax = NULL;
    int64_t last = -1, rows = -2;
    st = tsr_linalg_pinv(a, &at, &rt, false, &pinv);
    if (st == TSR_OK)
        st = tsr_matmul(pinv, b, &x);
    if (st == TSR_OK)
        st = values_and_cutoff(api, a, &at, &rt, false, &s, &cut);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_GT, tsr_operand_tensor(s), tsr_operand_tensor(cut), &above);
    if (st == TSR_OK)
        st = gels ? empty_of(a, TSR_INT64, &r) : tsr_sum(above, &last, 1, false, TSR_INT64, &r);
    if (st == TSR_OK)
        st = svd_driver ? (tsr_tensor_retain(s), sv = s, TSR_OK) : empty_of(a, a->dtype, &sv);
    bool full = false;
    if (st == TSR_OK && m > n && !gelsy) { /* residuals only when every matrix has rank n */
        tsr_tensor *count = NULL, *low = NULL, *any = NULL;
        bool some_low = true;
        st = tsr_sum(above, &last, 1, false, TSR_INT64, &count);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_LT, tsr_operand_tensor(count),
                            tsr_operand_scalar(tsr_scalar_int(n)), &low);
        if (st == TSR_OK)
            st = tsr_any(low, NULL, 0, false, &any);
        if (st == TSR_OK)
            st = tsr_to_host(any, &some_low, sizeof some_low);
        full = st == TSR_OK && !some_low;
        tsr_tensor_release(count);
        tsr_tensor_release(low);
        tsr_tensor_release(any);
    }
    if (st == TSR_OK && full) {
        st = tsr_matmul(a, x, &ax);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_SUB, tsr_operand_tensor(ax), tsr_operand_tensor(b), &diff);
        if (st == TSR_OK)
            st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(diff), tsr_operand_tensor(diff), &sq);
        if (st == TSR_OK)
            st = tsr_sum(sq, &rows, 1, false, TSR_DTYPE_INFER, &res);
    } else if (st == TSR_OK) {
        st = empty_of(a, a->dtype, &res);
    }
    tsr_tensor *temps[] = {pinv, s, cut, above, diff, sq, ax};
    for (size_t i = 0; i < sizeof temps / sizeof temps[0]; i++)
        tsr_tensor_release(temps[i]);
    if (st != TSR_OK) {
        tsr_tensor *outs[] = {x, res, r, sv};
        for (size_t i = 0; i < 4; i++)
            tsr_tensor_release(outs[i]);
        return st;
    }
    *solution = x;
    *residuals = res;
    *rank = r;
    *singular_values = sv;
    return TSR_OK;
}
