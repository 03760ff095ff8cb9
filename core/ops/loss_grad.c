/* Gradients of the losses: one node per loss, with PyTorch 1.13's formulas
 * (derivatives.yaml and the functions it names), written with public ops
 * so that they can be differentiated again.
 *
 *   cross_entropy, nll_loss   with Q = d loss / d(-log p) per class (below):
 *                 nll gx = -g Q; cross_entropy gx = -g Q + softmax * sum(g Q);
 *                 probabilities also give gt = -g * log p * w * (1 - smoothing)
 *   binary_cross_entropy      gx = g (x - t) / max(x (1 - x), 1e-12) * w,
 *                             gt = -g * logit(x) * w
 *   smooth_l1_loss  gx = f(x - t), gt = f(t - x) with f(u) = -g where u <= -beta,
 *                 g where u >= beta, else g u / beta (so at x == t with beta 0
 *                 both are -g, as PyTorch's smooth_l1_loss_backward gives)
 * Weights (class weights, bce's weight) get no gradient, as in PyTorch 1.13. */
#include "ops/loss_grad.h"

#include "autograd/graph.h"
#include "tensor/scalar.h"
#include "ops/nn.h"
#include "ops/grad_expr.h"

/* ------------------------------------------------------------------------ */
/* cross_entropy, nll_loss                                                   */
/* ------------------------------------------------------------------------ */

enum { LOSS_LOGP, LOSS_TARGET, LOSS_WEIGHT, LOSS_SAVED };

typedef struct class_loss_attrs {
    tsr__class_loss loss;
} class_loss_attrs;

/* [1, C, 1, ...] of `values` against log-probabilities of `ndim` dims. */
static tsr_tensor *along_classes(tsr__gx *x, const tsr_tensor *values, int ndim, int class_dim)
{
    if (!values || ndim <= 1)
        return (tsr_tensor *)values;
    int64_t shape[TSR_MAX_DIMS];
    for (int d = 0; d < ndim; d++)
        shape[d] = d == class_dim ? tsr_tensor_numel(values) : 1;
    return tsr__nn_reshape(x, values, ndim, shape);
}

/* Q for class indices: (1 - s) w[t] at the target class plus s / C * w[c]
 * everywhere, 0 on ignored rows (*kept: which rows count); for 'mean',
 * *denominator receives the summed weights of the kept targets. The three
 * results join x's temporaries; the steps use a chain of their own. */
static tsr_tensor *index_terms(tsr__gx *outer, const tsr__class_loss *c, tsr_tensor *lp,
                               tsr_tensor *target, tsr_tensor *weight, tsr_tensor **kept,
                               tsr_tensor **denominator)
{
    if (outer->status != TSR_OK)
        return NULL;
    tsr__gx inner = {0}, *x = &inner;
    int ndim = tsr_tensor_ndim(lp);
    int64_t classes = tsr_tensor_shape(lp)[c->class_dim];
    tsr_tensor *valid = tsr__gx_binary(x, TSR_OP_NE, tsr_operand_tensor(target),
                                       tsr_operand_scalar(tsr_scalar_int(c->ignore_index)));
    tsr_tensor *cls = NULL;
    tsr_status st = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(classes), tsr_scalar_int(1),
                               TSR_INT64, tsr_tensor_backend(lp), &cls);
    cls = tsr__gx_keep(x, st, cls);
    tsr_tensor *hit =
        tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(along_classes(x, cls, ndim, c->class_dim)),
                       tsr_operand_tensor(tsr__nn_unsqueeze(x, target, c->class_dim)));
    tsr_tensor *onehot = tsr__nn_to(x, hit, tsr_tensor_dtype(lp));
    tsr_tensor *w = along_classes(x, weight, ndim, c->class_dim);
    tsr_tensor *picked = w ? tsr__gx_mul(x, onehot, w) : onehot; /* w[t] at t */
    tsr_tensor *q = tsr__gx_scale(x, picked, 1.0 - c->smoothing);
    if (c->smoothing > 0.0) {
        tsr_tensor *spread = w ? tsr__gx_scale(x, w, c->smoothing / (double)classes) : NULL;
        q = spread ? tsr__gx_add(x, q, spread)
                   : tsr__gx_add_scalar(x, q, c->smoothing / (double)classes);
    }
    tsr_tensor *rows = tsr__nn_unsqueeze(x, valid, c->class_dim), *total = NULL;
    q = tsr__gx_mask(x, rows, q);
    if (c->reduction == TSR_LOSS_MEAN) /* the sum of w[t] over kept rows */
        total = tsr__nn_sum(x, tsr__gx_mask(x, rows, picked), NULL, 0, false);
    tsr_tensor *results[3] = {NULL, NULL, NULL};
    tsr__gx_result(x, &results[0], q);
    tsr__gx_result(x, &results[1], rows);
    tsr__gx_result(x, &results[2], total);
    st = tsr__gx_finish(x);
    for (int i = 0; i < 3; i++)
        results[i] = results[i] ? tsr__gx_keep(outer, st, results[i]) : NULL;
    if (st != TSR_OK) {
        outer->status = st;
        return NULL;
    }
    *kept = results[1];
    *denominator = results[2];
    return results[0];
}

