/* Losses, composed from public ops with PyTorch 1.13's formulas step by step
 * (so results round as PyTorch's do): cross_entropy, nll_loss, mse_loss,
 * l1_loss, smooth_l1_loss, binary_cross_entropy(_with_logits).
 * cross_entropy, nll_loss, smooth_l1_loss and binary_cross_entropy run their
 * steps without recording and add one node with PyTorch's own gradient
 * (loss_grad.c); the others are compositions of recorded ops. cross_entropy
 * with class indices runs the backend's fused kernel where it has one
 * (loss_cross_entropy.c) and these steps elsewhere. */
#include <math.h>
#include <stdlib.h>

#include "tensor/launch.h"
#include "runtime/alloc.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "ops/softmax.h"
#include "ops/loss.h"
#include "ops/loss_grad.h"
#include "tensor/shape.h"
#include "ops/grad_expr.h"

/* ------------------------------------------------------------------------ */
/* Shared steps                                                              */
/* ------------------------------------------------------------------------ */

static tsr_status check_reduction(const char *name, int reduction)
{
    if (reduction < TSR_LOSS_NONE || reduction > TSR_LOSS_SUM)
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: %d is not a valid value for reduction (none 0, mean 1, sum 2)",
                              name, reduction);
    return TSR_OK;
}

static tsr_tensor *reduce_loss(tsr__gx *x, tsr_tensor *loss, int reduction)
{
    if (reduction == TSR_LOSS_NONE)
        return loss;
    return reduction == TSR_LOSS_MEAN ? tsr__nn_mean(x, loss)
                                      : tsr__nn_sum(x, loss, NULL, 0, false);
}

/* Hands `result` to *out and releases the chain's temporaries. */
static tsr_status finish(const char *op, tsr__gx *x, tsr_tensor *result, tsr_tensor **out)
{
    tsr_tensor *r = NULL;
    tsr__gx_result(x, &r, result);
    tsr_status st = tsr__gx_finish(x);
    if (st != TSR_OK) {
        tsr_tensor_release(r);
        return tsr__claim_error(op, st);
    }
    *out = r;
    return TSR_OK;
}

static tsr_tensor *binary(tsr__gx *x, tsr_op op, const tsr_tensor *a, double b)
{
    if (!a)
        return NULL;
    return tsr__gx_binary(x, op, tsr_operand_tensor(a), tsr_operand_scalar(tsr_scalar_float(b)));
}

static tsr_dtype promoted(const tsr_tensor *a, const tsr_tensor *b)
{
    return tsr__promote(a->dtype, b->dtype);
}

static bool dtype_in(tsr_dtype dtype, uint32_t mask)
{
    return (mask >> dtype) & 1u;
}

static const uint32_t FLOATS = 1u << TSR_FLOAT32 | 1u << TSR_FLOAT64;

static tsr_status not_implemented(const char *name, tsr_dtype dtype)
{
    return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for %s", name, tsr_dtype_name(dtype));
}

static bool same_shape(const tsr_tensor *a, const tsr_tensor *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] != b->shape[d])
            return false;
    }
    return true;
}

/* weight [C] viewed as [1, C, 1, ...] against an input of `ndim` dims
 * whose class dim is 1 (a 1-d input keeps weight as it is). */
static tsr_tensor *class_view(tsr__gx *x, const tsr_tensor *weight, int ndim)
{
    if (ndim <= 1)
        return (tsr_tensor *)weight;
    int64_t shape[TSR_MAX_DIMS];
    for (int d = 0; d < ndim; d++)
        shape[d] = d == 1 ? weight->shape[0] : 1;
    return tsr__nn_reshape(x, weight, ndim, shape);
}

/* ------------------------------------------------------------------------ */
/* nll_loss                                                                  */
/* ------------------------------------------------------------------------ */

static tsr_status check_class_weight(const char *name, const tsr_tensor *input,
                                     const tsr_tensor *weight)
{
    int64_t classes = input->shape[input->ndim == 1 ? 0 : 1];
    if (weight && (weight->ndim != 1 || weight->shape[0] != classes)) {
        char a[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: weight tensor should be defined either for all %lld classes or "
                              "no classes but got weight tensor of shape: %s",
                              name, (long long)classes,
                              tsr__shape_str(weight->ndim, weight->shape, a, 160));
    }
    return TSR_OK;
}

