/* Raw copies and conversions between layouts, dtypes and backends: no
 * autograd record (internal). */
#ifndef TSR_CORE_COPY_H
#define TSR_CORE_COPY_H

#include "tensor/tensor.h"

/* A contiguous copy of t with the same dtype, on t's backend. */
tsr_status tsr__materialize(const char *op, const tsr_tensor *t, tsr_tensor **out);
/* A contiguous copy of t converted to dtype, on t's backend. */
tsr_status tsr__convert(const char *op, const tsr_tensor *t, tsr_dtype dtype, tsr_tensor **out);
/* t itself (a new reference) when it has dtype already, else tsr__convert. */
tsr_status tsr__convert_if_needed(const char *op, const tsr_tensor *t, tsr_dtype dtype,
                                  tsr_tensor **out);
/* t itself (a new reference) when it is contiguous, else tsr__materialize. */
tsr_status tsr__contiguous_raw(const char *op, const tsr_tensor *t, tsr_tensor **out);
/* Writes src (broadcast to dst's shape, any dtype) into dst; same backend. */
tsr_status tsr__copy_same_backend(const char *op, tsr_tensor *dst, const tsr_tensor *src);
/* A 0-d tensor holding `value` converted to dtype, on backend b. */
tsr_status tsr__scalar_tensor(const char *op, tsr_scalar value, tsr_dtype dtype, tsr_backend *b,
                              tsr_tensor **out);
/* Fills t with value (converted as PyTorch converts). */
tsr_status tsr__fill(const char *op, tsr_tensor *t, tsr_scalar value);
/* A contiguous copy of t on backend dst, through host memory (the only path
 * every pair of backends shares). */
tsr_status tsr__move_across(const char *op, const tsr_tensor *t, tsr_backend *dst,
                            tsr_tensor **out);
/* The part of t's storage that t reaches, copied through host memory into a
 * new storage on dst, viewed with t's shape and strides: no kernel runs on
 * either backend, so any backend's tensors of any layout can move. */
tsr_status tsr__move_view_across(const char *op, const tsr_tensor *t, tsr_backend *dst,
                                 tsr_tensor **out);
/* Writes `moved` (made by tsr__move_view_across from `view`) back over the
 * part of view's storage that view reaches. */
tsr_status tsr__move_view_back(const char *op, const tsr_tensor *moved, tsr_tensor *view);

#endif
