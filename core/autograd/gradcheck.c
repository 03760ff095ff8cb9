/* tsr_gradcheck: autograd's Jacobian against central finite differences.
 * Complex tensors count as their real and imaginary parts (PyTorch's
 * complex gradcheck): the numerical side perturbs each part on its own, and
 * the analytical row of output part (e, re) or (e, im) is the backward with
 * grad_output 1 or 1i at element e. In PyTorch's convention that backward
 * returns dL/dRe z + i dL/dIm z for L = Re(y_e) or Im(y_e), so the two
 * Jacobians hold the same numbers: the Wirtinger derivatives, checked. */
#include "autograd/graph.h"

#include "runtime/alloc.h"
#include "runtime/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Everything a check holds, released in one place. */
typedef struct check {
    tsr_gradcheck_fn fn;
    void *context;
    const tsr_tensor *const *inputs;
    int n;
    double eps, atol, rtol;
    int64_t out_numel; /* real components: twice the elements when complex */
    tsr_tensor *output;
    double **analytic; /* [input][out element * in numel + in element] */
} check;

/* t as real numbers: its elements, or each element's real and imaginary
 * parts in turn. */
static int64_t components(const tsr_tensor *t)
{
    return tsr_tensor_numel(t) * (tsr_dtype_is_complex(tsr_tensor_dtype(t)) ? 2 : 1);
}

static tsr_dtype wide_dtype(const tsr_tensor *t)
{
    return tsr_dtype_is_complex(tsr_tensor_dtype(t)) ? TSR_COMPLEX128 : TSR_FLOAT64;
}

static tsr_status read_doubles(const tsr_tensor *t, double *values)
{
    tsr_tensor *wide = NULL;
    tsr_status st = tsr_to_dtype(t, wide_dtype(t), &wide);
    if (st == TSR_OK)
        st = tsr_to_host(wide, values, (size_t)components(t) * sizeof *values);
    tsr_tensor_release(wide);
    return st;
}

static tsr_status write_doubles(const tsr_tensor *like, const double *values, tsr_tensor **out)
{
    tsr_tensor *wide = NULL;
    tsr_status st = tsr_from_host(values, (size_t)components(like) * sizeof *values,
                                  tsr_tensor_ndim(like), tsr_tensor_shape(like), wide_dtype(like),
                                  tsr_tensor_backend(like), &wide);
    if (st == TSR_OK)
        st = tsr_to_dtype(wide, tsr_tensor_dtype(like), out);
    tsr_tensor_release(wide);
    return st;
}

/* Row j of the Jacobian for every input: one backward with e_j. */
static tsr_status analytic_row(check *c, int64_t j, const tsr_tensor **wrt, const int *index, int m,
                               tsr_tensor **grads)
{
    double *onehot = tsr__calloc((size_t)c->out_numel, sizeof *onehot);
    if (!onehot)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "gradcheck: out of host memory");
    onehot[j] = 1;
    tsr_tensor *seed = NULL;
    tsr_status st = write_doubles(c->output, onehot, &seed);
    free(onehot);
    const tsr_tensor *outputs[1] = {c->output}, *seeds[1] = {seed};
    if (st == TSR_OK)
        st = tsr_autograd_grad(outputs, 1, wrt, (size_t)m, seeds,
                               TSR_GRAD_RETAIN_GRAPH | TSR_GRAD_ALLOW_UNUSED, grads);
    tsr_tensor_release(seed);
    for (int k = 0; k < m && st == TSR_OK; k++) {
        int64_t numel = components(wrt[k]);
        double *row = c->analytic[index[k]] + j * numel;
        if (grads[k])
            st = read_doubles(grads[k], row);
        else
            memset(row, 0, (size_t)numel * sizeof *row);
    }
    for (int k = 0; k < m; k++) {
        tsr_tensor_release(grads[k]);
        grads[k] = NULL;
    }
    return st;
}

static tsr_status analytic(check *c)
{
    const tsr_tensor *wrt[64];
    int index[64], m = 0;
    for (int i = 0; i < c->n && m < 64; i++) {
        if (tsr_tensor_requires_grad(c->inputs[i])) {
            wrt[m] = c->inputs[i];
            index[m++] = i;
        }
    }
    tsr_tensor *grads[64] = {NULL};
    tsr_status st = TSR_OK;
    for (int64_t j = 0; j < c->out_numel && st == TSR_OK && m > 0; j++)
        st = analytic_row(c, j, wrt, index, m, grads);
    return st;
}

