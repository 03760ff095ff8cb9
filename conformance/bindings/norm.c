/* Adapters for the neural-network functions (torch.nn.functional names). */
#include "bindings/bindings.h"

#include <stdio.h>
#include <string.h>

/* reduction='none' | 'mean' | 'sum'; another name gives -1, which the
 * library must refuse as PyTorch refuses the name. */
static bool arg_reduction(conf_call *call, int *out)
{
    const char *name;
    if (!conf_arg_string_or(call, "reduction", "mean", &name))
        return false;
    *out = strcmp(name, "none") == 0   ? TSR_LOSS_NONE
           : strcmp(name, "mean") == 0 ? TSR_LOSS_MEAN
           : strcmp(name, "sum") == 0  ? TSR_LOSS_SUM
                                       : -1;
    return true;
}

/* ------------------------------------------------------------------------ */
/* softmax, normalisation                                                    */
/* ------------------------------------------------------------------------ */

/* F.softmax / F.log_softmax(input, dim, dtype=None). */
static int adapt_softmax(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t dim;
    tsr_dtype dtype;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_int(call, "dim", &dim) ||
        !conf_arg_dtype_or(call, "dtype", TSR_DTYPE_INFER, &dtype))
        return CONF_BIND_SKIP;
    int st = call->adapter->kernel == TSR_OP_SOFTMAX ? tsr_softmax(t, dim, dtype, &out)
                                                     : tsr_log_softmax(t, dim, dtype, &out);
    return conf_call_return(call, st, out);
}

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

/* ------------------------------------------------------------------------ */
/* Losses                                                                    */
/* ------------------------------------------------------------------------ */

/* F.cross_entropy / F.nll_loss(input, target, weight, ignore_index=-100,
 * reduction='mean', label_smoothing=0.0). */
static int adapt_class_loss(conf_call *call)
{
    tsr_tensor *t, *target, *weight, *out = NULL;
    int64_t ignore_index;
    int reduction;
    double smoothing = 0.0;
    bool cross_entropy = call->adapter->kernel == TSR_OP_LOG_SOFTMAX;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "target", &target) ||
        !conf_bind_tensor_opt(call, "weight", &weight) ||
        !conf_arg_int_or(call, "ignore_index", TSR_IGNORE_INDEX_DEFAULT, &ignore_index) ||
        !arg_reduction(call, &reduction) ||
        (cross_entropy && !conf_arg_double_or(call, "label_smoothing", 0.0, &smoothing)))
        return CONF_BIND_SKIP;
    int st = cross_entropy
                 ? tsr_cross_entropy(t, target, weight, ignore_index, reduction, smoothing, &out)
                 : tsr_nll_loss(t, target, weight, ignore_index, reduction, &out);
    return conf_call_return(call, st, out);
}

/* F.mse_loss / F.l1_loss / F.smooth_l1_loss(input, target, reduction, beta=1.0). */
static int adapt_pointwise_loss(conf_call *call)
{
    tsr_tensor *t, *target, *out = NULL;
    int reduction;
    double beta = 1.0;
    bool smooth = strcmp(call->adapter->op, "smooth_l1_loss") == 0;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "target", &target) ||
        !arg_reduction(call, &reduction) ||
        (smooth && !conf_arg_double_or(call, "beta", 1.0, &beta)))
        return CONF_BIND_SKIP;
    int st = smooth ? tsr_smooth_l1_loss(t, target, reduction, beta, &out)
             : strcmp(call->adapter->op, "mse_loss") == 0 ? tsr_mse_loss(t, target, reduction, &out)
                                                          : tsr_l1_loss(t, target, reduction, &out);
    return conf_call_return(call, st, out);
}

/* F.binary_cross_entropy(input, target, weight, reduction) and its
 * _with_logits form (with pos_weight). */
static int adapt_bce(conf_call *call)
{
    tsr_tensor *t, *target, *weight, *pos_weight = NULL, *out = NULL;
    int reduction;
    bool logits = strcmp(call->adapter->op, "binary_cross_entropy_with_logits") == 0;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "target", &target) ||
        !conf_bind_tensor_opt(call, "weight", &weight) ||
        (logits && !conf_bind_tensor_opt(call, "pos_weight", &pos_weight)) ||
        !arg_reduction(call, &reduction))
        return CONF_BIND_SKIP;
    int st = logits ? tsr_binary_cross_entropy_with_logits(t, target, weight, pos_weight, reduction,
                                                           &out)
                    : tsr_binary_cross_entropy(t, target, weight, reduction, &out);
    return conf_call_return(call, st, out);
}

