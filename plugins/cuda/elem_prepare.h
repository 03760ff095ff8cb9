/* Elementwise calls from kernel arguments to planned kernel parameters,
 * in plain C: the descriptors checked (errors through the host, naming the
 * op), the attributes bound, the dims collapsed, the path and the index
 * width chosen. kernel_elementwise.c queues what these build; the host
 * test runs it on host memory (descriptor data are allocator blocks). */
#ifndef TSR_CUDA_ELEM_PREPARE_H
#define TSR_CUDA_ELEM_PREPARE_H

#include <tessera/plugin.h>

#include "elem_params.h"

/* The operands of a call with `arity` inputs and one output of the same
 * shape (inputs broadcast with 0 strides); the layout is not yet planned. */
int tsr__cu_elem_prepare(const tsr_host_api *host, const tsr_kernel_args *args, int32_t arity,
                         tsr__cu_elem_params *p);
/* Collapses the layout and chooses the path and the index width. */
void tsr__cu_elem_plan(tsr__cu_elem_params *p);

/* copy between any two dtypes; where (bool condition, raw values); fill
 * and every op of elem_table.c (*check_zero: scan input 1 for zeros
 * first). Each returns TSR_OK with `p` planned, or a reported error. */
int tsr__cu_elem_build_copy(const tsr_host_api *host, const tsr_kernel_args *args,
                            tsr__cu_elem_params *p);
int tsr__cu_elem_build_where(const tsr_host_api *host, const tsr_kernel_args *args,
                             tsr__cu_elem_params *p);
int tsr__cu_elem_build_op(const tsr_host_api *host, const tsr_kernel_args *args,
                          tsr__cu_elem_params *p, int *check_zero);

/* A same-dtype copy between two layouts of `shape` (strides in elements),
 * planned. */
void tsr__cu_elem_copy_params(int32_t dtype, int32_t ndim, const int64_t *shape, char *dst,
                              const int64_t *dst_strides, const char *src,
                              const int64_t *src_strides, tsr__cu_elem_params *p);
/* The divisor (input 1) alone, for the zero scan. */
void tsr__cu_elem_divisor_params(const tsr_kernel_args *args, tsr__cu_elem_params *p);

#endif
