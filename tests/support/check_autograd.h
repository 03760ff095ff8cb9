/* Helpers the autograd tests share on top of check.h: small float64 vectors
 * (leaves or plain), exact-ish reads of values and gradients, and backward
 * seeded with ones. Float64 throughout so that derived gradients compare
 * to 1e-12 without rounding noise from the dtype. */
#ifndef TSR_TESTS_CHECK_AUTOGRAD_H
#define TSR_TESTS_CHECK_AUTOGRAD_H

#include "check.h"

/* A 1-d float64 tensor of n values; a leaf that requires grad if asked. */
static inline tsr_tensor *vec(int64_t n, const double *v, bool requires_grad)
{
    tsr_tensor *t = make_tensor(TSR_FLOAT64, 1, &n, v, (size_t)n * sizeof *v);
    if (requires_grad)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* The first n values of a float64 tensor (at most 16, enough for these
 * hand-derived cases) must be the expected ones. */
static inline void check_values(const tsr_tensor *t, const double *expected, int64_t n)
{
    double got[16];
    CHECK_TRUE(t != NULL);
    if (!t || n > 16 || tsr_to_host(t, got, (size_t)n * sizeof *got) != TSR_OK) {
        CHECK_TRUE(!"readable float64 tensor");
        return;
    }
    for (int64_t i = 0; i < n; i++)
        CHECK_DOUBLE(got[i], expected[i], 1e-12);
}

/* The .grad of t must hold the expected values. */
static inline void check_grad(const tsr_tensor *t, const double *expected, int64_t n)
{
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(t, &g));
    check_values(g, expected, n);
    tsr_tensor_release(g);
}

/* Whether t's .grad is set (reading it is checked to succeed). */
static inline bool has_grad(const tsr_tensor *t)
{
    tsr_tensor *g = NULL;
    CHECK_OK(tsr_tensor_grad(t, &g));
    tsr_tensor_release(g);
    return g != NULL;
}

static inline tsr_operand S(double v)
{
    return tsr_operand_scalar(tsr_scalar_float(v));
}

/* backward of `out` seeded with ones, i.e. of sum(out); returns the status
 * so that tests can expect a failure. */
static inline int backward_ones(const tsr_tensor *out)
{
    tsr_tensor *ones = NULL;
    CHECK_OK(tsr_ones(tsr_tensor_ndim(out), tsr_tensor_shape(out), TSR_FLOAT64, NULL, &ones));
    int st = tsr_backward(out, ones, 0);
    tsr_tensor_release(ones);
    return st;
}

#endif
