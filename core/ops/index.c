/* Selecting by index: index_select, gather, take, take_along_dim,
 * embedding, one_hot, and the triangles tril and triu. index_select and
 * gather are kernels; the rest are built from them and from views. */
#include "autograd/graph.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/index_grad.h"
#include "ops/rearrange_grad.h"
#include "ops/index_util.h"
#include "tensor/shape.h"

#include <stdlib.h>
#include <string.h>

static tsr_status check_pair(const char *op, const tsr_tensor *t, const tsr_tensor *index,
                             tsr_tensor **out)
{
    if (!t || !index || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors and out must not be NULL", op);
    const tsr_tensor *both[2] = {t, index};
    tsr_backend *b;
    return tsr__common_backend(op, both, 2, &b);
}

/* ------------------------------------------------------------------------ */
/* index_select                                                              */
/* ------------------------------------------------------------------------ */

/* Names the caller instead of the kernel when it is not the kernel. */
static tsr_status named(tsr_status st, const char *op, tsr_op kernel)
{
    if (st != TSR_OK && strcmp(op, tsr_op_name(kernel)) != 0)
        tsr__claim_error(op, st);
    return st;
}

/* Runs the kernel on an at-least-1-d view of t; a 0-d t gives a 0-d result
 * (PyTorch reads it as one element, whatever the number of indices). */
static tsr_status run_index_select(const char *op, const tsr_tensor *t, int d,
                                   const tsr_tensor *index, tsr_tensor **out)
{
    tsr_tensor *t1 = NULL, *result = NULL;
    tsr_status st = tsr__at_least_1d(t, &t1);
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; st == TSR_OK && i < t1->ndim; i++)
        shape[i] = i == d ? index->shape[0] : t1->shape[i];
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, t->storage->backend, t->dtype, t1->ndim, shape, &result);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .dim = d};
    const tsr_tensor *in[2] = {t1, index};
    if (st == TSR_OK)
        st = tsr__launch(TSR_OP_INDEX_SELECT, t->dtype, t->dtype, in, 2, &result, 1, &attrs);
    tsr_tensor_release(t1);
    if (st == TSR_OK && t->ndim == 0) {
        tsr_tensor *scalar;
        st = tsr__tensor_restride(result, 0, NULL, NULL, result->offset, &scalar);
        tsr_tensor_release(result);
        result = scalar;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return named(st, op, TSR_OP_INDEX_SELECT);
    }
    *out = result;
    return TSR_OK;
}

/* The index as a 1-d int64 tensor (int32 converted, 0-d viewed as [1]). */
static tsr_status vector_index(const char *op, const tsr_tensor *index, tsr_tensor **out)
{
    if (index->dtype != TSR_INT64 && index->dtype != TSR_INT32)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: expected dtype int32 or int64 for index, got %s",
                              op, tsr_dtype_name(index->dtype));
    if (index->ndim > 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: index is supposed to be a vector, got %d dims",
                              op, index->ndim);
    tsr_tensor *converted, *vector;
    tsr_status st = tsr_to_dtype(index, TSR_INT64, &converted);
    if (st != TSR_OK)
        return st;
    st = tsr__at_least_1d(converted, &vector);
    tsr_tensor_release(converted);
    if (st == TSR_OK)
        *out = vector;
    return st;
}

static tsr_status index_select_named(const char *op, const tsr_tensor *t, int64_t dim,
                                     const tsr_tensor *index, tsr_tensor **out)
{
    tsr_status st = check_pair(op, t, index, out);
    int d;
    if (st == TSR_OK)
        st = tsr__wrap_dim(op, "dim", dim, t->ndim, &d);
    tsr_tensor *vector = NULL;
    if (st == TSR_OK)
        st = vector_index(op, index, &vector);
    if (st != TSR_OK)
        return st;
    tsr_tensor *result = NULL;
    if (t->ndim == 0 && vector->shape[0] == 0) {
        st = tsr_clone(t, out);
    } else {
        st = run_index_select(op, t, d, vector, &result);
        if (st == TSR_OK)
            st = tsr__grad_record_index_select(t, d, vector, result);
        st = tsr__deliver(st, result, out);
    }
    tsr_tensor_release(vector);
    return st;
}

