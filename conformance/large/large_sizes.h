/* Size as a test dimension (test_large_sizes): every backend against the
 * reference at lengths around 2^16 and past 2^24, and the host backends
 * past 2^31 elements. large_sizes.c holds the comparisons and main(),
 * large_host.c the 2^31 + 5 cases. */
#ifndef TSR_CONFORMANCE_LARGE_SIZES_H
#define TSR_CONFORMANCE_LARGE_SIZES_H

#include <stdint.h>

#include <tessera/tessera.h>

struct large_run {
    tsr_backend *ref, *b; /* the reference, and the backend under test */
    const char *name;     /* b's name */
    int failures, checks, missing;
};

/* Counts one check; prints and counts a failure when !ok. */
void large_expect(struct large_run *r, int ok, const char *fmt, ...);

/* Whether status is TSR_OK; TSR_ERR_UNIMPLEMENTED (no kernel on r->b) is
 * printed and counted as missing, any other error as a failure. */
int large_ok(struct large_run *r, tsr_status status, const char *what);

/* got (on r->b) and want (on the reference) hold the same bytes. */
void large_same(struct large_run *r, const char *what, const tsr_tensor *got,
                const tsr_tensor *want);

/* The 2^31 + 5-element cases on a host backend (reference against r->b and
 * against the values the pattern implies). */
void large_host_cases(struct large_run *r);

#endif /* TSR_CONFORMANCE_LARGE_SIZES_H */
