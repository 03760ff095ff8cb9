/* The second elementwise family's attributes, in the form its shaders read
 * them (shaders/ew_float2.glsl, ew_float64_2.glsl, ew_int_ops.glsl).
 *
 * Values are converted to the computation dtype on the host, as PyTorch's
 * Scalar::to<scalar_t>() converts them, so a bfloat16 slope is a bfloat16
 * number before the float32 shader multiplies by it. Push constants carry
 * four 32-bit words: four float32 values, or two doubles or int64 values.
 * Two float64 ops have a third attribute (elu's input_scale, nan_to_num's
 * neginf); it travels as a one-element float64 buffer bound as input 1 with
 * zero strides, released once the batch that reads it has completed. */
#include <math.h>
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"
#include "scalar.h"
#include "shaders.h"
#include "transfer.h"

/* scalars[k] when the caller's struct has it, else PyTorch's default. */
static tsr_scalar tsr__vk_attr(const tsr_elementwise_attrs *attrs, int k, double fallback)
{
    if (attrs && attrs->struct_size >= offsetof(tsr_elementwise_attrs, scalars) +
                                           (size_t)(k + 1) * sizeof(tsr_scalar))
        return attrs->scalars[k];
    return (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = fallback};
}

/* The op's attributes as doubles already in the computation dtype; returns
 * how many it has. */
static int tsr__vk_float_params(int32_t op, const tsr_elementwise_attrs *attrs, int32_t dtype,
                                double p[3])
{
    double max = tsr__vk_float_largest(dtype);
    double defaults[3] = {0.0, 0.0, 0.0};
    int count;
    switch (op) {
    case TSR_OP_SOFTPLUS:
        defaults[0] = 1.0, defaults[1] = 20.0, count = 2;
        break;
    case TSR_OP_LEAKY_RELU:
        defaults[0] = 0.01, count = 1;
        break;
    case TSR_OP_ELU:
        defaults[0] = defaults[1] = defaults[2] = 1.0, count = 3;
        break;
    case TSR_OP_HARDTANH:
        defaults[0] = -1.0, defaults[1] = 1.0, count = 2;
        break;
    case TSR_OP_NAN_TO_NUM:
        defaults[1] = max, defaults[2] = -max, count = 3;
        break;
    case TSR_OP_ADDCMUL:
    case TSR_OP_ADDCDIV:
        defaults[0] = 1.0, count = 1;
        break;
    case TSR_OP_LERP: {
        /* A scalar weight keeps float precision for bfloat16 (PyTorch's
         * opmath type), double for float64. */
        tsr_scalar w = tsr__vk_attr(attrs, 0, 0.0);
        double v = tsr__vk_scalar_as_double(&w);
        p[0] = dtype == TSR_FLOAT64 ? v : (double)(float)v;
        return 1;
    }
    case TSR_OP_ROUND: {
        int32_t decimals = attrs ? attrs->mode : 0;
        double magnitude = decimals < 0 ? -(double)decimals : (double)decimals;
        p[0] = tsr__vk_double_in_dtype(pow(10.0, magnitude), dtype);
        return 1;
    }
    default:
        return 0;
    }
    for (int k = 0; k < count; ++k) {
        tsr_scalar s = tsr__vk_attr(attrs, k, defaults[k]);
        p[k] = tsr__vk_double_in_dtype(tsr__vk_scalar_as_double(&s), dtype);
    }
    if (op == TSR_OP_ELU) /* PyTorch multiplies alpha by scale once, in the dtype */
        p[0] = tsr__vk_double_in_dtype(p[0] * p[1], dtype);
    return count;
}

int tsr__vk_ew2_params(const tsr_elementwise_attrs *attrs, int32_t dtype, struct tsr__vk_launch *l,
                       double *third)
{
    int32_t op = l->spec.op;
    if (l->shader == TSR__VK_SHADER_EW_INT || l->shader == TSR__VK_SHADER_EW_INT64) {
        /* hardtanh {min, max}; addcmul {value} */
        double fallback[2] = {op == TSR_OP_HARDTANH ? -1.0 : 1.0, 1.0};
        for (int k = 0; k < 2; ++k) {
            tsr_scalar s = tsr__vk_attr(attrs, k, fallback[k]);
            tsr__vk_put64(&l->scalar[2 * k], (uint64_t)tsr__vk_scalar_in_int_dtype(&s, dtype));
        }
        return 0;
    }
    double p[3];
    int count = tsr__vk_float_params(op, attrs, dtype, p);
    if (l->shader == TSR__VK_SHADER_EW_FLOAT) {
        for (int k = 0; k < count; ++k) {
            float f = (float)p[k];
            memcpy(&l->scalar[k], &f, sizeof f);
        }
        return 0;
    }
    for (int k = 0; k < count && k < 2; ++k)
        tsr__vk_put64(&l->scalar[2 * k], tsr__vk_double_bits(p[k]));
    if (count < 3)
        return 0;
    *third = p[2];
    return 1;
}

int tsr__vk_ew2_launch_with_third(struct tsr__vk_backend *b, struct tsr__vk_launch *l, double third)
{
    static const int64_t zero_strides[TSR_MAX_DIMS] = {0};
    struct tsr__vk_buffer *buffer;
    int status = tsr__vk_memory_alloc(&b->memory, sizeof third, &buffer);
    if (status != TSR_OK)
        return status;
    status = tsr__vk_transfer_upload(b, buffer, 0, &third, sizeof third);
    tsr_tensor_desc desc = {
        .data = buffer,
        .byte_offset = 0,
        .dtype = TSR_FLOAT64,
        .ndim = l->out->ndim,
        .shape = l->out->shape,
        .strides = zero_strides,
    };
    if (status == TSR_OK) {
        l->in[1] = &desc;
        l->num_in = 2;
        status = tsr__vk_launch(b, l);
    }
    tsr__vk_submit_release(&b->submit, buffer);
    return status;
}
