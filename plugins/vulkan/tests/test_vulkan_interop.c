/* DLPack and user memory against a device backend: a Vulkan tensor is not
 * exported (the plugin ABI lends no buffer handle a consumer could use) and
 * host memory is not wrapped as Vulkan memory, each refused with a message
 * that says why; a copy to a host backend exports as kDLCPU.
 *
 * Exit 77 (skip) when there is no Vulkan loader or device. */
#include <stdio.h>
#include <string.h>

#include <dlpack/dlpack.h>
#include <tessera/tessera.h>

#include "vulkan_api_test.h"

int main(void)
{
    tsr_backend *vk = NULL, *ref = NULL;
    int loaded = get_reference_and_vulkan(&ref, &vk);
    if (loaded != 0)
        return loaded;
    float v[4] = {1, 2, 3, 4};
    int64_t shape[1] = {4};
    tsr_tensor *t = NULL, *host = NULL, *wrapped = NULL;
    DLManagedTensor *m = NULL;
    EXPECT(tsr_from_host(v, sizeof v, 1, shape, TSR_FLOAT32, vk, &t) == TSR_OK, "%s",
           tsr_last_error());
    int st = tsr_to_dlpack(t, &m);
    EXPECT(st == TSR_ERR_UNIMPLEMENTED && m == NULL &&
               strstr(tsr_last_error(), "tsr_to_dlpack: tensor: backend 'vulkan'"),
           "to_dlpack on vulkan: %s (%s)", tsr_status_name(st), tsr_last_error());
    st = tsr_from_blob(v, 1, shape, NULL, TSR_FLOAT32, NULL, NULL, vk, &wrapped);
    EXPECT(st == TSR_ERR_INVALID_ARGUMENT && wrapped == NULL &&
               strstr(tsr_last_error(), "does not use host memory"),
           "from_blob on vulkan: %s (%s)", tsr_status_name(st), tsr_last_error());
    EXPECT(tsr_to_backend(t, ref, &host) == TSR_OK, "%s", tsr_last_error());
    EXPECT(tsr_to_dlpack(host, &m) == TSR_OK && m && m->dl_tensor.device.device_type == kDLCPU &&
               ((const float *)m->dl_tensor.data)[3] == 4,
           "to_dlpack after a copy to the reference backend: %s", tsr_last_error());
    if (m)
        m->deleter(m);
    tsr_tensor_release(host);
    tsr_tensor_release(t);
    printf("test_vulkan_interop: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
