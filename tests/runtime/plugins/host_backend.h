/* The host-memory half that the project's test plugins (toy, contiguous)
 * share: a backend that only remembers the host's services, memory from
 * calloc and transfers by memcpy. Built from <tessera/plugin.h> alone, like
 * the plugins. Define HOST_BACKEND_NAME (a string literal) before including
 * it; every function is static, one copy per plugin. (The vendor example of
 * tests/install/acme/ spells the same out in full: it must stand alone.) */
#ifndef TSR_TEST_HOST_BACKEND_H
#define TSR_TEST_HOST_BACKEND_H

#include <tessera/plugin.h>

#include <stdlib.h>
#include <string.h>

#ifndef HOST_BACKEND_NAME
#error "define HOST_BACKEND_NAME before including host_backend.h"
#endif

typedef struct host_backend {
    const tsr_host_api *host; /* borrowed; outlives the backend */
} host_backend;

static int host_backend_init(const tsr_host_api *host, void **backend)
{
    host_backend *b = malloc(sizeof *b);
    if (!b)
        return host->set_error(TSR_ERR_OUT_OF_MEMORY, HOST_BACKEND_NAME ": out of memory");
    b->host = host;
    *backend = b;
    return TSR_OK;
}

static void host_backend_shutdown(void *backend)
{
    free(backend);
}

static int host_backend_alloc(void *backend, size_t bytes, void **handle)
{
    const host_backend *b = backend;
    void *p = calloc(1, bytes ? bytes : 1); /* malloc(0) may return NULL: a distinct handle */
    if (!p)
        return b->host->set_error(TSR_ERR_OUT_OF_MEMORY,
                                  HOST_BACKEND_NAME ": cannot allocate %zu bytes", bytes);
    *handle = p;
    return TSR_OK;
}

static void host_backend_free(void *backend, void *handle)
{
    (void)backend;
    free(handle);
}

static int host_backend_from_host(void *backend, void *dst, size_t dst_offset, const void *src,
                                  size_t bytes)
{
    (void)backend;
    memcpy((char *)dst + dst_offset, src, bytes);
    return TSR_OK;
}

static int host_backend_to_host(void *backend, void *dst, const void *src, size_t src_offset,
                                size_t bytes)
{
    (void)backend;
    memcpy(dst, (const char *)src + src_offset, bytes);
    return TSR_OK;
}

#endif
