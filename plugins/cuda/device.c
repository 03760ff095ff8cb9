/* Finding the driver and the device through the CUDA runtime, which the
 * plugin links statically: the runtime looks for libcuda.so.1 itself and
 * answers "insufficient driver" when there is none, so the plugin loads on
 * any machine and says why it cannot run. */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"

int tsr__cu_error(const tsr_host_api *host, cudaError_t err, const char *what)
{
    int status = err == cudaErrorMemoryAllocation ? TSR_ERR_OUT_OF_MEMORY : TSR_ERR_BACKEND;
    return host->set_error(status, "%s: %s (%s)", what, cudaGetErrorString(err),
                           cudaGetErrorName(err));
}

static int no_driver(cudaError_t err)
{
    return err == cudaErrorInsufficientDriver || err == cudaErrorStubLibrary ||
           err == cudaErrorInitializationError || err == cudaErrorSystemNotReady ||
           err == cudaErrorSystemDriverMismatch || err == cudaErrorCompatNotSupportedOnDevice;
}

/* TESSERA_CUDA_DEVICE=N picks the device; unset, device 0. */
static int chosen_device(int count, char *reason, size_t capacity, int *device)
{
    const char *text = getenv("TESSERA_CUDA_DEVICE");
    *device = 0;
    if (text && *text) {
        char *end;
        long value = strtol(text, &end, 10);
        if (*end != '\0' || value < 0 || value >= count) {
            snprintf(reason, capacity,
                     "no CUDA device: TESSERA_CUDA_DEVICE=%s is not an index below %d", text,
                     count);
            return -1;
        }
        *device = (int)value;
    }
    return 0;
}

int tsr__cu_probe_device(char *reason, size_t capacity, int *device)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        snprintf(reason, capacity, "%s: %s (%s)",
                 no_driver(err) ? "no CUDA driver" : "no CUDA device", cudaGetErrorString(err),
                 cudaGetErrorName(err));
        return -1;
    }
    if (count == 0) {
        snprintf(reason, capacity, "no CUDA device: the driver found none");
        return -1;
    }
    if (chosen_device(count, reason, capacity, device) != 0)
        return -1;
    struct cudaDeviceProp prop;
    err = cudaGetDeviceProperties(&prop, *device);
    if (err != cudaSuccess) {
        snprintf(reason, capacity, "no CUDA device: device %d: %s", *device,
                 cudaGetErrorString(err));
        return -1;
    }
    if (prop.major < 9) {
        snprintf(reason, capacity,
                 "no CUDA device: device %d (%s) is sm_%d%d; this build carries sm_90 and "
                 "compute_90 PTX only",
                 *device, prop.name, prop.major, prop.minor);
        return -1;
    }
    snprintf(reason, capacity, "CUDA device %d: %s (sm_%d%d, %d of %d)", *device, prop.name,
             prop.major, prop.minor, *device, count);
    return 0;
}
