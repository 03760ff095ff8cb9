/* libFuzzer target for the .npy reader (core/io/npy.c, compiled into this
 * executable with the fuzzer's instrumentation).
 *
 * The core's tensor functions are replaced below by host-memory stand-ins,
 * so the target needs no plugin, no file system and no libtessera: every
 * input goes through tsr__npy_parse_header and tsr__npy_load_buffer, and the
 * invariants a caller relies on are checked on whatever they accept. */
#include "io/npy.h"

#include "runtime/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Stand-ins for the core functions npy.c calls                              */
/* ------------------------------------------------------------------------ */

static char fuzz_message[1024];

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

static const size_t fuzz_sizes[TSR_DTYPE_COUNT] = {
#define FUZZ_SIZE_(id, name, size) size,
    TSR_DTYPE_LIST(FUZZ_SIZE_)
#undef FUZZ_SIZE_
};

const char *tsr_dtype_name(tsr_dtype dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? "dtype" : NULL;
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
        abort(); /* the parser handed over an inconsistent description */
    tsr_tensor *t = calloc(1, sizeof *t);
    t->data = malloc(bytes ? bytes : 1);
    memcpy(t->data, data, bytes); /* ASan checks that all of `data` is readable */
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

/* ------------------------------------------------------------------------ */
/* The target                                                                */
/* ------------------------------------------------------------------------ */

static void check_header(const tsr__npy_header *h, size_t size)
{
    int64_t numel = 1;
    for (int i = 0; i < h->ndim; i++) {
        if (h->shape[i] < 0)
            abort();
        if (__builtin_mul_overflow(numel, h->shape[i], &numel))
            numel = -1;
    }
    bool zero = false;
    for (int i = 0; i < h->ndim; i++)
        zero |= h->shape[i] == 0;
    if (zero)
        numel = 0;
    if (h->ndim < 0 || h->ndim > TSR_MAX_DIMS || h->data_offset > size || numel != h->numel ||
        h->data_bytes != (size_t)h->numel * fuzz_sizes[h->dtype] || h->major < 1 || h->major > 3 ||
        h->minor != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tsr__npy_header h;
    fuzz_message[0] = '\0';
    int st = tsr__npy_parse_header(data, size, "fuzz", &h);
    if (st == TSR_OK)
        check_header(&h, size);
    else if (st >= 0 || fuzz_message[0] == '\0')
        abort(); /* a failure must come with a negative status and a message */
    tsr_tensor *t = NULL;
    /* both answers to '<u2': refused by default, bfloat16 bits when asked */
    tsr_dtype want = st == TSR_OK && h.raw_u2 && (size & 1) ? TSR_BFLOAT16 : TSR_DTYPE_INFER;
    int load = tsr__npy_load_buffer(data, size, "fuzz", want, NULL, &t);
    if (load == TSR_OK) {
        if (st != TSR_OK || t == NULL || h.data_offset + h.data_bytes > size)
            abort();
        for (size_t i = 0; h.dtype == TSR_BOOL && i < h.data_bytes; i++) {
            if (t->data[i] > 1)
                abort(); /* bools reach the core as 0 or 1 only */
        }
    } else if (t != NULL) {
        abort(); /* a failed load leaves its output untouched */
    }
    tsr_tensor_release(t);
    return 0;
}
