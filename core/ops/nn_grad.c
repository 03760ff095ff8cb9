/* The neural-network family's gradients: one node per composite op, with
 * PyTorch 1.13's formulas (derivatives.yaml and the functions it names).
 *
 *   softmax       gx = y * (g - sum(g * y, dim))
 *   log_softmax   gx = g - exp(y) * sum(g, dim)
 *   layer_norm    xh = (x - mean) * rstd, gh = g * w:
 *                 gx = rstd * (gh - mean(gh) - xh * mean(gh * xh)) over the
 *                 normalized dims; gw = sum(g * xh), gb = sum(g) over the rest
 *   rms_norm      xh = x * rstd: gx = rstd * (gh - xh * mean(gh * xh)), gw as above
 *   cross_entropy, nll_loss   with Q = d loss / d(-log p) per class (below):
 *                 nll gx = -g Q; cross_entropy gx = -g Q + softmax * sum(g Q);
 *                 probabilities also give gt = -g * log p * w * (1 - smoothing)
 *   binary_cross_entropy      gx = g (x - t) / max(x (1 - x), 1e-12) * w,
 *                             gt = -g * logit(x) * w
 *   smooth_l1_loss  gx = f(x - t), gt = f(t - x) with f(u) = -g where u <= -beta,
 *                 g where u >= beta, else g u / beta (so at x == t with beta 0
 *                 both are -g, as PyTorch's smooth_l1_loss_backward gives)
 * Weights (class weights, bce's weight) get no gradient, as in PyTorch 1.13.
 * scaled_dot_product_attention records in grad_attention.c. */
#include <math.h>

#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "ops/grad_expr.h"

static tsr_tensor *mean_dims(tsr__gx *x, const tsr_tensor *t, const int64_t *dims, int ndims)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_mean(t, dims, ndims, true, TSR_DTYPE_INFER, &r);
    return tsr__gx_keep(x, st, r);
}

/* Creates a node over `count` inputs, connected; NULL (and TSR_OK) when no
 * input needs a gradient or the output is not floating. */
static tsr_status node_for(const char *name, tsr__backward_fn backward,
                           const tsr_tensor *const *inputs, int count, int saved, size_t attrs_size,
                           const tsr_tensor *out, tsr__node **node)
{
    *node = NULL;
    if (!tsr__grad_wanted(inputs, count) || !tsr_dtype_is_floating(tsr_tensor_dtype(out)))
        return TSR_OK;
    tsr_status st = tsr__node_create(name, backward, count, 1, saved, attrs_size, node);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_set_input(*node, i, inputs[i]);
    return st;
}

/* ------------------------------------------------------------------------ */
/* softmax, log_softmax                                                      */
/* ------------------------------------------------------------------------ */

typedef struct softmax_attrs {
    int64_t dim;
    bool log_form;
} softmax_attrs;

