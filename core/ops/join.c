/* Joining and splitting: cat, stack, hstack, vstack, split, chunk, unbind.
 * cat writes each input into a narrowed window of its output with the copy
 * kernel (which also converts dtypes); the splits are views. */
#include "autograd/graph.h"
#include "runtime/alloc.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/join_grad.h"
#include "ops/index_util.h"
#include "tensor/shape.h"

#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* cat                                                                       */
/* ------------------------------------------------------------------------ */

static tsr_status check_list(const char *op, const tsr_tensor *const *tensors, size_t count,
                             tsr_tensor **out)
{
    if (!out || (count > 0 && !tensors))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors and out must not be NULL", op);
    if (count == 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: expected a non-empty list of tensors",
                              op);
    for (size_t i = 0; i < count; i++) {
        if (!tensors[i])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensor %zu is NULL", op, i);
        if (tensors[i]->storage->backend != tensors[0]->storage->backend)
            return tsr__set_error(TSR_ERR_DEVICE_MISMATCH,
                                  "%s: tensors 0 and %zu live on different backends; move one "
                                  "with tsr_to_backend",
                                  op, i);
    }
    return TSR_OK;
}

/* PyTorch still skips 1-d tensors with no elements (the old way of writing
 * an empty tensor) whatever their other sizes would have to be. */
static bool skipped_by_cat(const tsr_tensor *t)
{
    return t->ndim == 1 && t->shape[0] == 0;
}

/* The output shape: every kept tensor's shape, summed along dim. */
static tsr_status cat_shape(const char *op, const tsr_tensor *const *tensors, size_t count,
                            size_t first, int dim, int64_t *shape)
{
    const tsr_tensor *ref = tensors[first];
    for (int d = 0; d < ref->ndim; d++)
        shape[d] = d == dim ? 0 : ref->shape[d];
    for (size_t i = first; i < count; i++) {
        const tsr_tensor *t = tensors[i];
        if (skipped_by_cat(t))
            continue;
        if (t->ndim == 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: zero-dimensional tensor (at position %zu) "
                                  "cannot be concatenated",
                                  op, i);
        if (t->ndim != ref->ndim)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: tensors must have the same number of "
                                  "dimensions: got %d and %d (tensor %zu)",
                                  op, ref->ndim, t->ndim, i);
        for (int d = 0; d < t->ndim; d++) {
            if (d != dim && t->shape[d] != ref->shape[d])
                return tsr__set_error(TSR_ERR_SHAPE,
                                      "%s: sizes of tensors must match except in dimension %d: "
                                      "expected size %lld but got size %lld for tensor %zu",
                                      op, dim, (long long)ref->shape[d], (long long)t->shape[d], i);
        }
        if (__builtin_add_overflow(shape[dim], t->shape[dim], &shape[dim]))
            return tsr__set_error(TSR_ERR_OVERFLOW, "%s: the joined size overflows", op);
    }
    return TSR_OK;
}

static tsr_status cat_fill(const char *op, tsr_tensor *result, const tsr_tensor *const *tensors,
                           size_t count, int dim)
{
    int64_t offset = 0;
    tsr_status st = TSR_OK;
    for (size_t i = 0; i < count && st == TSR_OK; i++) {
        const tsr_tensor *t = tensors[i];
        if (skipped_by_cat(t))
            continue;
        tsr_tensor *window;
        st = tsr_narrow(result, dim, offset, t->shape[dim], &window);
        if (st == TSR_OK) {
            st = tsr__copy_same_backend(op, window, t);
            tsr_tensor_release(window);
        }
        offset += t->shape[dim];
    }
    return st;
}

static tsr_status cat_named(const char *op, const tsr_tensor *const *tensors, size_t count,
                            int64_t dim, tsr_tensor **out)
{
    tsr_status st = check_list(op, tensors, count, out);
    if (st != TSR_OK)
        return st;
    tsr_dtype dtype = tensors[0]->dtype;
    size_t first = count;
    for (size_t i = 0; i < count; i++) {
        dtype = tsr__promote(dtype, tensors[i]->dtype);
        if (first == count && !skipped_by_cat(tensors[i]))
            first = i;
    }
    tsr_backend *b = tensors[0]->storage->backend;
    for (size_t i = 0; i < count && st == TSR_OK; i++)
        st = tsr__require_kernel(op, b, TSR_OP_COPY, tensors[i]->dtype, dtype);
    if (st != TSR_OK)
        return st;
    if (first == count) {
        int64_t zero = 0;
        return tsr__tensor_empty(op, b, dtype, 1, &zero, out);
    }
    int d;
    int64_t shape[TSR_MAX_DIMS];
    if (tensors[first]->ndim == 0)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: zero-dimensional tensor (at position %zu) "
                              "cannot be concatenated",
                              op, first);
    if ((st = tsr__wrap_dim(op, "dim", dim, tensors[first]->ndim, &d)) != TSR_OK ||
        (st = cat_shape(op, tensors, count, first, d, shape)) != TSR_OK)
        return st;
    tsr_tensor *result;
    if ((st = tsr__tensor_empty(op, b, dtype, tensors[first]->ndim, shape, &result)) != TSR_OK)
        return st;
    st = cat_fill(op, result, tensors, count, d);
    if (st == TSR_OK)
        st = tsr__grad_record_cat(tensors, count, d, result);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_cat(const tsr_tensor *const *tensors, size_t count, int64_t dim, tsr_tensor **out)
{
    return cat_named("cat", tensors, count, dim, out);
}

