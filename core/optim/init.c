/* torch.nn.init: gains, fans and the uniform initialisers, with bounds
 * computed in double exactly as torch.nn.init computes them. Values are
 * drawn from a tsr_generator in t's dtype and written with copy_, so a seed
 * gives the same parameters on every backend. */
#include "runtime/error.h"
#include "tessera/optim.h"

#include <math.h>

tsr_status tsr_init_calculate_gain(int nonlinearity, const double *param, double *out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "calculate_gain: out must not be NULL");
    switch (nonlinearity) {
    case TSR_NONLINEARITY_LINEAR:
    case TSR_NONLINEARITY_SIGMOID:
        *out = 1.0;
        return TSR_OK;
    case TSR_NONLINEARITY_TANH:
        *out = 5.0 / 3;
        return TSR_OK;
    case TSR_NONLINEARITY_RELU:
        *out = sqrt(2.0);
        return TSR_OK;
    case TSR_NONLINEARITY_LEAKY_RELU: {
        double slope = param ? *param : 0.01;
        *out = sqrt(2.0 / (1 + slope * slope));
        return TSR_OK;
    }
    case TSR_NONLINEARITY_SELU:
        *out = 3.0 / 4;
        return TSR_OK;
    default:
        return tsr__set_error(TSR_ERR_VALUE, "calculate_gain: Unsupported nonlinearity %d",
                              nonlinearity);
    }
}

tsr_status tsr_init_calculate_fans(const tsr_tensor *t, int64_t *fan_in, int64_t *fan_out)
{
    if (!t || !fan_in || !fan_out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "calculate_fans: tensor and outputs must not be NULL");
    int ndim = tsr_tensor_ndim(t);
    if (ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "calculate_fans: Fan in and fan out can not be "
                              "computed for tensor with fewer than 2 dimensions (got %d)",
                              ndim);
    const int64_t *shape = tsr_tensor_shape(t);
    int64_t receptive_field = 1;
    for (int d = 2; d < ndim; d++)
        receptive_field *= shape[d]; /* bounded by numel, which fits int64 */
    *fan_in = shape[1] * receptive_field;
    *fan_out = shape[0] * receptive_field;
    return TSR_OK;
}

tsr_status tsr_init_kaiming_uniform_bound(const tsr_tensor *t, double a, int mode, int nonlinearity,
                                          double *bound)
{
    if (!bound)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "kaiming_uniform: bound must not be NULL");
    if (mode != TSR_FAN_IN && mode != TSR_FAN_OUT)
        return tsr__set_error(TSR_ERR_VALUE,
                              "kaiming_uniform: Mode %d not supported, please use one of "
                              "TSR_FAN_IN, TSR_FAN_OUT",
                              mode);
    int64_t fan_in, fan_out;
    tsr_status st = tsr_init_calculate_fans(t, &fan_in, &fan_out);
    double gain = 0;
    if (st == TSR_OK)
        st = tsr_init_calculate_gain(nonlinearity, &a, &gain);
    if (st != TSR_OK) {
        tsr__prefix_error("kaiming_uniform");
        return st;
    }
    int64_t fan = mode == TSR_FAN_IN ? fan_in : fan_out;
    if (fan == 0)
        return tsr__set_error(TSR_ERR_VALUE, "kaiming_uniform: the fan (%s) is 0",
                              mode == TSR_FAN_IN ? "fan_in" : "fan_out");
    double std = gain / sqrt((double)fan);
    *bound = sqrt(3.0) * std;
    return TSR_OK;
}

tsr_status tsr_init_xavier_uniform_bound(const tsr_tensor *t, double gain, double *bound)
{
    if (!bound)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "xavier_uniform: bound must not be NULL");
    int64_t fan_in, fan_out;
    tsr_status st = tsr_init_calculate_fans(t, &fan_in, &fan_out);
    if (st != TSR_OK) {
        tsr__prefix_error("xavier_uniform");
        return st;
    }
    if (fan_in + fan_out == 0)
        return tsr__set_error(TSR_ERR_VALUE, "xavier_uniform: fan_in + fan_out is 0");
    double std = gain * sqrt(2.0 / (double)(fan_in + fan_out));
    *bound = sqrt(3.0) * std;
    return TSR_OK;
}

