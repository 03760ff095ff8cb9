/* In-place elementwise ops: self.add_(other) and friends. */
#include "autograd/graph.h"
#include "ops/inplace.h"
#include "tensor/copy.h"
#include "tensor/scalar.h"
#include "ops/elementwise.h"
#include "ops/elementwise_rules.h"
#include "runtime/error.h"
#include "tensor/shape.h"
#include "ops/elementwise_grad.h"

#include <stdio.h>

static tsr_status check_writable(const char *name, const tsr_tensor *self)
{
    if (tsr__has_internal_overlap(self))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: self has internal overlap (more than one element refers to the "
                              "same memory, as after expand); clone it first",
                              name);
    return TSR_OK;
}

/* The result of an in-place op is stored in self's dtype, which may not be of
 * a lower category than the result (float into int would lose the fraction). */
static tsr_status check_result_fits(const char *name, tsr_dtype result, tsr_dtype self)
{
    if (tsr__dtype_category(result) > tsr__dtype_category(self))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: result type %s can't be cast to the desired "
                                             "output type %s", name, tsr_dtype_name(result),
                              tsr_dtype_name(self));
    return TSR_OK;
}

/* PyTorch refuses an in-place op whose operand partly overlaps self: the
 * result would depend on the order the kernel walks the elements. */
static tsr_status check_no_partial_overlap(const char *name, const tsr_tensor *self,
                                           const tsr_operand *others, int count)
{
    for (int i = 0; i < count; i++) {
        if (others[i].tensor && tsr__partially_overlaps(self, others[i].tensor))
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, TSR__PARTIAL_OVERLAP_MESSAGE, name);
    }
    return TSR_OK;
}

static tsr_status check_not_broadcast(const char *name, const tsr_tensor *self,
                                      const tsr_operand *others, int count)
{
    int ndim = self->ndim;
    int64_t shape[TSR_MAX_DIMS];
    for (int i = 0; i < ndim; i++)
        shape[i] = self->shape[i];
    for (int i = 0; i < count; i++) {
        const tsr_tensor *t = others[i].tensor;
        if (t && tsr__broadcast_shapes(name, ndim, shape, t->ndim, t->shape, &ndim, shape) != TSR_OK)
            return TSR_ERR_SHAPE;
    }
    if (ndim != self->ndim || tsr__numel(ndim, shape) != tsr_tensor_numel(self)) {
        char a[160], b[160];
        return tsr__set_error(TSR_ERR_SHAPE, "%s: output with shape %s doesn't match the broadcast "
                                             "shape %s", name,
                              tsr__shape_str(self->ndim, self->shape, a, sizeof a),
                              tsr__shape_str(ndim, shape, b, sizeof b));
    }
    return TSR_OK;
}

tsr_status tsr__inplace_check(const char *name, const tsr_tensor *self, tsr_dtype result,
                              const tsr_operand *others, int count)
{
    tsr_status st = check_result_fits(name, result, self->dtype);
    if (st == TSR_OK)
        st = check_not_broadcast(name, self, others, count);
    if (st == TSR_OK)
        st = check_writable(name, self);
    if (st == TSR_OK)
        st = check_no_partial_overlap(name, self, others, count);
    return st;
}

static tsr_status binary_inplace_checked(tsr_op op, tsr_tensor *self, tsr_operand other,
                                         tsr_elementwise_attrs *attrs);

/* The checks and the kernel speak of the out-of-place op ("mul: shapes
 * ..."); the user called self.mul_(), so the message says "mul_:". */
static tsr_status binary_inplace(tsr_op op, tsr_tensor *self, tsr_operand other,
                                 tsr_elementwise_attrs *attrs)
{
    const char *name = tsr_op_name(op);
    tsr_status st = binary_inplace_checked(op, self, other, attrs);
    if (st != TSR_OK && name) {
        char label[32];
        snprintf(label, sizeof label, "%s_", name);
        tsr__rename_error(label, name, st);
    }
    return st;
}

