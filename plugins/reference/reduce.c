/* The reduction kernels: one table row per op with the dtypes PyTorch 1.13
 * implements on CPU, and one function per op computing one output from its
 * terms. Sum-like ops fold in lane order (reduce.h); extrema, indices and
 * logical ops are exact and scan their terms in order. */
#include "reduce.h"

#include <math.h>
#include <stddef.h>

#include "complex_ops.h"
#include "reduce_walk.h"
#include "scalar_ops.h"

/* What an output holds, given the input (computation) dtype. */
typedef enum result_kind {
    RESULT_SAME,  /* the input's dtype */
    RESULT_REAL,  /* the input's dtype, complex ones giving their parts' */
    RESULT_INT64, /* indices and counts */
    RESULT_BOOL,  /* all, any */
} result_kind;

typedef struct reduce_call {
    tsr__ref_category category; /* of the input */
    double correction;
    double p;
    /* To the precision of the input's (real part's) dtype: PyTorch rounds a
     * mean's sum to it before dividing. */
    tsr__ref_round_fn to_dtype;
    /* To float for every input narrower than float64: PyTorch computes norms
     * of those in float, so |x|^p and the sum overflow or underflow as
     * floats do (the sum itself still runs in double). */
    tsr__ref_round_fn to_opmath;
} reduce_call;

/* Computes one output's values (in the categories of its result kinds). */
typedef void (*reduce_fn)(const reduce_call *call, const tsr__ref_terms *terms,
                          tsr__ref_wide *results);

typedef struct reduce_op {
    int32_t op;
    uint32_t dtypes; /* input dtypes, TSR__REF_SET_* */
    int32_t outputs;
    result_kind result[TSR__REF_REDUCE_MAX_OUTPUTS];
    int32_t needs_terms; /* no identity: an output of no terms is refused */
    reduce_fn fn;
} reduce_op;

/* ------------------------------------------------------------------------ */
/* Combining                                                                 */
/* ------------------------------------------------------------------------ */

static tsr__ref_wide zero_of(tsr__ref_category category)
{
    tsr__ref_wide value;
    if (category == TSR__REF_INTEGER) {
        value.i = 0;
    } else if (category == TSR__REF_REAL) {
        value.f = 0.0;
    } else {
        value.c = tsr__ref_complex_make(0.0, 0.0);
    }
    return value;
}

static tsr__ref_wide one_of(tsr__ref_category category)
{
    tsr__ref_wide value;
    if (category == TSR__REF_INTEGER) {
        value.i = 1;
    } else if (category == TSR__REF_REAL) {
        value.f = 1.0;
    } else {
        value.c = tsr__ref_complex_make(1.0, 0.0);
    }
    return value;
}

static tsr__ref_wide real_value(double f)
{
    tsr__ref_wide value;
    value.f = f;
    return value;
}

/* ------------------------------------------------------------------------ */
/* Sums, products, means                                                     */
/* ------------------------------------------------------------------------ */

static void reduce_sum(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0] = tsr__ref_lane_fold(terms, NULL, NULL, tsr__ref_adders[call->category], zero_of(call->category));
}

static void nan_to_zero(const void *context, tsr__ref_wide *term)
{
    (void)context;
    if (isnan(term->f)) {
        term->f = 0.0;
    }
}

static tsr__ref_term_fn nan_skipper(tsr__ref_category category)
{
    return category == TSR__REF_REAL ? nan_to_zero : NULL;
}

static void reduce_nansum(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0] = tsr__ref_lane_fold(terms, nan_skipper(call->category), NULL, tsr__ref_adders[call->category],
                                zero_of(call->category));
}

static void reduce_prod(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0] =
        tsr__ref_lane_fold(terms, NULL, NULL, tsr__ref_multipliers[call->category], one_of(call->category));
}

/* sum / n, complex sums part by part; n = 0 gives NaN. */
static tsr__ref_wide divide(tsr__ref_category category, tsr__ref_wide sum, double n)
{
    if (category == TSR__REF_COMPLEX) {
        sum.c = tsr__ref_complex_make(creal(sum.c) / n, cimag(sum.c) / n);
    } else {
        sum.f /= n;
    }
    return sum;
}

