/* An N-d walk over the elements of one output and its inputs.
 *
 * Every kernel shares it: the output's shape is walked in row-major order
 * and each operand advances by its own strides, which may be zero
 * (broadcast) or negative. The innermost dimension is handed to a row
 * function as a pointer, a byte step and a count per operand, so element
 * loops stay free of index arithmetic. */
#ifndef TSR_REFERENCE_STRIDED_LOOP_H
#define TSR_REFERENCE_STRIDED_LOOP_H

#include <stdint.h>

#include <tessera/plugin.h>

/* The output plus up to three inputs (where, clamp). */
#define TSR__REF_LOOP_MAX_OPERANDS 4

typedef struct tsr__ref_loop {
    int32_t operands;
    int32_t outer_ndim; /* dimensions walked by the counter: all but the innermost */
    int64_t numel;
    int64_t inner_size;
    int64_t shape[TSR_MAX_DIMS];
    char *base[TSR__REF_LOOP_MAX_OPERANDS];
    int64_t inner_step[TSR__REF_LOOP_MAX_OPERANDS]; /* bytes */
    int64_t step[TSR__REF_LOOP_MAX_OPERANDS][TSR_MAX_DIMS];
} tsr__ref_loop;

/* Processes `n` elements: element i of operand k is at ptrs[k] + i * steps[k]
 * (index the pointer rather than advancing it, so it never leaves the
 * operand's memory). Returns 0 to continue or a status to stop with. */
typedef int (*tsr__ref_row_fn)(void *context, char *const *ptrs, const int64_t *steps, int64_t n);

/* Prepares a walk over `out` (operand 0) and `inputs` (operands 1..).
 * Checks what the loop relies on: valid dtypes, 0 <= ndim <= TSR_MAX_DIMS,
 * non-negative extents, inputs of the output's shape, and non-NULL data
 * unless the tensor is empty. Returns TSR_OK, TSR_ERR_SHAPE,
 * TSR_ERR_DTYPE, TSR_ERR_OVERFLOW or TSR_ERR_INVALID_ARGUMENT. */
int tsr__ref_loop_init(tsr__ref_loop *loop, const tsr_tensor_desc *out,
                       const tsr_tensor_desc *inputs, int32_t num_inputs);

/* Calls `row` for every innermost row; nothing for an empty tensor, one
 * row of one element for a 0-d tensor. Returns 0 or the row's status. */
int tsr__ref_loop_run(const tsr__ref_loop *loop, tsr__ref_row_fn row, void *context);

#endif /* TSR_REFERENCE_STRIDED_LOOP_H */
