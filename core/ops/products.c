/* Matrix products: matmul, mm, bmm, dot, vdot, outer, addmm, baddbmm.
 * Each checks its own ranks and dtypes with PyTorch's rules, then reduces to
 * tsr__matmul_general: one kernel call over broadcast batch dims. */
#include "ops/products.h"

#include "autograd/graph.h"
#include "ops/complex_parts.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "tensor/shape.h"

#include <string.h>

#define CHECK_NOT_NULL(name, a, b, out)                                                            \
    do {                                                                                           \
        if (!(a) || !(b) || !(out))                                                                \
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,                                        \
                                  "%s: operands and out must not be NULL", name);                  \
    } while (0)

/* ======================================================================== */
/* Shared checks                                                             */
/* ======================================================================== */

bool tsr__matmul_dtype_supported(tsr_dtype dtype)
{
    return dtype != TSR_BOOL && dtype != TSR_FLOAT16;
}

tsr_status tsr__matmul_same_dtype(const char *name, const char *what_a, const tsr_tensor *a,
                                  const char *what_b, const tsr_tensor *b)
{
    if (a->dtype == b->dtype)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_DTYPE,
                          "%s: expected %s and %s to have the same dtype, got %s and %s", name,
                          what_a, what_b, tsr_dtype_name(a->dtype), tsr_dtype_name(b->dtype));
}

tsr_status tsr__matmul_check_coefficient(const char *name, const char *what, tsr_scalar s,
                                         tsr_dtype dtype)
{
    if (!tsr__scalar_valid(s))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: %s has an invalid scalar kind", name,
                              what);
    bool lossy_complex =
        s.kind == TSR_SCALAR_COMPLEX && !tsr_dtype_is_complex(dtype) && s.v.c.im != 0.0;
    if (lossy_complex || !tsr__scalar_fits(s, dtype))
        return tsr__set_error(TSR_ERR_OVERFLOW,
                              "%s: %s (%g%s) cannot be converted to %s without "
                              "overflow",
                              name, what, tsr__scalar_to_double(s),
                              s.kind == TSR_SCALAR_COMPLEX ? " + imaginary part" : "",
                              tsr_dtype_name(dtype));
    return TSR_OK;
}

static bool scalar_is_zero(tsr_scalar s)
{
    switch (s.kind) {
    case TSR_SCALAR_FLOAT:
        return s.v.f == 0.0;
    case TSR_SCALAR_COMPLEX:
        return s.v.c.re == 0.0 && s.v.c.im == 0.0;
    default:
        return s.v.i == 0;
    }
}

static const char *shape_text(const tsr_tensor *t, char *buf, size_t cap)
{
    return tsr__shape_str(t->ndim, t->shape, buf, cap);
}

/* ======================================================================== */
/* The general product                                                       */
/* ======================================================================== */

/* The broadcast of a's and b's batch dims (all but their last two). */
static tsr_status batch_shape(const char *name, const tsr_tensor *a, const tsr_tensor *b, int *ndim,
                              int64_t *shape)
{
    int na = a->ndim - 2, nb = b->ndim - 2, n = na > nb ? na : nb;
    for (int i = 0; i < n; i++) {
        int ia = na - n + i, ib = nb - n + i;
        int64_t sa = ia >= 0 ? a->shape[ia] : 1, sb = ib >= 0 ? b->shape[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            char bufa[160], bufb[160];
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: the batch dims of %s and %s do not broadcast (batch dim "
                                  "%d: %lld vs %lld)",
                                  name, shape_text(a, bufa, sizeof bufa),
                                  shape_text(b, bufb, sizeof bufb), i, (long long)sa,
                                  (long long)sb);
        }
        shape[i] = sa == 1 ? sb : sa;
    }
    *ndim = n;
    return TSR_OK;
}

/* t [..., rows, cols] viewed with the batch dims `batch` (0 strides where
 * t broadcasts). */
static tsr_status expand_batch(const tsr_tensor *t, int nbatch, const int64_t *batch,
                               tsr_tensor **out)
{
    int64_t sizes[TSR_MAX_DIMS];
    memcpy(sizes, batch, (size_t)nbatch * sizeof *sizes);
    sizes[nbatch] = t->shape[t->ndim - 2];
    sizes[nbatch + 1] = t->shape[t->ndim - 1];
    return tsr_expand(t, nbatch + 2, sizes, out);
}