static tsr_status check_nll_shapes(const char *name, const tsr_tensor *input,
                                   const tsr_tensor *target)
{
    char a[160], b[160];
    if (input->ndim < 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: expected 1 or more dimensions (got 0)", name);
    if (input->ndim <= 2) {
        if (target->ndim > 1)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: 0D or 1D target tensor expected, multi-target not "
                                  "supported",
                                  name);
        int64_t batch = input->ndim == 2 ? input->shape[0] : 1;
        int64_t tbatch = target->ndim == 1 ? target->shape[0] : 1;
        if (target->ndim != input->ndim - 1 || batch != tbatch)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: expected input batch_size (%lld) to match target "
                                  "batch_size (%lld)",
                                  name, (long long)batch, (long long)tbatch);
        return TSR_OK;
    }
    int64_t expected[TSR_MAX_DIMS];
    for (int d = 0, k = 0; d < input->ndim; d++) {
        if (d != 1)
            expected[k++] = input->shape[d];
    }
    bool fits = target->ndim == input->ndim - 1;
    for (int d = 0; fits && d < target->ndim; d++)
        fits = target->shape[d] == expected[d];
    if (!fits)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: expected target size %s, got %s", name,
                              tsr__shape_str(input->ndim - 1, expected, a, 160),
                              tsr__shape_str(target->ndim, target->shape, b, 160));
    return TSR_OK;
}

/* Every target must be a class or ignore_index: read on the host, where
 * the first offender can be named as PyTorch names it. */
static tsr_status check_targets(const char *name, const tsr_tensor *target, int64_t classes,
                                int64_t ignore_index)
{
    int64_t n = tsr_tensor_numel(target);
    tsr_tensor *wide = NULL;
    tsr_status st = tsr_to_dtype(target, TSR_INT64, &wide);
    int64_t *values = st == TSR_OK ? tsr__malloc((size_t)(n ? n : 1) * sizeof(int64_t)) : NULL;
    if (st == TSR_OK && !values)
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", name);
    if (st == TSR_OK)
        st = tsr_to_host(wide, values, (size_t)n * sizeof(int64_t));
    for (int64_t i = 0; st == TSR_OK && i < n; i++) {
        int64_t t = values[i];
        if (t != ignore_index && (t < 0 || t >= classes))
            st = tsr__set_error(TSR_ERR_INDEX, "%s: Target %lld is out of bounds.", name,
                                (long long)t);
    }
    free(values);
    tsr_tensor_release(wide);
    return st;
}

static tsr_status nll_check(const char *name, const tsr_tensor *input, const tsr_tensor *target,
                            const tsr_tensor *weight, int64_t ignore_index)
{
    if (target->dtype != TSR_INT64 && target->dtype != TSR_UINT8)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected target of dtype int64 (class indices), but found %s",
                              name, tsr_dtype_name(target->dtype));
    tsr_status st = check_nll_shapes(name, input, target);
    if (st == TSR_OK)
        st = check_class_weight(name, input, weight);
    if (st == TSR_OK)
        st = tsr__nn_same_dtype(name, "weight", weight, input->dtype);
    if (st == TSR_OK && !dtype_in(input->dtype, FLOATS | 1u << TSR_BFLOAT16))
        st = not_implemented(name, input->dtype);
    const tsr_tensor *all[3] = {input, target, weight};
    tsr_backend *b;
    if (st == TSR_OK)
        st = tsr__common_backend(name, all, 3, &b);
    if (st == TSR_OK)
        st = check_targets(name, target, input->shape[input->ndim == 1 ? 0 : 1], ignore_index);
    return st;
}

/* The per-target terms of nll_loss: loss[n] = -input[n, t] * w[t] and the
 * weights w[t], both 0 where t is ignore_index (target is int64 here). */
