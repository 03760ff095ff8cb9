/* Elementwise walks (see cpu_walk.h). */
#include "cpu_walk.h"

#include <stddef.h>
#include <string.h>

static int64_t dtype_size(int32_t dtype)
{
    static const int64_t sizes[] = {
#define TSR_DTYPE_SIZE_(id, name, size) size,
        TSR_DTYPE_LIST(TSR_DTYPE_SIZE_)
#undef TSR_DTYPE_SIZE_
    };
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? sizes[dtype] : 0;
}

/* Whether every operand matches the output's rank and extents. */
static int shapes_agree(const tsr_tensor_desc *const *descs, int32_t operands)
{
    const tsr_tensor_desc *out = descs[0];
    if (out->ndim < 0 || out->ndim > TSR_MAX_DIMS || (out->ndim > 0 && out->shape == NULL)) {
        return 0;
    }
    for (int32_t k = 0; k < operands; k++) {
        const tsr_tensor_desc *d = descs[k];
        if (d->ndim != out->ndim || dtype_size(d->dtype) == 0 ||
            (d->ndim > 0 && (d->shape == NULL || d->strides == NULL))) {
            return 0;
        }
        for (int32_t i = 0; i < d->ndim; i++) {
            if (d->shape[i] != out->shape[i] || d->strides[i] < 0) {
                return 0;
            }
        }
    }
    return 1;
}

/* Drops size-1 dims and merges dims contiguous with their inner neighbour
 * in every operand; dims are kept outermost first. */
static void collapse(tsr__cpu_walk *walk, const tsr_tensor_desc *const *descs)
{
    const tsr_tensor_desc *out = descs[0];
    int32_t n = 0;
    for (int32_t d = out->ndim - 1; d >= 0; d--) {
        int64_t extent = out->shape[d];
        if (extent == 1) {
            continue;
        }
        int merge = n > 0;
        for (int32_t k = 0; k < walk->operands && merge; k++) {
            /* The dim just pushed is the current innermost kept one. */
            int64_t inner_stride = walk->strides[k][TSR_MAX_DIMS - n];
            merge = descs[k]->strides[d] == inner_stride * walk->shape[TSR_MAX_DIMS - n];
        }
        if (merge) {
            walk->shape[TSR_MAX_DIMS - n] *= extent;
            continue;
        }
        n++;
        walk->shape[TSR_MAX_DIMS - n] = extent;
        for (int32_t k = 0; k < walk->operands; k++) {
            walk->strides[k][TSR_MAX_DIMS - n] = descs[k]->strides[d];
        }
    }
    if (n == 0) { /* a 0-d tensor or all extents 1: one element */
        n = 1;
        walk->shape[TSR_MAX_DIMS - 1] = 1;
        for (int32_t k = 0; k < walk->operands; k++) {
            walk->strides[k][TSR_MAX_DIMS - 1] = 1;
        }
    }
    /* Move the dims, stored from the end, to the front. */
    memmove(walk->shape, walk->shape + TSR_MAX_DIMS - n, (size_t)n * sizeof(int64_t));
    for (int32_t k = 0; k < walk->operands; k++) {
        memmove(walk->strides[k], walk->strides[k] + TSR_MAX_DIMS - n, (size_t)n * sizeof(int64_t));
    }
    walk->ndim = n;
}

int tsr__cpu_walk_init(tsr__cpu_walk *walk, const tsr_tensor_desc *out,
                       const tsr_tensor_desc *inputs, int32_t num_inputs)
{
    if (num_inputs < 0 || num_inputs >= TSR__CPU_WALK_MAX_OPERANDS || out == NULL ||
        (num_inputs > 0 && inputs == NULL)) {
        return 0;
    }
    const tsr_tensor_desc *descs[TSR__CPU_WALK_MAX_OPERANDS] = {out};
    for (int32_t k = 0; k < num_inputs; k++) {
        descs[k + 1] = &inputs[k];
    }
    walk->operands = num_inputs + 1;
    if (!shapes_agree(descs, walk->operands)) {
        return 0;
    }
    walk->numel = 1;
    for (int32_t d = 0; d < out->ndim; d++) {
        walk->numel *= out->shape[d];
    }
    for (int32_t k = 0; k < walk->operands; k++) {
        if (walk->numel > 0 && descs[k]->data == NULL) {
            return 0;
        }
        walk->base[k] = (char *)descs[k]->data + descs[k]->byte_offset;
        walk->elsize[k] = dtype_size(descs[k]->dtype);
    }
    if (walk->numel == 0) {
        walk->ndim = 1;
        walk->shape[0] = 0;
        return 1;
    }
    collapse(walk, descs);
    int32_t inner = walk->ndim - 1;
    if (walk->strides[0][inner] != 1 && walk->shape[inner] > 1) {
        return 0;
    }
    walk->strides[0][inner] = 1;
    for (int32_t k = 1; k < walk->operands; k++) {
        int64_t s = walk->strides[k][inner];
        if (s != 0 && s != 1) {
            return 0;
        }
    }
    return 1;
}

