/* Guard regions: a strided view in the middle of a larger tensor whose other
 * bytes must survive whatever is written through the view. Every element
 * of the view has guard elements between it and its neighbours in each
 * dim, and around the whole, so a write past any edge, or with a wrong
 * stride, lands on a guard. */
#ifndef CONF_GUARD_H
#define CONF_GUARD_H

#include "tessera/tessera.h"

#include <stddef.h>

typedef struct conf_guarded {
    tsr_tensor *base;     /* contiguous: each dim of size s is 2 s + 3 long (an extent-1
                             dim beside a wider one: 1; 0-d: [3]) */
    tsr_tensor *view;     /* elements [1, 3, 5, ...] of each dim of base */
    unsigned char *image; /* base's bytes when made (the sentinel pattern) */
    size_t bytes;
} conf_guarded;

/* Makes a guarded view of `shape` and `dtype` on `backend`, the rest filled
 * with a sentinel byte pattern. Returns TSR_OK or a status after a message. */
int conf_guarded_create(tsr_backend *backend, tsr_dtype dtype, int ndim, const int64_t *shape,
                        conf_guarded *out, char *message, size_t capacity);

/* Whether every byte of base outside the view still holds the sentinel.
 * Otherwise writes which element was overwritten (its index in base and
 * the view's shape), e.g. "element [0, 3] of the guard (a [3, 5] base
 * around a [1, 2] view) changed". */
bool conf_guarded_intact(const conf_guarded *g, char *message, size_t capacity);

void conf_guarded_destroy(conf_guarded *g);

#endif