static tsr_status softmax_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const softmax_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *g = grads[0], *y = tsr__gx_saved(&x, node, 0);
    if (at->log_form) {
        tsr_tensor *total = tsr__nn_sum(&x, g, &at->dim, 1, true);
        tsr__gx_result(
            &x, &gi[0],
            tsr__gx_sub(&x, g, tsr__gx_mul(&x, tsr__gx_unary(&x, TSR_OP_EXP, y), total)));
    } else {
        tsr_tensor *total = tsr__nn_sum(&x, tsr__gx_mul(&x, g, y), &at->dim, 1, true);
        tsr__gx_result(&x, &gi[0], tsr__gx_mul(&x, y, tsr__gx_sub(&x, g, total)));
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_softmax(tsr_op op, const tsr_tensor *t, int dim, tsr_tensor *y)
{
    tsr__node *node = NULL;
    bool log_form = op == TSR_OP_LOG_SOFTMAX;
    tsr_status st = node_for(log_form ? "log_softmax" : "softmax", softmax_backward, &t, 1, 1,
                             sizeof(softmax_attrs), y, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    softmax_attrs *at = tsr__node_attrs(node);
    at->dim = dim;
    at->log_form = log_form;
    st = tsr__node_attach(node, 0, y);
    if (st == TSR_OK)
        st = tsr__node_save_output(node, 0, y, 0);
    tsr__node_release(node);
    return st;
}

/* ------------------------------------------------------------------------ */
/* layer_norm, rms_norm                                                      */
/* ------------------------------------------------------------------------ */

typedef struct norm_attrs {
    int ndim; /* normalized dims, the last ones */
    bool rms;
    bool has_weight;
} norm_attrs;

enum { NORM_X, NORM_WEIGHT, NORM_MEAN, NORM_RSTD, NORM_SAVED };

static tsr_status norm_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const norm_attrs *at = tsr__node_attrs(node);
    tsr__gx x = {0};
    tsr_tensor *g = grads[0], *in = tsr__gx_saved(&x, node, NORM_X);
    tsr_tensor *rstd = tsr__gx_saved(&x, node, NORM_RSTD);
    bool gx = tsr__node_needs_grad(node, 0);
    tsr_tensor *w = gx && at->has_weight ? tsr__gx_saved(&x, node, NORM_WEIGHT) : NULL;
    if (x.status != TSR_OK)
        return tsr__gx_finish(&x);
    int total = tsr_tensor_ndim(in);
    int64_t inner[TSR_MAX_DIMS], outer[TSR_MAX_DIMS];
    int nouter = total - at->ndim;
    for (int d = 0; d < total; d++) {
        if (d < nouter)
            outer[d] = d;
        else
            inner[d - nouter] = d;
    }
    tsr_tensor *centred = at->rms ? in : tsr__gx_sub(&x, in, tsr__gx_saved(&x, node, NORM_MEAN));
    tsr_tensor *xh = tsr__gx_mul(&x, centred, rstd);
    /* With no outer dims the sums over them are the terms themselves. */
    if (tsr__node_needs_grad(node, 1)) {
        tsr_tensor *terms = tsr__gx_mul(&x, g, xh);
        tsr__gx_result(&x, &gi[1], nouter ? tsr__nn_sum(&x, terms, outer, nouter, false) : terms);
    }
    if (!at->rms && tsr__node_needs_grad(node, 2))
        tsr__gx_result(&x, &gi[2], nouter ? tsr__nn_sum(&x, g, outer, nouter, false) : g);
    if (gx) {
        tsr_tensor *gh = w ? tsr__gx_mul(&x, g, w) : g;
        tsr_tensor *proj =
            tsr__gx_mul(&x, xh, mean_dims(&x, tsr__gx_mul(&x, gh, xh), inner, at->ndim));
        tsr_tensor *d = tsr__gx_sub(&x, gh, proj);
        if (!at->rms)
            d = tsr__gx_sub(&x, d, mean_dims(&x, gh, inner, at->ndim));
        tsr__gx_result(&x, &gi[0], tsr__gx_mul(&x, rstd, d));
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_norm(const tsr_tensor *input, int ndim, const tsr_tensor *weight,
                                 const tsr_tensor *bias, const tsr_tensor *mean,
                                 const tsr_tensor *rstd, tsr_tensor *y)
{
    bool rms = mean == NULL;
    const tsr_tensor *inputs[3] = {input, weight, bias};
    tsr__node *node = NULL;
    tsr_status st = node_for(rms ? "rms_norm" : "layer_norm", norm_backward, inputs, rms ? 2 : 3,
                             NORM_SAVED, sizeof(norm_attrs), y, &node);
    if (st != TSR_OK || !node) {
        tsr__node_release(node);
        return st;
    }
    norm_attrs *at = tsr__node_attrs(node);
    at->ndim = ndim;
    at->rms = rms;
    at->has_weight = weight != NULL;
    st = tsr__node_save(node, NORM_X, input, "input");
    if (st == TSR_OK && weight && tsr__node_needs_grad(node, 0))
        st = tsr__node_save(node, NORM_WEIGHT, weight, "weight");
    if (st == TSR_OK && mean)
        st = tsr__node_save(node, NORM_MEAN, mean, "mean");
    if (st == TSR_OK)
        st = tsr__node_save(node, NORM_RSTD, rstd, "rstd");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, y);
    tsr__node_release(node);
    return st;
}

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
    tsr_status st = node_for(loss->softmax ? "cross_entropy" : "nll_loss", class_loss_backward,
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
    tsr_status st = node_for("binary_cross_entropy", bce_backward, inputs, 2, BCE_SAVED,
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
    tsr_status st = node_for("smooth_l1_loss", smooth_l1_backward, inputs, 2, 2,
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
