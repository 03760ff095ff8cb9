/* The SIMD row kernels, one set per instruction set, chosen at run time.
 *
 * Each set is compiled in its own file with its own flags (simd_generic.c
 * with the compiler's baseline, simd_avx2.c with -mavx2 -mfma,
 * simd_avx512.c with -mavx512f and friends), and only a set the CPU
 * supports (CPUID, with OS support for the registers) is ever called. The
 * loops themselves are written once, in simd_loops.inc, which each of
 * those files compiles with its own vector vocabulary. The
 * generic set runs on any host. Sets agree bit for bit on add, sub, mul,
 * div and sums; transcendental functions (SLEEF, 1 ulp) may differ by an ulp
 * between sets. Shared headers must only hold `static inline` functions, so
 * no AVX-512 code can be picked by the linker for a generic caller. */
#ifndef TSR_CPU_SIMD_H
#define TSR_CPU_SIMD_H

#include <math.h>
#include <stdint.h>

typedef enum tsr__cpu_isa {
    TSR__CPU_ISA_GENERIC,
    TSR__CPU_ISA_AVX2,   /* AVX2 + FMA */
    TSR__CPU_ISA_AVX512, /* AVX-512 F, DQ, BW, VL */
    TSR__CPU_ISA_COUNT
} tsr__cpu_isa;

/* Binary row ops: out = a OP b; AXPY is a + alpha * b with one rounding
 * (add and sub with alpha other than 1, as PyTorch's fused multiply-add). */
typedef enum tsr__cpu_binary_op {
    TSR__CPU_BIN_ADD,
    TSR__CPU_BIN_SUB,
    TSR__CPU_BIN_MUL,
    TSR__CPU_BIN_DIV,
    TSR__CPU_BIN_AXPY,
} tsr__cpu_binary_op;

