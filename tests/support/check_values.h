/* Helpers shared by the tests of the neural-network families (softmax,
 * norm, loss, attention, nn): tensors from host values and element-wise
 * comparisons of values and shapes that print both values. */
#ifndef TSR_TESTS_CHECK_VALUES_H
#define TSR_TESTS_CHECK_VALUES_H

#include "check.h"

#include <stdlib.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static inline tsr_tensor *from_doubles(const double *values, int ndim, const int64_t *shape,
                                       tsr_dtype dtype)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    tsr_tensor *raw = NULL, *t = NULL;
    CHECK_OK(
        tsr_from_host(values, (size_t)n * sizeof(double), ndim, shape, TSR_FLOAT64, NULL, &raw));
    CHECK_OK(tsr_to_dtype(raw, dtype, &t));
    tsr_tensor_release(raw);
    return t;
}

static inline tsr_tensor *from_int64s(const int64_t *values, int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof(int64_t), ndim, shape, TSR_INT64, NULL, &t));
    return t;
}

/* Reads any real tensor as doubles (through float64). Returns NULL on failure. */
static inline double *to_doubles(const tsr_tensor *t)
{
    if (!t)
        return NULL;
    tsr_tensor *wide = NULL;
    if (tsr_to_dtype(t, TSR_FLOAT64, &wide) != TSR_OK)
        return NULL;
    size_t n = (size_t)tsr_tensor_numel(wide);
    double *values = malloc((n ? n : 1) * sizeof(double));
    if (tsr_to_host(wide, values, n * sizeof(double)) != TSR_OK) {
        free(values);
        values = NULL;
    }
    tsr_tensor_release(wide);
    return values;
}

/* Compares every element with |a - e| <= tol * (1 + |e|). */
static inline void check_values(const tsr_tensor *t, const double *expected, int64_t n, double tol)
{
    CHECK_TRUE(t != NULL);
    if (!t)
        return;
    CHECK_INT(tsr_tensor_numel(t), n);
    double *got = to_doubles(t);
    CHECK_TRUE(got != NULL);
    for (int64_t i = 0; got && i < n && i < tsr_tensor_numel(t); i++)
        CHECK_DOUBLE(got[i], expected[i], tol * (1.0 + fabs(expected[i])));
    free(got);
}

static inline void check_shape(const tsr_tensor *t, int ndim, const int64_t *shape)
{
    CHECK_TRUE(t != NULL);
    if (!t)
        return;
    CHECK_INT(tsr_tensor_ndim(t), ndim);
    for (int d = 0; d < ndim && d < tsr_tensor_ndim(t); d++)
        CHECK_INT(tsr_tensor_shape(t)[d], shape[d]);
}

/* The 3x4 float64 input of the softmax and layer_norm tests. */
static const double X34[12] = {-1.5, -1.13, -0.76, -0.39, -0.02, 0.35,
                               2.25, 1.09,  1.46,  1.83,  2.2,   2.57};

/* The weight and bias of the layer_norm tests. */
static const double LN_W[4] = {0.5, -1.0, 2.0, 1.5};
static const double LN_B[4] = {0.1, 0.2, -0.3, 0.0};

#endif
