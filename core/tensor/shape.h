/* Shape arithmetic: element counts, strides, broadcasting, dim wrapping. */
#ifndef TSR_CORE_SHAPE_H
#define TSR_CORE_SHAPE_H

#include "tessera/tessera.h"

/* Checks rank, non-negative sizes and that the element count (and its byte
 * size for `elem_size`) fits in int64. `op` and `arg` name the caller. */
tsr_status tsr__check_shape(const char *op, const char *arg, int ndim, const int64_t *shape,
                            size_t elem_size, int64_t *numel);
int64_t tsr__numel(int ndim, const int64_t *shape);
void tsr__contiguous_strides(int ndim, const int64_t *shape, int64_t *strides);
bool tsr__is_contiguous(int ndim, const int64_t *shape, const int64_t *strides);
/* Broadcasts two shapes as NumPy and PyTorch do; `out` may alias an input. */
tsr_status tsr__broadcast_shapes(const char *op, int ndim_a, const int64_t *a, int ndim_b,
                                 const int64_t *b, int *ndim_out, int64_t *out);
/* Maps a possibly negative dim into [0, ndim); ndim 0 accepts -1 and 0 when
 * `allow_scalar` is set (PyTorch's wrap_dim on 0-d tensors). */
tsr_status tsr__wrap_dim(const char *op, const char *arg, int64_t dim, int ndim, int *out);
/* Formats a shape as "[2, 3]" into buf. */
const char *tsr__shape_str(int ndim, const int64_t *shape, char *buf, size_t cap);

#endif
