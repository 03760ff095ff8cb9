/* Scalars, operands and promotion inside the core (internal). */
#ifndef TSR_CORE_TENSOR_SCALAR_H
#define TSR_CORE_TENSOR_SCALAR_H

#include "runtime/dtype.h"
/* The widest dtype of a scalar's kind: bool, int64, float64, complex128. */
tsr_dtype tsr__scalar_dtype(tsr_scalar s);
bool tsr__scalar_valid(tsr_scalar s);
/* The scalar kind of tsr_operand_tensor(NULL): invalid, so a NULL tensor is
 * refused rather than read as a scalar. */
#define TSR__SCALAR_NULL_TENSOR (-1)
/* TSR_OK for a tensor or a valid scalar; otherwise an error naming op and
 * arg that says whether arg is a NULL tensor or a bad scalar. */
tsr_status tsr__check_operand(const char *op, const char *arg, tsr_operand o);
double tsr__scalar_to_double(tsr_scalar s);
/* PyTorch's checked conversion of a scalar to a dtype (as fill and full
 * apply it): infinities and NaN fit floating types, negative integers wrap
 * into uint8, anything else must lie within the dtype's range. */
bool tsr__scalar_fits(tsr_scalar s, tsr_dtype dtype);
/* tsr_result_type with `op` naming the caller in errors. */
tsr_status tsr__result_type(const char *op, const tsr_operand *operands, size_t count,
                            tsr_dtype *out);
/* torch.promote_types on valid dtypes. */
tsr_dtype tsr__promote(tsr_dtype a, tsr_dtype b);

#endif
