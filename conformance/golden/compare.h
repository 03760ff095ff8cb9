/* Comparing a result with its expected value, PyTorch's way: dtype and shape
 * exactly, integers and bools exactly, floats within rtol/atol, NaN equal to
 * NaN, infinities exactly, signed zeros only on request. */
#ifndef CONF_COMPARE_H
#define CONF_COMPARE_H

#include "tessera/tessera.h"

#include <stddef.h>

typedef struct conf_tolerance {
    double rtol;
    double atol;
    bool signed_zeros; /* +0 and -0 differ */
} conf_tolerance;

typedef enum conf_compare_status {
    CONF_COMPARE_EQUAL,
    CONF_COMPARE_DIFFERENT, /* the message says where and how */
    CONF_COMPARE_ERROR,     /* the data could not be read back */
    CONF_COMPARE_UNCLAIMED, /* reading back needs a kernel the backend lacks (a copy
                               row: TSR_ERR_UNIMPLEMENTED), so nothing is known */
} conf_compare_status;

/* The runner's default for a dtype (complex dtypes use their real type's):
 * float16 1e-3/1e-3, bfloat16 1e-2/1e-2, float32 1.3e-6/1e-5,
 * float64 1e-7/1e-7; 0/0 for integers and bool. */
conf_tolerance conf_tolerance_default(tsr_dtype dtype);

/* Compares `count` elements of `dtype` stored contiguously in C order over
 * `shape`. On a difference writes, e.g., "3 of 6 elements differ; first at
 * [1, 0]: got 1.5, expected 1.25, difference 0.25 (allowed 1.25e-05)". */
conf_compare_status conf_compare_host(tsr_dtype dtype, int ndim, const int64_t *shape,
                                      const void *actual, const void *expected,
                                      const conf_tolerance *tol, char *message, size_t capacity);

/* As conf_compare_host, with a per-element extra allowance `bound` (NULL:
 * none; one double per element, for complex dtypes applying to each part):
 * a finite float element also passes when |got - expected| <= atol +
 * bound[i]. A non-finite or negative bound allows nothing extra. The message's
 * "allowed" is then the larger of the two allowances. */
conf_compare_status conf_compare_host_bounded(tsr_dtype dtype, int ndim, const int64_t *shape,
                                              const void *actual, const void *expected,
                                              const conf_tolerance *tol, const double *bound,
                                              char *message, size_t capacity);

/* Compares tensors: dtype, then shape, then values (read with tsr_to_host). */
conf_compare_status conf_compare_tensors(const tsr_tensor *actual, const tsr_tensor *expected,
                                         const conf_tolerance *tol, char *message, size_t capacity);

/* As conf_compare_tensors with conf_compare_host_bounded's `bound`, which
 * holds one double per element of `expected`. */
conf_compare_status conf_compare_tensors_bounded(const tsr_tensor *actual,
                                                 const tsr_tensor *expected,
                                                 const conf_tolerance *tol, const double *bound,
                                                 char *message, size_t capacity);

/* Formats a shape as "[2, 3]" ("[]" for 0-d). */
void conf_format_shape(int ndim, const int64_t *shape, char *out, size_t capacity);

/* float16 and bfloat16 bits as doubles. */
double conf_half_to_double(uint16_t bits);
double conf_bfloat16_to_double(uint16_t bits);

#endif
