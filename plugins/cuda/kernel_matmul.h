/* matmul through cuBLAS (kernel_matmul.c). */
#ifndef TSR_CUDA_KERNEL_MATMUL_H
#define TSR_CUDA_KERNEL_MATMUL_H

#include <tessera/plugin.h>

struct tsr__cu_backend;
int tsr__cu_kernel_matmul(void *backend, const tsr_kernel_args *args);
/* Destroys the handle and closes the library, if matmul opened them. */
void tsr__cu_cublas_shutdown(struct tsr__cu_backend *b);

#endif
