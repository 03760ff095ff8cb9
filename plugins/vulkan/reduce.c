/* The reductions of TSR_OP_LIST_REDUCE (shaders/reduce.comp): which
 * (op, dtype) rows this device runs, and the kernel that checks a call and
 * records it. The rows are the reference backend's (PyTorch 1.13's CPU
 * dtypes) without complex ones; linalg_vector_norm only with the wide
 * shader, whose doubles compute |x|^p as the reference does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"

#define TSR__VK_RB(dtype) (1u << (dtype))
#define TSR__VK_R_INTS                                                                             \
    (TSR__VK_RB(TSR_UINT8) | TSR__VK_RB(TSR_INT8) | TSR__VK_RB(TSR_INT16) |                        \
     TSR__VK_RB(TSR_INT32) | TSR__VK_RB(TSR_INT64))
#define TSR__VK_R_F3264 (TSR__VK_RB(TSR_FLOAT32) | TSR__VK_RB(TSR_FLOAT64))
#define TSR__VK_R_REALS (TSR__VK_RB(TSR_FLOAT16) | TSR__VK_RB(TSR_BFLOAT16) | TSR__VK_R_F3264)
#define TSR__VK_R_ALL (TSR__VK_RB(TSR_BOOL) | TSR__VK_R_INTS | TSR__VK_R_REALS)

enum { TSR__VK_OUT_SAME = -1 };

static const struct {
    int32_t op;
    uint32_t dtypes;
    int32_t out;      /* output dtype, or TSR__VK_OUT_SAME */
    int needs_terms;  /* no identity: an empty reduction is an error */
} tsr__vk_reduce_rows[] = {
    {TSR_OP_SUM, TSR__VK_R_ALL, TSR__VK_OUT_SAME, 0},
    {TSR_OP_NANSUM, TSR__VK_R_ALL, TSR__VK_OUT_SAME, 0},
    {TSR_OP_PROD, TSR__VK_RB(TSR_BOOL) | TSR__VK_R_INTS | TSR__VK_R_F3264, TSR__VK_OUT_SAME, 0},
    {TSR_OP_MEAN, TSR__VK_R_REALS, TSR__VK_OUT_SAME, 0},
    {TSR_OP_NANMEAN, TSR__VK_R_REALS, TSR__VK_OUT_SAME, 0},
    {TSR_OP_AMAX, TSR__VK_R_ALL, TSR__VK_OUT_SAME, 1},
    {TSR_OP_AMIN, TSR__VK_R_ALL, TSR__VK_OUT_SAME, 1},
    {TSR_OP_MAX_DIM, TSR__VK_R_ALL, TSR__VK_OUT_SAME, 1},
    {TSR_OP_MIN_DIM, TSR__VK_R_ALL, TSR__VK_OUT_SAME, 1},
    {TSR_OP_ARGMAX, TSR__VK_R_INTS | TSR__VK_R_REALS, TSR_INT64, 1},
    {TSR_OP_ARGMIN, TSR__VK_R_INTS | TSR__VK_R_REALS, TSR_INT64, 1},
    {TSR_OP_VAR, TSR__VK_R_REALS, TSR__VK_OUT_SAME, 0},
    {TSR_OP_STD, TSR__VK_R_REALS, TSR__VK_OUT_SAME, 0},
    {TSR_OP_ALL, TSR__VK_R_ALL, TSR_BOOL, 0},
    {TSR_OP_ANY, TSR__VK_R_ALL, TSR_BOOL, 0},
    {TSR_OP_LOGSUMEXP, TSR__VK_RB(TSR_BFLOAT16) | TSR__VK_R_F3264, TSR__VK_OUT_SAME, 0},
    {TSR_OP_COUNT_NONZERO, TSR__VK_R_ALL, TSR_INT64, 0},
    {TSR_OP_NORM, TSR__VK_R_REALS, TSR__VK_OUT_SAME, 0},
};

