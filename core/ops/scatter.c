/* Scattering: scatter (src or value, optional add/multiply), scatter_add,
 * scatter_reduce, index_add, index_copy and their in-place forms.
 *
 * One path serves them all: PyTorch's checks, then one kernel call whose
 * output is either self (in place) or a new tensor the kernel first fills
 * with self. The kernel checks every index before it writes, so a failing
 * in-place call leaves self as it was. */
#include "autograd/graph.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/scatter_grad.h"
#include "ops/index_util.h"
#include "tensor/shape.h"
#include "ops/inplace.h"

#include <string.h>

typedef struct scatter_call {
    const char *op;
    tsr_op kernel; /* TSR_OP_SCATTER, _INDEX_ADD or _INDEX_COPY */
    const tsr_tensor *self;
    int64_t dim;
    const tsr_tensor *index;
    const tsr_tensor *src; /* NULL: `value` is the src (scatter) */
    tsr_scalar value;      /* scatter's value, index_add's alpha */
    int reduce;            /* TSR_REDUCE_* */
    int32_t flags;         /* TSR_INDEX_INCLUDE_SELF */
    bool inplace;
} scatter_call;

static tsr_status check_common(const scatter_call *c, int *d)
{
    if (!c->self || !c->index || (c->kernel != TSR_OP_SCATTER && !c->src))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors must not be NULL", c->op);
    const tsr_tensor *all[3] = {c->self, c->index, c->src};
    tsr_backend *b;
    tsr_status st = tsr__common_backend(c->op, all, 3, &b);
    if (st == TSR_OK)
        st = tsr__wrap_dim(c->op, "dim", c->dim, c->self->ndim, d);
    if (st == TSR_OK && c->src && c->src->dtype != c->self->dtype)
        st = tsr__set_error(TSR_ERR_DTYPE,
                            "%s: expected self and src to have the same dtype, "
                            "got %s and %s",
                            c->op, tsr_dtype_name(c->self->dtype), tsr_dtype_name(c->src->dtype));
    return st;
}

static int64_t size_or_one(const tsr_tensor *t, int d)
{
    return t->ndim == 0 ? 1 : t->shape[d];
}

/* ------------------------------------------------------------------------ */
/* scatter's checks                                                          */
/* ------------------------------------------------------------------------ */

static tsr_status check_scatter_shapes(const scatter_call *c, int d)
{
    const tsr_tensor *self = c->self, *index = c->index, *src = c->src;
    int rank = self->ndim > 0 ? self->ndim : 1;
    if ((index->ndim > 0 ? index->ndim : 1) != rank ||
        (src && (src->ndim > 0 ? src->ndim : 1) != rank))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: index tensor must have the same number of "
                              "dimensions as self and src tensors",
                              c->op);
    for (int i = 0; i < rank; i++) {
        int64_t n = size_or_one(index, i);
        if ((i != d && n > size_or_one(self, i)) || (src && n > size_or_one(src, i))) {
            char a[160], b[160], s[160] = "";
            if (src)
                tsr__shape_str(src->ndim, src->shape, s, sizeof s);
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: expected index %s to be smaller than self %s apart from "
                                  "dimension %d%s%s",
                                  c->op, tsr__shape_str(index->ndim, index->shape, a, sizeof a),
                                  tsr__shape_str(self->ndim, self->shape, b, sizeof b), d,
                                  src ? " and to be smaller size than src " : "", s);
        }
    }
    return TSR_OK;
}

/* PyTorch 1.13 has no mean of bools and no amax/amin of complex numbers. */
static tsr_status check_reduce(const scatter_call *c)
{
    tsr_dtype dtype = c->self->dtype;
    if (c->reduce < TSR_REDUCE_NONE || c->reduce > TSR_REDUCE_AMIN)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: unknown reduce %d", c->op, c->reduce);
    if ((c->reduce == TSR_REDUCE_MEAN && dtype == TSR_BOOL) ||
        ((c->reduce == TSR_REDUCE_AMAX || c->reduce == TSR_REDUCE_AMIN) &&
         tsr_dtype_is_complex(dtype)))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: this reduction is not implemented for %s", c->op,
                              tsr_dtype_name(dtype));
    return TSR_OK;
}