static void nll_terms(tsr__gx *x, const tsr_tensor *input, const tsr_tensor *target,
                      const tsr_tensor *weight, int64_t ignore_index, tsr_tensor **loss,
                      tsr_tensor **weights)
{
    int class_dim = input->ndim == 1 ? 0 : 1;
    tsr_tensor *valid = tsr__gx_binary(x, TSR_OP_NE, tsr_operand_tensor(target),
                                       tsr_operand_scalar(tsr_scalar_int(ignore_index)));
    tsr_tensor *safe = tsr__gx_mask(x, valid, target);
    tsr_tensor *index = tsr__nn_unsqueeze(x, safe, class_dim), *picked = NULL;
    if (x->status == TSR_OK) {
        tsr_status st = tsr_gather(input, class_dim, index, &picked);
        picked = tsr__gx_keep(x, st, picked);
    }
    picked = tsr__nn_reshape(x, picked, target->ndim, target->shape);
    tsr_tensor *w;
    if (weight) {
        int64_t flat = -1;
        tsr_tensor *rows = tsr__nn_reshape(x, safe, 1, &flat), *chosen = NULL;
        if (x->status == TSR_OK) {
            tsr_status st = tsr_index_select(weight, 0, rows, &chosen);
            chosen = tsr__gx_keep(x, st, chosen);
        }
        w = tsr__gx_mask(x, valid, tsr__nn_reshape(x, chosen, target->ndim, target->shape));
    } else {
        w = tsr__nn_to(x, valid, input->dtype);
    }
    tsr_tensor *terms = tsr__gx_mul(x, tsr__gx_unary(x, TSR_OP_NEG, picked), w);
    *loss = tsr__gx_mask(x, valid, terms);
    *weights = w;
}

/* nll_loss on checked operands (input holds log-probabilities), in a chain
 * of its own: the result and (when weights is not NULL) the per-target
 * weights join x's temporaries. */
static tsr_tensor *nll(tsr__gx *x, const tsr_tensor *input, const tsr_tensor *target,
                       const tsr_tensor *weight, int64_t ignore_index, int reduction,
                       tsr_tensor **weights)
{
    if (x->status != TSR_OK)
        return NULL;
    tsr__gx inner = {0};
    tsr_tensor *loss = NULL, *w = NULL, *result = NULL, *result_w = NULL;
    nll_terms(&inner, input, target, weight, ignore_index, &loss, &w);
    if (reduction == TSR_LOSS_MEAN)
        loss = tsr__gx_div(&inner, tsr__nn_sum(&inner, loss, NULL, 0, false),
                           tsr__nn_sum(&inner, w, NULL, 0, false));
    else
        loss = reduce_loss(&inner, loss, reduction);
    tsr__gx_result(&inner, &result, loss);
    tsr__gx_result(&inner, &result_w, w);
    tsr_status st = tsr__gx_finish(&inner);
    tsr_tensor *kept = tsr__gx_keep(x, st, result);
    if (st != TSR_OK) {
        tsr_tensor_release(result_w);
        return NULL;
    }
    tsr_tensor *kept_w = tsr__gx_keep(x, TSR_OK, result_w);
    if (weights)
        *weights = kept_w;
    return kept;
}

tsr_status tsr_nll_loss(const tsr_tensor *input, const tsr_tensor *target, const tsr_tensor *weight,
                        int64_t ignore_index, int reduction, tsr_tensor **out)
{
    if (!input || !target || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "nll_loss: input, target and out must not be NULL");
    tsr_status st = check_reduction("nll_loss", reduction);
    if (st == TSR_OK)
        st = nll_check("nll_loss", input, target, weight, ignore_index);
    if (st != TSR_OK)
        return st;
    bool grad_mode = tsr_grad_mode_set(false);
    tsr__gx x = {0};
    target = tsr__nn_to(&x, target, TSR_INT64); /* uint8 too: ignore_index may be negative */
    tsr_tensor *loss = nll(&x, input, target, weight, ignore_index, reduction, NULL);
    tsr_grad_mode_set(grad_mode);
    tsr__class_loss c = {.reduction = reduction,
                         .ignore_index = ignore_index,
                         .class_dim = input->ndim == 1 ? 0 : 1};
    if (x.status == TSR_OK)
        x.status = tsr__grad_record_class_loss(&c, input, target, weight, input, loss);
    return finish("nll_loss", &x, loss, out);
}

