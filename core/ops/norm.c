/* Normalisation: layer_norm and rms_norm on their fused kernels; group_norm
 * and training batch_norm as layer_norm rows of a reshaped or transposed
 * input; evaluation batch_norm from the running statistics. */
#include <float.h>
#include <math.h>

#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "ops/norm.h"
#include "ops/norm_grad.h"
#include "tensor/shape.h"

/* ------------------------------------------------------------------------ */
/* The fused kernels                                                         */
/* ------------------------------------------------------------------------ */

/* An empty row skips the kernel (its y is empty) but its statistics are
 * not: PyTorch reports mean 0 and rstd NaN there. */
static tsr_status fill_empty_stats(const char *name, tsr_tensor *mean, tsr_tensor *rstd)
{
    tsr_status st = mean ? tsr__fill(name, mean, tsr_scalar_float(0.0)) : TSR_OK;
    if (st == TSR_OK)
        st = tsr__fill(name, rstd, tsr_scalar_float(NAN));
    return st;
}

tsr_status tsr__norm_forward(const char *name, const tsr_tensor *input, int ndim,
                             const tsr_tensor *weight, const tsr_tensor *bias, double eps,
                             tsr_tensor **y, tsr_tensor **mean, tsr_tensor **rstd)
{
    tsr_op op = mean ? TSR_OP_LAYER_NORM : TSR_OP_RMS_NORM;
    const tsr_tensor *all[3] = {input, weight, bias};
    tsr_backend *b;
    tsr_status st = tsr__common_backend(name, all, 3, &b);
    if (st == TSR_OK)
        st = tsr__require_kernel(name, b, op, input->dtype, input->dtype);
    if (st != TSR_OK)
        return st;
    int64_t stat_shape[TSR_MAX_DIMS];
    for (int d = 0; d < input->ndim; d++)
        stat_shape[d] = d < input->ndim - ndim ? input->shape[d] : 1;
    /* The kernel takes (x, weight, bias) by position: a bias alone comes
     * with a weight of ones. */
    tsr_tensor *ones = NULL, *outs[3] = {NULL, NULL, NULL};
    if (bias && !weight)
        st = tsr_ones(ndim, bias->shape, input->dtype, b, &ones);
    const tsr_tensor *inputs[3] = {input, weight ? weight : ones, bias};
    int num_inputs = bias ? 3 : weight ? 2 : 1;
    int num_outputs = mean ? 3 : 2;
    for (int i = 0; i < num_outputs && st == TSR_OK; i++) {
        st = i == 0 ? tsr__tensor_empty(name, b, input->dtype, input->ndim, input->shape, &outs[0])
                    : tsr__tensor_empty(name, b, input->dtype, input->ndim, stat_shape, &outs[i]);
    }
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .offset = ndim, .eps = eps};
    if (st == TSR_OK)
        st = tsr__launch(op, input->dtype, input->dtype, inputs, num_inputs, outs, num_outputs,
                         &attrs);
    if (st == TSR_OK && tsr_tensor_numel(input) == 0 && tsr_tensor_numel(outs[1]) > 0)
        st = fill_empty_stats(name, mean ? outs[1] : NULL, outs[num_outputs - 1]);
    tsr_tensor_release(ones);
    if (st != TSR_OK) {
        tsr__release_all(outs, 3);
        return st;
    }
    *y = outs[0];
    if (mean)
        *mean = outs[1];
    *rstd = outs[num_outputs - 1];
    return TSR_OK;
}

/* layer_norm's kernel and its autograd node (group_norm and batch_norm
 * normalise through it too). */
static tsr_status layer_norm_node(const char *name, const tsr_tensor *input, int ndim,
                                  const tsr_tensor *weight, const tsr_tensor *bias, double eps,
                                  tsr_tensor **out)
{
    tsr_tensor *y = NULL, *mean = NULL, *rstd = NULL;
    tsr_status st = tsr__norm_forward(name, input, ndim, weight, bias, eps, &y, &mean, &rstd);
    if (st == TSR_OK)
        st = tsr__grad_record_norm(input, ndim, weight, bias, mean, rstd, y);
    tsr_tensor_release(mean);
    tsr_tensor_release(rstd);
    return tsr__deliver(st, y, out);
}