/* ------------------------------------------------------------------------ */
/* stack, hstack, vstack: cat of views                                       */
/* ------------------------------------------------------------------------ */

typedef tsr_status (*view_fn)(const tsr_tensor *t, int64_t arg, tsr_tensor **out);

static tsr_status unsqueeze_view(const tsr_tensor *t, int64_t dim, tsr_tensor **out)
{
    return tsr_unsqueeze(t, dim, out);
}

/* atleast_1d (arg 1) or atleast_2d (arg 2): 0-d and 1-d tensors gain leading
 * dims of size 1 (through the public view ops, which record gradients). */
static tsr_status atleast_view(const tsr_tensor *t, int64_t rank, tsr_tensor **out)
{
    if (t->ndim >= rank) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    if (t->ndim == 1)
        return tsr_unsqueeze(t, 0, out);
    const int64_t ones[2] = {1, 1};
    return tsr_reshape(t, (int)rank, ones, out);
}

/* cat of view(tensors[i], arg) along dim. */
static tsr_status cat_of_views(const char *op, const tsr_tensor *const *tensors, size_t count,
                               view_fn view, int64_t arg, int64_t dim, bool hstack,
                               tsr_tensor **out)
{
    tsr_status st = check_list(op, tensors, count, out);
    if (st != TSR_OK)
        return st;
    tsr_tensor **views = tsr__calloc(count, sizeof *views);
    if (!views)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", op);
    size_t made = 0;
    for (; made < count && st == TSR_OK; made++)
        st = view(tensors[made], arg, &views[made]);
    if (st == TSR_OK) {
        if (hstack)
            dim = views[0]->ndim == 1 ? 0 : 1;
        st = cat_named(op, (const tsr_tensor *const *)views, count, dim, out);
    }
    for (size_t i = 0; i < made; i++)
        tsr_tensor_release(views[i]);
    free(views);
    return st;
}

tsr_status tsr_stack(const tsr_tensor *const *tensors, size_t count, int64_t dim, tsr_tensor **out)
{
    tsr_status st = check_list("stack", tensors, count, out);
    if (st != TSR_OK)
        return st;
    const tsr_tensor *first = tensors[0];
    for (size_t i = 1; i < count; i++) {
        bool same = tensors[i]->ndim == first->ndim;
        for (int d = 0; same && d < first->ndim; d++)
            same = tensors[i]->shape[d] == first->shape[d];
        if (!same) {
            char a[160], b[160];
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "stack: expects each tensor to be equal size, "
                                  "but got %s at entry 0 and %s at entry %zu",
                                  tsr__shape_str(first->ndim, first->shape, a, sizeof a),
                                  tsr__shape_str(tensors[i]->ndim, tensors[i]->shape, b, sizeof b),
                                  i);
        }
    }
    if (first->ndim >= TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "stack: tensors already have %d dims", TSR_MAX_DIMS);
    int d;
    if ((st = tsr__wrap_dim("stack", "dim", dim, first->ndim + 1, &d)) != TSR_OK)
        return st;
    return cat_of_views("stack", tensors, count, unsqueeze_view, d, d, false, out);
}

tsr_status tsr_hstack(const tsr_tensor *const *tensors, size_t count, tsr_tensor **out)
{
    return cat_of_views("hstack", tensors, count, atleast_view, 1, 0, true, out);
}

tsr_status tsr_vstack(const tsr_tensor *const *tensors, size_t count, tsr_tensor **out)
{
    return cat_of_views("vstack", tensors, count, atleast_view, 2, 0, false, out);
}

/* ------------------------------------------------------------------------ */
/* split, chunk, unbind: views                                               */
/* ------------------------------------------------------------------------ */

static tsr_status split_dim(const char *op, const tsr_tensor *t, int64_t dim, int *d)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input must not be NULL", op);
    if (t->ndim == 0)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: expects at least a 1-dimensional tensor", op);
    return tsr__wrap_dim(op, "dim", dim, t->ndim, d);
}

/* The count-then-fill protocol of the splits. */
static tsr_status room_for(const char *op, size_t needed, tsr_tensor **outs, size_t capacity,
                           size_t *count)
{
    if (!count)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: count must not be NULL", op);
    *count = needed;
    if (outs && capacity < needed)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: room for %zu pieces, the split makes %zu", op, capacity, needed);
    return TSR_OK;
}