/* c (the addmm-like input) as a view of the result's shape. */
static tsr_status expand_c(const char *name, const tsr_tensor *c, int ndim, const int64_t *shape,
                           tsr_tensor **out)
{
    bool fits = c->ndim <= ndim;
    for (int i = 0; fits && i < c->ndim; i++) {
        int64_t size = c->shape[c->ndim - 1 - i];
        fits = size == 1 || size == shape[ndim - 1 - i];
    }
    if (!fits) {
        char bufc[160], bufr[160];
        return tsr__set_error(
            TSR_ERR_SHAPE, "%s: input of shape %s cannot be broadcast to the result's shape %s",
            name, shape_text(c, bufc, sizeof bufc), tsr__shape_str(ndim, shape, bufr, sizeof bufr));
    }
    return tsr_expand(c, ndim, shape, out);
}

/* An empty K: every product is an empty sum. PyTorch then writes zeros, or
 * copies c and scales it in place by beta (so mul_'s dtype rule applies). */
static tsr_status empty_inner(const char *name, const tsr_tensor *c, tsr_scalar beta,
                              tsr_backend *b, tsr_dtype dtype, int ndim, const int64_t *shape,
                              tsr_tensor **out)
{
    if (!c || scalar_is_zero(beta))
        return tsr_zeros(ndim, shape, dtype, b, out);
    tsr_tensor *expanded = NULL, *result = NULL;
    tsr_status st = expand_c(name, c, ndim, shape, &expanded);
    if (st == TSR_OK)
        st = tsr_clone(expanded, &result);
    if (st == TSR_OK)
        st = tsr_binary_(TSR_OP_MUL, result, tsr_operand_scalar(beta));
    if (st != TSR_OK)
        tsr__prefix_error("%s", name);
    tsr_tensor_release(expanded);
    return tsr__deliver(st, result, out);
}

/* One kernel call: a and b expanded to the batch, c (when read) to the result. */
static tsr_status launch(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                         const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta, tsr_backend *bk,
                         int nbatch, const int64_t *shape, tsr_tensor **out)
{
    tsr_dtype dtype = a->dtype;
    tsr_tensor *operands[3] = {NULL, NULL, NULL}, *result = NULL;
    bool read_c = c && !scalar_is_zero(beta);
    tsr_status st = expand_batch(a, nbatch, shape, &operands[0]);
    if (st == TSR_OK)
        st = expand_batch(b, nbatch, shape, &operands[1]);
    if (st == TSR_OK && read_c)
        st = expand_c(name, c, nbatch + 2, shape, &operands[2]);
    if (st == TSR_OK)
        st = tsr__tensor_empty(name, bk, dtype, nbatch + 2, shape, &result);
    if (st == TSR_OK) {
        tsr_elementwise_attrs attrs = {
            .struct_size = sizeof attrs, .mode = read_c ? 1 : 0, .scalars = {alpha, beta}};
        st = tsr__launch(TSR_OP_MATMUL, dtype, dtype, (const tsr_tensor *const *)operands,
                         read_c ? 3 : 2, &result, 1, &attrs);
    }
    for (int i = 0; i < 3; i++)
        tsr_tensor_release(operands[i]);
    return tsr__deliver(st, result, out);
}

static tsr_status compute(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                          const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta, tsr_backend *bk,
                          int nbatch, const int64_t *shape, tsr_tensor **out)
{
    tsr_dtype dtype = a->dtype;
    int ndim = nbatch + 2;
    int64_t k = a->shape[a->ndim - 1];
    bool supported = tsr__matmul_dtype_supported(dtype);
    tsr_tensor *checked = NULL;
    tsr_status st = c ? expand_c(name, c, ndim, shape, &checked) : TSR_OK;
    tsr_tensor_release(checked);
    if (st != TSR_OK)
        return st;
    /* PyTorch returns before its dtype dispatch when nothing is multiplied;
     * a dtype it supports still needs the kernel, as for every empty op. */
    if (supported && (st = tsr__require_kernel(name, bk, TSR_OP_MATMUL, dtype, dtype)) != TSR_OK)
        return st;
    if (tsr__numel(ndim, shape) == 0)
        return tsr_empty(ndim, shape, dtype, bk, out);
    if (k == 0)
        return empty_inner(name, c, beta, bk, dtype, ndim, shape, out);
    if (!supported)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: not implemented for %s (PyTorch 1.13 has no bool or float16 "
                              "matrix product on CPU)",
                              name, tsr_dtype_name(dtype));
    return launch(name, a, b, c, alpha, beta, bk, nbatch, shape, out);
}

