/* Walking a reduction: which elements each output reduces, in which order,
 * and the fixed lane/block order that sum-like reductions combine them in
 * (see reduce.h). Shared by the reduction kernels; nothing here knows an op. */
#ifndef TSR_REFERENCE_REDUCE_WALK_H
#define TSR_REFERENCE_REDUCE_WALK_H

#include <stdint.h>

#include <tessera/plugin.h>

#include "backend.h"
#include "reduce.h"
#include "wide.h"

enum { TSR__REF_REDUCE_MAX_OUTPUTS = 2 };

/* The input split into kept dims (one output per index) and reduced dims
 * (the terms of one output, numbered in row-major order). Steps are bytes. */
typedef struct tsr__ref_reduce_walk {
    int32_t kept_ndim;
    int32_t red_ndim;
    int32_t outputs;
    int64_t kept_shape[TSR_MAX_DIMS];
    int64_t kept_in[TSR_MAX_DIMS];
    int64_t kept_out[TSR__REF_REDUCE_MAX_OUTPUTS][TSR_MAX_DIMS];
    int64_t red_shape[TSR_MAX_DIMS];
    int64_t red_in[TSR_MAX_DIMS];
    int64_t out_count; /* outputs per output tensor */
    int64_t terms;     /* terms per output */
    const char *in_base;
    char *out_base[TSR__REF_REDUCE_MAX_OUTPUTS];
} tsr__ref_reduce_walk;

/* Checks the descriptors (one input, `outputs` outputs shaped like the input
 * with the dims of `mask` of size 1) and prepares the walk. Returns TSR_OK or
 * an error already reported to the host. */
int tsr__ref_reduce_walk_init(const tsr__ref_backend *backend, tsr__ref_reduce_walk *walk,
                              const tsr_tensor_desc *input, const tsr_tensor_desc *outputs,
                              int32_t num_outputs, uint32_t mask);

/* What one output's computation reads: its terms and how to load them. */
typedef struct tsr__ref_terms {
    const tsr__ref_reduce_walk *walk;
    const char *base; /* the output's term 0 */
    tsr__ref_load_fn load;
    tsr__ref_wide *buffer; /* TSR__REF_REDUCE_BLOCK values of scratch */
} tsr__ref_terms;

/* Loads terms [start, start + n) into `out`. */
void tsr__ref_terms_load(const tsr__ref_terms *terms, int64_t start, int64_t n, tsr__ref_wide *out);

/* Calls `fn` once per output, with the output's terms and the addresses of
 * its elements in each output tensor. */
typedef void (*tsr__ref_output_fn)(void *context, const tsr__ref_terms *terms, char *const *outs);
void tsr__ref_reduce_walk_run(const tsr__ref_reduce_walk *walk, tsr__ref_load_fn load,
                              tsr__ref_output_fn fn, void *context);

/* Combines a term into an accumulator of the same category. */
typedef void (*tsr__ref_combine_fn)(tsr__ref_wide *acc, const tsr__ref_wide *term);
/* acc += term and acc *= term per category (integers wrap), shared by the
 * reductions and the scans. */
extern const tsr__ref_combine_fn tsr__ref_adders[TSR__REF_CATEGORY_COUNT];
extern const tsr__ref_combine_fn tsr__ref_multipliers[TSR__REF_CATEGORY_COUNT];
/* Rewrites a loaded term before it is combined (NaN to zero, |x|^p, ...). */
typedef void (*tsr__ref_term_fn)(const void *context, tsr__ref_wide *term);

/* Folds every term of one output in lane and block order, starting each
 * lane from `identity`; `transform` (optional) maps each term first. An
 * output of no terms gives the identity. */
tsr__ref_wide tsr__ref_lane_fold(const tsr__ref_terms *terms, tsr__ref_term_fn transform,
                                 const void *transform_context, tsr__ref_combine_fn combine,
                                 tsr__ref_wide identity);

#endif /* TSR_REFERENCE_REDUCE_WALK_H */
