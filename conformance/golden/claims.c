/* What a backend claims: the kernels it registers, read through
 * tsr_backend_has_kernel, and the reference backend's as the measure of what
 * an op has at all. */
#include "golden/claims.h"

#include <stdio.h>

bool conf_backend_has_kernel_from(const tsr_backend *backend, tsr_op op, tsr_dtype in)
{
    for (int out = 0; out < TSR_DTYPE_COUNT; out++) {
        if (tsr_backend_has_kernel(backend, op, in, (tsr_dtype)out))
            return true;
    }
    return false;
}

bool conf_backend_has_op(const tsr_backend *backend, tsr_op op)
{
    for (int in = 0; in < TSR_DTYPE_COUNT; in++) {
        if (conf_backend_has_kernel_from(backend, op, (tsr_dtype)in))
            return true;
    }
    return false;
}

/* The reference backend, looked up once; NULL when it cannot load (then a
 * missing kernel is never taken for a dtype the op lacks). */
static const tsr_backend *reference_backend(void)
{
    static tsr_backend *reference;
    static bool looked;
    if (!looked) {
        looked = true;
        if (tsr_backend_get("reference", &reference) != TSR_OK)
            reference = NULL;
        tsr_clear_error();
    }
    return reference;
}

enum { MAX_CANDIDATES = 12 };

/* The dtypes the core could have picked a kernel for: each tensor input's
 * (a list's first element's) and the operands' result type. */
static int candidate_dtypes(const conf_call *call, tsr_dtype *out)
{
    tsr_operand operands[8];
    int n = 0, nops = 0;
    for (int i = 0; i < call->nvalues && n < MAX_CANDIDATES - 1; i++) {
        const conf_value *v = &call->values[i];
        const tsr_tensor *t = v->tensor ? v->tensor : v->nlist ? v->list[0] : NULL;
        if (t)
            out[n++] = tsr_tensor_dtype(t);
        if (v->tensor && nops < 8)
            operands[nops++] = tsr_operand_tensor(v->tensor);
        else if (v->spec->kind == CONF_INPUT_SCALAR && nops < 8)
            operands[nops++] = tsr_operand_scalar(v->spec->scalar);
    }
    if (nops > 0 && tsr_result_type(operands, (size_t)nops, &out[n]) == TSR_OK)
        n++;
    tsr_clear_error();
    return n;
}

bool conf_claims_refusal(const conf_call *call, int status, const char *error, char *why,
                         size_t capacity)
{
    int kernel = call->adapter ? call->adapter->kernel : -1;
    if (kernel < 0) {
        if (status != TSR_ERR_UNIMPLEMENTED)
            return true;
        snprintf(why, capacity, "not claimed: %s", error);
        return false;
    }
    tsr_op op = (tsr_op)kernel;
    if (!conf_backend_has_op(call->backend, op)) {
        snprintf(why, capacity, "not claimed: backend '%s' has no %s kernel",
                 tsr_backend_name(call->backend), tsr_op_name(op));
        return false;
    }
    if (status != TSR_ERR_UNIMPLEMENTED)
        return true;
    tsr_dtype dtypes[MAX_CANDIDATES];
    int n = candidate_dtypes(call, dtypes);
    for (int i = 0; i < n; i++) {
        if (conf_backend_has_kernel_from(call->backend, op, dtypes[i]))
            return true;
    }
    const tsr_backend *reference = reference_backend();
    for (int i = 0; reference && i < n; i++) {
        if (conf_backend_has_kernel_from(reference, op, dtypes[i])) {
            snprintf(why, capacity, "not claimed: %s for %s (%s)", tsr_op_name(op),
                     tsr_dtype_name(dtypes[i]), error);
            return false;
        }
    }
    if (reference)
        return true;
    snprintf(why, capacity, "not claimed: %s", error);
    return false;
}
