/* The CUDA backend's state: one device, one stream, two pools, the fences. */
#ifndef TSR_CUDA_BACKEND_H
#define TSR_CUDA_BACKEND_H

#include <pthread.h>
#include <stdint.h>

#include <cuda_runtime_api.h>
#include <tessera/plugin.h>

#include "allocator.h"
#include "cublas_loader.h"

enum { TSR__CU_FENCE_RING = 64 };

/* Stream positions: every recorded event gets the next serial; `completed`
 * is the last serial whose event has passed. */
struct tsr__cu_fences {
    cudaEvent_t events[TSR__CU_FENCE_RING];
    uint64_t serials[TSR__CU_FENCE_RING];
    int head, count;
    uint64_t next, completed;
};

struct tsr__cu_backend {
    const tsr_host_api *host;
    pthread_mutex_t lock;
    int device;
    char name[512];
    cudaStream_t stream;
    struct tsr__cu_fences fences;
    tsr__cu_allocator device_pool; /* stream-ordered */
    tsr__cu_allocator pinned_pool; /* host-visible: fenced */
    int *flag_device;              /* one int: the divisor scan's answer (kernel_elementwise.c) */
    int *flag_host;                /* pinned */
    tsr__cu_cublas *cublas;        /* NULL until the first matmul (kernel_matmul.c) */
    cublasHandle_t cublas_handle;  /* on `stream` */
    int tf32;                      /* TESSERA_CUDA_TF32=1, read when cuBLAS is opened */
    tsr_kernel_entry *kernels;
    size_t kernel_count;
};

/* device.c */
int tsr__cu_probe_device(char *reason, size_t capacity, int *device);
int tsr__cu_error(const tsr_host_api *host, cudaError_t err, const char *what);
/* memory.c */
int tsr__cu_memory_init(struct tsr__cu_backend *b, int caching);
void tsr__cu_memory_shutdown(struct tsr__cu_backend *b);
int tsr__cu_fence_record(struct tsr__cu_backend *b, uint64_t *serial);
uint64_t tsr__cu_fence_poll(struct tsr__cu_backend *b);
int tsr__cu_wait_all(struct tsr__cu_backend *b);
/* kernel_table.c */
int tsr__cu_kernel_table_build(struct tsr__cu_backend *b);

#endif
