/* Elementwise dispatch: promotion, broadcasting and conversion of operands. */
#include "ops/elementwise.h"

#include "runtime/backend.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "ops/elementwise_rules.h"
#include "runtime/error.h"
#include "tensor/shape.h"

static bool operand_is_bool(tsr_operand o)
{
    return o.tensor ? o.tensor->dtype == TSR_BOOL : o.scalar.kind == TSR_SCALAR_BOOL;
}

tsr_status tsr__binary_dtypes(tsr_op op, tsr_operand a, tsr_operand b, tsr_dtype *compute,
                              tsr_dtype *result)
{
    const char *name = tsr_op_name(op);
    tsr_operand both[2] = {a, b};
    tsr_dtype common;
    tsr_status st = tsr__result_type(name, both, 2, &common);
    if (st != TSR_OK)
        return st;
    if (op == TSR_OP_SUB && (operand_is_bool(a) || operand_is_bool(b)))
        return tsr__set_error(TSR_ERR_DTYPE, "sub: subtraction with a bool operand is not "
                                             "supported; use logical_xor or logical_not instead");
    if (op == TSR_OP_POW && !b.tensor && b.scalar.kind == TSR_SCALAR_INT && b.scalar.v.i < 0 &&
        tsr_dtype_is_integral(common, true))
        return tsr__set_error(TSR_ERR_VALUE, "pow: integers to negative integer powers are not "
                                             "allowed (exponent %lld)", (long long)b.scalar.v.i);
    tsr__ew_rule rule = tsr__ew_rule_of(op);
    if (rule.result == TSR__EW_FLOAT && tsr_dtype_is_integral(common, true))
        common = TSR_FLOAT32; /* atan2, copysign: floating functions */
    *compute = common;
    *result = rule.result == TSR__EW_BOOL ? TSR_BOOL : common;
    return TSR_OK;
}

tsr_status tsr__normalize_alpha(const char *name, tsr_scalar alpha, tsr_dtype compute,
                                tsr_scalar *out)
{
    if (!tsr__scalar_valid(alpha))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: alpha has an invalid kind", name);
    if (tsr_dtype_is_integral(compute, true) && alpha.kind > TSR_SCALAR_INT)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: for integral inputs, alpha must not be a "
                                             "floating point or complex number", name);
    if (compute != TSR_BOOL && alpha.kind == TSR_SCALAR_BOOL)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: a bool alpha is only supported for bool results",
                              name);
    if (compute == TSR_BOOL) {
        /* a + alpha * b in bool: alpha only matters as zero or not */
        *out = tsr_scalar_bool(alpha.v.i != 0);
        return TSR_OK;
    }
    if (!tsr_dtype_is_complex(compute) && alpha.kind == TSR_SCALAR_COMPLEX)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: complex alpha needs a complex result", name);
    *out = alpha;
    if (tsr__dtype_category(compute) >= TSR__CATEGORY_FLOATING && alpha.kind != TSR_SCALAR_COMPLEX)
        *out = tsr_scalar_float(tsr__scalar_to_double(alpha));
    return TSR_OK;
}

static tsr_status find_backend(const char *name, const tsr_operand *operands, int count,
                               tsr_backend **out)
{
    const tsr_tensor *tensors[TSR__MAX_OPERANDS];
    for (int i = 0; i < count; i++)
        tensors[i] = operands[i].tensor;
    tsr_status st = tsr__common_backend(name, tensors, count, out);
    if (st == TSR_OK && !*out)
        st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: at least one operand must be a tensor",
                            name);
    return st;
}

static tsr_status broadcast_all(const char *name, const tsr_operand *operands, int count,
                                int *ndim, int64_t *shape)
{
    *ndim = 0;
    for (int i = 0; i < count; i++) {
        const tsr_tensor *t = operands[i].tensor;
        if (t && tsr__broadcast_shapes(name, *ndim, shape, t->ndim, t->shape, ndim, shape) != TSR_OK)
            return TSR_ERR_SHAPE;
    }
    return TSR_OK;
}

