#include "launch.h"

#include <string.h>

#include "host.h"

int64_t tsr__vk_dtype_size(int32_t dtype)
{
    static const int64_t sizes[] = {
#define TSR__VK_DTYPE_SIZE_(id, name, size) size,
        TSR_DTYPE_LIST(TSR__VK_DTYPE_SIZE_)
#undef TSR__VK_DTYPE_SIZE_
    };
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? sizes[dtype] : 0;
}

const char *tsr__vk_dtype_name(int32_t dtype)
{
    static const char *const names[] = {
#define TSR__VK_DTYPE_NAME_(id, name, size) name,
        TSR_DTYPE_LIST(TSR__VK_DTYPE_NAME_)
#undef TSR__VK_DTYPE_NAME_
    };
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? names[dtype] : "?";
}

int tsr__vk_check_element_offset(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k)
{
    int64_t size = tsr__vk_dtype_size(t->dtype);
    if (size == 0)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "operand %d has dtype id %d", k, t->dtype);
    if (t->byte_offset < 0 || t->byte_offset % size != 0)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "operand %d: byte offset %lld is not a multiple of its element size",
                             k, (long long)t->byte_offset);
    return TSR_OK;
}

/* The operands after dimension merging: strides in bytes. */
struct tsr__vk_layout {
    int count; /* operands: output + inputs */
    int ndim;  /* merged rank, >= 1 */
    int64_t shape[TSR_MAX_DIMS];
    int64_t stride[TSR__VK_OPERANDS][TSR_MAX_DIMS];
    uint64_t numel;
};

static int tsr__vk_check_operands(struct tsr__vk_backend *b, const tsr_tensor_desc *const *ops,
                                  int count)
{
    const tsr_tensor_desc *out = ops[0];
    if (out->ndim < 0 || out->ndim > TSR_MAX_DIMS)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "rank %d is outside 0..%d", out->ndim,
                             TSR_MAX_DIMS);
    for (int k = 0; k < count; ++k) {
        const tsr_tensor_desc *t = ops[k];
        if (!t->data)
            return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "operand %d has no memory", k);
        if (tsr__vk_dtype_size(t->dtype) == 0)
            return tsr__vk_error(b->host, TSR_ERR_DTYPE, "operand %d has dtype id %d", k, t->dtype);
        if (t->ndim != out->ndim)
            return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                                 "operand %d has rank %d, the output %d (inputs arrive "
                                 "broadcast to the output's shape)",
                                 k, t->ndim, out->ndim);
        if (t->byte_offset < 0 || t->byte_offset % tsr__vk_dtype_size(t->dtype) != 0)
            return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                 "operand %d: byte offset %lld is not a multiple of its "
                                 "element size",
                                 k, (long long)t->byte_offset);
        for (int d = 0; d < out->ndim; ++d) {
            if (t->shape[d] != out->shape[d] || t->shape[d] < 0)
                return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                                     "operand %d has extent %lld in dimension %d, the output "
                                     "%lld",
                                     k, (long long)t->shape[d], d, (long long)out->shape[d]);
            if (t->strides[d] < 0)
                return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                     "operand %d has a negative stride", k);
        }
    }
    return TSR_OK;
}

/* Drops extent-1 dimensions and merges neighbours that are contiguous with
 * each other in every operand. Returns 0 when the output is empty. */
static int tsr__vk_merge(const tsr_tensor_desc *const *ops, int count, struct tsr__vk_layout *lay)
{
    const tsr_tensor_desc *out = ops[0];
    memset(lay, 0, sizeof *lay);
    lay->count = count;
    lay->numel = 1;
    for (int d = 0; d < out->ndim; ++d) {
        int64_t n = out->shape[d];
        if (n == 0)
            return 0;
        /* Saturate: anything past 2^32 - 1 is refused later anyway. */
        lay->numel = (uint64_t)n > UINT32_MAX || lay->numel * (uint64_t)n > UINT32_MAX
                         ? (uint64_t)UINT32_MAX + 1
                         : lay->numel * (uint64_t)n;
        if (n == 1)
            continue;
        int last = lay->ndim - 1;
        int mergeable = last >= 0;
        for (int k = 0; k < count && mergeable; ++k) {
            int64_t s = ops[k]->strides[d] * tsr__vk_dtype_size(ops[k]->dtype);
            mergeable = lay->stride[k][last] == s * n;
        }
        if (mergeable) {
            lay->shape[last] *= n;
            for (int k = 0; k < count; ++k)
                lay->stride[k][last] = ops[k]->strides[d] * tsr__vk_dtype_size(ops[k]->dtype);
            continue;
        }
        lay->shape[lay->ndim] = n;
        for (int k = 0; k < count; ++k)
            lay->stride[k][lay->ndim] = ops[k]->strides[d] * tsr__vk_dtype_size(ops[k]->dtype);
        lay->ndim++;
    }
    if (lay->ndim == 0) {
        lay->ndim = 1;
        lay->shape[0] = 1;
    }
    return 1;
}

