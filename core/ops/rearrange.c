/* Copying rearrangements: flip, roll, repeat, tile, repeat_interleave and
 * pad. Each is a copy of a zero-stride view (repeat, repeat_interleave) or
 * an index_select with a small index built on the host (flip, roll, the
 * reflect and replicate pads), so no backend needs a kernel of its own. */
#include "autograd/graph.h"
#include "runtime/alloc.h"
#include "tensor/copy.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/rearrange_grad.h"
#include "ops/index_util.h"
#include "tensor/shape.h"

#include <stdlib.h>

/* index_select of x along d with index[j] = map(j, params) for j < n. */
typedef int64_t (*index_map_fn)(int64_t j, const int64_t *params);

static tsr_status select_mapped(const char *op, const tsr_tensor *x, int d, int64_t n,
                                index_map_fn map, const int64_t *params, tsr_tensor **out)
{
    int64_t *values = tsr__malloc((size_t)(n > 0 ? n : 1) * sizeof *values);
    if (!values)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", op);
    for (int64_t j = 0; j < n; j++)
        values[j] = map(j, params);
    tsr_tensor *index;
    tsr_status st = tsr__index_from_host(op, x->storage->backend, values, n, &index);
    free(values);
    if (st != TSR_OK)
        return st;
    st = tsr_index_select(x, d, index, out);
    tsr_tensor_release(index);
    return st;
}

/* A rearrangement that moved nothing still returns a copy, as PyTorch does. */
static tsr_status finish(const tsr_tensor *t, tsr_tensor *x, tsr_status st, tsr_tensor **out)
{
    if (st == TSR_OK && !x)
        st = tsr_clone(t, &x);
    if (st != TSR_OK) {
        tsr_tensor_release(x);
        return st;
    }
    *out = x;
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* flip, roll                                                                */
/* ------------------------------------------------------------------------ */

static int64_t reversed(int64_t j, const int64_t *params)
{
    return params[0] - 1 - j;
}

/* params = {size, shift in [0, size)}: element j comes from j - shift. */
static int64_t rolled(int64_t j, const int64_t *params)
{
    return (j - params[1] + params[0]) % params[0];
}

tsr_status tsr_flip(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out)
{
    if (!t || !out || ndims < 0 || ndims > TSR_MAX_DIMS || (ndims > 0 && !dims))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "flip: input, dims and out must be given");
    bool seen[TSR_MAX_DIMS] = {false};
    int wrapped[TSR_MAX_DIMS];
    for (int i = 0; i < ndims; i++) {
        tsr_status st = tsr__wrap_dim("flip", "dims", dims[i], t->ndim, &wrapped[i]);
        if (st != TSR_OK)
            return st;
        if (seen[wrapped[i]])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "flip: dim %d appears multiple times in the list of dims",
                                  wrapped[i]);
        seen[wrapped[i]] = true;
    }
    tsr_tensor *x = NULL;
    tsr_status st = TSR_OK;
    for (int i = 0; i < ndims && st == TSR_OK && t->ndim > 0; i++) {
        int64_t n = t->shape[wrapped[i]];
        tsr_tensor *next;
        if (n <= 1)
            continue;
        st = select_mapped("flip", x ? x : t, wrapped[i], n, reversed, &n, &next);
        if (st == TSR_OK) {
            tsr_tensor_release(x);
            x = next;
        }
    }
    return finish(t, x, st, out);
}

static tsr_status roll_dims(const tsr_tensor *t, const int64_t *shifts, const int *dims, int n,
                            tsr_tensor **out)
{
    tsr_tensor *x = NULL;
    tsr_status st = TSR_OK;
    for (int i = 0; i < n && st == TSR_OK; i++) {
        int64_t size = t->shape[dims[i]];
        if (size == 0)
            continue;
        int64_t params[2] = {size, ((shifts[i] % size) + size) % size};
        tsr_tensor *next;
        if (params[1] == 0)
            continue;
        st = select_mapped("roll", x ? x : t, dims[i], size, rolled, params, &next);
        if (st == TSR_OK) {
            tsr_tensor_release(x);
            x = next;
        }
    }
    return finish(t, x, st, out);
}