static tsr_status check_scatter(const scatter_call *c, int *d)
{
    tsr_status st = check_common(c, d);
    if (st == TSR_OK && c->index->dtype != TSR_INT64)
        st = tsr__set_error(TSR_ERR_DTYPE, "%s: expected dtype int64 for index, got %s", c->op,
                            tsr_dtype_name(c->index->dtype));
    if (st == TSR_OK)
        st = check_scatter_shapes(c, *d);
    if (st == TSR_OK)
        st = check_reduce(c);
    if (st == TSR_OK && !c->src)
        st = tsr__check_value_fits(c->op, c->value, c->self->dtype);
    return st;
}

/* ------------------------------------------------------------------------ */
/* index_add's and index_copy's checks                                       */
/* ------------------------------------------------------------------------ */

static tsr_status check_index_put(scatter_call *c, int *d, tsr_tensor **index64)
{
    tsr_status st = check_common(c, d);
    if (st != TSR_OK)
        return st;
    const tsr_tensor *self = c->self, *index = c->index, *src = c->src;
    bool int32_ok = c->kernel == TSR_OP_INDEX_ADD;
    if (index->dtype != TSR_INT64 && !(int32_ok && index->dtype == TSR_INT32))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: expected dtype int64%s for index, got %s", c->op,
                              int32_ok ? " or int32" : "", tsr_dtype_name(index->dtype));
    if (index->ndim > 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: index should have dimension 1 or 0, got %d",
                              c->op, index->ndim);
    int rank = self->ndim > 0 ? self->ndim : 1;
    if ((src->ndim > 0 ? src->ndim : 1) != rank)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: source and self must have the same number of "
                              "dimensions (%d and %d)",
                              c->op, src->ndim, self->ndim);
    int64_t n = tsr_tensor_numel(index);
    for (int i = 0; i < rank; i++) {
        int64_t want = i == *d ? n : size_or_one(self, i);
        if (size_or_one(src, i) != want)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: source has size %lld at dimension %d, "
                                  "expected %lld (%s)",
                                  c->op, (long long)size_or_one(src, i), i, (long long)want,
                                  i == *d ? "the number of indices" : "self's slice shape");
    }
    tsr_tensor *converted = NULL;
    if ((st = tsr_to_dtype(index, TSR_INT64, &converted)) != TSR_OK)
        return st;
    st = tsr__at_least_1d(converted, index64);
    tsr_tensor_release(converted);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The one kernel call                                                       */
/* ------------------------------------------------------------------------ */

static tsr_status launch(const scatter_call *c, int d, const tsr_tensor *index, tsr_tensor **out)
{
    tsr_tensor *self1 = NULL, *index1 = NULL, *src1 = NULL, *target = NULL;
    tsr_status st = tsr__at_least_1d(c->self, &self1);
    if (st == TSR_OK)
        st = tsr__at_least_1d(index, &index1);
    if (st == TSR_OK && c->src)
        st = tsr__at_least_1d(c->src, &src1);
    if (st == TSR_OK && c->inplace) {
        tsr_tensor_retain(self1);
        target = self1;
    } else if (st == TSR_OK) {
        st = tsr__tensor_empty(c->op, c->self->storage->backend, c->self->dtype, self1->ndim,
                               self1->shape, &target);
    }
    tsr_index_attrs attrs = {.struct_size = sizeof attrs,
                             .dim = d,
                             .reduce = c->reduce,
                             .flags = c->flags | (c->src ? 0 : TSR_INDEX_SCALAR_SRC),
                             .value = c->value};
    const tsr_tensor *in[3] = {self1, index1, src1};
    if (st == TSR_OK)
        st = tsr__launch(c->kernel, c->self->dtype, c->self->dtype, in, c->src ? 3 : 2, &target, 1,
                         &attrs);
    if (st != TSR_OK && strcmp(c->op, tsr_op_name(c->kernel)) != 0)
        tsr__prefix_error("%s", c->op);
    /* a 0-d self gives a 0-d result */
    if (st == TSR_OK && !c->inplace)
        st = tsr__tensor_restride(target, c->self->ndim, c->self->shape, target->strides, 0, out);
    tsr_tensor_release(self1);
    tsr_tensor_release(index1);
    tsr_tensor_release(src1);
    tsr_tensor_release(target);
    return st;
}

