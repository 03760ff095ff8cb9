/* Where a case's data and expected results come from.
 *
 * Inputs always come from the case set's files. Expected outputs come from a
 * source: today the golden files (conf_source_golden); a differential source
 * (--against BACKEND, running the same adapter on a second backend) can be
 * added behind the same interface without touching the runner. */
#ifndef CONF_SOURCE_H
#define CONF_SOURCE_H

#include "manifest.h"

#include <stddef.h>

typedef struct conf_source conf_source;

struct conf_source {
    const char *name; /* "golden": shown in reports */
    /* Fills expected[0 .. c->noutputs) with new references to the expected
     * outputs of `c` on `backend`. Returns TSR_OK, or a status after writing
     * a message (nothing is left to release then). */
    int (*expected)(const conf_source *self, const conf_case *c, tsr_backend *backend,
                    tsr_tensor **expected, char *message, size_t capacity);
    const void *state;
};

/* Expected outputs read from the golden files under `dir` (borrowed). */
conf_source conf_source_golden(const char *dir);

/* Loads one file of the case set (without its view steps), converting it to
 * the entry's dtype when one is named and differs. Returns a status after
 * writing a message naming the file. */
int conf_load_tensor_ref(const char *dir, const conf_tensor_ref *ref, tsr_backend *backend,
                         tsr_tensor **out, char *message, size_t capacity);

#endif
