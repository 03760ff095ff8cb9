/* Adapters for linear algebra: Cholesky, LU, triangular and general solves,
 * inverses and determinants. Multi-output ops return their outputs in
 * PyTorch's order (L then info; LU, pivots, info; P, L, U; sign then
 * logabsdet). */
#include "bindings/bindings.h"

#include <string.h>

#include "common/json_values.h"

static bool op_is(const conf_call *call, const char *name)
{
    return strcmp(call->c->op, name) == 0;
}

static int adapt_cholesky(conf_call *call)
{
    tsr_tensor *a, *l = NULL, *info = NULL;
    bool upper, check_errors;
    bool old = op_is(call, "cholesky");
    if (!conf_bind_tensor(call, old ? "input" : "A", &a) ||
        !conf_arg_bool_or(call, "upper", false, &upper) ||
        !conf_arg_bool_or(call, "check_errors", false, &check_errors))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_cholesky_ex")) {
        int st = tsr_linalg_cholesky_ex(a, upper, check_errors, &l, &info);
        return conf_call_return_pair(call, st, l, info);
    }
    int st = old ? tsr_cholesky(a, upper, &l) : tsr_linalg_cholesky(a, upper, &l);
    return conf_call_return(call, st, l);
}

static int adapt_cholesky_solve(conf_call *call)
{
    tsr_tensor *b, *l, *out = NULL;
    bool upper;
    if (!conf_bind_tensor(call, "input", &b) || !conf_bind_tensor(call, "input2", &l) ||
        !conf_arg_bool_or(call, "upper", false, &upper))
        return CONF_BIND_SKIP;
    int st = tsr_cholesky_solve(b, l, upper, &out);
    return conf_call_return(call, st, out);
}

static int adapt_cholesky_inverse(conf_call *call)
{
    tsr_tensor *l, *out = NULL;
    bool upper;
    if (!conf_bind_tensor(call, "input", &l) || !conf_arg_bool_or(call, "upper", false, &upper))
        return CONF_BIND_SKIP;
    int st = tsr_cholesky_inverse(l, upper, &out);
    return conf_call_return(call, st, out);
}

static int adapt_solve_triangular(conf_call *call)
{
    tsr_tensor *a, *b, *out = NULL;
    bool upper, left, unit;
    if (!conf_bind_tensor(call, "A", &a) || !conf_bind_tensor(call, "B", &b) ||
        !conf_arg_bool_or(call, "upper", false, &upper) ||
        !conf_arg_bool_or(call, "left", true, &left) ||
        !conf_arg_bool_or(call, "unitriangular", false, &unit))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_solve_triangular(a, b, upper, left, unit, &out);
    return conf_call_return(call, st, out);
}

static int adapt_triangular_solve(conf_call *call)
{
    tsr_tensor *a, *b, *x = NULL, *copy = NULL;
    bool upper, transpose, unit;
    if (!conf_bind_tensor(call, "input", &b) || !conf_bind_tensor(call, "A", &a) ||
        !conf_arg_bool_or(call, "upper", true, &upper) ||
        !conf_arg_bool_or(call, "transpose", false, &transpose) ||
        !conf_arg_bool_or(call, "unitriangular", false, &unit))
        return CONF_BIND_SKIP;
    int st = tsr_triangular_solve(b, a, upper, transpose, unit, &x, &copy);
    return conf_call_return_pair(call, st, x, copy);
}

static int adapt_lu_factor(conf_call *call)
{
    tsr_tensor *a, *lu = NULL, *pivots = NULL, *info = NULL;
    bool pivot, check_errors;
    if (!conf_bind_tensor(call, "A", &a) || !conf_arg_bool_or(call, "pivot", true, &pivot) ||
        !conf_arg_bool_or(call, "check_errors", false, &check_errors))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_lu_factor")) {
        int st = tsr_linalg_lu_factor(a, pivot, &lu, &pivots);
        return conf_call_return_pair(call, st, lu, pivots);
    }
    int st = tsr_linalg_lu_factor_ex(a, pivot, check_errors, &lu, &pivots, &info);
    conf_call_return_pair(call, st, lu, pivots);
    return conf_call_return(call, st, info);
}

