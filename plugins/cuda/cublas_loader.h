/* cuBLAS, opened at the first matmul (dlopen("libcublas.so.13")), so that
 * the plugin loads and everything but matmul works on a machine with a
 * driver but without the toolkit's libraries. Only cuBLAS's types come from
 * its header; no symbol of it is linked. */
#ifndef TSR_CUDA_CUBLAS_LOADER_H
#define TSR_CUDA_CUBLAS_LOADER_H

#include <stddef.h>

#include <cublas_api.h>

typedef struct tsr__cu_cublas {
    void *library;
    cublasStatus_t (*create)(cublasHandle_t *handle);
    cublasStatus_t (*destroy)(cublasHandle_t handle);
    cublasStatus_t (*set_stream)(cublasHandle_t handle, cudaStream_t stream);
    cublasStatus_t (*gemm_strided_batched)(cublasHandle_t handle, cublasOperation_t transa,
                                           cublasOperation_t transb, int m, int n, int k,
                                           const void *alpha, const void *a, cudaDataType a_type,
                                           int lda, long long stride_a, const void *b,
                                           cudaDataType b_type, int ldb, long long stride_b,
                                           const void *beta, void *c, cudaDataType c_type, int ldc,
                                           long long stride_c, int batch_count,
                                           cublasComputeType_t compute, cublasGemmAlgo_t algo);
    const char *(*status_string)(cublasStatus_t status);
} tsr__cu_cublas;

/* The library's soname, tried first through the loader's search path. */
#define TSR__CU_CUBLAS_SONAME "libcublas.so.13"

/* Opens `name` (NULL: the soname, then $CUDA_HOME/lib64 and
 * /usr/local/cuda/lib64) and resolves every function. Returns 0, or -1
 * with `message` naming the library and dlopen's or dlsym's reason. Makes
 * no CUDA call. */
int tsr__cu_cublas_open(const char *name, tsr__cu_cublas *lib, char *message, size_t capacity);
/* Forgets the functions; the library itself stays loaded (see the .c). */
void tsr__cu_cublas_close(tsr__cu_cublas *lib);

/* TESSERA_CUDA_TF32=1 lets float32 products use TF32 tensor cores; off by
 * default, as PyTorch's torch.backends.cuda.matmul.allow_tf32. */
int tsr__cu_tf32_enabled(void);

#endif
