/* Judging the outputs of a case with "check": "identity" (golden-format.md):
 * outputs marked "gauge" are unique only up to a unit factor per column, so
 * they are checked through the op's defining identities on the library's
 * own outputs; the others compare as usual. */
#ifndef CONF_GOLDEN_IDENTITY_H
#define CONF_GOLDEN_IDENTITY_H

#include "bindings/bind.h"
#include "golden/compare.h"

/* Compares call's outputs with the `nexpected` tensors `expected` for
 * linalg_qr, linalg_svd and linalg_eigh (shapes and dtypes exactly, outputs
 * whose gauge[i] is false by value, the others by identity), each matrix of
 * the batch on its own, with the case's tolerance. A message says what
 * failed. */
conf_compare_status conf_identity_compare(const conf_call *call, tsr_tensor *const *expected,
                                          int nexpected, const bool *gauge, char *msg, size_t cap);
/* Whether output i of op is unique only up to a gauge (Q and R of qr, U and
 * Vh of svd, the eigenvectors of eigh): what the differential mode, whose
 * cases carry no manifest, assumes. */
bool conf_identity_gauge(const char *op, int i);

#endif
