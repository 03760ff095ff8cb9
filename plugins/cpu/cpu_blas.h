/* OpenBLAS as the cpu backend uses it.
 *
 * Loaded on the first matrix product, not with the plugin: OpenBLAS's own
 * start-up (CPU detection, buffers, a thread per core) is most of what
 * loading the cpu backend would otherwise cost, and a program that never
 * multiplies matrices never pays it.
 *
 * One thread policy: OpenBLAS always runs single-threaded, called from pool
 * tasks on tiles of fixed size (see products.c), so its threads never compete
 * with the pool's and results do not depend on the thread count. */
#ifndef TSR_CPU_BLAS_H
#define TSR_CPU_BLAS_H

#include <cblas.h>

typedef struct tsr__cpu_blas {
    __typeof__(&cblas_sgemm) sgemm;
    __typeof__(&cblas_dgemm) dgemm;
    __typeof__(&cblas_cgemm) cgemm;
    __typeof__(&cblas_zgemm) zgemm;
    __typeof__(&openblas_set_num_threads) set_num_threads;
    __typeof__(&openblas_get_num_threads) get_num_threads;
    __typeof__(&openblas_get_config) get_config;
} tsr__cpu_blas;

/* OpenBLAS, loaded on the first call (thread-safe), or NULL when it cannot
 * be loaded (then matrix products use the reference kernel). */
const tsr__cpu_blas *tsr__cpu_blas_get(void);

/* Makes OpenBLAS run every call on the calling thread; call it before each
 * product, because the application may have changed the count since. */
void tsr__cpu_blas_single_thread(const tsr__cpu_blas *blas);

/* OpenBLAS's build ("OpenBLAS 0.3.21 ... Haswell MAX_THREADS=64"), or a note
 * that it is not loaded yet. */
const char *tsr__cpu_blas_config(void);

#endif /* TSR_CPU_BLAS_H */