static int tsr__vk_reduce_row(int32_t op)
{
    for (size_t r = 0; r < sizeof tsr__vk_reduce_rows / sizeof tsr__vk_reduce_rows[0]; ++r)
        if (tsr__vk_reduce_rows[r].op == op)
            return (int)r;
    return -1;
}

/* Whether the wide variants may be used: TESSERA_VULKAN_NARROW_REDUCE=1
 * tests the float/int32 ones on a device that has both. */
int tsr__vk_reduce_wide(const struct tsr__vk_backend *b, int shader)
{
    const char *narrow = getenv("TESSERA_VULKAN_NARROW_REDUCE");
    return !(narrow && narrow[0] == '1') && tsr__vk_shader_supported(&b->device, shader);
}

/* The shader variant for `dtype`: the wide one (double and int64
 * accumulators, the reference's bits) wherever the device has it. */
int tsr__vk_reduce_shader(const struct tsr__vk_backend *b, int32_t dtype)
{
    if (tsr__vk_reduce_wide(b, TSR__VK_SHADER_REDUCE_WIDE))
        return TSR__VK_SHADER_REDUCE_WIDE;
    if (dtype == TSR_INT64 || dtype == TSR_FLOAT64)
        return -1;
    return TSR__VK_SHADER_REDUCE;
}

int tsr__vk_reduce_supported(const struct tsr__vk_backend *b, int32_t op, int32_t dtype,
                             int32_t *dtype_out)
{
    int r = tsr__vk_reduce_row(op);
    if (r < 0 || dtype < 0 || dtype >= TSR_DTYPE_COUNT ||
        !(tsr__vk_reduce_rows[r].dtypes & TSR__VK_RB(dtype)))
        return 0;
    /* Teams of 16 invocations are one block's lanes. */
    uint32_t local = b->pipelines.local_size;
    if (local < 16 || local % 16 != 0 || local > 256)
        return 0;
    int32_t out = tsr__vk_reduce_rows[r].out == TSR__VK_OUT_SAME ? dtype : tsr__vk_reduce_rows[r].out;
    int index_out = out == TSR_INT64 || op == TSR_OP_MAX_DIM || op == TSR_OP_MIN_DIM;
    if (index_out && !tsr__vk_dtype_held(&b->device, TSR_INT64))
        return 0;
    int shader = tsr__vk_reduce_shader(b, dtype);
    if (shader < 0 || !tsr__vk_shader_supported(&b->device, shader) ||
        (op == TSR_OP_NORM && shader != TSR__VK_SHADER_REDUCE_WIDE))
        return 0;
    *dtype_out = out;
    return 1;
}

/* Terms per output (saturating), to refuse empty extrema before recording. */
static uint64_t tsr__vk_reduce_terms(const tsr_tensor_desc *in, uint32_t mask, uint64_t *outputs)
{
    uint64_t terms = 1;
    *outputs = 1;
    for (int d = 0; d < in->ndim && d < TSR_MAX_DIMS; ++d) {
        uint64_t n = in->shape[d] < 0 ? 0 : (uint64_t)in->shape[d];
        uint64_t *p = (mask >> d) & 1u ? &terms : outputs;
        *p = n > UINT32_MAX || *p * n > UINT32_MAX ? (uint64_t)UINT32_MAX + 1 : *p * n;
    }
    return terms;
}

int tsr__vk_one_input_args(struct tsr__vk_backend *b, const tsr_kernel_args *args, int outputs,
                           size_t attrs_size, const char *ops, const char *attrs_type)
{
    if (!args || args->struct_size < sizeof(tsr_kernel_args))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "kernel arguments too old");
    if (args->num_inputs != 1 || args->num_outputs != outputs || !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "expected 1 input and %d outputs, got %d and %d", outputs,
                             args->num_inputs, args->num_outputs);
    /* Every attrs struct begins with its struct_size. */
    const uint32_t *size = args->attrs;
    if (!size || *size < attrs_size)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s need %s of ABI 1.0", ops,
                             attrs_type);
    return TSR_OK;
}

