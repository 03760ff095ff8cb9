/* Gradients of the linalg kernels, PyTorch 1.13's formulas written with
 * public ops (so double backward works). Written for real dtypes, where
 * the adjoint X^H is the transpose X^T; the complex forms replace each
 * transpose below by the conjugate transpose (the core refuses complex
 * gradients today, so none reaches these formulas).
 *
 *   cholesky (A = L L^T):   S = tril(L^T gL); S = (S + tril(S, -1)^T) / 2
 *                           gA = L^-T S L^-1      (upper: L = U^T, gL = gU^T)
 *   lu_factor (square):     gA = P L^-T [tril(L^T gL, -1) + triu(gU U^T)] U^-T
 *                           with gL = tril(gLU, -1), gU = triu(gLU)
 *   cholesky_solve (x = (L L^T)^-1 b; cholesky_inverse is b = I):
 *                           gb = cholesky_solve(g, L); C = gb x^T + x gb^T
 *                           gL = -C L (upper: gU = -U C), L as a whole matrix
 *   eigh (A = V diag(L) V^T):
 *                           E_ij = L_j - L_i (1 on the diagonal)
 *                           gA = V [skew(V^T gV) / 2 / E + diag(gL)] V^T
 *   svd (A = U diag(S) Vh, k = min(m, n), U and Vh cut to k):
 *                           E_ij = S_j^2 - S_i^2 (1 on the diagonal), skew(X) = X - X^T
 *                           gA = U [(skew(U^T gU) S_j + S_i skew(V^T gV)) / E + diag(gS)] Vh
 *                                + (gU - U U^T gU) / S_j Vh       (m > k)
 *                                + U ((gV - V V^T gV) / S_j)^T    (n > k), V = Vh^T
 *   qr (A = Q R, m >= n, reduced or square):
 *                           M = R gR^T - gQ^T Q, C = tril(M) + tril(M, -1)^T
 *                           gA = (gQ + Q C) R^-T
 *   solve_triangular (x = A^-1 b, A the triangle read):
 *                           gb = A^-T g
 *                           gA = -(gb x^T) restricted to the triangle read
 *                           (its strict part with a unit diagonal) */
#include "ops/linalg_grad.h"

#include <string.h>

#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "ops/linalg.h"

/* ---- chain helpers: each returns NULL once a step failed ----------------- */

