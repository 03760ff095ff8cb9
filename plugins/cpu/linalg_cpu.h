/* What the cpu backend's two linalg files share (linalg_lapack.c,
 * linalg_spectral.c): moving one matrix between its strided home and a
 * column-major scratch of its own dtype, as LAPACK computes. */
#ifndef TSR_CPU_LINALG_CPU_H
#define TSR_CPU_LINALG_CPU_H

#include <stddef.h>

#include "linalg.h" /* the reference's operand walk (plugins/reference) */

/* Matrix `index` of the batch into dst (rows x cols, column-major), `elem`
 * bytes an element, copied bit for bit. */
void tsr__cpu_linalg_gather(const tsr__ref_linalg_operand *op, int64_t index, size_t elem,
                            char *dst);
/* The reverse: src (column-major) into matrix `index`. */
void tsr__cpu_linalg_scatter(const tsr__ref_linalg_operand *op, int64_t index, size_t elem,
                             const char *src);

#endif
