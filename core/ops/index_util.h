/* Helpers shared by the indexing, joining, sorting and set ops (internal):
 * small host-built index tensors, reading data-dependent values back, and
 * the argument checks PyTorch makes in all of them. */
#ifndef TSR_CORE_INDEX_UTIL_H
#define TSR_CORE_INDEX_UTIL_H

#include "tensor/tensor.h"

/* A 1-d int64 tensor holding values[0..n) on backend b. */
tsr_status tsr__index_from_host(const char *op, tsr_backend *b, const int64_t *values, int64_t n,
                                tsr_tensor **out);
/* t's elements converted to int64, in C order, in a malloc'd array the caller
 * frees (*values may be NULL when t is empty). Waits for queued work. */
tsr_status tsr__read_int64(const char *op, const tsr_tensor *t, int64_t **values);
/* The same for bool (one byte per element, 0 or 1). */
tsr_status tsr__read_bool(const char *op, const tsr_tensor *t, uint8_t **values);
/* The number of nonzero elements of t (NaN counts, -0.0 does not), counted
 * by count_nonzero on t's backend. */
tsr_status tsr__count_nonzero(const char *op, const tsr_tensor *t, int64_t *count);
/* The value of a 0-d (or one-element) tensor as a scalar of its category. */
tsr_status tsr__item(const char *op, const tsr_tensor *t, tsr_scalar *out);
/* PyTorch's checked conversion of a value into dtype: tsr__scalar_fits, and
 * a complex value with an imaginary part does not fit a real dtype. */
tsr_status tsr__check_value_fits(const char *op, tsr_scalar value, tsr_dtype dtype);

/* wrap_dim without PyTorch's 0-d allowance: a 0-d tensor has no dim at all. */
tsr_status tsr__wrap_dim_strict(const char *op, int64_t dim, int ndim, int *out);
/* A view of t with one dim of size 1 when t is 0-d (t itself, retained, otherwise). */
tsr_status tsr__at_least_1d(const tsr_tensor *t, tsr_tensor **out);
/* Whether some element of a and some element of b share memory (a
 * conservative test on the spans the two views cover). */
bool tsr__may_overlap(const tsr_tensor *a, const tsr_tensor *b);
/* The checks of an in-place indexing op: self has no internal overlap and
 * none of `others` (NULL entries are skipped) shares memory with it. */
tsr_status tsr__check_inplace_target(const char *op, const tsr_tensor *self,
                                     const tsr_tensor *const *others, int count);

/* embedding's checks of its operands and padding_idx (not of the index
 * values, which the lookup checks). */
tsr_status tsr__embedding_check(const tsr_tensor *indices, const tsr_tensor *weight,
                               const int64_t *padding_idx, tsr_tensor **out);
/* embedding's checks and lookup (tsr_embedding, tsr_embedding_ex after its
 * renormalisation): rows of weight at indices, recording the gradient with
 * scale_grad_by_freq as PyTorch's embedding_backward. */
tsr_status tsr__embedding_lookup(const tsr_tensor *indices, const tsr_tensor *weight,
                                const int64_t *padding_idx, bool scale_grad_by_freq,
                                tsr_tensor **out);

#endif