void tsr__cpu_walk_range(const tsr__cpu_walk *walk, int64_t begin, int64_t end, tsr__cpu_row_fn row,
                         void *context)
{
    if (begin >= end) {
        return;
    }
    int32_t inner = walk->ndim - 1;
    int64_t inner_size = walk->shape[inner];
    int64_t coord[TSR_MAX_DIMS];
    int64_t steps[TSR__CPU_WALK_MAX_OPERANDS];
    char *ptrs[TSR__CPU_WALK_MAX_OPERANDS];
    int64_t rest = begin / inner_size, col = begin % inner_size;
    for (int32_t d = inner - 1; d >= 0; d--) {
        coord[d] = rest % walk->shape[d];
        rest /= walk->shape[d];
    }
    for (int32_t k = 0; k < walk->operands; k++) {
        int64_t offset = col * walk->strides[k][inner];
        for (int32_t d = 0; d < inner; d++) {
            offset += coord[d] * walk->strides[k][d];
        }
        ptrs[k] = walk->base[k] + offset * walk->elsize[k];
        steps[k] = walk->strides[k][inner];
    }
    for (int64_t index = begin; index < end;) {
        int64_t n = inner_size - col < end - index ? inner_size - col : end - index;
        row(context, ptrs, steps, n);
        index += n;
        if (index >= end) {
            break;
        }
        /* Next row: back to column 0, odometer over the outer dims. */
        for (int32_t k = 0; k < walk->operands; k++) {
            ptrs[k] -= col * steps[k] * walk->elsize[k];
        }
        col = 0;
        for (int32_t d = inner - 1; d >= 0; d--) {
            coord[d]++;
            for (int32_t k = 0; k < walk->operands; k++) {
                ptrs[k] += walk->strides[k][d] * walk->elsize[k];
            }
            if (coord[d] < walk->shape[d]) {
                break;
            }
            coord[d] = 0;
            for (int32_t k = 0; k < walk->operands; k++) {
                ptrs[k] -= walk->shape[d] * walk->strides[k][d] * walk->elsize[k];
            }
        }
    }
}

typedef struct walk_job {
    const tsr__cpu_walk *walk;
    int64_t grain;
    tsr__cpu_row_fn row;
    void *context;
} walk_job;

static void walk_task(void *context, int64_t task)
{
    const walk_job *job = context;
    int64_t begin = task * job->grain;
    int64_t end = begin + job->grain < job->walk->numel ? begin + job->grain : job->walk->numel;
    tsr__cpu_walk_range(job->walk, begin, end, job->row, job->context);
}

void tsr__cpu_walk_run(tsr__cpu_backend *backend, const tsr__cpu_walk *walk, int64_t grain,
                       tsr__cpu_row_fn row, void *context)
{
    if (walk->numel <= grain) {
        tsr__cpu_walk_range(walk, 0, walk->numel, row, context);
        return;
    }
    walk_job job = {walk, grain, row, context};
    tsr__cpu_pool_run(backend->pool, tsr__cpu_task_count(walk->numel, grain), walk_task, &job);
}

int tsr__cpu_desc_dense(const tsr_tensor_desc *desc)
{
    if (desc->ndim < 0 || desc->ndim > TSR_MAX_DIMS || desc->data == NULL) {
        return 0;
    }
    int64_t expected = 1;
    for (int32_t d = desc->ndim - 1; d >= 0; d--) {
        if (desc->shape[d] == 1) {
            continue;
        }
        if (desc->strides[d] != expected) {
            return 0;
        }
        expected *= desc->shape[d];
    }
    return 1;
}
