/* Recording in-place ops for autograd: what every in-place op of every
 * family calls before and after it writes self (internal). */
#ifndef TSR_CORE_OPS_INPLACE_H
#define TSR_CORE_OPS_INPLACE_H

#include "autograd/graph.h"

/* Before an in-place op on self with these other operands: refuses what
 * autograd cannot record (a leaf that requires grad, a view of one) and
 * prepares the record. `needs_value` says whether the gradient formula reads self's
 * old value (which is then copied). */
tsr_status tsr__inplace_begin(const char *name, tsr_tensor *self, const tsr_operand *others,
                              int count, bool needs_value, tsr__inplace *ip);
/* The other operands to run the op with (self-aliasing ones replaced). */
const tsr_operand *tsr__inplace_operands(const tsr__inplace *ip, const tsr_operand *others);
/* Releases what begin kept; call whatever happened. */
void tsr__inplace_end(tsr__inplace *ip);

#endif
