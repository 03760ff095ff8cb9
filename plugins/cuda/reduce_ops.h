/* The reductions in docs/determinism.md's fixed order, written once for
 * the device and the host (TSR_CU_HD). A reduction runs in one or two
 * phases; each phase is
 *   A. per (output, 1024-term block): the block's partial, its terms folded
 *      in lane order (16 lanes, then halving) or scanned in order
 *      (tsr__cu_reduce_block), and
 *   B. per output: the block partials combined (the stride-doubling tree
 *      for sum-like ops, block order for extrema, exact adds for counts)
 *      and finished (tsr__cu_reduce_finish): the result stored, or, after
 *      phase 0 of var/std/logsumexp, the mean or shift kept for phase 1.
 * reduce.cu launches A and B as two kernels per phase; the host test runs
 * the same functions in the same order (tsr__cu_reduce_emulate) against
 * the reference backend's kernel. No atomics: every value has one writer. */
#ifndef TSR_CUDA_REDUCE_OPS_H
#define TSR_CUDA_REDUCE_OPS_H

#include "elem_ops.h"

enum { TSR__CU_RED_BLOCK = 1024, TSR__CU_RED_LANES = 16, TSR__CU_RED_OUTPUTS = 2 };

/* Where one reduction reads and writes: the kept dims give the outputs
 * (one per index), the reduced dims the terms of one output, numbered in
 * row-major order. Steps in bytes. */
typedef struct tsr__cu_reduce_plan {
    int32_t op, dtype, category, outputs;
    int32_t out_dtype[TSR__CU_RED_OUTPUTS];
    int32_t out_category[TSR__CU_RED_OUTPUTS];
    int32_t phases; /* 1, or 2 for var, std and logsumexp */
    double correction, p;
    int64_t out_count, terms, blocks; /* blocks per output */
    int32_t kept_ndim, red_ndim;
    int64_t kept_shape[TSR_MAX_DIMS], kept_in[TSR_MAX_DIMS];
    int64_t kept_out[TSR__CU_RED_OUTPUTS][TSR_MAX_DIMS];
    int64_t red_shape[TSR_MAX_DIMS], red_in[TSR_MAX_DIMS];
    const char *in;
    char *out[TSR__CU_RED_OUTPUTS];
} tsr__cu_reduce_plan;

/* One block's (or output's) partial result. */
typedef struct tsr__cu_partial {
    tsr__cu_value v; /* the fold, or the extreme value */
    int64_t index;   /* extrema: the term number of v */
    int64_t count;   /* counts; all/any: whether the deciding term was found */
} tsr__cu_partial;

TSR_CU_HD static inline int tsr__cu_red_sumlike(int32_t op)
{
    return op == TSR_OP_SUM || op == TSR_OP_NANSUM || op == TSR_OP_PROD || op == TSR_OP_MEAN ||
           op == TSR_OP_NANMEAN || op == TSR_OP_VAR || op == TSR_OP_STD || op == TSR_OP_LOGSUMEXP ||
           op == TSR_OP_NORM;
}

