/* In-place unary ops (self.exp_(), self.floor_(), self.hardtanh_(...)) and
 * fill_ with a 0-d tensor value. The checks are tsr_binary_'s: the
 * result's category must fit self's dtype, self may not have internal
 * overlap; the write bumps self's version. */
#include <stdio.h>

#include "autograd/graph.h"
#include "tensor/copy.h"
#include "tensor/scalar.h"
#include "ops/elementwise.h"
#include "ops/elementwise_rules.h"
#include "runtime/error.h"
#include "ops/elementwise_grad.h"
#include "ops/inplace.h"

/* An op whose result dtype differs from its computation dtype
 * (logical_not_ writes bool results into any self) runs out of place and
 * is copied in, converting as PyTorch's in-place cast does. */
static tsr_status run_into(tsr_op op, const char *label, tsr_tensor *self, tsr_dtype compute,
                           tsr_dtype result, const tsr_elementwise_attrs *attrs)
{
    tsr_operand operand = tsr_operand_tensor(self);
    if (result == compute)
        return tsr__elementwise_into(op, label, self, &operand, 1, compute, attrs);
    tsr_tensor *value = NULL;
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_status st = tsr__elementwise(op, label, &operand, 1, compute, result, attrs, &value);
    tsr_grad_mode_set(grad_mode);
    if (st == TSR_OK)
        st = tsr__copy_same_backend(label, self, value);
    tsr_tensor_release(value);
    if (st == TSR_OK)
        tsr__bump_version(self);
    return st;
}

static tsr_status check_unary_inplace(tsr_op op, const char *label, const tsr_tensor *self)
{
    tsr__ew_rule rule = tsr__ew_rule_of(op);
    if (rule.arity != 1 || !(rule.flags & TSR__EW_INPLACE))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "unary_: op %d has no in-place form",
                              (int)op);
    if (!self)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: self must not be NULL", label);
    if (op == TSR_OP_ABS && tsr_dtype_is_complex(self->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: in-place abs is not supported for complex "
                              "tensors",
                              label);
    return TSR_OK;
}

tsr_status tsr__unary_inplace(tsr_op op, tsr_tensor *self, const tsr_elementwise_attrs *attrs)
{
    char label[40];
    snprintf(label, sizeof label, "%s_", tsr_op_name(op) ? tsr_op_name(op) : "unary");
    tsr_status st = check_unary_inplace(op, label, self);
    tsr_dtype compute, result;
    tsr_elementwise_attrs local;
    if (st == TSR_OK)
        st = tsr__unary_dtypes(op, self->dtype, &compute, &result);
    if (st == TSR_OK)
        st = tsr__unary_attrs(op, self->dtype, compute, attrs, &local);
    if (st == TSR_OK)
        st = tsr__inplace_check(label, self, result, NULL, 0);
    if (st != TSR_OK)
        return st;
    if (tsr__unary_is_identity(op, self->dtype, &local)) {
        tsr__bump_version(self); /* PyTorch copies self onto itself */
        return TSR_OK;
    }
    tsr__inplace ip;
    if ((st = tsr__inplace_begin(label, self, NULL, 0, true, &ip)) != TSR_OK)
        return st;
    st = run_into(op, label, self, compute, result, &local);
    if (st == TSR_OK && ip.active) {
        tsr_operand old = tsr_operand_tensor(ip.old);
        st = tsr__grad_elementwise2_has(op)
                 ? tsr__grad_record_elementwise2(op, &old, 1, &local, self)
                 : tsr__grad_record_unary(op, ip.old, local.mode, self);
    }
    tsr__inplace_end(&ip);
    return st;
}

tsr_status tsr_unary_(tsr_op op, tsr_tensor *self)
{
    return tsr__unary_inplace(op, self, NULL);
}

/* The element of a 0-d tensor as a Python-like scalar of its category. */
static tsr_status tensor_item(const tsr_tensor *value, tsr_scalar *out)
{
    static const tsr_dtype wide[] = {TSR_BOOL, TSR_INT64, TSR_FLOAT64, TSR_COMPLEX128};
    tsr_dtype dtype = wide[tsr__dtype_category(value->dtype)];
    tsr_tensor *converted = NULL;
    double parts[2] = {0.0, 0.0};
    int64_t integer = 0;
    bool boolean = false;
    void *host = dtype == TSR_BOOL    ? (void *)&boolean
                 : dtype == TSR_INT64 ? (void *)&integer
                                      : (void *)parts;
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_status st = tsr_to_dtype(value, dtype, &converted);
    tsr_grad_mode_set(grad_mode);
    if (st == TSR_OK)
        st = tsr_to_host(converted, host, tsr_dtype_size(dtype));
    tsr_tensor_release(converted);
    if (st != TSR_OK)
        return st;
    switch (dtype) {
    case TSR_BOOL:
        *out = tsr_scalar_bool(boolean);
        break;
    case TSR_INT64:
        *out = tsr_scalar_int(integer);
        break;
    case TSR_FLOAT64:
        *out = tsr_scalar_float(parts[0]);
        break;
    default:
        *out = tsr_scalar_complex(parts[0], parts[1]);
        break;
    }
    return TSR_OK;
}

/* PyTorch's fill_(Tensor) is fill_(value.item()). */
tsr_status tsr_fill_tensor_(tsr_tensor *self, const tsr_tensor *value)
{
    if (!self || !value)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "fill_: self and value must not be NULL");
    if (value->ndim != 0)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "fill_: only supports 0-dimension value tensor but "
                              "got tensor with %d dimensions",
                              value->ndim);
    tsr_scalar scalar;
    tsr_status st = tensor_item(value, &scalar);
    if (st != TSR_OK) {
        tsr__prefix_error("fill_");
        return st;
    }
    return tsr_fill_(self, scalar);
}