tsr_status tsr__matmul_general(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                               const tsr_tensor *c, tsr_scalar alpha, tsr_scalar beta,
                               tsr_tensor **out)
{
    const tsr_tensor *all[3] = {a, b, c};
    tsr_backend *bk;
    int nbatch = 0;
    int64_t shape[TSR_MAX_DIMS];
    tsr_status st = tsr__common_backend(name, all, 3, &bk);
    if (st == TSR_OK)
        st = batch_shape(name, a, b, &nbatch, shape);
    if (st != TSR_OK)
        return st;
    if (a->shape[a->ndim - 1] != b->shape[b->ndim - 2]) {
        char bufa[160], bufb[160];
        return tsr__set_error(TSR_ERR_SHAPE, "%s: shapes %s and %s cannot be multiplied", name,
                              shape_text(a, bufa, sizeof bufa), shape_text(b, bufb, sizeof bufb));
    }
    shape[nbatch] = a->shape[a->ndim - 2];
    shape[nbatch + 1] = b->shape[b->ndim - 1];
    if ((st = tsr__check_shape(name, "result", nbatch + 2, shape, tsr_dtype_size(a->dtype),
                               NULL)) != TSR_OK)
        return st;
    /* The steps are one op for autograd: recorded as a single node below. */
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_tensor *result = NULL;
    st = compute(name, a, b, c, alpha, beta, bk, nbatch, shape, &result);
    tsr_grad_mode_set(grad_mode);
    if (st == TSR_OK)
        st = tsr__grad_record_matmul(name, a, b, c, alpha, beta, result);
    return tsr__deliver(st, result, out);
}

/* ======================================================================== */
/* dot, vdot                                                                 */
/* ======================================================================== */

/* conj(a) for vdot, recorded (ops/complex_parts.c) so that vdot's gradient
 * for a reaches a through it: PyTorch's grad.conj() * other. */
static tsr_status conjugate(const char *name, const tsr_tensor *t, tsr_tensor **out)
{
    (void)name;
    return tsr__conj_physical(t, out);
}

tsr_status tsr__matmul_conjugate(const char *name, const tsr_tensor *t, tsr_tensor **out)
{
    return conjugate(name, t, out);
}

/* sum a[i] * b[i] as the product [1, K] @ [K, 1], viewed as 0-d. PyTorch's
 * dot refuses bool and float16 even for empty vectors. */
static tsr_status dot_product(const char *name, const tsr_tensor *a, const tsr_tensor *b,
                              tsr_tensor **out)
{
    if (a->ndim != 1 || b->ndim != 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: 1-d tensors expected, got %d-d and %d-d", name,
                              a->ndim, b->ndim);
    if (a->dtype != b->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: expected both vectors to have the same dtype, got %s and %s",
                              name, tsr_dtype_name(a->dtype), tsr_dtype_name(b->dtype));
    if (!tsr__matmul_dtype_supported(a->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "%s: not implemented for %s (PyTorch 1.13's dot "
                              "has no bool or float16 kernel)",
                              name, tsr_dtype_name(a->dtype));
    if (a->shape[0] != b->shape[0])
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: inconsistent sizes: the vectors have %lld and %lld elements",
                              name, (long long)a->shape[0], (long long)b->shape[0]);
    tsr_tensor *row = NULL, *column = NULL, *product = NULL, *result = NULL;
    tsr_status st = tsr_unsqueeze(a, 0, &row);
    if (st == TSR_OK)
        st = tsr_unsqueeze(b, 1, &column);
    if (st == TSR_OK)
        st = tsr__matmul_general(name, row, column, NULL, tsr_scalar_int(1), tsr_scalar_int(0),
                                 &product);
    if (st == TSR_OK)
        st = tsr_view(product, 0, NULL, &result);
    tsr_tensor_release(row);
    tsr_tensor_release(column);
    tsr_tensor_release(product);
    return tsr__deliver(st, result, out);
}

