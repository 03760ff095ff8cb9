/* The second elementwise family's ops with parameters: softplus,
 * leaky_relu, elu, hardtanh, round(decimals), nan_to_num. The plain unary
 * and binary ones run through tsr_unary and tsr_binary; the rule table
 * (elementwise_rules.c) checks and defaults the parameters for both paths. */
#include "ops/elementwise.h"
#include "ops/elementwise_rules.h"
#include "runtime/error.h"

static tsr_elementwise_attrs attrs_of(int32_t mode, int count, const tsr_scalar *scalars)
{
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .mode = mode};
    for (int i = 0; i < count; i++)
        attrs.scalars[i] = scalars[i];
    return attrs;
}

tsr_status tsr_softplus(const tsr_tensor *t, tsr_scalar beta, tsr_scalar threshold,
                        tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 2, (tsr_scalar[]){beta, threshold});
    return tsr__unary_with_attrs(TSR_OP_SOFTPLUS, t, &attrs, out);
}

tsr_status tsr_leaky_relu(const tsr_tensor *t, tsr_scalar negative_slope, tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 1, &negative_slope);
    return tsr__unary_with_attrs(TSR_OP_LEAKY_RELU, t, &attrs, out);
}

tsr_status tsr_elu(const tsr_tensor *t, tsr_scalar alpha, tsr_scalar scale, tsr_scalar input_scale,
                   tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 3, (tsr_scalar[]){alpha, scale, input_scale});
    return tsr__unary_with_attrs(TSR_OP_ELU, t, &attrs, out);
}

tsr_status tsr_hardtanh(const tsr_tensor *t, tsr_scalar min_val, tsr_scalar max_val,
                        tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 2, (tsr_scalar[]){min_val, max_val});
    return tsr__unary_with_attrs(TSR_OP_HARDTANH, t, &attrs, out);
}

/* Beyond 10^400 every power of ten is inf in every dtype, so larger
 * decimals give the same NaN results; clamping keeps them in the int32 mode. */
static int32_t round_mode(int64_t decimals)
{
    const int64_t limit = 1000;
    return (int32_t)(decimals > limit ? limit : decimals < -limit ? -limit : decimals);
}

tsr_status tsr_round_decimals(const tsr_tensor *t, int64_t decimals, tsr_tensor **out)
{
    tsr_elementwise_attrs attrs = attrs_of(round_mode(decimals), 0, NULL);
    return tsr__unary_with_attrs(TSR_OP_ROUND, t, &attrs, out);
}

static tsr_status nan_to_num_attrs(const tsr_tensor *t, const double *nan, const double *posinf,
                                   const double *neginf, tsr_elementwise_attrs *attrs)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "nan_to_num: input must not be NULL");
    tsr_status st = tsr__unary_attrs(TSR_OP_NAN_TO_NUM, t->dtype, t->dtype, NULL, attrs);
    const double *given[3] = {nan, posinf, neginf};
    for (int i = 0; i < 3 && st == TSR_OK; i++) {
        if (given[i])
            attrs->scalars[i] = tsr_scalar_float(*given[i]);
    }
    return st;
}

tsr_status tsr_nan_to_num(const tsr_tensor *t, const double *nan, const double *posinf,
                          const double *neginf, tsr_tensor **out)
{
    tsr_elementwise_attrs attrs;
    tsr_status st = nan_to_num_attrs(t, nan, posinf, neginf, &attrs);
    if (st != TSR_OK)
        return st;
    return tsr__unary_with_attrs(TSR_OP_NAN_TO_NUM, t, &attrs, out);
}

/* ------------------------------------------------------------------------ */
/* In place                                                                  */
/* ------------------------------------------------------------------------ */

tsr_status tsr_leaky_relu_(tsr_tensor *self, tsr_scalar negative_slope)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 1, &negative_slope);
    return tsr__unary_inplace(TSR_OP_LEAKY_RELU, self, &attrs);
}

tsr_status tsr_elu_(tsr_tensor *self, tsr_scalar alpha, tsr_scalar scale, tsr_scalar input_scale)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 3, (tsr_scalar[]){alpha, scale, input_scale});
    return tsr__unary_inplace(TSR_OP_ELU, self, &attrs);
}

tsr_status tsr_hardtanh_(tsr_tensor *self, tsr_scalar min_val, tsr_scalar max_val)
{
    tsr_elementwise_attrs attrs = attrs_of(0, 2, (tsr_scalar[]){min_val, max_val});
    return tsr__unary_inplace(TSR_OP_HARDTANH, self, &attrs);
}

tsr_status tsr_round_decimals_(tsr_tensor *self, int64_t decimals)
{
    tsr_elementwise_attrs attrs = attrs_of(round_mode(decimals), 0, NULL);
    return tsr__unary_inplace(TSR_OP_ROUND, self, &attrs);
}

tsr_status tsr_nan_to_num_(tsr_tensor *self, const double *nan, const double *posinf,
                           const double *neginf)
{
    tsr_elementwise_attrs attrs;
    tsr_status st = nan_to_num_attrs(self, nan, posinf, neginf, &attrs);
    if (st != TSR_OK)
        return st;
    return tsr__unary_inplace(TSR_OP_NAN_TO_NUM, self, &attrs);
}
