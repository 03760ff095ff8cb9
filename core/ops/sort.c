/* Sorting and searching: sort, argsort, topk, kthvalue, median,
 * searchsorted, bucketize. Only sort and searchsorted are kernels; the
 * selections are a stable sort followed by narrowing, so ties resolve the
 * same way on every backend. */
#include "autograd/graph.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/sort_grad.h"
#include "ops/index_util.h"
#include "tensor/shape.h"

#include <math.h>
#include <string.h>

static int64_t size_or_one(const tsr_tensor *t, int d)
{
    return t->ndim == 0 ? 1 : t->shape[d];
}

/* PyTorch orders no complex numbers; topk, kthvalue and median also lack
 * kernels for bool and float16. */
static tsr_status check_orderable(const char *op, const tsr_tensor *t, bool selection)
{
    if (tsr_dtype_is_complex(t->dtype) ||
        (selection && (t->dtype == TSR_BOOL || t->dtype == TSR_FLOAT16)))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for %s", op,
                              tsr_dtype_name(t->dtype));
    return TSR_OK;
}

/* A 0-d view of a one-element tensor. */
static tsr_status as_scalar(tsr_tensor **t)
{
    tsr_tensor *scalar;
    tsr_status st = tsr__tensor_restride(*t, 0, NULL, NULL, (*t)->offset, &scalar);
    tsr_tensor_release(*t);
    *t = st == TSR_OK ? scalar : NULL;
    return st;
}

static tsr_status sort_named(const char *op, const tsr_tensor *t, int64_t dim, bool descending,
                             tsr_tensor **values, tsr_tensor **indices)
{
    if (!t || !values || !indices)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and outputs must not be NULL",
                              op);
    int d;
    tsr_status st = tsr__wrap_dim(op, "dim", dim, t->ndim, &d);
    if (st == TSR_OK)
        st = check_orderable(op, t, false);
    if (st != TSR_OK)
        return st;
    tsr_backend *b = t->storage->backend;
    tsr_tensor *t1 = NULL, *outs[2] = {NULL, NULL};
    st = tsr__at_least_1d(t, &t1);
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, b, t->dtype, t1->ndim, t1->shape, &outs[0]);
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, b, TSR_INT64, t1->ndim, t1->shape, &outs[1]);
    tsr_index_attrs attrs = {
        .struct_size = sizeof attrs, .dim = d, .flags = descending ? TSR_INDEX_DESCENDING : 0};
    if (st == TSR_OK)
        st = tsr__launch(TSR_OP_SORT, t->dtype, t->dtype, (const tsr_tensor *const *)&t1, 1, outs,
                         2, &attrs);
    tsr_tensor_release(t1);
    for (int i = 0; i < 2 && st == TSR_OK && t->ndim == 0; i++)
        st = as_scalar(&outs[i]);
    if (st == TSR_OK)
        st = tsr__grad_record_sort(t, d, outs[1], outs[0]);
    if (st != TSR_OK) {
        tsr_tensor_release(outs[0]);
        tsr_tensor_release(outs[1]);
        return st;
    }
    *values = outs[0];
    *indices = outs[1];
    return TSR_OK;
}

tsr_status tsr_sort(const tsr_tensor *t, int64_t dim, bool descending, tsr_tensor **values,
                    tsr_tensor **indices)
{
    return sort_named("sort", t, dim, descending, values, indices);
}

tsr_status tsr_argsort(const tsr_tensor *t, int64_t dim, bool descending, tsr_tensor **out)
{
    tsr_tensor *values = NULL;
    tsr_status st = sort_named("argsort", t, dim, descending, &values, out);
    tsr_tensor_release(values);
    return st;
}

/* ------------------------------------------------------------------------ */
/* topk, kthvalue, median: narrowed sorts                                    */
/* ------------------------------------------------------------------------ */

/* Contiguous copies of [start, start + length) along d of values and
 * indices, without d when `drop`. Releases the inputs. */
static tsr_status take_slices(tsr_tensor *values, tsr_tensor *indices, int d, int64_t start,
                              int64_t length, bool drop, tsr_tensor **out_values,
                              tsr_tensor **out_indices)
{
    tsr_tensor *in[2] = {values, indices}, *res[2] = {NULL, NULL};
    tsr_status st = TSR_OK;
    for (int i = 0; i < 2 && st == TSR_OK; i++) {
        tsr_tensor *window = NULL, *squeezed = NULL;
        if (in[i]->ndim == 0) {
            tsr_tensor_retain(in[i]);
            window = in[i];
        } else {
            st = tsr_narrow(in[i], d, start, length, &window);
        }
        if (st == TSR_OK && drop && window->ndim > 0)
            st = tsr_squeeze_dim(window, d, &squeezed);
        if (st == TSR_OK)
            st = tsr_clone(squeezed ? squeezed : window, &res[i]);
        tsr_tensor_release(window);
        tsr_tensor_release(squeezed);
    }
    tsr_tensor_release(values);
    tsr_tensor_release(indices);
    if (st != TSR_OK) {
        tsr_tensor_release(res[0]);
        tsr_tensor_release(res[1]);
        return st;
    }
    *out_values = res[0];
    *out_indices = res[1];
    return TSR_OK;
}

