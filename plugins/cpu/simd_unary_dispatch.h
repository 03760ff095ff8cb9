/* The unary-op switch shared by the AVX2 and AVX-512 files. Each case calls
 * the including file's unary_loop_f32/unary_loop_f64 with a constant op, so
 * the compiler inlines one specialised loop per op instead of switching per
 * vector. Include it after those two functions; it defines static functions,
 * so each ISA file gets its own copy compiled with its own flags. */
#ifndef TSR_CPU_SIMD_UNARY_DISPATCH_H
#define TSR_CPU_SIMD_UNARY_DISPATCH_H

static void unary_f32(int op, float *out, const float *in, int64_t n)
{
    switch (op) {
    case TSR__CPU_UN_EXP:
        unary_loop_f32(TSR__CPU_UN_EXP, out, in, n);
        break;
    case TSR__CPU_UN_LOG:
        unary_loop_f32(TSR__CPU_UN_LOG, out, in, n);
        break;
    case TSR__CPU_UN_TANH:
        unary_loop_f32(TSR__CPU_UN_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SIGMOID:
        unary_loop_f32(TSR__CPU_UN_SIGMOID, out, in, n);
        break;
    case TSR__CPU_UN_ERF:
        unary_loop_f32(TSR__CPU_UN_ERF, out, in, n);
        break;
    case TSR__CPU_UN_GELU:
        unary_loop_f32(TSR__CPU_UN_GELU, out, in, n);
        break;
    case TSR__CPU_UN_GELU_TANH:
        unary_loop_f32(TSR__CPU_UN_GELU_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SQRT:
        unary_loop_f32(TSR__CPU_UN_SQRT, out, in, n);
        break;
    case TSR__CPU_UN_NEG:
        unary_loop_f32(TSR__CPU_UN_NEG, out, in, n);
        break;
    case TSR__CPU_UN_SIN:
        unary_loop_f32(TSR__CPU_UN_SIN, out, in, n);
        break;
    case TSR__CPU_UN_COS:
        unary_loop_f32(TSR__CPU_UN_COS, out, in, n);
        break;
    case TSR__CPU_UN_EXPM1:
        unary_loop_f32(TSR__CPU_UN_EXPM1, out, in, n);
        break;
    case TSR__CPU_UN_LOG1P:
        unary_loop_f32(TSR__CPU_UN_LOG1P, out, in, n);
        break;
    default:
        unary_loop_f32(TSR__CPU_UN_SILU, out, in, n);
        break;
    }
}

static void unary_f64(int op, double *out, const double *in, int64_t n)
{
    switch (op) {
    case TSR__CPU_UN_EXP:
        unary_loop_f64(TSR__CPU_UN_EXP, out, in, n);
        break;
    case TSR__CPU_UN_LOG:
        unary_loop_f64(TSR__CPU_UN_LOG, out, in, n);
        break;
    case TSR__CPU_UN_TANH:
        unary_loop_f64(TSR__CPU_UN_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SIGMOID:
        unary_loop_f64(TSR__CPU_UN_SIGMOID, out, in, n);
        break;
    case TSR__CPU_UN_ERF:
        unary_loop_f64(TSR__CPU_UN_ERF, out, in, n);
        break;
    case TSR__CPU_UN_GELU:
        unary_loop_f64(TSR__CPU_UN_GELU, out, in, n);
        break;
    case TSR__CPU_UN_GELU_TANH:
        unary_loop_f64(TSR__CPU_UN_GELU_TANH, out, in, n);
        break;
    case TSR__CPU_UN_SQRT:
        unary_loop_f64(TSR__CPU_UN_SQRT, out, in, n);
        break;
    case TSR__CPU_UN_NEG:
        unary_loop_f64(TSR__CPU_UN_NEG, out, in, n);
        break;
    case TSR__CPU_UN_SIN:
        unary_loop_f64(TSR__CPU_UN_SIN, out, in, n);
        break;
    case TSR__CPU_UN_COS:
        unary_loop_f64(TSR__CPU_UN_COS, out, in, n);
        break;
    case TSR__CPU_UN_EXPM1:
        unary_loop_f64(TSR__CPU_UN_EXPM1, out, in, n);
        break;
    case TSR__CPU_UN_LOG1P:
        unary_loop_f64(TSR__CPU_UN_LOG1P, out, in, n);
        break;
    default:
        unary_loop_f64(TSR__CPU_UN_SILU, out, in, n);
        break;
    }
}

#endif
