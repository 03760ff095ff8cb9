/* matmul on float32 (shaders/matmul.comp): out [..., M, N] =
 * beta * c + alpha * (a [..., M, K] @ b [..., K, N]), batch dims already
 * broadcast by the core and c (mode 1) expanded to the output's shape. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"
#include "scalar.h"

/* A coefficient as PyTorch's Scalar::to<float>(), as float bits. */
static uint32_t tsr__vk_float_bits(const tsr_scalar *s)
{
    float f = s->kind == TSR_SCALAR_INT || s->kind == TSR_SCALAR_BOOL
                  ? (float)s->v.i
                  : (float)tsr__vk_scalar_as_double(s);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int tsr__vk_kernel_matmul(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    if (!args || args->struct_size < sizeof(tsr_kernel_args))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "kernel arguments too old");
    const tsr_elementwise_attrs *attrs = args->attrs;
    if (attrs && attrs->struct_size < offsetof(tsr_elementwise_attrs, scalars) +
                                          2 * sizeof(tsr_scalar))
        attrs = NULL;
    int has_c = attrs && attrs->mode == 1;
    int arity = has_c ? 3 : 2;
    if (args->op != TSR_OP_MATMUL || args->num_inputs != arity || args->num_outputs != 1 ||
        !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "matmul: expected %d inputs and 1 output", arity);
    for (int i = 0; i < arity; ++i)
        if (args->inputs[i].dtype != TSR_FLOAT32)
            return tsr__vk_error(b->host, TSR_ERR_DTYPE, "matmul input %d is %s, expected float32",
                                 i, tsr__vk_dtype_name(args->inputs[i].dtype));
    if (args->outputs[0].dtype != TSR_FLOAT32)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "matmul output is %s, expected float32",
                             tsr__vk_dtype_name(args->outputs[0].dtype));
    struct tsr__vk_launch l;
    memset(&l, 0, sizeof l);
    l.shader = TSR__VK_SHADER_MATMUL;
    l.spec = (struct tsr__vk_spec){TSR_OP_MATMUL, TSR_FLOAT32, TSR_FLOAT32, has_c};
    l.out = &args->outputs[0];
    l.num_in = arity;
    for (int i = 0; i < arity; ++i)
        l.in[i] = &args->inputs[i];
    tsr_scalar one = {.kind = TSR_SCALAR_INT, .v.i = 1};
    l.scalar[0] = tsr__vk_float_bits(attrs ? &attrs->scalars[0] : &one);
    l.scalar[2] = tsr__vk_float_bits(attrs ? &attrs->scalars[1] : &one);
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_launch_matmul(b, &l);
    pthread_mutex_unlock(&b->lock);
    return status;
}

int tsr__vk_matmul_supported(const struct tsr__vk_backend *b)
{
    /* The shader's 16x16 tiles need workgroups of exactly 256 invocations. */
    return b->pipelines.local_size == 256 &&
           tsr__vk_shader_supported(&b->device, TSR__VK_SHADER_MATMUL);
}
