/* Case data from the case set's files. */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int conf_load_tensor_ref(const char *dir, const conf_tensor_ref *ref, tsr_backend *backend,
                         tsr_tensor **out, char *message, size_t capacity)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, ref->file);
    tsr_tensor *t = NULL;
    int st = tsr_load_npy(path, backend, &t);
    if (st != TSR_OK) {
        snprintf(message, capacity, "cannot load %s: %s", ref->file, tsr_last_error());
        return st;
    }
    /* bfloat16 arrives as '<u2', which tsr_load_npy already reads as
     * bfloat16; any other named dtype is a conversion the entry asks for. */
    if (ref->has_dtype && ref->dtype != tsr_tensor_dtype(t)) {
        tsr_tensor *converted = NULL;
        st = tsr_to_dtype(t, ref->dtype, &converted);
        tsr_tensor_release(t);
        if (st != TSR_OK) {
            snprintf(message, capacity, "cannot convert %s to %s: %s", ref->file,
                     tsr_dtype_name(ref->dtype), tsr_last_error());
            return st;
        }
        t = converted;
    }
    *out = t;
    return TSR_OK;
}

static int golden_expected(const conf_source *self, const conf_case *c, tsr_backend *backend,
                           tsr_tensor **expected, char *message, size_t capacity)
{
    const char *dir = self->state;
    for (int i = 0; i < c->noutputs; i++) {
        int st =
            conf_load_tensor_ref(dir, &c->outputs[i], backend, &expected[i], message, capacity);
        if (st != TSR_OK) {
            for (int j = 0; j < i; j++)
                tsr_tensor_release(expected[j]);
            return st;
        }
    }
    return TSR_OK;
}

conf_source conf_source_golden(const char *dir)
{
    return (conf_source){"golden", golden_expected, dir};
}
