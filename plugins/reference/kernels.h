/* Kernels that are not table-driven elementwise ops: they move or pick
 * whole elements instead of computing on widened values. */
#ifndef TSR_REFERENCE_KERNELS_H
#define TSR_REFERENCE_KERNELS_H

#include <tessera/plugin.h>

/* copy: converts input 0 into the output's dtype (copy.c). */
int tsr__ref_kernel_copy(void *backend, const tsr_kernel_args *args);
/* fill: writes attrs scalars[0], converted as copy would, everywhere (copy.c). */
int tsr__ref_kernel_fill(void *backend, const tsr_kernel_args *args);
/* where: inputs (condition bool, a, b), a and b in the output's dtype (select.c). */
int tsr__ref_kernel_where(void *backend, const tsr_kernel_args *args);

#endif /* TSR_REFERENCE_KERNELS_H */
