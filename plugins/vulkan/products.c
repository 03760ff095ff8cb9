/* matmul (shaders/matmul.comp): out [..., M, N] = beta * c + alpha *
 * (a [..., M, K] @ b [..., K, N]), batch dims already broadcast by the core
 * and c (mode 1) expanded to the output's shape. Every operand has the
 * output's dtype; the dtype picks the shader variant, i.e. the type the
 * products are summed in (float, 32- or 64-bit wrapping integer, double). */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"
#include "scalar.h"

/* The variant for a dtype, or -1 where matmul.comp has none (bool and
 * float16, which PyTorch's CPU matmul lacks; complex). */
static int tsr__vk_matmul_shader(int32_t dtype)
{
    switch (dtype) {
    case TSR_FLOAT32:
    case TSR_BFLOAT16:
        return TSR__VK_SHADER_MATMUL;
    case TSR_UINT8:
    case TSR_INT8:
    case TSR_INT16:
    case TSR_INT32:
        return TSR__VK_SHADER_MATMUL_INT;
    case TSR_INT64:
        return TSR__VK_SHADER_MATMUL_INT64;
    case TSR_FLOAT64:
        return TSR__VK_SHADER_MATMUL_FLOAT64;
    default:
        return -1;
    }
}

/* alpha or beta as PyTorch hands it to its kernel, converted to the dtype
 * (Scalar::to<scalar_t>()), as the shader's two push-constant words. */
static void tsr__vk_coefficient(const tsr_scalar *s, int32_t dtype, uint32_t words[2])
{
    uint64_t bits;
    if (dtype == TSR_FLOAT32 || dtype == TSR_BFLOAT16) {
        /* float32 as before: an integer converted straight to float. */
        float f = tsr__vk_scalar_as_float(s);
        if (dtype == TSR_BFLOAT16)
            f = (float)tsr__vk_double_in_dtype(f, TSR_BFLOAT16);
        bits = tsr__vk_float_bits(f);
    } else if (dtype == TSR_FLOAT64) {
        bits = tsr__vk_double_bits(tsr__vk_scalar_as_double(s));
    } else {
        bits = (uint64_t)tsr__vk_scalar_in_int_dtype(s, dtype);
    }
    tsr__vk_put64(words, bits);
}

/* llvmpipe (a CPU device) ends every loop of an invocation once all its
 * loops together have iterated 65535 times, silently; an invocation of
 * matmul.comp loops about K * 17 / 16 times per output tile it owns. There
 * K is cut into runs short enough, the first run writing out = alpha a b +
 * beta c as asked, each later one out = alpha a b + out (out read and
 * written by the same invocation). Other devices take K whole. */
static int tsr__vk_matmul_split(struct tsr__vk_backend *b, const struct tsr__vk_launch *l)
{
    int nd = l->out->ndim;
    if (b->device.props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU || nd < 2 || nd > TSR_MAX_DIMS ||
        l->in[0]->ndim != nd || l->in[1]->ndim != nd)
        return tsr__vk_launch_matmul(b, l);
    uint64_t tiles = 1, k = (uint64_t)l->in[0]->shape[nd - 1];
    for (int d = 0; d < nd; ++d) {
        uint64_t n = (uint64_t)(l->out->shape[d] < 0 ? 0 : l->out->shape[d]);
        tiles *= d >= nd - 2 ? (n + 15) / 16 : n;
        if (tiles > UINT32_MAX || n == 0)
            return tsr__vk_launch_matmul(b, l); /* refused or empty there */
    }
    uint64_t per = (tiles + 65534) / 65535, budget = 64000 / per;
    uint64_t run = budget > (uint64_t)nd + 8 ? (budget - (uint64_t)nd - 8) * 16 / 17 / 16 * 16 : 0;
    if (run < 16)
        run = 16;
    if (k <= run)
        return tsr__vk_launch_matmul(b, l);
    tsr_tensor_desc a = *l->in[0], bm = *l->in[1];
    int64_t a_shape[TSR_MAX_DIMS], b_shape[TSR_MAX_DIMS];
    memcpy(a_shape, a.shape, (size_t)nd * sizeof *a_shape);
    memcpy(b_shape, bm.shape, (size_t)nd * sizeof *b_shape);
    a.shape = a_shape;
    bm.shape = b_shape;
    struct tsr__vk_launch part = *l;
    part.in[0] = &a;
    part.in[1] = &bm;
    int status = TSR_OK;
    int64_t as = tsr__vk_dtype_size(a.dtype), bs = tsr__vk_dtype_size(bm.dtype);
    for (uint64_t k0 = 0; k0 < k && status == TSR_OK; k0 += run) {
        int64_t kn = (int64_t)(k - k0 < run ? k - k0 : run);
        a_shape[nd - 1] = b_shape[nd - 2] = kn;
        a.byte_offset = l->in[0]->byte_offset + (int64_t)k0 * l->in[0]->strides[nd - 1] * as;
        bm.byte_offset = l->in[1]->byte_offset + (int64_t)k0 * l->in[1]->strides[nd - 2] * bs;
        if (k0 > 0) { /* accumulate into the output: beta 1, c = out */
            tsr_scalar one = {.kind = TSR_SCALAR_INT, .v.i = 1};
            tsr__vk_coefficient(&one, l->out->dtype, &part.scalar[2]);
            part.in[2] = l->out;
            part.num_in = 3;
            part.spec.mode = 1;
        }
        status = tsr__vk_launch_matmul(b, &part);
    }
    return status;
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
    int32_t dtype = args->outputs[0].dtype;
    int shader = tsr__vk_matmul_shader(dtype);
    if (shader < 0 || !tsr__vk_matmul_supported(b, dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "matmul: no kernel for output dtype %s",
                             tsr__vk_dtype_name(dtype));
    for (int i = 0; i < arity; ++i)
        if (args->inputs[i].dtype != dtype)
            return tsr__vk_error(b->host, TSR_ERR_DTYPE, "matmul input %d is %s, expected %s", i,
                                 tsr__vk_dtype_name(args->inputs[i].dtype),
                                 tsr__vk_dtype_name(dtype));
    struct tsr__vk_launch l;
    memset(&l, 0, sizeof l);
    l.shader = shader;
    l.spec = (struct tsr__vk_spec){TSR_OP_MATMUL, dtype, dtype, has_c};
    l.out = &args->outputs[0];
    l.num_in = arity;
    for (int i = 0; i < arity; ++i)
        l.in[i] = &args->inputs[i];
    tsr_scalar one = {.kind = TSR_SCALAR_INT, .v.i = 1};
    tsr__vk_coefficient(attrs ? &attrs->scalars[0] : &one, dtype, &l.scalar[0]);
    tsr__vk_coefficient(attrs ? &attrs->scalars[1] : &one, dtype, &l.scalar[2]);
    pthread_mutex_lock(&b->lock);
    int status = tsr__vk_matmul_split(b, &l);
    pthread_mutex_unlock(&b->lock);
    return status;
}

int tsr__vk_matmul_supported(const struct tsr__vk_backend *b, int32_t dtype)
{
    int shader = tsr__vk_matmul_shader(dtype);
    /* The shader's 16x16 tiles need workgroups of exactly 256 invocations. */
    return shader >= 0 && b->pipelines.local_size == 256 &&
           tsr__vk_dtype_held(&b->device, dtype) && tsr__vk_shader_supported(&b->device, shader);
}
