/* Where a case's data and expected results come from.
 *
 * A source loads the arrays a case names (inputs, grad_outputs, expected
 * gradients) and gives the expected outputs. The golden source reads the
 * case set's files (conf_source_golden); the memory source serves arrays
 * made in the process (the differential mode's random cases, whose expected
 * outputs come from running the same adapter on a second backend). */
#ifndef CONF_SOURCE_H
#define CONF_SOURCE_H

#include "golden/manifest.h"

#include <stddef.h>

typedef struct conf_source conf_source;

struct conf_source {
    const char *name; /* "golden" or "memory": shown in reports */
    /* Loads the base array of one tensor entry (without its view steps) onto
     * `backend`, in the entry's dtype. Returns TSR_OK, or a status after
     * writing a message naming the entry. */
    int (*load)(const conf_source *self, const conf_tensor_ref *ref, tsr_backend *backend,
                tsr_tensor **out, char *message, size_t capacity);
    /* (optional) Fills expected[0 .. c->noutputs) with new references to
     * the expected outputs of `c` on `backend`. Returns TSR_OK, or a status
     * after writing a message (nothing is left to release then). */
    int (*expected)(const conf_source *self, const conf_case *c, tsr_backend *backend,
                    tsr_tensor **expected, char *message, size_t capacity);
    const void *state;
};

/* Arrays and expected outputs read from the golden files under `dir` (borrowed). */
conf_source conf_source_golden(const char *dir);

/* Loads one file of the case set (without its view steps), converting it to
 * the entry's dtype when one is named and differs. Returns a status after
 * writing a message naming the file. */
int conf_load_tensor_ref(const char *dir, const conf_tensor_ref *ref, tsr_backend *backend,
                         tsr_tensor **out, char *message, size_t capacity);

/* ------------------------------------------------------------------------ */
/* Arrays held in memory                                                     */
/* ------------------------------------------------------------------------ */

/* One named host array: contiguous, C order, `dtype` elements. */
typedef struct conf_array {
    char name[32]; /* what a conf_tensor_ref's `file` says to name it */
    tsr_dtype dtype;
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    void *data; /* owned, numel * dtype size bytes (at least 1) */
} conf_array;

typedef struct conf_array_store {
    conf_array *arrays;
    int count;
    int capacity;
} conf_array_store;

/* Adds an array of zeros named `name` and returns it (NULL when out of
 * memory); its data is for the caller to fill. */
conf_array *conf_array_store_add(conf_array_store *store, const char *name, tsr_dtype dtype,
                                 int ndim, const int64_t *shape);
const conf_array *conf_array_store_find(const conf_array_store *store, const char *name);
void conf_array_store_clear(conf_array_store *store);

/* Arrays from `store` (borrowed), found by the entries' `file`; no expected
 * outputs (the differential mode computes them on the other backend). */
conf_source conf_source_memory(const conf_array_store *store);

#endif
