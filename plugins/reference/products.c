/* matmul: out [..., M, N] = beta * c + alpha * (a [..., M, K] @ b [..., K, N]).
 *
 * Each output element sums its K products in the wide type of its category
 * (int64 with wrapping, double, or double complex with PyTorch's textbook
 * multiplication) in the fixed order k = 0, 1, ..., K - 1, and is rounded
 * once when stored. The result therefore depends only on the values, never
 * on strides, and integer products wrap exactly as in the element type.
 * Following BLAS, which PyTorch calls: alpha 0 skips the product and beta 0
 * never reads c, so NaN there does not propagate. Multiplying by an alpha or
 * beta of exactly 1 is skipped too, so that a plain product of a complex
 * infinity keeps a zero imaginary part. An output that overlaps an operand
 * (other than c in c's own layout) is computed into scratch memory first. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "complex_ops.h"
#include "kernels.h"
#include "scalar_ops.h"
#include "wide.h"

/* PyTorch 1.13 on CPU has no bool or float16 matrix product. */
const uint32_t tsr__ref_matmul_dtypes =
    TSR__REF_SET_INTEGER | TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264 | TSR__REF_SET_COMPLEX;

enum { OUT = 0, A = 1, B = 2, C = 3, OPERANDS = 4 };

/* One operand seen as a batch of matrices: byte steps per batch dim, per
 * row and per column. */
typedef struct matrix_operand {
    char *base;
    int64_t batch_step[TSR_MAX_DIMS];
    int64_t row_step;
    int64_t col_step;
} matrix_operand;

typedef struct matmul_plan {
    tsr__ref_category category;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
    int64_t m, n, k;
    int32_t batch_ndim;
    int64_t batch_shape[TSR_MAX_DIMS];
    int64_t batch_count;
    matrix_operand operand[OPERANDS];
    int has_c; /* c is read: present and beta != 0 */
    tsr__ref_wide alpha, beta;
    int alpha_zero, alpha_one, beta_one;
} matmul_plan;

/* ------------------------------------------------------------------------ */
/* Argument checks                                                           */
/* ------------------------------------------------------------------------ */

static int check_desc(const tsr__ref_backend *backend, const tsr_tensor_desc *desc,
                      const char *what, int32_t dtype, int32_t ndim)
{
    if (desc->dtype != dtype) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "matmul: %s has dtype %s, expected %s", what,
                              tsr__ref_dtype_name(desc->dtype), tsr__ref_dtype_name(dtype));
    }
    if (desc->ndim != ndim || desc->shape == NULL || desc->strides == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "matmul: %s has %d dims, expected %d", what, (int)desc->ndim,
                              (int)ndim);
    }
    for (int32_t d = 0; d < ndim; d++) {
        if (desc->shape[d] < 0) {
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "matmul: %s has a negative extent", what);
        }
    }
    return TSR_OK;
}

/* Whether dims [0, ndim - 2) of x and the output agree and x's last two
 * dims are (rows, cols). */
static int shape_is(const tsr_tensor_desc *x, const tsr_tensor_desc *out, int64_t rows,
                    int64_t cols)
{
    int32_t ndim = out->ndim;
    for (int32_t d = 0; d + 2 < ndim; d++) {
        if (x->shape[d] != out->shape[d]) {
            return 0;
        }
    }
    return x->shape[ndim - 2] == rows && x->shape[ndim - 1] == cols;
}