/* PyTorch's mean is sum(x) in the dtype, then divided: a sum that overflows
 * the dtype gives inf even where the mean would fit. */
static tsr__ref_wide rounded_mean(const reduce_call *call, tsr__ref_wide sum, double n)
{
    if (call->category == TSR__REF_COMPLEX) {
        sum.c = tsr__ref_complex_make(call->to_dtype(creal(sum.c)), call->to_dtype(cimag(sum.c)));
    } else {
        sum.f = call->to_dtype(sum.f);
    }
    return divide(call->category, sum, n);
}

static void reduce_mean(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    tsr__ref_wide sum =
        tsr__ref_lane_fold(terms, NULL, NULL, tsr__ref_adders[call->category], zero_of(call->category));
    out[0] = rounded_mean(call, sum, (double)terms->walk->terms);
}

/* Counts the terms for which `keep` holds (exactly, in int64). */
static int64_t count_terms(const tsr__ref_terms *terms, int (*keep)(const tsr__ref_wide *))
{
    int64_t count = 0;
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        for (int64_t k = 0; k < n; k++) {
            count += keep(&terms->buffer[k]) ? 1 : 0;
        }
    }
    return count;
}

static int real_is_number(const tsr__ref_wide *v)
{
    return !isnan(v->f);
}

static void reduce_nanmean(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    tsr__ref_wide sum =
        tsr__ref_lane_fold(terms, nan_to_zero, NULL, tsr__ref_adders[TSR__REF_REAL], zero_of(TSR__REF_REAL));
    out[0] = rounded_mean(call, sum, (double)count_terms(terms, real_is_number));
}

/* ------------------------------------------------------------------------ */
/* Variance                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct deviation {
    tsr__ref_category category;
    tsr__ref_wide mean;
} deviation;

/* |x - mean|^2, as a real term whatever the input. */
static void squared_deviation(const void *context, tsr__ref_wide *term)
{
    const deviation *dev = context;
    if (dev->category == TSR__REF_COMPLEX) {
        double re = creal(term->c) - creal(dev->mean.c);
        double im = cimag(term->c) - cimag(dev->mean.c);
        term->f = re * re + im * im;
    } else {
        double d = term->f - dev->mean.f;
        term->f = d * d;
    }
}

/* x - shift, where the shift is the first term. */
static void subtract_shift(const void *context, tsr__ref_wide *term)
{
    const deviation *shift = context;
    if (shift->category == TSR__REF_COMPLEX)
        term->c = tsr__ref_complex_make(creal(term->c) - creal(shift->mean.c),
                                        cimag(term->c) - cimag(shift->mean.c));
    else
        term->f -= shift->mean.f;
}

/* The mean as first + mean(x - first): exact when every term is equal, so
 * the variance of a constant row is exactly 0, as PyTorch's Welford gives. */
static tsr__ref_wide shifted_mean(const reduce_call *call, const tsr__ref_terms *terms, double n)
{
    deviation shift = {call->category, zero_of(call->category)};
    if (terms->walk->terms > 0)
        tsr__ref_terms_load(terms, 0, 1, &shift.mean);
    tsr__ref_wide sum = tsr__ref_lane_fold(terms, subtract_shift, &shift, tsr__ref_adders[call->category],
                                           zero_of(call->category));
    tsr__ref_wide mean = divide(call->category, sum, n);
    if (call->category == TSR__REF_COMPLEX)
        mean.c = tsr__ref_complex_make(creal(mean.c) + creal(shift.mean.c),
                                       cimag(mean.c) + cimag(shift.mean.c));
    else
        mean.f += shift.mean.f;
    return mean;
}

/* Two passes: the mean, then the squared deviations from it, divided by
 * max(N - correction, 0) (too few terms give inf, or NaN for 0 / 0). */
static double variance(const reduce_call *call, const tsr__ref_terms *terms)
{
    double n = (double)terms->walk->terms;
    deviation dev = {call->category, shifted_mean(call, terms, n)};
    tsr__ref_wide squares =
        tsr__ref_lane_fold(terms, squared_deviation, &dev, tsr__ref_adders[TSR__REF_REAL], zero_of(TSR__REF_REAL));
    double divisor = n - call->correction;
    return squares.f / (divisor > 0.0 ? divisor : 0.0);
}