tsr_status tsr_roll(const tsr_tensor *t, const int64_t *shifts, int nshifts, const int64_t *dims,
                    int ndims, tsr_tensor **out)
{
    if (!t || !out || (nshifts > 0 && !shifts) || (ndims > 0 && !dims))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "roll: input, shifts and out must be given");
    if (nshifts <= 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "roll: `shifts` required");
    if (nshifts != (ndims > 0 ? ndims : 1) || ndims > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "roll: shifts and dimensions must align. "
                              "shifts: %d, dims: %d",
                              nshifts, ndims);
    if (ndims == 0) {
        /* dims=None: roll the flattened tensor and give it back its shape */
        int64_t minus_one = -1;
        int zero = 0;
        tsr_tensor *flat = NULL, *moved = NULL;
        tsr_status st = tsr_reshape(t, 1, &minus_one, &flat);
        if (st == TSR_OK)
            st = roll_dims(flat, shifts, &zero, 1, &moved);
        if (st == TSR_OK)
            st = tsr_view(moved, t->ndim, t->shape, out);
        tsr_tensor_release(flat);
        tsr_tensor_release(moved);
        return st;
    }
    int wrapped[TSR_MAX_DIMS];
    for (int i = 0; i < ndims; i++) {
        tsr_status st = tsr__wrap_dim_strict("roll", dims[i], t->ndim, &wrapped[i]);
        if (st != TSR_OK)
            return st;
    }
    return roll_dims(t, shifts, wrapped, ndims, out);
}

/* ------------------------------------------------------------------------ */
/* repeat, tile, repeat_interleave: copies of zero-stride views              */
/* ------------------------------------------------------------------------ */

/* x with an extra axis of size before[i] in front of dim i wherever
 * before[i] != 1 and one of size after[i] behind it wherever after[i] != 1,
 * as expanded (zero-stride) views, then copied into x's rank with those
 * axes merged in. Only public view ops and reshape, so gradients flow. */
static tsr_status expand_copy(const char *op, const tsr_tensor *x, const int64_t *before,
                              const int64_t *after, tsr_tensor **out)
{
    int64_t sizes[TSR_MAX_DIMS], merged[TSR_MAX_DIMS];
    int rank = x->ndim;
    for (int i = 0; i < x->ndim; i++)
        rank += (before[i] != 1) + (after[i] != 1);
    if (rank > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: the repeated view needs more than %d dims", op,
                              TSR_MAX_DIMS);
    tsr_tensor *v = (tsr_tensor *)x, *next = NULL, *expanded = NULL;
    tsr_tensor_retain(x);
    tsr_status st = TSR_OK;
    int k = rank;
    for (int i = x->ndim - 1; i >= 0 && st == TSR_OK; i--) {
        if (after[i] != 1) {
            sizes[--k] = after[i];
            if ((st = tsr_unsqueeze(v, i + 1, &next)) == TSR_OK)
                tsr_tensor_release(v), v = next;
        }
        sizes[--k] = -1;
        if (st == TSR_OK && before[i] != 1) {
            sizes[--k] = before[i];
            if ((st = tsr_unsqueeze(v, i, &next)) == TSR_OK)
                tsr_tensor_release(v), v = next;
        }
        if (__builtin_mul_overflow(before[i], x->shape[i], &merged[i]) ||
            __builtin_mul_overflow(merged[i], after[i], &merged[i]))
            st = tsr__set_error(TSR_ERR_OVERFLOW, "%s: the size of dim %d overflows int64", op, i);
    }
    tsr_tensor *copy = NULL;
    if (st == TSR_OK)
        st = tsr_expand(v, rank, sizes, &expanded);
    if (st == TSR_OK)
        st = tsr_clone(expanded, &copy); /* a copy even when nothing repeats */
    if (st == TSR_OK)
        st = tsr_reshape(copy, x->ndim, merged, out);
    tsr_tensor_release(v);
    tsr_tensor_release(expanded);
    tsr_tensor_release(copy);
    return st;
}

