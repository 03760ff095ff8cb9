/* Adapters for the masks: masked_fill (and its in-place form), masked_select.
 * The mask and the fill value are operands. */
#include "bindings/bindings.h"

static int adapt_masked_fill(conf_call *call)
{
    tsr_tensor *t, *mask, *out = NULL;
    tsr_operand value;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "mask", &mask) ||
        !conf_bind_operand(call, "value", &value))
        return CONF_BIND_SKIP;
    if (call->adapter->flags & CONF_ADAPTER_INPLACE)
        return conf_call_return_self(call, tsr_masked_fill_(t, mask, value), t);
    int st = tsr_masked_fill(t, mask, value, &out);
    return conf_call_return(call, st, out);
}

static int adapt_masked_select(conf_call *call)
{
    tsr_tensor *t, *mask, *out = NULL;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "mask", &mask))
        return CONF_BIND_SKIP;
    int st = tsr_masked_select(t, mask, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_mask[] = {
    {"masked_fill", adapt_masked_fill, TSR_OP_WHERE, 0},
    {"masked_fill_", adapt_masked_fill, TSR_OP_WHERE, CONF_ADAPTER_INPLACE},
    {"masked_select", adapt_masked_select, TSR_OP_INDEX_SELECT, 0},
};
const size_t conf_bindings_mask_count = sizeof conf_bindings_mask / sizeof conf_bindings_mask[0];