static int adapt_lu(conf_call *call)
{
    tsr_tensor *a, *p = NULL, *l = NULL, *u = NULL;
    bool pivot;
    if (!conf_bind_tensor(call, "A", &a) || !conf_arg_bool_or(call, "pivot", true, &pivot))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_lu(a, pivot, &p, &l, &u);
    conf_call_return_pair(call, st, p, l);
    return conf_call_return(call, st, u);
}

static int adapt_lu_unpack(conf_call *call)
{
    tsr_tensor *lu, *pivots, *p = NULL, *l = NULL, *u = NULL;
    bool data, pivs;
    if (!conf_bind_tensor(call, "LU_data", &lu) || !conf_bind_tensor(call, "LU_pivots", &pivots) ||
        !conf_arg_bool_or(call, "unpack_data", true, &data) ||
        !conf_arg_bool_or(call, "unpack_pivots", true, &pivs))
        return CONF_BIND_SKIP;
    int st = tsr_lu_unpack(lu, pivots, data, pivs, &p, &l, &u);
    conf_call_return_pair(call, st, p, l);
    return conf_call_return(call, st, u);
}

static int adapt_lu_solve(conf_call *call)
{
    tsr_tensor *lu, *pivots, *b, *out = NULL;
    bool left, adjoint;
    bool old = op_is(call, "lu_solve");
    if (!conf_bind_tensor(call, old ? "LU_data" : "LU", &lu) ||
        !conf_bind_tensor(call, old ? "LU_pivots" : "pivots", &pivots) ||
        !conf_bind_tensor(call, old ? "input" : "B", &b) ||
        !conf_arg_bool_or(call, "left", true, &left) ||
        !conf_arg_bool_or(call, "adjoint", false, &adjoint))
        return CONF_BIND_SKIP;
    int st = old ? tsr_lu_solve(b, lu, pivots, &out)
                 : tsr_linalg_lu_solve(lu, pivots, b, left, adjoint, &out);
    return conf_call_return(call, st, out);
}

static int adapt_solve(conf_call *call)
{
    tsr_tensor *a, *b, *x = NULL, *info = NULL;
    bool left, check_errors;
    if (!conf_bind_tensor(call, "A", &a) || !conf_bind_tensor(call, "B", &b) ||
        !conf_arg_bool_or(call, "left", true, &left) ||
        !conf_arg_bool_or(call, "check_errors", false, &check_errors))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_solve_ex")) {
        int st = tsr_linalg_solve_ex(a, b, left, check_errors, &x, &info);
        return conf_call_return_pair(call, st, x, info);
    }
    int st = tsr_linalg_solve(a, b, left, &x);
    return conf_call_return(call, st, x);
}

static int adapt_inv(conf_call *call)
{
    tsr_tensor *a, *x = NULL, *info = NULL;
    bool check_errors;
    if (!conf_bind_tensor(call, "A", &a) ||
        !conf_arg_bool_or(call, "check_errors", false, &check_errors))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_inv_ex")) {
        int st = tsr_linalg_inv_ex(a, check_errors, &x, &info);
        return conf_call_return_pair(call, st, x, info);
    }
    int st = tsr_linalg_inv(a, &x);
    return conf_call_return(call, st, x);
}

static int adapt_det(conf_call *call)
{
    tsr_tensor *a, *out = NULL, *sign = NULL;
    bool old = op_is(call, "logdet");
    if (!conf_bind_tensor(call, old ? "input" : "A", &a))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_slogdet")) {
        int st = tsr_linalg_slogdet(a, &sign, &out);
        return conf_call_return_pair(call, st, sign, out);
    }
    int st = old ? tsr_logdet(a, &out) : tsr_linalg_det(a, &out);
    return conf_call_return(call, st, out);
}

static int adapt_qr(conf_call *call)
{
    tsr_tensor *a, *q = NULL, *r = NULL;
    const char *mode;
    if (!conf_bind_tensor(call, "A", &a) || !conf_arg_string_or(call, "mode", "reduced", &mode))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_qr(a, mode, &q, &r);
    return conf_call_return_pair(call, st, q, r);
}

static int adapt_eigh(conf_call *call)
{
    tsr_tensor *a, *w = NULL, *v = NULL;
    const char *uplo;
    if (!conf_bind_tensor(call, "A", &a) || !conf_arg_string_or(call, "UPLO", "L", &uplo))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_eigvalsh")) {
        int st = tsr_linalg_eigvalsh(a, uplo, &w);
        return conf_call_return(call, st, w);
    }
    int st = tsr_linalg_eigh(a, uplo, &w, &v);
    return conf_call_return_pair(call, st, w, v);
}

