/* Launch planning in plain C, unit-tested without a device
 * (tests/test_cuda_launch_plan.c): grid sizes, and the fixed combination
 * order of docs/determinism.md that the reduction kernels follow. */
#ifndef TSR_CUDA_LAUNCH_PLAN_H
#define TSR_CUDA_LAUNCH_PLAN_H

#include <stdint.h>

#include <tessera/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    TSR__CU_THREADS = 256,      /* threads per block of the elementwise-style kernels */
    TSR__CU_MAX_BLOCKS = 65535, /* a grid-stride loop covers what lies beyond */
    TSR__CU_TERM_BLOCK = 1024,  /* docs/determinism.md: terms per block */
    TSR__CU_LANES = 16,         /* ... and lanes per block */
};

typedef struct tsr__cu_grid {
    uint32_t blocks, threads;
} tsr__cu_grid;

/* One thread per element, grid-stride beyond TSR__CU_MAX_BLOCKS blocks. */
tsr__cu_grid tsr__cu_plan_elementwise(int64_t count);
/* How many 1024-term blocks an output of `terms` terms has (0 for none). */
int64_t tsr__cu_term_blocks(int64_t terms);

/* The layout of an elementwise launch: operand 0 is the output, 1.. the
 * inputs, all of the output's shape (broadcast inputs have 0 strides).
 * Strides in elements, never negative. */
enum { TSR__CU_MAX_OPERANDS = 4, TSR__CU_VEC = 4 /* elements per thread, contiguous path */ };
typedef struct tsr__cu_layout {
    int32_t ndim, operands;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR__CU_MAX_OPERANDS][TSR_MAX_DIMS];
} tsr__cu_layout;

/* Fewest dims with the same element order: drops size-1 dims and merges a
 * dim into the next inner one where every operand's stride allows
 * (stride[d] == stride[d+1] * shape[d+1]). An empty or 0-d layout becomes
 * ndim 0 (one element when no extent is 0). */
void tsr__cu_collapse(tsr__cu_layout *layout);
/* Elements of the layout (0 when an extent is 0). */
int64_t tsr__cu_layout_count(const tsr__cu_layout *layout);
/* Nonzero when the element count and every operand's largest element
 * offset are below 2^31, so the kernel may index in 32 bits. */
int tsr__cu_layout_fits_int32(const tsr__cu_layout *layout);
/* Nonzero when, after collapsing, every operand has stride 1 (inputs may
 * also have stride 0, a broadcast scalar) over at most one dim, and every
 * stride-1 operand's address is a multiple of TSR__CU_VEC * its element
 * size: the vectorised path's condition. */
int tsr__cu_layout_vectorizable(const tsr__cu_layout *layout, const uintptr_t *addresses,
                                const int32_t *element_sizes);

/* The combination order, emulated on the host with any combine function:
 * what the kernels compute on the device, in the same order. `lane_sum`
 * folds one block of terms in lane order (16 lanes, then halving);
 * `tree_sum` combines block values by stride doubling (v[i] = v[i] + v[i+s]
 * for i a multiple of 2s), which is determinism.md's tree for any count. */
typedef uint64_t (*tsr__cu_combine_fn)(uint64_t left, uint64_t right);
uint64_t tsr__cu_lane_sum(const uint64_t *terms, int64_t count, uint64_t identity,
                          tsr__cu_combine_fn combine);
/* Overwrites values[0..count); returns the result in values[0]. */
uint64_t tsr__cu_tree_sum(uint64_t *values, int64_t count, tsr__cu_combine_fn combine);

#ifdef __cplusplus
}
#endif

#endif