/* Byte offset of output o's input base and of its element in output k. */
TSR_CU_HD static inline void tsr__cu_red_output_offsets(const tsr__cu_reduce_plan *p, int64_t o,
                                                        int64_t *in, int64_t *out)
{
    *in = 0;
    for (int k = 0; k < p->outputs; k++)
        out[k] = 0;
    for (int32_t d = p->kept_ndim - 1; d >= 0; d--) {
        int64_t i = o % p->kept_shape[d];
        o /= p->kept_shape[d];
        *in += i * p->kept_in[d];
        for (int k = 0; k < p->outputs; k++)
            out[k] += i * p->kept_out[k][d];
    }
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_red_term(const tsr__cu_reduce_plan *p,
                                                       const char *base, int64_t k)
{
    int64_t offset = 0;
    for (int32_t d = p->red_ndim - 1; d >= 0; d--) {
        offset += (k % p->red_shape[d]) * p->red_in[d];
        k /= p->red_shape[d];
    }
    return tsr__cu_load(p->dtype, base + offset);
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_red_zero(int32_t cat, int one)
{
    tsr__cu_value v;
    v.c.re = one ? 1.0 : 0.0;
    v.c.im = 0.0;
    if (cat == TSR__CU_INTEGER)
        v.i = one;
    else if (cat == TSR__CU_REAL)
        v.f = one ? 1.0 : 0.0;
    return v;
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_red_combine(int32_t cat, int multiply,
                                                          tsr__cu_value a, tsr__cu_value b)
{
    if (cat == TSR__CU_INTEGER)
        a.i = multiply ? tsr__cu_wrap_mul(a.i, b.i) : tsr__cu_wrap_add(a.i, b.i);
    else if (cat == TSR__CU_REAL)
        a.f = multiply ? a.f * b.f : a.f + b.f;
    else if (multiply)
        a = tsr__cu_cmul(a, b);
    else
        a = tsr__cu_complex(a.c.re + b.c.re, a.c.im + b.c.im);
    return a;
}

/* The category sum-like folds run in: var, std, norms and logsumexp sum
 * real values whatever the input. */
TSR_CU_HD static inline int32_t tsr__cu_red_fold_category(const tsr__cu_reduce_plan *p, int phase)
{
    if (p->op == TSR_OP_NORM || p->op == TSR_OP_LOGSUMEXP || p->op == TSR_OP_NANMEAN ||
        ((p->op == TSR_OP_VAR || p->op == TSR_OP_STD) && phase == 1))
        return TSR__CU_REAL;
    return p->category;
}

/* To float for inputs narrower than float64 (PyTorch's norms run there). */
TSR_CU_HD static inline double tsr__cu_red_opmath(const tsr__cu_reduce_plan *p, double x)
{
    int32_t real = p->dtype == TSR_COMPLEX128 ? TSR_FLOAT64 : p->dtype;
    return real == TSR_FLOAT64 ? x : (double)(float)x;
}

TSR_CU_HD static inline double tsr__cu_red_magnitude(int32_t cat, tsr__cu_value v)
{
    return cat == TSR__CU_COMPLEX ? hypot(v.c.re, v.c.im) : fabs(v.f);
}

/* A term as the sum-like fold of `phase` sees it; `first` is term 0 (var's
 * shift), `kept` the value phase 0 left (var's mean, logsumexp's shift). */
TSR_CU_HD static inline tsr__cu_value tsr__cu_red_transform(const tsr__cu_reduce_plan *p, int phase,
                                                            tsr__cu_value x, tsr__cu_value first,
                                                            tsr__cu_value kept)
{
    const int32_t cat = p->category;
    switch (p->op) {
    case TSR_OP_NANSUM:
    case TSR_OP_NANMEAN:
        if (cat == TSR__CU_REAL && isnan(x.f))
            x.f = 0.0;
        return x;
    case TSR_OP_VAR:
    case TSR_OP_STD:
        if (phase == 0) {
            if (cat == TSR__CU_COMPLEX)
                return tsr__cu_complex(x.c.re - first.c.re, x.c.im - first.c.im);
            x.f -= first.f;
            return x;
        }
        if (cat == TSR__CU_COMPLEX) {
            double re = x.c.re - kept.c.re, im = x.c.im - kept.c.im;
            x.f = re * re + im * im;
        } else {
            double d = x.f - kept.f;
            x.f = d * d;
        }
        return x;
    case TSR_OP_NORM: {
        double m = tsr__cu_red_opmath(p, tsr__cu_red_magnitude(cat, x));
        x.f = tsr__cu_red_opmath(p, p->p == 1.0 ? m : p->p == 2.0 ? m * m : pow(m, p->p));
        return x;
    }
    case TSR_OP_LOGSUMEXP:
        x.f = exp(x.f - kept.f);
        return x;
    default:
        return x;
    }
}

/* Order-free ops scan their terms in order (extrema keep the first best
 * term, the first NaN wins); whether x replaces best. */
TSR_CU_HD static inline int tsr__cu_red_replaces(int32_t cat, int want_max, tsr__cu_value x,
                                                 tsr__cu_value best)
{
    if (cat == TSR__CU_REAL)
        return want_max ? !(x.f <= best.f) : !(x.f >= best.f);
    return want_max ? x.i > best.i : x.i < best.i;
}

TSR_CU_HD static inline int tsr__cu_red_is_nonzero(int32_t cat, tsr__cu_value v)
{
    return cat == TSR__CU_COMPLEX ? (v.c.re != 0.0 || v.c.im != 0.0)
           : cat == TSR__CU_REAL  ? v.f != 0.0
                                  : v.i != 0;
}

/* all/any convert to bool first, which reads a complex number's real part. */
TSR_CU_HD static inline int tsr__cu_red_is_true(int32_t cat, tsr__cu_value v)
{
    return cat == TSR__CU_COMPLEX ? v.c.re != 0.0 : cat == TSR__CU_REAL ? v.f != 0.0 : v.i != 0;
}

#include "reduce_block.h"

#endif
