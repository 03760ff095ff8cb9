/* What the per-family draw files (differential/FAMILY.c) share: small
 * helpers over conf_draft, the flag names of their tables, and the draws that
 * one family lends another. */
#ifndef CONF_DIFF_DRAW_HELPERS_H
#define CONF_DIFF_DRAW_HELPERS_H

#include "differential/draws.h"

enum {
    EXACT = CONF_DIFF_EXACT,
    UNARY_ = CONF_DIFF_INPLACE_UNARY,
    BINARY_ = CONF_DIFF_INPLACE_BINARY,
};

static inline conf_value_spec general(void)
{
    return conf_values_of(CONF_VALUES_GENERAL);
}

/* Accumulating ops: no huge values, whose overflow depends on the order. */
static inline conf_value_spec accumulating(void)
{
    return conf_values_of(CONF_VALUES_NO_HUGE);
}

static inline bool is_int(tsr_dtype dtype)
{
    return tsr_dtype_is_integral(dtype, false);
}

static inline bool is_float(tsr_dtype dtype)
{
    return tsr_dtype_is_floating(dtype) || tsr_dtype_is_complex(dtype);
}

static inline bool pick(conf_draft *d, double p)
{
    return conf_rng_chance(d->rng, p);
}

static inline int64_t range(conf_draft *d, int64_t lo, int64_t hi)
{
    return conf_rng_range(d->rng, lo, hi);
}

static inline int64_t wrap_dim(int64_t dim, int ndim)
{
    return dim < 0 ? dim + (ndim ? ndim : 1) : dim;
}

/* A tensor of random rank (0 to 4) and shape, empty sometimes. */
static inline conf_input *random_tensor(conf_draft *d, const char *name, conf_value_spec values,
                                        int *ndim, int64_t *shape)
{
    *ndim = conf_draft_rank(d, 0, 4);
    conf_draft_shape(d, *ndim, true, shape);
    return conf_draft_tensor(d, name, d->dtype, *ndim, shape, values, CONF_LAYOUT_COUNT);
}

/* A tensor of d->dtype of rank lo..hi; no empty dims unless allowed. */
static inline conf_input *tensor_of_rank(conf_draft *d, const char *name, int lo, int hi,
                                         bool empty, conf_value_spec values, int *ndim,
                                         int64_t *shape)
{
    *ndim = conf_draft_rank(d, lo, hi);
    conf_draft_shape(d, *ndim, empty, shape);
    return conf_draft_tensor(d, name, d->dtype, *ndim, shape, values, CONF_LAYOUT_COUNT);
}

/* int64 indices in [0, bound), or in [-bound, bound) with `negative`. */
static inline conf_input *indices(conf_draft *d, const char *name, int ndim, const int64_t *shape,
                                  int64_t bound, bool negative, conf_layout layout)
{
    int64_t lo = negative ? -bound : 0, hi = bound > 0 ? bound - 1 : 0;
    return conf_draft_tensor(d, name, TSR_INT64, ndim, shape, conf_values_range(lo, hi), layout);
}

/* A scalar arg of the dtype's kind: int for integers, float otherwise. */
static inline void arg_number(conf_draft *d, const char *name, int64_t int_value,
                              double float_value)
{
    if (is_int(d->dtype) || d->dtype == TSR_BOOL)
        conf_draft_arg_int(d, name, int_value);
    else
        conf_draft_arg_double(d, name, float_value);
}

/* elementwise.c: one tensor input ("input"); input and `second`
 * broadcasting together (NULL when `second` was drawn a scalar); the same
 * with integer zeros in `other` replaced now and then. */
bool conf_diff_draw_unary(conf_draft *d);
conf_input *conf_diff_binary_operands(conf_draft *d, const char *second, conf_value_spec a_values,
                                      conf_value_spec b_values);
bool conf_diff_draw_binary(conf_draft *d);
bool conf_diff_draw_division(conf_draft *d);

/* reduce.c: a tensor and its dim (one, a list with `lists`, absent unless
 * `required`) and, with `keepdim`, keepdim now and then. */
bool conf_diff_reduction(conf_draft *d, conf_value_spec values, bool lists, bool required,
                         bool keepdim);

#endif