/* The window of operand k, whose dims are shape[0..ndim) with byte strides
 * stride[0..ndim) (every extent >= 1). An operand leaving its allocation is
 * an error; one whose window exceeds maxStorageBufferRange only sets
 * *too_big (and of *w only its range) so that the caller may split it. */
static int tsr__vk_window_try(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                              const int64_t *shape, const int64_t *stride, int ndim,
                              struct tsr__vk_window *w, int *too_big)
{
    struct tsr__vk_buffer *buffer = t->data;
    VkDeviceSize extent = (VkDeviceSize)tsr__vk_dtype_size(t->dtype);
    int inside = buffer->block != NULL;
    for (int d = 0; d < ndim && inside; ++d) {
        inside = (VkDeviceSize)stride[d] <= buffer->size;
        extent += inside ? (VkDeviceSize)(shape[d] - 1) * (VkDeviceSize)stride[d] : 0;
    }
    if (!inside || (VkDeviceSize)t->byte_offset + extent > buffer->size)
        return tsr__vk_error(b->host, TSR_ERR_INDEX,
                             "operand %d reaches byte %llu of a %llu-byte allocation", k,
                             (unsigned long long)((VkDeviceSize)t->byte_offset + extent),
                             (unsigned long long)buffer->size);
    VkDeviceSize align = b->memory.alignment;
    VkDeviceSize lo = buffer->offset + (VkDeviceSize)t->byte_offset;
    VkDeviceSize start = lo / align * align;
    VkDeviceSize end = (lo + extent + 3) / 4 * 4; /* whole words: shaders read uint arrays */
    *too_big = end - start > b->device.props.limits.maxStorageBufferRange;
    w->range = end - start;
    if (*too_big)
        return TSR_OK;
    w->buffer = buffer;
    w->offset = start;
    w->range = end - start;
    w->base = (uint32_t)(lo - start);
    return TSR_OK;
}

int tsr__vk_window_fits(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                        const int64_t *shape, const int64_t *stride, int ndim, int *fits)
{
    struct tsr__vk_window scratch;
    int too_big = 0;
    int status = tsr__vk_window_try(b, t, k, shape, stride, ndim, &scratch, &too_big);
    *fits = !too_big;
    return status;
}

int tsr__vk_window_for(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                       const int64_t *shape, const int64_t *stride, int ndim,
                       struct tsr__vk_window *w)
{
    int too_big = 0;
    int status = tsr__vk_window_try(b, t, k, shape, stride, ndim, w, &too_big);
    if (status == TSR_OK && too_big)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "operand %d spans %llu bytes; this device binds at most %u "
                             "(maxStorageBufferRange) and this kernel does not tile past it",
                             k, (unsigned long long)w->range,
                             b->device.props.limits.maxStorageBufferRange);
    return status;
}

static void tsr__vk_write_meta(uint32_t *meta, const struct tsr__vk_layout *lay,
                               const struct tsr__vk_window *windows)
{
    memset(meta, 0, TSR__VK_META_WORDS * sizeof *meta);
    for (int k = 0; k < lay->count; ++k)
        meta[TSR__VK_META_BASE + k] = windows[k].base;
    for (int d = 0; d < lay->ndim; ++d) {
        meta[TSR__VK_META_SHAPE + d] = (uint32_t)lay->shape[d];
        for (int k = 0; k < lay->count; ++k)
            meta[TSR__VK_META_STRIDES + k * TSR_MAX_DIMS + d] = (uint32_t)lay->stride[k][d];
    }
}

static void tsr__vk_write_set(struct tsr__vk_backend *b, VkDescriptorSet set,
                              VkDeviceSize meta_offset, const struct tsr__vk_window *windows,
                              int count)
{
    VkDescriptorBufferInfo infos[TSR__VK_BINDING_COUNT];
    infos[TSR__VK_BINDING_META] = (VkDescriptorBufferInfo){tsr__vk_submit_arena_buffer(&b->submit),
                                                           meta_offset, TSR__VK_META_WORDS * 4};
    for (int k = 0; k < TSR__VK_OPERANDS; ++k) {
        /* Bindings of absent inputs repeat the output: every binding of the
         * shared layout stays valid whatever a shader declares. */
        const struct tsr__vk_window *w = &windows[k < count ? k : 0];
        infos[TSR__VK_BINDING_OUT + k] =
            (VkDescriptorBufferInfo){w->buffer->block->buffer, w->offset, w->range};
    }
    infos[TSR__VK_BINDING_STATUS] = (VkDescriptorBufferInfo){b->submit.status.buffer, 0, 16};
    VkWriteDescriptorSet writes[TSR__VK_BINDING_COUNT];
    for (uint32_t i = 0; i < TSR__VK_BINDING_COUNT; ++i) {
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &infos[i],
        };
    }
    b->device.fns.vkUpdateDescriptorSets(b->device.device, TSR__VK_BINDING_COUNT, writes, 0, NULL);
}

