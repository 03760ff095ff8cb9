/* Views: new geometry over the same storage. */
#include "autograd/graph.h"
#include "tensor/copy.h"
#include "runtime/error.h"
#include "tensor/shape.h"
#include "ops/views_grad.h"

#include <string.h>

#define CHECK_ARGS(op, t, out)                                                             \
    do {                                                                                   \
        if (!(t) || !(out))                                                                \
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,                                \
                                  "%s: input and out must not be NULL", op);               \
    } while (0)

/* A view of t with this geometry, recorded for autograd as `args` says. */
static tsr_status make_view(const tsr_tensor *t, int ndim, const int64_t *shape,
                            const int64_t *strides, int64_t offset, const tsr__view_args *args,
                            tsr_tensor **out)
{
    tsr_tensor *result = NULL;
    tsr_status st = tsr__tensor_restride(t, ndim, shape, strides, offset, &result);
    if (st != TSR_OK)
        tsr__prefix_error("%s", args->name);
    return tsr__grad_view(st, args, t, result, true, out);
}

/* Resolves one -1 in a requested shape against numel. */
static tsr_status infer_size(const char *op, int64_t numel, int ndim, const int64_t *req,
                             int64_t *shape)
{
    int infer = -1;
    int64_t known = 1;
    if (ndim < 0 || ndim > TSR_MAX_DIMS || (ndim > 0 && !req))
        return tsr__set_error(TSR_ERR_SHAPE, "%s: shape must have 0 to %d dims, got %d", op,
                              TSR_MAX_DIMS, ndim);
    for (int i = 0; i < ndim; i++) {
        if (req[i] == -1) {
            if (infer >= 0)
                return tsr__set_error(TSR_ERR_SHAPE, "%s: only one dimension can be inferred", op);
            infer = i;
        } else if (req[i] < 0) {
            return tsr__set_error(TSR_ERR_SHAPE, "%s: invalid shape dimension %lld", op,
                                  (long long)req[i]);
        } else if (__builtin_mul_overflow(known, req[i], &known)) {
            return tsr__set_error(TSR_ERR_OVERFLOW, "%s: shape's element count overflows", op);
        }
        shape[i] = req[i];
    }
    char buf[200];
    if (infer >= 0) {
        if (known == 0 || numel % known != 0)
            return tsr__set_error(TSR_ERR_SHAPE, "%s: shape %s is invalid for input of size %lld",
                                  op, tsr__shape_str(ndim, req, buf, sizeof buf), (long long)numel);
        shape[infer] = numel / known;
    } else if (known != numel) {
        return tsr__set_error(TSR_ERR_SHAPE, "%s: shape %s is invalid for input of size %lld", op,
                              tsr__shape_str(ndim, req, buf, sizeof buf), (long long)numel);
    }
    return TSR_OK;
}

/* Strides for viewing t as `shape` without copying, if the old strides allow
 * it: each run of old dims that is contiguous within itself maps onto a run of
 * new dims with the same element count. */
static bool view_strides(const tsr_tensor *t, int ndim, const int64_t *shape, int64_t *strides)
{
    if (tsr_tensor_numel(t) == 0 || t->ndim == 0) {
        tsr__contiguous_strides(ndim, shape, strides);
        return true;
    }
    int view_d = ndim - 1;
    int64_t chunk_stride = t->strides[t->ndim - 1], tensor_numel = 1, view_numel = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        tensor_numel *= t->shape[d];
        bool chunk_ends = d == 0 || (t->shape[d - 1] != 1 &&
                                     t->strides[d - 1] != tensor_numel * chunk_stride);
        if (!chunk_ends)
            continue;
        while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
            strides[view_d] = view_numel * chunk_stride;
            view_numel *= shape[view_d];
            view_d--;
        }
        if (view_numel != tensor_numel)
            return false;
        if (d > 0) {
            chunk_stride = t->strides[d - 1];
            tensor_numel = 1;
            view_numel = 1;
        }
    }
    return view_d == -1;
}

tsr_status tsr_view(const tsr_tensor *t, int ndim, const int64_t *req, tsr_tensor **out)
{
    CHECK_ARGS("view", t, out);
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    tsr_status st = infer_size("view", tsr_tensor_numel(t), ndim, req, shape);
    if (st != TSR_OK)
        return st;
    if (!view_strides(t, ndim, shape, strides))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "view: size is not compatible with the input's strides (at least "
                              "one dimension spans two contiguous subspaces); use reshape");
    tsr__view_args args = {TSR__VIEW_RESHAPE, "view", {0}};
    return make_view(t, ndim, shape, strides, t->offset, &args, out);
}

