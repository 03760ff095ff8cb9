/* add, sub, mul, div for float32 and float64: contiguous, scalar-broadcast
 * and row-broadcast operands through the SIMD rows; every other layout, and
 * div with a rounding mode, through the reference kernel.
 *
 * Results equal the reference kernel's bit for bit: a float32 +, -, *, /
 * computed in double and rounded once is the float32 operation, and add with
 * alpha is one fused multiply-add (reference rounds that one through double,
 * which can differ in the last bit in rare halfway cases). */
#include <stddef.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "elementwise.h" /* tsr__ref_kernel_elementwise */
#include "wide.h"

typedef struct binary_run {
    const tsr__cpu_simd *simd;
    int op; /* tsr__cpu_binary_op */
    int32_t dtype;
    double alpha;
} binary_run;

static void binary_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const binary_run *run = context;
    if (run->dtype == TSR_FLOAT32) {
        run->simd->binary_f32(run->op, (float *)ptrs[0], (const float *)ptrs[1], steps[1],
                              (const float *)ptrs[2], steps[2], n, (float)run->alpha);
    } else {
        run->simd->binary_f64(run->op, (double *)ptrs[0], (const double *)ptrs[1], steps[1],
                              (const double *)ptrs[2], steps[2], n, run->alpha);
    }
}

/* alpha as the reference kernel binds it: negated for sub, then rounded to
 * the dtype (PyTorch's alpha.to<scalar_t>()). */
static double bind_alpha(const tsr_kernel_args *args, int32_t dtype)
{
    tsr_scalar alpha = {.kind = TSR_SCALAR_INT, .v.i = 1};
    const tsr_elementwise_attrs *attrs = args->attrs;
    if (attrs != NULL &&
        attrs->struct_size >= offsetof(tsr_elementwise_attrs, scalars) + sizeof(tsr_scalar)) {
        alpha = attrs->scalars[0];
    }
    if (args->op == TSR_OP_SUB) {
        if (alpha.kind == TSR_SCALAR_FLOAT) {
            alpha.v.f = -alpha.v.f;
        } else if (alpha.kind == TSR_SCALAR_COMPLEX) {
            alpha.v.c.re = -alpha.v.c.re;
            alpha.v.c.im = -alpha.v.c.im;
        } else {
            alpha.kind = TSR_SCALAR_INT;
            alpha.v.i = (int64_t)(0u - (uint64_t)alpha.v.i);
        }
    }
    tsr__ref_wide value;
    tsr__ref_scalar_as_dtype(&alpha, dtype, &value);
    return value.f;
}

/* The SIMD op for the call, or -1 when the reference kernel must run it. */
static int choose_op(const tsr_kernel_args *args, int32_t dtype, double *alpha)
{
    const tsr_elementwise_attrs *attrs = args->attrs;
    *alpha = 1.0;
    switch (args->op) {
    case TSR_OP_ADD:
    case TSR_OP_SUB:
        *alpha = bind_alpha(args, dtype);
        if (*alpha == 1.0) {
            return TSR__CPU_BIN_ADD;
        }
        if (*alpha == -1.0) {
            return TSR__CPU_BIN_SUB;
        }
        return TSR__CPU_BIN_AXPY;
    case TSR_OP_MUL:
        return TSR__CPU_BIN_MUL;
    case TSR_OP_DIV:
        if (attrs != NULL && attrs->struct_size >= offsetof(tsr_elementwise_attrs, scalars) &&
            attrs->mode != TSR_ROUND_NONE) {
            return -1;
        }
        return TSR__CPU_BIN_DIV;
    default:
        return -1;
    }
}

int tsr__cpu_kernel_binary(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 2 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL) {
        return tsr__ref_kernel_elementwise(backend, args);
    }
    int32_t dtype = args->outputs[0].dtype;
    double alpha = 1.0;
    int op = -1;
    if ((dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64) && args->inputs[0].dtype == dtype &&
        args->inputs[1].dtype == dtype) {
        op = choose_op(args, dtype, &alpha);
    }
    tsr__cpu_walk walk;
    if (op < 0 || !tsr__cpu_walk_init(&walk, &args->outputs[0], args->inputs, 2)) {
        return tsr__ref_kernel_elementwise(backend, args);
    }
    if (op == TSR__CPU_BIN_SUB) {
        alpha = 1.0; /* a - b */
    }
    binary_run run = {backend->simd, op, dtype, alpha};
    tsr__cpu_walk_run(backend, &walk, TSR__CPU_ELEMENTWISE_GRAIN, binary_row, &run);
    return TSR_OK;
}
