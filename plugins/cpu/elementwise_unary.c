/* Unary float32/float64 functions through SLEEF's vectorised 1-ulp
 * functions (sqrt and neg exactly): exp, log, expm1, log1p, sin, cos, tanh,
 * sigmoid, erf, gelu (both forms), silu, sqrt, neg. Contiguous inputs take
 * the SIMD rows; other layouts go to the reference kernel. Results are
 * within an ulp or two of the reference kernel's (which rounds the double
 * result of the C library), well inside the golden tolerances. */
#include <stddef.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "elementwise.h" /* tsr__ref_kernel_elementwise */

typedef struct unary_run {
    const tsr__cpu_simd *simd;
    int op; /* tsr__cpu_unary_op */
    int32_t dtype;
} unary_run;

static void unary_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    (void)steps;
    const unary_run *run = context;
    if (run->dtype == TSR_FLOAT32) {
        run->simd->unary_f32(run->op, (float *)ptrs[0], (const float *)ptrs[1], n);
    } else {
        run->simd->unary_f64(run->op, (double *)ptrs[0], (const double *)ptrs[1], n);
    }
}

static int choose_op(const tsr_kernel_args *args)
{
    const tsr_elementwise_attrs *attrs = args->attrs;
    switch (args->op) {
    case TSR_OP_EXP:
        return TSR__CPU_UN_EXP;
    case TSR_OP_LOG:
        return TSR__CPU_UN_LOG;
    case TSR_OP_TANH:
        return TSR__CPU_UN_TANH;
    case TSR_OP_SIGMOID:
        return TSR__CPU_UN_SIGMOID;
    case TSR_OP_ERF:
        return TSR__CPU_UN_ERF;
    case TSR_OP_GELU:
        if (attrs != NULL && attrs->struct_size >= offsetof(tsr_elementwise_attrs, scalars) &&
            attrs->mode == TSR_GELU_TANH) {
            return TSR__CPU_UN_GELU_TANH;
        }
        return TSR__CPU_UN_GELU;
    case TSR_OP_SQRT:
        return TSR__CPU_UN_SQRT;
    case TSR_OP_NEG:
        return TSR__CPU_UN_NEG;
    case TSR_OP_SIN:
        return TSR__CPU_UN_SIN;
    case TSR_OP_COS:
        return TSR__CPU_UN_COS;
    case TSR_OP_EXPM1:
        return TSR__CPU_UN_EXPM1;
    case TSR_OP_LOG1P:
        return TSR__CPU_UN_LOG1P;
    case TSR_OP_SILU:
        return TSR__CPU_UN_SILU;
    default:
        return -1;
    }
}

int tsr__cpu_kernel_unary(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL) {
        return tsr__ref_kernel_elementwise(backend, args);
    }
    int32_t dtype = args->outputs[0].dtype;
    int op = -1;
    if ((dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64) && args->inputs[0].dtype == dtype) {
        op = choose_op(args);
    }
    tsr__cpu_walk walk;
    if (op < 0 || !tsr__cpu_walk_init(&walk, &args->outputs[0], args->inputs, 1) ||
        (walk.numel > 1 && walk.strides[1][walk.ndim - 1] != 1)) {
        return tsr__ref_kernel_elementwise(backend, args);
    }
    unary_run run = {backend->simd, op, dtype};
    /* Transcendental rows cost ~10x a copy per element: smaller blocks. */
    tsr__cpu_walk_run(backend, &walk, TSR__CPU_ELEMENTWISE_GRAIN / 4, unary_row, &run);
    return TSR_OK;
}
