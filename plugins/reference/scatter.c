/* scatter (plain and with every reduction), index_add and index_copy.
 *
 * Each output starts as a copy of self; then the updates are applied one
 * at a time in C order of the index (or source) positions, so several
 * updates of one element combine in index order and the result is the same
 * on every backend. A combining step loads the element, combines in the
 * wide category and stores it back, so every step rounds (or wraps) to the
 * dtype as PyTorch's element-at-a-time loops do. */
#include "index_walk.h"

#include <math.h>
#include <stdlib.h>

#include "kernel_args.h"
#include "scalar_ops.h"

/* ------------------------------------------------------------------------ */
/* Combining one update                                                      */
/* ------------------------------------------------------------------------ */

static void combine(int32_t reduce, tsr__ref_category category, tsr__ref_wide *acc,
                    const tsr__ref_wide *v)
{
    switch (category) {
    case TSR__REF_INTEGER:
        if (reduce == TSR_REDUCE_SUM || reduce == TSR_REDUCE_MEAN) {
            acc->i = tsr__ref_wrap_add(acc->i, v->i);
        } else if (reduce == TSR_REDUCE_PROD) {
            acc->i = tsr__ref_wrap_mul(acc->i, v->i);
        } else if (reduce == TSR_REDUCE_AMAX) {
            acc->i = v->i > acc->i ? v->i : acc->i;
        } else {
            acc->i = v->i < acc->i ? v->i : acc->i;
        }
        break;
    case TSR__REF_REAL:
        if (reduce == TSR_REDUCE_SUM || reduce == TSR_REDUCE_MEAN) {
            acc->f = acc->f + v->f;
        } else if (reduce == TSR_REDUCE_PROD) {
            acc->f = acc->f * v->f;
        } else if (isnan(acc->f) || isnan(v->f)) {
            acc->f = NAN; /* amax and amin propagate NaN */
        } else if (reduce == TSR_REDUCE_AMAX) {
            acc->f = v->f > acc->f ? v->f : acc->f; /* ties keep the element */
        } else {
            acc->f = v->f < acc->f ? v->f : acc->f;
        }
        break;
    default:
        acc->c = reduce == TSR_REDUCE_PROD ? acc->c * v->c : acc->c + v->c;
        break;
    }
}

/* The value an element excluded by include_self=False starts from. */
static void identity(int32_t reduce, int32_t dtype, tsr__ref_wide *out)
{
    static const int64_t lowest[TSR_DTYPE_COUNT] = {[TSR_UINT8] = 0,
                                                    [TSR_INT8] = INT8_MIN,
                                                    [TSR_INT16] = INT16_MIN,
                                                    [TSR_INT32] = INT32_MIN,
                                                    [TSR_INT64] = INT64_MIN};
    static const int64_t highest[TSR_DTYPE_COUNT] = {
        [TSR_BOOL] = 1,          [TSR_UINT8] = UINT8_MAX, [TSR_INT8] = INT8_MAX,
        [TSR_INT16] = INT16_MAX, [TSR_INT32] = INT32_MAX, [TSR_INT64] = INT64_MAX};
    tsr__ref_category category = tsr__ref_dtype_category(dtype);
    int one = reduce == TSR_REDUCE_PROD;
    if (category == TSR__REF_INTEGER) {
        out->i = reduce == TSR_REDUCE_AMAX   ? lowest[dtype]
                 : reduce == TSR_REDUCE_AMIN ? highest[dtype]
                                             : one;
    } else if (category == TSR__REF_REAL) {
        out->f = reduce == TSR_REDUCE_AMAX ? -INFINITY : reduce == TSR_REDUCE_AMIN ? INFINITY : one;
    } else {
        out->c = one;
    }
}

/* PyTorch divides a mean by its count in the dtype: floor division for
 * integers, a rounded quotient otherwise. */
static void divide(tsr__ref_category category, tsr__ref_wide *acc, int64_t count)
{
    if (category == TSR__REF_INTEGER) {
        int64_t q = acc->i / count;
        acc->i = (acc->i % count != 0 && acc->i < 0) ? q - 1 : q;
    } else if (category == TSR__REF_REAL) {
        acc->f = acc->f / (double)count;
    } else {
        acc->c = acc->c / (double)count;
    }
}

/* ------------------------------------------------------------------------ */
/* scatter                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct scatter_call {
    const tsr_tensor_desc *out, *index, *src; /* src NULL: the scalar */
    int32_t dim, reduce, dtype;
    int include_self;
    tsr__ref_category category;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
    tsr__ref_wide scalar;
    const tsr_scalar *value;
} scatter_call;

