/* tessera: Rearranging copies: flip, roll, repeat, tile, repeat_interleave, pad,
 * tril, triu.
 * Included by tessera/indexing.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_REARRANGE_H
#define TESSERA_REARRANGE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* F.pad modes. */
enum { TSR_PAD_CONSTANT = 0, TSR_PAD_REFLECT = 1, TSR_PAD_REPLICATE = 2, TSR_PAD_CIRCULAR = 3 };

/* torch.flip(t, dims): a copy with the order reversed along each of the
 * ndims (distinct) dims. */
TSR_API tsr_status tsr_flip(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out);
/* torch.roll(t, shifts, dims): elements shifted cyclically by shifts[i] along
 * dims[i]; with ndims 0 (dims=None) t is rolled as if flattened by the one
 * shift given. */
TSR_API tsr_status tsr_roll(const tsr_tensor *t, const int64_t *shifts, int nshifts,
                            const int64_t *dims, int ndims, tsr_tensor **out);
/* Tensor.repeat(repeats): t tiled repeats[i] times along dim i; nrepeats must
 * be at least t's rank (t gains leading dims). */
TSR_API tsr_status tsr_repeat(const tsr_tensor *t, const int64_t *repeats, int nrepeats,
                              tsr_tensor **out);
/* torch.tile(t, dims): repeat, with dims padded with leading ones to t's rank. */
TSR_API tsr_status tsr_tile(const tsr_tensor *t, const int64_t *dims, int ndims, tsr_tensor **out);
/* torch.repeat_interleave(t, repeats, dim): each element (dim NULL: of the
 * flattened t) or slice along dim repeated `repeats` times in place. */
TSR_API tsr_status tsr_repeat_interleave(const tsr_tensor *t, int64_t repeats, const int64_t *dim,
                                         tsr_tensor **out);
/* The same with per-slice counts: repeats is an int64 or int32 tensor of one
 * element (applied to every slice) or of size(dim) elements. */
TSR_API tsr_status tsr_repeat_interleave_tensor(const tsr_tensor *t, const tsr_tensor *repeats,
                                                const int64_t *dim, tsr_tensor **out);
/* F.pad(t, pad, mode, value): pad holds npad (even) sizes, (left, right) for
 * the last dim first, then the one before; negative sizes crop.
 * TSR_PAD_CONSTANT fills with value (a float, as in PyTorch, that must fit
 * t's dtype). TSR_PAD_REFLECT and TSR_PAD_REPLICATE take floating and complex
 * tensors padded over 1 to 3 dims (npad 2, 4, 6) with one or two leading
 * dims; a reflect pad must be smaller than its dim. TSR_PAD_CIRCULAR takes
 * any dtype, 3-d to 5-d, padding every dim after the first two, each pad at
 * most its dim (negative pads crop first, then the rest wraps). */
TSR_API tsr_status tsr_pad(const tsr_tensor *t, const int64_t *pad, int npad, int mode,
                           tsr_scalar value, tsr_tensor **out);
/* torch.tril / torch.triu over the last two dims (t needs at least 2): the
 * elements on and below (above) diagonal `diagonal` are kept, others are 0. */
TSR_API tsr_status tsr_tril(const tsr_tensor *t, int64_t diagonal, tsr_tensor **out);
TSR_API tsr_status tsr_triu(const tsr_tensor *t, int64_t diagonal, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_REARRANGE_H */
