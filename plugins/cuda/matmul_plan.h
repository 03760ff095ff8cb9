/* matmul as cuBLAS calls, planned in plain C (tests/test_cuda_matmul.c
 * runs the plan on the host with an emulated cuBLAS against the reference
 * backend's matmul kernel).
 *
 * cuBLAS is column-major, so row-major out[M, N] = a[M, K] @ b[K, N] is
 * computed as out^T = b^T a^T: cuBLAS's (m, n, k) = (N, M, K), its "A" is b
 * and its "B" is a. A row-major operand with a unit column stride is its
 * transpose stored column-major (op N, ld = row stride); one with a unit
 * row stride is column-major already (op T, ld = column stride); any other
 * operand is packed into contiguous scratch first (the elementwise copy).
 * The output must be op N: when its column stride is not 1 (or it shares
 * a block with a or b) the product goes to contiguous scratch and is copied
 * out. Batch dims (already broadcast, 0 strides allowed) are collapsed; the
 * innermost is cuBLAS's strided batch, the others loop on the host. */
#ifndef TSR_CUDA_MATMUL_PLAN_H
#define TSR_CUDA_MATMUL_PLAN_H

#include <stddef.h>

#include "launch_plan.h"
#include "value.h"

enum { TSR__CU_MM_OUT = 0, TSR__CU_MM_A = 1, TSR__CU_MM_B = 2, TSR__CU_MM_C = 3 };

/* One operand as cuBLAS reads it (or writes it, for the output). */
typedef struct tsr__cu_gemm_operand {
    int pack;           /* copy into contiguous scratch first (the output: compute there) */
    int transpose;      /* cuBLAS op T */
    int64_t ld;         /* leading dimension, in elements */
    int64_t rows, cols; /* the row-major matrix: M x K for a, K x N for b, M x N for out */
} tsr__cu_gemm_operand;

typedef struct tsr__cu_gemm_plan {
    int32_t dtype;
    int64_t m, n, k;                 /* the row-major product's M, N, K */
    int has_c;                       /* c is copied into the output first and scaled by beta */
    tsr__cu_value alpha, beta;       /* in the dtype's category, as the reference rounds them */
    tsr__cu_gemm_operand operand[3]; /* out, a, b */
    /* The batch dims after packing, collapsed: operands out, a, b; strides
     * in elements, relative to each operand's base (scratch when packed). */
    tsr__cu_layout batch;
    int64_t outer_count; /* host-side loop: all collapsed batch dims but the last */
    int64_t inner_count; /* cuBLAS's batchCount */
} tsr__cu_gemm_plan;

/* The dtypes matmul is claimed for (no integers: cuBLAS has no wrapping
 * int64 GEMM). */
int tsr__cu_matmul_supports(int32_t dtype);

/* Checks the call (a, b [, c] and out of one dtype, [..., M, K] @ [..., K,
 * N] with the output's batch dims, attrs {alpha, beta}, mode 1 with c) and
 * plans it. `out_shares_input`: the output must go through scratch (it
 * shares a block with a or b, or with c in another layout). Returns
 * TSR_OK or a TSR_ERR_* with `message` naming matmul. */
int tsr__cu_gemm_plan_init(tsr__cu_gemm_plan *plan, const tsr_kernel_args *args,
                           int out_shares_input, char *message, size_t capacity);

/* Element offsets of operands out, a, b for host loop index `outer`, and
 * the inner batch strides (cuBLAS's strideC, strideA, strideB come from
 * plan->batch: operand k's stride along the last collapsed dim). */
void tsr__cu_gemm_outer_offsets(const tsr__cu_gemm_plan *plan, int64_t outer, int64_t *offsets);
int64_t tsr__cu_gemm_inner_stride(const tsr__cu_gemm_plan *plan, int operand);

#endif
