/* Random inputs for the differential mode: a seeded generator, values of
 * every dtype (special values included) and layouts (transposed, permuted,
 * stepped, offset, expanded) made of golden-format view steps.
 *
 * Everything is drawn from a conf_rng seeded by (seed, op, case index), so
 * one case can be made again on its own from those three. */
#ifndef CONF_DIFF_RANDOM_H
#define CONF_DIFF_RANDOM_H

#include "golden/source.h"

#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* The generator (xoshiro256**)                                              */
/* ------------------------------------------------------------------------ */

typedef struct conf_rng {
    uint64_t s[4];
} conf_rng;

/* Seeds from the run's seed, the op's name and the case's index. */
void conf_rng_seed(conf_rng *rng, uint64_t seed, const char *op, uint64_t index);
uint64_t conf_rng_next(conf_rng *rng);
/* An integer in [lo, hi] (lo <= hi). */
int64_t conf_rng_range(conf_rng *rng, int64_t lo, int64_t hi);
/* A double in [0, 1). */
double conf_rng_uniform(conf_rng *rng);
double conf_rng_normal(conf_rng *rng);
/* True with probability p. */
bool conf_rng_chance(conf_rng *rng, double p);

/* ------------------------------------------------------------------------ */
/* Values                                                                    */
/* ------------------------------------------------------------------------ */

typedef enum conf_values {
    /* floats: normal, with nan, ±inf, ±0, ±1, huge and tiny values sprinkled
     * in; integers: a small range, sometimes the dtype's whole range */
    CONF_VALUES_GENERAL,
    /* as GENERAL without huge values and without the whole integer range:
     * for accumulating ops, whose overflow depends on the order of terms */
    CONF_VALUES_NO_HUGE,
    /* finite floats of moderate size, integers in a small range */
    CONF_VALUES_FINITE,
    /* integers (or integral floats) in [lo, hi] */
    CONF_VALUES_RANGE,
    /* distinct values (a shuffled arithmetic sequence, negatives included
     * where the dtype has them): for sorts and arg-reductions, whose index
     * results are ambiguous on ties */
    CONF_VALUES_DISTINCT,
} conf_values;

typedef struct conf_value_spec {
    conf_values kind;
    int64_t lo, hi; /* CONF_VALUES_RANGE */
} conf_value_spec;

/* Fills every element of `array` as `spec` says. */
void conf_fill_values(conf_rng *rng, conf_array *array, conf_value_spec spec);

/* Writes one real value into an element of `dtype` (both parts of a complex
 * one get it as the real part, 0 as the imaginary part). Out-of-range
 * values saturate for integers. */
void conf_store_double(tsr_dtype dtype, void *element, double value);

/* The real part of an element of `dtype` as a double. */
double conf_load_double(tsr_dtype dtype, const void *element);

/* float16 / bfloat16 bits of a double (round to nearest even). */
uint16_t conf_double_to_half(double value);
uint16_t conf_double_to_bfloat16(double value);

/* ------------------------------------------------------------------------ */
/* Shapes and layouts                                                        */
/* ------------------------------------------------------------------------ */

/* A random shape of `ndim` dims: mostly 1..5, sometimes 1 (broadcast-like)
 * and, with `allow_empty`, rarely 0. */
void conf_random_shape(conf_rng *rng, int ndim, bool allow_empty, int64_t *shape);

/* A random rank in [lo, hi], 0-d and 1-d drawn more often than their share. */
int conf_random_rank(conf_rng *rng, int lo, int hi);

typedef enum conf_layout {
    CONF_LAYOUT_CONTIGUOUS,
    CONF_LAYOUT_TRANSPOSED, /* a base with two dims swapped, transposed back */
    CONF_LAYOUT_PERMUTED,   /* a base with dims permuted, permuted back */
    CONF_LAYOUT_STEPPED,    /* a slice with step 2 or 3 out of a longer dim */
    CONF_LAYOUT_OFFSET,     /* a slice starting inside the base: a storage offset */
    CONF_LAYOUT_EXPANDED,   /* size-1 base dims expanded (stride 0) */
    CONF_LAYOUT_COUNT
} conf_layout;

/* The base shape and view steps (new strings, at most 4) giving a tensor of
 * `shape` in `layout`. Returns the layout actually used (contiguous when
 * the requested one does not apply to this shape). */
conf_layout conf_make_layout(conf_rng *rng, conf_layout layout, int ndim, const int64_t *shape,
                             int64_t *base_shape, char **steps, int *nsteps);

/* A random layout; `allow_expanded` false for tensors that are written. */
conf_layout conf_random_layout(conf_rng *rng, bool allow_expanded);

const char *conf_layout_name(conf_layout layout);

#endif
