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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = FUZZ_UNTOUCHED_COUNT;
    fuzz_message[0] = '\0';
    int st = tsr__npz_load_buffer(data, size, "fuzz", NULL, &names, &tensors, &count);
    /* inflated members are bounded by deflate's ratio, not by the input */
    fuzz_check_named_result(st, names, tensors, count, (size + 1) * 1032);
    return 0;
}