static tsr_status selection_args(const char *op, const tsr_tensor *t, int64_t dim, void *values,
                                 void *indices, int *d)
{
    if (!t || !values || !indices)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and outputs must not be NULL",
                              op);
    tsr_status st = tsr__wrap_dim(op, "dim", dim, t->ndim, d);
    if (st == TSR_OK)
        st = check_orderable(op, t, true);
    return st;
}

tsr_status tsr_topk(const tsr_tensor *t, int64_t k, int64_t dim, bool largest, tsr_tensor **values,
                    tsr_tensor **indices)
{
    int d;
    tsr_status st = selection_args("topk", t, dim, values, indices, &d);
    if (st != TSR_OK)
        return st;
    int64_t size = size_or_one(t, d);
    if (k < 0 || k > size)
        return tsr__set_error(TSR_ERR_INDEX,
                              "topk: selected index k (%lld) out of range for a "
                              "dimension of size %lld",
                              (long long)k, (long long)size);
    tsr_tensor *sorted = NULL, *order = NULL;
    if ((st = sort_named("topk", t, d, largest, &sorted, &order)) != TSR_OK)
        return st;
    return take_slices(sorted, order, d, 0, k, false, values, indices);
}

/* PyTorch refuses to pick from an empty dim, even when other dims are empty. */
static tsr_status check_nonempty_dim(const char *op, const tsr_tensor *t, int d)
{
    if (size_or_one(t, d) == 0)
        return tsr__set_error(TSR_ERR_INDEX, "%s: expected reduction dim %d to have non-zero size",
                              op, d);
    return TSR_OK;
}

tsr_status tsr_kthvalue(const tsr_tensor *t, int64_t k, int64_t dim, bool keepdim,
                        tsr_tensor **values, tsr_tensor **indices)
{
    int d;
    tsr_status st = selection_args("kthvalue", t, dim, values, indices, &d);
    if (st == TSR_OK)
        st = check_nonempty_dim("kthvalue", t, d);
    if (st != TSR_OK)
        return st;
    if (k < 1 || k > size_or_one(t, d))
        return tsr__set_error(TSR_ERR_INDEX,
                              "kthvalue: selected number k (%lld) out of range for "
                              "dimension %d",
                              (long long)k, d);
    tsr_tensor *sorted = NULL, *order = NULL;
    if ((st = sort_named("kthvalue", t, d, false, &sorted, &order)) != TSR_OK)
        return st;
    return take_slices(sorted, order, d, k - 1, 1, !keepdim, values, indices);
}

/* A slice holding NaN has the median NaN at the slice's first NaN: sorting
 * the NaN mask descending (stably) brings that position to the front. */
static tsr_status nan_median(const tsr_tensor *t, int d, tsr_tensor **values, tsr_tensor **indices)
{
    tsr_tensor *mask = NULL, *mask_sorted = NULL, *order = NULL, *first = NULL, *has = NULL;
    tsr_tensor *nan_value = NULL, *v = NULL, *i = NULL;
    tsr_status st = tsr_binary(TSR_OP_NE, tsr_operand_tensor(t), tsr_operand_tensor(t), &mask);
    if (st == TSR_OK)
        st = sort_named("median", mask, d, true, &mask_sorted, &order);
    if (st == TSR_OK)
        st = take_slices(mask_sorted, order, d, 0, 1, false, &has, &first);
    if (st == TSR_OK)
        st = tsr_gather(t, d, first, &nan_value);
    if (st == TSR_OK)
        st = tsr_where(has, tsr_operand_tensor(nan_value), tsr_operand_tensor(*values), &v);
    if (st == TSR_OK)
        st = tsr_where(has, tsr_operand_tensor(first), tsr_operand_tensor(*indices), &i);
    tsr_tensor_release(mask);
    tsr_tensor_release(first);
    tsr_tensor_release(has);
    tsr_tensor_release(nan_value);
    if (st != TSR_OK) {
        tsr_tensor_release(v);
        tsr_tensor_release(i);
        return st;
    }
    tsr_tensor_release(*values);
    tsr_tensor_release(*indices);
    *values = v;
    *indices = i;
    return TSR_OK;
}