/* PyTorch's checks of normalized_shape against input, weight and bias
 * (shapes only: dtypes differ between layer_norm and rms_norm). */
static tsr_status check_normalized(const char *name, const tsr_tensor *input, int ndim,
                                   const int64_t *shape, const tsr_tensor *weight,
                                   const tsr_tensor *bias)
{
    char a[160], b[160], c[160];
    if (ndim < 1 || ndim > TSR_MAX_DIMS || !shape)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected normalized_shape to be at least 1-dimensional, i.e., "
                              "containing at least one element, but got %d dims",
                              name, ndim);
    const tsr_tensor *params[2] = {weight, bias};
    const char *names[2] = {"weight", "bias"};
    for (int i = 0; i < 2; i++) {
        const tsr_tensor *p = params[i];
        bool same = p && p->ndim == ndim;
        for (int d = 0; same && d < ndim; d++)
            same = p->shape[d] == shape[d];
        if (p && !same)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: expected %s to be of same shape as normalized_shape, but "
                                  "got %s of shape %s and normalized_shape = %s",
                                  name, names[i], names[i],
                                  tsr__shape_str(p->ndim, p->shape, a, 160),
                                  tsr__shape_str(ndim, shape, b, 160));
    }
    bool fits = input->ndim >= ndim;
    for (int d = 0; fits && d < ndim; d++)
        fits = input->shape[input->ndim - ndim + d] == shape[d];
    if (!fits)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: given normalized_shape=%s, expected input with shape [*, %s, "
                              "but got input of size%s",
                              name, tsr__shape_str(ndim, shape, a, 160),
                              tsr__shape_str(ndim, shape, b, 160) + 1,
                              tsr__shape_str(input->ndim, input->shape, c, 160));
    return TSR_OK;
}

tsr_status tsr_layer_norm(const tsr_tensor *input, int normalized_ndim,
                          const int64_t *normalized_shape, const tsr_tensor *weight,
                          const tsr_tensor *bias, double eps, tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "layer_norm: input and out must not be NULL");
    tsr_status st =
        check_normalized("layer_norm", input, normalized_ndim, normalized_shape, weight, bias);
    if (st == TSR_OK)
        st = tsr__nn_same_dtype("layer_norm", "weight", weight, input->dtype);
    if (st == TSR_OK)
        st = tsr__nn_same_dtype("layer_norm", "bias", bias, input->dtype);
    if (st != TSR_OK)
        return st;
    return layer_norm_node("layer_norm", input, normalized_ndim, weight, bias, eps, out);
}

/* torch.finfo(dtype).eps: the gap between 1 and the next value. */
static double default_rms_eps(tsr_dtype dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return 0x1p-10;
    case TSR_BFLOAT16:
        return 0x1p-7;
    case TSR_FLOAT64:
        return DBL_EPSILON;
    default:
        return FLT_EPSILON;
    }
}

tsr_status tsr_rms_norm(const tsr_tensor *input, int normalized_ndim,
                        const int64_t *normalized_shape, const tsr_tensor *weight,
                        const double *eps, tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "rms_norm: input and out must not be NULL");
    tsr_status st =
        check_normalized("rms_norm", input, normalized_ndim, normalized_shape, weight, NULL);
    if (st != TSR_OK)
        return st;
    /* Another weight dtype promotes the result, as the product it is. */
    bool fused = !weight || weight->dtype == input->dtype;
    double e = eps ? *eps : default_rms_eps(input->dtype);
    tsr_tensor *y = NULL, *rstd = NULL;
    st = tsr__norm_forward("rms_norm", input, normalized_ndim, fused ? weight : NULL, NULL, e, &y,
                           NULL, &rstd);
    if (st == TSR_OK)
        st = tsr__grad_record_norm(input, normalized_ndim, fused ? weight : NULL, NULL, NULL, rstd,
                                   y);
    tsr_tensor_release(rstd);
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    if (fused) {
        *out = y;
        return TSR_OK;
    }
    st = tsr_mul(y, weight, out);
    tsr_tensor_release(y);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Per-channel parameters of group_norm and batch_norm                       */
