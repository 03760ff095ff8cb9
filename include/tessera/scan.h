/* tessera: Scans along one dim: cumsum, cumprod, cummax, cummin, logcumsumexp.
 * Included by tessera/reduce.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_SCAN_H
#define TESSERA_SCAN_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* torch.cumsum / torch.cumprod(t, dim, dtype=dtype): bool and integer inputs
 * accumulate in int64 unless dtype says otherwise. */
TSR_API tsr_status tsr_cumsum(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out);
TSR_API tsr_status tsr_cumprod(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out);
/* torch.cummax / torch.cummin: running extrema and their int64 indices. Equal
 * values move the index to the later one; after a NaN the values stay NaN
 * and the index follows each later NaN. */
TSR_API tsr_status tsr_cummax(const tsr_tensor *t, int64_t dim, tsr_tensor **values,
                              tsr_tensor **indices);
TSR_API tsr_status tsr_cummin(const tsr_tensor *t, int64_t dim, tsr_tensor **values,
                              tsr_tensor **indices);
/* torch.logcumsumexp: log of the running sum of exp, computed stably. */
TSR_API tsr_status tsr_logcumsumexp(const tsr_tensor *t, int64_t dim, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_SCAN_H */