int tsr__vk_kernel_reduce(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    int two = args && (args->op == TSR_OP_MAX_DIM || args->op == TSR_OP_MIN_DIM);
    int status = tsr__vk_one_input_args(b, args, 1 + two, sizeof(tsr_reduce_attrs), "reductions",
                                        "tsr_reduce_attrs");
    if (status != TSR_OK)
        return status;
    int r = tsr__vk_reduce_row(args->op);
    if (r < 0)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "op %d is not a reduction", args->op);
    const tsr_reduce_attrs *attrs = args->attrs;
    int32_t dtype = args->inputs[0].dtype, out;
    if (!tsr__vk_reduce_supported(b, args->op, dtype, &out))
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "no kernel for input dtype %s",
                             tsr__vk_dtype_name(dtype));
    for (int k = 0; k <= two; ++k) {
        int32_t expected = k == 1 ? TSR_INT64 : out;
        if (args->outputs[k].dtype != expected)
            return tsr__vk_error(b->host, TSR_ERR_DTYPE, "output %d is %s, expected %s", k,
                                 tsr__vk_dtype_name(args->outputs[k].dtype),
                                 tsr__vk_dtype_name(expected));
    }
    /* The indices must pass the checks the values pass, so that a refusal
     * comes before anything is recorded. */
    if (two && (args->outputs[1].ndim != args->outputs[0].ndim ||
                (args->outputs[0].ndim > 0 && args->outputs[0].ndim <= TSR_MAX_DIMS &&
                 memcmp(args->outputs[1].shape, args->outputs[0].shape,
                        (size_t)args->outputs[0].ndim * sizeof(int64_t)) != 0)))
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "the indices' shape differs from the values'");
    uint64_t outputs, terms = tsr__vk_reduce_terms(&args->inputs[0], attrs->dims_mask, &outputs);
    if (tsr__vk_reduce_rows[r].needs_terms && terms == 0 && outputs > 0)
        return tsr__vk_error(b->host, TSR_ERR_INDEX,
                             "a reduced dim is empty and the op has no identity");
    struct tsr__vk_launch l;
    memset(&l, 0, sizeof l);
    l.shader = tsr__vk_reduce_shader(b, dtype);
    int index_only = args->op == TSR_OP_ARGMAX || args->op == TSR_OP_ARGMIN;
    l.spec = (struct tsr__vk_spec){args->op, dtype, out, index_only};
    l.out = &args->outputs[0];
    l.in[0] = &args->inputs[0];
    l.num_in = 1;
    /* var/std's correction in the accumulator's type; a norm's ord (wide
     * only) as reduce_ops.glsl runs it, and p itself. */
    if (args->op == TSR_OP_NORM) {
        double p = attrs->p;
        if (isinf(p) || p == 0.0) { /* amax, amin or count_nonzero of |x| */
            l.spec.op = p == 0.0 ? TSR_OP_COUNT_NONZERO : p > 0 ? TSR_OP_AMAX : TSR_OP_AMIN;
            l.spec.mode = 8;
        } else {
            l.spec.mode = (p == 1.0 ? 1 : p == 2.0 ? 2 : 0) << 4;
        }
        memcpy(l.scalar, &p, sizeof p);
    } else if (l.shader == TSR__VK_SHADER_REDUCE_WIDE) {
        memcpy(l.scalar, &attrs->correction, sizeof attrs->correction);
    } else {
        float c = (float)attrs->correction;
        memcpy(l.scalar, &c, sizeof c);
    }
    pthread_mutex_lock(&b->lock);
    status = tsr__vk_launch_reduce(b, &l, attrs->dims_mask);
    if (status == TSR_OK && two) { /* the indices: the same reduction, mode 1 */
        l.spec.dtype_out = TSR_INT64;
        l.spec.mode = 1;
        l.out = &args->outputs[1];
        status = tsr__vk_launch_reduce(b, &l, attrs->dims_mask);
    }
    pthread_mutex_unlock(&b->lock);
    return status;
}