/* Narrowed views of t along d of the given sizes; all or nothing. */
static tsr_status pieces(const tsr_tensor *t, int d, const int64_t *sizes, size_t n,
                         tsr_tensor **outs)
{
    int64_t start = 0;
    for (size_t i = 0; i < n; i++) {
        tsr_status st = tsr_narrow(t, d, start, sizes[i], &outs[i]);
        if (st != TSR_OK) {
            /* all or nothing: the caller's array holds no released piece */
            for (size_t j = 0; j < i; j++) {
                tsr_tensor_release(outs[j]);
                outs[j] = NULL;
            }
            return st;
        }
        start += sizes[i];
    }
    return TSR_OK;
}

/* Pieces of `size` along d, the last one shorter; `n` of them. */
static tsr_status even_pieces(const char *op, const tsr_tensor *t, int d, int64_t size, size_t n,
                              tsr_tensor **outs)
{
    int64_t *sizes = tsr__malloc((n ? n : 1) * sizeof *sizes);
    if (!sizes)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", op);
    int64_t left = t->shape[d];
    for (size_t i = 0; i < n; i++) {
        sizes[i] = left < size ? left : size;
        left -= sizes[i];
    }
    tsr_status st = pieces(t, d, sizes, n, outs);
    free(sizes);
    return st;
}

tsr_status tsr_split(const tsr_tensor *t, int64_t split_size, int64_t dim, tsr_tensor **outs,
                     size_t capacity, size_t *count)
{
    int d;
    tsr_status st = split_dim("split", t, dim, &d);
    if (st != TSR_OK)
        return st;
    int64_t size = t->shape[d];
    if (split_size < 0)
        return tsr__set_error(TSR_ERR_VALUE, "split: split_size must be non-negative, got %lld",
                              (long long)split_size);
    if (split_size == 0 && size != 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "split: split_size can only be 0 if dimension size "
                              "is 0, but got dimension size of %lld",
                              (long long)size);
    /* rounds up without size + split_size, which a huge split_size overflows */
    int64_t n = split_size == 0 || size == 0 ? 1 : (size - 1) / split_size + 1;
    if ((st = room_for("split", (size_t)n, outs, capacity, count)) != TSR_OK || !outs)
        return st;
    return even_pieces("split", t, d, split_size, (size_t)n, outs);
}

tsr_status tsr_split_sections(const tsr_tensor *t, const int64_t *sections, size_t nsections,
                              int64_t dim, tsr_tensor **outs)
{
    int d;
    tsr_status st = split_dim("split", t, dim, &d);
    if (st != TSR_OK)
        return st;
    if (!outs || (nsections > 0 && !sections))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "split: sections and outs must not be NULL");
    int64_t total = 0;
    for (size_t i = 0; i < nsections; i++) {
        if (sections[i] < 0)
            return tsr__set_error(TSR_ERR_VALUE,
                                  "split: split_sizes must be non-negative, got "
                                  "%lld at position %zu",
                                  (long long)sections[i], i);
        if (__builtin_add_overflow(total, sections[i], &total))
            return tsr__set_error(TSR_ERR_OVERFLOW, "split: split_sizes overflow");
    }
    if (total != t->shape[d])
        return tsr__set_error(TSR_ERR_VALUE,
                              "split: split_sizes must sum exactly to %lld (the "
                              "size of dim %d), but sum to %lld",
                              (long long)t->shape[d], d, (long long)total);
    return pieces(t, d, sections, nsections, outs);
}

tsr_status tsr_chunk(const tsr_tensor *t, int64_t chunks, int64_t dim, tsr_tensor **outs,
                     size_t capacity, size_t *count)
{
    if (chunks <= 0)
        return tsr__set_error(TSR_ERR_VALUE, "chunk: chunks must be greater than 0, got %lld",
                              (long long)chunks);
    int d;
    tsr_status st = split_dim("chunk", t, dim, &d);
    if (st != TSR_OK)
        return st;
    int64_t size = t->shape[d];
    int64_t piece = size / chunks + (size % chunks != 0);
    /* An empty dim makes `chunks` empty pieces, where split would make one. */
    int64_t n = size == 0 ? chunks : (size + piece - 1) / piece;
    if ((st = room_for("chunk", (size_t)n, outs, capacity, count)) != TSR_OK || !outs)
        return st;
    return even_pieces("chunk", t, d, piece, (size_t)n, outs);
}

tsr_status tsr_unbind(const tsr_tensor *t, int64_t dim, tsr_tensor **outs, size_t capacity,
                      size_t *count)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "unbind: input must not be NULL");
    int d;
    tsr_status st = tsr__wrap_dim_strict("unbind", dim, t->ndim, &d);
    if (st != TSR_OK)
        return st;
    int64_t n = t->shape[d];
    if ((st = room_for("unbind", (size_t)n, outs, capacity, count)) != TSR_OK || !outs)
        return st;
    for (int64_t i = 0; i < n; i++) {
        tsr_tensor *slice = NULL;
        st = tsr_narrow(t, d, i, 1, &slice);
        if (st == TSR_OK)
            st = tsr_squeeze_dim(slice, d, &outs[i]);
        tsr_tensor_release(slice);
        if (st != TSR_OK) {
            for (int64_t j = 0; j < i; j++) {
                tsr_tensor_release(outs[j]);
                outs[j] = NULL;
            }
            return st;
        }
    }
    return TSR_OK;
}
