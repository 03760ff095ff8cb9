/* Shared machinery of the elementwise ops (internal). */
#ifndef TSR_CORE_ELEMENTWISE_H
#define TSR_CORE_ELEMENTWISE_H

#include "tensor/tensor.h"

/* The computation dtype and output dtype of a binary op on a and b, with
 * PyTorch's op-specific rules and errors. */
tsr_status tsr__binary_dtypes(tsr_op op, tsr_operand a, tsr_operand b, tsr_dtype *compute,
                              tsr_dtype *result);

/* Converts each operand to `compute`, broadcasts them all together and runs
 * the op into a new tensor of `result` dtype. */
tsr_status tsr__elementwise(tsr_op op, const char *name, const tsr_operand *operands, int count,
                            tsr_dtype compute, tsr_dtype result, const void *attrs,
                            tsr_tensor **out);

/* As tsr__elementwise, but operand i keeps dtype kept[i] unless that is
 * TSR_DTYPE_INFER (where's condition stays bool). */
tsr_status tsr__elementwise_kept(tsr_op op, const char *name, const tsr_operand *operands,
                                 int count, const tsr_dtype *kept, tsr_dtype compute,
                                 tsr_dtype result, const void *attrs, tsr_tensor **out);

/* Runs op with operands prepared for self's shape and writes self in place,
 * converting from `compute` to self's dtype where they differ. */
tsr_status tsr__elementwise_into(tsr_op op, const char *name, tsr_tensor *self,
                                 const tsr_operand *operands, int count, tsr_dtype compute,
                                 const void *attrs);

/* PyTorch's checks before an in-place op writes self: the result dtype's
 * category may not exceed self's, the other operands may not broadcast self
 * to a larger shape, self may not have internal overlap, and no operand may
 * partly overlap self. */
tsr_status tsr__inplace_check(const char *name, const tsr_tensor *self, tsr_dtype result,
                              const tsr_operand *others, int count);

/* Validates alpha for the computation dtype and converts it to the kind the
 * kernels read (int for integers, bool for bool, float or complex otherwise). */
tsr_status tsr__normalize_alpha(const char *name, tsr_scalar alpha, tsr_dtype compute,
                                tsr_scalar *out);

/* tsr_unary with attributes (NULL: PyTorch's defaults), for the ops that
 * take parameters (gelu, softplus, round's decimals, ...). */
tsr_status tsr__unary_with_attrs(tsr_op op, const tsr_tensor *t, const tsr_elementwise_attrs *attrs,
                                 tsr_tensor **out);

/* self.OP_() for a unary op with an in-place form, with attributes (NULL:
 * PyTorch's defaults) and the checks of tsr__inplace_check. */
tsr_status tsr__unary_inplace(tsr_op op, tsr_tensor *self, const tsr_elementwise_attrs *attrs);

/* clamp's three operands (absent bounds repeat t), mode bits and result dtype. */
tsr_status tsr__clamp_operands(const char *name, const tsr_tensor *t, const tsr_operand *min,
                               const tsr_operand *max, tsr_operand *operands, int *mode,
                               tsr_dtype *result);

/* Autograd records of the second elementwise family (grad_elementwise2.c).
 * has: whether `op` has a formula there (the caller then records with
 * tsr__grad_record_elementwise2 instead of the foundation's recorders).
 * record: after `out = op(operands...)` ran; operands are the op's real
 * arguments (a Python-scalar operand has no tensor), attrs its parameters. */
bool tsr__grad_elementwise2_has(tsr_op op);
tsr_status tsr__grad_record_elementwise2(tsr_op op, const tsr_operand *operands, int count,
                                         const tsr_elementwise_attrs *attrs, tsr_tensor *out);

#endif
