/* Type promotion: torch.promote_types and torch.result_type. */
#include "tensor/scalar.h"

#include "runtime/error.h"
#include "tensor/tensor.h"

#include <stdio.h>

static bool is_unsigned_byte(tsr_dtype d)
{
    return d == TSR_UINT8;
}

static tsr_dtype promote_integers(tsr_dtype a, tsr_dtype b)
{
    /* uint8 is the only unsigned type: mixing it with int8 needs int16 to
     * hold both ranges; with wider signed types the signed one suffices. */
    if (is_unsigned_byte(a) || is_unsigned_byte(b)) {
        tsr_dtype other = is_unsigned_byte(a) ? b : a;
        return other == TSR_INT8 ? TSR_INT16 : other;
    }
    return tsr_dtype_size(a) >= tsr_dtype_size(b) ? a : b;
}

static tsr_dtype promote_floats(tsr_dtype a, tsr_dtype b)
{
    /* float16 and bfloat16 cannot represent each other's values. */
    bool a_half = a == TSR_FLOAT16 || a == TSR_BFLOAT16;
    bool b_half = b == TSR_FLOAT16 || b == TSR_BFLOAT16;
    if (a_half && b_half)
        return TSR_FLOAT32;
    return tsr_dtype_size(a) >= tsr_dtype_size(b) ? a : b;
}

static tsr_dtype complex_of(tsr_dtype real)
{
    return real == TSR_FLOAT64 ? TSR_COMPLEX128 : TSR_COMPLEX64;
}

tsr_dtype tsr__promote(tsr_dtype a, tsr_dtype b)
{
    if (a == b)
        return a;
    tsr__category ca = tsr__dtype_category(a), cb = tsr__dtype_category(b);
    if (ca != cb) {
        /* The higher category wins, but a complex result must still hold a
         * float64 operand's precision. */
        tsr_dtype hi = ca > cb ? a : b, lo = ca > cb ? b : a;
        tsr__category clo = ca > cb ? cb : ca;
        if (tsr_dtype_is_complex(hi) && clo == TSR__CATEGORY_FLOATING && lo == TSR_FLOAT64)
            return TSR_COMPLEX128;
        return hi;
    }
    switch (ca) {
    case TSR__CATEGORY_INTEGER:
        return promote_integers(a, b);
    case TSR__CATEGORY_FLOATING:
        return promote_floats(a, b);
    default:
        return tsr_dtype_size(a) >= tsr_dtype_size(b) ? a : b;
    }
}

tsr_status tsr_promote_types(tsr_dtype a, tsr_dtype b, tsr_dtype *out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "promote_types: out must not be NULL");
    if (!tsr__dtype_valid(a) || !tsr__dtype_valid(b))
        return tsr__set_error(TSR_ERR_DTYPE, "promote_types: invalid dtype id %d or %d", (int)a,
                              (int)b);
    *out = tsr__promote(a, b);
    return TSR_OK;
}

/* A Python scalar stands for the default dtype of its kind. */
static tsr_dtype wrapped_scalar_dtype(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_BOOL:
        return TSR_BOOL;
    case TSR_SCALAR_INT:
        return TSR_INT64;
    case TSR_SCALAR_FLOAT:
        return TSR_FLOAT32;
    default:
        return TSR_COMPLEX64;
    }
}

enum { NO_DTYPE = -1 };

static int promote_optional(int acc, tsr_dtype d)
{
    return acc == NO_DTYPE ? (int)d : (int)tsr__promote((tsr_dtype)acc, d);
}

/* Combines the result of a higher priority class of operands with a lower
 * one: the lower class only matters when it is of a higher category. */
static int combine_classes(int higher, int lower)
{
    if (higher == NO_DTYPE)
        return lower;
    if (lower == NO_DTYPE)
        return higher;
    tsr_dtype hi = (tsr_dtype)higher, lo = (tsr_dtype)lower;
    if (tsr_dtype_is_complex(hi))
        return hi;
    if (tsr_dtype_is_complex(lo))
        return tsr_dtype_is_floating(hi) ? complex_of(hi) : lo;
    if (tsr_dtype_is_floating(hi))
        return hi;
    if (hi == TSR_BOOL || tsr_dtype_is_floating(lo))
        return tsr__promote(hi, lo);
    return hi;
}

tsr_status tsr__result_type(const char *op, const tsr_operand *operands, size_t count,
                            tsr_dtype *out)
{
    int dimensioned = NO_DTYPE, zero_dim = NO_DTYPE, scalars = NO_DTYPE;
    for (size_t i = 0; i < count; i++) {
        const tsr_tensor *t = operands[i].tensor;
        if (t) {
            if (t->ndim > 0)
                dimensioned = promote_optional(dimensioned, t->dtype);
            else
                zero_dim = promote_optional(zero_dim, t->dtype);
        } else {
            if (!tsr__scalar_valid(operands[i].scalar)) {
                char arg[32];
                snprintf(arg, sizeof arg, "operand %zu", i);
                return tsr__check_operand(op, arg, operands[i]);
            }
            scalars = promote_optional(scalars, wrapped_scalar_dtype(operands[i].scalar));
        }
    }
    int result = combine_classes(dimensioned, combine_classes(zero_dim, scalars));
    if (result == NO_DTYPE)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: no operands", op);
    *out = (tsr_dtype)result;
    return TSR_OK;
}

tsr_status tsr_result_type(const tsr_operand *operands, size_t count, tsr_dtype *out)
{
    if (!operands || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "result_type: operands and out must not be NULL");
    return tsr__result_type("result_type", operands, count, out);
}
