/* libFuzzer target for the .npz reader (core/io/npz.c over core/io/npy.c,
 * both compiled into this executable with the fuzzer's instrumentation;
 * zlib from the system).
 *
 * The core's tensor functions are host-memory stand-ins (fuzz_standins.c):
 * every input goes through tsr__npz_load_buffer, a failure must come with
 * a message and leave the outputs untouched, and whatever loads must have
 * names and tensors for every member. Inflated members may be larger than
 * the archive, so sizes are bounded by deflate's ratio, not by the input. */
#include "io/npz.h"

#include "fuzz_standins.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = 12345;
    fuzz_message[0] = '\0';
    int st = tsr__npz_load_buffer(data, size, "fuzz", NULL, &names, &tensors, &count);
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
    if (total > (size + 1) * 1032)
        abort(); /* more tensor bytes than deflate can expand the input into */
    tsr_named_tensors_free(names, tensors, count);
    return 0;
}
