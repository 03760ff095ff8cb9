/* The two steps of a reduction phase (see reduce_ops.h): one block's
 * partial, and one output's combination and finish. Included by
 * reduce_ops.h only. */
#ifndef TSR_CUDA_REDUCE_BLOCK_H
#define TSR_CUDA_REDUCE_BLOCK_H

/* How a phase treats its terms. */
enum {
    TSR__CU_RED_FOLD,      /* lane-order fold (sum-like) */
    TSR__CU_RED_EXTREME,   /* first extreme value and its term number */
    TSR__CU_RED_MAGNITUDE, /* norm with ord +-inf: extreme |x|, NaN wins */
    TSR__CU_RED_TOP,       /* logsumexp's phase 0: the maximum, NaN wins */
    TSR__CU_RED_COUNT,     /* count_nonzero, norm with ord 0 */
    TSR__CU_RED_TRUTH,     /* all (finds a false term), any (a true one) */
};

TSR_CU_HD static inline int tsr__cu_red_kind(const tsr__cu_reduce_plan *p, int phase)
{
    switch (p->op) {
    case TSR_OP_AMAX:
    case TSR_OP_AMIN:
    case TSR_OP_MAX_DIM:
    case TSR_OP_MIN_DIM:
    case TSR_OP_ARGMAX:
    case TSR_OP_ARGMIN:
        return TSR__CU_RED_EXTREME;
    case TSR_OP_ALL:
    case TSR_OP_ANY:
        return TSR__CU_RED_TRUTH;
    case TSR_OP_COUNT_NONZERO:
        return TSR__CU_RED_COUNT;
    case TSR_OP_NORM:
        return isinf(p->p)   ? TSR__CU_RED_MAGNITUDE
               : p->p == 0.0 ? TSR__CU_RED_COUNT
                             : TSR__CU_RED_FOLD;
    case TSR_OP_LOGSUMEXP:
        return phase == 0 ? TSR__CU_RED_TOP : TSR__CU_RED_FOLD;
    default:
        return TSR__CU_RED_FOLD;
    }
}

TSR_CU_HD static inline int tsr__cu_red_wants_max(int32_t op)
{
    return op == TSR_OP_AMAX || op == TSR_OP_MAX_DIM || op == TSR_OP_ARGMAX;
}

TSR_CU_HD static inline double tsr__cu_red_extreme_of(int want_max, double a, double b)
{
    return want_max ? tsr__cu_maximum(a, b) : tsr__cu_minimum(a, b);
}

