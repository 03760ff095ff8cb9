/* Guarded views: a sentinel-filled base, a strided view of its middle. */
#include "differential/guard.h"

#include "golden/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SENTINEL = 0xA5 };

static int fail(int status, char *message, size_t capacity, const char *what)
{
    snprintf(message, capacity, "guard: %s: %s: %s", what, tsr_status_name(status),
             tsr_last_error());
    return status;
}

/* view = base[1:2s+1:2] in each guarded dim (all of an unguarded extent-1
 * one); a 0-d view is base[1] squeezed. */
static int middle(const tsr_tensor *base, int ndim, const int64_t *shape, tsr_tensor **out)
{
    tsr_tensor *t = (tsr_tensor *)base, *next = NULL;
    tsr_tensor_retain(base);
    int st = TSR_OK;
    if (ndim == 0) {
        st = tsr_narrow(t, 0, 1, 1, &next);
        tsr_tensor_release(t);
        t = next;
        if (st == TSR_OK) {
            st = tsr_squeeze_dim(t, 0, &next);
            tsr_tensor_release(t);
            t = next;
        }
    }
    for (int d = 0; d < ndim && st == TSR_OK; d++) {
        if (tsr_tensor_shape(base)[d] == 1)
            continue; /* an unguarded extent-1 dim */
        st = tsr_slice(t, d, 1, 1 + 2 * shape[d], 2, &next);
        tsr_tensor_release(t);
        t = next;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(t);
        return st;
    }
    *out = t;
    return TSR_OK;
}

int conf_guarded_create(tsr_backend *backend, tsr_dtype dtype, int ndim, const int64_t *shape,
                        conf_guarded *g, char *message, size_t capacity)
{
    memset(g, 0, sizeof *g);
    int64_t base_shape[TSR_MAX_DIMS] = {3};
    int base_ndim = ndim == 0 ? 1 : ndim;
    size_t n = ndim == 0 ? 3 : 1;
    bool wide = false; /* a dim of extent > 1, whose guards surround the view */
    for (int d = 0; d < ndim; d++)
        wide = wide || shape[d] > 1;
    for (int d = 0; d < ndim; d++) {
        /* Beside a wider dim an extent-1 dim needs no guard of its own (no
         * stride moves along it): with --large's long dim the other dims
         * are mostly 1, and 5^3 times 2^25 elements would not fit. */
        base_shape[d] = wide && shape[d] == 1 ? 1 : 2 * shape[d] + 3;
        n *= (size_t)base_shape[d];
    }
    g->bytes = n * tsr_dtype_size(dtype);
    g->image = malloc(g->bytes);
    if (!g->image) {
        snprintf(message, capacity, "guard: out of memory");
        return TSR_ERR_OUT_OF_MEMORY;
    }
    memset(g->image, SENTINEL, g->bytes);
    int st = tsr_from_host(g->image, g->bytes, base_ndim, base_shape, dtype, backend, &g->base);
    if (st != TSR_OK)
        return fail(st, message, capacity, "cannot make the base");
    /* What the backend keeps of the pattern (a bool may be normalised) is
     * the sentinel from now on. */
    st = tsr_to_host(g->base, g->image, g->bytes);
    if (st != TSR_OK)
        return fail(st, message, capacity, "cannot read the base back");
    st = middle(g->base, ndim, shape, &g->view);
    return st == TSR_OK ? TSR_OK : fail(st, message, capacity, "cannot make the view");
}

/* Whether base element `flat` (C order over base's shape) lies in the view:
 * odd indices up to 2 s - 1 in each guarded dim of view extent s. */
static bool in_view(const tsr_tensor *base, const tsr_tensor *view, size_t flat, int64_t *index)
{
    int view_ndim = tsr_tensor_ndim(view);
    int ndim = tsr_tensor_ndim(base);
    const int64_t *shape = tsr_tensor_shape(base);
    for (int d = ndim - 1; d >= 0; d--) {
        index[d] = (int64_t)(flat % (size_t)shape[d]);
        flat /= (size_t)shape[d];
    }
    if (view_ndim == 0)
        return index[0] == 1;
    const int64_t *view_shape = tsr_tensor_shape(view);
    for (int d = 0; d < ndim; d++) {
        if (shape[d] == 1)
            continue; /* an unguarded extent-1 dim */
        if (index[d] % 2 == 0 || index[d] > 2 * view_shape[d] - 1)
            return false;
    }
    return true;
}

bool conf_guarded_intact(const conf_guarded *g, char *message, size_t capacity)
{
    unsigned char *now = malloc(g->bytes ? g->bytes : 1);
    int st = now ? tsr_to_host(g->base, now, g->bytes) : TSR_ERR_OUT_OF_MEMORY;
    if (st != TSR_OK) {
        fail(st, message, capacity, "cannot read the base back");
        free(now);
        return false;
    }
    size_t size = tsr_dtype_size(tsr_tensor_dtype(g->base));
    int view_ndim = tsr_tensor_ndim(g->view);
    int64_t index[TSR_MAX_DIMS];
    bool intact = true;
    for (size_t e = 0; intact && e < g->bytes / size; e++) {
        if (memcmp(now + e * size, g->image + e * size, size) == 0 ||
            in_view(g->base, g->view, e, index))
            continue;
        char at[128], base_shape[128], view_shape[128];
        conf_format_shape(tsr_tensor_ndim(g->base), index, at, sizeof at);
        conf_format_shape(tsr_tensor_ndim(g->base), tsr_tensor_shape(g->base), base_shape,
                          sizeof base_shape);
        conf_format_shape(view_ndim, tsr_tensor_shape(g->view), view_shape, sizeof view_shape);
        snprintf(message, capacity,
                 "element %s of the guard (a %s base around a %s view) changed from 0x%02x... "
                 "to 0x%02x...",
                 at, base_shape, view_shape, g->image[e * size], now[e * size]);
        intact = false;
    }
    free(now);
    return intact;
}

void conf_guarded_destroy(conf_guarded *g)
{
    tsr_tensor_release(g->view);
    tsr_tensor_release(g->base);
    free(g->image);
    memset(g, 0, sizeof *g);
}
