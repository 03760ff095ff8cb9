/* The public elementwise ops: binary, unary, where, clamp. */
#include "autograd/graph.h"
#include "tensor/scalar.h"
#include "ops/elementwise.h"
#include "ops/elementwise_rules.h"
#include "runtime/error.h"
#include "ops/elementwise_grad.h"

/* Which ops are unary or binary, and the dtypes each computes in and
 * returns, come from the rule table (elementwise_rules.c). */
static bool is_binary_op(tsr_op op)
{
    return tsr__ew_is_binary(op);
}

static bool is_unary_op(tsr_op op)
{
    return tsr__ew_is_unary(op);
}

static tsr_status check_operand(const char *name, const char *arg, tsr_operand o)
{
    return tsr__check_operand(name, arg, o);
}

/* PyTorch's schemas, not a looser rule: add, sub, mul, div and floor_divide
 * take Python numbers for either operand or both (a 0-d result); remainder,
 * pow and the bitwise ops have Scalar overloads on either side but not both;
 * maximum, minimum, fmax, fmin, atan2, hypot and logical_* have none; the
 * others (comparisons, fmod, copysign) take a Scalar `other` only. */
static tsr_status check_scalar_forms(tsr_op op, const char *name, tsr_operand a, tsr_operand b)
{
    bool scalar_a = !a.tensor, scalar_b = !b.tensor;
    bool self_ok = false, other_ok = true, both_ok = false;
    switch (op) {
    case TSR_OP_ADD:
    case TSR_OP_SUB:
    case TSR_OP_MUL:
    case TSR_OP_DIV:
    case TSR_OP_FLOOR_DIVIDE:
        self_ok = both_ok = true;
        break;
    case TSR_OP_REMAINDER:
    case TSR_OP_POW:
    case TSR_OP_BITWISE_AND:
    case TSR_OP_BITWISE_OR:
    case TSR_OP_BITWISE_XOR:
    case TSR_OP_BITWISE_LEFT_SHIFT:
    case TSR_OP_BITWISE_RIGHT_SHIFT:
        self_ok = true;
        break;
    case TSR_OP_MAXIMUM:
    case TSR_OP_MINIMUM:
    case TSR_OP_FMAX:
    case TSR_OP_FMIN:
    case TSR_OP_ATAN2:
    case TSR_OP_HYPOT:
    case TSR_OP_LOGICAL_AND:
    case TSR_OP_LOGICAL_OR:
    case TSR_OP_LOGICAL_XOR:
        other_ok = false;
        break;
    default:
        break;
    }
    if (scalar_a && scalar_b && !both_ok)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input and other are both Python scalars; %s has no such form",
                              name, name);
    if ((scalar_a && !self_ok) || (scalar_b && !other_ok))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: argument '%s' must be a tensor, not a Python scalar", name,
                              scalar_a && !self_ok ? "input" : "other");
    return TSR_OK;
}

static tsr_status binary(tsr_op op, tsr_operand a, tsr_operand b, const tsr_elementwise_attrs *attrs,
                         tsr_tensor **out);

/* torch.mul(False, False) and kin: two Python numbers become 0-d tensors of
 * one dtype, as PyTorch 1.13 gives it: the full-width dtype of their kind
 * when the kinds agree (bool, int64, float64, complex128), else the higher
 * kind's default (int64, float32, complex64). */
static tsr_status binary_of_numbers(tsr_op op, tsr_operand a, tsr_operand b,
                                    const tsr_elementwise_attrs *attrs, tsr_tensor **out)
{
    static const tsr_dtype same[] = {TSR_BOOL, TSR_INT64, TSR_FLOAT64, TSR_COMPLEX128};
    static const tsr_dtype mixed[] = {TSR_BOOL, TSR_INT64, TSR_FLOAT32, TSR_COMPLEX64};
    tsr_scalar_kind ka = a.scalar.kind, kb = b.scalar.kind;
    tsr_dtype dtype = ka == kb ? same[ka] : mixed[ka > kb ? ka : kb];
    tsr_tensor *ta = NULL, *tb = NULL;
    tsr_status st = tsr_full(0, NULL, a.scalar, dtype, NULL, &ta);
    if (st == TSR_OK)
        st = tsr_full(0, NULL, b.scalar, dtype, NULL, &tb);
    if (st == TSR_OK)
        st = binary(op, tsr_operand_tensor(ta), tsr_operand_tensor(tb), attrs, out);
    tsr_tensor_release(ta);
    tsr_tensor_release(tb);
    return st;
}

