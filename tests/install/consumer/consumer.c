/* A program outside the tree, built against an installed tessera only (with
 * CMake's find_package or with pkg-config): it must compile, link, find its
 * plugins beside the installed libtessera.so and compute. */
#include <tessera/tessera.h>

#include <stdio.h>

int main(void)
{
    uint32_t abi = 0;
    const char *version = tsr_version(&abi);
    printf("tessera %s, plugin ABI %u.%u\n", version, abi >> 16, abi & 0xffff);
    if (abi != TSR_PLUGIN_ABI_VERSION) {
        fprintf(stderr, "consumer: the library loads plugin ABI %u.%u, the header says %d.%d\n",
                abi >> 16, abi & 0xffff, TSR_PLUGIN_ABI_MAJOR, TSR_PLUGIN_ABI_MINOR);
        return 1;
    }
    tsr_backend *backend;
    tsr_tensor *a = NULL, *b = NULL, *sum = NULL;
    const float values[3] = {1, 2, 3};
    int64_t shape[1] = {3};
    float out[3] = {0};
    int rc = 1;
    if (tsr_backend_get(NULL, &backend) == TSR_OK &&
        tsr_from_host(values, sizeof values, 1, shape, TSR_FLOAT32, backend, &a) == TSR_OK &&
        tsr_arange(tsr_scalar_int(0), tsr_scalar_int(3), tsr_scalar_int(1), TSR_INT64, backend,
                   &b) == TSR_OK &&
        tsr_add(a, b, &sum) == TSR_OK && tsr_to_host(sum, out, sizeof out) == TSR_OK) {
        printf("backend %s: [1 2 3] + arange(3) = [%g %g %g]\n", tsr_backend_name(backend),
               out[0], out[1], out[2]);
        rc = out[0] == 1 && out[1] == 3 && out[2] == 5 ? 0 : 1;
    } else {
        fprintf(stderr, "consumer: %s\n", tsr_last_error());
    }
    tsr_tensor_release(sum);
    tsr_tensor_release(b);
    tsr_tensor_release(a);
    return rc;
}