/* ------------------------------------------------------------------------ */

/* A [C] parameter of input [N, C, ...]: PyTorch's message names its size. */
static tsr_status check_channel_param(const char *name, const char *arg, const tsr_tensor *p,
                                      const tsr_tensor *input)
{
    if (!p)
        return TSR_OK;
    int64_t c = input->shape[1];
    if (p->ndim != 1 || p->shape[0] != c) {
        char a[160], b[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: %s should be a vector of %lld elements, one "
                              "per channel, but got %s of shape %s for input of "
                              "shape %s",
                              name, arg, (long long)c, arg,
                              tsr__shape_str(p->ndim, p->shape, a, 160),
                              tsr__shape_str(input->ndim, input->shape, b, 160));
    }
    return tsr__nn_same_dtype(name, arg, p, input->dtype);
}

/* p [C] viewed as [C, 1, ...] so it broadcasts along dim 1 of an ndim tensor. */
static tsr_status channel_view(const tsr_tensor *p, int ndim, tsr_tensor **out)
{
    int64_t shape[TSR_MAX_DIMS];
    shape[0] = p->shape[0];
    for (int d = 1; d < ndim - 1; d++)
        shape[d] = 1;
    return tsr_view(p, ndim - 1, shape, out);
}

/* y * weight + bias per channel, consuming y (either parameter may be NULL). */
static tsr_status channel_affine(tsr_tensor *y, const tsr_tensor *weight, const tsr_tensor *bias,
                                 tsr_tensor **out)
{
    const tsr_tensor *params[2] = {weight, bias};
    tsr_status st = TSR_OK;
    for (int i = 0; i < 2 && st == TSR_OK; i++) {
        if (!params[i])
            continue;
        tsr_tensor *view = NULL, *next = NULL;
        st = channel_view(params[i], y->ndim, &view);
        if (st == TSR_OK)
            st = i == 0 ? tsr_mul(y, view, &next) : tsr_add(y, view, &next);
        tsr_tensor_release(view);
        tsr_tensor_release(y);
        y = next;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    *out = y;
    return TSR_OK;
}

static tsr_status check_channels_input(const char *name, const tsr_tensor *input)
{
    if (input->ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected at least 2 dimensions for input tensor but received %d",
                              name, input->ndim);
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* group_norm                                                                */
/* ------------------------------------------------------------------------ */

tsr_status tsr_group_norm(const tsr_tensor *input, int64_t num_groups, const tsr_tensor *weight,
                          const tsr_tensor *bias, double eps, tsr_tensor **out)
{
    const char *name = "group_norm";
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    tsr_status st = check_channels_input(name, input);
    if (st != TSR_OK)
        return st;
    int64_t c = input->shape[1];
    if (num_groups <= 0 || c % num_groups != 0) {
        char a[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: expected number of channels in input to be divisible by "
                              "num_groups, but got input of shape %s and num_groups=%lld",
                              name, tsr__shape_str(input->ndim, input->shape, a, 160),
                              (long long)num_groups);
    }
    if ((st = check_channel_param(name, "weight", weight, input)) != TSR_OK ||
        (st = check_channel_param(name, "bias", bias, input)) != TSR_OK)
        return st;
    /* Each group is one row of [N, G, C/G * spatial]: a layer_norm row. */
    int64_t grouped[3] = {input->shape[0], num_groups, c / num_groups};
    for (int d = 2; d < input->ndim; d++)
        grouped[2] *= input->shape[d];
    tsr_tensor *rows = NULL, *y = NULL, *full = NULL;
    st = tsr_reshape(input, 3, grouped, &rows);
    if (st == TSR_OK)
        st = layer_norm_node(name, rows, 1, NULL, NULL, eps, &y);
    if (st == TSR_OK)
        st = tsr_reshape(y, input->ndim, input->shape, &full);
    tsr_tensor *temps[2] = {rows, y};
    tsr__release_all(temps, 2);
    if (st != TSR_OK)
        return st;
    return channel_affine(full, weight, bias, out);
}

/* ------------------------------------------------------------------------ */
/* batch_norm                                                                */
/* ------------------------------------------------------------------------ */

/* Training writes both running statistics; each is checked before either
 * is written, so a refused one does not leave the other updated. */
static tsr_status check_running_writable(const char *name, const tsr_tensor *running_mean,
                                         const tsr_tensor *running_var)
{
    const tsr_tensor *stats[2] = {running_mean, running_var};
    const char *what[2] = {"running_mean", "running_var"};
    for (int i = 0; i < 2; i++) {
        if (stats[i] && tsr__has_internal_overlap(stats[i]))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: %s has internal overlap (more than one element refers to "
                                  "the same memory, as after expand) and cannot be updated in "
                                  "training; clone it first",
                                  name, what[i]);
    }
    return TSR_OK;
}

static tsr_status check_batch_norm(const tsr_tensor *input, const tsr_tensor *running_mean,
                                   const tsr_tensor *running_var, const tsr_tensor *weight,
                                   const tsr_tensor *bias, bool training)
{
    const char *name = "batch_norm";
    /* Evaluation composes elementwise ops that would take any dtype; PyTorch
     * 1.13's CPU kernel takes these. */
    if (input->dtype != TSR_BFLOAT16 && input->dtype != TSR_FLOAT32 && input->dtype != TSR_FLOAT64)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for %s inputs", name,
                              tsr_dtype_name(input->dtype));
    tsr_status st = check_channels_input(name, input);
    if (st == TSR_OK)
        st = check_channel_param(name, "running_mean", running_mean, input);
    if (st == TSR_OK)
        st = check_channel_param(name, "running_var", running_var, input);
    if (st == TSR_OK)
        st = check_channel_param(name, "weight", weight, input);
    if (st == TSR_OK)
        st = check_channel_param(name, "bias", bias, input);
    if (st != TSR_OK)
        return st;
    if (!training && (!running_mean || !running_var))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s must be defined in evaluation mode",
                              name, running_mean ? "running_var" : "running_mean");
    if (training && (st = check_running_writable(name, running_mean, running_var)) != TSR_OK)
        return st;
    int64_t per_channel = input->shape[1] ? tsr_tensor_numel(input) / input->shape[1] : 0;
    if (training && per_channel == 1) {
        char a[160];
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: expected more than 1 value per channel when training, got "
                              "input size %s",
                              name, tsr__shape_str(input->ndim, input->shape, a, 160));
    }
    const tsr_tensor *all[5] = {input, running_mean, running_var, weight, bias};
    tsr_backend *b;
    return tsr__common_backend(name, all, 5, &b);
}