/* Records one dispatch of `groups` workgroups with the given metadata
 * record (TSR__VK_META_WORDS words) and push constants. */
int tsr__vk_record_raw(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                       const uint32_t *meta_words, const struct tsr__vk_window *windows,
                       int count, const struct tsr__vk_push *push_in, uint64_t groups)
{
    VkPipeline pipeline;
    int status = tsr__vk_pipeline_get(&b->pipelines, l->shader, &l->spec, &pipeline);
    VkCommandBuffer cmd;
    if (status == TSR_OK)
        status = tsr__vk_submit_begin(&b->submit, 1, TSR__VK_META_WORDS * 4, &cmd);
    VkDescriptorSet set;
    if (status == TSR_OK)
        status = tsr__vk_submit_set(&b->submit, b->pipelines.set_layout, &set);
    if (status != TSR_OK)
        return status;
    void *meta;
    VkDeviceSize meta_offset = tsr__vk_submit_arena(&b->submit, TSR__VK_META_WORDS * 4, &meta);
    memcpy(meta, meta_words, TSR__VK_META_WORDS * 4);
    tsr__vk_write_set(b, set, meta_offset, windows, count);
    struct tsr__vk_push push = *push_in;
    if (groups > 65535) /* the guaranteed minimum of maxComputeWorkGroupCount[0] */
        groups = 65535;
    const struct tsr__vk_fns *fns = &b->device.fns;
    fns->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    fns->vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->pipelines.layout, 0, 1,
                                 &set, 0, NULL);
    fns->vkCmdPushConstants(cmd, b->pipelines.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push,
                            &push);
    fns->vkCmdDispatch(cmd, (uint32_t)groups, 1, 1);
    for (int k = 0; k < count; ++k)
        tsr__vk_submit_use(&b->submit, windows[k].buffer);
    return tsr__vk_submit_end(&b->submit);
}

static int tsr__vk_record(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                          const struct tsr__vk_layout *lay, const struct tsr__vk_window *windows)
{
    uint32_t meta[TSR__VK_META_WORDS];
    tsr__vk_write_meta(meta, lay, windows);
    struct tsr__vk_push push = {.numel = (uint32_t)lay->numel, .ndim = (uint32_t)lay->ndim};
    memcpy(push.scalar, l->scalar, sizeof push.scalar);
    uint64_t groups = (lay->numel + b->pipelines.local_size - 1) / b->pipelines.local_size;
    return tsr__vk_record_raw(b, l, meta, windows, lay->count, &push, groups);
}

/* ------------------------------------------------------------------------ */
/* Pieces: operands past maxStorageBufferRange                               */
/* ------------------------------------------------------------------------ */

/* The most bytes an operand of a piece may span, wherever its first element
 * falls: the limit less the slack of aligning the window's start down and
 * rounding its end up to a word. */
VkDeviceSize tsr__vk_piece_budget(const struct tsr__vk_backend *b)
{
    VkDeviceSize limit = b->device.props.limits.maxStorageBufferRange;
    VkDeviceSize slack = b->memory.alignment - 1 + 3;
    return limit > slack ? limit - slack : 0;
}

/* Bytes operand k spans over dims [from, ndim) of lay, and their elements. */
static VkDeviceSize tsr__vk_span(const struct tsr__vk_layout *lay, const tsr_tensor_desc *t, int k,
                                 int from)
{
    VkDeviceSize span = (VkDeviceSize)tsr__vk_dtype_size(t->dtype);
    for (int d = from; d < lay->ndim; ++d)
        span += (VkDeviceSize)(lay->shape[d] - 1) * (VkDeviceSize)lay->stride[k][d];
    return span;
}

static uint64_t tsr__vk_numel_from(const struct tsr__vk_layout *lay, int from)
{
    uint64_t n = 1;
    for (int d = from; d < lay->ndim; ++d)
        n *= (uint64_t)lay->shape[d];
    return n;
}

static int tsr__vk_fits(const struct tsr__vk_backend *b, const struct tsr__vk_layout *lay,
                        const tsr_tensor_desc *const *ops, int from)
{
    int fits = tsr__vk_numel_from(lay, from) <= UINT32_MAX;
    for (int k = 0; k < lay->count && fits; ++k)
        fits = tsr__vk_span(lay, ops[k], k, from) <= tsr__vk_piece_budget(b);
    return fits;
}

/* One piece: lay's shape with operand k starting off[k] bytes after its
 * descriptor's first element. */