tsr_status tsr_index_select(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                            tsr_tensor **out)
{
    return index_select_named("index_select", t, dim, index, out);
}

/* ------------------------------------------------------------------------ */
/* gather, take, take_along_dim                                              */
/* ------------------------------------------------------------------------ */

static int64_t size_or_one(const tsr_tensor *t, int d)
{
    return t->ndim == 0 ? 1 : t->shape[d];
}

/* PyTorch treats a 0-d tensor as one element of rank 1 here. */
static tsr_status check_gather_shapes(const char *op, const tsr_tensor *t, const tsr_tensor *index,
                                      int d)
{
    int rank = t->ndim > 0 ? t->ndim : 1;
    if ((index->ndim > 0 ? index->ndim : 1) != rank)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: index tensor must have the same number of "
                              "dimensions as input tensor (%d and %d)",
                              op, index->ndim, t->ndim);
    for (int i = 0; i < rank; i++) {
        if (i != d && size_or_one(index, i) > size_or_one(t, i)) {
            char a[160], b[160];
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: size does not match at dimension %d: expected index %s to "
                                  "be smaller than self %s apart from dimension %d",
                                  op, i, tsr__shape_str(index->ndim, index->shape, a, sizeof a),
                                  tsr__shape_str(t->ndim, t->shape, b, sizeof b), d);
        }
    }
    return TSR_OK;
}

static tsr_status gather_named(const char *op, const tsr_tensor *t, int64_t dim,
                               const tsr_tensor *index, tsr_tensor **out)
{
    tsr_status st = check_pair(op, t, index, out);
    int d;
    if (st == TSR_OK)
        st = tsr__wrap_dim(op, "dim", dim, t->ndim, &d);
    if (st == TSR_OK && index->dtype != TSR_INT64)
        st = tsr__set_error(TSR_ERR_DTYPE, "%s: expected dtype int64 for index, got %s", op,
                            tsr_dtype_name(index->dtype));
    if (st == TSR_OK)
        st = check_gather_shapes(op, t, index, d);
    if (st != TSR_OK)
        return st;
    tsr_tensor *t1 = NULL, *index1 = NULL, *result = NULL, *view = NULL;
    st = tsr__at_least_1d(t, &t1);
    if (st == TSR_OK)
        st = tsr__at_least_1d(index, &index1);
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, t->storage->backend, t->dtype, index1->ndim, index1->shape,
                               &result);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .dim = d};
    const tsr_tensor *in[2] = {t1, index1};
    if (st == TSR_OK)
        st = tsr__launch(TSR_OP_GATHER, t->dtype, t->dtype, in, 2, &result, 1, &attrs);
    /* the result has index's shape: a 0-d index gives a 0-d result */
    if (st == TSR_OK)
        st = tsr__tensor_restride(result, index->ndim, index->shape, result->strides, 0, &view);
    tsr_tensor_release(t1);
    tsr_tensor_release(index1);
    tsr_tensor_release(result);
    if (st == TSR_OK)
        st = tsr__grad_record_gather(t, d, index, view);
    return named(tsr__deliver(st, view, out), op, TSR_OP_GATHER);
}

tsr_status tsr_gather(const tsr_tensor *t, int64_t dim, const tsr_tensor *index, tsr_tensor **out)
{
    return gather_named("gather", t, dim, index, out);
}

/* index + n where -n <= index < 0; other values (out of range included)
 * stay as they are, so the kernel's message names the value given. */
