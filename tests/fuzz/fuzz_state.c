/* libFuzzer target for the saved-state index (core/io/state.c): the input is
 * written as index.txt of a scratch directory (beside one valid parameter
 * file, w.npy) and loaded into a float32 parameter of shape [3] with an SGD
 * optimiser, and once with neither. The whole core is compiled into this
 * executable with the fuzzer's instrumentation; the reference plugin is
 * found through TESSERA_PLUGIN_PATH. A load that succeeds must have kept the
 * parameter's shape. */
#include <tessera/tessera.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static tsr_tensor *param;
static tsr_optimizer *opt;

static void set_up(void)
{
    snprintf(dir, sizeof dir, "/tmp/tessera-fuzz-state-%d", (int)getpid());
    const float v[3] = {1, 2, 3};
    const int64_t shape[1] = {3};
    char path[128];
    if (tsr_from_host(v, sizeof v, 1, shape, TSR_FLOAT32, NULL, &param) != TSR_OK) {
        fprintf(stderr, "fuzz_state: %s\n", tsr_last_error());
        abort();
    }
    tsr_sgd_options o = tsr_sgd_options_default(0.1);
    if (tsr_optimizer_create_sgd(&param, 1, &o, &opt) != TSR_OK)
        abort();
    const char *names[1] = {"w"};
    if (tsr_state_save(dir, (const tsr_tensor *const *)&param, names, 1, opt) != TSR_OK)
        abort();
    snprintf(path, sizeof path, "%s/index.txt", dir);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (!param)
        set_up();
    char path[128];
    snprintf(path, sizeof path, "%s/index.txt", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    const char *names[1] = {"w"};
    tsr_state_load(dir, &param, names, 1, opt);
    tsr_state_load(dir, NULL, NULL, 0, NULL);
    if (tsr_tensor_ndim(param) != 1 || tsr_tensor_shape(param)[0] != 3)
        abort();
    return 0;
}
