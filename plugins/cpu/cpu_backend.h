/* The cpu backend's state, options and error reporting.
 *
 * The state starts with the reference backend's, so that every reference
 * kernel the cpu table still uses can be handed the cpu backend unchanged:
 * reference kernels only read `ref.host` (through tsr__ref_error). One
 * backend object exists per init; kernels keep no other state, so any number
 * of threads may run kernels at once (the pool then runs extra callers'
 * work on their own thread). */
#ifndef TSR_CPU_BACKEND_H
#define TSR_CPU_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include <tessera/plugin.h>

#include "backend.h" /* the reference backend's state (plugins/reference) */
#include "cpu_alloc.h"
#include "cpu_pool.h"
#include "cpu_simd.h"

/* How a backend is set up. Zero members mean "decide from the host and the
 * environment" (TESSERA_NUM_THREADS, TESSERA_CPU_ISA, TESSERA_CPU_CACHE_MB). */
typedef struct tsr__cpu_options {
    int threads;              /* our loops and OpenBLAS together */
    int isa;                  /* tsr__cpu_isa + 1; 0: the best the CPU has */
    size_t cache_limit_bytes; /* caching allocator's limit; 0: default */
} tsr__cpu_options;

typedef struct tsr__cpu_backend {
    tsr__ref_backend ref; /* first: reference kernels cast the backend to this */
    const tsr__cpu_simd *simd;
    tsr__cpu_pool *pool;
    tsr__cpu_cache *cache;
    int threads;
    /* The reference table as built, before any slot was overwritten:
     * tsr__cpu_kernel_is_reference compares against it. */
    tsr_kernel_entry *reference_entries;
} tsr__cpu_backend;

/* Reads the options the environment gives (TESSERA_NUM_THREADS,
 * TESSERA_CPU_ISA, TESSERA_CPU_CACHE_MB) into zero members of `options`. */
void tsr__cpu_options_from_env(tsr__cpu_options *options);

/* Creates a backend with explicit options (tests use it to pin the thread
 * count and the SIMD path). Returns TSR_OK or an error after host->set_error. */
int tsr__cpu_backend_create(const tsr_host_api *host, const tsr__cpu_options *options,
                            tsr__cpu_backend **out);
void tsr__cpu_backend_destroy(tsr__cpu_backend *backend);

/* Formats a message for host->set_error (when the host has one) and returns
 * `status`. */
int tsr__cpu_error(const tsr__cpu_backend *backend, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------------------ */
/* The kernel table (kernel_table.c)                                         */
/* ------------------------------------------------------------------------ */

/* Builds the table: the reference backend's complete table, then the cpu
 * kernels written over the slots they implement. On success the backend
 * owns ref.entries and reference_entries. */
int tsr__cpu_kernel_table_build(tsr__cpu_backend *backend);

/* Whether the slot (op, dtype_in, dtype_out) exists and still holds the
 * reference kernel (1), holds a cpu kernel (0), or does not exist (-1). */
int tsr__cpu_kernel_is_reference(const tsr__cpu_backend *backend, int32_t op, int32_t dtype_in,
                                 int32_t dtype_out);

/* ------------------------------------------------------------------------ */
/* Kernels (one file per family)                                             */
/* ------------------------------------------------------------------------ */

int tsr__cpu_kernel_binary(void *backend, const tsr_kernel_args *args);  /* elementwise_binary.c */
int tsr__cpu_kernel_unary(void *backend, const tsr_kernel_args *args);   /* elementwise_unary.c */
int tsr__cpu_kernel_copy(void *backend, const tsr_kernel_args *args);    /* copy.c */
int tsr__cpu_kernel_fill(void *backend, const tsr_kernel_args *args);    /* copy.c */
int tsr__cpu_kernel_reduce(void *backend, const tsr_kernel_args *args);  /* reduce.c */
int tsr__cpu_kernel_matmul(void *backend, const tsr_kernel_args *args);  /* products.c */
int tsr__cpu_kernel_softmax(void *backend, const tsr_kernel_args *args); /* softmax.c */
int tsr__cpu_kernel_pool(void *backend, const tsr_kernel_args *args);    /* pool_planes.c */
int tsr__cpu_kernel_upsample(void *backend, const tsr_kernel_args *args); /* resample.c */
int tsr__cpu_kernel_norm(void *backend, const tsr_kernel_args *args);    /* norm.c */
int tsr__cpu_kernel_sort(void *backend, const tsr_kernel_args *args);    /* sort.c */
int tsr__cpu_kernel_gather(void *backend, const tsr_kernel_args *args);  /* index_gather.c */
/* loss_cross_entropy.c */
int tsr__cpu_kernel_cross_entropy(void *backend, const tsr_kernel_args *args);
/* conv_gemm.c: the float64 convolution rows through im2col and dgemm */
int tsr__cpu_kernel_convolution_gemm(void *backend, const tsr_kernel_args *args);
/* fft.c: fft_c2c, fft_r2c, fft_c2r */
int tsr__cpu_kernel_fft(void *backend, const tsr_kernel_args *args);
/* linalg_lapack.c */
int tsr__cpu_kernel_linalg_cholesky(void *backend, const tsr_kernel_args *args);
int tsr__cpu_kernel_linalg_lu(void *backend, const tsr_kernel_args *args);
int tsr__cpu_kernel_linalg_solve_triangular(void *backend, const tsr_kernel_args *args);
/* linalg_spectral.c */
int tsr__cpu_kernel_linalg_qr(void *backend, const tsr_kernel_args *args);
int tsr__cpu_kernel_linalg_eigh(void *backend, const tsr_kernel_args *args);
int tsr__cpu_kernel_linalg_svd(void *backend, const tsr_kernel_args *args);
int tsr__cpu_kernel_linalg_geqrf(void *backend, const tsr_kernel_args *args);
int tsr__cpu_kernel_linalg_eig(void *backend, const tsr_kernel_args *args);

#endif /* TSR_CPU_BACKEND_H */