/* ------------------------------------------------------------------------ */
/* cross_entropy                                                             */
/* ------------------------------------------------------------------------ */

/* Class probabilities: -sum(log_softmax(input) * target * weight) over the
 * classes; 'mean' divides by the number of samples (not by the weights). */
static tsr_tensor *cross_entropy_probs(tsr__gx *x, const tsr_tensor *lp, const tsr_tensor *target,
                                       const tsr_tensor *weight, int reduction, double smoothing)
{
    if (x->status != TSR_OK)
        return NULL;
    int class_dim = lp->ndim == 1 ? 0 : 1;
    int64_t classes = lp->shape[class_dim];
    tsr_tensor *t = (tsr_tensor *)target;
    if (smoothing > 0.0)
        t = binary(x, TSR_OP_ADD, binary(x, TSR_OP_MUL, target, 1.0 - smoothing),
                   smoothing / (double)classes);
    tsr_tensor *prod = tsr__gx_mul(x, lp, t);
    if (weight)
        prod = tsr__gx_mul(x, prod, class_view(x, weight, lp->ndim));
    if (reduction == TSR_LOSS_NONE) {
        int64_t dim = class_dim;
        return tsr__gx_unary(x, TSR_OP_NEG, tsr__nn_sum(x, prod, &dim, 1, false));
    }
    tsr_tensor *total = tsr__gx_unary(x, TSR_OP_NEG, tsr__nn_sum(x, prod, NULL, 0, false));
    if (reduction == TSR_LOSS_SUM)
        return total;
    if (tsr_tensor_numel(lp) == 0)
        return binary(x, TSR_OP_MUL, total, NAN);
    int64_t samples = tsr_tensor_numel(lp) / classes;
    return tsr__gx_binary(x, TSR_OP_DIV, tsr_operand_tensor(total),
                          tsr_operand_scalar(tsr_scalar_int(samples)));
}

/* Class indices with label smoothing: (1 - s) nll + s / C * smooth, where
 * smooth is -sum(log_softmax * weight) over the classes, 0 for ignored
 * targets. 'mean' divides smooth's sum by the summed weights of the kept
 * targets (their number without weights), as nll_loss does. */
static tsr_tensor *cross_entropy_smoothed(tsr__gx *x, const tsr_tensor *lp,
                                          const tsr_tensor *target, const tsr_tensor *weight,
                                          int64_t ignore_index, int reduction, double smoothing)
{
    if (x->status != TSR_OK)
        return NULL;
    int class_dim = lp->ndim == 1 ? 0 : 1;
    int64_t dim = class_dim, classes = lp->shape[class_dim];
    tsr_tensor *w = NULL;
    tsr_tensor *nll_loss = nll(x, lp, target, weight, ignore_index, reduction, &w);
    tsr_tensor *weighted =
        weight ? tsr__gx_mul(x, lp, class_view(x, weight, lp->ndim)) : (tsr_tensor *)lp;
    tsr_tensor *smooth = tsr__gx_unary(x, TSR_OP_NEG, tsr__nn_sum(x, weighted, &dim, 1, false));
    tsr_tensor *ignored = tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(target),
                                         tsr_operand_scalar(tsr_scalar_int(ignore_index)));
    smooth = tsr__gx_where(x, ignored, tsr_operand_scalar(tsr_scalar_float(0.0)),
                           tsr_operand_tensor(smooth));
    tsr_tensor *ret = reduction == TSR_LOSS_NONE ? smooth : tsr__nn_sum(x, smooth, NULL, 0, false);
    if (reduction == TSR_LOSS_MEAN) /* w is 1 per kept target without weights */
        ret = tsr__gx_div(x, ret, tsr__nn_sum(x, w, NULL, 0, false));
    tsr_tensor *first = binary(x, TSR_OP_MUL, nll_loss, 1.0 - smoothing);
    return tsr__gx_add(x, first, binary(x, TSR_OP_MUL, ret, smoothing / (double)classes));
}