tsr_status tsr_dot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    CHECK_NOT_NULL("dot", a, b, out);
    return dot_product("dot", a, b, out);
}

tsr_status tsr_vdot(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    CHECK_NOT_NULL("vdot", a, b, out);
    if (!tsr_dtype_is_complex(a->dtype) || a->ndim != 1 || a->dtype != b->dtype)
        return dot_product("vdot", a, b, out);
    tsr_tensor *conj = NULL;
    tsr_status st = conjugate("vdot", a, &conj);
    if (st == TSR_OK)
        st = dot_product("vdot", conj, b, out);
    tsr_tensor_release(conj);
    return st;
}

/* ======================================================================== */
/* matmul, mm, bmm, outer                                                    */
/* ======================================================================== */

/* The product's shape without the dim a 1-d operand added. */
static tsr_status drop_vector_dims(const tsr_tensor *product, bool a_vector, bool b_vector,
                                   tsr_tensor **out)
{
    int64_t shape[TSR_MAX_DIMS];
    int n = 0, last = product->ndim - 1;
    for (int d = 0; d <= last; d++) {
        if ((b_vector && d == last) || (a_vector && d == last - 1))
            continue;
        shape[n++] = product->shape[d];
    }
    return tsr_view(product, n, shape, out);
}

tsr_status tsr_matmul(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    CHECK_NOT_NULL("matmul", a, b, out);
    if (a->ndim == 0 || b->ndim == 0)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "matmul: both arguments need at least 1 dim, got %d-d and %d-d",
                              a->ndim, b->ndim);
    if (a->ndim == 1 && b->ndim == 1)
        return dot_product("matmul", a, b, out);
    tsr_status st = tsr__matmul_same_dtype("matmul", "input", a, "other", b);
    if (st != TSR_OK)
        return st;
    bool a_vector = a->ndim == 1, b_vector = b->ndim == 1;
    int64_t ka = a->shape[a->ndim - 1], kb = b->shape[b_vector ? 0 : b->ndim - 2];
    if (ka != kb) {
        char bufa[160], bufb[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "matmul: shapes %s and %s cannot be multiplied (%lld vs %lld)",
                              shape_text(a, bufa, sizeof bufa), shape_text(b, bufb, sizeof bufb),
                              (long long)ka, (long long)kb);
    }
    tsr_tensor *left = NULL, *right = NULL, *product = NULL, *result = NULL;
    if (a_vector)
        st = tsr_unsqueeze(a, 0, &left);
    if (st == TSR_OK && b_vector)
        st = tsr_unsqueeze(b, 1, &right);
    if (st == TSR_OK)
        st = tsr__matmul_general("matmul", left ? left : a, right ? right : b, NULL,
                                 tsr_scalar_int(1), tsr_scalar_int(0), &product);
    if (st == TSR_OK && (a_vector || b_vector)) {
        st = drop_vector_dims(product, a_vector, b_vector, &result);
    } else if (st == TSR_OK) {
        result = product;
        product = NULL;
    }
    tsr_tensor_release(left);
    tsr_tensor_release(right);
    tsr_tensor_release(product);
    return tsr__deliver(st, result, out);
}

static tsr_status require_rank(const char *name, const char *what, const tsr_tensor *t, int rank)
{
    if (t->ndim == rank)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_SHAPE, "%s: %s must be a %d-d tensor, got %d-d", name, what, rank,
                          t->ndim);
}

tsr_status tsr_mm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    CHECK_NOT_NULL("mm", a, b, out);
    tsr_status st = require_rank("mm", "mat1", a, 2);
    if (st == TSR_OK)
        st = require_rank("mm", "mat2", b, 2);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype("mm", "mat1", a, "mat2", b);
    if (st != TSR_OK)
        return st;
    return tsr__matmul_general("mm", a, b, NULL, tsr_scalar_int(1), tsr_scalar_int(0), out);
}