static tsr_status binary(tsr_op op, tsr_operand a, tsr_operand b, const tsr_elementwise_attrs *attrs,
                         tsr_tensor **out)
{
    const char *name = tsr_op_name(op);
    if (!is_binary_op(op))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "binary: op %d is not a binary elementwise op",
                              (int)op);
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: out must not be NULL", name);
    tsr_status st = check_operand(name, "input", a);
    if (st == TSR_OK)
        st = check_operand(name, "other", b);
    if (st == TSR_OK)
        st = check_scalar_forms(op, name, a, b);
    if (st == TSR_OK && !a.tensor && !b.tensor)
        return binary_of_numbers(op, a, b, attrs, out);
    tsr_dtype compute, result;
    if (st == TSR_OK)
        st = tsr__binary_dtypes(op, a, b, &compute, &result);
    if (st != TSR_OK)
        return st;
    tsr_elementwise_attrs local = {.struct_size = sizeof local};
    if (attrs)
        local = *attrs;
    if (op == TSR_OP_DIV && local.mode == TSR_ROUND_NONE &&
        tsr_dtype_is_integral(compute, true))
        compute = result = TSR_FLOAT32; /* true division */
    if (op == TSR_OP_ADD || op == TSR_OP_SUB) {
        tsr_scalar alpha = attrs ? attrs->scalars[0]
                           : compute == TSR_BOOL ? tsr_scalar_bool(true) : tsr_scalar_int(1);
        if ((st = tsr__normalize_alpha(name, alpha, compute, &local.scalars[0])) != TSR_OK)
            return st;
    }
    tsr_operand operands[2] = {a, b};
    tsr_tensor *value = NULL;
    st = tsr__elementwise(op, name, operands, 2, compute, result, &local, &value);
    if (st == TSR_OK)
        st = tsr__grad_elementwise2_has(op)
                 ? tsr__grad_record_elementwise2(op, operands, 2, &local, value)
                 : tsr__grad_record_binary(op, a, b, &local, value);
    return tsr__deliver(st, value, out);
}

tsr_status tsr_binary(tsr_op op, tsr_operand a, tsr_operand b, tsr_tensor **out)
{
    return binary(op, a, b, NULL, out);
}

tsr_status tsr_add_scaled(tsr_operand a, tsr_operand b, tsr_scalar alpha, tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {alpha}};
    return binary(TSR_OP_ADD, a, b, &attrs, out);
}

tsr_status tsr_sub_scaled(tsr_operand a, tsr_operand b, tsr_scalar alpha, tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {alpha}};
    return binary(TSR_OP_SUB, a, b, &attrs, out);
}

tsr_status tsr_div_rounding(tsr_operand a, tsr_operand b, int rounding_mode, tsr_tensor **out)
{
    if (rounding_mode < TSR_ROUND_NONE || rounding_mode > TSR_ROUND_FLOOR)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "div: rounding_mode %d is not one of "
                                                        "none, trunc, floor", rounding_mode);
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .mode = rounding_mode};
    return binary(TSR_OP_DIV, a, b, &attrs, out);
}

static tsr_status unary(tsr_op op, const tsr_tensor *t, const tsr_elementwise_attrs *attrs,
                        tsr_tensor **out)
{
    const char *name = tsr_op_name(op);
    if (!is_unary_op(op))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "unary: op %d is not a unary elementwise op",
                              (int)op);
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    tsr_dtype compute, result;
    tsr_elementwise_attrs local;
    tsr_status st = tsr__unary_dtypes(op, t->dtype, &compute, &result);
    if (st == TSR_OK)
        st = tsr__unary_attrs(op, t->dtype, compute, attrs, &local);
    if (st != TSR_OK)
        return st;
    if (tsr__unary_is_identity(op, t->dtype, &local)) /* floor of integers: a copy */
        return tsr_clone(t, out);
    tsr_operand operand = tsr_operand_tensor(t);
    tsr_tensor *value = NULL;
    st = tsr__elementwise(op, name, &operand, 1, compute, result, &local, &value);
    if (st == TSR_OK)
        st = tsr__grad_elementwise2_has(op)
                 ? tsr__grad_record_elementwise2(op, &operand, 1, &local, value)
                 : tsr__grad_record_unary(op, t, local.mode, value);
    return tsr__deliver(st, value, out);
}

