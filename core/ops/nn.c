/* dropout, linear and bilinear: compositions of elementwise ops and matrix
 * products, in the order PyTorch 1.13 runs them. */
#include "autograd/graph.h"
#include "tensor/scalar.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "tensor/shape.h"
#include "ops/grad_expr.h"

/* ------------------------------------------------------------------------ */
/* dropout                                                                   */
/* ------------------------------------------------------------------------ */

/* noise = bernoulli(1 - p) / (1 - p) in input's dtype, out = input * noise:
 * a dropped NaN or infinity stays NaN, as in PyTorch. */
static tsr_status dropout_sample(const tsr_tensor *input, double p, tsr_generator *gen,
                                 tsr_tensor **out)
{
    tsr__gx x = {0};
    tsr_tensor *u = NULL;
    tsr_status st =
        tsr_rand(gen, input->ndim, input->shape, TSR_FLOAT64, tsr_tensor_backend(input), &u);
    u = tsr__gx_keep(&x, st, u);
    tsr_tensor *keep = tsr__gx_binary(&x, TSR_OP_LT, tsr_operand_tensor(u),
                                      tsr_operand_scalar(tsr_scalar_float(1.0 - p)));
    tsr_tensor *noise =
        tsr__gx_binary(&x, TSR_OP_DIV, tsr_operand_tensor(tsr__nn_to(&x, keep, input->dtype)),
                       tsr_operand_scalar(tsr_scalar_float(1.0 - p)));
    tsr_tensor *y = tsr__gx_mul(&x, input, noise), *result = NULL;
    tsr__gx_result(&x, &result, y);
    return tsr__deliver(tsr__gx_finish(&x), result, out);
}

tsr_status tsr_dropout(const tsr_tensor *input, double p, bool training, tsr_generator *gen,
                       tsr_tensor **out)
{
    const char *name = "dropout";
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "%s: input and out must not be NULL", name);
    if (!(p >= 0.0 && p <= 1.0))
        return tsr__set_error(TSR_ERR_VALUE,
                              "%s: dropout probability has to be between 0 and 1, but got %g", name,
                              p);
    if (p == 0.0 || !training || tsr_tensor_numel(input) == 0) {
        /* input itself, as in PyTorch (its history too: y = x) */
        tsr_tensor_retain(input);
        *out = (tsr_tensor *)input;
        return TSR_OK;
    }
    if (p == 1.0) { /* input * 0, so NaN stays NaN */
        tsr_tensor *zero = NULL;
        tsr_status st = tsr_zeros(0, NULL, input->dtype, tsr_tensor_backend(input), &zero);
        if (st == TSR_OK)
            st = tsr_mul(input, zero, out);
        tsr_tensor_release(zero);
        return st;
    }
    if (input->dtype != TSR_BFLOAT16 &&
        !(input->dtype == TSR_FLOAT32 || input->dtype == TSR_FLOAT64))
        return tsr__set_error(TSR_ERR_DTYPE, "%s: not implemented for %s inputs", name,
                              tsr_dtype_name(input->dtype));
    if (!gen)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: a generator is required when training with 0 < p < 1", name);
    return dropout_sample(input, p, gen, out);
}

/* ------------------------------------------------------------------------ */
/* linear                                                                    */
/* ------------------------------------------------------------------------ */

/* PyTorch's output.add_(bias), out of place (output may be a view, which
 * autograd cannot write in place): bias must not grow the output's shape or
 * lift its dtype's category; the sum is rounded to the output's dtype. */
static tsr_tensor *add_bias(tsr__gx *x, tsr_tensor *y, const tsr_tensor *bias)
{
    tsr_tensor *sum = tsr__gx_add(x, y, bias);
    if (!sum)
        return NULL;
    bool same = sum->ndim == y->ndim;
    for (int d = 0; same && d < y->ndim; d++)
        same = sum->shape[d] == y->shape[d];
    if (!same) {
        char a[160], b[160];
        x->status = tsr__set_error(TSR_ERR_SHAPE,
                                   "linear: output with shape %s doesn't match the broadcast shape "
                                   "%s",
                                   tsr__shape_str(y->ndim, y->shape, a, 160),
                                   tsr__shape_str(sum->ndim, sum->shape, b, 160));
        return NULL;
    }
    if (tsr__dtype_category(sum->dtype) > tsr__dtype_category(y->dtype)) {
        x->status = tsr__set_error(TSR_ERR_DTYPE,
                                   "linear: result type %s can't be cast to the desired output "
                                   "type %s",
                                   tsr_dtype_name(sum->dtype), tsr_dtype_name(y->dtype));
        return NULL;
    }
    return tsr__nn_to(x, sum, y->dtype);
}

/* As PyTorch: addmm for a 2-d input (and a contiguous 3-d one, flattened)
 * with a bias, otherwise matmul and an in-place add of the bias. */