static int check_shapes(const tsr__ref_backend *backend, const tsr_kernel_args *args, int has_c)
{
    const tsr_tensor_desc *out = args->outputs;
    const tsr_tensor_desc *a = &args->inputs[0], *b = &args->inputs[1];
    int32_t ndim = out->ndim;
    if (ndim < 2 || ndim > TSR_MAX_DIMS || out->shape == NULL || out->strides == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "matmul: output needs 2 to %d dims, got %d", TSR_MAX_DIMS, (int)ndim);
    }
    int32_t dtype = out->dtype;
    if (!tsr__ref_dtype_valid(dtype) || !(tsr__ref_matmul_dtypes & TSR__REF_DTYPE_BIT(dtype))) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "matmul: no kernel for dtype %s",
                              tsr__ref_dtype_name(dtype));
    }
    int status = check_desc(backend, out, "output", dtype, ndim);
    if (status == TSR_OK) {
        status = check_desc(backend, a, "input 0", dtype, ndim);
    }
    if (status == TSR_OK) {
        status = check_desc(backend, b, "input 1", dtype, ndim);
    }
    if (status == TSR_OK && has_c) {
        status = check_desc(backend, &args->inputs[2], "input 2", dtype, ndim);
    }
    if (status != TSR_OK) {
        return status;
    }
    int64_t m = out->shape[ndim - 2], n = out->shape[ndim - 1], k = a->shape[ndim - 1];
    if (!shape_is(a, out, m, k) || !shape_is(b, out, k, n) ||
        (has_c && !shape_is(&args->inputs[2], out, m, n))) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "matmul: operands are not [..., M, K], [..., K, N] and [..., M, N] "
                              "with the output's batch dims");
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* The plan                                                                  */
/* ------------------------------------------------------------------------ */

static void plan_operand(matmul_plan *plan, int which, const tsr_tensor_desc *desc)
{
    matrix_operand *op = &plan->operand[which];
    int64_t size = (int64_t)tsr__ref_dtype_size(desc->dtype);
    int32_t ndim = desc->ndim;
    op->base = (char *)desc->data + desc->byte_offset;
    for (int32_t d = 0; d + 2 < ndim; d++) {
        op->batch_step[d] = desc->strides[d] * size;
    }
    op->row_step = desc->strides[ndim - 2] * size;
    op->col_step = desc->strides[ndim - 1] * size;
}

static int is_zero(const tsr__ref_wide *v, tsr__ref_category category)
{
    switch (category) {
    case TSR__REF_INTEGER:
        return v->i == 0;
    case TSR__REF_REAL:
        return v->f == 0.0;
    default:
        return creal(v->c) == 0.0 && cimag(v->c) == 0.0;
    }
}

static int is_one(const tsr__ref_wide *v, tsr__ref_category category)
{
    switch (category) {
    case TSR__REF_INTEGER:
        return v->i == 1;
    case TSR__REF_REAL:
        return v->f == 1.0;
    default:
        return creal(v->c) == 1.0 && cimag(v->c) == 0.0;
    }
}

/* alpha and beta as PyTorch hands them to its kernel: converted to the
 * dtype (truncated for integers) and widened again. Without attributes the
 * call is a plain product. */
static void plan_coefficients(matmul_plan *plan, const tsr_kernel_args *args, int32_t dtype,
                              int *has_c)
{
    tsr_scalar alpha = {.kind = TSR_SCALAR_INT, .v.i = 1};
    tsr_scalar beta = {.kind = TSR_SCALAR_INT, .v.i = 0};
    const tsr_elementwise_attrs *attrs = args->attrs;
    size_t needed = offsetof(tsr_elementwise_attrs, scalars) + 2 * sizeof(tsr_scalar);
    *has_c = 0;
    if (attrs != NULL && attrs->struct_size >= needed) {
        alpha = attrs->scalars[0];
        beta = attrs->scalars[1];
        *has_c = (attrs->mode & 1) != 0;
    }
    tsr__ref_scalar_as_dtype(&alpha, dtype, &plan->alpha);
    tsr__ref_scalar_as_dtype(&beta, dtype, &plan->beta);
    plan->alpha_zero = is_zero(&plan->alpha, plan->category);
    plan->alpha_one = is_one(&plan->alpha, plan->category);
    plan->beta_one = is_one(&plan->beta, plan->category);
}

