/* Recording a reduction (shaders/reduce.comp): the input is split into kept
 * dims (one output per index) and reduced dims (the terms of one output,
 * numbered row-major), extent-1 dims dropped and neighbours merged where
 * their strides allow, which never changes a term's number. */
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch.h"

/* The metadata layout reduce.comp reads; it fills the shared record. */
enum {
    TSR__VK_RED_KEPT_SHAPE = 4,
    TSR__VK_RED_KEPT_OUT = 20,
    TSR__VK_RED_KEPT_IN = 36,
    TSR__VK_RED_SHAPE = 52,
    TSR__VK_RED_IN = 68,
};
_Static_assert(TSR__VK_RED_IN + TSR_MAX_DIMS == TSR__VK_META_WORDS,
               "reduce.comp's metadata fills the shared record");

struct tsr__vk_reduce_geometry {
    int kept, red;
    int64_t kept_shape[TSR_MAX_DIMS], kept_out[TSR_MAX_DIMS], kept_in[TSR_MAX_DIMS];
    int64_t red_shape[TSR_MAX_DIMS], red_in[TSR_MAX_DIMS];
    uint64_t outputs, terms;
};

static uint64_t tsr__vk_saturating_mul(uint64_t a, int64_t n)
{
    return (uint64_t)n > UINT32_MAX || a * (uint64_t)n > UINT32_MAX ? (uint64_t)UINT32_MAX + 1
                                                                    : a * (uint64_t)n;
}

/* Appends dim (n, strides s[0..count)) to a list, merging it into the last
 * dim when that one steps exactly over it in every operand. */
static void tsr__vk_push_dim(int *len, int64_t *shape, int64_t *const *strides, int count,
                             int64_t n, const int64_t *s)
{
    int last = *len - 1;
    int merge = last >= 0;
    for (int k = 0; k < count && merge; ++k)
        merge = strides[k][last] == s[k] * n;
    if (merge) {
        shape[last] *= n;
        for (int k = 0; k < count; ++k)
            strides[k][last] = s[k];
        return;
    }
    shape[*len] = n;
    for (int k = 0; k < count; ++k)
        strides[k][*len] = s[k];
    ++*len;
}

static int tsr__vk_reduce_check(struct tsr__vk_backend *b, const tsr_tensor_desc *in,
                                const tsr_tensor_desc *out, uint32_t mask)
{
    if (in->ndim < 0 || in->ndim > TSR_MAX_DIMS || out->ndim != in->ndim)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "input of rank %d and output of rank %d (expected equal, at most %d)",
                             in->ndim, out->ndim, TSR_MAX_DIMS);
    if (in->ndim < 32 && (mask >> in->ndim) != 0)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "dims_mask 0x%x names dims beyond the input's %d", (unsigned)mask,
                             in->ndim);
    const tsr_tensor_desc *ops[2] = {out, in};
    for (int k = 0; k < 2; ++k) {
        int status = tsr__vk_check_element_offset(b, ops[k], k);
        if (status != TSR_OK)
            return status;
        for (int d = 0; d < in->ndim; ++d)
            if (ops[k]->shape[d] < 0 || ops[k]->strides[d] < 0)
                return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                     "operand %d has a negative extent or stride", k);
    }
    for (int d = 0; d < in->ndim; ++d) {
        int64_t expected = (mask >> d) & 1u ? 1 : in->shape[d];
        if (out->shape[d] != expected)
            return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                                 "output has extent %lld in dim %d, expected %lld (the input's "
                                 "shape with reduced dims of size 1)",
                                 (long long)out->shape[d], d, (long long)expected);
    }
    return TSR_OK;
}

static void tsr__vk_reduce_geometry_of(const tsr_tensor_desc *in, const tsr_tensor_desc *out,
                                 uint32_t mask, struct tsr__vk_reduce_geometry *g)
{
    memset(g, 0, sizeof *g);
    g->outputs = g->terms = 1;
    int64_t in_size = tsr__vk_dtype_size(in->dtype), out_size = tsr__vk_dtype_size(out->dtype);
    for (int d = 0; d < in->ndim; ++d) {
        int64_t n = in->shape[d];
        int64_t s[2] = {in->strides[d] * in_size, out->strides[d] * out_size};
        if ((mask >> d) & 1u) {
            g->terms = tsr__vk_saturating_mul(g->terms, n);
            int64_t *strides[1] = {g->red_in};
            if (n > 1)
                tsr__vk_push_dim(&g->red, g->red_shape, strides, 1, n, s);
        } else {
            g->outputs = tsr__vk_saturating_mul(g->outputs, n);
            int64_t *strides[2] = {g->kept_in, g->kept_out};
            if (n > 1)
                tsr__vk_push_dim(&g->kept, g->kept_shape, strides, 2, n, s);
        }
    }
}

