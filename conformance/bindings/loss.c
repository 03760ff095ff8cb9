/* Adapters for the losses of torch.nn.functional: cross_entropy ...
 * binary_cross_entropy_with_logits. */
#include "bindings/bindings.h"

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

const conf_adapter conf_bindings_loss[] = {
    {"cross_entropy", adapt_class_loss, TSR_OP_LOG_SOFTMAX, 0},
    {"nll_loss", adapt_class_loss, TSR_OP_GATHER, 0},
    {"mse_loss", adapt_pointwise_loss, TSR_OP_SUB, 0},
    {"l1_loss", adapt_pointwise_loss, TSR_OP_SUB, 0},
    {"smooth_l1_loss", adapt_pointwise_loss, TSR_OP_SUB, 0},
    {"binary_cross_entropy", adapt_bce, TSR_OP_LOG, 0},
    {"binary_cross_entropy_with_logits", adapt_bce, TSR_OP_EXP, 0},
};
const size_t conf_bindings_loss_count = sizeof conf_bindings_loss / sizeof conf_bindings_loss[0];
