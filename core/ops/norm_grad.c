/* Gradients of layer_norm and rms_norm, PyTorch 1.13's formulas written
 * with public ops so that they can be differentiated again:
 *
 *   layer_norm    xh = (x - mean) * rstd, gh = g * w:
 *                 gx = rstd * (gh - mean(gh) - xh * mean(gh * xh)) over the
 *                 normalized dims; gw = sum(g * xh), gb = sum(g) over the rest
 *   rms_norm      xh = x * rstd: gx = rstd * (gh - xh * mean(gh * xh)), gw as above
 */
#include "ops/norm_grad.h"

#include "autograd/graph.h"
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
    tsr_status st = tsr__grad_node_start(rms ? "rms_norm" : "layer_norm", norm_backward, inputs,
                                         rms ? 2 : 3, NORM_SAVED, sizeof(norm_attrs), y, &node);
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