static int plan_build(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                      matmul_plan *plan)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "matmul: kernel arguments missing or older than ABI 1.0");
    }
    if (args->num_outputs != 1 || args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "matmul: expected 1 output, got %d", (int)args->num_outputs);
    }
    int32_t dtype = args->outputs->dtype;
    if (!tsr__ref_dtype_valid(dtype)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "matmul: invalid output dtype id %d",
                              (int)dtype);
    }
    plan->category = tsr__ref_dtype_category(dtype);
    int has_c = 0;
    plan_coefficients(plan, args, dtype, &has_c);
    if (args->num_inputs != 2 + has_c || args->inputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "matmul: expected %d inputs (mode %d), got %d", 2 + has_c, has_c,
                              (int)args->num_inputs);
    }
    int status = check_shapes(backend, args, has_c);
    if (status != TSR_OK) {
        return status;
    }
    const tsr_tensor_desc *out = args->outputs;
    int32_t ndim = out->ndim;
    plan->m = out->shape[ndim - 2];
    plan->n = out->shape[ndim - 1];
    plan->k = args->inputs[0].shape[ndim - 1];
    plan->batch_ndim = ndim - 2;
    plan->batch_count = 1;
    for (int32_t d = 0; d + 2 < ndim; d++) {
        plan->batch_shape[d] = out->shape[d];
        plan->batch_count *= out->shape[d];
    }
    plan->has_c = has_c && !is_zero(&plan->beta, plan->category);
    plan->load = tsr__ref_loader(dtype);
    plan->store = tsr__ref_storer(plan->category, dtype);
    plan_operand(plan, OUT, out);
    plan_operand(plan, A, &args->inputs[0]);
    plan_operand(plan, B, &args->inputs[1]);
    if (has_c) {
        plan_operand(plan, C, &args->inputs[2]);
    }
    if (plan->batch_count * plan->m * plan->n > 0 &&
        (out->data == NULL ||
         (plan->k > 0 && (args->inputs[0].data == NULL || args->inputs[1].data == NULL)) ||
         (plan->has_c && args->inputs[2].data == NULL))) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "matmul: NULL data pointer");
    }
    return TSR_OK;
}

/* ------------------------------------------------------------------------ */
/* Computing                                                                 */
/* ------------------------------------------------------------------------ */

/* sum_k a[k] * b[k], k ascending. */
static void dot(const matmul_plan *plan, const char *a, int64_t a_step, const char *b,
                int64_t b_step, tsr__ref_wide *acc)
{
    tsr__ref_wide x, y;
    switch (plan->category) {
    case TSR__REF_INTEGER:
        acc->i = 0;
        for (int64_t k = 0; k < plan->k; k++) {
            plan->load(a + k * a_step, &x);
            plan->load(b + k * b_step, &y);
            acc->i = tsr__ref_wrap_add(acc->i, tsr__ref_wrap_mul(x.i, y.i));
        }
        break;
    case TSR__REF_REAL:
        acc->f = 0.0;
        for (int64_t k = 0; k < plan->k; k++) {
            plan->load(a + k * a_step, &x);
            plan->load(b + k * b_step, &y);
            acc->f += x.f * y.f;
        }
        break;
    default:
        acc->c = 0.0;
        for (int64_t k = 0; k < plan->k; k++) {
            plan->load(a + k * a_step, &x);
            plan->load(b + k * b_step, &y);
            acc->c += tsr__ref_complex_mul(x.c, y.c);
        }
        break;
    }
}

/* value * coefficient, or value itself when the coefficient is 1. */
static void scale(const matmul_plan *plan, tsr__ref_wide *value, const tsr__ref_wide *by,
                  int by_one)
{
    if (by_one) {
        return;
    }
    switch (plan->category) {
    case TSR__REF_INTEGER:
        value->i = tsr__ref_wrap_mul(by->i, value->i);
        break;
    case TSR__REF_REAL:
        value->f = by->f * value->f;
        break;
    default:
        value->c = tsr__ref_complex_mul(by->c, value->c);
        break;
    }
}

