/* A do-nothing host-memory backend shared by the deliberately broken test
 * plugins, so each of them differs from a working plugin in one place only.
 * Uses <tessera/plugin.h> alone, like any third-party plugin. */
#ifndef TSR_TEST_STUB_BACKEND_H
#define TSR_TEST_STUB_BACKEND_H

#include <tessera/plugin.h>

#include <stdlib.h>
#include <string.h>

/* The size of the 1.0 table: everything up to and including synchronize. */
#define STUB_PLUGIN_V1_0_SIZE (offsetof(tsr_plugin, synchronize) + sizeof(void *))

static inline int stub_init(const tsr_host_api *host, void **backend)
{
    (void)host;
    *backend = NULL;
    return TSR_OK;
}

static inline void stub_shutdown(void *backend)
{
    (void)backend;
}

static inline int stub_kernels(void *backend, const tsr_kernel_entry **entries, size_t *count)
{
    (void)backend;
    *entries = NULL;
    *count = 0;
    return TSR_OK;
}

static inline int stub_alloc(void *backend, size_t bytes, void **handle)
{
    (void)backend;
    *handle = malloc(bytes ? bytes : 1);
    return *handle ? TSR_OK : TSR_ERR_OUT_OF_MEMORY;
}

static inline void stub_free(void *backend, void *handle)
{
    (void)backend;
    free(handle);
}

static inline int stub_copy_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                                      size_t bytes)
{
    (void)backend;
    memcpy((char *)dst + dst_offset, src, bytes);
    return TSR_OK;
}

static inline int stub_copy_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                                    size_t bytes)
{
    (void)backend;
    memcpy(dst, (const char *)src + src_offset, bytes);
    return TSR_OK;
}

static inline int stub_kernel(void *backend, const tsr_kernel_args *args)
{
    (void)backend;
    (void)args;
    return TSR_OK;
}

#endif