static void reduce_var(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0] = real_value(variance(call, terms));
}

static void reduce_std(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0] = real_value(sqrt(variance(call, terms)));
}

/* ------------------------------------------------------------------------ */
/* Norms and logsumexp                                                       */
/* ------------------------------------------------------------------------ */

static double magnitude(tsr__ref_category category, const tsr__ref_wide *v)
{
    return category == TSR__REF_COMPLEX ? hypot(creal(v->c), cimag(v->c)) : fabs(v->f);
}

/* |x|^p, with the powers 1 and 2 written out as PyTorch does, rounded as
 * PyTorch's float computation rounds it. */
static void powered_magnitude(const void *context, tsr__ref_wide *term)
{
    const reduce_call *call = context;
    double m = call->to_opmath(magnitude(call->category, term));
    double p = call->p;
    term->f = call->to_opmath(p == 1.0 ? m : p == 2.0 ? m * m : pow(m, p));
}

/* The largest (sign > 0) or smallest magnitude; NaN wins. */
static double extreme_magnitude(const reduce_call *call, const tsr__ref_terms *terms, int sign)
{
    double best = NAN;
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        for (int64_t k = 0; k < n; k++) {
            double m = magnitude(call->category, &terms->buffer[k]);
            if (start == 0 && k == 0) {
                best = m;
            } else {
                best = sign > 0 ? tsr__ref_real_maximum(best, m) : tsr__ref_real_minimum(best, m);
            }
        }
    }
    return best;
}

static int is_nonzero(tsr__ref_category category, const tsr__ref_wide *v)
{
    if (category == TSR__REF_COMPLEX) {
        return creal(v->c) != 0.0 || cimag(v->c) != 0.0;
    }
    return category == TSR__REF_REAL ? v->f != 0.0 : v->i != 0;
}

static int64_t count_nonzero(const reduce_call *call, const tsr__ref_terms *terms)
{
    int64_t count = 0;
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        for (int64_t k = 0; k < n; k++) {
            count += is_nonzero(call->category, &terms->buffer[k]);
        }
    }
    return count;
}

static void reduce_norm(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    double p = call->p;
    if (isinf(p)) {
        out[0] = real_value(extreme_magnitude(call, terms, p > 0 ? 1 : -1));
        return;
    }
    if (p == 0.0) {
        out[0] = real_value((double)count_nonzero(call, terms));
        return;
    }
    tsr__ref_wide sum =
        tsr__ref_lane_fold(terms, powered_magnitude, call, tsr__ref_adders[TSR__REF_REAL], zero_of(TSR__REF_REAL));
    double total = call->to_opmath(sum.f);
    double norm = p == 1.0 ? total : p == 2.0 ? sqrt(total) : pow(total, 1.0 / p);
    out[0] = real_value(norm);
}

/* exp(x - shift), where shift is the maximum, or 0 where that is infinite. */
static void shifted_exp(const void *context, tsr__ref_wide *term)
{
    term->f = exp(term->f - *(const double *)context);
}

static void reduce_logsumexp(const reduce_call *call, const tsr__ref_terms *terms,
                             tsr__ref_wide *out)
{
    (void)call;
    double top = -INFINITY;
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        for (int64_t k = 0; k < n; k++) {
            top = tsr__ref_real_maximum(top, terms->buffer[k].f);
        }
    }
    double shift = isinf(top) ? 0.0 : top;
    tsr__ref_wide sum =
        tsr__ref_lane_fold(terms, shifted_exp, &shift, tsr__ref_adders[TSR__REF_REAL], zero_of(TSR__REF_REAL));
    out[0] = real_value(log(sum.f) + shift);
}

/* ------------------------------------------------------------------------ */
/* Extrema and their indices                                                 */
/* ------------------------------------------------------------------------ */

