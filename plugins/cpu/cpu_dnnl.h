/* oneDNN (dnnl 2.x C API) in the cpu backend: the bfloat16 matrix product.
 *
 * oneDNN is loaded on the first bfloat16 product, not with the plugin
 * (dlopen of libdnnl.so.2, like OpenBLAS in blas.c): its start-up and its
 * OpenMP runtime cost nothing to a program that never multiplies bfloat16
 * matrices. When it cannot be loaded, or rejects a call's layout, the call
 * goes to the reference kernel, which gives the same values within
 * bfloat16's tolerance (both accumulate wider than bfloat16 and round once).
 *
 * Threads: oneDNN runs its own OpenMP threads. Before every primitive is
 * created or run, the calling thread's OpenMP count is set to the backend's
 * thread count (TESSERA_NUM_THREADS policy; one thread below 64^3), so
 * oneDNN uses exactly the cores the pool would have used; the pool's workers
 * sleep during the call, and libgomp's sleep between calls (dnnl_cache.c
 * asks for OMP_WAIT_POLICY=passive unless the process chose a policy). */
#ifndef TSR_CPU_DNNL_H
#define TSR_CPU_DNNL_H

#include <tessera/plugin.h>

/* The bfloat16 row of matmul (see plugin.h's MATMUL comment). */
int tsr__cpu_kernel_matmul_dnnl(void *backend, const tsr_kernel_args *args);

/* The float32 and bfloat16 rows of convolution, convolution_backward_data
 * and convolution_backward_weight (plugin.h's TSR_OP_LIST_CONV), through
 * oneDNN's convolution primitives (conv_dnnl.c). */
int tsr__cpu_kernel_convolution_dnnl(void *backend, const tsr_kernel_args *args);
/* The implementation that ran this thread's last convolution ("" when it
 * went to the reference kernel). For tests. */
const char *tsr__cpu_dnnl_conv_last_impl(void);

/* Whether oneDNN could be loaded (loads it on the first call). */
int tsr__cpu_dnnl_available(void);

/* The oneDNN implementation that ran the last product on this thread
 * ("brg:avx512_core_bf16", "ref:any"), or "" when the last bfloat16 product
 * went to the reference kernel. For tests. */
const char *tsr__cpu_dnnl_last_impl(void);

#endif /* TSR_CPU_DNNL_H */
