/* Loading OpenBLAS on first use (see cpu_blas.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "cpu_blas.h"

#ifndef TSR_CPU_OPENBLAS_SONAME
#define TSR_CPU_OPENBLAS_SONAME "libopenblas.so.0"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static tsr__cpu_blas table;
static _Atomic(const tsr__cpu_blas *) loaded;

/* dlsym returns void *; converting it to a function pointer goes through
 * memcpy, which ISO C allows where a cast would not be. */
static int find(void *library, const char *name, void *slot, size_t size)
{
    void *symbol = dlsym(library, name);
    if (symbol == NULL) {
        return 0;
    }
    __builtin_memcpy(slot, &symbol, size);
    return 1;
}

static void load(void)
{
    /* Kept open for the life of the process: OpenBLAS's threads and
     * buffers must not be unmapped under a later caller. */
    void *library = dlopen(TSR_CPU_OPENBLAS_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) {
        return;
    }
    int ok = find(library, "cblas_sgemm", &table.sgemm, sizeof table.sgemm) &&
             find(library, "cblas_dgemm", &table.dgemm, sizeof table.dgemm) &&
             find(library, "cblas_cgemm", &table.cgemm, sizeof table.cgemm) &&
             find(library, "cblas_zgemm", &table.zgemm, sizeof table.zgemm) &&
             find(library, "openblas_set_num_threads", &table.set_num_threads,
                  sizeof table.set_num_threads) &&
             find(library, "openblas_get_num_threads", &table.get_num_threads,
                  sizeof table.get_num_threads) &&
             find(library, "openblas_get_config", &table.get_config, sizeof table.get_config);
    if (ok) {
        table.set_num_threads(1);
        atomic_store(&loaded, &table);
    }
}

const tsr__cpu_blas *tsr__cpu_blas_get(void)
{
    pthread_once(&once, load);
    return atomic_load(&loaded);
}

void tsr__cpu_blas_single_thread(const tsr__cpu_blas *blas)
{
    if (blas->get_num_threads() != 1) {
        blas->set_num_threads(1);
    }
}

const char *tsr__cpu_blas_config(void)
{
    const tsr__cpu_blas *blas = atomic_load(&loaded);
    return blas != NULL ? blas->get_config() : "OpenBLAS loaded on the first matrix product";
}