tsr_status tsr_reshape(const tsr_tensor *t, int ndim, const int64_t *req, tsr_tensor **out)
{
    CHECK_ARGS("reshape", t, out);
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    tsr_status st = infer_size("reshape", tsr_tensor_numel(t), ndim, req, shape);
    if (st != TSR_OK)
        return st;
    tsr__view_args args = {TSR__VIEW_RESHAPE, "reshape", {0}};
    if (view_strides(t, ndim, shape, strides))
        return make_view(t, ndim, shape, strides, t->offset, &args, out);
    tsr_tensor *copy, *result = NULL;
    if ((st = tsr__materialize("reshape", t, &copy)) != TSR_OK)
        return st;
    tsr__contiguous_strides(ndim, shape, strides);
    st = tsr__tensor_restride(copy, ndim, shape, strides, copy->offset, &result);
    tsr_tensor_release(copy);
    return tsr__grad_view(st, &args, t, result, false, out);
}

tsr_status tsr_transpose(const tsr_tensor *t, int64_t dim0, int64_t dim1, tsr_tensor **out)
{
    CHECK_ARGS("transpose", t, out);
    int d0, d1;
    tsr_status st = tsr__wrap_dim("transpose", "dim0", dim0, t->ndim, &d0);
    if (st == TSR_OK)
        st = tsr__wrap_dim("transpose", "dim1", dim1, t->ndim, &d1);
    if (st != TSR_OK)
        return st;
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    if (t->ndim > 0) {
        shape[d0] = t->shape[d1], shape[d1] = t->shape[d0];
        strides[d0] = t->strides[d1], strides[d1] = t->strides[d0];
    }
    tsr__view_args args = {TSR__VIEW_TRANSPOSE, "transpose", {d0, d1}};
    return make_view(t, t->ndim, shape, strides, t->offset, &args, out);
}

tsr_status tsr_permute(const tsr_tensor *t, int ndim, const int64_t *dims, tsr_tensor **out)
{
    CHECK_ARGS("permute", t, out);
    if (ndim != t->ndim || (ndim > 0 && !dims))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "permute: number of dims (%d) does not match the input's rank (%d)",
                              ndim, t->ndim);
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    bool seen[TSR_MAX_DIMS] = {false};
    tsr__view_args args = {TSR__VIEW_PERMUTE, "permute", {0}};
    for (int i = 0; i < ndim; i++) {
        int d;
        tsr_status st = tsr__wrap_dim("permute", "dims", dims[i], ndim, &d);
        if (st != TSR_OK)
            return st;
        if (seen[d])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "permute: dim %d appears twice in dims", d);
        seen[d] = true;
        args.p[i] = d;
        shape[i] = t->shape[d];
        strides[i] = t->strides[d];
    }
    return make_view(t, ndim, shape, strides, t->offset, &args, out);
}

tsr_status tsr_expand(const tsr_tensor *t, int ndim, const int64_t *sizes, tsr_tensor **out)
{
    CHECK_ARGS("expand", t, out);
    if (ndim < t->ndim || ndim > TSR_MAX_DIMS || (ndim > 0 && !sizes))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "expand: the number of sizes (%d) must be at least the tensor's "
                              "rank (%d) and at most %d",
                              ndim, t->ndim, TSR_MAX_DIMS);
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int lead = ndim - t->ndim;
    for (int i = 0; i < ndim; i++) {
        int j = i - lead;
        if (j < 0) {
            if (sizes[i] < 0)
                return tsr__set_error(TSR_ERR_SHAPE, "expand: size %lld is not allowed in a new "
                                                     "leading dimension %d", (long long)sizes[i], i);
            shape[i] = sizes[i], strides[i] = 0;
        } else if (sizes[i] == -1 || sizes[i] == t->shape[j]) {
            shape[i] = t->shape[j], strides[i] = t->strides[j];
        } else if (t->shape[j] == 1 && sizes[i] >= 0) {
            shape[i] = sizes[i], strides[i] = 0;
        } else {
            return tsr__set_error(TSR_ERR_SHAPE, "expand: size %lld of dim %d must match the "
                                                 "existing size %lld (or it must be 1)",
                                  (long long)sizes[i], i, (long long)t->shape[j]);
        }
    }
    tsr_status st = tsr__check_shape("expand", "sizes", ndim, shape, tsr_dtype_size(t->dtype), NULL);
    if (st != TSR_OK)
        return st;
    tsr__view_args args = {TSR__VIEW_EXPAND, "expand", {0}};
    return make_view(t, ndim, shape, strides, t->offset, &args, out);
}

