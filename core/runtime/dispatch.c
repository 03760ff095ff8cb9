/* Kernel dispatch: the registry lookup's error and one call into a plugin. */
#include "runtime/dispatch.h"

#include "runtime/error.h"
#include "runtime/fallback.h"

#include <stdio.h>
#include <string.h>

void tsr__describe_missing_kernel(char *text, size_t capacity, const tsr_backend *b,
                                  tsr_op kernel, tsr_dtype in, tsr_dtype out)
{
    if (in == out)
        snprintf(text, capacity, "backend '%s' has no %s kernel for %s", b->name,
                 tsr_op_name(kernel), tsr_dtype_name(in));
    else
        snprintf(text, capacity, "backend '%s' has no %s kernel for %s -> %s", b->name,
                 tsr_op_name(kernel), tsr_dtype_name(in), tsr_dtype_name(out));
}

tsr_status tsr__require_kernel(const char *op, tsr_backend *b, tsr_op kernel, tsr_dtype in,
                               tsr_dtype out)
{
    if (tsr__registry_find(b, kernel, in, out, NULL))
        return TSR_OK;
    char missing[256];
    tsr__describe_missing_kernel(missing, sizeof missing, b, kernel, in, out);
    tsr_backend *fallback;
    tsr_status st = tsr__fallback_find(b, kernel, in, out, &fallback);
    if (st != TSR_OK) {
        tsr__prefix_error("%s: %s, with no usable fallback", op, missing);
        return st;
    }
    if (fallback)
        return TSR_OK;
    tsr_backend *configured = NULL;
    tsr_fallback_backend(&configured);
    if (configured)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED, "%s: %s, nor does the fallback '%s' "
                                                     "(TESSERA_FALLBACK)",
                              op, missing, configured->name);
    /* The hint names another backend; cpu and reference cover the same
     * (op, dtype) rows, so neither can stand in for the other. */
    if (strcmp(b->name, "cpu") == 0 || strcmp(b->name, "reference") == 0)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED, "%s: %s", op, missing);
    return tsr__set_error(TSR_ERR_UNIMPLEMENTED, "%s: %s; set TESSERA_FALLBACK=cpu to run it on "
                                                 "a host backend",
                          op, missing);
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
