#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"
#include "scalar.h"

int tsr__vk_elementwise_op(int32_t op)
{
    return (op >= TSR_OP_ADD && op <= TSR_OP_CLAMP) || (op >= TSR_OP_FMOD && op <= TSR_OP_ADDCDIV);
}

int tsr__vk_elementwise_bool_out(int32_t op)
{
    return (op >= TSR_OP_EQ && op <= TSR_OP_LOGICAL_XOR) || op == TSR_OP_LOGICAL_NOT ||
           (op >= TSR_OP_ISNAN && op <= TSR_OP_ISFINITE);
}

static int tsr__vk_arity(int32_t op)
{
    if (op == TSR_OP_WHERE || op == TSR_OP_CLAMP || (op >= TSR_OP_LERP && op <= TSR_OP_ADDCDIV))
        return 3;
    if ((op >= TSR_OP_ADD && op <= TSR_OP_LOGICAL_XOR) ||
        (op >= TSR_OP_FMOD && op <= TSR_OP_BITWISE_RIGHT_SHIFT && op != TSR_OP_BITWISE_NOT))
        return 2;
    return 1;
}

/* The second family's ops computed in double even on float16, bfloat16 and
 * float32 storage (rounded once from the double result), as pow is. */
static int tsr__vk_through_double(int32_t op)
{
    return op == TSR_OP_POW || op == TSR_OP_ATAN2 || op == TSR_OP_HYPOT || op == TSR_OP_LERP ||
           op == TSR_OP_ADDCMUL || (op >= TSR_OP_EXP2 && op <= TSR_OP_ERFC);
}

int tsr__vk_elementwise_shader_on(const struct tsr__vk_device *dev, int32_t op, int32_t dtype)
{
    int shader = tsr__vk_elementwise_shader(op, dtype);
    /* lerp and addcmul prefer doubles for their fused step (ew_float64_2.glsl)
     * but run in float32 with the driver's fma() elsewhere */
    if ((op == TSR_OP_LERP || op == TSR_OP_ADDCMUL) && shader == TSR__VK_SHADER_EW_FLOAT64 &&
        dtype != TSR_FLOAT64 && !tsr__vk_shader_supported(dev, shader))
        return TSR__VK_SHADER_EW_FLOAT;
    return shader;
}

int tsr__vk_elementwise_shader(int32_t op, int32_t dtype)
{
    if (op == TSR_OP_WHERE)
        return TSR__VK_SHADER_EW_INT; /* moves bits of any dtype */
    switch (dtype) {
    case TSR_FLOAT16:
    case TSR_BFLOAT16:
    case TSR_FLOAT32:
        return tsr__vk_through_double(op) ? TSR__VK_SHADER_EW_FLOAT64 : TSR__VK_SHADER_EW_FLOAT;
    case TSR_FLOAT64:
        return TSR__VK_SHADER_EW_FLOAT64;
    case TSR_INT64:
        return TSR__VK_SHADER_EW_INT64;
    default:
        return TSR__VK_SHADER_EW_INT;
    }
}

static int tsr__vk_is_integral(int32_t dtype)
{
    return dtype == TSR_BOOL || dtype == TSR_UINT8 || dtype == TSR_INT8 || dtype == TSR_INT16 ||
           dtype == TSR_INT32 || dtype == TSR_INT64;
}

static int tsr__vk_divides_integers(int32_t op, int32_t dtype)
{
    return (op == TSR_OP_DIV || op == TSR_OP_FLOOR_DIVIDE || op == TSR_OP_REMAINDER ||
            op == TSR_OP_FMOD) &&
           tsr__vk_is_integral(dtype);
}

/* add/sub's alpha in the shader's compute type, as push-constant words. */
static int tsr__vk_alpha(struct tsr__vk_backend *b, const tsr_elementwise_attrs *attrs, int shader,
                         int32_t dtype, uint32_t scalar[2])
{
    tsr_scalar one = {.kind = TSR_SCALAR_INT, .v.i = 1};
    const tsr_scalar *alpha = attrs ? &attrs->scalars[0] : &one;
    if (tsr__vk_is_integral(dtype) && alpha->kind != TSR_SCALAR_INT &&
        alpha->kind != TSR_SCALAR_BOOL)
        return tsr__vk_error(b->host, TSR_ERR_VALUE,
                             "for integral input tensors, alpha must not be a floating point "
                             "number");
    uint64_t bits;
    if (shader == TSR__VK_SHADER_EW_FLOAT) {
        bits = tsr__vk_float_bits(tsr__vk_scalar_as_float(alpha));
    } else if (shader == TSR__VK_SHADER_EW_FLOAT64) {
        bits = tsr__vk_double_bits(tsr__vk_scalar_as_double(alpha));
    } else {
        bits = (uint64_t)alpha->v.i; /* int32 shaders use the low word: same wrap */
    }
    tsr__vk_put64(scalar, bits);
    return TSR_OK;
}

/* The op's mode as a specialisation constant; 0 for ops without one, so
 * they share a pipeline whatever the attrs say. */
static int32_t tsr__vk_mode(int32_t op, const tsr_elementwise_attrs *attrs)
{
    if (!attrs || attrs->struct_size < offsetof(tsr_elementwise_attrs, mode) + sizeof(int32_t))
        return 0;
    if (op == TSR_OP_DIV || op == TSR_OP_GELU)
        return attrs->mode;
    if (op == TSR_OP_CLAMP)
        return attrs->mode & (TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX | TSR_CLAMP_SCALAR_BOUNDS);
    if (op == TSR_OP_ROUND) /* decimals */
        return attrs->mode;
    if (op == TSR_OP_LERP) /* the shaders' 1: a scalar weight */
        return (attrs->mode & TSR_LERP_SCALAR_WEIGHT) ? 1 : 0;
    return 0;
}