tsr_status tsr_slice(const tsr_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step,
                     tsr_tensor **out)
{
    CHECK_ARGS("slice", t, out);
    if (t->ndim == 0)
        return tsr__set_error(TSR_ERR_INDEX, "slice: cannot slice a 0-d tensor");
    int d;
    tsr_status st = tsr__wrap_dim("slice", "dim", dim, t->ndim, &d);
    if (st != TSR_OK)
        return st;
    if (step <= 0)
        return tsr__set_error(TSR_ERR_VALUE, "slice: step must be positive, got %lld", (long long)step);
    int64_t size = t->shape[d];
    if (start < 0)
        start = start < -size ? 0 : start + size;
    if (end < 0)
        end = end < -size ? 0 : end + size;
    start = start > size ? size : start;
    end = end > size ? size : end < start ? start : end;
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    /* 0 <= start <= end <= size here, so neither the length nor the
     * offset can overflow; a huge step gives one element, whose stride is
     * never used to step, so it keeps the input's stride. */
    int64_t length = end - start, offset;
    shape[d] = length == 0 ? 0 : (length - 1) / step + 1;
    if (shape[d] > 1 && __builtin_mul_overflow(t->strides[d], step, &strides[d]))
        return tsr__set_error(TSR_ERR_OVERFLOW, "slice: stride %lld times step %lld overflows",
                              (long long)t->strides[d], (long long)step);
    if (__builtin_mul_overflow(start, t->strides[d], &offset) ||
        __builtin_add_overflow(t->offset, offset, &offset))
        return tsr__set_error(TSR_ERR_OVERFLOW, "slice: the offset of start %lld overflows",
                              (long long)start);
    tsr__view_args args = {TSR__VIEW_SLICE, "slice", {d, start, end, step}};
    return make_view(t, t->ndim, shape, strides, offset, &args, out);
}

tsr_status tsr_narrow(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length,
                      tsr_tensor **out)
{
    CHECK_ARGS("narrow", t, out);
    if (t->ndim == 0)
        return tsr__set_error(TSR_ERR_INDEX, "narrow: cannot be applied to a 0-d tensor");
    int d;
    tsr_status st = tsr__wrap_dim("narrow", "dim", dim, t->ndim, &d);
    if (st != TSR_OK)
        return st;
    int64_t size = t->shape[d];
    if (start < -size || start > size)
        return tsr__set_error(TSR_ERR_INDEX, "narrow: start %lld is out of range for dim %d of size %lld",
                              (long long)start, d, (long long)size);
    if (start < 0)
        start += size;
    if (length < 0 || length > size - start)
        return tsr__set_error(TSR_ERR_INDEX, "narrow: start (%lld) + length (%lld) exceeds dim %d of size %lld",
                              (long long)start, (long long)length, d, (long long)size);
    return tsr_slice(t, d, start, start + length, 1, out);
}

static tsr_status drop_dims(const tsr_tensor *t, const bool *drop, tsr_tensor **out)
{
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (!drop[i])
            shape[n] = t->shape[i], strides[n++] = t->strides[i];
    }
    tsr__view_args args = {TSR__VIEW_RESHAPE, "squeeze", {0}};
    return make_view(t, n, shape, strides, t->offset, &args, out);
}

tsr_status tsr_squeeze(const tsr_tensor *t, tsr_tensor **out)
{
    CHECK_ARGS("squeeze", t, out);
    bool drop[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++)
        drop[i] = t->shape[i] == 1;
    return drop_dims(t, drop, out);
}

tsr_status tsr_squeeze_dim(const tsr_tensor *t, int64_t dim, tsr_tensor **out)
{
    CHECK_ARGS("squeeze", t, out);
    int d;
    tsr_status st = tsr__wrap_dim("squeeze", "dim", dim, t->ndim, &d);
    if (st != TSR_OK)
        return st;
    bool drop[TSR_MAX_DIMS] = {false};
    if (t->ndim > 0)
        drop[d] = t->shape[d] == 1;
    return drop_dims(t, drop, out);
}

