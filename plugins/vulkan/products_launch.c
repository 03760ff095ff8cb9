/* Recording a matrix product (shaders/matmul.comp): the operands checked,
 * their windows bound and the metadata written with any strides, one
 * workgroup per 16 x 16 output tile. */
#include <string.h>

#include "host.h"
#include "launch.h"

/* An operand of a matrix product: present, sized, inside TSR_MAX_DIMS. */
static int tsr__vk_check_matmul_operand(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                                        int ndim)
{
    if (!t->data)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "operand %d has no memory", k);
    if (tsr__vk_dtype_size(t->dtype) == 0)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "operand %d has dtype id %d", k, t->dtype);
    if (t->ndim != ndim)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "operand %d has rank %d, the output %d (batch dims arrive "
                             "broadcast)",
                             k, t->ndim, ndim);
    if (t->byte_offset < 0 || t->byte_offset % tsr__vk_dtype_size(t->dtype) != 0)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "operand %d: byte offset %lld is not a multiple of its element size",
                             k, (long long)t->byte_offset);
    for (int d = 0; d < ndim; ++d)
        if (t->shape[d] < 0 || t->strides[d] < 0)
            return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                                 "operand %d has a negative extent or stride", k);
    return TSR_OK;
}

/* The byte strides a matmul operand is bound with (0 for extent-1 dims:
 * any stride is allowed there). */
static void tsr__vk_matmul_strides(const tsr_tensor_desc *t, int nd, int64_t *stride)
{
    int64_t size = tsr__vk_dtype_size(t->dtype);
    for (int d = 0; d < nd; ++d)
        stride[d] = t->shape[d] == 1 ? 0 : t->strides[d] * size;
}

/* Records one dispatch of the product of ops (output, a, b, optional c),
 * whose windows fit. */
static int tsr__vk_matmul_record(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                 const tsr_tensor_desc *const *ops, int count, int nd, int64_t kdim)
{
    const int64_t *os = ops[0]->shape;
    int64_t m = os[nd - 2], n = os[nd - 1];
    uint64_t numel = 1;
    for (int d = 0; d < nd; ++d)
        numel *= (uint64_t)os[d];
    uint32_t meta[TSR__VK_META_WORDS];
    memset(meta, 0, sizeof meta);
    struct tsr__vk_window windows[TSR__VK_OPERANDS];
    for (int k = 0; k < count; ++k) {
        int64_t stride[TSR_MAX_DIMS];
        tsr__vk_matmul_strides(ops[k], nd, stride);
        int status;
        if (kdim == 0 && (k == 1 || k == 2)) {
            /* Never read: bind the output's window. */
            windows[k] = windows[0];
            continue;
        }
        status = tsr__vk_window_for(b, ops[k], k, ops[k]->shape, stride, nd, &windows[k]);
        if (status != TSR_OK)
            return status;
        for (int d = 0; d < nd; ++d)
            meta[TSR__VK_META_STRIDES + k * TSR_MAX_DIMS + d] = (uint32_t)stride[d];
        meta[TSR__VK_META_BASE + k] = windows[k].base;
    }
    for (int d = 0; d < nd; ++d)
        meta[TSR__VK_META_SHAPE + d] = (uint32_t)os[d];
    /* The shader reads K where others read the element count: alpha and
     * beta need all four scalar words in the 64-bit variants. */
    struct tsr__vk_push push = {.numel = (uint32_t)kdim, .ndim = (uint32_t)nd};
    memcpy(push.scalar, l->scalar, sizeof push.scalar);
    uint64_t tiles =
        ((uint64_t)m + 15) / 16 * (((uint64_t)n + 15) / 16) * (numel / (uint64_t)(m * n));
    if (tiles > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "matmul has too many tiles");
    return tsr__vk_record_raw(b, l, meta, windows, count, &push, tiles);
}

/* Whether every operand of ops fits its window (a and b are not read when
 * K is 0). */
static int tsr__vk_matmul_fits(struct tsr__vk_backend *b, const tsr_tensor_desc *const *ops,
                               int count, int nd, int64_t kdim, int *fits)
{
    *fits = 1;
    for (int k = 0; k < count && *fits; ++k) {
        if (kdim == 0 && (k == 1 || k == 2))
            continue;
        int64_t stride[TSR_MAX_DIMS];
        tsr__vk_matmul_strides(ops[k], nd, stride);
        int status = tsr__vk_window_fits(b, ops[k], k, ops[k]->shape, stride, nd, fits);
        if (status != TSR_OK)
            return status;
    }
    return TSR_OK;
}

/* Rows [r0, r0 + rows) of the output, a and c (b whole) as descriptors in
 * piece[], their shapes in shapes[]. */
