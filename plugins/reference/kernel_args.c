/* Argument checks shared by all kernels. The core already validated the
 * call, so failures here mean a core or ABI mismatch; they are reported,
 * never asserted, because a plugin must not abort its host. */
#include "kernel_args.h"

#include <stddef.h>

#include "wide.h"

static const char *loop_error_text(int status)
{
    switch (status) {
    case TSR_ERR_SHAPE:
        return "inputs do not have the output's shape, or an extent is negative";
    case TSR_ERR_DTYPE:
        return "a descriptor has an unknown dtype id";
    case TSR_ERR_OVERFLOW:
        return "the output's element count overflows int64";
    default:
        return "malformed tensor descriptor (rank, NULL shape/strides or data)";
    }
}

int tsr__ref_args_prepare(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                          int32_t num_inputs, tsr__ref_loop *loop)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "kernel arguments missing or older than ABI 1.0");
    }
    if (args->num_outputs != 1 || args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "expected 1 output, got %d",
                              (int)args->num_outputs);
    }
    if (args->num_inputs != num_inputs || (num_inputs > 0 && args->inputs == NULL)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "expected %d inputs, got %d",
                              (int)num_inputs, (int)args->num_inputs);
    }
    int status = tsr__ref_loop_init(loop, args->outputs, args->inputs, num_inputs);
    if (status != TSR_OK) {
        return tsr__ref_error(backend, status, "%s", loop_error_text(status));
    }
    return TSR_OK;
}

/* Kernels here read mode and scalars[0] only; a core built when the struct
 * had fewer scalars still passes a usable block. */
const tsr_elementwise_attrs *tsr__ref_args_attrs(const tsr_kernel_args *args)
{
    const tsr_elementwise_attrs *attrs = args->attrs;
    size_t needed = offsetof(tsr_elementwise_attrs, scalars) + sizeof(tsr_scalar);
    if (attrs == NULL || attrs->struct_size < needed) {
        return NULL;
    }
    return attrs;
}

int tsr__ref_args_dtype_error(const tsr__ref_backend *backend, int32_t index, int32_t dtype,
                              int32_t expected)
{
    if (index < 0) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "output has dtype %s, expected %s",
                              tsr__ref_dtype_name(dtype), tsr__ref_dtype_name(expected));
    }
    return tsr__ref_error(backend, TSR_ERR_DTYPE, "input %d has dtype %s, expected %s", (int)index,
                          tsr__ref_dtype_name(dtype), tsr__ref_dtype_name(expected));
}