static tsr_status wrap_negative(const tsr_tensor *index, int64_t n, tsr_tensor **out)
{
    tsr_operand idx = tsr_operand_tensor(index);
    tsr_tensor *negative = NULL, *in_range = NULL, *wrap = NULL, *shifted = NULL;
    tsr_status st = tsr_binary(TSR_OP_LT, idx, tsr_operand_scalar(tsr_scalar_int(0)), &negative);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_GE, idx, tsr_operand_scalar(tsr_scalar_int(-n)), &in_range);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_LOGICAL_AND, tsr_operand_tensor(negative),
                        tsr_operand_tensor(in_range), &wrap);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_ADD, idx, tsr_operand_scalar(tsr_scalar_int(n)), &shifted);
    if (st == TSR_OK)
        st = tsr_where(wrap, tsr_operand_tensor(shifted), idx, out);
    tsr_tensor_release(negative);
    tsr_tensor_release(in_range);
    tsr_tensor_release(wrap);
    tsr_tensor_release(shifted);
    return st;
}

tsr_status tsr_take(const tsr_tensor *t, const tsr_tensor *index, tsr_tensor **out)
{
    tsr_status st = check_pair("take", t, index, out);
    if (st != TSR_OK)
        return st;
    if (index->dtype != TSR_INT64)
        return tsr__set_error(TSR_ERR_DTYPE, "take: expected a long tensor for index, but got %s",
                              tsr_dtype_name(index->dtype));
    int64_t n = tsr_tensor_numel(t);
    if (n == 0 && tsr_tensor_numel(index) > 0)
        return tsr__set_error(TSR_ERR_INDEX, "take: tried to take from an empty tensor");
    int64_t minus_one = -1;
    tsr_tensor *flat = NULL, *flat_index = NULL, *wrapped = NULL, *picked = NULL;
    st = tsr_reshape(t, 1, &minus_one, &flat);
    if (st == TSR_OK)
        st = tsr_reshape(index, 1, &minus_one, &flat_index);
    if (st == TSR_OK)
        st = wrap_negative(flat_index, n, &wrapped);
    if (st == TSR_OK)
        st = gather_named("take", flat, 0, wrapped, &picked);
    if (st == TSR_OK)
        st = tsr_view(picked, index->ndim, index->shape, out);
    tsr_tensor_release(flat);
    tsr_tensor_release(flat_index);
    tsr_tensor_release(wrapped);
    tsr_tensor_release(picked);
    return st;
}

static tsr_status take_along_flat(const tsr_tensor *t, const tsr_tensor *indices, tsr_tensor **out)
{
    int64_t minus_one = -1;
    tsr_tensor *flat = NULL, *flat_indices = NULL;
    tsr_status st = tsr_reshape(t, 1, &minus_one, &flat);
    if (st == TSR_OK)
        st = tsr_reshape(indices, 1, &minus_one, &flat_indices);
    if (st == TSR_OK)
        st = gather_named("take_along_dim", flat, 0, flat_indices, out);
    tsr_tensor_release(flat);
    tsr_tensor_release(flat_indices);
    return st;
}

tsr_status tsr_take_along_dim(const tsr_tensor *t, const tsr_tensor *indices, const int64_t *dim,
                              tsr_tensor **out)
{
    const char *op = "take_along_dim";
    tsr_status st = check_pair(op, t, indices, out);
    if (st == TSR_OK && indices->dtype != TSR_INT64)
        st = tsr__set_error(TSR_ERR_DTYPE, "%s: dtype of indices should be int64 but got %s", op,
                            tsr_dtype_name(indices->dtype));
    if (st != TSR_OK || !dim)
        return st == TSR_OK ? take_along_flat(t, indices, out) : st;
    int d;
    if ((st = tsr__wrap_dim_strict(op, *dim, t->ndim, &d)) != TSR_OK)
        return st;
    if (indices->ndim != t->ndim)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: input and indices should have the same number "
                              "of dimensions, but got %d and %d",
                              op, t->ndim, indices->ndim);
    /* broadcast both outside d: indices keep their size along d, t its own */
    int64_t shape[TSR_MAX_DIMS], tshape[TSR_MAX_DIMS];
    int ndim = t->ndim;
    for (int i = 0; i < ndim; i++)
        tshape[i] = i == d ? indices->shape[d] : t->shape[i];
    if ((st = tsr__broadcast_shapes(op, ndim, tshape, ndim, indices->shape, &ndim, shape)) !=
        TSR_OK)
        return st;
    tsr_tensor *ti = NULL, *tt = NULL;
    st = tsr_expand(indices, ndim, shape, &ti);
    shape[d] = t->shape[d];
    if (st == TSR_OK)
        st = tsr_expand(t, ndim, shape, &tt);
    if (st == TSR_OK)
        st = gather_named(op, tt, d, ti, out);
    tsr_tensor_release(ti);
    tsr_tensor_release(tt);
    return st;
}