static void tsr__vk_matmul_rows(const tsr_tensor_desc *const *ops, int count, int nd, int64_t r0,
                                int64_t rows, tsr_tensor_desc *piece,
                                int64_t (*shapes)[TSR_MAX_DIMS])
{
    for (int k = 0; k < count; ++k) {
        piece[k] = *ops[k];
        if (k == 2)
            continue;
        memcpy(shapes[k], ops[k]->shape, (size_t)nd * sizeof **shapes);
        shapes[k][nd - 2] = rows;
        piece[k].shape = shapes[k];
        piece[k].byte_offset += r0 * ops[k]->strides[nd - 2] * tsr__vk_dtype_size(ops[k]->dtype);
    }
}

/* An output, a or c past maxStorageBufferRange is split into runs of rows
 * (each output element sums its k in the same order in any run, so the
 * bits do not change); b is always bound whole. What still does not fit
 * (b itself, or one row of every batch) is refused by tsr__vk_window_for. */
static int tsr__vk_matmul_tiled(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                                const tsr_tensor_desc *const *ops, int count, int nd, int64_t m,
                                int64_t kdim)
{
    int fits;
    int status = tsr__vk_matmul_fits(b, ops, count, nd, kdim, &fits);
    if (status != TSR_OK || fits)
        return status == TSR_OK ? tsr__vk_matmul_record(b, l, ops, count, nd, kdim) : status;
    tsr_tensor_desc piece[TSR__VK_OPERANDS];
    int64_t shapes[TSR__VK_OPERANDS][TSR_MAX_DIMS];
    const tsr_tensor_desc *pieces[TSR__VK_OPERANDS] = {&piece[0], &piece[1], &piece[2], &piece[3]};
    int64_t rows = m;
    while (!fits && rows > 1 && status == TSR_OK) {
        rows = (rows + 1) / 2;
        tsr__vk_matmul_rows(ops, count, nd, 0, rows, piece, shapes);
        status = tsr__vk_matmul_fits(b, pieces, count, nd, kdim, &fits);
    }
    if (status != TSR_OK || !fits) /* the error names what does not fit */
        return status != TSR_OK ? status : tsr__vk_matmul_record(b, l, pieces, count, nd, kdim);
    for (int64_t r0 = 0; r0 < m && status == TSR_OK; r0 += rows) {
        tsr__vk_matmul_rows(ops, count, nd, r0, m - r0 < rows ? m - r0 : rows, piece, shapes);
        status = tsr__vk_matmul_record(b, l, pieces, count, nd, kdim);
    }
    return status;
}

int tsr__vk_launch_matmul(struct tsr__vk_backend *b, const struct tsr__vk_launch *l)
{
    const tsr_tensor_desc *ops[TSR__VK_OPERANDS] = {l->out, l->in[0], l->in[1], l->in[2]};
    int count = 1 + l->num_in;
    int nd = l->out->ndim;
    if (nd < 2 || nd > TSR_MAX_DIMS)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "matmul output of rank %d", nd);
    for (int k = 0; k < count; ++k) {
        int status = tsr__vk_check_matmul_operand(b, ops[k], k, nd);
        if (status != TSR_OK)
            return status;
    }
    const int64_t *os = l->out->shape, *as = l->in[0]->shape, *bs = l->in[1]->shape;
    int64_t m = os[nd - 2], n = os[nd - 1], kdim = as[nd - 1];
    int shapes_ok = as[nd - 2] == m && bs[nd - 2] == kdim && bs[nd - 1] == n;
    for (int d = 0; d < nd - 2; ++d)
        shapes_ok = shapes_ok && as[d] == os[d] && bs[d] == os[d];
    for (int d = 0; count == 4 && d < nd; ++d)
        shapes_ok = shapes_ok && l->in[2]->shape[d] == os[d];
    if (!shapes_ok)
        return tsr__vk_error(b->host, TSR_ERR_SHAPE,
                             "matmul operands do not have shapes [..., M, K], [..., K, N]%s",
                             count == 4 ? " and the output's" : "");
    uint64_t numel = 1;
    for (int d = 0; d < nd; ++d) {
        if (os[d] == 0)
            return TSR_OK;
        numel = numel * (uint64_t)os[d] > UINT32_MAX ? (uint64_t)UINT32_MAX + 1
                                                      : numel * (uint64_t)os[d];
    }
    if (numel > UINT32_MAX || (uint64_t)kdim > UINT32_MAX)
        return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED,
                             "matmul too large; this backend handles at most 2^32 - 1 elements "
                             "per kernel");
    return tsr__vk_matmul_tiled(b, l, ops, count, nd, m, kdim);
}