static tsr_tensor *gx_mT(tsr__gx *x, const tsr_tensor *t)
{
    tsr_tensor *r = NULL;
    if (!t)
        return NULL;
    tsr_status st = tsr__linalg_mT(t, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_matmul(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_tensor *r = NULL;
    if (!a || !b)
        return NULL;
    tsr_status st = tsr_matmul(a, b, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_tri(tsr__gx *x, const tsr_tensor *t, bool upper, int64_t diagonal)
{
    tsr_tensor *r = NULL;
    if (!t)
        return NULL;
    tsr_status st = upper ? tsr_triu(t, diagonal, &r) : tsr_tril(t, diagonal, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_solve(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b, bool upper,
                            bool left, bool unit)
{
    tsr_tensor *r = NULL;
    if (!a || !b)
        return NULL;
    tsr_status st = tsr_linalg_solve_triangular(a, b, upper, left, unit, &r);
    return tsr__gx_keep(x, st, r);
}

/* ---- cholesky ---------------------------------------------------------- */

typedef struct cholesky_attrs {
    bool upper;
} cholesky_attrs;

static tsr_status cholesky_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const cholesky_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *l = tsr__gx_saved(&x, node, 0), *gl = grads[0];
    if (at->upper) {
        l = gx_mT(&x, l);
        gl = gx_mT(&x, gl);
    }
    tsr_tensor *s = gx_tri(&x, gx_matmul(&x, gx_mT(&x, l), gl), false, 0);
    s = tsr__gx_scale(&x, tsr__gx_add(&x, s, gx_mT(&x, gx_tri(&x, s, false, -1))), 0.5);
    s = gx_solve(&x, gx_mT(&x, l), s, true, true, false);
    s = gx_solve(&x, l, s, false, false, false);
    tsr__gx_result(&x, &gi[0], s);
    return tsr__gx_finish(&x);
}

static bool complex_input(const tsr_tensor *t)
{
    return t->dtype == TSR_COMPLEX64 || t->dtype == TSR_COMPLEX128;
}

tsr_status tsr__grad_record_linalg_cholesky(const tsr_tensor *a, bool upper, tsr_tensor *l)
{
    if (!tsr__grad_wanted(&a, 1))
        return TSR_OK;
    if (complex_input(a))
        return tsr__grad_record_unimplemented("linalg_cholesky (complex)", &a, 1, l);
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start("linalg_cholesky", cholesky_backward, &a, 1, 1,
                                         sizeof(cholesky_attrs), l, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    ((cholesky_attrs *)tsr__node_attrs(node))->upper = upper;
    st = tsr__node_attach(node, 0, l);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 0, l, 0);
    tsr__node_release(node);
    return st;
}

/* ---- lu_factor ------------------------------------------------------------ */

static tsr_status lu_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_tensor *lu = tsr__gx_saved(&x, node, 0), *pivots = tsr__gx_saved(&x, node, 1);
    tsr_tensor *g = grads[0], *eye = NULL, *p = NULL;
    /* (each call runs before tsr__gx_keep reads its result) */
    if (lu) {
        tsr_status st = tsr__linalg_eye_like(lu, lu->ndim, lu->shape, &eye);
        eye = tsr__gx_keep(&x, st, eye);
    }
    if (pivots && lu) {
        tsr_status st = tsr__linalg_pivots_to_matrix("linalg_lu_factor", pivots,
                                                     lu->shape[lu->ndim - 1], g->dtype, &p);
        p = tsr__gx_keep(&x, st, p);
    }
    tsr_tensor *l = tsr__gx_add(&x, gx_tri(&x, lu, false, -1), eye);
    tsr_tensor *u = gx_tri(&x, lu, true, 0);
    tsr_tensor *s = tsr__gx_add(&x, gx_tri(&x, gx_matmul(&x, gx_mT(&x, l), g), false, -1),
                                gx_tri(&x, gx_matmul(&x, g, gx_mT(&x, u)), true, 0));
    s = gx_solve(&x, gx_mT(&x, u), s, false, false, false);
    s = gx_solve(&x, gx_mT(&x, l), s, true, true, true);
    tsr__gx_result(&x, &gi[0], gx_matmul(&x, p, s));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_linalg_lu(const tsr_tensor *a, tsr_tensor *lu, const tsr_tensor *pivots)
{
    if (!tsr__grad_wanted(&a, 1))
        return TSR_OK;
    if (complex_input(a) || a->shape[a->ndim - 1] != a->shape[a->ndim - 2])
        return tsr__grad_record_unimplemented("linalg_lu_factor (complex or not square)", &a, 1,
                                              lu);
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start("linalg_lu_factor", lu_backward, &a, 1, 2, 0, lu, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    st = tsr__node_attach(node, 0, lu);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 0, lu, 0);
    if (st == TSR_OK)
        st = tsr__node_save(node, 1, pivots, "pivots");
    tsr__node_release(node);
    return st;
}

/* ---- solve_triangular ------------------------------------------------------- */

typedef struct trsm_attrs {
    int32_t flags;
} trsm_attrs;

static tsr_status trsm_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const trsm_attrs *at = tsr__node_attrs(node);
    bool upper = (at->flags & TSR_LINALG_UPPER) != 0;
    bool unit = (at->flags & TSR_LINALG_UNIT_DIAGONAL) != 0;
    tsr__gx x = {0};
    tsr_tensor *a = tsr__gx_saved(&x, node, 0), *g = grads[0], *gb = NULL;
    tsr_tensor *at_ = gx_mT(&x, a);
    if (at_) {
        tsr_status st = tsr__linalg_trsm_kernel(at_, g, at->flags ^ TSR_LINALG_UPPER, &gb);
        gb = tsr__gx_keep(&x, st, gb);
    }
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *xs = tsr__gx_saved(&x, node, 1);
        tsr_tensor *ga = tsr__gx_scale(&x, gx_matmul(&x, gb, gx_mT(&x, xs)), -1.0);
        tsr__gx_result(&x, &gi[0], gx_tri(&x, ga, upper, unit ? (upper ? 1 : -1) : 0));
    }
    if (tsr__node_needs_grad(node, 1))
        tsr__gx_result(&x, &gi[1], gb);
    return tsr__gx_finish(&x);
}

/* Records a two-input solve whose backward needs its factor (`factor`, saved
 * as slot 0 under `factor_name`) and its solution x (slot 1), with `attrs`
 * copied into the node. */
static tsr_status record_solve(const char *name, tsr__backward_fn backward,
                               const tsr_tensor *inputs[2], const void *attrs, size_t attrs_size,
                               const tsr_tensor *factor, const char *factor_name, tsr_tensor *x)
{
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start(name, backward, inputs, 2, 2, attrs_size, x, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    memcpy(tsr__node_attrs(node), attrs, attrs_size);
    st = tsr__node_save(node, 0, factor, factor_name);
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, x);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 1, x, 0);
    tsr__node_release(node);
    return st;
}

tsr_status tsr__grad_record_linalg_trsm(const tsr_tensor *a, const tsr_tensor *b, int32_t flags,
                                        tsr_tensor *x)
{
    const tsr_tensor *inputs[2] = {a, b};
    if (!tsr__grad_wanted(inputs, 2))
        return TSR_OK;
    if (complex_input(a))
        return tsr__grad_record_unimplemented("linalg_solve_triangular (complex)", inputs, 2, x);
    trsm_attrs attrs = {flags};
    return record_solve("linalg_solve_triangular", trsm_backward, inputs, &attrs, sizeof attrs, a,
                        "A", x);
}

/* ---- cholesky_solve ------------------------------------------------------- */

static tsr_status cholesky_solve_backward(tsr__node *node, tsr_tensor *const *grads,
                                          tsr_tensor **gi)
{
    const cholesky_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *l = tsr__gx_saved(&x, node, 0), *gb = NULL;
    if (l) {
        tsr_status st = tsr_cholesky_solve(grads[0], l, at->upper, &gb);
        gb = tsr__gx_keep(&x, st, gb);
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *xs = tsr__gx_saved(&x, node, 1);
        tsr_tensor *c = gx_matmul(&x, gb, gx_mT(&x, xs));
        c = tsr__gx_add(&x, c, gx_mT(&x, c));
        tsr_tensor *gl = at->upper ? gx_matmul(&x, l, c) : gx_matmul(&x, c, l);
        tsr__gx_result(&x, &gi[1], tsr__gx_scale(&x, gl, -1.0));
    }
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], gb);
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_cholesky_solve(const tsr_tensor *b, const tsr_tensor *l, bool upper,
                                           tsr_tensor *x)
{
    const tsr_tensor *inputs[2] = {b, l};
    if (!tsr__grad_wanted(inputs, 2))
        return TSR_OK;
    if (complex_input(l))
        return tsr__grad_record_unimplemented("cholesky_solve (complex)", inputs, 2, x);
    cholesky_attrs attrs = {upper};
    return record_solve("cholesky_solve", cholesky_solve_backward, inputs, &attrs, sizeof attrs, l,
                        "input2", x);
}

/* ---- eigh and svd ------------------------------------------------------------ */

static tsr_tensor *gx_unsqueeze(tsr__gx *x, const tsr_tensor *t, int64_t dim)
{
    tsr_tensor *r = NULL;
    if (!t)
        return NULL;
    tsr_status st = tsr_unsqueeze(t, dim, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_narrow(tsr__gx *x, const tsr_tensor *t, int64_t dim, int64_t length)
{
    tsr_tensor *r = NULL;
    if (!t)
        return NULL;
    tsr_status st = tsr_narrow(t, dim, 0, length, &r);
    return tsr__gx_keep(x, st, r);
}

/* diag_embed(d) for d [..., k]: I_k times d as a row. */
static tsr_tensor *gx_diag(tsr__gx *x, const tsr_tensor *d)
{
    tsr_tensor *eye = NULL;
    if (!d)
        return NULL;
    int64_t k = d->shape[d->ndim - 1];
    tsr_status st = tsr_eye(k, k, d->dtype, d->storage->backend, &eye);
    eye = tsr__gx_keep(x, st, eye);
    return tsr__gx_mul(x, eye, gx_unsqueeze(x, d, -2));
}

/* E_ij = f_j - f_i with ones on the diagonal, for f [..., k]. */
static tsr_tensor *gx_gaps(tsr__gx *x, const tsr_tensor *f)
{
    tsr_tensor *eye = NULL;
    if (!f)
        return NULL;
    int64_t k = f->shape[f->ndim - 1];
    tsr_status st = tsr_eye(k, k, f->dtype, f->storage->backend, &eye);
    eye = tsr__gx_keep(x, st, eye);
    tsr_tensor *e = tsr__gx_sub(x, gx_unsqueeze(x, f, -2), gx_unsqueeze(x, f, -1));
    return tsr__gx_add(x, e, eye);
}

static tsr_status eigh_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_tensor *w = tsr__gx_saved(&x, node, 0), *v = tsr__gx_saved(&x, node, 1);
    tsr_tensor *vt = gx_mT(&x, v), *vgv = gx_matmul(&x, vt, grads[1]);
    tsr_tensor *skew = tsr__gx_scale(&x, tsr__gx_sub(&x, vgv, gx_mT(&x, vgv)), 0.5);
    tsr_tensor *inner =
        tsr__gx_add(&x, tsr__gx_div(&x, skew, gx_gaps(&x, w)), gx_diag(&x, grads[0]));
    tsr__gx_result(&x, &gi[0], gx_matmul(&x, v, gx_matmul(&x, inner, vt)));
    return tsr__gx_finish(&x);
}

/* Ends a nested chain y: its result r (NULL after a failure) becomes a
 * temporary of the outer chain x. Keeps each formula below the chain's
 * limit of temporaries. */
static tsr_tensor *gx_nested(tsr__gx *x, tsr__gx *y, tsr_tensor *r)
{
    if (r)
        tsr_tensor_retain(r);
    tsr_status st = tsr__gx_finish(y);
    if (st != TSR_OK) {
        tsr_tensor_release(r);
        r = NULL;
    }
    return tsr__gx_keep(x, st, r);
}

/* skew(a^T b) = a^T b - (a^T b)^T */
static tsr_tensor *gx_skew_product(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr__gx y = {0};
    tsr_tensor *p = gx_matmul(&y, gx_mT(&y, a), b);
    return gx_nested(x, &y, tsr__gx_sub(&y, p, gx_mT(&y, p)));
}

/* (su S_j + S_i sv) / (S_j^2 - S_i^2) + diag(gs) */
static tsr_tensor *gx_svd_core(tsr__gx *x, const tsr_tensor *su, const tsr_tensor *sv,
                               const tsr_tensor *s, const tsr_tensor *gs)
{
    tsr__gx y = {0};
    tsr_tensor *inner = tsr__gx_add(&y, tsr__gx_mul(&y, su, gx_unsqueeze(&y, s, -2)),
                                    tsr__gx_mul(&y, gx_unsqueeze(&y, s, -1), sv));
    inner = tsr__gx_div(&y, inner, gx_gaps(&y, tsr__gx_mul(&y, s, s)));
    return gx_nested(x, &y, tsr__gx_add(&y, inner, gx_diag(&y, gs)));
}

/* (g - q q^T g) / S_j: the part of g outside q's columns, for the tall or
 * wide side. */
static tsr_tensor *gx_svd_rest(tsr__gx *x, const tsr_tensor *q, const tsr_tensor *g,
                               const tsr_tensor *s)
{
    tsr__gx y = {0};
    tsr_tensor *p = tsr__gx_sub(&y, g, gx_matmul(&y, q, gx_matmul(&y, gx_mT(&y, q), g)));
    return gx_nested(x, &y, tsr__gx_div(&y, p, gx_unsqueeze(&y, s, -2)));
}

static tsr_status svd_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_tensor *u = tsr__gx_saved(&x, node, 0), *s = tsr__gx_saved(&x, node, 1);
    tsr_tensor *vh = tsr__gx_saved(&x, node, 2);
    if (!u || !s || !vh)
        return tsr__gx_finish(&x);
    int64_t m = u->shape[u->ndim - 2], n = vh->shape[vh->ndim - 1], k = s->shape[s->ndim - 1];
    u = gx_narrow(&x, u, -1, k);
    vh = gx_narrow(&x, vh, -2, k);
    tsr_tensor *gu = gx_narrow(&x, grads[0], -1, k),
               *gv = gx_mT(&x, gx_narrow(&x, grads[2], -2, k));
    tsr_tensor *v = gx_mT(&x, vh);
    tsr_tensor *inner =
        gx_svd_core(&x, gx_skew_product(&x, u, gu), gx_skew_product(&x, v, gv), s, grads[1]);
    tsr_tensor *ga = gx_matmul(&x, u, gx_matmul(&x, inner, vh));
    if (m > k)
        ga = tsr__gx_add(&x, ga, gx_matmul(&x, gx_svd_rest(&x, u, gu, s), vh));
    if (n > k)
        ga = tsr__gx_add(&x, ga, gx_matmul(&x, u, gx_mT(&x, gx_svd_rest(&x, v, gv, s))));
    tsr__gx_result(&x, &gi[0], ga);
    return tsr__gx_finish(&x);
}

/* One node on every output of a spectral kernel, each saved. */
static tsr_status record_outputs(const char *name, tsr__backward_fn fn, const tsr_tensor *a,
                                 tsr_tensor **outs, int count)
{
    if (!tsr__grad_wanted(&a, 1))
        return TSR_OK;
    if (complex_input(a)) {
        tsr_status st = TSR_OK;
        for (int i = 0; i < count && st == TSR_OK; i++)
            st = tsr__grad_record_unimplemented(name, &a, 1, outs[i]);
        return st;
    }
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, fn, 1, count, count, 0, &node);
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, a);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_attach(node, i, outs[i]);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_save_output(node, i, outs[i], i);
    tsr__node_release(node);
    return st;
}

