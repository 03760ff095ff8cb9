/* Planning matmul's cuBLAS calls (matmul_plan.h). */
#include "matmul_plan.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "elem_table.h"

int tsr__cu_matmul_supports(int32_t dtype)
{
    return dtype == TSR_FLOAT16 || dtype == TSR_BFLOAT16 || dtype == TSR_FLOAT32 ||
           dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128;
}

#define FAIL_(status, ...)                                                                         \
    do {                                                                                           \
        snprintf(message, capacity, __VA_ARGS__);                                                  \
        return status;                                                                             \
    } while (0)

static int64_t at_least_one(int64_t x)
{
    return x > 1 ? x : 1;
}

/* How cuBLAS can read a row-major R x C operand with strides (rs, cs). */
static void classify(tsr__cu_gemm_operand *op, int64_t rows, int64_t cols, int64_t rs, int64_t cs,
                     int output)
{
    op->rows = rows;
    op->cols = cols;
    op->pack = 0;
    if (cols <= 1 || cs == 1) { /* the transpose, column-major: op N */
        op->transpose = 0;
        op->ld = rows <= 1 ? at_least_one(cols) : rs;
        if (op->ld >= at_least_one(cols))
            return;
    }
    if (!output && (rows <= 1 || rs == 1)) { /* column-major already: op T */
        op->transpose = 1;
        op->ld = cols <= 1 ? at_least_one(rows) : cs;
        if (op->ld >= at_least_one(rows))
            return;
    }
    op->pack = 1; /* contiguous scratch, read as op N */
    op->transpose = 0;
    op->ld = at_least_one(cols);
}

static int is_zero(const tsr__cu_value *v, int32_t cat)
{
    return cat == TSR__CU_REAL ? v->f == 0.0 : v->c.re == 0.0 && v->c.im == 0.0;
}

static int check_operand(const tsr_tensor_desc *x, const tsr_tensor_desc *out, int64_t rows,
                         int64_t cols)
{
    if (!x || x->dtype != out->dtype || x->ndim != out->ndim || !x->shape || !x->strides)
        return 0;
    for (int32_t d = 0; d < x->ndim; d++)
        if (x->strides[d] < 0 || (d + 2 < x->ndim && x->shape[d] != out->shape[d]))
            return 0;
    return x->shape[x->ndim - 2] == rows && x->shape[x->ndim - 1] == cols;
}