static const int64_t ONES[TSR_MAX_DIMS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

static tsr_status repeat_named(const char *op, const tsr_tensor *t, const int64_t *repeats, int n,
                               tsr_tensor **out)
{
    if (n < t->ndim)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: number of dimensions of repeat dims (%d) can "
                              "not be smaller than number of dimensions of tensor "
                              "(%d)",
                              op, n, t->ndim);
    if (n > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: at most %d repeats", op, TSR_MAX_DIMS);
    for (int i = 0; i < n; i++) {
        if (repeats[i] < 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: trying to create tensor with negative "
                                  "dimension %lld",
                                  op, (long long)repeats[i]);
    }
    /* t with leading dims of size 1, then one zero-stride axis per repeat */
    int64_t shape[TSR_MAX_DIMS];
    int lead = n - t->ndim;
    for (int i = 0; i < n; i++)
        shape[i] = i < lead ? 1 : t->shape[i - lead];
    tsr_tensor *x = NULL;
    tsr_status st = tsr_reshape(t, n, shape, &x);
    if (st == TSR_OK)
        st = expand_copy(op, x, repeats, ONES, out);
    tsr_tensor_release(x);
    return st;
}

tsr_status tsr_repeat(const tsr_tensor *t, const int64_t *repeats, int nrepeats, tsr_tensor **out)
{
    if (!t || !out || nrepeats < 0 || (nrepeats > 0 && !repeats))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "repeat: input, repeats and out must be "
                                                        "given");
    return repeat_named("repeat", t, repeats, nrepeats, out);
}

tsr_status tsr_tile(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out)
{
    if (!t || !out || ndims < 0 || ndims > TSR_MAX_DIMS || (ndims > 0 && !dims))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tile: input, dims and out must be given");
    int64_t padded[TSR_MAX_DIMS];
    int n = ndims > t->ndim ? ndims : t->ndim, lead = n - ndims;
    for (int i = 0; i < n; i++)
        padded[i] = i < lead ? 1 : dims[i - lead];
    return repeat_named("tile", t, padded, n, out);
}

/* x flattened when dim is NULL (then d = 0), else x itself with d wrapped. */
static tsr_status interleave_input(const char *op, const tsr_tensor *t, const int64_t *dim,
                                   tsr_tensor **x, int *d)
{
    if (dim) {
        tsr_status st = tsr__wrap_dim_strict(op, *dim, t->ndim, d);
        if (st == TSR_OK) {
            tsr_tensor_retain(t);
            *x = (tsr_tensor *)t;
        }
        return st;
    }
    int64_t minus_one = -1;
    *d = 0;
    return tsr_reshape(t, 1, &minus_one, x);
}

static tsr_status interleave_int(const char *op, const tsr_tensor *t, int64_t repeats,
                                 const int64_t *dim, tsr_tensor **out)
{
    if (repeats < 0)
        return tsr__set_error(TSR_ERR_VALUE, "%s: repeats can not be negative, got %lld", op,
                              (long long)repeats);
    tsr_tensor *x;
    int d;
    tsr_status st = interleave_input(op, t, dim, &x, &d);
    if (st != TSR_OK)
        return st;
    int64_t after[TSR_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++)
        after[i] = i == d ? repeats : 1;
    st = expand_copy(op, x, ONES, after, out);
    tsr_tensor_release(x);
    return st;
}

tsr_status tsr_repeat_interleave(const tsr_tensor *t, int64_t repeats, const int64_t *dim,
                                 tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "repeat_interleave: input and out must "
                                                        "not be NULL");
    return interleave_int("repeat_interleave", t, repeats, dim, out);
}

/* Slice i of x along d repeated counts[i] times: an index_select with the
 * positions spelled out on the host. */
