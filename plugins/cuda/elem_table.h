/* Which elementwise ops the CUDA backend claims, for which dtypes, and the
 * host side of a call: the attributes bound into the kernel's constants.
 * Plain C (no CUDA), unit-tested on the host (tests/test_cuda_elementwise.c
 * checks every claimed (op, dtype) against the reference backend). */
#ifndef TSR_CUDA_ELEM_TABLE_H
#define TSR_CUDA_ELEM_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "elem_ops.h"

/* The output dtype of an op, given its computation dtype. */
enum { TSR__CU_RESULT_SAME, TSR__CU_RESULT_BOOL, TSR__CU_RESULT_REAL };

typedef struct tsr__cu_elem_op {
    int32_t op;
    int32_t arity;   /* inputs; 0 for fill */
    int32_t result;  /* TSR__CU_RESULT_* */
    uint32_t dtypes; /* TSR__CU_BIT mask of the computation dtypes claimed */
} tsr__cu_elem_op;

/* The op's PyTorch name ("add"), "?" for an unknown id. */
const char *tsr__cu_op_name(int32_t op);

/* Every claimed op, `index` from 0 until NULL. */
const tsr__cu_elem_op *tsr__cu_elem_op_at(size_t index);
/* The entry for `op`, or NULL when the backend has no elementwise kernel for it. */
const tsr__cu_elem_op *tsr__cu_elem_op_find(int32_t op);
int32_t tsr__cu_elem_result_dtype(const tsr__cu_elem_op *op, int32_t dtype);

/* The scalar converted to `dtype` as copy converts it, and widened again
 * (PyTorch's Scalar::to<T>()). */
tsr__cu_value tsr__cu_scalar_as_dtype(const tsr_scalar *scalar, int32_t dtype);

/* Fills `ctx` for one call of `op` on computation dtype `dtype` from its
 * attributes (NULL or a tsr_elementwise_attrs block of any struct_size).
 * Sets *check_zero_divisor when input 1 must be scanned for zeros first
 * (integer division). Returns TSR_OK, or a TSR_ERR_* with `message` set. */
int tsr__cu_elem_bind(const tsr__cu_elem_op *op, int32_t dtype, const void *attrs,
                      tsr__cu_elem_ctx *ctx, int *check_zero_divisor, char *message,
                      size_t capacity);

#endif
