/* Convolution: unfold, fold, conv1d/2d/3d and conv_transpose1d/2d/3d. The
 * values are checked against a naive convolution written here from the
 * definition (independent of im2col), the transposed convolution against
 * the adjoint identity <conv_t(x, w), y> = <x, conv(y, w)>, gradients with
 * gradcheck (first and second order, float64), and errors by the argument
 * their message names. */
#include "check_values.h"

#include <string.h>

/* ---- a naive convolution from the definition ------------------------------ */

typedef struct geometry {
    int nd;
    int64_t n, cin, cout, groups;
    int64_t in[3], k[3], stride[3], pad[3], dil[3];
} geometry;

static int64_t out_size(const geometry *g, int d)
{
    return (g->in[d] + 2 * g->pad[d] - g->dil[d] * (g->k[d] - 1) - 1) / g->stride[d] + 1;
}

static int64_t volume(const int64_t *v, int nd)
{
    int64_t p = 1;
    for (int d = 0; d < nd; d++)
        p *= v[d];
    return p;
}

/* Unflattens i over extents e (nd dims, row-major) into idx. */
static void unflatten(int64_t i, const int64_t *e, int nd, int64_t *idx)
{
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = i % e[d];
        i /= e[d];
    }
}

static double *naive_conv(const geometry *g, const double *x, const double *w, const double *b)
{
    int64_t out[3] = {1, 1, 1};
    for (int d = 0; d < g->nd; d++)
        out[d] = out_size(g, d);
    int64_t lo = volume(out, g->nd), li = volume(g->in, g->nd), kv = volume(g->k, g->nd);
    int64_t cig = g->cin / g->groups, cog = g->cout / g->groups;
    double *y = calloc((size_t)(g->n * g->cout * lo) + 1, sizeof *y);
    for (int64_t n = 0; n < g->n; n++)
        for (int64_t co = 0; co < g->cout; co++)
            for (int64_t l = 0; l < lo; l++) {
                int64_t o[3], j[3];
                unflatten(l, out, g->nd, o);
                double s = b ? b[co] : 0.0;
                for (int64_t ci = 0; ci < cig; ci++)
                    for (int64_t jf = 0; jf < kv; jf++) {
                        unflatten(jf, g->k, g->nd, j);
                        int64_t at = 0;
                        bool inside = true;
                        for (int d = 0; d < g->nd; d++) {
                            int64_t i = o[d] * g->stride[d] - g->pad[d] + j[d] * g->dil[d];
                            inside = inside && i >= 0 && i < g->in[d];
                            at = at * g->in[d] + i;
                        }
                        if (inside) {
                            int64_t c = (co / cog) * cig + ci;
                            s += x[(n * g->cin + c) * li + at] * w[(co * cig + ci) * kv + jf];
                        }
                    }
                y[(n * g->cout + co) * lo + l] = s;
            }
    return y;
}

static double *pattern(int64_t count, int salt)
{
    double *v = malloc((size_t)count * sizeof *v + sizeof *v);
    for (int64_t i = 0; i < count; i++)
        v[i] = (double)((i * 7 + salt * 13) % 17) / 8.0 - 1.0;
    return v;
}

typedef tsr_status (*conv_fn)(const tsr_tensor *, const tsr_tensor *, const tsr_tensor *,
                              const tsr_conv_params *, tsr_tensor **);

static const conv_fn CONV[4] = {NULL, tsr_conv1d, tsr_conv2d, tsr_conv3d};
static const conv_fn CONV_T[4] = {NULL, tsr_conv_transpose1d, tsr_conv_transpose2d,
                                  tsr_conv_transpose3d};

