/* Case data from the case set's files, or from arrays held in memory. */
#include "golden/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int conf_load_tensor_ref(const char *dir, const conf_tensor_ref *ref, tsr_backend *backend,
                         tsr_tensor **out, char *message, size_t capacity)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, ref->file);
    tsr_tensor *t = NULL;
    bool bf16 = ref->has_dtype && ref->dtype == TSR_BFLOAT16;
    int st = tsr_load_npy_as(path, bf16 ? TSR_BFLOAT16 : TSR_DTYPE_INFER, backend, &t);
    if (st != TSR_OK) {
        snprintf(message, capacity, "cannot load %s: %s", ref->file, tsr_last_error());
        return st;
    }
    /* bfloat16 is stored as '<u2', read as bfloat16 bits because the entry
     * names it; any other named dtype is a conversion the entry asks for. */
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

static int golden_load(const conf_source *self, const conf_tensor_ref *ref, tsr_backend *backend,
                       tsr_tensor **out, char *message, size_t capacity)
{
    return conf_load_tensor_ref(self->state, ref, backend, out, message, capacity);
}

static int golden_expected(const conf_source *self, const conf_case *c, tsr_backend *backend,
                           tsr_tensor **expected, char *message, size_t capacity)
{
    for (int i = 0; i < c->noutputs; i++) {
        int st = golden_load(self, &c->outputs[i], backend, &expected[i], message, capacity);
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
    return (conf_source){"golden", golden_load, golden_expected, dir};
}

/* ------------------------------------------------------------------------ */
/* Arrays held in memory                                                     */
/* ------------------------------------------------------------------------ */

static size_t array_bytes(const conf_array *a)
{
    size_t n = tsr_dtype_size(a->dtype);
    for (int d = 0; d < a->ndim; d++)
        n *= (size_t)a->shape[d];
    return n;
}

conf_array *conf_array_store_add(conf_array_store *store, const char *name, tsr_dtype dtype,
                                 int ndim, const int64_t *shape)
{
    if (store->count == store->capacity) {
        int cap = store->capacity ? store->capacity * 2 : 8;
        conf_array *grown = realloc(store->arrays, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        store->arrays = grown;
        store->capacity = cap;
    }
    conf_array *a = &store->arrays[store->count];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->dtype = dtype;
    a->ndim = ndim;
    for (int d = 0; d < ndim; d++)
        a->shape[d] = shape[d];
    size_t bytes = array_bytes(a);
    a->data = calloc(bytes ? bytes : 1, 1);
    if (!a->data)
        return NULL;
    store->count++;
    return a;
}

const conf_array *conf_array_store_find(const conf_array_store *store, const char *name)
{
    for (int i = 0; i < store->count; i++) {
        if (strcmp(store->arrays[i].name, name) == 0)
            return &store->arrays[i];
    }
    return NULL;
}

void conf_array_store_clear(conf_array_store *store)
{
    for (int i = 0; i < store->count; i++)
        free(store->arrays[i].data);
    free(store->arrays);
    memset(store, 0, sizeof *store);
}

static int memory_load(const conf_source *self, const conf_tensor_ref *ref, tsr_backend *backend,
                       tsr_tensor **out, char *message, size_t capacity)
{
    const conf_array *a = conf_array_store_find(self->state, ref->file);
    if (!a) {
        snprintf(message, capacity, "no array named '%s'", ref->file);
        return TSR_ERR_INVALID_ARGUMENT;
    }
    int st = tsr_from_host(a->data, array_bytes(a), a->ndim, a->shape, a->dtype, backend, out);
    if (st != TSR_OK)
        snprintf(message, capacity, "cannot make %s (%s) on backend '%s': %s", a->name,
                 tsr_dtype_name(a->dtype), tsr_backend_name(backend), tsr_last_error());
    return st;
}

conf_source conf_source_memory(const conf_array_store *store)
{
    return (conf_source){"memory", memory_load, NULL, store};
}