static void accumulate(const matmul_plan *plan, tsr__ref_wide *sum, const tsr__ref_wide *term)
{
    switch (plan->category) {
    case TSR__REF_INTEGER:
        sum->i = tsr__ref_wrap_add(sum->i, term->i);
        break;
    case TSR__REF_REAL:
        sum->f += term->f;
        break;
    default:
        sum->c += term->c;
        break;
    }
}

static void set_zero(const matmul_plan *plan, tsr__ref_wide *value)
{
    switch (plan->category) {
    case TSR__REF_INTEGER:
        value->i = 0;
        break;
    case TSR__REF_REAL:
        value->f = 0.0;
        break;
    default:
        value->c = 0.0;
        break;
    }
}

/* One output element from its row of a, column of b and element of c. */
static void element(const matmul_plan *plan, const char *a_row, const char *b_col,
                    const char *c_elem, tsr__ref_wide *value)
{
    tsr__ref_wide c;
    if (plan->alpha_zero) {
        set_zero(plan, value);
    } else {
        dot(plan, a_row, plan->operand[A].col_step, b_col, plan->operand[B].row_step, value);
        scale(plan, value, &plan->alpha, plan->alpha_one);
    }
    if (plan->has_c) {
        plan->load(c_elem, &c);
        scale(plan, &c, &plan->beta, plan->beta_one);
        if (plan->alpha_zero) {
            *value = c;
        } else {
            accumulate(plan, value, &c);
        }
    }
}

static void run_matrix(const matmul_plan *plan, const int64_t *offset)
{
    const matrix_operand *out = &plan->operand[OUT], *a = &plan->operand[A];
    const matrix_operand *b = &plan->operand[B], *c = &plan->operand[C];
    for (int64_t i = 0; i < plan->m; i++) {
        for (int64_t j = 0; j < plan->n; j++) {
            tsr__ref_wide value;
            const char *a_row = a->base + offset[A] + i * a->row_step;
            const char *b_col = b->base + offset[B] + j * b->col_step;
            const char *c_elem =
                plan->has_c ? c->base + offset[C] + i * c->row_step + j * c->col_step : NULL;
            element(plan, a_row, b_col, c_elem, &value);
            plan->store(out->base + offset[OUT] + i * out->row_step + j * out->col_step, &value);
        }
    }
}

