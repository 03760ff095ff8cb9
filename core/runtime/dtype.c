/* The dtype table: names, sizes and kinds of the dtypes of tessera.h. The
 * registry and the plugin ABI speak in dtypes, so they sit at the bottom. */
#include "runtime/dtype.h"

#include "runtime/error.h"

#include <string.h>

static const char *const dtype_names[TSR_DTYPE_COUNT] = {
#define DTYPE_NAME_(id, name, size) name,
    TSR_DTYPE_LIST(DTYPE_NAME_)
#undef DTYPE_NAME_
};

static const size_t dtype_sizes[TSR_DTYPE_COUNT] = {
#define DTYPE_SIZE_(id, name, size) size,
    TSR_DTYPE_LIST(DTYPE_SIZE_)
#undef DTYPE_SIZE_
};

bool tsr__dtype_valid(int dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT;
}

const char *tsr_dtype_name(tsr_dtype dtype)
{
    return tsr__dtype_valid(dtype) ? dtype_names[dtype] : NULL;
}

tsr_status tsr_dtype_from_name(const char *name, tsr_dtype *out)
{
    if (!name || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_dtype_from_name: name and out must not be NULL");
    for (int i = 0; i < TSR_DTYPE_COUNT; i++) {
        if (strcmp(name, dtype_names[i]) == 0) {
            *out = (tsr_dtype)i;
            return TSR_OK;
        }
    }
    return tsr__set_error(TSR_ERR_DTYPE, "tsr_dtype_from_name: unknown dtype '%s'", name);
}

size_t tsr_dtype_size(tsr_dtype dtype)
{
    return tsr__dtype_valid(dtype) ? dtype_sizes[dtype] : 0;
}

bool tsr_dtype_is_floating(tsr_dtype dtype)
{
    return dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 ||
           dtype == TSR_FLOAT64;
}

bool tsr_dtype_is_complex(tsr_dtype dtype)
{
    return dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128;
}

bool tsr_dtype_is_integral(tsr_dtype dtype, bool include_bool)
{
    if (dtype == TSR_BOOL)
        return include_bool;
    return dtype >= TSR_UINT8 && dtype <= TSR_INT64;
}

tsr__category tsr__dtype_category(tsr_dtype dtype)
{
    if (dtype == TSR_BOOL)
        return TSR__CATEGORY_BOOL;
    if (tsr_dtype_is_integral(dtype, false))
        return TSR__CATEGORY_INTEGER;
    if (tsr_dtype_is_floating(dtype))
        return TSR__CATEGORY_FLOATING;
    return TSR__CATEGORY_COMPLEX;
}

