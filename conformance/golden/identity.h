/* Judging the outputs of a case with "check": "identity" (golden-format.md):
 * outputs marked "gauge" are unique only up to a unit factor per column, so
 * they are checked through the op's defining identities on the library's
 * own outputs; the others compare as usual. */
#ifndef CONF_GOLDEN_IDENTITY_H
#define CONF_GOLDEN_IDENTITY_H

#include "bindings/bind.h"
#include "golden/compare.h"

/* Compares call's outputs with `expected` for linalg_qr, linalg_svd and
 * linalg_eigh (shapes and dtypes exactly, non-gauge outputs by value, gauge
 * ones by identity), each matrix of the batch on its own, with the case's
 * tolerance. A message says what failed. */
conf_compare_status conf_identity_compare(const conf_call *call, tsr_tensor *const *expected,
                                          char *msg, size_t cap);

#endif
