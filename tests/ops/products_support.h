/* Helpers shared by the products family's tests of its vector and
 * structured products (test_products_vector.c, test_products_structured.c):
 * tensors from float64 values, values read back as float64, gradcheck. */
#ifndef TSR_TESTS_PRODUCTS_SUPPORT_H
#define TSR_TESTS_PRODUCTS_SUPPORT_H

#include "check.h"

#include <stdlib.h>

/* A tensor of `dtype` holding float64 values (converted as copy converts). */
static inline tsr_tensor *pt_make(tsr_dtype dtype, int ndim, const int64_t *shape,
                                  const double *values)
{
    int64_t n = 1;
    for (int i = 0; i < ndim; i++)
        n *= shape[i];
    tsr_tensor *f = NULL, *t = NULL;
    CHECK_OK(tsr_from_host(values, (size_t)n * sizeof(double), ndim, shape, TSR_FLOAT64, NULL, &f));
    if (f)
        CHECK_OK(tsr_to_dtype(f, dtype, &t));
    tsr_tensor_release(f);
    return t;
}

/* A tensor of `dtype` filled with `value`. */
static inline tsr_tensor *pt_full(tsr_dtype dtype, int ndim, const int64_t *shape, double value)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_full(ndim, shape, tsr_scalar_float(value), dtype, NULL, &t));
    return t;
}

/* Checks t's dtype, shape and values (read as float64, NaN equal to NaN). */
static inline void pt_check(const tsr_tensor *t, tsr_dtype dtype, int ndim, const int64_t *shape,
                            const double *expected, double tolerance)
{
    if (!t) {
        CHECK_TRUE(!"a result");
        return;
    }
    CHECK_STR(tsr_dtype_name(tsr_tensor_dtype(t)), tsr_dtype_name(dtype));
    CHECK_INT(tsr_tensor_ndim(t), ndim);
    for (int d = 0; d < ndim && d < tsr_tensor_ndim(t); d++)
        CHECK_INT(tsr_tensor_shape(t)[d], shape[d]);
    int64_t n = tsr_tensor_numel(t);
    double *got = calloc((size_t)(n ? n : 1), sizeof *got);
    tsr_tensor *f = NULL;
    CHECK_OK(tsr_to_dtype(t, TSR_FLOAT64, &f));
    if (f)
        CHECK_OK(tsr_to_host(f, got, (size_t)n * sizeof *got));
    for (int64_t i = 0; i < n && expected; i++)
        CHECK_DOUBLE(got[i], expected[i], tolerance);
    tsr_tensor_release(f);
    free(got);
}

static inline void pt_release(tsr_tensor **ts, int n)
{
    for (int i = 0; i < n; i++)
        tsr_tensor_release(ts[i]);
}

/* gradcheck of fn in float64 on random inputs of the given shapes
 * (shapes[i][0] is the rank, then the sizes). */
static inline void pt_gradcheck(tsr_gradcheck_fn fn, void *context, int n, const int (*shapes)[6],
                                uint64_t seed)
{
    tsr_generator *gen = NULL;
    CHECK_OK(tsr_generator_create(seed, &gen));
    tsr_tensor *in[4] = {NULL, NULL, NULL, NULL};
    for (int i = 0; i < n; i++) {
        int64_t shape[5];
        for (int d = 0; d < shapes[i][0]; d++)
            shape[d] = shapes[i][d + 1];
        CHECK_OK(tsr_randn(gen, shapes[i][0], shape, TSR_FLOAT64, NULL, &in[i]));
        if (in[i])
            CHECK_OK(tsr_tensor_set_requires_grad(in[i], true));
    }
    double max_error = -1;
    CHECK_OK(tsr_gradcheck(fn, context, (const tsr_tensor *const *)in, n, NULL, &max_error));
    CHECK_TRUE(max_error >= 0 && max_error < 1e-6);
    pt_release(in, n);
    tsr_generator_destroy(gen);
}

#endif