static int adapt_svd(conf_call *call)
{
    tsr_tensor *a, *u = NULL, *s = NULL, *vh = NULL;
    bool full;
    if (!conf_bind_tensor(call, "A", &a) || !conf_arg_bool_or(call, "full_matrices", true, &full))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_svdvals")) {
        int st = tsr_linalg_svdvals(a, &s);
        return conf_call_return(call, st, s);
    }
    int st = tsr_linalg_svd(a, full, &u, &s, &vh);
    conf_call_return_pair(call, st, u, s);
    return conf_call_return(call, st, vh);
}

/* ord / p: a name ("fro", "nuc") or a number (infinities as "inf"), or absent. */
static bool bind_order(conf_call *call, const char *name, const char *fallback,
                       const char **ord_name, double *ord, bool *present)
{
    *present = conf_arg_present(call, name);
    *ord_name = fallback;
    *ord = 0;
    if (!*present)
        return true;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(call->c->args, name);
    double number;
    if (!conf_json_double(v, &number)) /* integers come tagged: a number reads first */
        return conf_arg_string_or(call, name, fallback, ord_name);
    *ord_name = NULL;
    return conf_arg_double_or(call, name, 0, ord);
}

static int adapt_matrix_norm(conf_call *call)
{
    tsr_tensor *a, *out = NULL;
    const char *ord_name;
    double ord;
    bool present, keepdim;
    int64_t dim[2] = {-2, -1};
    int ndim = 2;
    if (!conf_bind_tensor(call, "A", &a) ||
        !bind_order(call, "ord", "fro", &ord_name, &ord, &present) ||
        !conf_arg_bool_or(call, "keepdim", false, &keepdim))
        return CONF_BIND_SKIP;
    if (conf_arg_present(call, "dim") && (!conf_arg_int_list(call, "dim", dim, &ndim) || ndim != 2))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_matrix_norm(a, ord_name, ord, dim, keepdim, &out);
    return conf_call_return(call, st, out);
}

static int adapt_cond(conf_call *call)
{
    tsr_tensor *a, *out = NULL;
    const char *p_name;
    double p;
    bool present;
    if (!conf_bind_tensor(call, "A", &a) || !bind_order(call, "p", NULL, &p_name, &p, &present))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_cond(a, p_name, p, present, &out);
    return conf_call_return(call, st, out);
}

static int adapt_rank_pinv(conf_call *call)
{
    tsr_tensor *a, *out = NULL;
    bool hermitian, has_atol = conf_arg_present(call, "atol"),
                    has_rtol = conf_arg_present(call, "rtol");
    double atol, rtol, rcond;
    bool old = op_is(call, "pinverse");
    if (!conf_bind_tensor(call, old ? "input" : "A", &a) ||
        !conf_arg_bool_or(call, "hermitian", false, &hermitian) ||
        !conf_arg_double_or(call, "atol", 0, &atol) ||
        !conf_arg_double_or(call, "rtol", 0, &rtol) ||
        !conf_arg_double_or(call, "rcond", 1e-15, &rcond))
        return CONF_BIND_SKIP;
    int st;
    if (old)
        st = tsr_pinverse(a, rcond, &out);
    else if (op_is(call, "linalg_pinv"))
        st = tsr_linalg_pinv(a, has_atol ? &atol : NULL, has_rtol ? &rtol : NULL, hermitian, &out);
    else
        st = tsr_linalg_matrix_rank(a, has_atol ? &atol : NULL, has_rtol ? &rtol : NULL, hermitian,
                                    &out);
    return conf_call_return(call, st, out);
}

static int adapt_matrix_exp(conf_call *call)
{
    tsr_tensor *a, *out = NULL;
    bool old = op_is(call, "matrix_exp");
    if (!conf_bind_tensor(call, old ? "input" : "A", &a))
        return CONF_BIND_SKIP;
    int st = old ? tsr_matrix_exp(a, &out) : tsr_linalg_matrix_exp(a, &out);
    return conf_call_return(call, st, out);
}

