/* libFuzzer target for the .npy reader (core/io/npy.c, compiled into this
 * executable with the fuzzer's instrumentation).
 *
 * The core's tensor functions are host-memory stand-ins (fuzz_standins.c),
 * so the target needs no plugin, no file system and no libtessera: every
 * input goes through tsr__npy_parse_header and tsr__npy_load_buffer, and the
 * invariants a caller relies on are checked on whatever they accept. */
#include "io/npy.h"

#include "fuzz_standins.h"

#include "runtime/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
        /* (bools are checked to be 0 or 1 as they reach tsr_from_host) */
        if (st != TSR_OK || t == NULL || h.data_offset + h.data_bytes > size)
            abort();
    } else if (t != NULL) {
        abort(); /* a failed load leaves its output untouched */
    }
    tsr_tensor_release(t);
    return 0;
}
