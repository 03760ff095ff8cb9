/* Dtype helpers shared inside the core. */
#ifndef TSR_CORE_DTYPE_H
#define TSR_CORE_DTYPE_H

#include "tessera/tessera.h"

/* PyTorch's categories, in promotion order. */
typedef enum tsr__category {
    TSR__CATEGORY_BOOL,
    TSR__CATEGORY_INTEGER,
    TSR__CATEGORY_FLOATING,
    TSR__CATEGORY_COMPLEX,
} tsr__category;

bool tsr__dtype_valid(int dtype);
tsr__category tsr__dtype_category(tsr_dtype dtype);
/* The widest dtype of a scalar's kind: bool, int64, float64, complex128. */
tsr_dtype tsr__scalar_dtype(tsr_scalar s);
bool tsr__scalar_valid(tsr_scalar s);
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