/* bmm and baddbmm: equal batch sizes, no broadcasting. */
static tsr_status check_batches(const char *name, const tsr_tensor *a, const tsr_tensor *b)
{
    tsr_status st = require_rank(name, "batch1", a, 3);
    if (st == TSR_OK)
        st = require_rank(name, "batch2", b, 3);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype(name, "batch1", a, "batch2", b);
    if (st != TSR_OK)
        return st;
    if (b->shape[0] != a->shape[0] || b->shape[1] != a->shape[2]) {
        char bufa[160], bufb[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: batch2 of shape %s must start with [%lld, %lld] to match "
                              "batch1 of shape %s",
                              name, shape_text(b, bufb, sizeof bufb), (long long)a->shape[0],
                              (long long)a->shape[2], shape_text(a, bufa, sizeof bufa));
    }
    return TSR_OK;
}

tsr_status tsr_bmm(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    CHECK_NOT_NULL("bmm", a, b, out);
    tsr_status st = check_batches("bmm", a, b);
    if (st != TSR_OK)
        return st;
    return tsr__matmul_general("bmm", a, b, NULL, tsr_scalar_int(1), tsr_scalar_int(0), out);
}

/* A broadcast multiply of a column by a row, promoting as mul does. */
tsr_status tsr_outer(const tsr_tensor *a, const tsr_tensor *b, tsr_tensor **out)
{
    CHECK_NOT_NULL("outer", a, b, out);
    tsr_status st = require_rank("outer", "self", a, 1);
    if (st == TSR_OK)
        st = require_rank("outer", "vec2", b, 1);
    if (st != TSR_OK)
        return st;
    tsr_tensor *column = NULL, *row = NULL;
    st = tsr_unsqueeze(a, 1, &column);
    if (st == TSR_OK)
        st = tsr_unsqueeze(b, 0, &row);
    if (st == TSR_OK)
        st = tsr_mul(column, row, out);
    tsr_tensor_release(column);
    tsr_tensor_release(row);
    return st;
}

/* ======================================================================== */
/* addmm, baddbmm                                                            */
/* ======================================================================== */

static tsr_status check_coefficients(const char *name, tsr_scalar beta, tsr_scalar alpha,
                                     tsr_dtype dtype)
{
    tsr_status st = tsr__matmul_check_coefficient(name, "beta", beta, dtype);
    if (st == TSR_OK)
        st = tsr__matmul_check_coefficient(name, "alpha", alpha, dtype);
    return st;
}

tsr_status tsr_addmm(const tsr_tensor *input, const tsr_tensor *mat1, const tsr_tensor *mat2,
                     tsr_scalar beta, tsr_scalar alpha, tsr_tensor **out)
{
    if (!input)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "addmm: input must not be NULL");
    CHECK_NOT_NULL("addmm", mat1, mat2, out);
    tsr_status st = require_rank("addmm", "mat1", mat1, 2);
    if (st == TSR_OK)
        st = require_rank("addmm", "mat2", mat2, 2);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype("addmm", "input", input, "mat1", mat1);
    if (st == TSR_OK)
        st = tsr__matmul_same_dtype("addmm", "input", input, "mat2", mat2);
    if (st == TSR_OK)
        st = check_coefficients("addmm", beta, alpha, mat1->dtype);
    if (st != TSR_OK)
        return st;
    return tsr__matmul_general("addmm", mat1, mat2, input, alpha, beta, out);
}

tsr_status tsr_baddbmm(const tsr_tensor *input, const tsr_tensor *batch1, const tsr_tensor *batch2,
                       tsr_scalar beta, tsr_scalar alpha, tsr_tensor **out)
{
    if (!input)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "baddbmm: input must not be NULL");
    CHECK_NOT_NULL("baddbmm", batch1, batch2, out);
    tsr_status st = check_batches("baddbmm", batch1, batch2);
    if (st == TSR_OK)
        st = check_coefficients("baddbmm", beta, alpha, batch1->dtype);
    if (st != TSR_OK)
        return st;
    /* PyTorch copies input into a result of the batches' dtype. */
    tsr_tensor *converted = NULL;
    if ((st = tsr_to_dtype(input, batch1->dtype, &converted)) != TSR_OK) {
        tsr__prefix_error("baddbmm");
        return st;
    }
    st = tsr__matmul_general("baddbmm", batch1, batch2, converted, alpha, beta, out);
    tsr_tensor_release(converted);
    return st;
}