/* r = (1 - momentum) r + momentum s, in float64 as PyTorch's CPU kernel, for
 * a statistic s [C] of float64. */
static tsr_status update_running(tsr_tensor *running, const tsr_tensor *stat, double momentum)
{
    tsr_tensor *r64 = NULL, *old_part = NULL, *new_part = NULL, *sum = NULL;
    tsr_status st = tsr_to_dtype(running, TSR_FLOAT64, &r64);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(r64),
                        tsr_operand_scalar(tsr_scalar_float(1.0 - momentum)), &old_part);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(stat),
                        tsr_operand_scalar(tsr_scalar_float(momentum)), &new_part);
    if (st == TSR_OK)
        st = tsr_add(old_part, new_part, &sum);
    if (st == TSR_OK)
        st = tsr_copy_(running, sum);
    tsr_tensor *temps[4] = {r64, old_part, new_part, sum};
    tsr__release_all(temps, 4);
    return st;
}

/* The batch's mean and unbiased variance per channel, in float64 whatever
 * the input's dtype, as PyTorch's CPU kernel accumulates them. */
static tsr_status update_running_stats(const tsr_tensor *input, tsr_tensor *running_mean,
                                       tsr_tensor *running_var, double momentum)
{
    int64_t dims[TSR_MAX_DIMS];
    int ndims = 0;
    for (int d = 0; d < input->ndim; d++) {
        if (d != 1)
            dims[ndims++] = d;
    }
    tsr_tensor *x64 = NULL, *var = NULL, *mean = NULL;
    tsr_status st = tsr_to_dtype(input, TSR_FLOAT64, &x64);
    if (st == TSR_OK)
        st = tsr_var_mean(x64, dims, ndims, 1.0, false, &var, &mean);
    if (st == TSR_OK && running_mean)
        st = update_running(running_mean, mean, momentum);
    if (st == TSR_OK && running_var)
        st = update_running(running_var, var, momentum);
    tsr_tensor *temps[3] = {x64, var, mean};
    tsr__release_all(temps, 3);
    return st;
}