static tsr_status check_probability_target(const tsr_tensor *input, const tsr_tensor *target,
                                           const tsr_tensor *weight, int64_t ignore_index)
{
    const char *name = "cross_entropy";
    if (!tsr_dtype_is_floating(target->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected floating point type for target with class "
                              "probabilities, got %s",
                              name, tsr_dtype_name(target->dtype));
    if (ignore_index >= 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: ignore_index is not supported for floating point target", name);
    if (input->ndim < 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: expected 1 or more dimensions (got 0)", name);
    tsr_status st = check_class_weight(name, input, weight);
    const tsr_tensor *all[3] = {input, target, weight};
    tsr_backend *b;
    if (st == TSR_OK)
        st = tsr__common_backend(name, all, 3, &b);
    return st;
}

/* Class indices on a backend with the fused kernel; log_softmax is only
 * formed (from the kernel's logsumexp) when a gradient will be needed. */
static tsr_status cross_entropy_fused(const tsr_tensor *input, const tsr_tensor *target,
                                      const tsr_tensor *weight, int64_t ignore_index, int reduction,
                                      double label_smoothing, tsr_tensor **out)
{
    const tsr_tensor *differentiable[1] = {input};
    bool wanted = tsr__grad_wanted(differentiable, 1);
    bool grad_mode = tsr_grad_mode_set(false);
    tsr__gx x = {0};
    /* uint8 too: ignore_index may be negative */
    target = tsr__nn_to(&x, target, TSR_INT64);
    tsr__class_loss c = {.reduction = reduction,
                         .ignore_index = ignore_index,
                         .smoothing = label_smoothing > 0.0 ? label_smoothing : 0.0,
                         .class_dim = input->ndim == 1 ? 0 : 1,
                         .softmax = true};
    tsr_tensor *loss = NULL, *lp = NULL;
    if (x.status == TSR_OK) {
        tsr_status st =
            tsr__cross_entropy_fused(&c, input, target, weight, &loss, wanted ? &lp : NULL);
        loss = tsr__gx_keep(&x, st, loss);
        if (lp)
            lp = tsr__gx_keep(&x, st, lp);
    }
    tsr_grad_mode_set(grad_mode);
    if (x.status == TSR_OK && wanted)
        x.status = tsr__grad_record_class_loss(&c, input, target, weight, lp, loss);
    return finish("cross_entropy", &x, loss, out);
}

tsr_status tsr_cross_entropy(const tsr_tensor *input, const tsr_tensor *target,
                             const tsr_tensor *weight, int64_t ignore_index, int reduction,
                             double label_smoothing, tsr_tensor **out)
{
    const char *name = "cross_entropy";
    if (!input || !target || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input, target and out must not be NULL", name);
    tsr_status st = check_reduction(name, reduction);
    if (st == TSR_OK && label_smoothing > 1.0)
        st = tsr__set_error(TSR_ERR_VALUE,
                            "%s: label_smoothing must be between 0.0 and 1.0. Got: %g", name,
                            label_smoothing);
    if (st != TSR_OK)
        return st;
    /* As PyTorch: equal shapes mean class probabilities. */
    bool probabilities = same_shape(input, target);
    st = probabilities ? check_probability_target(input, target, weight, ignore_index)
                       : nll_check(name, input, target, weight, ignore_index);
    if (st != TSR_OK)
        return st;
    /* One node for the whole loss: the steps record nothing. */
    int class_dim = input->ndim == 1 ? 0 : 1;
    if (!probabilities && tsr__cross_entropy_fused_available(input))
        return cross_entropy_fused(input, target, weight, ignore_index, reduction, label_smoothing,
                                   out);
    bool grad_mode = tsr_grad_mode_set(false);
    tsr__gx x = {0};
    tsr_tensor *lp = NULL, *loss;
    st = tsr__softmax_forward(TSR_OP_LOG_SOFTMAX, input, class_dim, TSR_DTYPE_INFER, &lp);
    lp = tsr__gx_keep(&x, st, lp);
    if (!probabilities) /* uint8 too: ignore_index may be negative */
        target = tsr__nn_to(&x, target, TSR_INT64);
    if (x.status != TSR_OK) /* no log_softmax: the loss helpers need lp */
        loss = NULL;
    else if (probabilities)
        loss = cross_entropy_probs(&x, lp, target, weight, reduction, label_smoothing);
    else if (label_smoothing > 0.0)
        loss = cross_entropy_smoothed(&x, lp, target, weight, ignore_index, reduction,
                                      label_smoothing);
    else
        loss = nll(&x, lp, target, weight, ignore_index, reduction, NULL);
    tsr_grad_mode_set(grad_mode);
    tsr__class_loss c = {.reduction = reduction,
                         .ignore_index = ignore_index,
                         .smoothing = label_smoothing > 0.0 ? label_smoothing : 0.0,
                         .class_dim = class_dim,
                         .probabilities = probabilities,
                         .softmax = true};
    if (x.status == TSR_OK)
        x.status = tsr__grad_record_class_loss(&c, input, target, weight, lp, loss);
    return finish("cross_entropy", &x, loss, out);
}

/* ------------------------------------------------------------------------ */
/* Regression losses                                                         */
/* ------------------------------------------------------------------------ */

static tsr_status check_pair(const char *name, const tsr_tensor *input, const tsr_tensor *target,
                             int reduction, tsr_tensor **out)
{
    if (!input || !target || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input, target and out must not be NULL", name);
    return check_reduction(name, reduction);
}

tsr_status tsr_mse_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                        tsr_tensor **out)
{
    tsr_status st = check_pair("mse_loss", input, target, reduction, out);
    if (st != TSR_OK)
        return st;
    tsr_dtype dtype = promoted(input, target);
    if (!dtype_in(dtype, FLOATS | 1u << TSR_FLOAT16))
        return not_implemented("mse_loss", dtype);
    tsr__gx x = {0};
    tsr_tensor *d = tsr__gx_sub(&x, input, target);
    return finish("mse_loss", &x, reduce_loss(&x, tsr__gx_mul(&x, d, d), reduction), out);
}

tsr_status tsr_l1_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                       tsr_tensor **out)
{
    tsr_status st = check_pair("l1_loss", input, target, reduction, out);
    if (st != TSR_OK)
        return st;
    tsr__gx x = {0};
    tsr_tensor *d = tsr__gx_unary(&x, TSR_OP_ABS, tsr__gx_sub(&x, input, target));
    return finish("l1_loss", &x, reduce_loss(&x, d, reduction), out);
}

tsr_status tsr_smooth_l1_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                              double beta, tsr_tensor **out)
{
    const char *name = "smooth_l1_loss";
    tsr_status st = check_pair(name, input, target, reduction, out);
    if (st != TSR_OK)
        return st;
    if (!(beta >= 0.0))
        return tsr__set_error(
            TSR_ERR_VALUE, "%s: smooth_l1_loss does not support negative values for beta.", name);
    tsr_dtype dtype = promoted(input, target);
    if (beta == 0.0 && !tsr_dtype_is_floating(dtype))
        return tsr_l1_loss(input, target, reduction, out);
    if (!tsr_dtype_is_floating(dtype))
        return not_implemented(name, dtype);
    /* One node with PyTorch's gradient, which at the kinks is not the
     * composition's (at d = 0 with beta 0 it is -g for both operands). */
    bool grad_mode = tsr_grad_mode_set(false);
    tsr__gx x = {0};
    tsr_tensor *d = tsr__gx_sub(&x, input, target), *loss;
    tsr_tensor *z = tsr__gx_unary(&x, TSR_OP_ABS, d);
    if (beta == 0.0) { /* l1_loss, as PyTorch */
        loss = z;
    } else {
        tsr_tensor *quadratic =
            binary(&x, TSR_OP_DIV, tsr__gx_mul(&x, binary(&x, TSR_OP_MUL, z, 0.5), z), beta);
        tsr_tensor *linear = binary(&x, TSR_OP_SUB, z, 0.5 * beta);
        tsr_tensor *small = binary(&x, TSR_OP_LT, z, beta);
        loss = tsr__gx_where(&x, small, tsr_operand_tensor(quadratic), tsr_operand_tensor(linear));
    }
    double norm = reduction == TSR_LOSS_MEAN && d ? 1.0 / (double)tsr_tensor_numel(d) : 1.0;
    loss = reduce_loss(&x, loss, reduction);
    tsr_grad_mode_set(grad_mode);
    if (x.status == TSR_OK)
        x.status = tsr__grad_record_smooth_l1(input, target, beta, norm, loss);
    return finish("smooth_l1_loss", &x, loss, out);
}

/* ------------------------------------------------------------------------ */
/* Binary cross entropy                                                      */
/* ------------------------------------------------------------------------ */

/* A weight must broadcast to the loss's shape without growing it. */
static tsr_status check_weight_fits(const char *name, const char *arg, const tsr_tensor *weight,
                                    const tsr_tensor *input)
{
    if (!weight)
        return TSR_OK;
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    tsr_status st = tsr__broadcast_shapes(name, input->ndim, input->shape, weight->ndim,
                                          weight->shape, &ndim, shape);
    if (st == TSR_OK && (ndim != input->ndim || tsr__numel(ndim, shape) != tsr_tensor_numel(input)))
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "%s: %s of %d dims does not broadcast to input's "
                            "shape",
                            name, arg, weight->ndim);
    return st;
}

/* PyTorch checks every input against [0, 1] (NaN fails). */
static tsr_status check_probabilities(const char *name, const tsr_tensor *input)
{
    tsr__gx x = {0};
    tsr_tensor *low = binary(&x, TSR_OP_GE, input, 0.0), *high = binary(&x, TSR_OP_LE, input, 1.0);
    tsr_tensor *inside = tsr__gx_binary(&x, TSR_OP_LOGICAL_AND, tsr_operand_tensor(low),
                                        tsr_operand_tensor(high)),
               *all = NULL;
    if (x.status == TSR_OK) {
        tsr_status st = tsr_all(inside, NULL, 0, false, &all);
        all = tsr__gx_keep(&x, st, all);
    }
    bool ok = false;
    if (x.status == TSR_OK)
        x.status = tsr_to_host(all, &ok, sizeof ok);
    tsr_status st = tsr__gx_finish(&x);
    if (st == TSR_OK && !ok)
        st = tsr__set_error(TSR_ERR_VALUE, "%s: all elements of input should be between 0 and 1",
                            name);
    return st;
}

tsr_status tsr_binary_cross_entropy(const tsr_tensor *input, const tsr_tensor *target,
                                    const tsr_tensor *weight, int reduction, tsr_tensor **out)
{
    const char *name = "binary_cross_entropy";
    tsr_status st = check_pair(name, input, target, reduction, out);
    char a[160], b[160];
    if (st == TSR_OK && !same_shape(input, target))
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "%s: using a target size (%s) that is different to the input size "
                            "(%s) is deprecated. Please ensure they have the same size.",
                            name, tsr__shape_str(target->ndim, target->shape, a, 160),
                            tsr__shape_str(input->ndim, input->shape, b, 160));
    if (st == TSR_OK && target->dtype != input->dtype)
        st = tsr__set_error(TSR_ERR_DTYPE, "%s: found dtype %s but expected %s", name,
                            tsr_dtype_name(target->dtype), tsr_dtype_name(input->dtype));
    if (st == TSR_OK && !dtype_in(input->dtype, FLOATS))
        st = not_implemented(name, input->dtype);
    if (st == TSR_OK)
        st = check_weight_fits(name, "weight", weight, input);
    if (st == TSR_OK)
        st = check_probabilities(name, input);
    if (st != TSR_OK)
        return st;
    /* (t - 1) max(log(1 - x), -100) - t max(log(x), -100), as one node */
    bool grad_mode = tsr_grad_mode_set(false);
    tsr__gx x = {0};
    tsr_tensor *log_x = tsr__nn_clamp_min(&x, tsr__gx_unary(&x, TSR_OP_LOG, input), -100.0);
    tsr_tensor *log_1mx = tsr__nn_clamp_min(
        &x, tsr__gx_unary(&x, TSR_OP_LOG1P, tsr__gx_unary(&x, TSR_OP_NEG, input)), -100.0);
    tsr_tensor *t_minus_1 = tsr__gx_binary(&x, TSR_OP_SUB, tsr_operand_tensor(target),
                                           tsr_operand_scalar(tsr_scalar_int(1)));
    tsr_tensor *loss =
        tsr__gx_sub(&x, tsr__gx_mul(&x, t_minus_1, log_1mx), tsr__gx_mul(&x, target, log_x));
    if (weight) /* loss.mul_(weight): the product rounds back to loss's dtype */
        loss = tsr__nn_to(&x, tsr__gx_mul(&x, loss, weight), input->dtype);
    loss = reduce_loss(&x, loss, reduction);
    tsr_grad_mode_set(grad_mode);
    if (x.status == TSR_OK)
        x.status = tsr__grad_record_bce(input, target, weight, reduction, loss);
    return finish("binary_cross_entropy", &x, loss, out);
}

