#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"
#include "scalar.h"

int tsr__vk_copy_shader(int32_t from, int32_t to)
{
    if (from == to)
        return TSR__VK_SHADER_COPY; /* moves bits: no 64-bit types needed */
    if (from == TSR_FLOAT64 || to == TSR_FLOAT64 || from == TSR_COMPLEX128 || to == TSR_COMPLEX128)
        return TSR__VK_SHADER_COPY_FLOAT64; /* complex64 <-> complex128 too */
    if (from == TSR_INT64 || to == TSR_INT64)
        return TSR__VK_SHADER_COPY_INT64;
    return TSR__VK_SHADER_COPY;
}

static int tsr__vk_check_args(struct tsr__vk_backend *b, const tsr_kernel_args *args, int32_t op,
                              int inputs)
{
    if (!args || args->struct_size < sizeof(tsr_kernel_args))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "kernel arguments too old");
    if (args->op != op || args->num_inputs != inputs || args->num_outputs != 1 || !args->outputs ||
        (inputs > 0 && !args->inputs))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "expected %d input(s) and 1 output",
                             inputs);
    return TSR_OK;
}

int tsr__vk_kernel_copy(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    int status = tsr__vk_check_args(b, args, TSR_OP_COPY, 1);
    if (status != TSR_OK)
        return status;
    int32_t from = args->inputs[0].dtype, to = args->outputs[0].dtype;
    if (!tsr__vk_copy_supported(&b->device, from, to))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "copy %s to %s is not supported here",
                             tsr__vk_dtype_name(from), tsr__vk_dtype_name(to));
    struct tsr__vk_launch l = {
        .shader = tsr__vk_copy_shader(from, to),
        .spec = {TSR_OP_COPY, from, to, 0},
        .out = &args->outputs[0],
        .in = {&args->inputs[0]},
        .num_in = 1,
    };
    pthread_mutex_lock(&b->lock);
    status = tsr__vk_launch(b, &l);
    pthread_mutex_unlock(&b->lock);
    return status;
}

int tsr__vk_kernel_fill(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    int status = tsr__vk_check_args(b, args, TSR_OP_FILL, 0);
    if (status != TSR_OK)
        return status;
    const tsr_elementwise_attrs *attrs = args->attrs;
    if (!attrs ||
        attrs->struct_size < offsetof(tsr_elementwise_attrs, scalars) + sizeof(tsr_scalar))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "fill needs its value in scalars[0]");
    int32_t dtype = args->outputs[0].dtype;
    if (!tsr__vk_dtype_held(&b->device, dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "fill of %s is not supported here",
                             tsr__vk_dtype_name(dtype));
    uint64_t bits[2];
    char why[128];
    status = tsr__vk_scalar_bits(&attrs->scalars[0], dtype, bits, why, sizeof why);
    if (status != TSR_OK)
        return tsr__vk_error(b->host, status, "%s", why);
    struct tsr__vk_launch l = {
        .shader = TSR__VK_SHADER_FILL,
        .spec = {TSR_OP_FILL, dtype, dtype, 0},
        .out = &args->outputs[0],
        .scalar = {(uint32_t)bits[0], (uint32_t)(bits[0] >> 32), (uint32_t)bits[1],
                   (uint32_t)(bits[1] >> 32)},
    };
    pthread_mutex_lock(&b->lock);
    status = tsr__vk_launch(b, &l);
    pthread_mutex_unlock(&b->lock);
    return status;
}
