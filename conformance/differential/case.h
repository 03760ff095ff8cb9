/* Building a case in memory: the differential mode draws a conf_case with
 * the inputs, view steps and args a golden manifest line would have, its
 * arrays held in a conf_array_store, so the unchanged adapters bind it. */
#ifndef CONF_DIFF_CASE_H
#define CONF_DIFF_CASE_H

#include "differential/random.h"
#include "golden/manifest.h"
#include "golden/source.h"

enum { CONF_DRAFT_MAX_INPUTS = 8 };

typedef struct conf_draft {
    conf_case *c;            /* being built; free with conf_case_free */
    conf_array_store *store; /* its arrays */
    conf_rng *rng;
    tsr_dtype dtype;     /* the kernel's input dtype drawn for the case */
    tsr_dtype dtype_out; /* and its output dtype */
    /* --large: the next shape drawn with a dim gets one dim of this length
     * and the others 1 or 2 (1 past 2^20), then it is 0 (one long dim per
     * case); 0: shapes as usual. */
    int64_t long_dim;
    /* --large: tensors past 2^20 elements are drawn contiguous (a stepped
     * or permuted base of a long dim multiplies the memory the case needs),
     * and a draw with a tensor past 2^25 elements fails. */
    bool large;
} conf_draft;

/* Starts an empty case `op`/`name` (copied) in *c. */
void conf_draft_begin(conf_draft *d, conf_case *c, const char *op, const char *name,
                      conf_array_store *store, conf_rng *rng, tsr_dtype dtype, tsr_dtype dtype_out);

/* A tensor input of logical `shape`: a base array of random values in the
 * store and view steps giving `layout` (CONF_LAYOUT_COUNT: a random one,
 * expanded included). Returns the input, or NULL when memory ran out. */
conf_input *conf_draft_tensor(conf_draft *d, const char *name, tsr_dtype dtype, int ndim,
                              const int64_t *shape, conf_value_spec values, conf_layout layout);
/* The array behind a tensor input (to set values by hand after drawing). */
conf_array *conf_draft_array(conf_draft *d, const conf_input *input);
/* A Python scalar input. */
void conf_draft_scalar(conf_draft *d, const char *name, tsr_scalar value);
/* A list input of n tensors, each of shapes[i], contiguous or not. */
void conf_draft_list(conf_draft *d, const char *name, int n, tsr_dtype dtype, int ndim,
                     const int64_t (*shapes)[TSR_MAX_DIMS], conf_value_spec values);

/* Args by keyword. */
void conf_draft_arg_int(conf_draft *d, const char *name, int64_t value);
void conf_draft_arg_bool(conf_draft *d, const char *name, bool value);
void conf_draft_arg_double(conf_draft *d, const char *name, double value);
void conf_draft_arg_string(conf_draft *d, const char *name, const char *value);
void conf_draft_arg_int_list(conf_draft *d, const char *name, int n, const int64_t *values);
void conf_draft_arg_dtype(conf_draft *d, const char *name, tsr_dtype dtype);

/* ---- helpers for the draw functions ---- */
int conf_draft_rank(conf_draft *d, int lo, int hi);
void conf_draft_shape(conf_draft *d, int ndim, bool allow_empty, int64_t *shape);
/* A shape that broadcasts to `shape`: some leading dims dropped, some dims 1. */
void conf_draft_broadcastable(conf_draft *d, int ndim, const int64_t *shape, int *out_ndim,
                              int64_t *out);
/* A dim of an ndim-dim tensor, negative sometimes (0 or -1 for 0-d). */
int64_t conf_draft_dim(conf_draft *d, int ndim);
/* A Python scalar of the kind a `dtype` tensor pairs with (bool, int,
 * float or complex), drawn as `values` says. */
tsr_scalar conf_draft_scalar_value(conf_draft *d, tsr_dtype dtype, conf_value_spec values);

/* A value spec of one kind (conf_values), and of a range. */
conf_value_spec conf_values_of(conf_values kind);
conf_value_spec conf_values_range(int64_t lo, int64_t hi);

#endif