/* Few outputs of many blocks would leave most of a GPU idle with one
 * workgroup each: up to this many outputs, each is split into runs of
 * blocks reduced by separate workgroups (reduce.comp, STAGE_PARTIALS) whose
 * results are then merged in order (STAGE_MERGE) through scratch memory. */
#define TSR__VK_SPLIT_OUTPUTS 64
#define TSR__VK_SPLIT_RUNS 128
/* llvmpipe (lavapipe) ends every loop of an invocation once all its loops
 * together have iterated 65535 times (LP_MAX_TGSI_LOOP_ITERATIONS), silently:
 * one workgroup reducing an output takes about 10 iterations per block in
 * each invocation, so past this many blocks a CPU device splits it too (runs
 * of at most 1024 blocks for anything maxStorageBufferRange can bind). */
#define TSR__VK_CPU_LONG_BLOCKS 1024
enum { TSR__VK_STAGE_PARTIALS = 1, TSR__VK_STAGE_MERGE = 2, TSR__VK_STAGE_SERIAL = 3 };

/* Whether this is a CPU device (lavapipe), whose workgroup barriers are
 * coroutine switches costing tens of microseconds each: there an output of
 * at most one block is one invocation's (reduce.comp, STAGE_SERIAL), and
 * long outputs are split only past TSR__VK_CPU_LONG_BLOCKS (more workgroups
 * cost more than the lanes gain). TESSERA_VULKAN_REDUCE_GROUPS=1
 * keeps the workgroup paths there, to test them. */
static int tsr__vk_reduce_serial(const struct tsr__vk_backend *b)
{
    const char *groups = getenv("TESSERA_VULKAN_REDUCE_GROUPS");
    return b->device.props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU &&
           !(groups && groups[0] == '1');
}

static int tsr__vk_reduce_split(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                const uint32_t *meta, const struct tsr__vk_window *io,
                                const struct tsr__vk_push *base, uint64_t blocks)
{
    /* Runs of 2^m blocks, at least one block per team, at most 128 runs. */
    uint32_t m = 0;
    while ((1u << m) < b->pipelines.local_size / 16 ||
           (blocks + (1u << m) - 1) >> m > TSR__VK_SPLIT_RUNS)
        ++m;
    uint64_t chunks = (blocks + (1u << m) - 1) >> m, outputs = base->numel;
    uint64_t words = outputs * chunks * 6 + outputs * 2;
    struct tsr__vk_buffer *scratch;
    int status = tsr__vk_memory_alloc(&b->memory, (size_t)(words * 4), &scratch);
    if (status != TSR_OK)
        return status;
    /* A fresh allocation starts aligned: the shader addresses it from 0. */
    struct tsr__vk_window windows[3] = {
        {scratch, scratch->offset, words * 4, 0}, io[1], {scratch, scratch->offset, words * 4, 0}};
    int passes = l->spec.op == TSR_OP_VAR || l->spec.op == TSR_OP_STD ||
                         l->spec.op == TSR_OP_LOGSUMEXP
                     ? 2
                     : 1;
    struct tsr__vk_launch stage = *l;
    struct tsr__vk_push push = *base;
    push.scalar[3] = (uint32_t)chunks;
    for (int pass = 0; pass < passes && status == TSR_OK; ++pass) {
        push.scalar[2] = m | (uint32_t)pass << 8;
        stage.spec.mode = l->spec.mode | TSR__VK_STAGE_PARTIALS << 1;
        status = tsr__vk_record_raw(b, &stage, meta, windows, 2, &push, outputs * chunks);
        if (status != TSR_OK)
            break;
        stage.spec.mode = l->spec.mode | TSR__VK_STAGE_MERGE << 1;
        if (pass == passes - 1)
            windows[0] = io[0]; /* the last merge writes the output */
        uint64_t groups = (outputs + b->pipelines.local_size - 1) / b->pipelines.local_size;
        status = tsr__vk_record_raw(b, &stage, meta, windows, 3, &push, groups);
    }
    tsr__vk_submit_release(&b->submit, scratch); /* once the batch is done */
    return status;
}

