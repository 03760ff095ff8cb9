/* The kernel table: what this device runs, built once at init.
 *
 * A row is listed only when its shader can be created on the device found
 * (int64 needs shaderInt64; float64, and pow on float types, need
 * shaderFloat64 too), so the table is the capability answer and nothing
 * else is consulted. Every row accepts strided, broadcast (0-stride) and
 * in-place operands.
 */
#include <stdlib.h>

#include "backend.h"
#include "host.h"
#include "kernels.h"

#define TSR__VK_BIT(dtype) (1u << (dtype))
#define TSR__VK_FLOATS                                                                             \
    (TSR__VK_BIT(TSR_FLOAT16) | TSR__VK_BIT(TSR_BFLOAT16) | TSR__VK_BIT(TSR_FLOAT32) |             \
     TSR__VK_BIT(TSR_FLOAT64))
#define TSR__VK_INTS                                                                               \
    (TSR__VK_BIT(TSR_UINT8) | TSR__VK_BIT(TSR_INT8) | TSR__VK_BIT(TSR_INT16) |                     \
     TSR__VK_BIT(TSR_INT32) | TSR__VK_BIT(TSR_INT64))
/* The floating dtypes without float16: PyTorch 1.13 has no float16 kernel
 * on CPU for most math functions, relu and clamp, and the golden cases
 * expect the error it raises; the shaders could run them. */
#define TSR__VK_FLOATS_CPU113                                                                      \
    (TSR__VK_BIT(TSR_BFLOAT16) | TSR__VK_BIT(TSR_FLOAT32) | TSR__VK_BIT(TSR_FLOAT64))
#define TSR__VK_BOOLS TSR__VK_BIT(TSR_BOOL)
#define TSR__VK_NUMBERS (TSR__VK_FLOATS | TSR__VK_INTS)
#define TSR__VK_ALL (TSR__VK_NUMBERS | TSR__VK_BOOLS)
#define TSR__VK_COMPLEX (TSR__VK_BIT(TSR_COMPLEX64) | TSR__VK_BIT(TSR_COMPLEX128))

#define TSR__VK_FLAGS (TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE)

/* Which dtypes each elementwise op is defined for: the (op, dtype) pairs
 * PyTorch 1.13 implements on CPU, which the golden cases encode (bool
 * arithmetic only where PyTorch allows it). */
