/* The adapter for F.scaled_dot_product_attention. */
#include "bindings/bindings.h"

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

const conf_adapter conf_bindings_attention[] = {
    {"scaled_dot_product_attention", adapt_attention, TSR_OP_MATMUL, 0},
};
const size_t conf_bindings_attention_count =
    sizeof conf_bindings_attention / sizeof conf_bindings_attention[0];