static tsr_status interleave_counts(const char *op, const tsr_tensor *x, int d,
                                    const int64_t *counts, tsr_tensor **out)
{
    int64_t n = x->shape[d], total = 0;
    for (int64_t i = 0; i < n; i++) {
        if (counts[i] < 0)
            return tsr__set_error(TSR_ERR_VALUE, "%s: repeats can not be negative, got %lld", op,
                                  (long long)counts[i]);
        if (__builtin_add_overflow(total, counts[i], &total))
            return tsr__set_error(TSR_ERR_OVERFLOW, "%s: the repeated size overflows", op);
    }
    int64_t *index = tsr__malloc((size_t)(total > 0 ? total : 1) * sizeof *index);
    if (!index)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory", op);
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t r = 0; r < counts[i]; r++)
            index[k++] = i;
    }
    tsr_tensor *positions;
    tsr_status st = tsr__index_from_host(op, x->storage->backend, index, total, &positions);
    free(index);
    if (st == TSR_OK) {
        st = tsr_index_select(x, d, positions, out);
        tsr_tensor_release(positions);
    }
    return st;
}

tsr_status tsr_repeat_interleave_tensor(const tsr_tensor *t, const tsr_tensor *repeats,
                                        const int64_t *dim, tsr_tensor **out)
{
    const char *op = "repeat_interleave";
    if (!t || !repeats || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors and out must not be NULL", op);
    if (repeats->dtype != TSR_INT64 && repeats->dtype != TSR_INT32)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: repeats must be an int64 or int32 tensor, got "
                              "%s",
                              op, tsr_dtype_name(repeats->dtype));
    if (repeats->ndim > 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: repeats must be 0-dim or 1-dim tensor", op);
    int64_t *counts;
    tsr_status st = tsr__read_int64(op, repeats, &counts);
    if (st != TSR_OK)
        return st;
    int64_t n = tsr_tensor_numel(repeats);
    tsr_tensor *x = NULL;
    int d = 0;
    if (n == 1) {
        st = interleave_int(op, t, counts[0], dim, out);
    } else if ((st = interleave_input(op, t, dim, &x, &d)) == TSR_OK) {
        if (n != x->shape[d])
            st = tsr__set_error(TSR_ERR_SHAPE,
                                "%s: repeats must have the same size as input "
                                "along dim (%lld and %lld)",
                                op, (long long)n, (long long)x->shape[d]);
        else
            st = interleave_counts(op, x, d, counts, out);
    }
    free(counts);
    tsr_tensor_release(x);
    return st;
}

/* ------------------------------------------------------------------------ */
/* pad                                                                       */
/* ------------------------------------------------------------------------ */

static tsr_status pad_constant(const tsr_tensor *t, const int64_t *pad, int npad, tsr_scalar value,
                               tsr_tensor **out)
{
    const char *op = "pad";
    /* F.pad's value is a Python float */
    if (value.kind != TSR_SCALAR_COMPLEX)
        value = tsr_scalar_float(tsr__scalar_to_double(value));
    tsr_status st = tsr__check_value_fits(op, value, t->dtype);
    if (st != TSR_OK)
        return st;
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++)
        shape[i] = t->shape[i];
    for (int i = 0; i < npad / 2; i++) {
        int d = t->ndim - 1 - i;
        int64_t l = pad[2 * i], r = pad[2 * i + 1];
        if (__builtin_add_overflow(t->shape[d], l, &shape[d]) ||
            __builtin_add_overflow(shape[d], r, &shape[d]))
            return tsr__set_error(TSR_ERR_OVERFLOW,
                                  "pad: padding (%lld, %lld) of dim %d of size %lld overflows "
                                  "int64",
                                  (long long)l, (long long)r, d, (long long)t->shape[d]);
        if (shape[d] < 0 || l < -t->shape[d] || r < -t->shape[d])
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "pad: padding (%lld, %lld) leaves dim %d of size "
                                  "%lld with a negative size",
                                  (long long)l, (long long)r, d, (long long)t->shape[d]);
    }
    tsr_tensor *result = NULL, *src = NULL, *dst = NULL;
    bool previous = tsr_grad_mode_set(false); /* pad records its own node */
    st = tsr_full(t->ndim, shape, value, t->dtype, t->storage->backend, &result);
    if (st == TSR_OK) {
        tsr_tensor_retain(t);
        src = (tsr_tensor *)t;
        tsr_tensor_retain(result);
        dst = result;
    }
    for (int i = 0; i < npad / 2 && st == TSR_OK; i++) {
        int d = t->ndim - 1 - i;
        int64_t l = pad[2 * i], r = pad[2 * i + 1];
        int64_t kept = t->shape[d] + (l < 0 ? l : 0) + (r < 0 ? r : 0);
        tsr_tensor *s2 = NULL, *d2 = NULL;
        st = tsr_narrow(src, d, l < 0 ? -l : 0, kept > 0 ? kept : 0, &s2);
        if (st == TSR_OK)
            st = tsr_narrow(dst, d, l > 0 ? l : 0, kept > 0 ? kept : 0, &d2);
        tsr_tensor_release(src);
        tsr_tensor_release(dst);
        src = s2, dst = d2;
    }
    if (st == TSR_OK)
        st = tsr__copy_same_backend(op, dst, src);
    tsr_grad_mode_set(previous);
    tsr_tensor_release(src);
    tsr_tensor_release(dst);
    if (st == TSR_OK)
        st = tsr__grad_record_pad(t, pad, npad, result);
    return finish(t, result, st, out);
}

