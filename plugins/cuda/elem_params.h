/* What the elementwise kernels get, by value, and what one thread of them
 * does, written once for the device and the host (TSR_CU_HD): the kernels
 * in elementwise.cu are grid-stride loops around tsr__cu_elem_strided_one
 * and tsr__cu_elem_vector_group, and tests/test_cuda_elementwise_kernel.c
 * runs the same two functions over every index on the host. Operand 0 is
 * the output. */
#ifndef TSR_CUDA_ELEM_PARAMS_H
#define TSR_CUDA_ELEM_PARAMS_H

#include "elem_ops.h"
#include "launch_plan.h"

#ifdef __cplusplus
#define TSR__CU_ALIGN16 alignas(16)
#else
#define TSR__CU_ALIGN16 _Alignas(16)
#endif

typedef struct tsr__cu_elem_params {
    tsr__cu_layout layout; /* collapsed */
    char *data[TSR__CU_MAX_OPERANDS];
    int32_t dtype[TSR__CU_MAX_OPERANDS];
    int32_t size[TSR__CU_MAX_OPERANDS];
    int32_t arity;
    int32_t out_category;    /* what tsr__cu_elem_apply returns: tsr__cu_category */
    uint32_t raw_mask;       /* bit k: operand k moves as raw bits (where, equal-dtype copy) */
    uint32_t broadcast_mask; /* bit k: input k is one element (vectorised path only) */
    int32_t use_int32;       /* offsets fit: index arithmetic in 32 bits */
    int32_t vectorized;      /* the contiguous path (tsr__cu_layout_vectorizable) */
    int64_t count;
    tsr__cu_elem_ctx ctx;
} tsr__cu_elem_params;

/* Element offsets of every operand for linear index `i` (C order). The
 * width is uniform across a launch, so the branch costs nothing, and
 * 32-bit division is several times cheaper on the device. */
TSR_CU_HD static inline void tsr__cu_elem_offsets(const tsr__cu_elem_params *p, int64_t i,
                                                  int64_t *offsets)
{
    const tsr__cu_layout *l = &p->layout;
    if (p->use_int32) {
        uint32_t linear = (uint32_t)i, off[TSR__CU_MAX_OPERANDS] = {0, 0, 0, 0};
        for (int32_t d = l->ndim - 1; d >= 0; d--) {
            uint32_t extent = (uint32_t)l->shape[d], index = linear % extent;
            linear /= extent;
            for (int k = 0; k <= p->arity; k++)
                off[k] += index * (uint32_t)l->strides[k][d];
        }
        for (int k = 0; k <= p->arity; k++)
            offsets[k] = off[k];
        return;
    }
    for (int k = 0; k <= p->arity; k++)
        offsets[k] = 0;
    for (int32_t d = l->ndim - 1; d >= 0; d--) {
        int64_t index = i % l->shape[d];
        i /= l->shape[d];
        for (int k = 0; k <= p->arity; k++)
            offsets[k] += index * l->strides[k][d];
    }
}

TSR_CU_HD static inline void tsr__cu_elem_one(const tsr__cu_elem_params *p, char *out,
                                              const char *const *in_ptrs)
{
    tsr__cu_value in[TSR__CU_MAX_OPERANDS - 1];
    for (int k = 1; k <= p->arity; k++)
        in[k - 1] = (p->raw_mask >> k) & 1 ? tsr__cu_load_raw(p->size[k], in_ptrs[k - 1])
                                           : tsr__cu_load(p->dtype[k], in_ptrs[k - 1]);
    tsr__cu_value v = tsr__cu_elem_apply(&p->ctx, in);
    if (p->raw_mask & 1)
        tsr__cu_store_raw(p->size[0], out, v);
    else
        tsr__cu_store(p->dtype[0], (tsr__cu_category)p->out_category, out, v);
}

/* The strided path: element i. */
TSR_CU_HD static inline void tsr__cu_elem_strided_one(const tsr__cu_elem_params *p, int64_t i)
{
    int64_t off[TSR__CU_MAX_OPERANDS];
    tsr__cu_elem_offsets(p, i, off);
    const char *in_ptrs[TSR__CU_MAX_OPERANDS - 1];
    for (int k = 1; k <= p->arity; k++)
        in_ptrs[k - 1] = p->data[k] + off[k] * p->size[k];
    tsr__cu_elem_one(p, p->data[0] + off[0] * p->size[0], in_ptrs);
}

/* Moves TSR__CU_VEC elements (4 to 64 bytes, aligned to that size) in as
 * few words of up to 16 bytes as it takes. */
TSR_CU_HD static inline void tsr__cu_move_vector(void *dst, const void *src, int bytes)
{
#ifdef __CUDA_ARCH__
    switch (bytes) {
    case 4:
        *(uint32_t *)dst = *(const uint32_t *)src;
        break;
    case 8:
        *(uint2 *)dst = *(const uint2 *)src;
        break;
    default:
        for (int w = 0; w < bytes / 16; w++)
            ((uint4 *)dst)[w] = ((const uint4 *)src)[w];
        break;
    }
#else
    memcpy(dst, src, (size_t)bytes);
#endif
}

/* How many groups of TSR__CU_VEC elements the vectorised path runs: one
 * per full group, and one more for the tail (possibly empty). */
TSR_CU_HD static inline int64_t tsr__cu_elem_vector_groups(const tsr__cu_elem_params *p)
{
    return p->count / TSR__CU_VEC + 1;
}

/* The vectorised path: group g, elements [4g, 4g + 4), read with one vector
 * load per stride-1 input into a local buffer, decoded there, written with
 * one vector store; a broadcast input (stride 0) is read in place. The last
 * group is the tail of fewer than 4 elements, element by element. */
TSR_CU_HD static inline void tsr__cu_elem_vector_group(const tsr__cu_elem_params *p, int64_t g)
{
    const int64_t first = g * TSR__CU_VEC;
    const char *in_ptrs[TSR__CU_MAX_OPERANDS - 1];
    if (g == p->count / TSR__CU_VEC) {
        for (int64_t i = first; i < p->count; i++) {
            for (int k = 1; k <= p->arity; k++)
                in_ptrs[k - 1] = p->data[k] + ((p->broadcast_mask >> k) & 1 ? 0 : i * p->size[k]);
            tsr__cu_elem_one(p, p->data[0] + i * p->size[0], in_ptrs);
        }
        return;
    }
    struct {
        TSR__CU_ALIGN16 unsigned char bytes[TSR__CU_VEC * 16]; /* uint4 moves need 16 */
    } buffer[TSR__CU_MAX_OPERANDS];
    for (int k = 1; k <= p->arity; k++)
        if (!((p->broadcast_mask >> k) & 1))
            tsr__cu_move_vector(buffer[k].bytes, p->data[k] + first * p->size[k],
                                TSR__CU_VEC * p->size[k]);
    for (int j = 0; j < TSR__CU_VEC; j++) {
        for (int k = 1; k <= p->arity; k++)
            in_ptrs[k - 1] = (p->broadcast_mask >> k) & 1
                                 ? p->data[k]
                                 : (const char *)buffer[k].bytes + j * p->size[k];
        tsr__cu_elem_one(p, (char *)buffer[0].bytes + j * p->size[0], in_ptrs);
    }
    tsr__cu_move_vector(p->data[0] + first * p->size[0], buffer[0].bytes, TSR__CU_VEC * p->size[0]);
}

#endif
