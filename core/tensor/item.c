/* tensor.item(): the one element of a tensor as a Python-like scalar. */
#include <string.h>

#include "runtime/error.h"
#include "tensor/copy.h"
#include "tensor/scalar.h"

tsr_status tsr_item(const tsr_tensor *t, tsr_scalar *out)
{
    if (!t || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "item: input and out must not be NULL");
    int64_t n = tsr_tensor_numel(t);
    if (n != 1)
        return tsr__set_error(TSR_ERR_VALUE,
                              "item: a Tensor with %lld elements cannot be converted to Scalar",
                              (long long)n);
    /* The widest dtype of the element's category holds it exactly. */
    tsr_dtype wide = tsr_dtype_is_complex(t->dtype)              ? TSR_COMPLEX128
                     : tsr_dtype_is_floating(t->dtype)           ? TSR_FLOAT64
                     : t->dtype == TSR_BOOL                      ? TSR_BOOL
                                                                 : TSR_INT64;
    tsr_tensor *w = NULL;
    tsr_status st = tsr__convert("item", t, wide, &w);
    if (st != TSR_OK)
        return st;
    unsigned char bytes[16] = {0};
    st = tsr_to_host(w, bytes, tsr_dtype_size(wide));
    tsr_tensor_release(w);
    if (st != TSR_OK)
        return tsr__rename_error("item", "to_host", st);
    tsr_scalar s;
    if (wide == TSR_COMPLEX128) {
        double parts[2];
        memcpy(parts, bytes, sizeof parts);
        s = tsr_scalar_complex(parts[0], parts[1]);
    } else if (wide == TSR_FLOAT64) {
        double v;
        memcpy(&v, bytes, sizeof v);
        s = tsr_scalar_float(v);
    } else if (wide == TSR_BOOL) {
        s = tsr_scalar_bool(bytes[0] != 0);
    } else {
        int64_t v;
        memcpy(&v, bytes, sizeof v);
        s = tsr_scalar_int(v);
    }
    *out = s;
    return TSR_OK;
}
