/* The elementwise family's records, used by the other families' ops and
 * in-place forms (internal). */
#ifndef TSR_CORE_OPS_ELEMENTWISE_GRAD_H
#define TSR_CORE_OPS_ELEMENTWISE_GRAD_H

#include "autograd/graph.h"

/* ---- records of the foundation's ops (elementwise_grad.c, views_grad.c) - */

tsr_status tsr__grad_record_binary(tsr_op op, tsr_operand a, tsr_operand b,
                                   const tsr_elementwise_attrs *attrs, tsr_tensor *out);
tsr_status tsr__grad_record_unary(tsr_op op, const tsr_tensor *t, int mode, tsr_tensor *out);
tsr_status tsr__grad_record_where(const tsr_tensor *condition, tsr_operand a, tsr_operand b,
                                  tsr_tensor *out);
/* clamp's operands as tsr__clamp_operands made them (x, min, max) and mode. */
tsr_status tsr__grad_record_clamp(const tsr_operand *operands, int mode, tsr_tensor *out);
/* Records self.op_(others) after it ran, from what begin prepared. */
tsr_status tsr__grad_record_inplace(tsr_op op, tsr__inplace *ip, const void *attrs,
                                    tsr_tensor *self);
/* Whether in-place op's formula reads self's old value. */
bool tsr__grad_inplace_needs_value(tsr_op op, const tsr_operand *others, int count);

#endif
