/* The gradient tests' shared harness: tsr_gradcheck of a table function
 * (first order), and of its gradient (double backward: PyTorch's
 * gradgradcheck), with the failure reported under the case's name.
 *
 * The gradient as a function is g(inputs) = d<seed, f(inputs)>/d(inputs),
 * recorded with create_graph, for every input not marked constant, each
 * gradient flattened and all concatenated, so gradcheck of g compares every
 * block of the Hessian with finite differences. The seed is fixed and
 * non-uniform (complex for a complex output), so every output element
 * counts. Include after check.h. */
#ifndef TSR_TESTS_GRAD_HARNESS_H
#define TSR_TESTS_GRAD_HARNESS_H

#include "check.h"

#include <stdlib.h>

enum { GRAD_HARNESS_MAX_INPUTS = 4 };

typedef tsr_status (*grad_harness_fn)(const tsr_tensor *const *inputs, tsr_tensor **output);

typedef struct grad_harness {
    const char *name;
    grad_harness_fn fn;
    int n;             /* inputs, at most GRAD_HARNESS_MAX_INPUTS */
    unsigned constant; /* bit i set: input i is held fixed, never differentiated */
    double eps;        /* finite-difference step; 0 means tsr_gradcheck's default */
} grad_harness;

/* 0.5 + 0.25 (i % 5), plus i (0.3 - 0.2 (i % 3)) when y is complex. */
static inline tsr_status grad_harness_seed(const tsr_tensor *y, tsr_tensor **seed)
{
    int64_t m = tsr_tensor_numel(y);
    bool complex = tsr_dtype_is_complex(tsr_tensor_dtype(y));
    size_t parts = complex ? 2 : 1;
    double *w = malloc((size_t)(m > 0 ? m : 1) * parts * sizeof *w);
    if (!w)
        return TSR_ERR_OUT_OF_MEMORY;
    for (int64_t i = 0; i < m; i++) {
        w[(size_t)i * parts] = 0.5 + 0.25 * (double)(i % 5);
        if (complex)
            w[(size_t)i * parts + 1] = 0.3 - 0.2 * (double)(i % 3);
    }
    tsr_status st = tsr_from_host(w, (size_t)m * parts * sizeof *w, tsr_tensor_ndim(y),
                                  tsr_tensor_shape(y), complex ? TSR_COMPLEX128 : TSR_FLOAT64,
                                  NULL, seed);
    free(w);
    return st;
}

/* g(inputs) above. gradcheck's own inputs require grad; the perturbed
 * copies it evaluates numerically do not, so those become fresh leaves. */
static inline tsr_status grad_harness_gradient(const grad_harness *h,
                                               const tsr_tensor *const *inputs, int n,
                                               tsr_tensor **output)
{
    bool previous = tsr_grad_mode_set(true);
    const tsr_tensor *args[GRAD_HARNESS_MAX_INPUTS], *wrt[GRAD_HARNESS_MAX_INPUTS];
    tsr_tensor *made[GRAD_HARNESS_MAX_INPUTS] = {NULL};
    tsr_tensor *grads[GRAD_HARNESS_MAX_INPUTS] = {NULL}, *flat[GRAD_HARNESS_MAX_INPUTS] = {NULL};
    tsr_tensor *y = NULL, *seed = NULL;
    size_t nwrt = 0;
    tsr_status st = n <= GRAD_HARNESS_MAX_INPUTS ? TSR_OK : TSR_ERR_INVALID_ARGUMENT;
    for (int i = 0; i < n && st == TSR_OK; i++) {
        args[i] = inputs[i];
        if (h->constant & (1u << i))
            continue;
        if (!tsr_tensor_requires_grad(inputs[i])) {
            st = tsr_detach(inputs[i], &made[i]);
            if (st == TSR_OK)
                st = tsr_tensor_set_requires_grad(made[i], true);
            args[i] = made[i];
        }
        wrt[nwrt++] = args[i];
    }
    if (st == TSR_OK)
        st = h->fn(args, &y);
    if (st == TSR_OK)
        st = grad_harness_seed(y, &seed);
    if (st == TSR_OK)
        st = tsr_autograd_grad((const tsr_tensor *[]){y}, 1, wrt, nwrt,
                               (const tsr_tensor *[]){seed},
                               TSR_GRAD_CREATE_GRAPH | TSR_GRAD_ALLOW_UNUSED, grads);
    int64_t minus_one = -1;
    for (size_t k = 0; k < nwrt && st == TSR_OK; k++) {
        if (!grads[k]) /* unused: its gradient is zero */
            st = tsr_zeros_like(wrt[k], TSR_DTYPE_INFER, &grads[k]);
        if (st == TSR_OK)
            st = tsr_reshape(grads[k], 1, &minus_one, &flat[k]);
    }
    if (st == TSR_OK)
        st = tsr_cat((const tsr_tensor *const *)flat, nwrt, 0, output);
    tsr_grad_mode_set(previous);
    for (int i = 0; i < GRAD_HARNESS_MAX_INPUTS; i++) {
        tsr_tensor_release(made[i]);
        tsr_tensor_release(grads[i]);
        tsr_tensor_release(flat[i]);
    }
    tsr_tensor_release(y);
    tsr_tensor_release(seed);
    return st;
}

static inline tsr_status grad_harness_call(void *context, const tsr_tensor *const *inputs, int n,
                                           tsr_tensor **output)
{
    (void)n;
    return ((const grad_harness *)context)->fn(inputs, output);
}

static inline tsr_status grad_harness_call_gradient(void *context,
                                                    const tsr_tensor *const *inputs, int n,
                                                    tsr_tensor **output)
{
    return grad_harness_gradient(context, inputs, n, output);
}

/* One check: gradcheck of h's function (second_order: of its gradient) at
 * `inputs`, those to differentiate already requiring grad. */
static inline void grad_harness_check(const grad_harness *h, tsr_tensor *const *inputs,
                                      bool second_order)
{
    tsr_gradcheck_options options = {.struct_size = sizeof options, .eps = h->eps};
    double worst = 0;
    tsr_status st =
        tsr_gradcheck(second_order ? grad_harness_call_gradient : grad_harness_call, (void *)h,
                      (const tsr_tensor *const *)inputs, h->n, &options, &worst);
    check_count++;
    if (st != TSR_OK)
        CHECK_FAIL_("%s%s: %s: %s", h->name, second_order ? " (double backward)" : "",
                    tsr_status_name(st), tsr_last_error());
}

#endif