tsr_status tsr_binary_cross_entropy_with_logits(const tsr_tensor *input, const tsr_tensor *target,
                                                const tsr_tensor *weight,
                                                const tsr_tensor *pos_weight, int reduction,
                                                tsr_tensor **out)
{
    const char *name = "binary_cross_entropy_with_logits";
    tsr_status st = check_pair(name, input, target, reduction, out);
    char a[160], b[160];
    if (st == TSR_OK && !same_shape(input, target))
        st = tsr__set_error(TSR_ERR_SHAPE,
                            "%s: target size (%s) must be the same as input size (%s)", name,
                            tsr__shape_str(target->ndim, target->shape, a, 160),
                            tsr__shape_str(input->ndim, input->shape, b, 160));
    tsr_dtype dtype = st == TSR_OK ? promoted(input, target) : TSR_FLOAT32;
    if (st == TSR_OK && !dtype_in(dtype, FLOATS | 1u << TSR_BFLOAT16))
        st = not_implemented(name, dtype);
    if (st == TSR_OK)
        st = check_weight_fits(name, "weight", weight, input);
    if (st == TSR_OK)
        st = check_weight_fits(name, "pos_weight", pos_weight, input);
    if (st != TSR_OK)
        return st;
    /* With m = max(-x, 0): (1 - t) x + lw (log(exp(-m) + exp(-x - m)) + m),
     * lw = 1 + (pos_weight - 1) t, as PyTorch orders the steps. */
    tsr__gx x = {0};
    tsr_tensor *neg_x = tsr__gx_unary(&x, TSR_OP_NEG, input);
    tsr_tensor *m = tsr__nn_clamp_min(&x, neg_x, 0.0);
    tsr_tensor *e = tsr__gx_add(&x, tsr__gx_unary(&x, TSR_OP_EXP, tsr__gx_unary(&x, TSR_OP_NEG, m)),
                                tsr__gx_unary(&x, TSR_OP_EXP, tsr__gx_sub(&x, neg_x, m)));
    tsr_tensor *log_e = tsr__gx_unary(&x, TSR_OP_LOG, e);
    tsr_tensor *linear = tsr__gx_mul(&x, tsr__gx_rsub_scalar(&x, 1.0, target), input), *loss;
    if (pos_weight) {
        tsr_tensor *lw = binary(
            &x, TSR_OP_ADD, tsr__gx_mul(&x, binary(&x, TSR_OP_SUB, pos_weight, 1.0), target), 1.0);
        loss = tsr__gx_add(&x, linear, tsr__gx_mul(&x, lw, tsr__gx_add(&x, log_e, m)));
    } else {
        loss = tsr__gx_add(&x, tsr__gx_add(&x, linear, m), log_e);
    }
    if (weight)
        loss = tsr__gx_mul(&x, loss, weight);
    return finish("binary_cross_entropy_with_logits", &x, reduce_loss(&x, loss, reduction), out);
}