static void check_against_naive(const geometry *g, tsr_dtype dtype, double tol)
{
    int64_t xs[5] = {g->n, g->cin}, ws[5] = {g->cout, g->cin / g->groups}, ys[5] = {g->n, g->cout};
    for (int d = 0; d < g->nd; d++) {
        xs[2 + d] = g->in[d];
        ws[2 + d] = g->k[d];
        ys[2 + d] = out_size(g, d);
    }
    double *x = pattern(volume(xs, 2 + g->nd), 1), *w = pattern(volume(ws, 2 + g->nd), 2);
    double *b = pattern(g->cout, 3);
    double *want = naive_conv(g, x, w, b);
    tsr_tensor *tx = from_doubles(x, 2 + g->nd, xs, dtype),
               *tw = from_doubles(w, 2 + g->nd, ws, dtype);
    tsr_tensor *tb = from_doubles(b, 1, &g->cout, dtype), *y = NULL;
    tsr_conv_params p = {.stride = g->stride,
                         .nstride = g->nd,
                         .padding = g->pad,
                         .npadding = g->nd,
                         .dilation = g->dil,
                         .ndilation = g->nd,
                         .groups = g->groups};
    CHECK_OK(CONV[g->nd](tx, tw, tb, &p, &y));
    check_shape(y, 2 + g->nd, ys);
    check_values(y, want, volume(ys, 2 + g->nd), tol);
    tsr_tensor_release(tx);
    tsr_tensor_release(tw);
    tsr_tensor_release(tb);
    tsr_tensor_release(y);
    free(x);
    free(w);
    free(b);
    free(want);
}