/* Whether x replaces best: strictly better, or a NaN (which then stays). */
static int replaces(tsr__ref_category category, int want_max, const tsr__ref_wide *x,
                    const tsr__ref_wide *best)
{
    if (category == TSR__REF_REAL) {
        return want_max ? !(x->f <= best->f) : !(x->f >= best->f);
    }
    return want_max ? x->i > best->i : x->i < best->i;
}

/* The first extreme term and its number: ties keep the earlier term, the
 * first NaN wins and ends the search (PyTorch's max/argmax rule). */
static int64_t find_extreme(const reduce_call *call, const tsr__ref_terms *terms, int want_max,
                            tsr__ref_wide *value)
{
    int64_t best_index = 0;
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        for (int64_t k = 0; k < n; k++) {
            const tsr__ref_wide *x = &terms->buffer[k];
            if (start + k == 0 || replaces(call->category, want_max, x, value)) {
                *value = *x;
                best_index = start + k;
                if (call->category == TSR__REF_REAL && isnan(x->f)) {
                    return best_index;
                }
            }
        }
    }
    return best_index;
}

static void reduce_amax(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    find_extreme(call, terms, 1, &out[0]);
}

static void reduce_amin(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    find_extreme(call, terms, 0, &out[0]);
}

static void reduce_max_dim(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[1].i = find_extreme(call, terms, 1, &out[0]);
}

static void reduce_min_dim(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[1].i = find_extreme(call, terms, 0, &out[0]);
}

/* The term number is the index: along the one reduced dim, or into the
 * flattened tensor when every dim is reduced. */
static void reduce_argmax(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    tsr__ref_wide value;
    out[0].i = find_extreme(call, terms, 1, &value);
}

static void reduce_argmin(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    tsr__ref_wide value;
    out[0].i = find_extreme(call, terms, 0, &value);
}

/* ------------------------------------------------------------------------ */
/* Logical and counting                                                      */
/* ------------------------------------------------------------------------ */

/* PyTorch 1.13 converts to bool first, and that conversion reads only the
 * real part of a complex number. */
static int is_true(tsr__ref_category category, const tsr__ref_wide *v)
{
    if (category == TSR__REF_COMPLEX) {
        return creal(v->c) != 0.0;
    }
    return category == TSR__REF_REAL ? v->f != 0.0 : v->i != 0;
}

/* all (want = 0: stop at the first false term) or any (want = 1). */
static int64_t find_truth(const reduce_call *call, const tsr__ref_terms *terms, int want)
{
    int64_t total = terms->walk->terms;
    for (int64_t start = 0; start < total; start += TSR__REF_REDUCE_BLOCK) {
        int64_t n = total - start < TSR__REF_REDUCE_BLOCK ? total - start : TSR__REF_REDUCE_BLOCK;
        tsr__ref_terms_load(terms, start, n, terms->buffer);
        for (int64_t k = 0; k < n; k++) {
            if (is_true(call->category, &terms->buffer[k]) == want) {
                return want;
            }
        }
    }
    return !want;
}

static void reduce_all(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0].i = find_truth(call, terms, 0);
}

static void reduce_any(const reduce_call *call, const tsr__ref_terms *terms, tsr__ref_wide *out)
{
    out[0].i = find_truth(call, terms, 1);
}

static void reduce_count_nonzero(const reduce_call *call, const tsr__ref_terms *terms,
                                 tsr__ref_wide *out)
{
    out[0].i = count_nonzero(call, terms);
}

/* ------------------------------------------------------------------------ */
/* The table                                                                 */
/* ------------------------------------------------------------------------ */

#define SET_INTEGRAL (TSR__REF_SET_BOOL | TSR__REF_SET_INTEGER)
#define SET_ORDERED (SET_INTEGRAL | TSR__REF_SET_REAL)
#define SET_INEXACT (TSR__REF_SET_REAL | TSR__REF_SET_COMPLEX)