static tsr_status binary_inplace_checked(tsr_op op, tsr_tensor *self, tsr_operand other,
                                         tsr_elementwise_attrs *attrs)
{
    const char *name = tsr_op_name(op);
    tsr__ew_rule rule = tsr__ew_rule_of(op);
    if (rule.arity != 2 || !(rule.flags & TSR__EW_INPLACE) || !name)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "binary_: op %d has no in-place form", (int)op);
    if (!self)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s_: self must not be NULL", name);
    char label[32];
    snprintf(label, sizeof label, "%s_", name);
    tsr_status st = tsr__check_operand(label, "other", other);
    if (st != TSR_OK)
        return st;
    tsr_dtype compute, result;
    st = tsr__binary_dtypes(op, tsr_operand_tensor(self), other, &compute, &result);
    if (st != TSR_OK)
        return st;
    if (op == TSR_OP_DIV && attrs->mode == TSR_ROUND_NONE && tsr_dtype_is_integral(compute, true))
        compute = TSR_FLOAT32;
    if ((st = check_result_fits(name, compute, self->dtype)) != TSR_OK ||
        (st = check_not_broadcast(name, self, &other, 1)) != TSR_OK ||
        (st = check_writable(name, self)) != TSR_OK ||
        (st = check_no_partial_overlap(label, self, &other, 1)) != TSR_OK)
        return st;
    if (op == TSR_OP_ADD || op == TSR_OP_SUB) {
        st = tsr__normalize_alpha(name, attrs->scalars[0], compute, &attrs->scalars[0]);
        if (st != TSR_OK)
            return st;
    }
    tsr__inplace ip;
    bool needs_value = tsr__grad_inplace_needs_value(op, &other, 1);
    if ((st = tsr__inplace_begin(label, self, &other, 1, needs_value, &ip)) != TSR_OK)
        return st;
    tsr_operand operands[2] = {tsr_operand_tensor(self), tsr__inplace_operands(&ip, &other)[0]};
    st = tsr__elementwise_into(op, name, self, operands, 2, compute, attrs);
    if (st == TSR_OK)
        st = tsr__grad_elementwise2_has(op) && ip.active
                 ? tsr__grad_record_elementwise2(
                       op, (tsr_operand[]){tsr_operand_tensor(ip.old), ip.others[0]}, 2, attrs, self)
                 : tsr__grad_record_inplace(op, &ip, attrs, self);
    tsr__inplace_end(&ip);
    return st;
}

tsr_status tsr_binary_(tsr_op op, tsr_tensor *self, tsr_operand other)
{
    tsr_scalar one = self && self->dtype == TSR_BOOL ? tsr_scalar_bool(true) : tsr_scalar_int(1);
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {one}};
    return binary_inplace(op, self, other, &attrs);
}

tsr_status tsr_add_(tsr_tensor *self, tsr_operand other, tsr_scalar alpha)
{
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {alpha}};
    return binary_inplace(TSR_OP_ADD, self, other, &attrs);
}

tsr_status tsr_sub_(tsr_tensor *self, tsr_operand other, tsr_scalar alpha)
{
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {alpha}};
    return binary_inplace(TSR_OP_SUB, self, other, &attrs);
}

tsr_status tsr_div_(tsr_tensor *self, tsr_operand other, int rounding_mode)
{
    if (rounding_mode < TSR_ROUND_NONE || rounding_mode > TSR_ROUND_FLOOR)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "div_: rounding_mode %d is not one of "
                                                        "none, trunc, floor", rounding_mode);
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .mode = rounding_mode};
    return binary_inplace(TSR_OP_DIV, self, other, &attrs);
}

tsr_status tsr_clamp_(tsr_tensor *self, const tsr_operand *min, const tsr_operand *max)
{
    if (!self)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "clamp_: self must not be NULL");
    tsr_operand operands[3];
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs};
    tsr_dtype result;
    tsr_status st = tsr__clamp_operands("clamp_", self, min, max, operands, &attrs.mode, &result);
    if (st == TSR_OK)
        st = check_result_fits("clamp_", result, self->dtype);
    if (st == TSR_OK)
        st = check_not_broadcast("clamp_", self, operands + 1, 2);
    if (st == TSR_OK)
        st = check_writable("clamp_", self);
    if (st == TSR_OK)
        st = check_no_partial_overlap("clamp_", self, operands + 1, 2);
    if (st != TSR_OK)
        return st;
    /* absent bounds repeat self in operands; autograd sees only present ones */
    tsr_operand none = tsr_operand_scalar(tsr_scalar_int(0));
    tsr_operand bounds[2] = {min ? operands[1] : none, max ? operands[2] : none};
    tsr__inplace ip;
    if ((st = tsr__inplace_begin("clamp_", self, bounds, 2, true, &ip)) != TSR_OK)
        return st;
    const tsr_operand *used = tsr__inplace_operands(&ip, bounds);
    operands[1] = min ? used[0] : operands[1];
    operands[2] = max ? used[1] : operands[2];
    st = tsr__elementwise_into(TSR_OP_CLAMP, "clamp_", self, operands, 3, result, &attrs);
    if (st == TSR_OK)
        st = tsr__grad_record_inplace(TSR_OP_CLAMP, &ip, &attrs, self);
    tsr__inplace_end(&ip);
    return st;
}

tsr_status tsr_fill_(tsr_tensor *self, tsr_scalar value)
{
    if (!self)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "fill_: self must not be NULL");
    if (!tsr__scalar_valid(value))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "fill_: value has an invalid kind");
    /* PyTorch lets fill_ write an expanded self: every alias gets the same
     * value, so the result does not depend on the order of writes. */
    tsr__inplace ip;
    tsr_status st = tsr__inplace_begin("fill_", self, NULL, 0, false, &ip);
    if (st != TSR_OK)
        return st;
    st = tsr__fill("fill_", self, value);
    if (st == TSR_OK) {
        tsr__bump_version(self);
        st = tsr__grad_record_inplace(TSR_OP_FILL, &ip, NULL, self);
    }
    tsr__inplace_end(&ip);
    return st;
}

tsr_status tsr_zero_(tsr_tensor *self)
{
    return tsr_fill_(self, tsr_scalar_int(0));
}