static int64_t reflected(int64_t j, const int64_t *params)
{
    int64_t n = params[0], at = j - params[1];
    if (at < 0)
        at = -at;
    if (at >= n)
        at = 2 * (n - 1) - at;
    return at;
}

static int64_t replicated(int64_t j, const int64_t *params)
{
    /* a huge negative left padding (with a huge right one) puts j past
     * INT64_MAX of the input: the last element */
    int64_t n = params[0], at;
    if (__builtin_sub_overflow(j, params[1], &at))
        return n - 1;
    return at < 0 ? 0 : at >= n ? n - 1 : at;
}

/* Circular over the part that negative pads leave: params = {kept size,
 * its start in the input, the left pad when positive}. */
static int64_t circular(int64_t j, const int64_t *params)
{
    int64_t c = params[0], at = (j - params[2]) % c;
    return params[1] + (at < 0 ? at + c : at);
}

/* PyTorch 1.13's _pad_circular: pads over every dim after the first two,
 * none wrapping more than once, any dtype. */
static tsr_status pad_circular(const tsr_tensor *t, const int64_t *pad, int npad,
                               tsr_tensor **out)
{
    int k = npad / 2;
    if (t->ndim < 3 || t->ndim > 5 || k != t->ndim - 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "pad: circular padding of a %d-d input needs %d pad sizes, got %d "
                              "(3-d to 5-d inputs)",
                              t->ndim, 2 * (t->ndim - 2), npad);
    tsr_tensor *x = NULL;
    tsr_status st = TSR_OK;
    for (int i = 0; i < k && st == TSR_OK; i++) {
        int d = t->ndim - 1 - i;
        int64_t n = t->shape[d], l = pad[2 * i], r = pad[2 * i + 1];
        if (l > n || r > n)
            return finish(t, x, tsr__set_error(TSR_ERR_SHAPE, "pad: padding (%lld, %lld) of dim "
                                                              "%d of size %lld causes wrapping "
                                                              "around more than once",
                                               (long long)l, (long long)r, d, (long long)n),
                          out);
        int64_t size = n + l + r, kept = n + (l < 0 ? l : 0) + (r < 0 ? r : 0);
        if (size < 0 || (size > 0 && kept <= 0))
            return finish(t, x, tsr__set_error(TSR_ERR_SHAPE, "pad: negative padding (%lld, "
                                                              "%lld) of dim %d of size %lld "
                                                              "leaves nothing to wrap",
                                               (long long)l, (long long)r, d, (long long)n),
                          out);
        int64_t params[3] = {kept > 0 ? kept : 1, l < 0 ? -l : 0, l > 0 ? l : 0};
        tsr_tensor *next;
        st = select_mapped("pad", x ? x : t, d, size, circular, params, &next);
        if (st == TSR_OK) {
            tsr_tensor_release(x);
            x = next;
        }
    }
    return finish(t, x, st, out);
}

