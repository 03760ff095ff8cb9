/* Masks: masked_fill (a where with the value as a scalar of t's dtype),
 * masked_select (index_select at the mask's nonzero positions) and nonzero,
 * whose output size is counted first. */
#include "autograd/graph.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "ops/elementwise.h"
#include "runtime/error.h"
#include "ops/mask_grad.h"
#include "ops/index_util.h"
#include "tensor/shape.h"
#include "ops/inplace.h"

#include <stdlib.h>

/* bool, or the deprecated uint8 holding only 0 and 1 (which PyTorch checks).
 * PyTorch 1.13's masked_fill also takes wider integer masks, reading the
 * first byte of each element as a bool; tessera reads them as nonzero,
 * which agrees for every value that fits a byte. */
static tsr_status check_mask(const char *op, const tsr_tensor *mask, bool wide_integers)
{
    if (mask->dtype == TSR_BOOL ||
        (wide_integers && tsr_dtype_is_integral(mask->dtype, false) && mask->dtype != TSR_UINT8))
        return TSR_OK;
    if (mask->dtype != TSR_UINT8)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: expected a bool (or uint8) mask, got %s", op,
                              tsr_dtype_name(mask->dtype));
    int64_t *values;
    tsr_status st = tsr__read_int64(op, mask, &values);
    if (st != TSR_OK)
        return st;
    int64_t n = tsr_tensor_numel(mask);
    for (int64_t i = 0; i < n && st == TSR_OK; i++) {
        if (values[i] != 0 && values[i] != 1)
            st = tsr__set_error(TSR_ERR_VALUE,
                                "%s: a uint8 mask can take 0 and 1 values only, "
                                "got %lld",
                                op, (long long)values[i]);
    }
    free(values);
    return st;
}

/* The fill value as a scalar checked against dtype: a 0-d tensor's value
 * is read back, as PyTorch's item() does. */
static tsr_status fill_value(const char *op, tsr_operand value, tsr_dtype dtype, tsr_scalar *out)
{
    if (value.tensor) {
        if (value.tensor->ndim != 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: only supports a 0-dimensional value "
                                  "tensor, but got a tensor with %d dimension(s)",
                                  op, value.tensor->ndim);
        tsr_status st = tsr__item(op, value.tensor, out);
        if (st != TSR_OK)
            return st;
    } else if (tsr__check_operand(op, "value", value) != TSR_OK) {
        return TSR_ERR_INVALID_ARGUMENT;
    } else {
        *out = value.scalar;
    }
    return tsr__check_value_fits(op, *out, dtype);
}

static tsr_status masked_fill_named(const char *op, const tsr_tensor *t, const tsr_tensor *mask,
                                    tsr_operand value, tsr_tensor **out)
{
    if (!t || !mask || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input, mask and out must not be NULL",
                              op);
    const tsr_tensor *all[3] = {t, mask, value.tensor};
    tsr_backend *b;
    tsr_scalar scalar;
    tsr_status st = tsr__common_backend(op, all, 3, &b);
    if (st == TSR_OK)
        st = check_mask(op, mask, true);
    if (st == TSR_OK)
        st = fill_value(op, value, t->dtype, &scalar);
    if (st != TSR_OK)
        return st;
    tsr_operand operands[3] = {tsr_operand_tensor(mask), tsr_operand_scalar(scalar),
                               tsr_operand_tensor(t)};
    tsr_dtype kept[3] = {TSR_BOOL, TSR_DTYPE_INFER, TSR_DTYPE_INFER};
    tsr_tensor *result = NULL, *bool_mask = NULL;
    bool previous = tsr_grad_mode_set(false);
    st = tsr__elementwise_kept(TSR_OP_WHERE, op, operands, 3, kept, t->dtype, t->dtype, NULL,
                               &result);
    if (st == TSR_OK)
        st = tsr_to_dtype(mask, TSR_BOOL, &bool_mask);
    tsr_grad_mode_set(previous);
    if (st == TSR_OK)
        st = tsr__grad_record_masked_fill(t, bool_mask, value.tensor, result);
    tsr_tensor_release(bool_mask);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_masked_fill(const tsr_tensor *t, const tsr_tensor *mask, tsr_operand value,
                           tsr_tensor **out)
{
    return masked_fill_named("masked_fill", t, mask, value, out);
}

/* PyTorch only warns about an expanded self here; writing the same memory
 * from several elements is refused like every other in-place op. */
tsr_status tsr_masked_fill_(tsr_tensor *self, const tsr_tensor *mask, tsr_operand value)
{
    const char *op = "masked_fill_";
    if (!self || !mask)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: self and mask must not be NULL", op);
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    tsr_status st =
        tsr__broadcast_shapes(op, self->ndim, self->shape, mask->ndim, mask->shape, &ndim, shape);
    if (st != TSR_OK)
        return st;
    if (ndim != self->ndim || tsr__numel(ndim, shape) != tsr_tensor_numel(self)) {
        char a[160], b[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: output with shape %s doesn't match the "
                              "broadcast shape %s",
                              op, tsr__shape_str(self->ndim, self->shape, a, sizeof a),
                              tsr__shape_str(ndim, shape, b, sizeof b));
    }
    if ((st = tsr__check_inplace_target(op, self, NULL, 0)) != TSR_OK)
        return st;
    tsr__inplace ip;
    tsr_operand others[2] = {tsr_operand_tensor(mask), value};
    if ((st = tsr__inplace_begin(op, self, others, 2, false, &ip)) != TSR_OK)
        return st;
    value = tsr__inplace_operands(&ip, others)[1];
    /* the filled copy records nothing; self's node is recorded below */
    tsr_tensor *filled = NULL, *bool_mask = NULL;
    bool previous = tsr_grad_mode_set(false);
    st = masked_fill_named(op, self, mask, value, &filled);
    if (st == TSR_OK)
        st = tsr__copy_same_backend(op, self, filled);
    if (st == TSR_OK && ip.active)
        st = tsr_to_dtype(mask, TSR_BOOL, &bool_mask);
    tsr_grad_mode_set(previous);
    if (st == TSR_OK)
        tsr__bump_version(self);
    if (st == TSR_OK && ip.active)
        st = tsr__grad_record_masked_fill(ip.old, bool_mask, value.tensor, self);
    tsr_tensor_release(filled);
    tsr_tensor_release(bool_mask);
    tsr__inplace_end(&ip);
    return st;
}

/* ------------------------------------------------------------------------ */
/* nonzero, masked_select                                                    */
/* ------------------------------------------------------------------------ */

static tsr_status nonzero_named(const char *op, const tsr_tensor *t, tsr_tensor **out)
{
    tsr_backend *b = t->storage->backend;
    tsr_status st = tsr__require_kernel(op, b, TSR_OP_NONZERO, t->dtype, TSR_INT64);
    int64_t count = 0;
    if (st == TSR_OK)
        st = tsr__count_nonzero(op, t, &count);
    if (st != TSR_OK)
        return st;
    int64_t shape[2] = {count, t->ndim};
    tsr_tensor *t1 = NULL, *result = NULL;
    st = tsr__tensor_empty(op, b, TSR_INT64, 2, shape, &result);
    if (st == TSR_OK)
        st = tsr__at_least_1d(t, &t1);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs};
    if (st == TSR_OK)
        st = tsr__launch(TSR_OP_NONZERO, t->dtype, TSR_INT64, (const tsr_tensor *const *)&t1, 1,
                         &result, 1, &attrs);
    tsr_tensor_release(t1);
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}