typedef enum tsr__cpu_unary_op {
    TSR__CPU_UN_EXP,
    TSR__CPU_UN_LOG,
    TSR__CPU_UN_TANH,
    TSR__CPU_UN_SIGMOID,
    TSR__CPU_UN_ERF,
    TSR__CPU_UN_GELU,      /* x/2 * erfc(-x/sqrt 2) */
    TSR__CPU_UN_GELU_TANH, /* x/2 * (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
    TSR__CPU_UN_SQRT,
    TSR__CPU_UN_NEG,
    TSR__CPU_UN_SIN,
    TSR__CPU_UN_COS,
    TSR__CPU_UN_EXPM1,
    TSR__CPU_UN_LOG1P,
    TSR__CPU_UN_SILU,
} tsr__cpu_unary_op;

/* The fixed order of sums (docs/determinism.md): blocks of 1024 terms, 16
 * lanes per block. */
#define TSR__CPU_SUM_BLOCK 1024
#define TSR__CPU_SUM_LANES 16

/* layer_norm and rms_norm of one row follow PyTorch 1.13's CPU kernel, as
 * the reference kernel does: the mean and the mean of squared deviations in
 * double, then for float32 layer_norm each step rounded to float with the
 * two multiply-adds fused,
 *     rstd = 1 / sqrt(var + eps),  y = fma(fma(x, rstd, -rstd * mean), w, b);
 * float64 layer_norm takes the same steps in double, unfused; rms_norm
 * (newer than 1.13) is x * rstd * w in double, rounded once. */
typedef struct tsr__cpu_norm_row {
    const void *weight; /* NULL: no weight (and then no bias) */
    const void *bias;   /* NULL: 0 */
    double eps;
    int rms; /* rms_norm: no centring, no bias */
} tsr__cpu_norm_row;

/* float32 layer_norm's per-row constants, each rounded to float. */
struct tsr__cpu_norm_coefficients {
    float mean, rstd, shift;
};

static inline struct tsr__cpu_norm_coefficients
tsr__cpu_norm_coefficients_f32(double mean, double squares, int64_t n, double eps)
{
    struct tsr__cpu_norm_coefficients c;
    float var = (float)(squares / (double)n);
    c.mean = (float)mean;
    /* As PyTorch, in float step by step: rstd's last bit is the answer on
     * constant rows (x * rstd - rstd * mean, one rounding). */
    c.rstd = 1.0f / sqrtf(var + (float)eps);
    c.shift = (float)(-(double)c.rstd * (double)c.mean);
    return c;
}

/* The largest of `max` and x[0, n), by comparisons, which skip NaN (a row
 * holding NaN sums to NaN whatever its maximum). */
static inline float tsr__cpu_max_f32(const float *x, int64_t n, float max)
{
    for (int64_t i = 0; i < n; i++) {
        max = x[i] > max ? x[i] : max;
    }
    return max;
}

static inline double tsr__cpu_max_f64(const double *x, int64_t n, double max)
{
    for (int64_t i = 0; i < n; i++) {
        max = x[i] > max ? x[i] : max;
    }
    return max;
}

typedef struct tsr__cpu_simd {
    const char *name;
    /* Element i of a is a[i * a_step] (a_step 0 or 1), likewise b; out is
     * contiguous and may be a or b itself. */
    void (*binary_f32)(int op, float *out, const float *a, int64_t a_step, const float *b,
                       int64_t b_step, int64_t n, float alpha);
    void (*binary_f64)(int op, double *out, const double *a, int64_t a_step, const double *b,
                       int64_t b_step, int64_t n, double alpha);
    /* Contiguous rows; out may be in. */
    void (*unary_f32)(int op, float *out, const float *in, int64_t n);
    void (*unary_f64)(int op, double *out, const double *in, int64_t n);
    /* The lane-order value of each block of x[0, n): block b's value goes to
     * values[b]; the last block may be shorter. Carried in double. */
    void (*sum_blocks_f32)(const float *x, int64_t n, double *values);
    void (*sum_blocks_f64)(const double *x, int64_t n, double *values);
    /* softmax (log_form 0) or log_softmax of one contiguous row; out may be in. */
    void (*softmax_row_f32)(float *out, const float *in, int64_t n, int log_form);
    void (*softmax_row_f64)(double *out, const double *in, int64_t n, int log_form);
    /* logsumexp of one contiguous row (n >= 1), as the reference computes it:
     * shift by the maximum (by 0 where that is infinite), exp and sum in
     * double (16 lanes), log, shift back. */
    double (*logsumexp_row_f32)(const float *x, int64_t n);
    double (*logsumexp_row_f64)(const double *x, int64_t n);
    /* layer_norm / rms_norm of one contiguous row; writes the statistics. */
    void (*norm_row_f32)(float *y, const float *x, int64_t n, const tsr__cpu_norm_row *p,
                         double *mean, double *rstd);
    void (*norm_row_f64)(double *y, const double *x, int64_t n, const tsr__cpu_norm_row *p,
                         double *mean, double *rstd);
} tsr__cpu_simd;

/* The sets compiled into this build: NULL for one that is not (non-x86). */
const tsr__cpu_simd *tsr__cpu_simd_generic(void);
const tsr__cpu_simd *tsr__cpu_simd_avx2(void);
const tsr__cpu_simd *tsr__cpu_simd_avx512(void);

/* The best set this CPU supports (isa.c). */
tsr__cpu_isa tsr__cpu_isa_detect(void);
/* The set for `isa`, or NULL when it is not compiled in or not supported. */
const tsr__cpu_simd *tsr__cpu_simd_for(tsr__cpu_isa isa);
const char *tsr__cpu_isa_name(tsr__cpu_isa isa);

/* Combines block values in the fixed binary tree of docs/determinism.md:
 * the left part holds the largest power of two of blocks below the count.
 * An empty list gives +0. */
double tsr__cpu_tree_sum(const double *values, int64_t count);

#endif /* TSR_CPU_SIMD_H */