static const struct {
    int32_t op;
    uint32_t dtypes;
} tsr__vk_elementwise_rows[] = {
    {TSR_OP_ADD, TSR__VK_ALL},
    {TSR_OP_SUB, TSR__VK_NUMBERS},
    {TSR_OP_MUL, TSR__VK_ALL},
    {TSR_OP_DIV, TSR__VK_NUMBERS},
    {TSR_OP_FLOOR_DIVIDE, TSR__VK_NUMBERS},
    {TSR_OP_REMAINDER, TSR__VK_NUMBERS},
    {TSR_OP_POW, TSR__VK_NUMBERS},
    {TSR_OP_MAXIMUM, TSR__VK_ALL},
    {TSR_OP_MINIMUM, TSR__VK_ALL},
    {TSR_OP_EQ, TSR__VK_ALL},
    {TSR_OP_NE, TSR__VK_ALL},
    {TSR_OP_LT, TSR__VK_ALL},
    {TSR_OP_LE, TSR__VK_ALL},
    {TSR_OP_GT, TSR__VK_ALL},
    {TSR_OP_GE, TSR__VK_ALL},
    {TSR_OP_LOGICAL_AND, TSR__VK_ALL},
    {TSR_OP_LOGICAL_OR, TSR__VK_ALL},
    {TSR_OP_LOGICAL_XOR, TSR__VK_ALL},
    {TSR_OP_NEG, TSR__VK_NUMBERS},
    {TSR_OP_ABS, TSR__VK_NUMBERS},
    {TSR_OP_SIGN, TSR__VK_ALL},
    {TSR_OP_EXP, TSR__VK_FLOATS_CPU113},
    {TSR_OP_LOG, TSR__VK_FLOATS_CPU113},
    {TSR_OP_LOG1P, TSR__VK_FLOATS_CPU113},
    {TSR_OP_EXPM1, TSR__VK_FLOATS_CPU113},
    {TSR_OP_SQRT, TSR__VK_FLOATS_CPU113},
    {TSR_OP_RSQRT, TSR__VK_FLOATS_CPU113},
    {TSR_OP_SIN, TSR__VK_FLOATS_CPU113},
    {TSR_OP_COS, TSR__VK_FLOATS_CPU113},
    {TSR_OP_TANH, TSR__VK_FLOATS_CPU113},
    {TSR_OP_SIGMOID, TSR__VK_FLOATS_CPU113},
    {TSR_OP_RELU, TSR__VK_INTS | TSR__VK_FLOATS_CPU113},
    {TSR_OP_GELU, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ERF, TSR__VK_FLOATS_CPU113},
    {TSR_OP_LOGICAL_NOT, TSR__VK_ALL},
    {TSR_OP_WHERE, TSR__VK_ALL | TSR__VK_COMPLEX},
    {TSR_OP_CLAMP, TSR__VK_INTS | TSR__VK_FLOATS_CPU113},
    /* The second family: the reference's rows without complex ones. */
    {TSR_OP_FMOD, TSR__VK_NUMBERS},
    {TSR_OP_ATAN2, TSR__VK_FLOATS_CPU113},
    {TSR_OP_HYPOT, TSR__VK_FLOATS_CPU113},
    {TSR_OP_COPYSIGN, TSR__VK_FLOATS},
    {TSR_OP_FMAX, TSR__VK_ALL},
    {TSR_OP_FMIN, TSR__VK_ALL},
    {TSR_OP_BITWISE_AND, TSR__VK_INTS | TSR__VK_BOOLS},
    {TSR_OP_BITWISE_OR, TSR__VK_INTS | TSR__VK_BOOLS},
    {TSR_OP_BITWISE_XOR, TSR__VK_INTS | TSR__VK_BOOLS},
    {TSR_OP_BITWISE_NOT, TSR__VK_INTS | TSR__VK_BOOLS},
    {TSR_OP_BITWISE_LEFT_SHIFT, TSR__VK_INTS},
    {TSR_OP_BITWISE_RIGHT_SHIFT, TSR__VK_INTS},
    {TSR_OP_EXP2, TSR__VK_FLOATS},
    {TSR_OP_LOG2, TSR__VK_FLOATS_CPU113},
    {TSR_OP_LOG10, TSR__VK_FLOATS_CPU113},
    {TSR_OP_TAN, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ASIN, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ACOS, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ATAN, TSR__VK_FLOATS_CPU113},
    {TSR_OP_SINH, TSR__VK_FLOATS_CPU113},
    {TSR_OP_COSH, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ASINH, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ACOSH, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ATANH, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ERFC, TSR__VK_FLOATS_CPU113},
    {TSR_OP_SILU, TSR__VK_FLOATS_CPU113},
    {TSR_OP_SOFTPLUS, TSR__VK_FLOATS_CPU113},
    {TSR_OP_LEAKY_RELU, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ELU, TSR__VK_FLOATS_CPU113},
    {TSR_OP_HARDTANH, TSR__VK_INTS | TSR__VK_FLOATS_CPU113},
    {TSR_OP_FLOOR, TSR__VK_FLOATS_CPU113},
    {TSR_OP_CEIL, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ROUND, TSR__VK_FLOATS_CPU113},
    {TSR_OP_TRUNC, TSR__VK_FLOATS_CPU113},
    {TSR_OP_FRAC, TSR__VK_FLOATS},
    {TSR_OP_RECIPROCAL, TSR__VK_FLOATS},
    {TSR_OP_SQUARE, TSR__VK_NUMBERS},
    {TSR_OP_ISNAN, TSR__VK_ALL},
    {TSR_OP_ISINF, TSR__VK_ALL},
    {TSR_OP_ISFINITE, TSR__VK_ALL},
    {TSR_OP_NAN_TO_NUM, TSR__VK_FLOATS},
    {TSR_OP_LERP, TSR__VK_FLOATS_CPU113},
    {TSR_OP_ADDCMUL, TSR__VK_INTS | TSR__VK_FLOATS_CPU113},
    {TSR_OP_ADDCDIV, TSR__VK_FLOATS_CPU113},
};

