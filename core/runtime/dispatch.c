/* Kernel dispatch: the registry lookup's error and one call into a plugin. */
#include "runtime/dispatch.h"

#include "runtime/error.h"

tsr_status tsr__require_kernel(const char *op, tsr_backend *b, tsr_op kernel, tsr_dtype in,
                               tsr_dtype out)
{
    if (tsr__registry_find(b, kernel, in, out, NULL))
        return TSR_OK;
    if (in == out)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED, "%s: backend '%s' has no %s kernel for %s",
                              op, b->name, tsr_op_name(kernel), tsr_dtype_name(in));
    return tsr__set_error(TSR_ERR_UNIMPLEMENTED, "%s: backend '%s' has no %s kernel for %s -> %s",
                          op, b->name, tsr_op_name(kernel), tsr_dtype_name(in),
                          tsr_dtype_name(out));
}

tsr_status tsr__kernel_call(const char *op_name, tsr_backend *b, tsr_kernel_fn fn, tsr_op op,
                            const tsr_tensor_desc *inputs, int num_inputs,
                            const tsr_tensor_desc *outputs, int num_outputs, const void *attrs)
{
    tsr_kernel_args args = {
        .struct_size = sizeof args,
        .op = op,
        .num_inputs = num_inputs,
        .num_outputs = num_outputs,
        .inputs = inputs,
        .outputs = outputs,
        .attrs = attrs,
    };
    tsr_clear_error();
    int st = fn(b->state, &args);
    if (st != TSR_OK) {
        if (!*tsr_last_error())
            tsr__set_error(st, "kernel failed");
        tsr__prefix_error("%s: backend '%s'", op_name, b->name);
        return st < 0 ? st : TSR_ERR_BACKEND;
    }
    return TSR_OK;
}
