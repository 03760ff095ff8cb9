/* The generic elementwise kernel: checks a call against the op's table
 * entry, binds attributes, then loads, computes and stores each element
 * through function pointers chosen once per call. */
#include "elementwise.h"

#include <stddef.h>

#include "kernel_args.h"
#include "strided_loop.h"

enum { MAX_ARITY = TSR__REF_LOOP_MAX_OPERANDS - 1 };

static const tsr__ref_op_family *const families[] = {
    &tsr__ref_arith_family,    &tsr__ref_division_family,    &tsr__ref_compare_family,
    &tsr__ref_unary_family,    &tsr__ref_clamp_family,       &tsr__ref_binary_math_family,
    &tsr__ref_bitwise_family,  &tsr__ref_unary_math2_family, &tsr__ref_activation_family,
    &tsr__ref_rounding_family, &tsr__ref_ternary_family,
};

const tsr__ref_elementwise_op *tsr__ref_elementwise_op_at(size_t index)
{
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        if (index < families[f]->count) {
            return &families[f]->ops[index];
        }
        index -= families[f]->count;
    }
    return NULL;
}

const tsr__ref_elementwise_op *tsr__ref_elementwise_op_find(int32_t op)
{
    const tsr__ref_elementwise_op *entry;
    for (size_t i = 0; (entry = tsr__ref_elementwise_op_at(i)) != NULL; i++) {
        if (entry->op == op) {
            return entry;
        }
    }
    return NULL;
}

int32_t tsr__ref_elementwise_result_dtype(const tsr__ref_elementwise_op *op, int32_t dtype)
{
    switch (op->result) {
    case TSR__REF_RESULT_BOOL:
        return TSR_BOOL;
    case TSR__REF_RESULT_REAL:
        return tsr__ref_dtype_real_part(dtype);
    default:
        return dtype;
    }
}

tsr_scalar tsr__ref_bind_scalar(const tsr__ref_bind_args *args, int index, tsr_scalar fallback)
{
    size_t needed =
        offsetof(tsr_elementwise_attrs, scalars) + (size_t)(index + 1) * sizeof(tsr_scalar);
    if (args->attrs == NULL || args->attrs->struct_size < needed) {
        return fallback;
    }
    return args->attrs->scalars[index];
}

static double scalar_real(const tsr_scalar *scalar)
{
    switch (scalar->kind) {
    case TSR_SCALAR_FLOAT:
        return scalar->v.f;
    case TSR_SCALAR_COMPLEX:
        return scalar->v.c.re;
    default:
        return (double)scalar->v.i;
    }
}

void tsr__ref_bind_opmath(const tsr_scalar *scalar, int32_t dtype, tsr__ref_wide *out)
{
    switch (tsr__ref_dtype_category(dtype)) {
    case TSR__REF_REAL:
        out->f = dtype == TSR_FLOAT64 ? scalar_real(scalar) : (float)scalar_real(scalar);
        break;
    case TSR__REF_COMPLEX: {
        double im = scalar->kind == TSR_SCALAR_COMPLEX ? scalar->v.c.im : 0.0;
        double re = scalar_real(scalar);
        out->c = dtype == TSR_COMPLEX128 ? tsr__ref_complex_make(re, im)
                                         : tsr__ref_complex_make((float)re, (float)im);
        break;
    }
    default:
        tsr__ref_scalar_as_dtype(scalar, dtype, out);
        break;
    }
}

typedef struct elementwise_run {
    const tsr__ref_elem_call *call;
    int32_t arity;
    tsr__ref_load_fn load; /* every input has the computation dtype */
    tsr__ref_store_fn store;
} elementwise_run;

/* Loads every input before storing, so an output sharing an input's memory
 * (same layout) is safe. */
static int elementwise_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const elementwise_run *run = context;
    tsr__ref_wide in[MAX_ARITY];
    tsr__ref_wide out;
    for (int64_t i = 0; i < n; i++) {
        for (int32_t k = 0; k < run->arity; k++) {
            run->load(ptrs[k + 1] + i * steps[k + 1], &in[k]);
        }
        run->call->fn(&out, in, &run->call->ctx);
        run->store(ptrs[0] + i * steps[0], &out);
    }
    return TSR_OK;
}

