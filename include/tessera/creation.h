/* tessera: Creating tensors: empty, zeros, ones, full, arange, linspace, eye, host
 * memory, random numbers.
 * Included by tessera/tessera.h; the conventions stated there apply. */
#ifndef TESSERA_CREATION_H
#define TESSERA_CREATION_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- creation (backend NULL means the default backend) ---- */
TSR_API tsr_status tsr_empty(int ndim, const int64_t *shape, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_zeros(int ndim, const int64_t *shape, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_ones(int ndim, const int64_t *shape, tsr_dtype dtype,
                            tsr_backend *backend, tsr_tensor **out);
TSR_API tsr_status tsr_full(int ndim, const int64_t *shape, tsr_scalar value, tsr_dtype dtype,
                            tsr_backend *backend, tsr_tensor **out);
/* torch.arange(start, end, step, dtype=...). */
TSR_API tsr_status tsr_arange(tsr_scalar start, tsr_scalar end, tsr_scalar step, tsr_dtype dtype,
                              tsr_backend *backend, tsr_tensor **out);
/* torch.linspace(start, end, steps, dtype=...). */
TSR_API tsr_status tsr_linspace(tsr_scalar start, tsr_scalar end, int64_t steps, tsr_dtype dtype,
                                tsr_backend *backend, tsr_tensor **out);
/* torch.eye(n, m); m < 0 means m = n. */
TSR_API tsr_status tsr_eye(int64_t n, int64_t m, tsr_dtype dtype, tsr_backend *backend,
                           tsr_tensor **out);
/* ---- *_like: input's shape and backend; dtype TSR_DTYPE_INFER means
 * input's dtype (PyTorch's dtype=None), any other dtype overrides it. ---- */
TSR_API tsr_status tsr_empty_like(const tsr_tensor *input, tsr_dtype dtype, tsr_tensor **out);
TSR_API tsr_status tsr_zeros_like(const tsr_tensor *input, tsr_dtype dtype, tsr_tensor **out);
TSR_API tsr_status tsr_ones_like(const tsr_tensor *input, tsr_dtype dtype, tsr_tensor **out);
/* torch.full_like(input, fill_value, dtype=None). */
TSR_API tsr_status tsr_full_like(const tsr_tensor *input, tsr_scalar fill_value, tsr_dtype dtype,
                                 tsr_tensor **out);
/* Copies `bytes` bytes of C-ordered elements from host memory. */
TSR_API tsr_status tsr_from_host(const void *data, size_t bytes, int ndim, const int64_t *shape,
                                 tsr_dtype dtype, tsr_backend *backend, tsr_tensor **out);
/* Copies the tensor's elements, in C order, to host memory of `bytes` bytes
 * (exactly numel * dtype size). Waits for queued work. */
TSR_API tsr_status tsr_to_host(const tsr_tensor *tensor, void *data, size_t bytes);

/* ---- random numbers from an explicit generator (same bits on every backend) ---- */
TSR_API tsr_status tsr_generator_create(uint64_t seed, tsr_generator **out);
TSR_API void tsr_generator_destroy(tsr_generator *generator);
/* Uniform on [0, 1). */
TSR_API tsr_status tsr_rand(tsr_generator *gen, int ndim, const int64_t *shape, tsr_dtype dtype,
                            tsr_backend *backend, tsr_tensor **out);
/* Standard normal. */
TSR_API tsr_status tsr_randn(tsr_generator *gen, int ndim, const int64_t *shape, tsr_dtype dtype,
                             tsr_backend *backend, tsr_tensor **out);
/* Uniform integers on [low, high). */
TSR_API tsr_status tsr_randint(tsr_generator *gen, int64_t low, int64_t high, int ndim,
                               const int64_t *shape, tsr_dtype dtype, tsr_backend *backend,
                               tsr_tensor **out);
/* torch.rand_like / randn_like / randint_like(input, low, high), drawing
 * from `gen` as tsr_rand / tsr_randn / tsr_randint do. */
TSR_API tsr_status tsr_rand_like(tsr_generator *gen, const tsr_tensor *input, tsr_dtype dtype,
                                 tsr_tensor **out);
TSR_API tsr_status tsr_randn_like(tsr_generator *gen, const tsr_tensor *input, tsr_dtype dtype,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_randint_like(tsr_generator *gen, const tsr_tensor *input, int64_t low,
                                    int64_t high, tsr_dtype dtype, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_CREATION_H */