static int tsr__vk_record_piece(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                const tsr_tensor_desc *const *ops, struct tsr__vk_layout *lay,
                                const int64_t *off)
{
    struct tsr__vk_window windows[TSR__VK_OPERANDS];
    for (int k = 0; k < lay->count; ++k) {
        tsr_tensor_desc sub = *ops[k];
        sub.byte_offset += off[k];
        int status =
            tsr__vk_window_for(b, &sub, k, lay->shape, lay->stride[k], lay->ndim, &windows[k]);
        if (status != TSR_OK)
            return status;
    }
    lay->numel = tsr__vk_numel_from(lay, 0);
    return tsr__vk_record(b, l, lay, windows);
}

/* Splits lay along its outermost dimension into runs of as many indices as
 * every operand's window allows; when a single index of it is still too
 * large, each index is split along the next dimension (recursively). */
static int tsr__vk_launch_pieces(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                 const tsr_tensor_desc *const *ops,
                                 const struct tsr__vk_layout *lay, const int64_t *off)
{
    struct tsr__vk_layout piece = *lay;
    if (tsr__vk_fits(b, lay, ops, 0))
        return tsr__vk_record_piece(b, l, ops, &piece, off);
    int64_t n0 = lay->shape[0];
    int64_t sub_off[TSR__VK_OPERANDS];
    if (lay->ndim > 1 && !tsr__vk_fits(b, lay, ops, 1)) {
        struct tsr__vk_layout inner = *lay;
        inner.ndim = lay->ndim - 1;
        for (int d = 0; d < inner.ndim; ++d) {
            inner.shape[d] = lay->shape[d + 1];
            for (int k = 0; k < lay->count; ++k)
                inner.stride[k][d] = lay->stride[k][d + 1];
        }
        for (int64_t i = 0; i < n0; ++i) {
            for (int k = 0; k < lay->count; ++k)
                sub_off[k] = off[k] + i * lay->stride[k][0];
            int status = tsr__vk_launch_pieces(b, l, ops, &inner, sub_off);
            if (status != TSR_OK)
                return status;
        }
        return TSR_OK;
    }
    /* Indices of dim 0 per piece: within 2^32 - 1 elements and, for every
     * operand that moves along dim 0, within the budget. */
    uint64_t run = UINT32_MAX / tsr__vk_numel_from(lay, 1);
    VkDeviceSize budget = tsr__vk_piece_budget(b);
    for (int k = 0; k < lay->count; ++k) {
        if (lay->stride[k][0] == 0)
            continue;
        VkDeviceSize inner = tsr__vk_span(lay, ops[k], k, 1);
        uint64_t fit = (budget - inner) / (VkDeviceSize)lay->stride[k][0] + 1;
        run = fit < run ? fit : run;
    }
    for (int64_t i = 0; i < n0; i += (int64_t)run) {
        piece.shape[0] = (uint64_t)(n0 - i) < run ? n0 - i : (int64_t)run;
        for (int k = 0; k < lay->count; ++k)
            sub_off[k] = off[k] + i * lay->stride[k][0];
        int status = tsr__vk_record_piece(b, l, ops, &piece, sub_off);
        if (status != TSR_OK)
            return status;
    }
    return TSR_OK;
}

int tsr__vk_launch(struct tsr__vk_backend *b, const struct tsr__vk_launch *l)
{
    const tsr_tensor_desc *ops[TSR__VK_OPERANDS] = {l->out, l->in[0], l->in[1], l->in[2]};
    int count = 1 + l->num_in;
    int status = tsr__vk_check_operands(b, ops, count);
    if (status != TSR_OK)
        return status;
    struct tsr__vk_layout lay;
    if (!tsr__vk_merge(ops, count, &lay))
        return TSR_OK;
    struct tsr__vk_window windows[TSR__VK_OPERANDS];
    int split = lay.numel > UINT32_MAX;
    for (int k = 0; k < count; ++k) {
        int too_big = 0;
        status = tsr__vk_window_try(b, ops[k], k, lay.shape, lay.stride[k], lay.ndim, &windows[k],
                                    &too_big);
        if (status != TSR_OK)
            return status;
        split |= too_big;
    }
    if (!split)
        return tsr__vk_record(b, l, &lay, windows);
    if (l->untiled) {
        if (lay.numel > UINT32_MAX)
            return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                                 "more than 2^32 - 1 elements in one kernel");
        for (int k = 0; k < count; ++k) {
            status =
                tsr__vk_window_for(b, ops[k], k, lay.shape, lay.stride[k], lay.ndim, &windows[k]);
            if (status != TSR_OK)
                return status;
        }
    }
    const int64_t none[TSR__VK_OPERANDS] = {0};
    return tsr__vk_launch_pieces(b, l, ops, &lay, none);
}