tsr_status tsr_unsqueeze(const tsr_tensor *t, int64_t dim, tsr_tensor **out)
{
    CHECK_ARGS("unsqueeze", t, out);
    if (t->ndim >= TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "unsqueeze: tensor already has %d dims", TSR_MAX_DIMS);
    int d;
    tsr_status st = tsr__wrap_dim("unsqueeze", "dim", dim, t->ndim + 1, &d);
    if (st != TSR_OK)
        return st;
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    for (int i = 0, j = 0; i <= t->ndim; i++) {
        if (i == d) {
            shape[i] = 1;
            strides[i] = d < t->ndim ? t->shape[d] * t->strides[d] : 1;
        } else {
            shape[i] = t->shape[j], strides[i] = t->strides[j];
            j++;
        }
    }
    tsr__view_args args = {TSR__VIEW_RESHAPE, "unsqueeze", {0}};
    return make_view(t, t->ndim + 1, shape, strides, t->offset, &args, out);
}

tsr_status tsr_diagonal(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2,
                        tsr_tensor **out)
{
    CHECK_ARGS("diagonal", t, out);
    if (t->ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE, "diagonal: input must have at least 2 dims, got %d", t->ndim);
    int d1, d2;
    tsr_status st = tsr__wrap_dim("diagonal", "dim1", dim1, t->ndim, &d1);
    if (st == TSR_OK)
        st = tsr__wrap_dim("diagonal", "dim2", dim2, t->ndim, &d2);
    if (st != TSR_OK)
        return st;
    if (d1 == d2)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "diagonal: dim1 and dim2 cannot be the same (%d)", d1);
    int64_t n1 = t->shape[d1], n2 = t->shape[d2], start = t->offset, len;
    if (offset >= 0) {
        len = n1 < n2 - offset ? n1 : n2 - offset;
        if (len > 0)
            start += offset * t->strides[d2];
    } else {
        len = n1 + offset < n2 ? n1 + offset : n2;
        if (len > 0)
            start -= offset * t->strides[d1];
    }
    int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (i != d1 && i != d2)
            shape[n] = t->shape[i], strides[n++] = t->strides[i];
    }
    shape[n] = len > 0 ? len : 0;
    strides[n++] = t->strides[d1] + t->strides[d2];
    tsr__view_args args = {TSR__VIEW_DIAGONAL, "diagonal", {offset, d1, d2}};
    return make_view(t, n, shape, strides, len > 0 ? start : t->offset, &args, out);
}

tsr_status tsr_flatten(const tsr_tensor *t, int64_t start_dim, int64_t end_dim, tsr_tensor **out)
{
    CHECK_ARGS("flatten", t, out);
    int s, e;
    tsr_status st = tsr__wrap_dim("flatten", "start_dim", start_dim, t->ndim, &s);
    if (st == TSR_OK)
        st = tsr__wrap_dim("flatten", "end_dim", end_dim, t->ndim, &e);
    if (st != TSR_OK)
        return st;
    if (s > e)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "flatten: start_dim (%d) cannot come after end_dim (%d)", s, e);
    if (t->ndim == 0) {
        int64_t one = 1;
        return tsr_reshape(t, 1, &one, out);
    }
    int64_t shape[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (i <= s || i > e)
            shape[n++] = t->shape[i];
        else
            shape[n - 1] *= t->shape[i];
    }
    return tsr_reshape(t, n, shape, out);
}

tsr_status tsr_unflatten(const tsr_tensor *t, int64_t dim, int nsizes, const int64_t *sizes,
                         tsr_tensor **out)
{
    CHECK_ARGS("unflatten", t, out);
    int d;
    tsr_status st = tsr__wrap_dim("unflatten", "dim", dim, t->ndim, &d);
    if (st != TSR_OK)
        return st;
    if (t->ndim == 0)
        return tsr__set_error(TSR_ERR_SHAPE, "unflatten: cannot unflatten a 0-d tensor");
    if (nsizes < 1 || t->ndim - 1 + nsizes > TSR_MAX_DIMS || !sizes)
        return tsr__set_error(TSR_ERR_SHAPE, "unflatten: sizes must be non-empty and keep the rank "
                                             "at most %d", TSR_MAX_DIMS);
    int64_t inner[TSR_MAX_DIMS];
    if ((st = infer_size("unflatten", t->shape[d], nsizes, sizes, inner)) != TSR_OK)
        return st;
    int64_t shape[TSR_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (i == d) {
            for (int j = 0; j < nsizes; j++)
                shape[n++] = inner[j];
        } else {
            shape[n++] = t->shape[i];
        }
    }
    return tsr_view(t, n, shape, out);
}
