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

/* Operand `t` moved `off` bytes on (a piece of it). */
static tsr_tensor_desc tsr__vk_shifted(const tsr_tensor_desc *t, int64_t off)
{
    tsr_tensor_desc sub = *t;
    sub.byte_offset += off;
    return sub;
}

/* The input's dims of g: kept ones, then reduced ones. */
static int tsr__vk_reduce_in_dims(const struct tsr__vk_reduce_geometry *g, int64_t *shape,
                                  int64_t *stride)
{
    memcpy(shape, g->kept_shape, (size_t)g->kept * sizeof *shape);
    memcpy(stride, g->kept_in, (size_t)g->kept * sizeof *stride);
    memcpy(shape + g->kept, g->red_shape, (size_t)g->red * sizeof *shape);
    memcpy(stride + g->kept, g->red_in, (size_t)g->red * sizeof *stride);
    return g->kept + g->red;
}

/* Whether both operands of g (moved on by off_out and off_in bytes) fit
 * their windows; an operand leaving its allocation is an error. */
static int tsr__vk_reduce_fits(struct tsr__vk_backend *b, const struct tsr__vk_reduce_geometry *g,
                               const tsr_tensor_desc *in, const tsr_tensor_desc *out,
                               int64_t off_out, int64_t off_in, int *fits)
{
    tsr_tensor_desc o = tsr__vk_shifted(out, off_out), i = tsr__vk_shifted(in, off_in);
    int status = tsr__vk_window_fits(b, &o, 0, g->kept_shape, g->kept_out, g->kept, fits);
    if (status == TSR_OK && *fits && g->terms > 0) {
        int64_t shape[2 * TSR_MAX_DIMS], stride[2 * TSR_MAX_DIMS];
        int ndim = tsr__vk_reduce_in_dims(g, shape, stride);
        status = tsr__vk_window_fits(b, &i, 1, shape, stride, ndim, fits);
    }
    return status;
}

/* Records the reduction g of the operands moved on by off_out and off_in
 * bytes, whose windows fit. */
static int tsr__vk_reduce_record(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                 const struct tsr__vk_reduce_geometry *gp,
                                 const tsr_tensor_desc *in_desc, const tsr_tensor_desc *out_desc,
                                 int64_t off_out, int64_t off_in)
{
    const struct tsr__vk_reduce_geometry g = *gp;
    tsr_tensor_desc out_piece = tsr__vk_shifted(out_desc, off_out);
    tsr_tensor_desc in_piece = tsr__vk_shifted(in_desc, off_in);
    const tsr_tensor_desc *in = &in_piece, *out = &out_piece;
    struct tsr__vk_window windows[2];
    int status = tsr__vk_window_for(b, out, 0, g.kept_shape, g.kept_out, g.kept, &windows[0]);
    if (status != TSR_OK)
        return status;
    if (g.terms == 0) {
        windows[1] = windows[0]; /* never read: each output is its identity */
    } else {
        int64_t shape[2 * TSR_MAX_DIMS], stride[2 * TSR_MAX_DIMS];
        int ndim = tsr__vk_reduce_in_dims(&g, shape, stride);
        status = tsr__vk_window_for(b, in, 1, shape, stride, ndim, &windows[1]);
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

/* ------------------------------------------------------------------------ */
/* Inputs past maxStorageBufferRange                                         */
/* ------------------------------------------------------------------------ */

/* One output whose terms (one dim, byte stride s) do not fit one window:
 * runs of 2^m blocks (m <= 10, llvmpipe's loop limit) reduced by
 * STAGE_PARTIALS dispatches, each binding a window over its runs' terms
 * only, then merged in order by STAGE_MERGE — the tree of the split path,
 * so the bits are those of an untiled run. */
static int tsr__vk_reduce_terms_tiled(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                      const struct tsr__vk_reduce_geometry *g,
                                      const tsr_tensor_desc *in, const tsr_tensor_desc *out,
                                      int64_t off_out, int64_t off_in)
{
    const char *why = NULL;
    if (g->red != 1)
        why = "its reduced dims do not merge into one";
    else if (l->spec.op == TSR_OP_VAR || l->spec.op == TSR_OP_STD)
        why = "var and std shift by the first term, which another window holds";
    VkDeviceSize budget = tsr__vk_piece_budget(b);
    VkDeviceSize s = (VkDeviceSize)g->red_in[0], elem = (VkDeviceSize)tsr__vk_dtype_size(in->dtype);
    if (!why && 1023 * s + elem > budget)
        why = "one block of 1024 terms spans more than a window";
    if (why)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "an input of %llu terms per output spans more than the %u bytes "
                             "this device binds at most (maxStorageBufferRange), and it cannot "
                             "be tiled: %s",
                             (unsigned long long)g->terms,
                             b->device.props.limits.maxStorageBufferRange, why);
    uint32_t m = 0;
    while (m < 10 && ((VkDeviceSize)1024 << (m + 1)) * s - s + elem <= budget)
        ++m;
    uint64_t run_terms = (uint64_t)1024 << m, blocks = (g->terms + 1023) / 1024;
    uint64_t chunks = (blocks + (1u << m) - 1) >> m;
    uint64_t per = (budget - elem) / (run_terms * s);
    per = per < 1 ? 1 : per > 65535 ? 65535 : per;
    if (chunks >= (1u << 22))
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "%llu runs of terms to tile",
                             (unsigned long long)chunks);
    uint64_t words = chunks * 6 + 2;
    struct tsr__vk_buffer *scratch;
    int status = tsr__vk_memory_alloc(&b->memory, (size_t)(words * 4), &scratch);
    if (status != TSR_OK)
        return status;
    struct tsr__vk_window out_w, scratch_w = {scratch, scratch->offset, words * 4, 0};
    tsr_tensor_desc out_piece = tsr__vk_shifted(out, off_out);
    status = tsr__vk_window_for(b, &out_piece, 0, NULL, NULL, 0, &out_w);
    uint32_t meta[TSR__VK_META_WORDS];
    memset(meta, 0, sizeof meta);
    meta[3] = 1; /* no kept dims, one reduced dim */
    meta[TSR__VK_RED_SHAPE] = (uint32_t)g->terms;
    meta[TSR__VK_RED_IN] = (uint32_t)s;
    struct tsr__vk_push push = {.numel = 1, .ndim = (uint32_t)g->terms};
    memcpy(push.scalar, l->scalar, sizeof push.scalar);
    push.scalar[3] = (uint32_t)chunks;
    struct tsr__vk_launch stage = *l;
    int passes = l->spec.op == TSR_OP_LOGSUMEXP ? 2 : 1;
    for (int pass = 0; pass < passes && status == TSR_OK; ++pass) {
        stage.spec.mode = l->spec.mode | TSR__VK_STAGE_PARTIALS << 1;
        for (uint64_t c0 = 0; c0 < chunks && status == TSR_OK; c0 += per) {
            uint64_t count = chunks - c0 < per ? chunks - c0 : per;
            uint64_t t0 = c0 * run_terms, t1 = (c0 + count) * run_terms;
            int64_t n = (int64_t)((t1 < g->terms ? t1 : g->terms) - t0), stride = (int64_t)s;
            tsr_tensor_desc piece = tsr__vk_shifted(in, off_in + (int64_t)(t0 * s));
            struct tsr__vk_window windows[3] = {scratch_w, scratch_w, scratch_w};
            status = tsr__vk_window_for(b, &piece, 1, &n, &stride, 1, &windows[1]);
            if (status != TSR_OK)
                break;
            meta[0] = 0;
            meta[1] = windows[1].base - (uint32_t)(t0 * s); /* term offsets wrap back in */
            push.scalar[2] = m | (uint32_t)pass << 8 | 1u << 9 | (uint32_t)c0 << 10;
            status = tsr__vk_record_raw(b, &stage, meta, windows, 2, &push, count);
        }
        if (status != TSR_OK)
            break;
        stage.spec.mode = l->spec.mode | TSR__VK_STAGE_MERGE << 1;
        int last = pass == passes - 1;
        struct tsr__vk_window windows[3] = {last ? out_w : scratch_w, scratch_w, scratch_w};
        meta[0] = last ? out_w.base : 0;
        meta[1] = 0;
        push.scalar[2] = m | (uint32_t)pass << 8;
        status = tsr__vk_record_raw(b, &stage, meta, windows, 3, &push, 1);
    }
    tsr__vk_submit_release(&b->submit, scratch); /* once the batch is done */
    return status;
}