tsr_status tsr_init_uniform_(tsr_tensor *t, tsr_generator *gen, double low, double high)
{
    if (!t || !gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "init_uniform_: tensor and generator must not be NULL");
    tsr_dtype dtype = tsr_tensor_dtype(t);
    if (!tsr_dtype_is_floating(dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "init_uniform_: expected a floating point tensor, "
                              "got %s",
                              tsr_dtype_name(dtype));
    if (!(low <= high))
        return tsr__set_error(TSR_ERR_VALUE,
                              "init_uniform_: expects low <= high, but got "
                              "low=%g and high=%g",
                              low, high);
    if (tsr_tensor_numel(t) == 0)
        return TSR_OK;
    /* As uniform_: low + (high - low) * u, computed in t's dtype. */
    bool prev = tsr_grad_mode_set(false);
    tsr_tensor *u = NULL, *v = NULL;
    tsr_status st =
        tsr_rand(gen, tsr_tensor_ndim(t), tsr_tensor_shape(t), dtype, tsr_tensor_backend(t), &u);
    if (st == TSR_OK)
        st = tsr_add_scaled(tsr_operand_scalar(tsr_scalar_float(low)), tsr_operand_tensor(u),
                            tsr_scalar_float(high - low), &v);
    if (st == TSR_OK)
        st = tsr_copy_(t, v);
    tsr_grad_mode_set(prev);
    tsr_tensor_release(u);
    tsr_tensor_release(v);
    return st;
}

tsr_status tsr_init_kaiming_uniform_(tsr_tensor *t, tsr_generator *gen, double a, int mode,
                                     int nonlinearity)
{
    if (!t || !gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "kaiming_uniform_: tensor and generator must not be NULL");
    if (tsr_tensor_numel(t) == 0)
        return TSR_OK; /* PyTorch warns "Initializing zero-element tensors is a no-op" */
    double bound;
    tsr_status st = tsr_init_kaiming_uniform_bound(t, a, mode, nonlinearity, &bound);
    if (st == TSR_OK)
        st = tsr_init_uniform_(t, gen, -bound, bound);
    return st;
}

tsr_status tsr_init_xavier_uniform_(tsr_tensor *t, tsr_generator *gen, double gain)
{
    if (!t || !gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "xavier_uniform_: tensor and generator must not be NULL");
    double bound;
    tsr_status st = tsr_init_xavier_uniform_bound(t, gain, &bound);
    if (st == TSR_OK)
        st = tsr_init_uniform_(t, gen, -bound, bound);
    return st;
}

tsr_status tsr_init_linear_(tsr_tensor *weight, tsr_tensor *bias, tsr_generator *gen)
{
    if (!weight || !gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "init_linear_: weight and generator must not be NULL");
    tsr_status st =
        tsr_init_kaiming_uniform_(weight, gen, sqrt(5.0), TSR_FAN_IN, TSR_NONLINEARITY_LEAKY_RELU);
    if (st != TSR_OK || !bias)
        return st;
    int64_t fan_in, fan_out;
    st = tsr_init_calculate_fans(weight, &fan_in, &fan_out);
    if (st != TSR_OK)
        return st;
    double bound = fan_in > 0 ? 1 / sqrt((double)fan_in) : 0;
    return tsr_init_uniform_(bias, gen, -bound, bound);
}

tsr_status tsr_linear_params_create(int64_t in_features, int64_t out_features, tsr_dtype dtype,
                                    tsr_backend *backend, tsr_generator *gen, tsr_tensor **weight,
                                    tsr_tensor **bias)
{
    if (!weight || !gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "linear_params_create: weight and generator must not be NULL");
    if (in_features < 0 || out_features < 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "linear_params_create: in_features (%lld) and "
                              "out_features (%lld) must be non-negative",
                              (long long)in_features, (long long)out_features);
    if (!tsr_dtype_is_floating(dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "linear_params_create: expected a floating point "
                              "dtype, got %s",
                              tsr_dtype_name(dtype) ? tsr_dtype_name(dtype) : "?");
    int64_t wshape[2] = {out_features, in_features};
    tsr_tensor *w = NULL, *b = NULL;
    tsr_status st = tsr_empty(2, wshape, dtype, backend, &w);
    if (st == TSR_OK && bias)
        st = tsr_empty(1, &out_features, dtype, backend, &b);
    if (st == TSR_OK)
        st = tsr_init_linear_(w, b, gen);
    if (st == TSR_OK)
        st = tsr_tensor_set_requires_grad(w, true);
    if (st == TSR_OK && b)
        st = tsr_tensor_set_requires_grad(b, true);
    if (st != TSR_OK) {
        tsr_tensor_release(w);
        tsr_tensor_release(b);
        return st;
    }
    *weight = w;
    if (bias)
        *bias = b;
    return TSR_OK;
}