static int adapt_norm(conf_call *call)
{
    tsr_tensor *a, *out = NULL;
    const char *ord_name;
    double ord;
    bool present, keepdim;
    int64_t dim[TSR_MAX_DIMS];
    int ndim = 0;
    bool has_dim = conf_arg_present(call, "dim");
    if (!conf_bind_tensor(call, "A", &a) ||
        !bind_order(call, "ord", NULL, &ord_name, &ord, &present) ||
        !conf_arg_bool_or(call, "keepdim", false, &keepdim))
        return CONF_BIND_SKIP;
    if (has_dim && !conf_arg_int_list(call, "dim", dim, &ndim)) {
        /* one int */
        int64_t d;
        if (!conf_arg_int(call, "dim", &d))
            return CONF_BIND_SKIP;
        dim[0] = d;
        ndim = 1;
    }
    int st = tsr_linalg_norm(a, ord_name, ord, present, has_dim ? dim : NULL, ndim, keepdim, &out);
    return conf_call_return(call, st, out);
}

static int adapt_tensor_ops(conf_call *call)
{
    tsr_tensor *a, *b = NULL, *out = NULL;
    if (!conf_bind_tensor(call, "A", &a))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_tensorinv")) {
        int64_t ind;
        if (!conf_arg_int_or(call, "ind", 2, &ind))
            return CONF_BIND_SKIP;
        int st = tsr_linalg_tensorinv(a, ind, &out);
        return conf_call_return(call, st, out);
    }
    if (op_is(call, "linalg_householder_product")) {
        if (!conf_bind_tensor(call, "tau", &b))
            return CONF_BIND_SKIP;
        int st = tsr_linalg_householder_product(a, b, &out);
        return conf_call_return(call, st, out);
    }
    int64_t dims[TSR_MAX_DIMS];
    int ndims = 0;
    bool has_dims = conf_arg_present(call, "dims");
    if (!conf_bind_tensor(call, "B", &b) ||
        (has_dims && !conf_arg_int_list(call, "dims", dims, &ndims)))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_tensorsolve(a, b, has_dims ? dims : NULL, ndims, &out);
    return conf_call_return(call, st, out);
}

static int adapt_ormqr(conf_call *call)
{
    tsr_tensor *a, *tau, *c, *out = NULL;
    bool left, transpose;
    if (!conf_bind_tensor(call, "input", &a) || !conf_bind_tensor(call, "input2", &tau) ||
        !conf_bind_tensor(call, "input3", &c) || !conf_arg_bool_or(call, "left", true, &left) ||
        !conf_arg_bool_or(call, "transpose", false, &transpose))
        return CONF_BIND_SKIP;
    int st = tsr_ormqr(a, tau, c, left, transpose, &out);
    return conf_call_return(call, st, out);
}

static int adapt_geqrf(conf_call *call)
{
    tsr_tensor *a, *qr = NULL, *tau = NULL;
    if (!conf_bind_tensor(call, "input", &a))
        return CONF_BIND_SKIP;
    int st = tsr_geqrf(a, &qr, &tau);
    return conf_call_return_pair(call, st, qr, tau);
}

static int adapt_lstsq(conf_call *call)
{
    tsr_tensor *a, *b, *x = NULL, *res = NULL, *rank = NULL, *sv = NULL;
    const char *driver;
    double rcond;
    bool has_rcond = conf_arg_present(call, "rcond");
    if (!conf_bind_tensor(call, "A", &a) || !conf_bind_tensor(call, "B", &b) ||
        !conf_arg_double_or(call, "rcond", 0, &rcond) ||
        !conf_arg_string_or(call, "driver", NULL, &driver))
        return CONF_BIND_SKIP;
    int st = tsr_linalg_lstsq(a, b, has_rcond ? &rcond : NULL, driver, &x, &res, &rank, &sv);
    conf_call_return_pair(call, st, x, res);
    return conf_call_return_pair(call, st, rank, sv);
}

static int adapt_eig(conf_call *call)
{
    tsr_tensor *a, *w = NULL, *v = NULL;
    if (!conf_bind_tensor(call, "A", &a))
        return CONF_BIND_SKIP;
    if (op_is(call, "linalg_eigvals")) {
        int st = tsr_linalg_eigvals(a, &w);
        return conf_call_return(call, st, w);
    }
    int st = tsr_linalg_eig(a, &w, &v);
    return conf_call_return_pair(call, st, w, v);
}

