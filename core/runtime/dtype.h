/* The dtype table inside the core (internal). */
#ifndef TSR_CORE_RUNTIME_DTYPE_H
#define TSR_CORE_RUNTIME_DTYPE_H

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

#endif