tsr_status tsr_nonzero(const tsr_tensor *t, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "nonzero: input and out must not be NULL");
    return nonzero_named("nonzero", t, out);
}

tsr_status tsr_nonzero_tuple(const tsr_tensor *t, tsr_tensor **outs, size_t capacity,
                             size_t *count)
{
    if (!t || !count)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "nonzero: input and count must not be NULL");
    /* PyTorch reads a 0-d input as 1-d here: one index tensor, not none */
    size_t n = t->ndim > 0 ? (size_t)t->ndim : 1;
    *count = n;
    if (!outs)
        return TSR_OK;
    if (capacity < n)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "nonzero: as_tuple gives %zu tensors, capacity is %zu", n, capacity);
    int64_t one = 1;
    tsr_tensor *flat = NULL, *coords = NULL;
    tsr_status st = t->ndim > 0 ? nonzero_named("nonzero", t, &coords)
                                : tsr_reshape(t, 1, &one, &flat);
    if (st == TSR_OK && flat)
        st = nonzero_named("nonzero", flat, &coords);
    size_t got = 0;
    if (st == TSR_OK)
        st = tsr_unbind(coords, 1, outs, capacity, &got);
    tsr_tensor_release(flat);
    tsr_tensor_release(coords);
    return st;
}

/* t and mask broadcast together and flattened (copies where needed). */
static tsr_status flat_pair(const char *op, const tsr_tensor *t, const tsr_tensor *mask,
                            tsr_tensor **flat_t, tsr_tensor **flat_mask)
{
    int ndim;
    int64_t shape[TSR_MAX_DIMS], minus_one = -1;
    tsr_status st =
        tsr__broadcast_shapes(op, t->ndim, t->shape, mask->ndim, mask->shape, &ndim, shape);
    tsr_tensor *et = NULL, *em = NULL, *bool_mask = NULL;
    if (st == TSR_OK)
        st = tsr_to_dtype(mask, TSR_BOOL, &bool_mask);
    if (st == TSR_OK)
        st = tsr_expand(t, ndim, shape, &et);
    if (st == TSR_OK)
        st = tsr_expand(bool_mask, ndim, shape, &em);
    *flat_t = *flat_mask = NULL;
    if (st == TSR_OK)
        st = tsr_reshape(et, 1, &minus_one, flat_t);
    if (st == TSR_OK)
        st = tsr_reshape(em, 1, &minus_one, flat_mask);
    tsr_tensor_release(et);
    tsr_tensor_release(em);
    tsr_tensor_release(bool_mask);
    if (st != TSR_OK) {
        /* the caller releases the out-parameters too: leave them NULL */
        tsr_tensor_release(*flat_t);
        tsr_tensor_release(*flat_mask);
        *flat_t = *flat_mask = NULL;
    }
    return st;
}

tsr_status tsr_masked_select(const tsr_tensor *t, const tsr_tensor *mask, tsr_tensor **out)
{
    const char *op = "masked_select";
    if (!t || !mask || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input, mask and out must not be NULL",
                              op);
    const tsr_tensor *both[2] = {t, mask};
    tsr_backend *b;
    tsr_status st = tsr__common_backend(op, both, 2, &b);
    if (st == TSR_OK)
        st = check_mask(op, mask, false);
    tsr_tensor *flat_t = NULL, *flat_mask = NULL, *positions = NULL, *column = NULL;
    if (st == TSR_OK)
        st = flat_pair(op, t, mask, &flat_t, &flat_mask);
    if (st == TSR_OK)
        st = nonzero_named(op, flat_mask, &positions);
    if (st == TSR_OK)
        st = tsr_squeeze_dim(positions, 1, &column);
    if (st == TSR_OK)
        st = tsr_index_select(flat_t, 0, column, out);
    tsr_tensor_release(flat_t);
    tsr_tensor_release(flat_mask);
    tsr_tensor_release(positions);
    tsr_tensor_release(column);
    return st;
}
