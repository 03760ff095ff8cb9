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



int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **names = NULL;
    tsr_tensor **tensors = NULL;
    size_t count = FUZZ_UNTOUCHED_COUNT;
    fuzz_message[0] = '\0';
    int st = tsr__safetensors_load_buffer(data, size, "fuzz", NULL, &names, &tensors, &count);
    /* more tensor bytes than the input holds would mean overlapping data */
    fuzz_check_named_result(st, names, tensors, count, size);
    return 0;
}