static int scatter_shapes(const tsr__ref_backend *backend, const scatter_call *c,
                          const tsr_tensor_desc *self)
{
    const tsr_tensor_desc *out = c->out, *index = c->index, *src = c->src;
    if (c->dim < 0 || c->dim >= out->ndim || index->ndim != out->ndim || self->ndim != out->ndim ||
        (src != NULL && src->ndim != out->ndim)) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "scatter operands need one rank and a dim");
    }
    for (int32_t d = 0; d < out->ndim; d++) {
        if (self->shape[d] != out->shape[d] || (d != c->dim && index->shape[d] > out->shape[d]) ||
            (src != NULL && index->shape[d] > src->shape[d])) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "index extent %d exceeds self or src",
                                  (int)d);
        }
    }
    if (self->dtype != out->dtype || (src != NULL && src->dtype != out->dtype)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "self, src and output need one dtype");
    }
    if (index->dtype != TSR_INT64) {
        return tsr__ref_args_dtype_error(backend, 1, index->dtype, TSR_INT64);
    }
    if (c->reduce < TSR_REDUCE_NONE || c->reduce > TSR_REDUCE_AMIN) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "unknown reduce %d",
                              (int)c->reduce);
    }
    return TSR_OK;
}

/* The update at index position coords, as a wide value. */
static void update_at(const scatter_call *c, const int64_t *coords, tsr__ref_wide *v)
{
    if (c->src != NULL) {
        c->load(tsr__ref_desc_at(c->src, coords), v);
    } else {
        *v = c->scalar;
    }
}

/* Walks the index positions, calling visit with the target's address. */
typedef void (*scatter_visit_fn)(const scatter_call *c, const int64_t *coords, char *target,
                                 int64_t linear, int64_t *counts);

static void scatter_walk(const scatter_call *c, scatter_visit_fn visit, int64_t *counts)
{
    if (tsr__ref_desc_numel(c->index) == 0) {
        return;
    }
    int64_t coords[TSR_MAX_DIMS] = {0}, to[TSR_MAX_DIMS];
    do {
        memcpy(to, coords, sizeof to);
        to[c->dim] = tsr__ref_index_at(c->index, coords);
        int64_t linear = 0;
        for (int32_t d = 0; d < c->out->ndim; d++) {
            linear = linear * c->out->shape[d] + to[d];
        }
        visit(c, coords, tsr__ref_desc_at(c->out, to), linear, counts);
    } while (tsr__ref_next_coords(coords, c->index->shape, c->index->ndim));
}

static void visit_replace(const scatter_call *c, const int64_t *coords, char *target,
                          int64_t linear, int64_t *counts)
{
    (void)linear, (void)counts;
    if (c->src != NULL) {
        memmove(target, tsr__ref_desc_at(c->src, coords), tsr__ref_dtype_size(c->dtype));
    } else {
        tsr__ref_scalar_store(c->value, c->dtype, target);
    }
}

static void visit_exclude(const scatter_call *c, const int64_t *coords, char *target,
                          int64_t linear, int64_t *counts)
{
    (void)coords, (void)linear, (void)counts;
    tsr__ref_wide start;
    identity(c->reduce, c->dtype, &start);
    c->store(target, &start);
}

static void visit_combine(const scatter_call *c, const int64_t *coords, char *target,
                          int64_t linear, int64_t *counts)
{
    tsr__ref_wide acc, v;
    c->load(target, &acc);
    update_at(c, coords, &v);
    combine(c->reduce, c->category, &acc, &v);
    c->store(target, &acc);
    if (counts != NULL) {
        counts[linear]++;
    }
}

/* Divides every element that received updates by its count. */
static void finish_mean(const scatter_call *c, const int64_t *counts)
{
    int64_t coords[TSR_MAX_DIMS] = {0}, linear = 0;
    do {
        int64_t n = counts[linear++];
        if (n > 0) {
            char *target = tsr__ref_desc_at(c->out, coords);
            tsr__ref_wide acc;
            c->load(target, &acc);
            divide(c->category, &acc, n + (c->include_self ? 1 : 0));
            c->store(target, &acc);
        }
    } while (tsr__ref_next_coords(coords, c->out->shape, c->out->ndim));
}

static int scatter_reduce(const tsr__ref_backend *backend, scatter_call *c)
{
    int64_t *counts = NULL;
    if (c->reduce == TSR_REDUCE_MEAN) {
        counts = calloc((size_t)tsr__ref_desc_numel(c->out), sizeof *counts);
        if (counts == NULL) {
            return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "no memory for mean counts");
        }
    }
    c->category = tsr__ref_dtype_category(c->dtype);
    c->load = tsr__ref_loader(c->dtype);
    c->store = tsr__ref_storer(c->category, c->dtype);
    if (!c->include_self) {
        scatter_walk(c, visit_exclude, NULL);
    }
    scatter_walk(c, visit_combine, counts);
    if (counts != NULL) {
        finish_mean(c, counts);
        free(counts);
    }
    return TSR_OK;
}