const conf_adapter conf_bindings_linalg[] = {
    {"linalg_cholesky", adapt_cholesky, TSR_OP_LINALG_CHOLESKY, 0},
    {"linalg_cholesky_ex", adapt_cholesky, TSR_OP_LINALG_CHOLESKY, 0},
    {"cholesky", adapt_cholesky, TSR_OP_LINALG_CHOLESKY, 0},
    {"cholesky_solve", adapt_cholesky_solve, TSR_OP_LINALG_SOLVE_TRIANGULAR, 0},
    {"cholesky_inverse", adapt_cholesky_inverse, TSR_OP_LINALG_SOLVE_TRIANGULAR, 0},
    {"linalg_solve_triangular", adapt_solve_triangular, TSR_OP_LINALG_SOLVE_TRIANGULAR, 0},
    {"triangular_solve", adapt_triangular_solve, TSR_OP_LINALG_SOLVE_TRIANGULAR, 0},
    {"linalg_lu_factor", adapt_lu_factor, TSR_OP_LINALG_LU, 0},
    {"linalg_lu_factor_ex", adapt_lu_factor, TSR_OP_LINALG_LU, 0},
    {"linalg_lu", adapt_lu, TSR_OP_LINALG_LU, 0},
    {"lu_unpack", adapt_lu_unpack, -1, 0},
    {"linalg_lu_solve", adapt_lu_solve, TSR_OP_LINALG_SOLVE_TRIANGULAR, 0},
    {"lu_solve", adapt_lu_solve, TSR_OP_LINALG_SOLVE_TRIANGULAR, 0},
    {"linalg_solve", adapt_solve, TSR_OP_LINALG_LU, 0},
    {"linalg_solve_ex", adapt_solve, TSR_OP_LINALG_LU, 0},
    {"linalg_inv", adapt_inv, TSR_OP_LINALG_LU, 0},
    {"linalg_inv_ex", adapt_inv, TSR_OP_LINALG_LU, 0},
    {"linalg_det", adapt_det, TSR_OP_LINALG_LU, 0},
    {"linalg_slogdet", adapt_det, TSR_OP_LINALG_LU, 0},
    {"logdet", adapt_det, TSR_OP_LINALG_LU, 0},
    {"linalg_qr", adapt_qr, TSR_OP_LINALG_QR, 0},
    {"linalg_eigh", adapt_eigh, TSR_OP_LINALG_EIGH, 0},
    {"linalg_eigvalsh", adapt_eigh, TSR_OP_LINALG_EIGH, 0},
    {"linalg_svd", adapt_svd, TSR_OP_LINALG_SVD, 0},
    {"linalg_svdvals", adapt_svd, TSR_OP_LINALG_SVD, 0},
    {"linalg_matrix_norm", adapt_matrix_norm, -1, 0},
    {"linalg_cond", adapt_cond, TSR_OP_LINALG_SVD, 0},
    {"linalg_matrix_rank", adapt_rank_pinv, TSR_OP_LINALG_SVD, 0},
    {"linalg_pinv", adapt_rank_pinv, TSR_OP_LINALG_SVD, 0},
    {"pinverse", adapt_rank_pinv, TSR_OP_LINALG_SVD, 0},
    {"linalg_matrix_exp", adapt_matrix_exp, TSR_OP_LINALG_LU, 0},
    {"matrix_exp", adapt_matrix_exp, TSR_OP_LINALG_LU, 0},
    {"linalg_norm", adapt_norm, -1, 0},
    {"linalg_tensorinv", adapt_tensor_ops, TSR_OP_LINALG_LU, 0},
    {"linalg_tensorsolve", adapt_tensor_ops, TSR_OP_LINALG_LU, 0},
    {"linalg_householder_product", adapt_tensor_ops, -1, 0},
    {"ormqr", adapt_ormqr, -1, 0},
    {"geqrf", adapt_geqrf, TSR_OP_LINALG_GEQRF, 0},
    {"linalg_lstsq", adapt_lstsq, TSR_OP_LINALG_SVD, 0},
    {"linalg_eig", adapt_eig, TSR_OP_LINALG_EIG, 0},
    {"linalg_eigvals", adapt_eig, TSR_OP_LINALG_EIG, 0},
};
const size_t conf_bindings_linalg_count =
    sizeof conf_bindings_linalg / sizeof conf_bindings_linalg[0];