int tsr__cu_gemm_plan_init(tsr__cu_gemm_plan *p, const tsr_kernel_args *args, int out_shares_input,
                           char *message, size_t capacity)
{
    memset(p, 0, sizeof *p);
    if (args->struct_size < sizeof(tsr_kernel_args) || args->num_outputs != 1 || !args->outputs)
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "matmul: expected 1 output, got %d",
              (int)args->num_outputs);
    const tsr_tensor_desc *out = args->outputs;
    const int32_t dtype = out->dtype;
    if (dtype < 0 || dtype >= TSR_DTYPE_COUNT || !tsr__cu_matmul_supports(dtype))
        FAIL_(TSR_ERR_DTYPE, "matmul: no CUDA kernel for dtype %d", (int)dtype);
    p->dtype = dtype;
    tsr_scalar alpha = {0}, beta = {0};
    alpha.kind = beta.kind = TSR_SCALAR_INT;
    alpha.v.i = 1;
    const tsr_elementwise_attrs *attrs = args->attrs;
    int with_c = 0;
    if (attrs &&
        attrs->struct_size >= offsetof(tsr_elementwise_attrs, scalars) + 2 * sizeof(tsr_scalar)) {
        alpha = attrs->scalars[0];
        beta = attrs->scalars[1];
        with_c = (attrs->mode & 1) != 0;
    }
    p->alpha = tsr__cu_scalar_as_dtype(&alpha, dtype);
    p->beta = tsr__cu_scalar_as_dtype(&beta, dtype);
    if (args->num_inputs != 2 + with_c || !args->inputs)
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "matmul: expected %d inputs (mode %d), got %d", 2 + with_c,
              with_c, (int)args->num_inputs);
    const int32_t ndim = out->ndim;
    if (ndim < 2 || ndim > TSR_MAX_DIMS || !out->shape || !out->strides)
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "matmul: output needs 2 to %d dims, got %d", TSR_MAX_DIMS,
              (int)ndim);
    const tsr_tensor_desc *a = &args->inputs[0], *b = &args->inputs[1];
    p->m = out->shape[ndim - 2];
    p->n = out->shape[ndim - 1];
    p->k = a->ndim == ndim && a->shape ? a->shape[ndim - 1] : -1;
    for (int32_t d = 0; d < ndim; d++)
        if (out->shape[d] < 0 || out->strides[d] < 0)
            FAIL_(TSR_ERR_SHAPE, "matmul: the output has a negative extent or stride");
    if (p->k < 0 || !check_operand(a, out, p->m, p->k) || !check_operand(b, out, p->k, p->n) ||
        (with_c && !check_operand(&args->inputs[2], out, p->m, p->n)))
        FAIL_(TSR_ERR_SHAPE,
              "matmul: operands are not [..., M, K], [..., K, N] and [..., M, N] of one dtype "
              "with the output's batch dims");
    if (p->m > INT_MAX || p->n > INT_MAX || p->k > INT_MAX)
        FAIL_(TSR_ERR_OVERFLOW,
              "matmul: M, N and K must be below 2^31 for cuBLAS, got %lld, "
              "%lld, %lld",
              (long long)p->m, (long long)p->n, (long long)p->k);
    p->has_c = with_c && !is_zero(&p->beta, tsr__cu_dtype_category(dtype));
    int64_t batch = 1;
    for (int32_t d = 0; d + 2 < ndim; d++)
        batch *= out->shape[d];
    if (batch * p->m * p->n > 0 &&
        (!out->data || (p->k > 0 && (!a->data || !b->data)) || (p->has_c && !args->inputs[2].data)))
        FAIL_(TSR_ERR_INVALID_ARGUMENT, "matmul: an operand with elements has no data");
    const tsr_tensor_desc *descs[3] = {out, a, b};
    for (int i = 0; i < 3; i++) {
        const tsr_tensor_desc *x = descs[i];
        classify(&p->operand[i], x->shape[ndim - 2], x->shape[ndim - 1], x->strides[ndim - 2],
                 x->strides[ndim - 1], i == TSR__CU_MM_OUT);
    }
    if (out_shares_input)
        p->operand[TSR__CU_MM_OUT].pack = 1;
    for (int i = 0; i < 3; i++)
        if (p->operand[i].ld > INT_MAX)
            FAIL_(TSR_ERR_OVERFLOW, "matmul: a leading dimension of %lld exceeds cuBLAS's int",
                  (long long)p->operand[i].ld);
    /* Batch strides as cuBLAS sees them: packed operands are contiguous. */
    p->batch.ndim = ndim - 2;
    p->batch.operands = 3;
    for (int i = 0; i < 3; i++) {
        int64_t step = p->operand[i].rows * p->operand[i].cols;
        for (int32_t d = ndim - 3; d >= 0; d--) {
            p->batch.shape[d] = out->shape[d];
            p->batch.strides[i][d] = p->operand[i].pack ? step : descs[i]->strides[d];
            step *= out->shape[d];
        }
    }
    tsr__cu_collapse(&p->batch);
    p->inner_count = p->batch.ndim > 0 ? p->batch.shape[p->batch.ndim - 1] : 1;
    p->outer_count = 1;
    for (int32_t d = 0; d + 1 < p->batch.ndim; d++)
        p->outer_count *= p->batch.shape[d];
    if (p->inner_count > INT_MAX)
        FAIL_(TSR_ERR_OVERFLOW, "matmul: a batch of %lld exceeds cuBLAS's int",
              (long long)p->inner_count);
    return TSR_OK;
}

void tsr__cu_gemm_outer_offsets(const tsr__cu_gemm_plan *p, int64_t outer, int64_t *offsets)
{
    for (int i = 0; i < 3; i++)
        offsets[i] = 0;
    for (int32_t d = p->batch.ndim - 2; d >= 0; d--) {
        int64_t index = outer % p->batch.shape[d];
        outer /= p->batch.shape[d];
        for (int i = 0; i < 3; i++)
            offsets[i] += index * p->batch.strides[i][d];
    }
}

int64_t tsr__cu_gemm_inner_stride(const tsr__cu_gemm_plan *p, int operand)
{
    return p->batch.ndim > 0 ? p->batch.strides[operand][p->batch.ndim - 1] : 0;
}
