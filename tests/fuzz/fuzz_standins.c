/* The stand-ins of fuzz_standins.h: tensors are plain host buffers, errors a
 * message buffer, so a fuzz target needs no plugin and no libtessera. */
#include "fuzz_standins.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char fuzz_message[1024];

int tsr__set_error(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(fuzz_message, sizeof fuzz_message, fmt, args);
    va_end(args);
    return status;
}

void tsr__prefix_error(const char *fmt, ...)
{
    (void)fmt;
}

const size_t fuzz_sizes[TSR_DTYPE_COUNT] = {
#define FUZZ_SIZE_(id, name, size) size,
    TSR_DTYPE_LIST(FUZZ_SIZE_)
#undef FUZZ_SIZE_
};

const char *tsr_dtype_name(tsr_dtype dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? "dtype" : NULL;
}

size_t tsr_dtype_size(tsr_dtype dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? fuzz_sizes[dtype] : 0;
}

struct tsr_tensor {
    tsr_dtype dtype;
    int ndim;
    int64_t shape[TSR_MAX_DIMS];
    int64_t numel;
    unsigned char *data;
};

tsr_status tsr_from_host(const void *data, size_t bytes, int ndim, const int64_t *shape,
                         tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out)
{
    (void)backend;
    int64_t numel = 1;
    for (int i = 0; i < ndim; i++) {
        if (__builtin_mul_overflow(numel, shape[i], &numel))
            numel = -1; /* only acceptable when a later extent is zero */
    }
    for (int i = 0; i < ndim; i++)
        numel = shape[i] == 0 ? 0 : numel;
    if (ndim < 0 || ndim > TSR_MAX_DIMS || numel < 0 || (size_t)numel * fuzz_sizes[dtype] != bytes)
        abort(); /* the reader handed over an inconsistent description */
    tsr_tensor *t = calloc(1, sizeof *t);
    t->data = malloc(bytes ? bytes : 1);
    memcpy(t->data, data, bytes); /* ASan checks that all of `data` is readable */
    for (size_t i = 0; dtype == TSR_BOOL && i < bytes; i++)
        if (t->data[i] > 1)
            abort(); /* bools reach the core as 0 or 1 only */
    t->dtype = dtype;
    t->ndim = ndim;
    memcpy(t->shape, shape, sizeof(int64_t) * (size_t)ndim);
    t->numel = numel;
    *out = t;
    return TSR_OK;
}

tsr_status tsr_to_host(const tsr_tensor *t, void *data, size_t bytes)
{
    memcpy(data, t->data, bytes);
    return TSR_OK;
}

void tsr_tensor_release(const tsr_tensor *t)
{
    if (t) {
        free(t->data);
        free((tsr_tensor *)t);
    }
}

tsr_dtype tsr_tensor_dtype(const tsr_tensor *t)
{
    return t->dtype;
}
int tsr_tensor_ndim(const tsr_tensor *t)
{
    return t->ndim;
}
const int64_t *tsr_tensor_shape(const tsr_tensor *t)
{
    return t->shape;
}
int64_t tsr_tensor_numel(const tsr_tensor *t)
{
    return t->numel;
}

void fuzz_check_named_result(int status, char **names, tsr_tensor **tensors, size_t count,
                             size_t max_bytes)
{
    if (status != TSR_OK) {
        if (status >= 0 || fuzz_message[0] == '\0' || names || tensors ||
            count != FUZZ_UNTOUCHED_COUNT)
            abort();
        return;
    }
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!names[i] || !tensors[i])
            abort();
        total += (size_t)tsr_tensor_numel(tensors[i]) * fuzz_sizes[tsr_tensor_dtype(tensors[i])];
    }
    if (total > max_bytes)
        abort();
    tsr_named_tensors_free(names, tensors, count);
}