static const reduce_op reduce_ops[] = {
    {TSR_OP_SUM, TSR__REF_SET_ALL, 1, {RESULT_SAME}, 0, reduce_sum},
    {TSR_OP_NANSUM, SET_ORDERED, 1, {RESULT_SAME}, 0, reduce_nansum},
    {TSR_OP_PROD,
     SET_INTEGRAL | TSR__REF_SET_FLOAT3264 | TSR__REF_SET_COMPLEX,
     1,
     {RESULT_SAME},
     0,
     reduce_prod},
    {TSR_OP_MEAN, SET_INEXACT, 1, {RESULT_SAME}, 0, reduce_mean},
    {TSR_OP_NANMEAN, TSR__REF_SET_REAL, 1, {RESULT_SAME}, 0, reduce_nanmean},
    {TSR_OP_AMAX, SET_ORDERED, 1, {RESULT_SAME}, 1, reduce_amax},
    {TSR_OP_AMIN, SET_ORDERED, 1, {RESULT_SAME}, 1, reduce_amin},
    {TSR_OP_MAX_DIM, SET_ORDERED, 2, {RESULT_SAME, RESULT_INT64}, 1, reduce_max_dim},
    {TSR_OP_MIN_DIM, SET_ORDERED, 2, {RESULT_SAME, RESULT_INT64}, 1, reduce_min_dim},
    {TSR_OP_ARGMAX, TSR__REF_SET_INTEGER | TSR__REF_SET_REAL, 1, {RESULT_INT64}, 1, reduce_argmax},
    {TSR_OP_ARGMIN, TSR__REF_SET_INTEGER | TSR__REF_SET_REAL, 1, {RESULT_INT64}, 1, reduce_argmin},
    {TSR_OP_VAR, SET_INEXACT, 1, {RESULT_REAL}, 0, reduce_var},
    {TSR_OP_STD, SET_INEXACT, 1, {RESULT_REAL}, 0, reduce_std},
    {TSR_OP_ALL, TSR__REF_SET_ALL, 1, {RESULT_BOOL}, 0, reduce_all},
    {TSR_OP_ANY, TSR__REF_SET_ALL, 1, {RESULT_BOOL}, 0, reduce_any},
    {TSR_OP_NORM, SET_INEXACT, 1, {RESULT_REAL}, 0, reduce_norm},
    {TSR_OP_LOGSUMEXP,
     TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264,
     1,
     {RESULT_SAME},
     0,
     reduce_logsumexp},
    {TSR_OP_COUNT_NONZERO, TSR__REF_SET_ALL, 1, {RESULT_INT64}, 0, reduce_count_nonzero},
};

static const reduce_op *find_op(int32_t op)
{
    for (size_t i = 0; i < sizeof reduce_ops / sizeof reduce_ops[0]; i++) {
        if (reduce_ops[i].op == op) {
            return &reduce_ops[i];
        }
    }
    return NULL;
}

static int32_t result_dtype(result_kind kind, int32_t dtype)
{
    switch (kind) {
    case RESULT_REAL:
        return tsr__ref_dtype_real_part(dtype);
    case RESULT_INT64:
        return TSR_INT64;
    case RESULT_BOOL:
        return TSR_BOOL;
    default:
        return dtype;
    }
}

static tsr__ref_category result_category(result_kind kind, tsr__ref_category input)
{
    switch (kind) {
    case RESULT_REAL:
        return input == TSR__REF_COMPLEX ? TSR__REF_REAL : input;
    case RESULT_INT64:
    case RESULT_BOOL:
        return TSR__REF_INTEGER;
    default:
        return input;
    }
}

int tsr__ref_reduce_supports(int32_t op, int32_t dtype, int32_t *dtype_out)
{
    const reduce_op *entry = find_op(op);
    if (entry == NULL || !tsr__ref_dtype_valid(dtype) ||
        (entry->dtypes & TSR__REF_DTYPE_BIT(dtype)) == 0) {
        return 0;
    }
    *dtype_out = result_dtype(entry->result[0], dtype);
    return 1;
}

int tsr__ref_reduce_widens(int32_t op, int32_t dtype)
{
    const reduce_op *entry = find_op(op);
    int sum_like = op == TSR_OP_SUM || op == TSR_OP_NANSUM || op == TSR_OP_PROD;
    return sum_like && entry != NULL && dtype != TSR_INT64 && tsr__ref_dtype_valid(dtype) &&
           (entry->dtypes & TSR__REF_DTYPE_BIT(dtype)) != 0 &&
           (SET_INTEGRAL & TSR__REF_DTYPE_BIT(dtype)) != 0;
}

