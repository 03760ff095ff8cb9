/* The differential mode: `tessera-conformance --backend NAME --against REF`.
 *
 * For every op with an adapter and a draw function (draws.h) that the
 * reference backend claims, random cases are drawn — shapes from 0-d to
 * 4-d with empty and size-1 dims, transposed / permuted / stepped / offset /
 * expanded layouts, every dtype pair the reference registers for the op's
 * kernel, special values — and run through the same adapter on both
 * backends. Results must match bit for bit for integers, bools and the
 * movement and selection ops, and within the default tolerance for floating
 * results (for the products, alternatively within the rounding-error bound
 * of their sums: bound.h). Writes go through guarded views whose surroundings must survive:
 * the self of every in-place method, a copy_ of each case's first result,
 * and the in-place form of every elementwise op.
 *
 * A dtype pair the backend claims must run; a pair it does not claim must be
 * refused with TSR_ERR_UNIMPLEMENTED and a message (a skip). Case j of op X
 * is drawn from (seed, X, j) alone, so each failure prints a command that
 * runs just that case again. */
#ifndef CONF_DIFFERENTIAL_H
#define CONF_DIFFERENTIAL_H

#include "golden/report.h"

#include <stdio.h>

typedef struct conf_diff_options {
    tsr_backend *backend;   /* under test */
    tsr_backend *reference; /* what it is compared with */
    uint64_t seed;
    size_t count;        /* cases in all, dealt out over the selected ops in turn */
    const char *op_glob; /* NULL: every op; else fnmatch on the op name */
    /* Sizes as a test dimension: each case has one dim of 2^16 - 1, 2^16 + 1
     * or 2^24 + 3 (the others 1 or 2), and without op_glob only the
     * families whose kernels loop over long dims are drawn (large_ops). */
    bool large;
    long long only_case; /* >= 0: only this case index of each selected op */
    bool verbose;        /* print passes and skips too */
    const char *dump;    /* (optional) a directory: failing cases (every case with
                            only_case) are written there as golden cases */
    FILE *out;           /* where results go (stdout) */
    /* (optional) What `backend` claims; defaults to tsr_backend_has_kernel.
     * Tests use it to stand for a backend that claims less. */
    bool (*claims)(const tsr_backend *backend, tsr_op op, tsr_dtype in, tsr_dtype out);
} conf_diff_options;

/* Runs the cases and adds each verdict to `report`. Returns the number of
 * ops that were selected (0: nothing to run). */
size_t conf_diff_run(const conf_diff_options *options, conf_report *report);

/* Runs case `index` of `op` and writes its verdict (for tests; `adapter`
 * may be one that misbehaves on purpose). */
void conf_diff_run_case(const conf_diff_options *options, const struct conf_adapter *adapter,
                        size_t index, conf_result *result);

#endif
