/* tessera: Views: view, reshape, transpose, permute, expand, slice, squeeze, diagonal, ...
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_VIEWS_H
#define TESSERA_VIEWS_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Views share storage with their base. Dims may be negative (counted from
 * the end), as in PyTorch. */
TSR_API tsr_status tsr_view(const tsr_tensor *t, int ndim, const int64_t *shape,
                            tsr_tensor **out); /* one size may be -1 */
TSR_API tsr_status tsr_reshape(const tsr_tensor *t, int ndim, const int64_t *shape,
                               tsr_tensor **out); /* a view when possible, else a copy */
TSR_API tsr_status tsr_transpose(const tsr_tensor *t, int64_t dim0, int64_t dim1,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_permute(const tsr_tensor *t, int ndim, const int64_t *dims,
                               tsr_tensor **out);
TSR_API tsr_status tsr_expand(const tsr_tensor *t, int ndim, const int64_t *sizes,
                              tsr_tensor **out); /* -1 keeps a size */
TSR_API tsr_status tsr_narrow(const tsr_tensor *t, int64_t dim, int64_t start, int64_t length,
                              tsr_tensor **out);
/* t[..., start:end:step, ...] along dim, with Python's clamping of start/end. */
TSR_API tsr_status tsr_slice(const tsr_tensor *t, int64_t dim, int64_t start, int64_t end,
                             int64_t step, tsr_tensor **out);
TSR_API tsr_status tsr_squeeze(const tsr_tensor *t, tsr_tensor **out); /* every size-1 dim */
TSR_API tsr_status tsr_squeeze_dim(const tsr_tensor *t, int64_t dim, tsr_tensor **out);
TSR_API tsr_status tsr_unsqueeze(const tsr_tensor *t, int64_t dim, tsr_tensor **out);
TSR_API tsr_status tsr_diagonal(const tsr_tensor *t, int64_t offset, int64_t dim1, int64_t dim2,
                                tsr_tensor **out);
TSR_API tsr_status tsr_flatten(const tsr_tensor *t, int64_t start_dim, int64_t end_dim,
                               tsr_tensor **out);
TSR_API tsr_status tsr_unflatten(const tsr_tensor *t, int64_t dim, int nsizes,
                                 const int64_t *sizes, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_VIEWS_H */