tsr_status tsr__unary_with_attrs(tsr_op op, const tsr_tensor *t, const tsr_elementwise_attrs *attrs,
                                 tsr_tensor **out)
{
    return unary(op, t, attrs, out);
}

tsr_status tsr_unary(tsr_op op, const tsr_tensor *t, tsr_tensor **out)
{
    return unary(op, t, NULL, out);
}

tsr_status tsr_gelu(const tsr_tensor *t, int approximate, tsr_tensor **out)
{
    if (approximate != TSR_GELU_NONE && approximate != TSR_GELU_TANH)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "gelu: approximate %d is not none or tanh",
                              approximate);
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .mode = approximate};
    return unary(TSR_OP_GELU, t, &attrs, out);
}

tsr_status tsr_where(const tsr_tensor *condition, tsr_operand a, tsr_operand b, tsr_tensor **out)
{
    if (!condition || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "where: condition and out must not be NULL");
    /* PyTorch 1.13 still takes a uint8 condition (deprecated), read as bool. */
    if (condition->dtype != TSR_BOOL && condition->dtype != TSR_UINT8)
        return tsr__set_error(TSR_ERR_DTYPE, "where: condition must be a bool tensor, got %s",
                              tsr_dtype_name(condition->dtype));
    tsr_status st = check_operand("where", "input", a);
    if (st == TSR_OK)
        st = check_operand("where", "other", b);
    tsr_operand pair[2] = {a, b};
    tsr_dtype result;
    if (st == TSR_OK)
        st = tsr__result_type("where", pair, 2, &result);
    if (st != TSR_OK)
        return st;
    tsr_operand operands[3] = {tsr_operand_tensor(condition), a, b};
    tsr_dtype kept[3] = {TSR_BOOL, TSR_DTYPE_INFER, TSR_DTYPE_INFER};
    tsr_tensor *value = NULL;
    st = tsr__elementwise_kept(TSR_OP_WHERE, "where", operands, 3, kept, result, result, NULL,
                               &value);
    if (st == TSR_OK)
        st = tsr__grad_record_where(condition, a, b, value);
    return tsr__deliver(st, value, out);
}

/* The bounds that are present, as operands after x; absent ones repeat x so
 * the kernel always sees three inputs. */
static tsr_status clamp_operands(const char *name, const tsr_tensor *t, const tsr_operand *min,
                                 const tsr_operand *max, tsr_operand *operands, int *mode,
                                 tsr_dtype *result)
{
    if (!min && !max)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: at least one of min and max must be given",
                              name);
    tsr_status st = min ? check_operand(name, "min", *min) : TSR_OK;
    if (st == TSR_OK && max)
        st = check_operand(name, "max", *max);
    if (st != TSR_OK)
        return st;
    operands[0] = tsr_operand_tensor(t);
    operands[1] = min ? *min : operands[0];
    operands[2] = max ? *max : operands[0];
    *mode = (min ? TSR_CLAMP_HAS_MIN : 0) | (max ? TSR_CLAMP_HAS_MAX : 0);
    if ((!min || !min->tensor) && (!max || !max->tensor))
        *mode |= TSR_CLAMP_SCALAR_BOUNDS;
    return tsr__result_type(name, operands, 3, result);
}

tsr_status tsr_clamp(const tsr_tensor *t, const tsr_operand *min, const tsr_operand *max,
                     tsr_tensor **out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "clamp: input and out must not be NULL");
    tsr_operand operands[3];
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs};
    tsr_dtype result;
    tsr_status st = clamp_operands("clamp", t, min, max, operands, &attrs.mode, &result);
    if (st != TSR_OK)
        return st;
    tsr_tensor *value = NULL;
    st = tsr__elementwise(TSR_OP_CLAMP, "clamp", operands, 3, result, result, &attrs, &value);
    if (st == TSR_OK)
        st = tsr__grad_record_clamp(operands, attrs.mode, value);
    return tsr__deliver(st, value, out);
}

tsr_status tsr__clamp_operands(const char *name, const tsr_tensor *t, const tsr_operand *min,
                               const tsr_operand *max, tsr_operand *operands, int *mode,
                               tsr_dtype *result)
{
    return clamp_operands(name, t, min, max, operands, mode, result);
}
