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
 *   solve_triangular (x = A^-1 b, A the triangle read):
 *                           gb = A^-T g
 *                           gA = -(gb x^T) restricted to the triangle read
 *                           (its strict part with a unit diagonal) */
#include "ops/linalg_grad.h"

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

tsr_status tsr__grad_record_linalg_trsm(const tsr_tensor *a, const tsr_tensor *b, int32_t flags,
                                        tsr_tensor *x)
{
    const tsr_tensor *inputs[2] = {a, b};
    if (!tsr__grad_wanted(inputs, 2))
        return TSR_OK;
    if (complex_input(a))
        return tsr__grad_record_unimplemented("linalg_solve_triangular (complex)", inputs, 2, x);
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start("linalg_solve_triangular", trsm_backward, inputs, 2, 2,
                                         sizeof(trsm_attrs), x, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    ((trsm_attrs *)tsr__node_attrs(node))->flags = flags;
    st = tsr__node_save(node, 0, a, "A");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, x);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 1, x, 0);
    tsr__node_release(node);
    return st;
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
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start("cholesky_solve", cholesky_solve_backward, inputs, 2, 2,
                                         sizeof(cholesky_attrs), x, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    ((cholesky_attrs *)tsr__node_attrs(node))->upper = upper;
    st = tsr__node_save(node, 0, l, "input2");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, x);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 1, x, 0);
    tsr__node_release(node);
    return st;
}