int tsr__ref_kernel_scatter(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int32_t num_inputs = args != NULL && args->num_inputs == 2 ? 2 : 3;
    int status = tsr__ref_index_args(backend, args, num_inputs, 1, &attrs);
    if (status != TSR_OK) {
        return status;
    }
    int scalar = (attrs->flags & TSR_INDEX_SCALAR_SRC) != 0;
    if (scalar != (num_inputs == 2)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "TSR_INDEX_SCALAR_SRC goes with 2 inputs, a src tensor with 3");
    }
    scatter_call c = {.out = &args->outputs[0],
                      .index = &args->inputs[1],
                      .src = scalar ? NULL : &args->inputs[2],
                      .dim = attrs->dim,
                      .reduce = attrs->reduce,
                      .dtype = args->outputs[0].dtype,
                      .include_self = (attrs->flags & TSR_INDEX_INCLUDE_SELF) != 0,
                      .value = &attrs->value};
    if ((status = scatter_shapes(backend, &c, &args->inputs[0])) != TSR_OK ||
        (status = tsr__ref_check_indices(backend, c.index, c.dim, c.out->shape[c.dim])) != TSR_OK) {
        return status;
    }
    if (scalar) {
        tsr__ref_scalar_as_dtype(&attrs->value, c.dtype, &c.scalar);
    }
    tsr__ref_copy_desc(c.out, &args->inputs[0]);
    if (c.reduce == TSR_REDUCE_NONE) {
        scatter_walk(&c, visit_replace, NULL);
        return TSR_OK;
    }
    return scatter_reduce(backend, &c);
}

/* ------------------------------------------------------------------------ */
/* index_add, index_copy                                                     */
/* ------------------------------------------------------------------------ */

static int index_put_shapes(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                            int32_t dim)
{
    const tsr_tensor_desc *self = &args->inputs[0], *index = &args->inputs[1];
    const tsr_tensor_desc *source = &args->inputs[2], *out = &args->outputs[0];
    if (dim < 0 || dim >= out->ndim || index->ndim != 1 || self->ndim != out->ndim ||
        source->ndim != out->ndim) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "index must be 1-d, the rest of one rank");
    }
    for (int32_t d = 0; d < out->ndim; d++) {
        int64_t want = d == dim ? index->shape[0] : out->shape[d];
        if (self->shape[d] != out->shape[d] || source->shape[d] != want) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "source extent %d is %lld, expected %lld",
                                  (int)d, (long long)source->shape[d], (long long)want);
        }
    }
    if (self->dtype != out->dtype || source->dtype != out->dtype) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "self, source and output need one dtype");
    }
    if (index->dtype != TSR_INT64) {
        return tsr__ref_args_dtype_error(backend, 1, index->dtype, TSR_INT64);
    }
    return TSR_OK;
}

int tsr__ref_kernel_index_put(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr_index_attrs *attrs;
    int status = tsr__ref_index_args(backend, args, 3, 1, &attrs);
    if (status == TSR_OK) {
        status = index_put_shapes(backend, args, attrs->dim);
    }
    const tsr_tensor_desc *index = &args->inputs[1], *source = &args->inputs[2];
    const tsr_tensor_desc *out = &args->outputs[0];
    int32_t dim = status == TSR_OK ? attrs->dim : 0;
    if (status == TSR_OK) {
        status = tsr__ref_check_indices(backend, index, dim, out->shape[dim]);
    }
    if (status != TSR_OK) {
        return status;
    }
    tsr__ref_copy_desc(out, &args->inputs[0]);
    if (tsr__ref_desc_numel(source) == 0) {
        return TSR_OK;
    }
    int32_t dtype = out->dtype;
    size_t size = tsr__ref_dtype_size(dtype);
    tsr__ref_category category = tsr__ref_dtype_category(dtype);
    tsr__ref_load_fn load = tsr__ref_loader(dtype);
    tsr__ref_store_fn store = tsr__ref_storer(category, dtype);
    tsr__ref_wide alpha;
    tsr__ref_scalar_as_dtype(&attrs->value, dtype, &alpha);
    int64_t coords[TSR_MAX_DIMS] = {0}, to[TSR_MAX_DIMS];
    do {
        memcpy(to, coords, sizeof to);
        to[dim] = tsr__ref_index_at(index, &coords[dim]);
        char *target = tsr__ref_desc_at(out, to);
        const char *from = tsr__ref_desc_at(source, coords);
        if (args->op == TSR_OP_INDEX_COPY) {
            memmove(target, from, size);
            continue;
        }
        tsr__ref_wide acc, v;
        load(target, &acc);
        load(from, &v);
        if (category == TSR__REF_INTEGER) {
            acc.i = tsr__ref_wrap_add(acc.i, tsr__ref_wrap_mul(v.i, alpha.i));
        } else if (category == TSR__REF_REAL) {
            acc.f = acc.f + alpha.f * v.f;
        } else {
            acc.c = acc.c + alpha.c * v.c;
        }
        store(target, &acc);
    } while (tsr__ref_next_coords(coords, source->shape, source->ndim));
    return TSR_OK;
}
