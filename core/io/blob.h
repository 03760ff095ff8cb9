/* Tensors over memory tessera does not own (internal): the common part of
 * tsr_from_blob and tsr_from_dlpack. */
#ifndef TSR_CORE_BLOB_H
#define TSR_CORE_BLOB_H

#include "tessera/tessera.h"

/* Checks the geometry and wraps host memory `data` in a tensor on a host
 * backend (NULL: the default if it is one, else cpu, else reference). The
 * last release calls release(context); on failure it is not called. `op`
 * names the caller in errors. */
tsr_status tsr__blob_wrap(const char *op, void *data, int ndim, const int64_t *shape,
                          const int64_t *strides, tsr_dtype dtype, void (*release)(void *context),
                          void *context, tsr_backend *backend, tsr_tensor **out);

#endif
