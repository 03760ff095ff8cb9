/* Shape arithmetic. */
#include "tensor/shape.h"

#include "runtime/error.h"

#include <stdio.h>

tsr_status tsr__check_shape(const char *op, const char *arg, int ndim, const int64_t *shape,
                            size_t elem_size, int64_t *numel)
{
    if (ndim < 0 || ndim > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: %s has %d dims; tessera supports 0 to %d", op,
                              arg, ndim, TSR_MAX_DIMS);
    if (ndim > 0 && !shape)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s shape must not be NULL", op, arg);
    bool empty = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            return tsr__set_error(TSR_ERR_SHAPE, "%s: %s has negative size %lld in dim %d", op,
                                  arg, (long long)shape[i], i);
        if (shape[i] == 0)
            empty = true;
    }
    /* PyTorch refuses a storage whose size overflows even when a zero
     * extent makes it empty; unlike PyTorch (whose product of sizes
     * overflows or not depending on where the 0 is), the zero extents are
     * left out here, so [0, 2^62, 2^62] and [2^62, 2^62, 0] both fail. The
     * contiguous strides of any shape that passes fit in int64. */
    int64_t n = 1, bytes;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] != 0 && __builtin_mul_overflow(n, shape[i], &n)) {
            char buf[160];
            return tsr__set_error(TSR_ERR_OVERFLOW,
                                  "%s: %s: Storage size calculation overflowed with sizes=%s "
                                  "(the element count overflows int64)", op,
                                  arg, tsr__shape_str(ndim, shape, buf, sizeof buf));
        }
    }
    if (empty)
        n = 0; /* no bytes, so no byte count to overflow */
    else if (__builtin_mul_overflow(n, (int64_t)elem_size, &bytes))
        return tsr__set_error(TSR_ERR_OVERFLOW, "%s: %s byte size overflows int64", op, arg);
    if (numel)
        *numel = n;
    return TSR_OK;
}

int64_t tsr__numel(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    return n;
}

void tsr__contiguous_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    /* Saturates rather than overflows: an empty tensor may have huge
     * extents whose product is never used to address anything. */
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        if (__builtin_mul_overflow(s, shape[i] > 1 ? shape[i] : 1, &s))
            s = INT64_MAX;
    }
}

bool tsr__is_contiguous(int ndim, const int64_t *shape, const int64_t *strides)
{
    int64_t expected = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        if (shape[i] == 0)
            return true;
        if (shape[i] != 1 && strides[i] != expected)
            return false;
        if (__builtin_mul_overflow(expected, shape[i], &expected))
            return false; /* no tensor that passed tsr__check_shape gets here */
    }
    return true;
}

const char *tsr__shape_str(int ndim, const int64_t *shape, char *buf, size_t cap)
{
    size_t used = 0;
    used += (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < ndim && used < cap; i++)
        used += (size_t)snprintf(buf + used, cap - used, i ? ", %lld" : "%lld",
                                 (long long)shape[i]);
    if (used < cap)
        snprintf(buf + used, cap - used, "]");
    return buf;
}

tsr_status tsr__broadcast_shapes(const char *op, int ndim_a, const int64_t *a, int ndim_b,
                                 const int64_t *b, int *ndim_out, int64_t *out)
{
    int n = ndim_a > ndim_b ? ndim_a : ndim_b;
    int64_t result[TSR_MAX_DIMS]; /* out may alias a or b */
    for (int i = 0; i < n; i++) {
        int ia = ndim_a - n + i, ib = ndim_b - n + i;
        int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            char bufa[160], bufb[160];
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: shapes %s and %s cannot be broadcast (dim %d: %lld vs %lld)",
                                  op, tsr__shape_str(ndim_a, a, bufa, sizeof bufa),
                                  tsr__shape_str(ndim_b, b, bufb, sizeof bufb), i,
                                  (long long)sa, (long long)sb);
        }
        result[i] = sa == 1 ? sb : sa;
    }
    for (int i = 0; i < n; i++)
        out[i] = result[i];
    *ndim_out = n;
    return TSR_OK;
}

tsr_status tsr__wrap_dim(const char *op, const char *arg, int64_t dim, int ndim, int *out)
{
    int64_t n = ndim > 0 ? ndim : 1; /* a 0-d tensor accepts dims -1 and 0 */
    if (dim < -n || dim >= n)
        return tsr__set_error(TSR_ERR_INDEX,
                              "%s: %s %lld is out of range for a tensor of %d dims "
                              "(expected %lld to %lld)",
                              op, arg, (long long)dim, ndim, (long long)-n, (long long)(n - 1));
    *out = (int)(dim < 0 ? dim + n : dim);
    return TSR_OK;
}