static bool same_shape(const tsr_tensor *t, int ndim, const int64_t *shape)
{
    if (t->ndim != ndim)
        return false;
    for (int i = 0; i < ndim; i++) {
        if (t->shape[i] != shape[i])
            return false;
    }
    return true;
}

/* Operands as the kernel reads them: `use[i]` is either the caller's own
 * tensor (borrowed for the call, `own[i]` NULL) or a converted or expanded
 * one made here (`own[i]`, released afterwards). */
typedef struct prepared_operands {
    const tsr_tensor *use[TSR__MAX_OPERANDS];
    tsr_tensor *own[TSR__MAX_OPERANDS];
} prepared_operands;

/* Operand i converted to `compute` on backend b and expanded to shape. */
static tsr_status prepare(const char *name, tsr_operand o, tsr_dtype compute, tsr_backend *b,
                          int ndim, const int64_t *shape, prepared_operands *p, int i)
{
    p->own[i] = NULL;
    /* The common case needs neither step: the operand itself is what the
     * conversion and the expansion would return views of, and the caller
     * holds it until the op returns. */
    if (o.tensor && o.tensor->dtype == compute && same_shape(o.tensor, ndim, shape)) {
        p->use[i] = o.tensor;
        return TSR_OK;
    }
    tsr_tensor *converted;
    tsr_status st = o.tensor ? tsr_to_dtype(o.tensor, compute, &converted)
                             : tsr__scalar_tensor(name, o.scalar, compute, b, &converted);
    if (st != TSR_OK)
        return st;
    st = tsr_expand(converted, ndim, shape, &p->own[i]);
    tsr_tensor_release(converted);
    p->use[i] = p->own[i];
    return st;
}

static void release_all(tsr_tensor **tensors, int count)
{
    for (int i = 0; i < count; i++)
        tsr_tensor_release(tensors[i]);
}

/* The fast path: when every operand is already a tensor of the dtype it is
 * read in and of operand 0's shape, broadcasting and conversion are no-ops
 * and the operands go to the kernel as they are, with no temporary tensors. */
static bool operands_ready(const tsr_operand *operands, int count, const tsr_dtype *kept,
                           tsr_dtype compute, prepared_operands *p)
{
    const tsr_tensor *first = operands[0].tensor;
    for (int i = 0; i < count; i++) {
        const tsr_tensor *t = operands[i].tensor;
        tsr_dtype dtype = kept && kept[i] != TSR_DTYPE_INFER ? kept[i] : compute;
        if (!t || t->dtype != dtype || !same_shape(t, first->ndim, first->shape))
            return false;
        p->use[i] = t;
        p->own[i] = NULL;
    }
    return true;
}

/* Conversions and broadcasts of operands are not part of the op's autograd
 * history (the op records one node for all of it), so they run in no-grad. */
static tsr_status prepare_all(const char *name, const tsr_operand *operands, int count,
                              tsr_dtype compute, const tsr_dtype *kept, tsr_backend *b, int ndim,
                              const int64_t *shape, prepared_operands *prepared)
{
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_status st = TSR_OK;
    for (int i = 0; i < count && st == TSR_OK; i++) {
        tsr_dtype dtype = kept && kept[i] != TSR_DTYPE_INFER ? kept[i] : compute;
        st = prepare(name, operands[i], dtype, b, ndim, shape, prepared, i);
        if (st != TSR_OK) {
            tsr__prefix_error("%s", name);
            release_all(prepared->own, i);
        }
    }
    tsr_grad_mode_set(grad_mode);
    return st;
}

tsr_status tsr__elementwise(tsr_op op, const char *name, const tsr_operand *operands, int count,
                            tsr_dtype compute, tsr_dtype result, const void *attrs,
                            tsr_tensor **out)
{
    return tsr__elementwise_kept(op, name, operands, count, NULL, compute, result, attrs, out);
}