static tsr_status class_loss_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const tsr__class_loss *c = &((const class_loss_attrs *)tsr__node_attrs(node))->loss;
    tsr__gx x = {0};
    tsr_tensor *lp = tsr__gx_saved(&x, node, LOSS_LOGP);
    tsr_tensor *target = tsr__gx_saved(&x, node, LOSS_TARGET);
    tsr_tensor *weight = c->has_weight ? tsr__gx_saved(&x, node, LOSS_WEIGHT) : NULL;
    tsr_tensor *g = grads[0], *q, *kept = NULL, *denominator = NULL;
    if (x.status != TSR_OK)
        return tsr__gx_finish(&x);
    int ndim = tsr_tensor_ndim(lp);
    tsr_tensor *w = along_classes(&x, weight, ndim, c->class_dim);
    if (c->probabilities) {
        q = c->smoothing > 0.0
                ? tsr__gx_add_scalar(&x, tsr__gx_scale(&x, target, 1.0 - c->smoothing),
                                     c->smoothing / (double)tsr_tensor_shape(lp)[c->class_dim])
                : target;
        q = w ? tsr__gx_mul(&x, q, w) : q;
        if (c->reduction == TSR_LOSS_MEAN)
            g = tsr__gx_scale(
                &x, g, 1.0 / (double)(tsr_tensor_numel(lp) / tsr_tensor_shape(lp)[c->class_dim]));
    } else {
        q = index_terms(&x, c, lp, target, weight, &kept, &denominator);
        if (denominator)
            g = tsr__gx_div(&x, g, denominator);
    }
    if (c->reduction == TSR_LOSS_NONE)
        g = tsr__nn_unsqueeze(&x, g, c->class_dim);
    /* d loss / d log p; 0 (not NaN) on ignored rows when the divisor is 0 */
    tsr_tensor *dlp = tsr__gx_unary(&x, TSR_OP_NEG, tsr__gx_mul(&x, q, g));
    if (kept)
        dlp = tsr__gx_mask(&x, kept, dlp);
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *dx = dlp;
        if (c->softmax) {
            int64_t dim = c->class_dim;
            tsr_tensor *total = tsr__nn_sum(&x, dlp, &dim, 1, true);
            dx = tsr__gx_sub(&x, dlp, tsr__gx_mul(&x, tsr__gx_unary(&x, TSR_OP_EXP, lp), total));
        }
        tsr__gx_result(&x, &gi[0], dx);
    }
    if (c->probabilities && tsr__node_needs_grad(node, 1)) {
        tsr_tensor *dt = tsr__gx_unary(&x, TSR_OP_NEG, tsr__gx_mul(&x, lp, g));
        dt = w ? tsr__gx_mul(&x, dt, w) : dt;
        tsr__gx_result(&x, &gi[1], tsr__gx_scale(&x, dt, 1.0 - c->smoothing));
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_class_loss(const tsr__class_loss *loss, const tsr_tensor *input,
                                       const tsr_tensor *target, const tsr_tensor *weight,
                                       const tsr_tensor *log_probs, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {input, loss->probabilities ? target : NULL};
    tsr__node *node = NULL;
    tsr_status st =
        tsr__grad_node_start(loss->softmax ? "cross_entropy" : "nll_loss", class_loss_backward,
                             inputs, 2, LOSS_SAVED, sizeof(class_loss_attrs), out, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    class_loss_attrs *at = tsr__node_attrs(node);
    at->loss = *loss;
    at->loss.has_weight = weight != NULL;
    st = tsr__node_save(node, LOSS_LOGP, log_probs, "log_probs");
    if (st == TSR_OK)
        st = tsr__node_save(node, LOSS_TARGET, target, "target");
    if (st == TSR_OK && weight)
        st = tsr__node_save(node, LOSS_WEIGHT, weight, "weight");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

/* ------------------------------------------------------------------------ */
/* binary_cross_entropy                                                      */
/* ------------------------------------------------------------------------ */

enum { BCE_INPUT, BCE_TARGET, BCE_WEIGHT, BCE_SAVED };

typedef struct bce_attrs {
    int reduction;
    bool has_weight;
} bce_attrs;

static tsr_status bce_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const bce_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *in = tsr__gx_saved(&x, node, BCE_INPUT);
    tsr_tensor *t = tsr__gx_saved(&x, node, BCE_TARGET);
    tsr_tensor *w = at->has_weight ? tsr__gx_saved(&x, node, BCE_WEIGHT) : NULL;
    tsr_tensor *g = grads[0];
    if (x.status != TSR_OK)
        return tsr__gx_finish(&x);
    if (w)
        g = tsr__gx_mul(&x, g, w);
    if (at->reduction == TSR_LOSS_MEAN)
        g = tsr__gx_scale(&x, g, 1.0 / (double)tsr_tensor_numel(in));
    if (tsr__node_needs_grad(node, 0)) {
        tsr_tensor *spread = tsr__gx_mul(&x, tsr__gx_rsub_scalar(&x, 1.0, in), in);
        tsr_tensor *floor = tsr__nn_clamp_min(&x, spread, 1e-12);
        tsr__gx_result(&x, &gi[0],
                       tsr__gx_div(&x, tsr__gx_mul(&x, g, tsr__gx_sub(&x, in, t)), floor));
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *odds = tsr__gx_div(&x, in, tsr__gx_rsub_scalar(&x, 1.0, in));
        tsr_tensor *logit = tsr__gx_unary(&x, TSR_OP_LOG, odds);
        tsr__gx_result(&x, &gi[1], tsr__gx_unary(&x, TSR_OP_NEG, tsr__gx_mul(&x, logit, g)));
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_bce(const tsr_tensor *input, const tsr_tensor *target,
                                const tsr_tensor *weight, int reduction, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {input, target};
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start("binary_cross_entropy", bce_backward, inputs, 2, BCE_SAVED,
                                         sizeof(bce_attrs), out, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    bce_attrs *at = tsr__node_attrs(node);
    at->reduction = reduction;
    at->has_weight = weight != NULL;
    st = tsr__node_save(node, BCE_INPUT, input, "self");
    if (st == TSR_OK)
        st = tsr__node_save(node, BCE_TARGET, target, "target");
    if (st == TSR_OK && weight)
        st = tsr__node_save(node, BCE_WEIGHT, weight, "weight");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

/* ------------------------------------------------------------------------ */
/* smooth_l1_loss                                                            */
/* ------------------------------------------------------------------------ */

typedef struct smooth_l1_attrs {
    double beta;
    double norm; /* 1 / numel for 'mean', else 1 */
} smooth_l1_attrs;

/* PyTorch's smooth_l1_loss_backward for u = self - target. */
static tsr_tensor *smooth_l1_slope(tsr__gx *x, const smooth_l1_attrs *at, tsr_tensor *u,
                                   tsr_tensor *g)
{
    tsr_operand pos = tsr_operand_tensor(tsr__gx_scale(x, g, at->norm));
    tsr_operand neg = tsr_operand_tensor(tsr__gx_scale(x, g, -at->norm));
    tsr_tensor *low = tsr__gx_binary(x, TSR_OP_LE, tsr_operand_tensor(u),
                                     tsr_operand_scalar(tsr_scalar_float(-at->beta)));
    tsr_tensor *high = tsr__gx_binary(x, TSR_OP_GE, tsr_operand_tensor(u),
                                      tsr_operand_scalar(tsr_scalar_float(at->beta)));
    tsr_tensor *mid = tsr__gx_scale(x, tsr__gx_mul(x, u, g), at->norm / at->beta);
    return tsr__gx_where(x, low, neg,
                         tsr_operand_tensor(tsr__gx_where(x, high, pos, tsr_operand_tensor(mid))));
}

static tsr_status smooth_l1_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const smooth_l1_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *in = tsr__gx_saved(&x, node, 0), *t = tsr__gx_saved(&x, node, 1);
    if (tsr__node_needs_grad(node, 0))
        tsr__gx_result(&x, &gi[0], smooth_l1_slope(&x, at, tsr__gx_sub(&x, in, t), grads[0]));
    if (tsr__node_needs_grad(node, 1))
        tsr__gx_result(&x, &gi[1], smooth_l1_slope(&x, at, tsr__gx_sub(&x, t, in), grads[0]));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_smooth_l1(const tsr_tensor *input, const tsr_tensor *target,
                                      double beta, double norm, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {input, target};
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start("smooth_l1_loss", smooth_l1_backward, inputs, 2, 2,
                                         sizeof(smooth_l1_attrs), out, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    smooth_l1_attrs *at = tsr__node_attrs(node);
    at->beta = beta;
    at->norm = norm;
    st = tsr__node_save(node, 0, input, "self");
    if (st == TSR_OK)
        st = tsr__node_save(node, 1, target, "target");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}
