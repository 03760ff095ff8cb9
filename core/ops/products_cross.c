/* cross, linalg_cross and linalg_vecdot: products along one dim, built from
 * narrow, mul, sub, cat and sum (so the gradients compose). The cross
 * product's components are a1*b2 - a2*b1, ... in the order of PyTorch's
 * kernel, each rounded in the dtype as PyTorch's scalar code rounds them. */
#include "ops/products.h"

#include "runtime/error.h"
#include "tensor/shape.h"

static tsr_status null_check(const char *name, const void *a, const void *b, tsr_tensor **out)
{
    if (!a || !b || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: operands and out must not be NULL",
                              name);
    return TSR_OK;
}

/* Component i of t along dim (a size-1 slice). */
static tsr_status component(const tsr_tensor *t, int dim, int i, tsr_tensor **out)
{
    return tsr_narrow(t, dim, i, 1, out);
}

/* a[i] * b[j] - a[j] * b[i] along dim. */
static tsr_status cross_component(const tsr_tensor *a, const tsr_tensor *b, int dim, int i, int j,
                                  tsr_tensor **out)
{
    tsr_tensor *ai = NULL, *aj = NULL, *bi = NULL, *bj = NULL, *left = NULL, *right = NULL;
    tsr_status st = component(a, dim, i, &ai);
    if (st == TSR_OK)
        st = component(a, dim, j, &aj);
    if (st == TSR_OK)
        st = component(b, dim, i, &bi);
    if (st == TSR_OK)
        st = component(b, dim, j, &bj);
    if (st == TSR_OK)
        st = tsr_mul(ai, bj, &left);
    if (st == TSR_OK)
        st = tsr_mul(aj, bi, &right);
    if (st == TSR_OK)
        st = tsr_sub(left, right, out);
    tsr_tensor *all[] = {ai, aj, bi, bj, left, right};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        tsr_tensor_release(all[k]);
    return st;
}

tsr_status tsr_linalg_cross(const tsr_tensor *input, const tsr_tensor *other, int64_t dim,
                            tsr_tensor **out)
{
    const char *name = "linalg_cross";
    tsr_status st = null_check(name, input, other, out);
    if (st != TSR_OK)
        return st;
    if (input->ndim != other->ndim)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: inputs must have the same number of dimensions, got %d and %d",
                              name, input->ndim, other->ndim);
    st = tsr__matmul_same_dtype(name, "input", input, "other", other);
    if (st != TSR_OK)
        return st;
    if (input->dtype == TSR_BOOL || input->dtype == TSR_FLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for %s", name,
                              tsr_dtype_name(input->dtype));
    if (input->ndim == 0)
        return tsr__set_error(TSR_ERR_INDEX, "%s: dim %lld is out of range for 0-d inputs", name,
                              (long long)dim);
    int d = 0;
    if ((st = tsr__wrap_dim(name, "dim", dim, input->ndim, &d)) != TSR_OK)
        return st;
    if (input->shape[d] != 3 || other->shape[d] != 3)
        return tsr__set_error(
            TSR_ERR_SHAPE, "%s: inputs dimension %lld must have length 3, got %lld and %lld", name,
            (long long)dim, (long long)input->shape[d], (long long)other->shape[d]);
    int ndim = 0;
    int64_t shape[TSR_MAX_DIMS];
    st = tsr__broadcast_shapes(name, input->ndim, input->shape, other->ndim, other->shape, &ndim,
                               shape);
    if (st != TSR_OK)
        return st;
    tsr_tensor *parts[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && st == TSR_OK; i++)
        st = cross_component(input, other, d, (i + 1) % 3, (i + 2) % 3, &parts[i]);
    if (st == TSR_OK)
        st = tsr_cat((const tsr_tensor *const *)parts, 3, d, out);
    for (int i = 0; i < 3; i++)
        tsr_tensor_release(parts[i]);
    return tsr__claim_error(name, st);
}

tsr_status tsr_cross(const tsr_tensor *input, const tsr_tensor *other, const int64_t *dim,
                     tsr_tensor **out)
{
    tsr_status st = null_check("cross", input, other, out);
    if (st != TSR_OK)
        return st;
    if (dim)
        return tsr__rename_error("cross", "linalg_cross",
                                 tsr_linalg_cross(input, other, *dim, out));
    /* PyTorch 1.13's default: input's first dim of size 3. */
    int found = -1;
    for (int d = 0; d < input->ndim && found < 0; d++) {
        if (input->shape[d] == 3)
            found = d;
    }
    if (found < 0)
        return tsr__set_error(TSR_ERR_SHAPE, "cross: no dimension of size 3 in input");
    return tsr__rename_error("cross", "linalg_cross", tsr_linalg_cross(input, other, found, out));
}

tsr_status tsr_linalg_vecdot(const tsr_tensor *x, const tsr_tensor *y, int64_t dim,
                             tsr_tensor **out)
{
    const char *name = "linalg_vecdot";
    tsr_status st = null_check(name, x, y, out);
    if (st != TSR_OK)
        return st;
    if (!tsr_dtype_is_floating(x->dtype) && !tsr_dtype_is_complex(x->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected a floating point or complex tensor as input, got %s",
                              name, tsr_dtype_name(x->dtype));
    if (x->dtype != y->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected x and y to have the same dtype, but found x of type "
                              "%s and y of type %s instead",
                              name, tsr_dtype_name(x->dtype), tsr_dtype_name(y->dtype));
    /* PyTorch 1.13 takes two 1-d operands to vdot, which refuses float16. */
    if (x->ndim == 1 && y->ndim == 1 && x->dtype == TSR_FLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: dot of two 1-d tensors is not implemented for "
                              "float16",
                              name);
    tsr_tensor *conj = NULL, *product = NULL;
    if (tsr_dtype_is_complex(x->dtype))
        st = tsr__matmul_conjugate(name, x, &conj);
    if (st == TSR_OK)
        st = tsr_mul(conj ? conj : x, y, &product);
    if (st == TSR_OK)
        st = tsr_sum(product, &dim, 1, false, TSR_DTYPE_INFER, out);
    tsr_tensor_release(conj);
    tsr_tensor_release(product);
    return tsr__claim_error(name, st);
}