static tsr_status median_keepdim(const tsr_tensor *t, int d, tsr_tensor **values,
                                 tsr_tensor **indices)
{
    tsr_tensor *sorted = NULL, *order = NULL;
    tsr_status st = sort_named("median", t, d, false, &sorted, &order);
    if (st != TSR_OK)
        return st;
    int64_t n = size_or_one(t, d);
    if ((st = take_slices(sorted, order, d, (n - 1) / 2, 1, false, values, indices)) != TSR_OK)
        return st;
    if (tsr_dtype_is_floating(t->dtype) && t->ndim > 0 &&
        (st = nan_median(t, d, values, indices)) != TSR_OK) {
        tsr_tensor_release(*values);
        tsr_tensor_release(*indices);
        *values = *indices = NULL;
    }
    return st;
}

tsr_status tsr_median_dim(const tsr_tensor *t, int64_t dim, bool keepdim, tsr_tensor **values,
                          tsr_tensor **indices)
{
    int d;
    tsr_status st = selection_args("median", t, dim, values, indices, &d);
    if (st == TSR_OK)
        st = check_nonempty_dim("median", t, d);
    tsr_tensor *v = NULL, *i = NULL;
    if (st == TSR_OK)
        st = median_keepdim(t, d, &v, &i);
    if (st != TSR_OK)
        return st;
    if (keepdim || t->ndim == 0) {
        *values = v;
        *indices = i;
        return TSR_OK;
    }
    return take_slices(v, i, d, 0, 1, true, values, indices);
}

tsr_status tsr_median(const tsr_tensor *t, tsr_tensor **out)
{
    int d;
    tsr_status st = selection_args("median", t, 0, out, out, &d);
    if (st != TSR_OK)
        return st;
    if (tsr_tensor_numel(t) == 0) {
        /* NaN, converted to t's dtype as PyTorch's CPU converts it */
        tsr_tensor *nan = NULL;
        st = tsr_full(0, NULL, tsr_scalar_float(NAN), TSR_FLOAT64, t->storage->backend, &nan);
        if (st == TSR_OK)
            st = tsr__convert("median", nan, t->dtype, out);
        tsr_tensor_release(nan);
        return st;
    }
    int64_t minus_one = -1;
    tsr_tensor *flat = NULL, *indices = NULL;
    st = tsr_reshape(t, 1, &minus_one, &flat);
    if (st == TSR_OK)
        st = tsr_median_dim(flat, 0, false, out, &indices);
    tsr_tensor_release(flat);
    tsr_tensor_release(indices);
    return st;
}

/* ------------------------------------------------------------------------ */
/* searchsorted, bucketize                                                   */
/* ------------------------------------------------------------------------ */

static tsr_status check_searchable(const char *op, tsr_dtype dtype, const char *what)
{
    if (dtype == TSR_BOOL || tsr_dtype_is_complex(dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: %s of dtype %s cannot be searched", op, what,
                              tsr_dtype_name(dtype));
    return TSR_OK;
}

static tsr_status check_search_shapes(const char *op, const tsr_tensor *seq, tsr_operand values)
{
    if (seq->ndim == 0)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: boundaries tensor should have positive "
                              "dimension, but got 0 dimension",
                              op);
    if (seq->ndim == 1)
        return TSR_OK;
    const tsr_tensor *v = values.tensor;
    bool match = v && v->ndim == seq->ndim;
    for (int i = 0; match && i + 1 < seq->ndim; i++)
        match = v->shape[i] == seq->shape[i];
    if (!match)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: boundaries tensor should be 1 dimension or the "
                              "first N-1 dimensions of boundaries tensor and input "
                              "value tensor must match",
                              op);
    return TSR_OK;
}

/* The sequence sorted by sorter (PyTorch reads sequence[sorter] instead). */
static tsr_status apply_sorter(const char *op, const tsr_tensor *seq, const tsr_tensor *sorter,
                               tsr_tensor **out)
{
    if (!sorter) {
        tsr_tensor_retain(seq);
        *out = (tsr_tensor *)seq;
        return TSR_OK;
    }
    bool same = sorter->dtype == TSR_INT64 && sorter->ndim == seq->ndim;
    for (int i = 0; same && i < seq->ndim; i++)
        same = sorter->shape[i] == seq->shape[i];
    if (!same)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: sorter must be an int64 tensor of the "
                              "boundaries' shape",
                              op);
    return tsr_gather(seq, -1, sorter, out);
}

/* The values as a tensor of dtype with at least one dim, and the sequence
 * broadcast to its leading dims. */
