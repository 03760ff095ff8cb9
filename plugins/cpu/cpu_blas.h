/* OpenBLAS as the cpu backend uses it.
 *
 * One thread policy: OpenBLAS always runs single-threaded, called from pool
 * tasks on tiles of fixed size (see matmul.c), so its threads never compete
 * with the pool's and results do not depend on the thread count. */
#ifndef TSR_CPU_BLAS_H
#define TSR_CPU_BLAS_H

/* Makes OpenBLAS run every call on the calling thread (once per process). */
void tsr__cpu_blas_single_thread(void);

/* OpenBLAS's version and build ("OpenBLAS 0.3.21 ... Haswell MAX_THREADS=64"). */
const char *tsr__cpu_blas_config(void);

#endif /* TSR_CPU_BLAS_H */
