/* Creating and destroying the cpu backend: options from the environment,
 * the thread policy shared with OpenBLAS, the SIMD set, the cache and the
 * kernel table. */
#define _GNU_SOURCE
#include "cpu_backend.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The reference kernels report through tsr__ref_error, which the reference
 * backend defines in its plugin.c; the cpu backend links the kernels
 * without that file and provides it here, with the same behaviour. */
static int report(const tsr_host_api *host, int status, const char *fmt, va_list args)
{
    if (host == NULL || host->set_error == NULL) {
        return status;
    }
    char message[256];
    vsnprintf(message, sizeof message, fmt, args);
    return host->set_error(status, "%s", message);
}

int tsr__ref_error(const tsr__ref_backend *backend, int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    status = report(backend != NULL ? backend->host : NULL, status, fmt, args);
    va_end(args);
    return status;
}

int tsr__cpu_error(const tsr__cpu_backend *backend, int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    status = report(backend != NULL ? backend->ref.host : NULL, status, fmt, args);
    va_end(args);
    return status;
}

/* The CPUs this process may run on. */
static int available_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) {
            return count;
        }
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}

static long env_long(const char *name, long fallback)
{
    const char *text = getenv(name);
    if (text == NULL || *text == '\0') {
        return fallback;
    }
    char *end = NULL;
    long value = strtol(text, &end, 10);
    return end != NULL && *end == '\0' ? value : fallback;
}

void tsr__cpu_options_from_env(tsr__cpu_options *options)
{
    if (options->threads <= 0) {
        long threads = env_long("TESSERA_NUM_THREADS", 0);
        options->threads = threads > 0 && threads <= 1024 ? (int)threads : available_cpus();
    }
    if (options->isa == 0) {
        const char *isa = getenv("TESSERA_CPU_ISA");
        for (int i = 0; isa != NULL && i < TSR__CPU_ISA_COUNT; i++) {
            if (strcmp(isa, tsr__cpu_isa_name((tsr__cpu_isa)i)) == 0) {
                options->isa = i + 1;
            }
        }
    }
    if (options->cache_limit_bytes == 0) {
        long megabytes = env_long("TESSERA_CPU_CACHE_MB", -1);
        options->cache_limit_bytes =
            megabytes >= 0 ? (size_t)megabytes << 20 : tsr__cpu_cache_default_limit();
    }
}

int tsr__cpu_backend_create(const tsr_host_api *host, const tsr__cpu_options *options,
                            tsr__cpu_backend **out)
{
    tsr__cpu_backend *backend = calloc(1, sizeof *backend);
    if (backend == NULL) {
        return host != NULL && host->set_error != NULL
                   ? host->set_error(TSR_ERR_OUT_OF_MEMORY, "cpu: no memory for state")
                   : TSR_ERR_OUT_OF_MEMORY;
    }
    backend->ref.host = host;
    backend->threads = options->threads > 0 ? options->threads : 1;
    /* An ISA the CPU lacks is never used: the best one supported instead. */
    tsr__cpu_isa best = tsr__cpu_isa_detect();
    tsr__cpu_isa isa = options->isa > 0 ? (tsr__cpu_isa)(options->isa - 1) : best;
    backend->simd = tsr__cpu_simd_for(isa > best ? best : isa);
    backend->cache = tsr__cpu_cache_create(options->cache_limit_bytes);
    backend->pool = tsr__cpu_pool_create(backend->threads);
    int status = backend->cache != NULL && backend->pool != NULL && backend->simd != NULL
                     ? tsr__cpu_kernel_table_build(backend)
                     : TSR_ERR_OUT_OF_MEMORY;
    if (status != TSR_OK) {
        tsr__cpu_backend_destroy(backend);
        return host != NULL && host->set_error != NULL
                   ? host->set_error(status, "cpu: cannot create the backend's state")
                   : status;
    }
    *out = backend;
    return TSR_OK;
}

void tsr__cpu_backend_destroy(tsr__cpu_backend *backend)
{
    if (backend == NULL) {
        return;
    }
    tsr__cpu_pool_destroy(backend->pool);
    tsr__cpu_cache_destroy(backend->cache);
    free(backend->ref.entries);
    free(backend->reference_entries);
    free(backend);
}