tsr_status tsr__grad_record_linalg_eigh(const tsr_tensor *a, tsr_tensor *w, tsr_tensor *v)
{
    tsr_tensor *outs[2] = {w, v};
    return record_outputs("linalg_eigh", eigh_backward, a, outs, 2);
}

tsr_status tsr__grad_record_linalg_svd(const tsr_tensor *a, tsr_tensor *u, tsr_tensor *s,
                                       tsr_tensor *vh)
{
    tsr_tensor *outs[3] = {u, s, vh};
    return record_outputs("linalg_svd", svd_backward, a, outs, 3);
}

/* ---- qr ------------------------------------------------------------------------ */

static tsr_status qr_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    tsr__gx x = {0};
    tsr_tensor *q = tsr__gx_saved(&x, node, 0), *r = tsr__gx_saved(&x, node, 1);
    tsr_tensor *gq = grads[0], *gr = grads[1];
    tsr_tensor *mm =
        tsr__gx_sub(&x, gx_matmul(&x, r, gx_mT(&x, gr)), gx_matmul(&x, gx_mT(&x, gq), q));
    tsr_tensor *c = tsr__gx_add(&x, gx_tri(&x, mm, false, 0), gx_mT(&x, gx_tri(&x, mm, false, -1)));
    tsr_tensor *ga = tsr__gx_add(&x, gx_matmul(&x, q, c), gq);
    tsr__gx_result(&x, &gi[0], gx_solve(&x, gx_mT(&x, r), ga, false, false, false));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_linalg_qr(const tsr_tensor *a, tsr_tensor *q, tsr_tensor *r,
                                      bool q_computed)
{
    int64_t m = a->shape[a->ndim - 2], n = a->shape[a->ndim - 1];
    bool square_q = q_computed && q->shape[q->ndim - 1] == (m < n ? m : n);
    if (!q_computed || m < n || !square_q || complex_input(a)) {
        /* PyTorch refuses mode='r' and complete with m > n; m < n is not written yet */
        tsr_tensor *outs[2] = {q, r};
        tsr_status st = TSR_OK;
        for (int i = q_computed ? 0 : 1; i < 2 && st == TSR_OK; i++)
            st = tsr__grad_record_unimplemented("linalg_qr (mode r, complete with m > n, m < n "
                                                "or complex)",
                                                &a, 1, outs[i]);
        return st;
    }
    tsr_tensor *outs[2] = {q, r};
    return record_outputs("linalg_qr", qr_backward, a, outs, 2);
}
