/* Adapters for the normalisations: F.layer_norm, rms_norm, F.batch_norm, F.group_norm. */
#include "bindings/bindings.h"

/* F.layer_norm(input, normalized_shape, weight, bias, eps=1e-5). */
static int adapt_layer_norm(conf_call *call)
{
    tsr_tensor *t, *weight, *bias, *out = NULL;
    int64_t shape[TSR_MAX_DIMS];
    int ndim = 0;
    double eps;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor_opt(call, "weight", &weight) ||
        !conf_bind_tensor_opt(call, "bias", &bias) ||
        !conf_arg_int_list(call, "normalized_shape", shape, &ndim) ||
        !conf_arg_double_or(call, "eps", 1e-5, &eps))
        return CONF_BIND_SKIP;
    int st = tsr_layer_norm(t, ndim, shape, weight, bias, eps, &out);
    return conf_call_return(call, st, out);
}

/* rms_norm(input, normalized_shape, weight, eps=None). */
static int adapt_rms_norm(conf_call *call)
{
    tsr_tensor *t, *weight, *out = NULL;
    int64_t shape[TSR_MAX_DIMS];
    int ndim = 0;
    double eps;
    bool has_eps = conf_arg_present(call, "eps");
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor_opt(call, "weight", &weight) ||
        !conf_arg_int_list(call, "normalized_shape", shape, &ndim) ||
        !conf_arg_double_or(call, "eps", 0.0, &eps))
        return CONF_BIND_SKIP;
    int st = tsr_rms_norm(t, ndim, shape, weight, has_eps ? &eps : NULL, &out);
    return conf_call_return(call, st, out);
}

/* F.batch_norm(input, running_mean, running_var, weight, bias, training=False,
 * momentum=0.1, eps=1e-5). Training updates the running statistics in place;
 * the cases record only the result, so the call gets copies and the case's
 * inputs stay as they were (tests/test_nn.c checks the update). */
static int adapt_batch_norm(conf_call *call)
{
    tsr_tensor *t, *mean, *var, *weight, *bias, *out = NULL;
    bool training;
    double momentum, eps;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_bind_tensor_opt(call, "running_mean", &mean) ||
        !conf_bind_tensor_opt(call, "running_var", &var) ||
        !conf_bind_tensor_opt(call, "weight", &weight) ||
        !conf_bind_tensor_opt(call, "bias", &bias) ||
        !conf_arg_bool_or(call, "training", false, &training) ||
        !conf_arg_double_or(call, "momentum", 0.1, &momentum) ||
        !conf_arg_double_or(call, "eps", 1e-5, &eps))
        return CONF_BIND_SKIP;
    tsr_tensor *mean_copy = NULL, *var_copy = NULL;
    int st = mean ? tsr_clone(mean, &mean_copy) : TSR_OK;
    if (st == TSR_OK && var)
        st = tsr_clone(var, &var_copy);
    if (st == TSR_OK)
        st = tsr_batch_norm(t, mean_copy, var_copy, weight, bias, training, momentum, eps, &out);
    tsr_tensor_release(mean_copy);
    tsr_tensor_release(var_copy);
    return conf_call_return(call, st, out);
}

/* F.group_norm(input, num_groups, weight, bias, eps=1e-5). */
static int adapt_group_norm(conf_call *call)
{
    tsr_tensor *t, *weight, *bias, *out = NULL;
    int64_t groups;
    double eps;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor_opt(call, "weight", &weight) ||
        !conf_bind_tensor_opt(call, "bias", &bias) || !conf_arg_int(call, "num_groups", &groups) ||
        !conf_arg_double_or(call, "eps", 1e-5, &eps))
        return CONF_BIND_SKIP;
    int st = tsr_group_norm(t, groups, weight, bias, eps, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_norm[] = {
    {"layer_norm", adapt_layer_norm, TSR_OP_LAYER_NORM, 0},
    {"rms_norm", adapt_rms_norm, TSR_OP_RMS_NORM, 0},
    {"batch_norm", adapt_batch_norm, TSR_OP_LAYER_NORM, 0},
    {"group_norm", adapt_group_norm, TSR_OP_LAYER_NORM, 0},
};
const size_t conf_bindings_norm_count = sizeof conf_bindings_norm / sizeof conf_bindings_norm[0];