static tsr_status search_operands(const char *op, const tsr_tensor *seq, tsr_operand values,
                                  tsr_dtype dtype, tsr_tensor **seq_out, tsr_tensor **values_out)
{
    tsr_tensor *converted = NULL, *v1 = NULL, *s = NULL;
    tsr_status st = values.tensor ? tsr_to_dtype(values.tensor, dtype, &converted)
                                  : tsr__scalar_tensor(op, values.scalar, dtype,
                                                       seq->storage->backend, &converted);
    if (st == TSR_OK)
        st = tsr__at_least_1d(converted, &v1);
    tsr_tensor_release(converted);
    if (st == TSR_OK)
        st = tsr_to_dtype(seq, dtype, &s);
    if (st == TSR_OK && s->ndim == 1 && v1->ndim > 1) {
        int64_t shape[TSR_MAX_DIMS], strides[TSR_MAX_DIMS];
        for (int i = 0; i < v1->ndim; i++)
            shape[i] = v1->shape[i], strides[i] = 0;
        shape[v1->ndim - 1] = s->shape[0];
        strides[v1->ndim - 1] = s->strides[0];
        tsr_tensor *expanded;
        st = tsr__tensor_restride(s, v1->ndim, shape, strides, s->offset, &expanded);
        tsr_tensor_release(s);
        s = expanded;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(v1);
        tsr_tensor_release(s);
        return st;
    }
    *seq_out = s;
    *values_out = v1;
    return TSR_OK;
}

static tsr_status searchsorted_named(const char *op, const tsr_tensor *seq, tsr_operand values,
                                     bool out_int32, bool right, const tsr_tensor *sorter,
                                     tsr_tensor **out)
{
    if (!seq || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: sequence and out must be given", op);
    if (tsr__check_operand(op, strcmp(op, "bucketize") == 0 ? "input" : "values", values) != TSR_OK)
        return TSR_ERR_INVALID_ARGUMENT;
    const tsr_tensor *all[3] = {seq, values.tensor, sorter};
    tsr_backend *b;
    tsr_dtype vdtype = values.tensor ? values.tensor->dtype : tsr__scalar_dtype(values.scalar);
    tsr_status st = tsr__common_backend(op, all, 3, &b);
    if (st == TSR_OK)
        st = check_searchable(op, seq->dtype, "boundaries");
    if (st == TSR_OK)
        st = check_searchable(op, vdtype, "values");
    if (st == TSR_OK)
        st = check_search_shapes(op, seq, values);
    if (st == TSR_OK && out_int32 && seq->shape[seq->ndim - 1] >= INT32_MAX)
        st = tsr__set_error(TSR_ERR_VALUE, "%s: the boundaries are too long for out_int32", op);
    tsr_tensor *sorted = NULL, *s = NULL, *v = NULL, *result = NULL;
    if (st == TSR_OK)
        st = apply_sorter(op, seq, sorter, &sorted);
    tsr_dtype dtype = tsr__promote(seq->dtype, vdtype);
    tsr_dtype out_dtype = out_int32 ? TSR_INT32 : TSR_INT64;
    if (st == TSR_OK)
        st = tsr__require_kernel(op, b, TSR_OP_SEARCHSORTED, dtype, out_dtype);
    if (st == TSR_OK)
        st = search_operands(op, sorted, values, dtype, &s, &v);
    if (st == TSR_OK)
        st = tsr__tensor_empty(op, b, out_dtype, v->ndim, v->shape, &result);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .flags = right ? TSR_INDEX_RIGHT : 0};
    const tsr_tensor *in[2] = {s, v};
    if (st == TSR_OK)
        st = tsr__launch(TSR_OP_SEARCHSORTED, dtype, out_dtype, in, 2, &result, 1, &attrs);
    if (st == TSR_OK && (!values.tensor || values.tensor->ndim == 0))
        st = as_scalar(&result);
    tsr_tensor_release(sorted);
    tsr_tensor_release(s);
    tsr_tensor_release(v);
    if (st != TSR_OK) {
        tsr_tensor_release(result);
        return st;
    }
    *out = result;
    return TSR_OK;
}

tsr_status tsr_searchsorted(const tsr_tensor *sorted_sequence, tsr_operand values, bool out_int32,
                            bool right, const char *side, const tsr_tensor *sorter,
                            tsr_tensor **out)
{
    if (side && strcmp(side, "left") != 0 && strcmp(side, "right") != 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "searchsorted: side can only be 'left' or 'right', "
                              "got '%s'",
                              side);
    if (side && right && strcmp(side, "left") == 0)
        return tsr__set_error(TSR_ERR_VALUE, "searchsorted: side and right can't be set to "
                                             "opposites, got side of left while right was true");
    right = right || (side && strcmp(side, "right") == 0);
    return searchsorted_named("searchsorted", sorted_sequence, values, out_int32, right, sorter,
                              out);
}

tsr_status tsr_bucketize(tsr_operand input, const tsr_tensor *boundaries, bool out_int32,
                         bool right, tsr_tensor **out)
{
    if (boundaries && boundaries->ndim != 1)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "bucketize: boundaries tensor must be 1 dimension, "
                              "but got dim(%d)",
                              boundaries->ndim);
    return searchsorted_named("bucketize", boundaries, input, out_int32, right, NULL, out);
}
