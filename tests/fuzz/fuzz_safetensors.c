/* libFuzzer target for the safetensors reader (core/io/safetensors.c and
 * cJSON's parser, compiled into this executable with the fuzzer's
 * instrumentation where the source is ours).
 *
 * The core's tensor functions are host-memory stand-ins (fuzz_standins.c):
 * every input goes through tsr__safetensors_load_buffer, a failure must come
 * with a message and leave the outputs untouched, and whatever loads must
 * describe bytes that lie in the input. */
#include "io/safetensors.h"

#include "fuzz_standins.h"

#include "runtime/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = 12345;
    fuzz_message[0] = '\0';
    int st = tsr__safetensors_load_buffer(data, size, "fuzz", NULL, &names, &tensors, &count);
    if (st != TSR_OK) {
        if (st >= 0 || fuzz_message[0] == '\0' || names || tensors || count != 12345)
            abort(); /* a failure has a message and leaves its outputs untouched */
        return 0;
    }
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!names[i] || !tensors[i])
            abort();
        total += (size_t)tsr_tensor_numel(tensors[i]) * fuzz_sizes[tsr_tensor_dtype(tensors[i])];
    }
    if (total > size)
        abort(); /* more tensor bytes than the input holds: overlapping data */
    tsr_named_tensors_free(names, tensors, count);
    return 0;
}