/* ------------------------------------------------------------------------ */
/* embedding, one_hot                                                        */
/* ------------------------------------------------------------------------ */

tsr_status tsr__embedding_check(const tsr_tensor *indices, const tsr_tensor *weight,
                               const int64_t *padding_idx, tsr_tensor **out)
{
    const char *op = "embedding";
    tsr_status st = check_pair(op, weight, indices, out);
    if (st != TSR_OK)
        return st;
    if (weight->ndim != 2)
        return tsr__set_error(TSR_ERR_SHAPE, "embedding: 'weight' must be 2-D, got %d dims",
                              weight->ndim);
    if (indices->dtype != TSR_INT64 && indices->dtype != TSR_INT32)
        return tsr__set_error(TSR_ERR_DTYPE, "embedding: indices must be int64 or int32, got %s",
                              tsr_dtype_name(indices->dtype));
    int64_t rows = weight->shape[0];
    if (padding_idx && (*padding_idx >= rows || *padding_idx < -rows))
        return tsr__set_error(TSR_ERR_INDEX,
                              "embedding: padding_idx %lld must be within "
                              "num_embeddings (%lld)",
                              (long long)*padding_idx, (long long)rows);
    if (indices->ndim + 1 > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "embedding: indices have too many dims");
    return TSR_OK;
}