/* ------------------------------------------------------------------------ */
/* The kernel                                                                */
/* ------------------------------------------------------------------------ */

typedef struct reduce_run {
    const reduce_op *op;
    reduce_call call;
    tsr__ref_store_fn store[TSR__REF_REDUCE_MAX_OUTPUTS];
} reduce_run;

static void reduce_output(void *context, const tsr__ref_terms *terms, char *const *outs)
{
    const reduce_run *run = context;
    tsr__ref_wide results[TSR__REF_REDUCE_MAX_OUTPUTS];
    run->op->fn(&run->call, terms, results);
    for (int32_t k = 0; k < run->op->outputs; k++) {
        run->store[k](outs[k], &results[k]);
    }
}

static int check_call(const tsr__ref_backend *backend, const reduce_op *op,
                      const tsr_kernel_args *args)
{
    if (args->num_inputs != 1 || args->inputs == NULL || args->num_outputs != op->outputs ||
        args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "expected 1 input and %d outputs, got %d and %d", (int)op->outputs,
                              (int)args->num_inputs, (int)args->num_outputs);
    }
    const tsr_reduce_attrs *attrs = args->attrs;
    if (attrs == NULL || attrs->struct_size < sizeof(tsr_reduce_attrs)) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "reductions need tsr_reduce_attrs of ABI 1.0");
    }
    int32_t dtype = args->inputs[0].dtype;
    if (!tsr__ref_dtype_valid(dtype) || (op->dtypes & TSR__REF_DTYPE_BIT(dtype)) == 0) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "no kernel for dtype %s",
                              tsr__ref_dtype_name(dtype));
    }
    for (int32_t k = 0; k < op->outputs; k++) {
        int32_t expected = result_dtype(op->result[k], dtype);
        if (args->outputs[k].dtype == TSR_INT64 && tsr__ref_reduce_widens(op->op, dtype)) {
            expected = TSR_INT64; /* the int64 accumulator stored as it is */
        }
        if (args->outputs[k].dtype != expected) {
            return tsr__ref_error(backend, TSR_ERR_DTYPE, "output %d has dtype %s, expected %s",
                                  (int)k, tsr__ref_dtype_name(args->outputs[k].dtype),
                                  tsr__ref_dtype_name(expected));
        }
    }
    return TSR_OK;
}

int tsr__ref_kernel_reduce(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    const reduce_op *op =
        args != NULL && args->struct_size >= sizeof(tsr_kernel_args) ? find_op(args->op) : NULL;
    if (op == NULL) {
        return tsr__ref_error(backend, TSR_ERR_UNIMPLEMENTED, "not a reduction");
    }
    int status = check_call(backend, op, args);
    const tsr_reduce_attrs *attrs = args->attrs;
    tsr__ref_reduce_walk walk;
    if (status == TSR_OK) {
        status = tsr__ref_reduce_walk_init(backend, &walk, &args->inputs[0], args->outputs,
                                           op->outputs, attrs->dims_mask);
    }
    if (status != TSR_OK) {
        return status;
    }
    if (op->needs_terms && walk.terms == 0 && walk.out_count > 0) {
        return tsr__ref_error(backend, TSR_ERR_INDEX,
                              "a reduced dim is empty and the op has no identity");
    }
    int32_t dtype = args->inputs[0].dtype;
    reduce_run run = {
        .op = op,
        .call = {tsr__ref_dtype_category(dtype), attrs->correction, attrs->p,
                 tsr__ref_real_rounder(tsr__ref_dtype_real_part(dtype)),
                 tsr__ref_real_rounder(
                     tsr__ref_dtype_real_part(dtype) == TSR_FLOAT64 ? TSR_FLOAT64 : TSR_FLOAT32)},
    };
    for (int32_t k = 0; k < op->outputs; k++) {
        run.store[k] = tsr__ref_storer(result_category(op->result[k], run.call.category),
                                       args->outputs[k].dtype);
    }
    tsr__ref_reduce_walk_run(&walk, tsr__ref_loader(dtype), reduce_output, &run);
    return TSR_OK;
}