/* Dtypes this device converts between (copy from any to any). */
static uint32_t tsr__vk_convertible(const struct tsr__vk_device *dev)
{
    uint32_t set = TSR__VK_BOOLS | TSR__VK_BIT(TSR_UINT8) | TSR__VK_BIT(TSR_INT8) |
                   TSR__VK_BIT(TSR_INT16) | TSR__VK_BIT(TSR_INT32) | TSR__VK_BIT(TSR_FLOAT16) |
                   TSR__VK_BIT(TSR_BFLOAT16) | TSR__VK_BIT(TSR_FLOAT32);
    if (tsr__vk_shader_supported(dev, TSR__VK_SHADER_COPY_INT64))
        set |= TSR__VK_BIT(TSR_INT64);
    if (tsr__vk_shader_supported(dev, TSR__VK_SHADER_COPY_FLOAT64))
        set |= TSR__VK_BIT(TSR_FLOAT64);
    return set;
}

/* Dtypes whose tensors can live here: the convertible ones, and complex
 * ones, which only move (same-dtype copy, fill, where). */
static uint32_t tsr__vk_held(const struct tsr__vk_device *dev)
{
    return tsr__vk_convertible(dev) | TSR__VK_COMPLEX;
}

int tsr__vk_dtype_held(const struct tsr__vk_device *dev, int32_t dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT && (tsr__vk_held(dev) & TSR__VK_BIT(dtype));
}

int tsr__vk_copy_supported(const struct tsr__vk_device *dev, int32_t from, int32_t to)
{
    uint32_t set = from == to ? tsr__vk_held(dev) : tsr__vk_convertible(dev);
    /* complex64 <-> complex128 converts each part (copy_float64) */
    if (from != to && (from == TSR_COMPLEX64 || from == TSR_COMPLEX128) &&
        (to == TSR_COMPLEX64 || to == TSR_COMPLEX128))
        set = TSR__VK_COMPLEX;
    return from >= 0 && from < TSR_DTYPE_COUNT && to >= 0 && to < TSR_DTYPE_COUNT &&
           (set & TSR__VK_BIT(from)) && (set & TSR__VK_BIT(to)) &&
           tsr__vk_shader_supported(dev, tsr__vk_copy_shader(from, to));
}

static void tsr__vk_add(struct tsr__vk_backend *b, size_t *n, int32_t op, int32_t in, int32_t out,
                        tsr_kernel_fn fn)
{
    if (b->kernels)
        b->kernels[*n] = (tsr_kernel_entry){op, in, out, TSR__VK_FLAGS, fn};
    ++*n;
}