tsr_status tsr__embedding_lookup(const tsr_tensor *indices, const tsr_tensor *weight,
                                const int64_t *padding_idx, bool scale_grad_by_freq,
                                tsr_tensor **out)
{
    const char *op = "embedding";
    tsr_status st = tsr__embedding_check(indices, weight, padding_idx, out);
    if (st != TSR_OK)
        return st;
    int64_t minus_one = -1, shape[TSR_MAX_DIMS];
    tsr_tensor *flat = NULL, *rows_picked = NULL, *result = NULL;
    bool previous = tsr_grad_mode_set(false); /* one node: embedding's own */
    st = tsr_reshape(indices, 1, &minus_one, &flat);
    if (st == TSR_OK)
        st = index_select_named(op, weight, 0, flat, &rows_picked);
    for (int i = 0; i < indices->ndim; i++)
        shape[i] = indices->shape[i];
    shape[indices->ndim] = weight->shape[1];
    if (st == TSR_OK)
        st = tsr_view(rows_picked, indices->ndim + 1, shape, &result);
    tsr_grad_mode_set(previous);
    if (st == TSR_OK)
        st = tsr__grad_record_embedding(weight, flat, padding_idx, scale_grad_by_freq, result);
    tsr_tensor_release(flat);
    tsr_tensor_release(rows_picked);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_embedding(const tsr_tensor *indices, const tsr_tensor *weight,
                         const int64_t *padding_idx, tsr_tensor **out)
{
    return tsr__embedding_lookup(indices, weight, padding_idx, false, out);
}

/* The classes must be known on the host to size the result, so the
 * indices are read back once (as PyTorch's CPU one_hot reads min and max). */
static tsr_status one_hot_classes(const tsr_tensor *t, int64_t *num_classes)
{
    int64_t n = tsr_tensor_numel(t);
    if (n == 0) {
        if (*num_classes <= 0)
            return tsr__set_error(TSR_ERR_VALUE, "one_hot: can not infer the total number of "
                                                 "classes from an empty tensor");
        return TSR_OK;
    }
    int64_t *values;
    tsr_status st = tsr__read_int64("one_hot", t, &values);
    if (st != TSR_OK)
        return st;
    int64_t lo = values[0], hi = values[0];
    for (int64_t i = 1; i < n; i++) {
        lo = values[i] < lo ? values[i] : lo;
        hi = values[i] > hi ? values[i] : hi;
    }
    free(values);
    if (lo < 0)
        return tsr__set_error(TSR_ERR_INDEX,
                              "one_hot: class values must be non-negative, got "
                              "%lld",
                              (long long)lo);
    /* PyTorch's max + 1 wraps for INT64_MAX; tessera refuses it instead */
    if (*num_classes == -1 && hi == INT64_MAX)
        return tsr__set_error(TSR_ERR_OVERFLOW,
                              "one_hot: the class value %lld + 1 overflows num_classes",
                              (long long)hi);
    if (*num_classes == -1)
        *num_classes = hi + 1;
    else if (hi >= *num_classes)
        return tsr__set_error(TSR_ERR_INDEX,
                              "one_hot: class values must be smaller than "
                              "num_classes (%lld), got %lld",
                              (long long)*num_classes, (long long)hi);
    return TSR_OK;
}

tsr_status tsr_one_hot(const tsr_tensor *t, int64_t num_classes, tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "one_hot: input and out must not be NULL");
    if (t->dtype != TSR_INT64)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "one_hot: one_hot is only applicable to an index "
                              "tensor (int64), got %s",
                              tsr_dtype_name(t->dtype));
    if (t->ndim + 1 > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "one_hot: input has too many dims");
    tsr_status st = one_hot_classes(t, &num_classes);
    if (st != TSR_OK)
        return st;
    tsr_tensor *classes = NULL, *column = NULL, *hits = NULL;
    st = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(num_classes), tsr_scalar_int(1), TSR_INT64,
                    t->storage->backend, &classes);
    if (st == TSR_OK)
        st = tsr_unsqueeze(t, -1, &column);
    if (st == TSR_OK)
        st = tsr_binary(TSR_OP_EQ, tsr_operand_tensor(column), tsr_operand_tensor(classes), &hits);
    if (st == TSR_OK)
        st = tsr__convert("one_hot", hits, TSR_INT64, out);
    tsr_tensor_release(classes);
    tsr_tensor_release(column);
    tsr_tensor_release(hits);
    return st;
}

/* ------------------------------------------------------------------------ */
/* tril, triu                                                                */
/* ------------------------------------------------------------------------ */

static tsr_status triangle(tsr_op op, const tsr_tensor *t, int64_t diagonal, tsr_tensor **out)
{
    const char *name = tsr_op_name(op);
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    if (t->ndim < 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: input tensor must have at least 2 dimensions, "
                              "got %d",
                              name, t->ndim);
    tsr_tensor *result = NULL;
    tsr_status st =
        tsr__tensor_empty(name, t->storage->backend, t->dtype, t->ndim, t->shape, &result);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .offset = diagonal};
    if (st == TSR_OK)
        st = tsr__launch(op, t->dtype, t->dtype, &t, 1, &result, 1, &attrs);
    if (st == TSR_OK)
        st = tsr__grad_record_triangle(op, t, diagonal, result);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_tril(const tsr_tensor *t, int64_t diagonal, tsr_tensor **out)
{
    return triangle(TSR_OP_TRIL, t, diagonal, out);
}

tsr_status tsr_triu(const tsr_tensor *t, int64_t diagonal, tsr_tensor **out)
{
    return triangle(TSR_OP_TRIU, t, diagonal, out);
}