/* Block b (terms [1024 b, 1024 b + 1024)) of output o in `phase`. */
TSR_CU_HD static inline tsr__cu_partial tsr__cu_reduce_block(const tsr__cu_reduce_plan *p,
                                                             int phase, int64_t o, int64_t b,
                                                             tsr__cu_value kept)
{
    int64_t in_off, out_off[TSR__CU_RED_OUTPUTS];
    tsr__cu_red_output_offsets(p, o, &in_off, out_off);
    const char *base = p->in + in_off;
    const int64_t start = b * TSR__CU_RED_BLOCK;
    const int64_t block = TSR__CU_RED_BLOCK;
    const int64_t n = p->terms - start < block ? p->terms - start : block;
    const int32_t cat = p->category;
    tsr__cu_partial r;
    r.v = tsr__cu_red_zero(cat, 0);
    r.index = start;
    r.count = 0;
    switch (tsr__cu_red_kind(p, phase)) {
    case TSR__CU_RED_FOLD: {
        const int32_t fc = tsr__cu_red_fold_category(p, phase);
        const int multiply = p->op == TSR_OP_PROD;
        tsr__cu_value lanes[TSR__CU_RED_LANES];
        for (int l = 0; l < TSR__CU_RED_LANES; l++)
            lanes[l] = tsr__cu_red_zero(fc, multiply);
        tsr__cu_value first = tsr__cu_red_zero(cat, 0);
        if ((p->op == TSR_OP_VAR || p->op == TSR_OP_STD) && phase == 0)
            first = tsr__cu_red_term(p, base, 0);
        for (int64_t k = 0; k < n; k++) {
            tsr__cu_value x = tsr__cu_red_term(p, base, start + k);
            if (p->op == TSR_OP_NANMEAN)
                r.count += !isnan(x.f);
            x = tsr__cu_red_transform(p, phase, x, first, kept);
            lanes[k % TSR__CU_RED_LANES] =
                tsr__cu_red_combine(fc, multiply, lanes[k % TSR__CU_RED_LANES], x);
        }
        for (int w = TSR__CU_RED_LANES / 2; w >= 1; w /= 2)
            for (int l = 0; l < w; l++)
                lanes[l] = tsr__cu_red_combine(fc, multiply, lanes[l], lanes[l + w]);
        r.v = lanes[0];
        return r;
    }
    case TSR__CU_RED_EXTREME: {
        const int want_max = tsr__cu_red_wants_max(p->op);
        r.v = tsr__cu_red_term(p, base, start);
        for (int64_t k = 1; k < n && !(cat == TSR__CU_REAL && isnan(r.v.f)); k++) {
            tsr__cu_value x = tsr__cu_red_term(p, base, start + k);
            if (tsr__cu_red_replaces(cat, want_max, x, r.v)) {
                r.v = x;
                r.index = start + k;
            }
        }
        return r;
    }
    case TSR__CU_RED_MAGNITUDE: {
        const int want_max = p->p > 0;
        r.v.f = tsr__cu_red_magnitude(cat, tsr__cu_red_term(p, base, start));
        for (int64_t k = 1; k < n; k++)
            r.v.f = tsr__cu_red_extreme_of(
                want_max, r.v.f, tsr__cu_red_magnitude(cat, tsr__cu_red_term(p, base, start + k)));
        return r;
    }
    case TSR__CU_RED_TOP:
        r.v.f = -(double)INFINITY;
        for (int64_t k = 0; k < n; k++)
            r.v.f = tsr__cu_maximum(r.v.f, tsr__cu_red_term(p, base, start + k).f);
        return r;
    case TSR__CU_RED_COUNT:
        for (int64_t k = 0; k < n; k++)
            r.count += tsr__cu_red_is_nonzero(cat, tsr__cu_red_term(p, base, start + k));
        return r;
    default: { /* truth: all looks for a false term, any for a true one */
        const int want = p->op == TSR_OP_ANY;
        for (int64_t k = 0; k < n && !r.count; k++)
            r.count = tsr__cu_red_is_true(cat, tsr__cu_red_term(p, base, start + k)) == want;
        return r;
    }
    }
}

/* Sum, part by part for complex values, over n; mean rounds the sum to the
 * dtype first, as PyTorch's sum-then-divide does. */
TSR_CU_HD static inline tsr__cu_value tsr__cu_red_divide(int32_t cat, tsr__cu_value v, double n)
{
    if (cat == TSR__CU_COMPLEX)
        return tsr__cu_complex(v.c.re / n, v.c.im / n);
    v.f /= n;
    return v;
}

TSR_CU_HD static inline tsr__cu_value tsr__cu_red_mean(const tsr__cu_reduce_plan *p,
                                                       tsr__cu_value sum, double n)
{
    int32_t real = p->dtype == TSR_COMPLEX64    ? TSR_FLOAT32
                   : p->dtype == TSR_COMPLEX128 ? TSR_FLOAT64
                                                : p->dtype;
    if (p->category == TSR__CU_COMPLEX)
        sum = tsr__cu_complex(tsr__cu_round_to(real, sum.c.re), tsr__cu_round_to(real, sum.c.im));
    else
        sum.f = tsr__cu_round_to(real, sum.f);
    return tsr__cu_red_divide(p->category, sum, n);
}

/* Output o of `phase` from its block partials (overwritten: the tree runs
 * in place). Stores the output, or after phase 0 of a two-phase op, sets
 * *kept for phase 1. */