static int tsr__vk_check_dtypes(struct tsr__vk_backend *b, const tsr_kernel_args *args,
                                int32_t dtype)
{
    int32_t op = args->op;
    for (int i = 0; i < args->num_inputs; ++i) {
        int32_t want = op == TSR_OP_WHERE && i == 0 ? TSR_BOOL : dtype;
        if (args->inputs[i].dtype != want)
            return tsr__vk_error(b->host, TSR_ERR_DTYPE, "input %d is %s, expected %s", i,
                                 tsr__vk_dtype_name(args->inputs[i].dtype),
                                 tsr__vk_dtype_name(want));
    }
    int32_t out = tsr__vk_elementwise_bool_out(op) ? TSR_BOOL : dtype;
    if (args->outputs[0].dtype != out)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "output is %s, expected %s",
                             tsr__vk_dtype_name(args->outputs[0].dtype), tsr__vk_dtype_name(out));
    return TSR_OK;
}

/* Whether the table has (op, dtype): a kernel called directly for a pair it
 * was not registered for (bitwise_and on float32) must fail, not compute
 * something. */
static int tsr__vk_registered(const struct tsr__vk_backend *b, int32_t op, int32_t dtype)
{
    for (size_t i = 0; i < b->kernel_count; ++i)
        if (b->kernels[i].op == op && b->kernels[i].dtype_in == dtype)
            return 1;
    return 0;
}

/* `*third` gets a float64 op's third attribute when *has_third is set. */
static int tsr__vk_prepare(struct tsr__vk_backend *b, const tsr_kernel_args *args,
                           struct tsr__vk_launch *l, int *has_third, double *third)
{
    int32_t op = args->op;
    int arity = tsr__vk_arity(op);
    if (!tsr__vk_elementwise_op(op) || args->num_inputs != arity || args->num_outputs != 1 ||
        !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "op %d: expected %d input(s) and 1 output", op, arity);
    int32_t dtype = args->inputs[op == TSR_OP_WHERE ? 1 : 0].dtype;
    int complex = dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128;
    if (!tsr__vk_dtype_held(&b->device, dtype) || (complex && op != TSR_OP_WHERE) ||
        !tsr__vk_registered(b, op, dtype))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "op %d on %s is not supported here", op,
                             tsr__vk_dtype_name(dtype));
    int status = tsr__vk_check_dtypes(b, args, dtype);
    if (status != TSR_OK)
        return status;
    const tsr_elementwise_attrs *attrs = args->attrs;
    if (attrs && attrs->struct_size < offsetof(tsr_elementwise_attrs, scalars))
        attrs = NULL;
    int32_t mode = tsr__vk_mode(op, attrs);
    if (op == TSR_OP_FMAX || op == TSR_OP_FMIN) /* PyTorch's tie rule differs by dtype */
        mode = dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16;
    if (op == TSR_OP_DIV && tsr__vk_is_integral(dtype) && mode == TSR_ROUND_NONE)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE,
                             "true division of %s needs a floating dtype (the core converts "
                             "first)",
                             tsr__vk_dtype_name(dtype));
    memset(l, 0, sizeof *l);
    l->shader = tsr__vk_elementwise_shader_on(&b->device, op, dtype);
    l->spec = (struct tsr__vk_spec){op, dtype, args->outputs[0].dtype, mode};
    l->out = &args->outputs[0];
    l->num_in = arity;
    for (int i = 0; i < arity; ++i)
        l->in[i] = &args->inputs[i];
    if (!tsr__vk_shader_supported(&b->device, l->shader))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE,
                             "%s on this device needs shaderInt64 or "
                             "shaderFloat64",
                             tsr__vk_dtype_name(dtype));
    if (op == TSR_OP_ADD || op == TSR_OP_SUB) {
        /* Only scalars[0] is read: older, shorter structs have it too. */
        if (attrs &&
            attrs->struct_size < offsetof(tsr_elementwise_attrs, scalars) + sizeof(tsr_scalar))
            attrs = NULL;
        return tsr__vk_alpha(b, attrs, l->shader, dtype, l->scalar);
    }
    *has_third = op >= TSR_OP_FMOD ? tsr__vk_ew2_params(attrs, dtype, l, third) : 0;
    return TSR_OK;
}

int tsr__vk_kernel_elementwise(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    if (!args || args->struct_size < sizeof(tsr_kernel_args))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "kernel arguments too old");
    struct tsr__vk_launch l;
    int has_third = 0;
    double third = 0.0;
    int status = tsr__vk_prepare(b, args, &l, &has_third, &third);
    if (status != TSR_OK)
        return status;
    pthread_mutex_lock(&b->lock);
    if (tsr__vk_divides_integers(l.spec.op, l.spec.dtype_in)) {
        /* PyTorch raises ZeroDivisionError before writing anything: a first
         * pass looks for zero divisors and the host waits for its answer.
         * The one place a kernel waits for the device. */
        struct tsr__vk_launch check = l;
        check.spec.mode |= TSR__VK_MODE_CHECK_DIVISOR;
        status = tsr__vk_launch(b, &check);
        if (status == TSR_OK)
            status = tsr__vk_submit_wait(&b->submit);
    }
    if (status == TSR_OK)
        status = has_third ? tsr__vk_ew2_launch_with_third(b, &l, third) : tsr__vk_launch(b, &l);
    pthread_mutex_unlock(&b->lock);
    return status;
}