/* ------------------------------------------------------------------------ */
/* dropout, linear layers, attention                                         */
/* ------------------------------------------------------------------------ */

/* F.dropout(input, p=0.5, training=True): cases only use p 0 and 1 or
 * training=False, where no random number is drawn; a generator is passed
 * anyway so other cases run. */
static int adapt_dropout(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    double p;
    bool training;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_double_or(call, "p", 0.5, &p) ||
        !conf_arg_bool_or(call, "training", true, &training))
        return CONF_BIND_SKIP;
    tsr_generator *gen = NULL;
    int st = tsr_generator_create(0, &gen);
    if (st == TSR_OK)
        st = tsr_dropout(t, p, training, gen, &out);
    tsr_generator_destroy(gen);
    return conf_call_return(call, st, out);
}

static int adapt_linear(conf_call *call)
{
    tsr_tensor *t, *weight, *bias, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "weight", &weight) ||
        !conf_bind_tensor_opt(call, "bias", &bias))
        return CONF_BIND_SKIP;
    int st = tsr_linear(t, weight, bias, &out);
    return conf_call_return(call, st, out);
}

static int adapt_bilinear(conf_call *call)
{
    tsr_tensor *a, *b, *weight, *bias, *out = NULL;
    if (!conf_bind_tensor(call, "input1", &a) || !conf_bind_tensor(call, "input2", &b) ||
        !conf_bind_tensor(call, "weight", &weight) || !conf_bind_tensor_opt(call, "bias", &bias))
        return CONF_BIND_SKIP;
    int st = tsr_bilinear(a, b, weight, bias, &out);
    return conf_call_return(call, st, out);
}

/* F.scaled_dot_product_attention(query, key, value, attn_mask=None,
 * dropout_p=0.0, is_causal=False, scale=None). No generator is passed: no
 * case can hold values for random dropout (PyTorch's generator cannot be
 * matched), so the case set expects 0 < dropout_p < 1 to be refused, and
 * tessera refuses it without a generator. */
static int adapt_attention(conf_call *call)
{
    tsr_tensor *q, *k, *v, *mask, *out = NULL;
    double dropout_p, scale;
    bool causal, has_scale = conf_arg_present(call, "scale");
    if (!conf_bind_tensor(call, "query", &q) || !conf_bind_tensor(call, "key", &k) ||
        !conf_bind_tensor(call, "value", &v) || !conf_bind_tensor_opt(call, "attn_mask", &mask) ||
        !conf_arg_double_or(call, "dropout_p", 0.0, &dropout_p) ||
        !conf_arg_bool_or(call, "is_causal", false, &causal) ||
        !conf_arg_double_or(call, "scale", 0.0, &scale))
        return CONF_BIND_SKIP;
    int st = tsr_scaled_dot_product_attention(q, k, v, mask, dropout_p, causal,
                                              has_scale ? &scale : NULL, NULL, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_ops_nn[] = {
    {"softmax", adapt_softmax, TSR_OP_SOFTMAX, 0},
    {"log_softmax", adapt_softmax, TSR_OP_LOG_SOFTMAX, 0},
    {"layer_norm", adapt_layer_norm, TSR_OP_LAYER_NORM, 0},
    {"rms_norm", adapt_rms_norm, TSR_OP_RMS_NORM, 0},
    {"batch_norm", adapt_batch_norm, TSR_OP_LAYER_NORM, 0},
    {"group_norm", adapt_group_norm, TSR_OP_LAYER_NORM, 0},
    {"cross_entropy", adapt_class_loss, TSR_OP_LOG_SOFTMAX, 0},
    {"nll_loss", adapt_class_loss, TSR_OP_GATHER, 0},
    {"mse_loss", adapt_pointwise_loss, TSR_OP_SUB, 0},
    {"l1_loss", adapt_pointwise_loss, TSR_OP_SUB, 0},
    {"smooth_l1_loss", adapt_pointwise_loss, TSR_OP_SUB, 0},
    {"binary_cross_entropy", adapt_bce, TSR_OP_LOG, 0},
    {"binary_cross_entropy_with_logits", adapt_bce, TSR_OP_EXP, 0},
    {"dropout", adapt_dropout, TSR_OP_MUL, 0},
    {"linear", adapt_linear, TSR_OP_MATMUL, 0},
    {"bilinear", adapt_bilinear, TSR_OP_MATMUL, 0},
    {"scaled_dot_product_attention", adapt_attention, TSR_OP_MATMUL, 0},
};
const size_t conf_ops_nn_count = sizeof conf_ops_nn / sizeof conf_ops_nn[0];
