/* The rounding-error allowance of sums of products in the differential mode.
 *
 * A correct float32 matmul can miss the scalar tolerance when its terms
 * cancel: terms of size 500 summing to 3 carry rounding errors of the
 * terms' size, not the result's. The standard bound for any order of
 * summing K products in a precision of unit roundoff u is
 *     |fl(sum a_i b_i) - sum a_i b_i| <= gamma_K * sum |a_i b_i|,
 *     gamma_K = K u / (1 - K u),
 * so each element of a product op's result may also differ by that much
 * (plus the case's atol). sum |a_i b_i| is the same op run on the reference
 * backend with every input replaced by its absolute value in float64 (and
 * alpha, beta by theirs). u is the output dtype's. */
#ifndef CONF_DIFF_BOUND_H
#define CONF_DIFF_BOUND_H

#include "bindings/bind.h"
#include "golden/source.h"

/* The unit roundoff of a floating dtype (of its parts for complex ones):
 * 2^-11 float16, 2^-8 bfloat16, 2^-24 float32, 2^-53 float64; 0 otherwise. */
double conf_unit_roundoff(tsr_dtype dtype);

/* gamma_K for `terms` roundings in `dtype`; 0 for non-floating dtypes and
 * no terms, and -1 (no bound) once K u >= 1, where the bound says nothing. */
double conf_product_gamma(tsr_dtype dtype, int64_t terms);

/* Whether the differential mode allows `op` the product bound. */
bool conf_diff_is_product(const char *op);

/* For a case of a product op run by `adapter` whose reference output 0 is
 * `expected`: a new array (free it) of one allowance gamma_K * sum|a_i b_i|
 * per element of `expected`. NULL when the op is no product, the result is
 * not floating, or the bound could not be computed; `why` then says which
 * (empty for the first two). */
double *conf_diff_product_bound(const conf_case *c, const conf_source *source,
                                const conf_adapter *adapter, tsr_backend *reference,
                                const tsr_tensor *expected, char *why, size_t capacity);

#endif