static void conv_matches_the_definition_in_every_geometry(void)
{
    const geometry cases[] = {
        {1, 2, 3, 4, 1, {9}, {3}, {2}, {1}, {2}},
        {2, 2, 4, 6, 2, {6, 5}, {3, 2}, {1, 2}, {2, 0}, {1, 2}},
        {2, 1, 3, 3, 3, {5, 7}, {3, 3}, {2, 1}, {4, 1}, {1, 1}}, /* depthwise, pad > k/2 */
        {3, 1, 2, 2, 1, {4, 5, 3}, {2, 3, 2}, {1, 2, 1}, {1, 0, 1}, {2, 1, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_against_naive(&cases[i], TSR_FLOAT64, 1e-12);
        check_against_naive(&cases[i], TSR_FLOAT32, 1e-5);
    }
}

/* 2^16 and more output elements: the loops over windows and rows run long. */
static void conv_of_a_large_input_matches_the_definition(void)
{
    geometry g = {2, 2, 3, 4, 1, {130, 132}, {3, 3}, {1, 1}, {1, 1}, {1, 1}};
    check_against_naive(&g, TSR_FLOAT32, 1e-5);
}

/* ---- unfold and fold ---------------------------------------------------- */

static void unfold_lays_windows_out_as_columns(void)
{
    double x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    tsr_tensor *t = from_doubles(x, 4, (int64_t[]){1, 1, 3, 3}, TSR_FLOAT32), *cols = NULL;
    CHECK_OK(tsr_unfold(t, (int64_t[]){2}, 1, NULL, &cols));
    check_shape(cols, 3, (int64_t[]){1, 4, 4});
    /* rows: kernel offsets (0,0) (0,1) (1,0) (1,1); columns: the four windows */
    check_values(cols, (double[]){1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9}, 16, 0);
    tsr_tensor_release(cols);
    int64_t pad = 1, stride = 2;
    tsr_conv_params p = {.padding = &pad, .npadding = 1, .stride = &stride, .nstride = 1};
    CHECK_OK(tsr_unfold(t, (int64_t[]){2}, 1, &p, &cols));
    check_shape(cols, 3, (int64_t[]){1, 4, 4});
    check_values(cols, (double[]){0, 0, 0, 5, 0, 0, 4, 6, 0, 2, 0, 8, 1, 3, 7, 9}, 16, 0);
    tsr_tensor_release(cols);
    tsr_tensor_release(t);
}

static void fold_sums_overlapping_windows(void)
{
    double ones[16];
    for (int i = 0; i < 16; i++)
        ones[i] = 1;
    tsr_tensor *cols = from_doubles(ones, 3, (int64_t[]){1, 4, 4}, TSR_FLOAT64), *x = NULL;
    CHECK_OK(tsr_fold(cols, (int64_t[]){3, 3}, 2, (int64_t[]){2}, 1, NULL, &x));
    check_shape(x, 4, (int64_t[]){1, 1, 3, 3});
    check_values(x, (double[]){1, 2, 1, 2, 4, 2, 1, 2, 1}, 9, 0);
    tsr_tensor_release(x);
    tsr_tensor_release(cols);
}

static void unfold_and_fold_take_unbatched_inputs(void)
{
    double x[2 * 4 * 4];
    for (int i = 0; i < 32; i++)
        x[i] = i;
    tsr_tensor *t = from_doubles(x, 3, (int64_t[]){2, 4, 4}, TSR_FLOAT32), *cols = NULL,
               *back = NULL;
    CHECK_OK(tsr_unfold(t, (int64_t[]){2, 2}, 2, NULL, &cols));
    check_shape(cols, 2, (int64_t[]){8, 9});
    CHECK_OK(tsr_fold(cols, (int64_t[]){4, 4}, 2, (int64_t[]){2, 2}, 2, NULL, &back));
    check_shape(back, 3, (int64_t[]){2, 4, 4});
    tsr_tensor_release(t);
    tsr_tensor_release(cols);
    tsr_tensor_release(back);
}

/* ---- conv_transpose ----------------------------------------------------- */

static double dot(const tsr_tensor *a, const tsr_tensor *b)
{
    double *x = to_doubles(a), *y = to_doubles(b), s = 0;
    for (int64_t i = 0; x && y && i < tsr_tensor_numel(a); i++)
        s += x[i] * y[i];
    free(x);
    free(y);
    return s;
}

static void conv_transpose_is_the_adjoint_of_conv(void)
{
    const struct {
        int nd;
        int64_t stride, pad, dil, output_padding, groups;
    } cases[] = {{1, 2, 1, 1, 1, 1}, {2, 3, 0, 2, 2, 2}, {2, 2, 1, 2, 1, 1}, {3, 2, 1, 1, 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int nd = cases[c].nd;
        int64_t g = cases[c].groups, xs[5] = {2, 2 * g}, ws[5] = {2 * g, 3}, k = 2;
        for (int d = 0; d < nd; d++) {
            xs[2 + d] = 3;
            ws[2 + d] = k;
        }
        double *xv = pattern(volume(xs, 2 + nd), 4), *wv = pattern(volume(ws, 2 + nd), 5);
        tsr_tensor *x = from_doubles(xv, 2 + nd, xs, TSR_FLOAT64);
        tsr_tensor *w = from_doubles(wv, 2 + nd, ws, TSR_FLOAT64), *y = NULL;
        tsr_conv_params p = {.stride = &cases[c].stride,
                             .nstride = 1,
                             .padding = &cases[c].pad,
                             .npadding = 1,
                             .dilation = &cases[c].dil,
                             .ndilation = 1,
                             .output_padding = &cases[c].output_padding,
                             .noutput_padding = 1,
                             .groups = g};
        CHECK_OK(CONV_T[nd](x, w, NULL, &p, &y));
        int64_t want = (3 - 1) * cases[c].stride - 2 * cases[c].pad + cases[c].dil * (k - 1) +
                       cases[c].output_padding + 1;
        CHECK_INT(tsr_tensor_shape(y)[2], want);
        double *probe = pattern(tsr_tensor_numel(y), 6);
        tsr_tensor *u = from_doubles(probe, tsr_tensor_ndim(y), tsr_tensor_shape(y), TSR_FLOAT64);
        tsr_tensor *cu = NULL;
        p.noutput_padding = 0;
        CHECK_OK(CONV[nd](u, w, NULL, &p, &cu));
        check_shape(cu, 2 + nd, xs);
        CHECK_DOUBLE(dot(y, u), dot(x, cu), 1e-9 * (1 + fabs(dot(x, cu))));
        free(xv);
        free(wv);
        free(probe);
        tsr_tensor_release(x);
        tsr_tensor_release(w);
        tsr_tensor_release(y);
        tsr_tensor_release(u);
        tsr_tensor_release(cu);
    }
}

/* ---- padding strings ------------------------------------------------------ */

/* An even kernel pads one more at the end, as PyTorch: 'same' equals explicit
 * padding (1 before, 2 after) on an input padded by hand. */
static void same_padding_with_an_even_kernel_pads_more_at_the_end(void)
{
    double x[5] = {1, 2, 3, 4, 5}, w[4] = {1, 10, 100, 1000};
    tsr_tensor *t = from_doubles(x, 2, (int64_t[]){1, 5}, TSR_FLOAT64);
    tsr_tensor *k = from_doubles(w, 3, (int64_t[]){1, 1, 4}, TSR_FLOAT64), *y = NULL;
    tsr_conv_params p = {.padding_mode = TSR_CONV_PADDING_SAME};
    CHECK_OK(tsr_conv1d(t, k, NULL, &p, &y));
    check_shape(y, 2, (int64_t[]){1, 5});
    /* windows over [0, 1, 2, 3, 4, 5, 0, 0] */
    check_values(y, (double[]){3210, 4321, 5432, 543, 54}, 5, 0);
    tsr_tensor_release(y);
    tsr_tensor_release(t);
    tsr_tensor_release(k);
}

/* ---- errors -------------------------------------------------------------- */

static void conv_errors_name_the_argument(void)
{
    tsr_tensor *x = from_doubles((double[16]){0}, 4, (int64_t[]){1, 1, 4, 4}, TSR_FLOAT32);
    tsr_tensor *w = from_doubles((double[18]){0}, 4, (int64_t[]){2, 1, 3, 3}, TSR_FLOAT32);
    tsr_tensor *big = from_doubles((double[50]){0}, 4, (int64_t[]){2, 1, 5, 5}, TSR_FLOAT32);
    tsr_tensor *w64 = from_doubles((double[18]){0}, 4, (int64_t[]){2, 1, 3, 3}, TSR_FLOAT64);
    tsr_tensor *bias = from_doubles((double[3]){0}, 1, (int64_t[]){3}, TSR_FLOAT32), *y = NULL;
    int64_t neg = -1, zero = 0, two = 2, three[3] = {1, 1, 1};
    CHECK_ERROR(tsr_conv2d(x, big, NULL, &(tsr_conv_params){.padding = &zero, .npadding = 1}, &y),
                TSR_ERR_SHAPE, "Kernel size can't be greater than actual input size");
    CHECK_ERROR(tsr_conv2d(x, w, NULL, &(tsr_conv_params){.padding = &neg, .npadding = 1}, &y),
                TSR_ERR_INVALID_ARGUMENT, "negative padding");
    CHECK_ERROR(tsr_conv2d(x, w, NULL, &(tsr_conv_params){.stride = &zero, .nstride = 1}, &y),
                TSR_ERR_INVALID_ARGUMENT, "non-positive stride");
    CHECK_ERROR(tsr_conv2d(x, w, NULL, &(tsr_conv_params){.stride = three, .nstride = 3}, &y),
                TSR_ERR_INVALID_ARGUMENT, "expected stride to be a single integer value");
    CHECK_ERROR(tsr_conv2d(x, w, NULL, &(tsr_conv_params){.groups = -1}, &y),
                TSR_ERR_INVALID_ARGUMENT, "non-positive groups");
    CHECK_ERROR(tsr_conv2d(x, w, NULL, &(tsr_conv_params){.groups = 2}, &y), TSR_ERR_SHAPE,
                "to have 2 channels, but got 1 channels");
    CHECK_ERROR(tsr_conv2d(x, w, bias, NULL, &y), TSR_ERR_SHAPE,
                "expected bias to be 1-dimensional");
    CHECK_ERROR(tsr_conv2d(x, w64, NULL, NULL, &y), TSR_ERR_DTYPE, "weight");
    CHECK_ERROR(tsr_conv1d(x, w, NULL, NULL, &y), TSR_ERR_SHAPE, "Expected 2D (unbatched) or 3D");
    CHECK_ERROR(tsr_conv2d(x, w, NULL,
                           &(tsr_conv_params){
                               .padding_mode = TSR_CONV_PADDING_SAME, .stride = &two, .nstride = 1},
                           &y),
                TSR_ERR_INVALID_ARGUMENT, "padding='same' is not supported for strided");
    tsr_tensor *wt = from_doubles((double[18]){0}, 4, (int64_t[]){1, 2, 3, 3}, TSR_FLOAT32);
    int64_t one = 1, three_pad = 3;
    CHECK_ERROR(
        tsr_conv_transpose2d(x, wt, NULL,
                             &(tsr_conv_params){.output_padding = &one, .noutput_padding = 1}, &y),
        TSR_ERR_INVALID_ARGUMENT, "output padding must be smaller than either stride");
    CHECK_ERROR(tsr_conv_transpose2d(x, wt, NULL,
                                     &(tsr_conv_params){.padding = &three_pad, .npadding = 1}, &y),
                TSR_ERR_SHAPE, "Output size is too small");
    CHECK_TRUE(y == NULL);
    double *xv = to_doubles(x);
    for (int i = 0; xv && i < 16; i++)
        CHECK_DOUBLE(xv[i], 0.0, 0);
    free(xv);
    tsr_tensor *rows = from_doubles((double[40]){0}, 3, (int64_t[]){1, 8, 5}, TSR_FLOAT32);
    CHECK_ERROR(tsr_fold(rows, (int64_t[]){4, 4}, 2, (int64_t[]){2}, 1, NULL, &y), TSR_ERR_SHAPE,
                "number of sliding blocks");
    CHECK_ERROR(tsr_unfold(x, (int64_t[]){5}, 1, NULL, &y), TSR_ERR_SHAPE, "at least one");
    CHECK_ERROR(tsr_unfold(x, (int64_t[]){0}, 1, NULL, &y), TSR_ERR_INVALID_ARGUMENT,
                "kernel size should be greater than zero");
    CHECK_TRUE(y == NULL);
    tsr_tensor *tensors[] = {x, w, big, w64, bias, wt, rows};
    for (size_t i = 0; i < sizeof tensors / sizeof tensors[0]; i++)
        tsr_tensor_release(tensors[i]);
}

/* ---- gradients ----------------------------------------------------------- */

typedef struct grad_case {
    const char *name;
    int nd;
    bool transposed, with_bias, unfold, fold;
    int64_t stride, pad, dil, output_padding, groups;
} grad_case;

static tsr_status call_conv(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    const grad_case *c = context;
    tsr_conv_params p = {.stride = &c->stride,
                         .nstride = 1,
                         .padding = &c->pad,
                         .npadding = 1,
                         .dilation = &c->dil,
                         .ndilation = 1,
                         .groups = c->groups};
    if (c->unfold)
        return tsr_unfold(in[0], (int64_t[]){2}, 1, &p, out);
    if (c->fold)
        return tsr_fold(in[0], (int64_t[]){4, 3}, 2, (int64_t[]){2}, 1, &p, out);
    if (c->transposed) {
        p.output_padding = &c->output_padding;
        p.noutput_padding = 1;
        return CONV_T[c->nd](in[0], in[1], n > 2 ? in[2] : NULL, &p, out);
    }
    return CONV[c->nd](in[0], in[1], n > 2 ? in[2] : NULL, &p, out);
}

/* sum(seed * d(sum(seed2 * f))/d(inputs)): second-order terms of f. */
static tsr_status call_gradient(void *context, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    bool previous = tsr_grad_mode_set(true);
    tsr_tensor *y = NULL, *s = NULL, *grads[3] = {NULL, NULL, NULL}, *total = NULL;
    tsr_tensor *made[3] = {NULL, NULL, NULL};
    const tsr_tensor *args[3];
    tsr_status st = TSR_OK;
    for (int i = 0; i < n && st == TSR_OK; i++) {
        args[i] = in[i];
        if (!tsr_tensor_requires_grad(in[i])) { /* a constant of the outer check */
            st = tsr_detach(in[i], &made[i]);
            if (st == TSR_OK)
                st = tsr_tensor_set_requires_grad(made[i], true);
            args[i] = made[i];
        }
    }
    in = args;
    if (st == TSR_OK)
        st = call_conv(context, in, n, &y);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_SIN, y, &s); /* non-linear, so the result depends on y twice */
    tsr_tensor *loss = NULL;
    if (st == TSR_OK)
        st = tsr_sum(s, NULL, 0, false, TSR_DTYPE_INFER, &loss);
    if (st == TSR_OK)
        st = tsr_autograd_grad((const tsr_tensor *const *)&loss, 1, in, (size_t)n, NULL,
                               TSR_GRAD_CREATE_GRAPH, grads);
    for (int i = 0; i < n && st == TSR_OK; i++) {
        tsr_tensor *part = NULL, *sum = NULL;
        st = tsr_sum(grads[i], NULL, 0, false, TSR_DTYPE_INFER, &part);
        if (st == TSR_OK && total) {
            st = tsr_add(total, part, &sum);
            tsr_tensor_release(total);
            tsr_tensor_release(part);
            total = sum;
        } else if (st == TSR_OK) {
            total = part;
        }
    }
    for (int i = 0; i < 3; i++) {
        tsr_tensor_release(grads[i]);
        tsr_tensor_release(made[i]);
    }
    tsr_tensor_release(y);
    tsr_tensor_release(s);
    tsr_tensor_release(loss);
    tsr_grad_mode_set(previous);
    if (st != TSR_OK) {
        tsr_tensor_release(total);
        return st;
    }
    *out = total;
    return TSR_OK;
}

static tsr_tensor *grad_input(int ndim, const int64_t *shape, int salt)
{
    double *v = pattern(volume(shape, ndim), salt);
    for (int64_t i = 0; i < volume(shape, ndim); i++)
        v[i] += 0.01 * (double)i;
    tsr_tensor *t = from_doubles(v, ndim, shape, TSR_FLOAT64);
    free(v);
    CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

static void run_gradcheck(const grad_case *c, bool second_order)
{
    tsr_tensor *in[3] = {NULL, NULL, NULL};
    int n = 1;
    if (c->unfold) {
        in[0] = grad_input(4, (int64_t[]){1, 2, 4, 3}, 1);
    } else if (c->fold) {
        in[0] = grad_input(3, (int64_t[]){2, 8, 20}, 1);
    } else {
        int64_t g = c->groups, xs[5] = {2, 2 * g},
                ws[5] = {c->transposed ? 2 * g : 2 * g, c->transposed ? 2 : 2};
        for (int d = 0; d < c->nd; d++) {
            xs[2 + d] = 4 - d;
            ws[2 + d] = 2;
        }
        in[0] = grad_input(2 + c->nd, xs, 1);
        in[1] = grad_input(2 + c->nd, ws, 2);
        n = 2;
        if (c->with_bias) {
            int64_t cout = c->transposed ? 2 * g : ws[0];
            in[2] = grad_input(1, &cout, 3);
            n = 3;
        }
    }
    double worst = 0;
    tsr_status st = tsr_gradcheck(second_order ? call_gradient : call_conv, (void *)c,
                                  (const tsr_tensor *const *)in, n, NULL, &worst);
    if (st != TSR_OK)
        fprintf(stderr, "  gradcheck %s (order %d): %s\n", c->name, second_order ? 2 : 1,
                tsr_last_error());
    CHECK_OK(st);
    for (int i = 0; i < 3; i++)
        tsr_tensor_release(in[i]);
}

static const grad_case GRAD_CASES[] = {
    {"conv1d_stride_pad", 1, false, true, false, false, 2, 1, 1, 0, 1},
    {"conv2d_groups_dilation", 2, false, true, false, false, 1, 1, 2, 0, 2},
    {"conv3d", 3, false, false, false, false, 1, 1, 1, 0, 1},
    {"conv_transpose1d_output_padding", 1, true, true, false, false, 2, 1, 1, 1, 1},
    {"conv_transpose2d_groups", 2, true, true, false, false, 2, 0, 1, 1, 2},
    {"unfold", 2, false, false, true, false, 1, 1, 1, 0, 1},
    {"fold", 2, false, false, false, true, 1, 1, 1, 0, 1},
};

static void gradients_match_finite_differences(void)
{
    for (size_t i = 0; i < sizeof GRAD_CASES / sizeof GRAD_CASES[0]; i++)
        run_gradcheck(&GRAD_CASES[i], false);
}

static void second_derivatives_match_finite_differences(void)
{
    for (size_t i = 0; i < sizeof GRAD_CASES / sizeof GRAD_CASES[0]; i++)
        run_gradcheck(&GRAD_CASES[i], true);
}

int main(void)
{
    RUN_TEST(unfold_lays_windows_out_as_columns);
    RUN_TEST(fold_sums_overlapping_windows);
    RUN_TEST(unfold_and_fold_take_unbatched_inputs);
    RUN_TEST(conv_matches_the_definition_in_every_geometry);
    RUN_TEST(conv_of_a_large_input_matches_the_definition);
    RUN_TEST(conv_transpose_is_the_adjoint_of_conv);
    RUN_TEST(same_padding_with_an_even_kernel_pads_more_at_the_end);
    RUN_TEST(conv_errors_name_the_argument);
    RUN_TEST(gradients_match_finite_differences);
    RUN_TEST(second_derivatives_match_finite_differences);
    return check_summary("test_conv");
}