static int zero_divisor_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const elementwise_run *run = context;
    tsr__ref_wide divisor;
    for (int64_t i = 0; i < n; i++) {
        run->load(ptrs[0] + i * steps[0], &divisor);
        if (divisor.i == 0) {
            return TSR_ERR_VALUE;
        }
    }
    return TSR_OK;
}

/* PyTorch raises ZeroDivisionError for integer division by zero; scanning
 * first keeps the output untouched when the call fails. */
static int check_divisor(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                         const elementwise_run *run)
{
    tsr__ref_loop loop;
    int status = tsr__ref_loop_init(&loop, &args->inputs[1], NULL, 0);
    if (status == TSR_OK) {
        status = tsr__ref_loop_run(&loop, zero_divisor_row, (void *)run);
    }
    if (status != TSR_OK) {
        return tsr__ref_error(backend, TSR_ERR_VALUE, "division by zero");
    }
    return TSR_OK;
}

/* Checks the dtypes against the op's entry: the computation dtype is one it
 * supports, all inputs have it, the output has the op's result dtype.
 * Returns TSR_OK or a reported TSR_ERR_DTYPE. */
static int check_dtypes(const tsr__ref_backend *backend, const tsr__ref_elementwise_op *op,
                        const tsr_kernel_args *args)
{
    int32_t dtype = args->inputs[0].dtype;
    if ((op->dtypes & TSR__REF_DTYPE_BIT(dtype)) == 0) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "no kernel for dtype %s",
                              tsr__ref_dtype_name(dtype));
    }
    for (int32_t k = 1; k < op->arity; k++) {
        if (args->inputs[k].dtype != dtype) {
            return tsr__ref_args_dtype_error(backend, k, args->inputs[k].dtype, dtype);
        }
    }
    int32_t out_dtype = tsr__ref_elementwise_result_dtype(op, dtype);
    if (args->outputs[0].dtype != out_dtype) {
        return tsr__ref_args_dtype_error(backend, -1, args->outputs[0].dtype, out_dtype);
    }
    return TSR_OK;
}

static tsr__ref_category output_category(const tsr__ref_elementwise_op *op,
                                         tsr__ref_category category)
{
    if (op->result == TSR__REF_RESULT_BOOL) {
        return TSR__REF_INTEGER;
    }
    if (op->result == TSR__REF_RESULT_REAL && category == TSR__REF_COMPLEX) {
        return TSR__REF_REAL;
    }
    return category;
}

int tsr__ref_kernel_elementwise(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const tsr__ref_elementwise_op *op =
        args != NULL ? tsr__ref_elementwise_op_find(args->op) : NULL;
    if (op == NULL) {
        return tsr__ref_error(backend, TSR_ERR_UNIMPLEMENTED, "not an elementwise op");
    }
    tsr__ref_loop loop;
    int status = tsr__ref_args_prepare(backend, args, op->arity, &loop);
    if (status == TSR_OK) {
        status = check_dtypes(backend, op, args);
    }
    if (status != TSR_OK) {
        return status;
    }
    int32_t dtype = args->inputs[0].dtype;
    tsr__ref_category category = tsr__ref_dtype_category(dtype);
    tsr__ref_elem_call call = {
        .fn = op->fn[category],
        .ctx = {.mode = op->constant,
                .round = tsr__ref_real_rounder(dtype),
                .opmath_round = tsr__ref_real_rounder(
                    tsr__ref_dtype_real_part(dtype) == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32)}};
    if (op->bind != NULL) {
        tsr__ref_bind_args bind = {backend, tsr__ref_args_attrs(args), dtype, category};
        status = op->bind(&bind, &call);
        if (status != TSR_OK) {
            return status;
        }
    }
    if (call.fn == NULL) {
        return tsr__ref_error(backend, TSR_ERR_UNIMPLEMENTED, "no element function for dtype %s",
                              tsr__ref_dtype_name(dtype));
    }
    elementwise_run run = {
        .call = &call,
        .arity = op->arity,
        .load = tsr__ref_loader(dtype),
        .store = tsr__ref_storer(output_category(op, category), args->outputs[0].dtype),
    };
    if (call.check_zero_divisor && loop.numel > 0) {
        status = check_divisor(backend, args, &run);
        if (status != TSR_OK) {
            return status;
        }
    }
    return tsr__ref_loop_run(&loop, elementwise_row, &run);
}