static tsr_status record(const scatter_call *c, int d, const tsr_tensor *index,
                         const tsr_tensor *self, tsr_tensor *out)
{
    tsr__scatter_grad info = {.kernel = c->kernel,
                              .dim = d,
                              .reduce = c->reduce,
                              .include_self = (c->flags & TSR_INDEX_INCLUDE_SELF) != 0,
                              .alpha = c->value,
                              .name = c->op};
    return tsr__grad_record_scatter(&info, self, index, c->src, out);
}

/* In place: PyTorch's checks, then autograd's, then the kernel into self;
 * the node (if any) takes self's old value and history as its input. */
static tsr_status run_inplace(scatter_call *c, int d, const tsr_tensor *index)
{
    tsr_tensor *self = (tsr_tensor *)c->self;
    const tsr_tensor *others[2] = {c->index, c->src};
    tsr_status st = tsr__check_inplace_target(c->op, self, others, 2);
    tsr__inplace ip;
    tsr_operand src = c->src ? tsr_operand_tensor(c->src) : tsr_operand_scalar(c->value);
    if (st != TSR_OK || (st = tsr__inplace_begin(c->op, self, &src, 1, false, &ip)) != TSR_OK)
        return st;
    st = launch(c, d, index, NULL);
    if (st == TSR_OK) {
        tsr__bump_version(self);
        if (ip.active)
            st = record(c, d, index, ip.old, self);
    }
    tsr__inplace_end(&ip);
    return st;
}

static tsr_status run(scatter_call *c, tsr_tensor **out)
{
    if (!c->inplace && !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", c->op);
    int d = 0;
    tsr_tensor *index = NULL, *result = NULL;
    tsr_status st;
    if (c->kernel == TSR_OP_SCATTER) {
        st = check_scatter(c, &d);
        if (st == TSR_OK) {
            tsr_tensor_retain(c->index);
            index = (tsr_tensor *)c->index;
        }
    } else {
        st = check_index_put(c, &d, &index);
    }
    if (st == TSR_OK && c->inplace) {
        st = run_inplace(c, d, index);
    } else if (st == TSR_OK) {
        st = launch(c, d, index, &result);
        if (st == TSR_OK)
            st = record(c, d, index, c->self, result);
        st = tsr__deliver(st, result, out);
    }
    tsr_tensor_release(index);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The public forms                                                          */
/* ------------------------------------------------------------------------ */

/* scatter's reduce= takes only 'add' and 'multiply'; both include self. */
static tsr_status scatter_form(const char *op, const tsr_tensor *t, int64_t dim,
                               const tsr_tensor *index, const tsr_tensor *src, tsr_scalar value,
                               int reduce, bool inplace, tsr_tensor **out)
{
    if (reduce != TSR_REDUCE_NONE && reduce != TSR_REDUCE_SUM && reduce != TSR_REDUCE_PROD)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: reduce argument must be either "
                              "none, add or multiply (got %d)",
                              op, reduce);
    if (!src && !tsr__scalar_valid(value))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: value has an invalid kind", op);
    scatter_call c = {.op = op,
                      .kernel = TSR_OP_SCATTER,
                      .self = t,
                      .dim = dim,
                      .index = index,
                      .src = src,
                      .value = value,
                      .reduce = reduce,
                      .flags = TSR_INDEX_INCLUDE_SELF,
                      .inplace = inplace};
    return run(&c, out);
}

tsr_status tsr_scatter(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                       const tsr_tensor *src, int reduce, tsr_tensor **out)
{
    if (!src)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "scatter: src must not be NULL");
    return scatter_form("scatter", t, dim, index, src, tsr_scalar_int(0), reduce, false, out);
}