/* Two passes over the same rules: count, then fill. */
static size_t tsr__vk_fill_table(struct tsr__vk_backend *b)
{
    const struct tsr__vk_device *dev = &b->device;
    uint32_t have = tsr__vk_held(dev);
    size_t n = 0;
    for (int32_t from = 0; from < TSR_DTYPE_COUNT; ++from)
        for (int32_t to = 0; to < TSR_DTYPE_COUNT; ++to)
            if (tsr__vk_copy_supported(dev, from, to))
                tsr__vk_add(b, &n, TSR_OP_COPY, from, to, tsr__vk_kernel_copy);
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; ++dtype)
        if (have & TSR__VK_BIT(dtype))
            tsr__vk_add(b, &n, TSR_OP_FILL, dtype, dtype, tsr__vk_kernel_fill);
    size_t rows = sizeof tsr__vk_elementwise_rows / sizeof tsr__vk_elementwise_rows[0];
    for (size_t r = 0; r < rows; ++r) {
        int32_t op = tsr__vk_elementwise_rows[r].op;
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; ++dtype) {
            uint32_t bit = TSR__VK_BIT(dtype);
            if (!(tsr__vk_elementwise_rows[r].dtypes & bit & have) ||
                !tsr__vk_shader_supported(dev, tsr__vk_elementwise_shader_on(dev, op, dtype)))
                continue;
            int32_t out = tsr__vk_elementwise_bool_out(op) ? TSR_BOOL : dtype;
            tsr__vk_add(b, &n, op, dtype, out, tsr__vk_kernel_elementwise);
        }
    }
    /* matmul: the reference's dtypes less complex (products.c). */
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; ++dtype)
        if (tsr__vk_matmul_supported(b, dtype))
            tsr__vk_add(b, &n, TSR_OP_MATMUL, dtype, dtype, tsr__vk_kernel_matmul);
    /* Softmax family, norms and indexing (softmax.c, norm.c, launch_rows.c; index.c,
     * scatter.c, rearrange.c). */
    for (int32_t op = 0; op < TSR_OP_COUNT; ++op)
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; ++dtype) {
            tsr_kernel_fn fn = tsr__vk_nn_kernel(b, op, dtype);
            if (!fn)
                fn = tsr__vk_index_kernel(b, op, dtype);
            if (fn)
                tsr__vk_add(b, &n, op, dtype, dtype, fn);
        }
    /* im2col and col2im (conv.c); the core composes convolution from them. */
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; ++dtype) {
        if (tsr__vk_conv_supported(dev, TSR_OP_IM2COL, dtype))
            tsr__vk_add(b, &n, TSR_OP_IM2COL, dtype, dtype, tsr__vk_kernel_conv);
        if (tsr__vk_conv_supported(dev, TSR_OP_COL2IM, dtype))
            tsr__vk_add(b, &n, TSR_OP_COL2IM, dtype, dtype, tsr__vk_kernel_conv);
    }
    /* Reductions and scans (reduce.c, scan.c). */
    for (int32_t op = 0; op < TSR_OP_COUNT; ++op) {
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; ++dtype) {
            int32_t out;
            if (!(have & TSR__VK_BIT(dtype)))
                continue;
            if (tsr__vk_reduce_supported(b, op, dtype, &out))
                tsr__vk_add(b, &n, op, dtype, out, tsr__vk_kernel_reduce);
            if (tsr__vk_scan_supported(b, op, dtype))
                tsr__vk_add(b, &n, op, dtype, dtype, tsr__vk_kernel_scan);
        }
    }
    /* Pooling (pool.c): float32 rows without TSR__VK_FLAGS, so that the core
     * hands the shader contiguous operands. */
    for (int32_t op = 0; op < TSR_OP_COUNT; ++op)
        if (tsr__vk_pool_supported(b, op)) {
            if (b->kernels)
                b->kernels[n] =
                    (tsr_kernel_entry){op, TSR_FLOAT32, TSR_FLOAT32, 0, tsr__vk_kernel_pool};
            ++n;
        }
    /* Resampling, float32 (resample.c). */
    if (tsr__vk_shader_supported(dev, TSR__VK_SHADER_RESAMPLE))
        tsr__vk_add(b, &n, TSR_OP_UPSAMPLE, TSR_FLOAT32, TSR_FLOAT32, tsr__vk_kernel_upsample);
    if (tsr__vk_shader_supported(dev, TSR__VK_SHADER_RESAMPLE_BACKWARD))
        tsr__vk_add(b, &n, TSR_OP_UPSAMPLE_BACKWARD, TSR_FLOAT32, TSR_FLOAT32,
                    tsr__vk_kernel_upsample);
    if (tsr__vk_shader_supported(dev, TSR__VK_SHADER_RESAMPLE_GRID))
        tsr__vk_add(b, &n, TSR_OP_GRID_SAMPLER, TSR_FLOAT32, TSR_FLOAT32,
                    tsr__vk_kernel_grid_sampler);
    return n;
}

int tsr__vk_kernel_table_build(struct tsr__vk_backend *b)
{
    b->kernels = NULL;
    size_t count = tsr__vk_fill_table(b);
    b->kernels = calloc(count, sizeof *b->kernels);
    if (!b->kernels)
        return tsr__vk_error(b->host, TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    b->kernel_count = tsr__vk_fill_table(b);
    return TSR_OK;
}