int tsr__vk_launch_reduce(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                          uint32_t mask)
{
    const tsr_tensor_desc *in = l->in[0], *out = l->out;
    int status = tsr__vk_reduce_check(b, in, out, mask);
    if (status != TSR_OK)
        return status;
    struct tsr__vk_reduce_geometry g;
    tsr__vk_reduce_geometry_of(in, out, mask, &g);
    if (g.outputs == 0)
        return TSR_OK;
    if (g.outputs > UINT32_MAX || g.terms > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "reductions handle at most 2^32 - 1 outputs and terms per output");
    if (!out->data || (g.terms > 0 && !in->data))
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "an operand has no memory");
    struct tsr__vk_window windows[2];
    status = tsr__vk_window_for(b, out, 0, g.kept_shape, g.kept_out, g.kept, &windows[0]);
    if (status != TSR_OK)
        return status;
    if (g.terms == 0) {
        windows[1] = windows[0]; /* never read: each output is its identity */
    } else {
        int64_t shape[2 * TSR_MAX_DIMS], stride[2 * TSR_MAX_DIMS];
        memcpy(shape, g.kept_shape, (size_t)g.kept * sizeof *shape);
        memcpy(stride, g.kept_in, (size_t)g.kept * sizeof *stride);
        memcpy(shape + g.kept, g.red_shape, (size_t)g.red * sizeof *shape);
        memcpy(stride + g.kept, g.red_in, (size_t)g.red * sizeof *stride);
        status = tsr__vk_window_for(b, in, 1, shape, stride, g.kept + g.red, &windows[1]);
        if (status != TSR_OK)
            return status;
    }
    uint32_t meta[TSR__VK_META_WORDS];
    memset(meta, 0, sizeof meta);
    meta[0] = windows[0].base;
    meta[1] = windows[1].base;
    meta[2] = (uint32_t)g.kept;
    meta[3] = (uint32_t)g.red;
    for (int d = 0; d < g.kept; ++d) {
        meta[TSR__VK_RED_KEPT_SHAPE + d] = (uint32_t)g.kept_shape[d];
        meta[TSR__VK_RED_KEPT_OUT + d] = (uint32_t)g.kept_out[d];
        meta[TSR__VK_RED_KEPT_IN + d] = (uint32_t)g.kept_in[d];
    }
    for (int d = 0; d < g.red; ++d) {
        meta[TSR__VK_RED_SHAPE + d] = (uint32_t)g.red_shape[d];
        meta[TSR__VK_RED_IN + d] = (uint32_t)g.red_in[d];
    }
    struct tsr__vk_push push = {.numel = (uint32_t)g.outputs, .ndim = (uint32_t)g.terms};
    memcpy(push.scalar, l->scalar, sizeof push.scalar);
    if (g.terms <= 1024 && tsr__vk_reduce_serial(b)) {
        struct tsr__vk_launch serial = *l;
        serial.spec.mode |= TSR__VK_STAGE_SERIAL << 1;
        uint64_t groups = (g.outputs + b->pipelines.local_size - 1) / b->pipelines.local_size;
        return tsr__vk_record_raw(b, &serial, meta, windows, 2, &push, groups);
    }
    /* Outputs of at most one block take one team of 16 invocations each. */
    uint64_t teams = b->pipelines.local_size / 16;
    uint64_t blocks = (g.terms + 1023) / 1024;
    int split = tsr__vk_reduce_serial(b) ? blocks > TSR__VK_CPU_LONG_BLOCKS
                                         : g.outputs <= TSR__VK_SPLIT_OUTPUTS;
    if (blocks >= 4 * teams && split)
        return tsr__vk_reduce_split(b, l, meta, windows, &push, blocks);
    uint64_t groups = g.terms <= 1024 ? (g.outputs + teams - 1) / teams : g.outputs;
    return tsr__vk_record_raw(b, l, meta, windows, 2, &push, groups);
}
