/* lerp, addcmul and addcdiv: elementwise ops of three tensors (lerp's
 * weight may be a scalar), and their in-place forms. */
#include "autograd/graph.h"
#include "tensor/scalar.h"
#include "ops/elementwise.h"
#include "ops/elementwise_rules.h"
#include "runtime/error.h"
#include "ops/inplace.h"

/* ------------------------------------------------------------------------ */
/* lerp                                                                      */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 does not promote lerp's operands: end and a weight tensor
 * must have start's dtype. A scalar weight is passed to the kernel as an
 * attribute (TSR_LERP_SCALAR_WEIGHT) and input 2 repeats start. */
static tsr_status lerp_operands(const char *name, const tsr_tensor *start, const tsr_tensor *end,
                                tsr_operand weight, tsr_operand *operands,
                                tsr_elementwise_attrs *attrs)
{
    if (!start || !end)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: start and end must not be NULL", name);
    tsr_status st = tsr__check_operand(name, "weight", weight);
    if (st != TSR_OK)
        return st;
    const tsr_tensor *typed[2] = {end, weight.tensor};
    const char *what[2] = {"end", "weight"};
    for (int i = 0; i < 2; i++) {
        if (typed[i] && typed[i]->dtype != start->dtype)
            return tsr__set_error(TSR_ERR_DTYPE, "%s: expected dtype %s for `%s` but got dtype %s",
                                  name, tsr_dtype_name(start->dtype), what[i],
                                  tsr_dtype_name(typed[i]->dtype));
    }
    *attrs = (tsr_elementwise_attrs){.struct_size = sizeof *attrs};
    operands[0] = tsr_operand_tensor(start);
    operands[1] = tsr_operand_tensor(end);
    operands[2] = weight.tensor ? weight : operands[0];
    if (weight.tensor)
        return TSR_OK;
    attrs->mode = TSR_LERP_SCALAR_WEIGHT;
    attrs->scalars[0] = weight.scalar;
    return tsr__scalar_check_fits(name, "weight", weight.scalar, start->dtype);
}

tsr_status tsr_lerp(const tsr_tensor *start, const tsr_tensor *end, tsr_operand weight,
                    tsr_tensor **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "lerp: out must not be NULL");
    tsr_operand operands[3];
    tsr_elementwise_attrs attrs;
    tsr_status st = lerp_operands("lerp", start, end, weight, operands, &attrs);
    if (st != TSR_OK)
        return st;
    tsr_tensor *value = NULL;
    st = tsr__elementwise(TSR_OP_LERP, "lerp", operands, 3, start->dtype, start->dtype, &attrs,
                          &value);
    if (st == TSR_OK) {
        tsr_operand recorded[3] = {operands[0], operands[1], weight};
        st = tsr__grad_record_elementwise2(TSR_OP_LERP, recorded, 3, &attrs, value);
    }
    return tsr__deliver(st, value, out);
}

/* ------------------------------------------------------------------------ */
/* addcmul, addcdiv                                                          */
/* ------------------------------------------------------------------------ */

/* The promoted dtype of the three tensors, with addcdiv's refusal of
 * integer division and a value that must fit that dtype. */
static tsr_status addc_dtype(tsr_op op, const char *name, const tsr_operand *operands,
                             tsr_scalar value, tsr_dtype *compute)
{
    for (int i = 0; i < 3; i++) {
        if (!operands[i].tensor)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: tensors must not be NULL", name);
    }
    if (op == TSR_OP_ADDCDIV && tsr_dtype_is_integral(operands[1].tensor->dtype, true) &&
        tsr_dtype_is_integral(operands[2].tensor->dtype, true))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: Integer division with addcdiv is no longer supported, and in a "
                              "future release addcdiv will perform a true division of tensor1 "
                              "and tensor2",
                              name);
    tsr_status st = tsr__result_type(name, operands, 3, compute);
    if (st == TSR_OK)
        st = tsr__scalar_check_fits(name, "value", value, *compute);
    return st;
}