/* Byte offsets of matrix `index` of the batch in every operand. */
static void batch_offsets(const matmul_plan *plan, int64_t index, int64_t *offset)
{
    for (int which = 0; which < OPERANDS; which++) {
        offset[which] = 0;
    }
    for (int32_t d = plan->batch_ndim - 1; d >= 0; d--) {
        int64_t coordinate = index % plan->batch_shape[d];
        index /= plan->batch_shape[d];
        for (int which = 0; which < OPERANDS; which++) {
            offset[which] += coordinate * plan->operand[which].batch_step[d];
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Outputs that overlap an input                                             */
/* ------------------------------------------------------------------------ */

/* The bytes [*lo, *hi) a non-empty descriptor reaches; 0 for an empty one. */
static int byte_span(const tsr_tensor_desc *desc, uintptr_t *lo, uintptr_t *hi)
{
    int64_t size = (int64_t)tsr__ref_dtype_size(desc->dtype), low = 0, high = 0;
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (desc->shape[d] == 0) {
            return 0;
        }
        int64_t extent = (desc->shape[d] - 1) * desc->strides[d] * size;
        if (extent < 0) {
            low += extent;
        } else {
            high += extent;
        }
    }
    uintptr_t base = (uintptr_t)desc->data + (uintptr_t)desc->byte_offset;
    *lo = base - (uintptr_t)(-low);
    *hi = base + (uintptr_t)(high + size);
    return 1;
}

static int overlap(const tsr_tensor_desc *x, const tsr_tensor_desc *y)
{
    uintptr_t xlo, xhi, ylo, yhi;
    return byte_span(x, &xlo, &xhi) && byte_span(y, &ylo, &yhi) && xlo < yhi && ylo < xhi;
}

/* Each element of c is read just before the output element over it is
 * written, so c may share the output's exact layout. */
static int same_layout(const tsr_tensor_desc *x, const tsr_tensor_desc *y)
{
    if (x->data != y->data || x->byte_offset != y->byte_offset) {
        return 0;
    }
    for (int32_t d = 0; d < x->ndim; d++) {
        if (x->shape[d] > 1 && x->strides[d] != y->strides[d]) {
            return 0;
        }
    }
    return 1;
}

static int needs_scratch(const tsr_kernel_args *args, int has_c)
{
    const tsr_tensor_desc *out = args->outputs;
    return overlap(out, &args->inputs[0]) || overlap(out, &args->inputs[1]) ||
           (has_c && overlap(out, &args->inputs[2]) && !same_layout(out, &args->inputs[2]));
}

/* Points the plan's output at `scratch`, a dense buffer of the output's
 * shape, and returns the real output's operand. */
static matrix_operand use_scratch(matmul_plan *plan, char *scratch, int64_t elem_size)
{
    matrix_operand real = plan->operand[OUT];
    matrix_operand *out = &plan->operand[OUT];
    out->base = scratch;
    out->col_step = elem_size;
    out->row_step = plan->n * elem_size;
    int64_t step = plan->m * plan->n * elem_size;
    for (int32_t d = plan->batch_ndim - 1; d >= 0; d--) {
        out->batch_step[d] = step;
        step *= plan->batch_shape[d];
    }
    return real;
}

static void copy_out(const matmul_plan *plan, const matrix_operand *real, int64_t elem_size)
{
    const matrix_operand *scratch = &plan->operand[OUT];
    for (int64_t index = 0; index < plan->batch_count; index++) {
        int64_t offset[OPERANDS];
        batch_offsets(plan, index, offset);
        int64_t real_offset = 0, rest = index;
        for (int32_t d = plan->batch_ndim - 1; d >= 0; d--) {
            real_offset += (rest % plan->batch_shape[d]) * real->batch_step[d];
            rest /= plan->batch_shape[d];
        }
        for (int64_t i = 0; i < plan->m; i++) {
            for (int64_t j = 0; j < plan->n; j++) {
                memcpy(real->base + real_offset + i * real->row_step + j * real->col_step,
                       scratch->base + offset[OUT] + i * scratch->row_step + j * scratch->col_step,
                       (size_t)elem_size);
            }
        }
    }
}

int tsr__ref_kernel_matmul(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    matmul_plan plan = {0};
    int status = plan_build(backend, args, &plan);
    if (status != TSR_OK) {
        return status;
    }
    int64_t numel = plan.batch_count * plan.m * plan.n;
    if (numel == 0) {
        return TSR_OK;
    }
    int64_t elem_size = (int64_t)tsr__ref_dtype_size(args->outputs->dtype);
    char *scratch = NULL;
    matrix_operand real = plan.operand[OUT];
    if (needs_scratch(args, args->num_inputs == 3)) {
        scratch = malloc((size_t)(numel * elem_size));
        if (scratch == NULL) {
            return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY,
                                  "matmul: no memory to stage an output that overlaps an input");
        }
        real = use_scratch(&plan, scratch, elem_size);
    }
    for (int64_t index = 0; index < plan.batch_count; index++) {
        int64_t offset[OPERANDS];
        batch_offsets(&plan, index, offset);
        run_matrix(&plan, offset);
    }
    if (scratch != NULL) {
        copy_out(&plan, &real, elem_size);
        free(scratch);
    }
    return TSR_OK;
}