/* f(inputs with input i replaced by values), as doubles, in no-grad mode. */
static tsr_status evaluate(check *c, int i, const double *values, double *result)
{
    const tsr_tensor *args[64];
    tsr_tensor *replaced = NULL, *out = NULL;
    memcpy(args, c->inputs, (size_t)c->n * sizeof *args);
    bool previous = tsr_grad_mode_set(false);
    tsr_status st = write_doubles(c->inputs[i], values, &replaced);
    args[i] = replaced;
    if (st == TSR_OK)
        st = c->fn(c->context, args, c->n, &out);
    if (st == TSR_OK && components(out) != c->out_numel)
        st = tsr__set_error(TSR_ERR_SHAPE, "gradcheck: the function's output changed size");
    if (st == TSR_OK)
        st = read_doubles(out, result);
    tsr_grad_mode_set(previous);
    tsr_tensor_release(out);
    tsr_tensor_release(replaced);
    return st;
}

/* Naming real component k of t in messages: "element 3", or "element 3's
 * imaginary part" for complex t. */
static const char *part_name(const tsr_tensor *t, int64_t k)
{
    if (!tsr_dtype_is_complex(tsr_tensor_dtype(t)))
        return "element";
    return k % 2 ? "element (imaginary part)" : "element (real part)";
}

static int64_t part_index(const tsr_tensor *t, int64_t k)
{
    return tsr_dtype_is_complex(tsr_tensor_dtype(t)) ? k / 2 : k;
}

static tsr_status compare_input(check *c, int i, double *max_error)
{
    int64_t numel = components(c->inputs[i]), no = c->out_numel;
    double *x = tsr__malloc(((size_t)numel + 2 * (size_t)no + 1) * sizeof *x);
    if (!x)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "gradcheck: out of host memory");
    double *plus = x + numel, *minus = plus + no;
    tsr_status st = read_doubles(c->inputs[i], x);
    for (int64_t k = 0; k < numel && st == TSR_OK; k++) {
        double saved = x[k];
        x[k] = saved + c->eps;
        st = evaluate(c, i, x, plus);
        x[k] = saved - c->eps;
        if (st == TSR_OK)
            st = evaluate(c, i, x, minus);
        x[k] = saved;
        for (int64_t j = 0; j < no && st == TSR_OK; j++) {
            double numerical = (plus[j] - minus[j]) / (2 * c->eps);
            double analytical = c->analytic[i][j * numel + k];
            double error = fabs(analytical - numerical);
            if (error > *max_error || isnan(error))
                *max_error = isnan(error) ? INFINITY : error;
            if (!(error <= c->atol + c->rtol * fabs(numerical)))
                st = tsr__set_error(TSR_ERR_AUTOGRAD,
                                    "gradcheck: Jacobian mismatch for input %d, output %s %lld, "
                                    "input %s %lld: numerical %.10g, analytical %.10g",
                                    i, part_name(c->output, j), (long long)part_index(c->output, j),
                                    part_name(c->inputs[i], k),
                                    (long long)part_index(c->inputs[i], k), numerical, analytical);
        }
    }
    free(x);
    return st;
}

static tsr_status run(check *c, double *max_error)
{
    tsr_status st = c->fn(c->context, c->inputs, c->n, &c->output);
    if (st != TSR_OK)
        return st;
    if (!tsr__grad_dtype(tsr_tensor_dtype(c->output)))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "gradcheck: the function's output is neither floating nor complex");
    c->out_numel = components(c->output);
    for (int i = 0; i < c->n; i++) {
        if (!tsr_tensor_requires_grad(c->inputs[i]))
            continue;
        size_t count = (size_t)c->out_numel * (size_t)components(c->inputs[i]);
        if (!(c->analytic[i] = tsr__calloc(count + 1, sizeof(double))))
            return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "gradcheck: out of host memory");
    }
    /* an output without history has a zero Jacobian (the arrays stay zero) */
    if (tsr_tensor_requires_grad(c->output) && (st = analytic(c)) != TSR_OK)
        return st;
    for (int i = 0; i < c->n && st == TSR_OK; i++) {
        if (c->analytic[i])
            st = compare_input(c, i, max_error);
    }
    return st;
}

tsr_status tsr_gradcheck(tsr_gradcheck_fn fn, void *context, const tsr_tensor *const *inputs, int n,
                         const tsr_gradcheck_options *options, double *max_error)
{
    if (!fn || !inputs || n <= 0 || n > 64)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "gradcheck: fn and 1 to 64 inputs are required");
    for (int i = 0; i < n; i++) {
        if (!inputs[i])
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "gradcheck: input %d is NULL", i);
    }
    check c = {.fn = fn,
               .context = context,
               .inputs = inputs,
               .n = n,
               .eps = 1e-6,
               .atol = 1e-5,
               .rtol = 1e-3};
    if (options && options->struct_size >= sizeof *options) {
        c.eps = options->eps > 0 ? options->eps : c.eps;
        c.atol = options->atol > 0 ? options->atol : c.atol;
        c.rtol = options->rtol > 0 ? options->rtol : c.rtol;
    }
    double *columns[64] = {NULL};
    c.analytic = columns;
    double worst = 0;
    tsr_status st = run(&c, &worst);
    for (int i = 0; i < n; i++)
        free(columns[i]);
    tsr_tensor_release(c.output);
    if (max_error)
        *max_error = worst;
    return st;
}