tsr_status tsr_linear(const tsr_tensor *input, const tsr_tensor *weight, const tsr_tensor *bias,
                      tsr_tensor **out)
{
    const char *name = "linear";
    if (!input || !weight || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "%s: input, weight and out must not be NULL", name);
    if (weight->ndim > 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: t() expects a tensor with <= 2 dimensions, but weight is %dD",
                              name, weight->ndim);
    tsr__gx x = {0};
    tsr_tensor *wt = weight->ndim == 2 ? tsr__nn_transpose(&x, weight, 0, 1) : (tsr_tensor *)weight;
    tsr_tensor *y = NULL;
    bool flat3d = bias && input->ndim == 3 && tsr_tensor_is_contiguous(input);
    if (bias && (input->ndim == 2 || flat3d)) {
        int64_t rows[2] = {input->ndim == 3 ? input->shape[0] * input->shape[1] : input->shape[0],
                           input->shape[input->ndim - 1]};
        tsr_tensor *a =
            input->ndim == 3 ? tsr__nn_reshape(&x, input, 2, rows) : (tsr_tensor *)input;
        if (x.status == TSR_OK) {
            tsr_status st = tsr_addmm(bias, a, wt, tsr_scalar_int(1), tsr_scalar_int(1), &y);
            y = tsr__gx_keep(&x, st, y);
        }
        if (input->ndim == 3 && y) {
            int64_t shape[3] = {input->shape[0], input->shape[1], y->shape[1]};
            y = tsr__nn_reshape(&x, y, 3, shape);
        }
    } else {
        y = tsr__nn_matmul(&x, input, wt);
        if (bias)
            y = add_bias(&x, y, bias);
    }
    tsr_tensor *result = NULL;
    tsr__gx_result(&x, &result, y);
    /* addmm's and matmul's messages become linear's */
    return tsr__deliver(tsr__claim_error(name, tsr__gx_finish(&x)), result, out);
}

/* ------------------------------------------------------------------------ */
/* bilinear                                                                  */
/* ------------------------------------------------------------------------ */

static tsr_status check_bilinear(const tsr_tensor *x1, const tsr_tensor *x2,
                                 const tsr_tensor *weight, const tsr_tensor *bias)
{
    const char *name = "bilinear";
    if (x1->ndim != x2->ndim || x1->ndim < 1)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: input dimensions do not match: got %d and %d",
                              name, x1->ndim, x2->ndim);
    for (int d = 0; d < x1->ndim - 1; d++) {
        if (x1->shape[d] != x2->shape[d])
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "%s: input batch dimensions do not match: got %lld and %lld",
                                  name, (long long)x1->shape[d], (long long)x2->shape[d]);
    }
    if (weight->ndim != 3)
        return tsr__set_error(TSR_ERR_SHAPE, "%s: weight must be 3-d [out, in1, in2], got %dD",
                              name, weight->ndim);
    int64_t in1 = x1->shape[x1->ndim - 1], in2 = x2->shape[x2->ndim - 1];
    if (in1 != weight->shape[1] || in2 != weight->shape[2])
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: input%d size does not match weight size: got %lld but "
                              "expected %lld",
                              name, in1 != weight->shape[1] ? 1 : 2,
                              (long long)(in1 != weight->shape[1] ? in1 : in2),
                              (long long)weight->shape[in1 != weight->shape[1] ? 1 : 2]);
    if (bias && (bias->ndim < 1 || bias->shape[0] != weight->shape[0]))
        return tsr__set_error(TSR_ERR_SHAPE,
                              "%s: bias size does not match weight size: expected %lld", name,
                              (long long)weight->shape[0]);
    return TSR_OK;
}

/* out[b, o] = x1[b] . (W[o] x2[b]) as two products: x1 @ W (all o at once),
 * then one [O, J] @ [J, 1] per batch row. */
tsr_status tsr_bilinear(const tsr_tensor *input1, const tsr_tensor *input2,
                        const tsr_tensor *weight, const tsr_tensor *bias, tsr_tensor **out)
{
    if (!input1 || !input2 || !weight || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "bilinear: inputs, weight and out must not be NULL");
    tsr_status st = check_bilinear(input1, input2, weight, bias);
    if (st != TSR_OK)
        return st;
    int64_t o = weight->shape[0], i = weight->shape[1], j = weight->shape[2];
    int64_t batch = tsr__numel(input1->ndim - 1, input1->shape);
    int64_t out_shape[TSR_MAX_DIMS];
    for (int d = 0; d < input1->ndim - 1; d++)
        out_shape[d] = input1->shape[d];
    out_shape[input1->ndim - 1] = o;
    tsr__gx x = {0};
    tsr_tensor *w = NULL;
    if (x.status == TSR_OK) {
        st = tsr_permute(weight, 3, (int64_t[]){1, 0, 2}, &w);
        w = tsr__gx_keep(&x, st, w);
    }
    tsr_tensor *wr = tsr__nn_reshape(&x, w, 2, (int64_t[]){i, o * j});
    tsr_tensor *a = tsr__nn_reshape(&x, input1, 2, (int64_t[]){batch, i});
    tsr_tensor *b = tsr__nn_reshape(&x, input2, 3, (int64_t[]){batch, j, 1});
    tsr_tensor *left = tsr__nn_reshape(&x, tsr__nn_matmul(&x, a, wr), 3, (int64_t[]){batch, o, j});
    tsr_tensor *y = tsr__nn_reshape(&x, tsr__nn_matmul(&x, left, b), input1->ndim, out_shape);
    if (bias)
        y = tsr__gx_add(&x, y, bias);
    tsr_tensor *result = NULL;
    tsr__gx_result(&x, &result, y);
    return tsr__deliver(tsr__gx_finish(&x), result, out);
}