/* Splits g along its outermost kept dim into runs of outputs whose windows
 * fit; when one index of it is still too large, each index is split along
 * the next kept dim, and a single output along its terms. The terms of an
 * output never change, so neither do its bits. */
static int tsr__vk_reduce_tiled(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                const struct tsr__vk_reduce_geometry *g, const tsr_tensor_desc *in,
                                const tsr_tensor_desc *out, int64_t off_out, int64_t off_in)
{
    int fits;
    int status = tsr__vk_reduce_fits(b, g, in, out, off_out, off_in, &fits);
    if (status != TSR_OK || fits)
        return status == TSR_OK ? tsr__vk_reduce_record(b, l, g, in, out, off_out, off_in) : status;
    if (g->kept == 0)
        return tsr__vk_reduce_terms_tiled(b, l, g, in, out, off_out, off_in);
    struct tsr__vk_reduce_geometry piece = *g;
    int64_t n0 = g->kept_shape[0];
    uint64_t per_index = g->outputs / (uint64_t)n0;
    piece.kept_shape[0] = 1;
    piece.outputs = per_index;
    status = tsr__vk_reduce_fits(b, &piece, in, out, off_out, off_in, &fits);
    if (status != TSR_OK)
        return status;
    if (!fits) {
        /* Drop dim 0: each of its indices is a geometry of one kept dim less. */
        piece.kept = g->kept - 1;
        for (int d = 0; d < piece.kept; ++d) {
            piece.kept_shape[d] = g->kept_shape[d + 1];
            piece.kept_out[d] = g->kept_out[d + 1];
            piece.kept_in[d] = g->kept_in[d + 1];
        }
        for (int64_t i = 0; i < n0 && status == TSR_OK; ++i)
            status = tsr__vk_reduce_tiled(b, l, &piece, in, out, off_out + i * g->kept_out[0],
                                          off_in + i * g->kept_in[0]);
        return status;
    }
    /* The most indices of dim 0 per piece: halve until both windows fit. */
    int64_t run = n0;
    do {
        run = (run + 1) / 2;
        piece.kept_shape[0] = run;
        piece.outputs = per_index * (uint64_t)run;
        status = tsr__vk_reduce_fits(b, &piece, in, out, off_out, off_in, &fits);
    } while (status == TSR_OK && !fits && run > 1);
    for (int64_t i = 0; i < n0 && status == TSR_OK; i += run) {
        piece.kept_shape[0] = n0 - i < run ? n0 - i : run;
        piece.outputs = per_index * (uint64_t)piece.kept_shape[0];
        status = tsr__vk_reduce_record(b, l, &piece, in, out, off_out + i * g->kept_out[0],
                                       off_in + i * g->kept_in[0]);
    }
    return status;
}

int tsr__vk_launch_reduce(struct tsr__vk_backend *b, const struct tsr__vk_launch *l, uint32_t mask)
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
    return tsr__vk_reduce_tiled(b, l, &g, in, out, 0, 0);
}