TSR_CU_HD static inline void tsr__cu_reduce_finish(const tsr__cu_reduce_plan *p, int phase,
                                                   int64_t o, tsr__cu_partial *parts,
                                                   tsr__cu_value *kept)
{
    const int32_t cat = p->category, kind = tsr__cu_red_kind(p, phase);
    const int64_t nb = p->blocks;
    tsr__cu_partial total;
    total.v = tsr__cu_red_zero(cat, 0);
    total.index = 0;
    total.count = 0;
    if (kind == TSR__CU_RED_FOLD) {
        const int32_t fc = tsr__cu_red_fold_category(p, phase);
        const int multiply = p->op == TSR_OP_PROD;
        for (int64_t s = 1; s < nb; s *= 2) /* the stride-doubling tree (launch_plan.h) */
            for (int64_t i = 0; i + s < nb; i += 2 * s)
                parts[i].v = tsr__cu_red_combine(fc, multiply, parts[i].v, parts[i + s].v);
        total.v = nb > 0 ? parts[0].v : tsr__cu_red_zero(fc, multiply);
        for (int64_t i = 0; i < nb; i++)
            total.count += parts[i].count; /* nanmean's exact count (tree left it) */
    } else if (kind == TSR__CU_RED_EXTREME) {
        const int want_max = tsr__cu_red_wants_max(p->op);
        if (nb > 0) /* the host refuses extrema of no terms */
            total = parts[0];
        for (int64_t i = 1; i < nb && !(cat == TSR__CU_REAL && isnan(total.v.f)); i++)
            if (tsr__cu_red_replaces(cat, want_max, parts[i].v, total.v))
                total = parts[i];
    } else if (kind == TSR__CU_RED_MAGNITUDE || kind == TSR__CU_RED_TOP) {
        const int want_max = kind == TSR__CU_RED_TOP || p->p > 0;
        total.v.f = kind == TSR__CU_RED_TOP ? -(double)INFINITY : (double)NAN;
        for (int64_t i = 0; i < nb; i++)
            total.v.f = i == 0 && kind == TSR__CU_RED_MAGNITUDE
                            ? parts[0].v.f
                            : tsr__cu_red_extreme_of(want_max, total.v.f, parts[i].v.f);
    } else {
        for (int64_t i = 0; i < nb; i++)
            total.count = kind == TSR__CU_RED_TRUTH ? (total.count || parts[i].count)
                                                    : total.count + parts[i].count;
    }

    const double n = (double)p->terms;
    tsr__cu_value result = total.v, index;
    index.i = total.index;
    switch (p->op) {
    case TSR_OP_MEAN:
        result = tsr__cu_red_mean(p, total.v, n);
        break;
    case TSR_OP_NANMEAN:
        result = tsr__cu_red_mean(p, total.v, (double)total.count);
        break;
    case TSR_OP_VAR:
    case TSR_OP_STD:
        if (phase == 0) {
            int64_t in_off, out_off[TSR__CU_RED_OUTPUTS];
            tsr__cu_red_output_offsets(p, o, &in_off, out_off);
            tsr__cu_value first =
                p->terms > 0 ? tsr__cu_red_term(p, p->in + in_off, 0) : tsr__cu_red_zero(cat, 0);
            /* first + mean(x - first): a constant row has variance 0 exactly */
            tsr__cu_value mean = tsr__cu_red_divide(cat, total.v, n);
            if (cat == TSR__CU_COMPLEX) {
                *kept = tsr__cu_complex(mean.c.re + first.c.re, mean.c.im + first.c.im);
            } else {
                *kept = mean;
                kept->f = mean.f + first.f;
            }
            return;
        } else {
            double divisor = n - p->correction;
            result.f = total.v.f / (divisor > 0.0 ? divisor : 0.0);
            if (p->op == TSR_OP_STD)
                result.f = sqrt(result.f);
        }
        break;
    case TSR_OP_NORM:
        if (kind == TSR__CU_RED_COUNT) {
            result.f = (double)total.count;
        } else if (kind == TSR__CU_RED_FOLD) {
            double t = tsr__cu_red_opmath(p, total.v.f);
            result.f = p->p == 1.0 ? t : p->p == 2.0 ? sqrt(t) : pow(t, 1.0 / p->p);
        }
        break;
    case TSR_OP_LOGSUMEXP:
        if (phase == 0) {
            kept->f = isinf(total.v.f) ? 0.0 : total.v.f;
            return;
        }
        result.f = log(total.v.f) + kept->f;
        break;
    case TSR_OP_ARGMAX:
    case TSR_OP_ARGMIN:
        result = index;
        break;
    case TSR_OP_ALL:
        result.i = !total.count;
        break;
    case TSR_OP_ANY:
    case TSR_OP_COUNT_NONZERO:
        result.i = total.count;
        break;
    default:
        break;
    }
    int64_t in_off, out_off[TSR__CU_RED_OUTPUTS];
    tsr__cu_red_output_offsets(p, o, &in_off, out_off);
    tsr__cu_store(p->out_dtype[0], (tsr__cu_category)p->out_category[0], p->out[0] + out_off[0],
                  result);
    if (p->outputs > 1)
        tsr__cu_store(p->out_dtype[1], TSR__CU_INTEGER, p->out[1] + out_off[1], index);
}

#endif