tsr_status tsr__elementwise_kept(tsr_op op, const char *name, const tsr_operand *operands,
                                 int count, const tsr_dtype *kept, tsr_dtype compute,
                                 tsr_dtype result, const void *attrs, tsr_tensor **out)
{
    tsr_backend *b;
    int ndim;
    int64_t broadcast[TSR_MAX_DIMS];
    const int64_t *shape = broadcast;
    prepared_operands prepared;
    tsr_status st = find_backend(name, operands, count, &b);
    bool ready = st == TSR_OK && operands_ready(operands, count, kept, compute, &prepared);
    if (ready)
        ndim = operands[0].tensor->ndim, shape = operands[0].tensor->shape;
    else if (st == TSR_OK)
        st = broadcast_all(name, operands, count, &ndim, broadcast);
    if (st == TSR_OK)
        st = tsr__require_kernel(name, b, op, compute, result);
    if (st != TSR_OK)
        return st;
    tsr_tensor *output;
    if (!ready && (st = prepare_all(name, operands, count, compute, kept, b, ndim, shape,
                                    &prepared)) != TSR_OK)
        return st;
    st = tsr__tensor_empty(name, b, result, ndim, shape, &output);
    if (st == TSR_OK) {
        st = tsr__launch(op, compute, result, prepared.use, count, &output, 1, attrs);
        if (st == TSR_OK)
            *out = output;
        else
            tsr_tensor_release(output);
    }
    release_all(prepared.own, count);
    return st;
}

/* Partial overlap with self in another layout would let the kernel read
 * elements it already wrote; such operands are copied first. */
static tsr_status unalias(const char *name, tsr_tensor *self, tsr_operand *o)
{
    if (!o->tensor || o->tensor->storage != self->storage || tsr__same_layout(o->tensor, self))
        return TSR_OK;
    tsr_tensor *copy;
    tsr_status st = tsr__materialize(name, o->tensor, &copy);
    if (st == TSR_OK)
        o->tensor = copy;
    return st;
}

tsr_status tsr__elementwise_into(tsr_op op, const char *name, tsr_tensor *self,
                                 const tsr_operand *operands, int count, tsr_dtype compute,
                                 const void *attrs)
{
    const tsr_tensor *tensors[TSR__MAX_OPERANDS + 1] = {self};
    for (int i = 0; i < count; i++)
        tensors[i + 1] = operands[i].tensor;
    tsr_backend *b;
    tsr_status st = tsr__common_backend(name, tensors, count + 1, &b);
    if (st != TSR_OK)
        return st;
    tsr_operand local[TSR__MAX_OPERANDS] = {{0}};
    prepared_operands prepared;
    tsr_tensor *result = self;
    st = tsr__require_kernel(name, b, op, compute, compute);
    int unaliased = 0;
    for (; unaliased < count && st == TSR_OK; unaliased++) {
        local[unaliased] = operands[unaliased];
        if (local[unaliased].tensor != self)
            st = unalias(name, self, &local[unaliased]);
    }
    if (st == TSR_OK)
        st = prepare_all(name, local, count, compute, NULL, b, self->ndim, self->shape, &prepared);
    if (st == TSR_OK) {
        if (compute != self->dtype)
            st = tsr__tensor_empty(name, b, compute, self->ndim, self->shape, &result);
        if (st == TSR_OK)
            st = tsr__launch(op, compute, compute, prepared.use, count, &result, 1, attrs);
        if (st == TSR_OK && result != self)
            st = tsr__copy_same_backend(name, self, result);
        if (result != self)
            tsr_tensor_release(result);
        release_all(prepared.own, count);
    }
    for (int i = 0; i < unaliased; i++) {
        if (local[i].tensor != operands[i].tensor)
            tsr_tensor_release(local[i].tensor);
    }
    if (st == TSR_OK)
        tsr__bump_version(self);
    return st;
}