/* PyTorch's reflection_pad{1,2,3}d and replication_pad{1,2,3}d rules. */
static tsr_status check_pad_mode(const tsr_tensor *t, const int64_t *pad, int npad, bool reflect)
{
    int k = npad / 2;
    if (tsr__dtype_category(t->dtype) < TSR__CATEGORY_FLOATING || t->dtype == TSR_FLOAT16 ||
        t->dtype == TSR_BFLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE, "pad: %s padding is not implemented for %s",
                              reflect ? "reflect" : "replicate", tsr_dtype_name(t->dtype));
    if (k < 1 || k > 3 || t->ndim < k + 1 || t->ndim > k + 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "pad: only 2D, 3D, 4D, 5D padding with non-constant "
                              "padding are supported (%d pad sizes for a %d-d "
                              "input)",
                              npad, t->ndim);
    for (int i = 1; i < t->ndim; i++) {
        if (t->shape[i] == 0)
            return tsr__set_error(TSR_ERR_SHAPE, "pad: expected a tensor with possibly 0 batch "
                                                 "size and other non-zero dimensions");
    }
    for (int i = 0; i < k; i++) {
        int d = t->ndim - 1 - i;
        int64_t n = t->shape[d], l = pad[2 * i], r = pad[2 * i + 1];
        if (reflect && (l >= n || r >= n))
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "pad: padding size should be less than the "
                                  "corresponding input dimension, but got padding "
                                  "(%lld, %lld) at dimension %d of size %lld",
                                  (long long)l, (long long)r, d, (long long)n);
        int64_t total;
        if (__builtin_add_overflow(n, l, &total) || __builtin_add_overflow(total, r, &total))
            return tsr__set_error(TSR_ERR_OVERFLOW,
                                  "pad: padding (%lld, %lld) of dim %d of size %lld overflows "
                                  "int64",
                                  (long long)l, (long long)r, d, (long long)n);
        if (total < 1)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "pad: input dim %d of size %lld is too small for "
                                  "padding (%lld, %lld)",
                                  d, (long long)n, (long long)l, (long long)r);
    }
    return TSR_OK;
}

tsr_status tsr_pad(const tsr_tensor *t, const int64_t *pad, int npad, int mode, tsr_scalar value,
                   tsr_tensor **out)
{
    if (!t || !out || npad < 0 || (npad > 0 && !pad))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "pad: input, pad and out must be given");
    if (npad % 2 != 0)
        return tsr__set_error(TSR_ERR_VALUE, "pad: padding length must be divisible by 2, got %d",
                              npad);
    if (npad / 2 > t->ndim)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "pad: padding length too large (%d sizes for %d "
                              "dims)",
                              npad, t->ndim);
    if (mode == TSR_PAD_CONSTANT)
        return pad_constant(t, pad, npad, value, out);
    if (mode == TSR_PAD_CIRCULAR)
        return pad_circular(t, pad, npad, out);
    if (mode != TSR_PAD_REFLECT && mode != TSR_PAD_REPLICATE)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "pad: unrecognised padding mode %d", mode);
    bool reflect = mode == TSR_PAD_REFLECT;
    tsr_status st = check_pad_mode(t, pad, npad, reflect);
    tsr_tensor *x = NULL;
    for (int i = 0; i < npad / 2 && st == TSR_OK; i++) {
        int d = t->ndim - 1 - i;
        int64_t params[2] = {t->shape[d], pad[2 * i]};
        int64_t n = t->shape[d] + pad[2 * i] + pad[2 * i + 1];
        tsr_tensor *next;
        st = select_mapped("pad", x ? x : t, d, n, reflect ? reflected : replicated, params, &next);
        if (st == TSR_OK) {
            tsr_tensor_release(x);
            x = next;
        }
    }
    return finish(t, x, st, out);
}