tsr_status tsr_scatter_value(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                             tsr_scalar value, int reduce, tsr_tensor **out)
{
    return scatter_form("scatter", t, dim, index, NULL, value, reduce, false, out);
}

tsr_status tsr_scatter_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                        const tsr_tensor *src, int reduce)
{
    if (!src)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "scatter_: src must not be NULL");
    return scatter_form("scatter_", self, dim, index, src, tsr_scalar_int(0), reduce, true, NULL);
}

tsr_status tsr_scatter_value_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                              tsr_scalar value, int reduce)
{
    return scatter_form("scatter_", self, dim, index, NULL, value, reduce, true, NULL);
}

static tsr_status reduce_form(const char *op, const tsr_tensor *t, int64_t dim,
                              const tsr_tensor *index, const tsr_tensor *src, int reduce,
                              bool include_self, bool inplace, tsr_tensor **out)
{
    if (reduce < TSR_REDUCE_SUM || reduce > TSR_REDUCE_AMIN)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: reduce argument must be either sum, "
                              "prod, mean, amax or amin (got %d)",
                              op, reduce);
    scatter_call c = {.op = op,
                      .kernel = TSR_OP_SCATTER,
                      .self = t,
                      .dim = dim,
                      .index = index,
                      .src = src,
                      .reduce = reduce,
                      .flags = include_self ? TSR_INDEX_INCLUDE_SELF : 0,
                      .inplace = inplace};
    return run(&c, out);
}

tsr_status tsr_scatter_add(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                           const tsr_tensor *src, tsr_tensor **out)
{
    return reduce_form("scatter_add", t, dim, index, src, TSR_REDUCE_SUM, true, false, out);
}

tsr_status tsr_scatter_add_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                            const tsr_tensor *src)
{
    return reduce_form("scatter_add_", self, dim, index, src, TSR_REDUCE_SUM, true, true, NULL);
}

tsr_status tsr_scatter_reduce(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                              const tsr_tensor *src, int reduce, bool include_self,
                              tsr_tensor **out)
{
    return reduce_form("scatter_reduce", t, dim, index, src, reduce, include_self, false, out);
}

tsr_status tsr_scatter_reduce_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                               const tsr_tensor *src, int reduce, bool include_self)
{
    return reduce_form("scatter_reduce_", self, dim, index, src, reduce, include_self, true, NULL);
}

tsr_status tsr_index_add(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                         const tsr_tensor *source, tsr_scalar alpha, tsr_tensor **out)
{
    if (!tsr__scalar_valid(alpha))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "index_add: alpha has an invalid kind");
    scatter_call c = {.op = "index_add",
                      .kernel = TSR_OP_INDEX_ADD,
                      .self = t,
                      .dim = dim,
                      .index = index,
                      .src = source,
                      .value = alpha};
    return run(&c, out);
}

tsr_status tsr_index_add_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                          const tsr_tensor *source, tsr_scalar alpha)
{
    if (!tsr__scalar_valid(alpha))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "index_add_: alpha has an invalid kind");
    scatter_call c = {.op = "index_add_",
                      .kernel = TSR_OP_INDEX_ADD,
                      .self = self,
                      .dim = dim,
                      .index = index,
                      .src = source,
                      .value = alpha,
                      .inplace = true};
    return run(&c, NULL);
}

tsr_status tsr_index_copy(const tsr_tensor *t, int64_t dim, const tsr_tensor *index,
                          const tsr_tensor *source, tsr_tensor **out)
{
    scatter_call c = {.op = "index_copy",
                      .kernel = TSR_OP_INDEX_COPY,
                      .self = t,
                      .dim = dim,
                      .index = index,
                      .src = source};
    return run(&c, out);
}

tsr_status tsr_index_copy_(tsr_tensor *self, int64_t dim, const tsr_tensor *index,
                           const tsr_tensor *source)
{
    scatter_call c = {.op = "index_copy_",
                      .kernel = TSR_OP_INDEX_COPY,
                      .self = self,
                      .dim = dim,
                      .index = index,
                      .src = source,
                      .inplace = true};
    return run(&c, NULL);
}
