/* Helpers of the indexing, joining, sorting and set ops. */
#include "ops/index_util.h"

#include "runtime/alloc.h"
#include "tensor/copy.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <stdlib.h>
#include <string.h>

tsr_status tsr__index_from_host(const char *op, tsr_backend *b, const int64_t *values, int64_t n,
                                tsr_tensor **out)
{
    tsr_status st = tsr_from_host(values, (size_t)n * sizeof(int64_t), 1, &n, TSR_INT64, b, out);
    if (st != TSR_OK)
        tsr__prefix_error("%s", op);
    return st;
}

/* t converted to dtype and copied to a malloc'd host array. */
static tsr_status read_as(const char *op, const tsr_tensor *t, tsr_dtype dtype, void **values)
{
    tsr_tensor *converted;
    tsr_status st = tsr_to_dtype(t, dtype, &converted);
    if (st != TSR_OK) {
        tsr__prefix_error("%s", op);
        return st;
    }
    size_t bytes = (size_t)tsr_tensor_numel(t) * tsr_dtype_size(dtype);
    void *host = tsr__malloc(bytes ? bytes : 1);
    if (!host)
        st = tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "%s: out of host memory (%zu bytes)", op, bytes);
    if (st == TSR_OK)
        st = tsr_to_host(converted, host, bytes);
    tsr_tensor_release(converted);
    if (st != TSR_OK) {
        free(host);
        return st;
    }
    *values = host;
    return TSR_OK;
}

tsr_status tsr__read_int64(const char *op, const tsr_tensor *t, int64_t **values)
{
    return read_as(op, t, TSR_INT64, (void **)values);
}

tsr_status tsr__read_bool(const char *op, const tsr_tensor *t, uint8_t **values)
{
    return read_as(op, t, TSR_BOOL, (void **)values);
}

/* A reduction on the device: only the count travels to the host. */
tsr_status tsr__count_nonzero(const char *op, const tsr_tensor *t, int64_t *count)
{
    tsr_tensor *n = NULL;
    tsr_status st = tsr_count_nonzero(t, NULL, 0, &n);
    if (st == TSR_OK)
        st = tsr_to_host(n, count, sizeof *count);
    tsr_tensor_release(n);
    if (st != TSR_OK)
        tsr__prefix_error("%s", op);
    return st;
}

tsr_status tsr__item(const char *op, const tsr_tensor *t, tsr_scalar *out)
{
    if (tsr_tensor_numel(t) != 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: a value tensor must have one element, got %lld",
                              op, (long long)tsr_tensor_numel(t));
    tsr_dtype wide;
    switch (tsr__dtype_category(t->dtype)) {
    case TSR__CATEGORY_BOOL:
        wide = TSR_BOOL;
        break;
    case TSR__CATEGORY_INTEGER:
        wide = TSR_INT64;
        break;
    case TSR__CATEGORY_FLOATING:
        wide = TSR_FLOAT64;
        break;
    default:
        wide = TSR_COMPLEX128;
        break;
    }
    void *host = NULL;
    tsr_status st = read_as(op, t, wide, &host);
    if (st != TSR_OK)
        return st;
    if (wide == TSR_BOOL) {
        *out = tsr_scalar_bool(*(uint8_t *)host != 0);
    } else if (wide == TSR_INT64) {
        *out = tsr_scalar_int(*(int64_t *)host);
    } else if (wide == TSR_FLOAT64) {
        *out = tsr_scalar_float(*(double *)host);
    } else {
        double parts[2];
        memcpy(parts, host, sizeof parts);
        *out = tsr_scalar_complex(parts[0], parts[1]);
    }
    free(host);
    return TSR_OK;
}

tsr_status tsr__check_value_fits(const char *op, tsr_scalar value, tsr_dtype dtype)
{
    bool fits = tsr__scalar_fits(value, dtype);
    if (fits && value.kind == TSR_SCALAR_COMPLEX && dtype != TSR_BOOL &&
        !tsr_dtype_is_complex(dtype) && value.v.c.im != 0)
        fits = false;
    if (!fits)
        return tsr__set_error(TSR_ERR_OVERFLOW,
                              "%s: value cannot be converted to type %s without overflow", op,
                              tsr_dtype_name(dtype));
    return TSR_OK;
}

tsr_status tsr__wrap_dim_strict(const char *op, int64_t dim, int ndim, int *out)
{
    if (ndim == 0)
        return tsr__set_error(TSR_ERR_INDEX,
                              "%s: dimension specified as %lld but the tensor has no dimensions",
                              op, (long long)dim);
    return tsr__wrap_dim(op, "dim", dim, ndim, out);
}

tsr_status tsr__at_least_1d(const tsr_tensor *t, tsr_tensor **out)
{
    if (t->ndim > 0) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    int64_t one = 1, stride = 1;
    return tsr__tensor_restride(t, 1, &one, &stride, t->offset, out);
}

/* The element offsets a view can reach: [lo, hi], or false when empty. */
static bool span(const tsr_tensor *t, int64_t *lo, int64_t *hi)
{
    *lo = *hi = t->offset;
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0)
            return false;
        int64_t reach = t->strides[i] * (t->shape[i] - 1);
        if (reach < 0)
            *lo += reach;
        else
            *hi += reach;
    }
    return true;
}

bool tsr__may_overlap(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!a || !b || a->storage != b->storage)
        return false;
    int64_t alo, ahi, blo, bhi;
    if (!span(a, &alo, &ahi) || !span(b, &blo, &bhi))
        return false;
    int64_t abytes = (int64_t)tsr_dtype_size(a->dtype), bbytes = (int64_t)tsr_dtype_size(b->dtype);
    return alo * abytes < (bhi + 1) * bbytes && blo * bbytes < (ahi + 1) * abytes;
}

tsr_status tsr__check_inplace_target(const char *op, const tsr_tensor *self,
                                     const tsr_tensor *const *others, int count)
{
    if (tsr__has_internal_overlap(self))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: self has internal overlap (more than one element refers to the "
                              "same memory, as after expand); clone it first",
                              op);
    for (int i = 0; i < count; i++) {
        if (tsr__may_overlap(self, others[i]))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "%s: an input shares memory with self, the tensor written to; "
                                  "clone it first",
                                  op);
    }
    return TSR_OK;
}