static tsr_status addc(tsr_op op, const tsr_tensor *self, const tsr_tensor *tensor1,
                       const tsr_tensor *tensor2, tsr_scalar value, tsr_tensor **out)
{
    const char *name = tsr_op_name(op);
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    tsr_operand operands[3] = {tsr_operand_tensor(self), tsr_operand_tensor(tensor1),
                               tsr_operand_tensor(tensor2)};
    tsr_dtype compute;
    tsr_status st = addc_dtype(op, name, operands, value, &compute);
    if (st != TSR_OK)
        return st;
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {value}};
    tsr_tensor *result = NULL;
    st = tsr__elementwise(op, name, operands, 3, compute, compute, &attrs, &result);
    if (st == TSR_OK)
        st = tsr__grad_record_elementwise2(op, operands, 3, &attrs, result);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_addcmul(const tsr_tensor *self, const tsr_tensor *tensor1, const tsr_tensor *tensor2,
                       tsr_scalar value, tsr_tensor **out)
{
    return addc(TSR_OP_ADDCMUL, self, tensor1, tensor2, value, out);
}

tsr_status tsr_addcdiv(const tsr_tensor *self, const tsr_tensor *tensor1, const tsr_tensor *tensor2,
                       tsr_scalar value, tsr_tensor **out)
{
    return addc(TSR_OP_ADDCDIV, self, tensor1, tensor2, value, out);
}

/* ------------------------------------------------------------------------ */
/* In place                                                                  */
/* ------------------------------------------------------------------------ */

/* others: self's partners as the op takes them (lerp: end and the weight,
 * a tensor or a scalar; addcmul, addcdiv: tensor1 and tensor2). */
static tsr_status run_inplace(tsr_op op, const char *label, tsr_tensor *self,
                              const tsr_operand *others, tsr_dtype compute,
                              const tsr_elementwise_attrs *attrs)
{
    tsr_status st = tsr__inplace_check(label, self, compute, others, 2);
    tsr__inplace ip;
    if (st == TSR_OK)
        st = tsr__inplace_begin(label, self, others, 2, true, &ip);
    if (st != TSR_OK)
        return st;
    const tsr_operand *used = tsr__inplace_operands(&ip, others);
    tsr_operand self_operand = tsr_operand_tensor(self);
    tsr_operand kernel[3] = {self_operand, used[0], used[1].tensor ? used[1] : self_operand};
    st = tsr__elementwise_into(op, label, self, kernel, 3, compute, attrs);
    if (st == TSR_OK && ip.active) {
        tsr_operand recorded[3] = {tsr_operand_tensor(ip.old), used[0], used[1]};
        st = tsr__grad_record_elementwise2(op, recorded, 3, attrs, self);
    }
    tsr__inplace_end(&ip);
    return st;
}

tsr_status tsr_lerp_(tsr_tensor *self, const tsr_tensor *end, tsr_operand weight)
{
    tsr_operand operands[3];
    tsr_elementwise_attrs attrs;
    tsr_status st = lerp_operands("lerp_", self, end, weight, operands, &attrs);
    if (st != TSR_OK)
        return st;
    tsr_operand others[2] = {operands[1], weight};
    return run_inplace(TSR_OP_LERP, "lerp_", self, others, self->dtype, &attrs);
}

static tsr_status addc_(tsr_op op, const char *label, tsr_tensor *self, const tsr_tensor *tensor1,
                        const tsr_tensor *tensor2, tsr_scalar value)
{
    tsr_operand operands[3] = {tsr_operand_tensor(self), tsr_operand_tensor(tensor1),
                               tsr_operand_tensor(tensor2)};
    tsr_dtype compute;
    tsr_status st = addc_dtype(op, label, operands, value, &compute);
    if (st != TSR_OK)
        return st;
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {value}};
    return run_inplace(op, label, self, operands + 1, compute, &attrs);
}

tsr_status tsr_addcmul_(tsr_tensor *self, const tsr_tensor *tensor1, const tsr_tensor *tensor2,
                        tsr_scalar value)
{
    return addc_(TSR_OP_ADDCMUL, "addcmul_", self, tensor1, tensor2, value);
}

tsr_status tsr_addcdiv_(tsr_tensor *self, const tsr_tensor *tensor1, const tsr_tensor *tensor2,
                        tsr_scalar value)
{
    return addc_(TSR_OP_ADDCDIV, "addcdiv_", self, tensor1, tensor2, value);
}
