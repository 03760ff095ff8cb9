/* Adapters for F.dropout and the linear layers F.linear, F.bilinear. */
#include "bindings/bindings.h"

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

const conf_adapter conf_bindings_nn[] = {
    {"dropout", adapt_dropout, TSR_OP_MUL, 0},
    {"linear", adapt_linear, TSR_OP_MATMUL, 0},
    {"bilinear", adapt_bilinear, TSR_OP_MATMUL, 0},
};
const size_t conf_bindings_nn_count = sizeof conf_bindings_nn / sizeof conf_bindings_nn[0];