/* Training: a layer_norm row per channel of x transposed to [C, N, ...]. */
static tsr_status normalize_batch(const tsr_tensor *input, double eps, tsr_tensor **out)
{
    tsr_tensor *xt = NULL, *y = NULL;
    tsr_status st = tsr_transpose(input, 0, 1, &xt);
    if (st == TSR_OK)
        st = layer_norm_node("batch_norm", xt, input->ndim - 1, NULL, NULL, eps, &y);
    if (st == TSR_OK)
        st = tsr_transpose(y, 0, 1, out);
    tsr_tensor *temps[2] = {xt, y};
    tsr__release_all(temps, 2);
    return st;
}

/* Evaluation: (x - running_mean) / sqrt(running_var + eps). */
static tsr_status normalize_running(const tsr_tensor *input, const tsr_tensor *running_mean,
                                    const tsr_tensor *running_var, double eps, tsr_tensor **out)
{
    tsr_tensor *mean = NULL, *var = NULL, *shifted = NULL, *inv = NULL, *centred = NULL;
    tsr_status st = channel_view(running_mean, input->ndim, &mean);
    if (st == TSR_OK)
        st = channel_view(running_var, input->ndim, &var);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_ADD, tsr_operand_tensor(var),
                        tsr_operand_scalar(tsr_scalar_float(eps)), &shifted);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_RSQRT, shifted, &inv);
    if (st == TSR_OK)
        st = tsr_sub(input, mean, &centred);
    if (st == TSR_OK)
        st = tsr_mul(centred, inv, out);
    tsr_tensor *temps[5] = {mean, var, shifted, inv, centred};
    tsr__release_all(temps, 5);
    return st;
}

tsr_status tsr_batch_norm(const tsr_tensor *input, tsr_tensor *running_mean,
                          tsr_tensor *running_var, const tsr_tensor *weight, const tsr_tensor *bias,
                          bool training, double momentum, double eps, tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "batch_norm: input and out must not be NULL");
    tsr_status st = check_batch_norm(input, running_mean, running_var, weight, bias, training);
    if (st != TSR_OK)
        return st;
    tsr_tensor *y = NULL;
    if (training)
        st = normalize_batch(input, eps, &y);
    else
        st = normalize_running(input, running_mean, running_var, eps, &y);
    /* The running statistics change only once the result exists, and not
     * at all for an empty batch, as PyTorch. */
    if (st == TSR_OK && training && (running_mean || running_var) && tsr_tensor_numel(input) > 0) {
        bool grad_mode = tsr_grad_mode_set(false);
        st = update_running_stats(input, running_mean, running_var, momentum);
        tsr_grad_mode_set(grad_mode);
    }
    if (st != TSR_OK) {
        tsr_tensor_release(y);
        return st;
    }
    return channel_affine(y, weight, bias, out);
}
