/* upsample, upsample_backward and grid_sampler on the Vulkan backend
 * (float32), against the reference backend through the public API: every
 * interpolate mode up and down with given and recomputed scales,
 * align_corners both ways and a transposed input, and its gradient (the
 * device's gather against the reference's scatter-add); grid_sample in
 * every mode (bicubic 4-d only) and padding mode, 4-d and 5-d, with grids
 * past [-1, 1]. The shaders pick the reference's pixels
 * (the same float index arithmetic) and sum in float, so values agree to a
 * few float32 roundings. Small sizes: lavapipe emulates the device.
 *
 * Exit 77 (skip) when there is no Vulkan loader or device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tessera/tessera.h>

#include "vulkan_api_test.h"

#define OK(call) EXPECT((call) == TSR_OK, "%s: %s", #call, tsr_last_error())

static tsr_backend *ref, *vk;

/* A random float32 tensor on the reference backend, scaled, and its copy on
 * the device; false after a failure (counted). */
static bool make_pair(int ndim, const int64_t *shape, uint64_t seed, double scale, tsr_tensor **r,
                      tsr_tensor **v)
{
    tsr_generator *gen = NULL;
    tsr_tensor *raw = NULL;
    *r = *v = NULL;
    OK(tsr_generator_create(seed, &gen));
    OK(tsr_randn(gen, ndim, shape, TSR_FLOAT32, ref, &raw));
    tsr_generator_destroy(gen);
    if (raw)
        OK(tsr_binary(TSR_OP_MUL, tsr_operand_tensor(raw),
                      tsr_operand_scalar(tsr_scalar_float(scale)), r));
    tsr_tensor_release(raw);
    if (*r)
        OK(tsr_to_backend(*r, vk, v));
    return *r && *v;
}

/* Same shape, values within 1e-5 relative plus 1e-5. */
static void compare(const char *what, const tsr_tensor *got, const tsr_tensor *want)
{
    EXPECT(got && want, "%s: no result: %s", what, tsr_last_error());
    if (!got || !want)
        return;
    int64_t n = tsr_tensor_numel(want);
    EXPECT(tsr_tensor_numel(got) == n, "%s: %lld vs %lld elements", what,
           (long long)tsr_tensor_numel(got), (long long)n);
    float *g = malloc((size_t)n * 4 + 4), *w = malloc((size_t)n * 4 + 4);
    if (tsr_tensor_numel(got) == n && tsr_to_host(got, g, (size_t)n * 4) == TSR_OK &&
        tsr_to_host(want, w, (size_t)n * 4) == TSR_OK) {
        int bad = 0;
        for (int64_t i = 0; i < n && bad < 3; ++i)
            if (!(fabs((double)g[i] - (double)w[i]) <= 1e-5 * fabs((double)w[i]) + 1e-5)) {
                EXPECT(0, "%s, element %lld: vulkan %.9g, reference %.9g", what, (long long)i, g[i],
                       w[i]);
                ++bad;
            }
    } else {
        EXPECT(0, "%s: reading back: %s", what, tsr_last_error());
    }
    free(g);
    free(w);
}

static void interpolate_matches_the_reference(void)
{
    static const struct {
        int mode, ndim;
    } modes[] = {{TSR_INTERPOLATE_NEAREST, 3}, {TSR_INTERPOLATE_NEAREST, 4},
                 {TSR_INTERPOLATE_NEAREST, 5}, {TSR_INTERPOLATE_NEAREST_EXACT, 4},
                 {TSR_INTERPOLATE_LINEAR, 3},  {TSR_INTERPOLATE_BILINEAR, 4},
                 {TSR_INTERPOLATE_BICUBIC, 4}, {TSR_INTERPOLATE_TRILINEAR, 5}};
    static const double scales[] = {2.0, 1.7, 0.6, 1.2};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
        int nd = modes[m].ndim, mode = modes[m].mode;
        int64_t shape[5] = {2, 3, 5, 4, 3};
        tsr_tensor *r = NULL, *v = NULL;
        if (!make_pair(nd, shape, 11 + m, 1.0, &r, &v))
            continue;
        bool nearest = mode <= TSR_INTERPOLATE_NEAREST_EXACT;
        for (int align = 0; align < (nearest ? 1 : 2); ++align)
            for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s)
                for (int recompute = 0; recompute < 2; ++recompute) {
                    char what[96];
                    snprintf(what, sizeof what, "mode %d, %dd, align %d, scale %g, recompute %d",
                             mode, nd, align, scales[s], recompute);
                    int ac = nearest ? TSR_OPTION_NONE : align;
                    int rc = recompute ? TSR_OPTION_TRUE : TSR_OPTION_NONE;
                    tsr_tensor *yr = NULL, *yv = NULL;
                    OK(tsr_interpolate(r, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, &scales[s], mode, ac,
                                       rc, &yr));
                    OK(tsr_interpolate(v, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, &scales[s], mode, ac,
                                       rc, &yv));
                    compare(what, yv, yr);
                    tsr_tensor_release(yr);
                    tsr_tensor_release(yv);
                }
        /* a transposed (strided) input and an explicit size */
        tsr_tensor *tr = NULL, *tv = NULL, *yr = NULL, *yv = NULL;
        int64_t size[3] = {7, 2, 4};
        OK(tsr_transpose(r, 0, 1, &tr));
        OK(tsr_transpose(v, 0, 1, &tv));
        int ac = nearest ? TSR_OPTION_NONE : TSR_OPTION_FALSE;
        OK(tsr_interpolate(tr, nd - 2, size, 0, NULL, mode, ac, TSR_OPTION_NONE, &yr));
        OK(tsr_interpolate(tv, nd - 2, size, 0, NULL, mode, ac, TSR_OPTION_NONE, &yv));
        compare("transposed input", yv, yr);
        tsr_tensor_release(yr);
        tsr_tensor_release(yv);
        tsr_tensor_release(tr);
        tsr_tensor_release(tv);
        tsr_tensor_release(r);
        tsr_tensor_release(v);
    }
}

/* d(sum(gout * interpolate(x)))/dx on backend x's, with gout in *gout_r's
 * values moved there. */
static tsr_tensor *input_gradient(tsr_tensor *x, const tsr_tensor *gout_r, const double *scale,
                                  int mode, int align, tsr_backend *where)
{
    tsr_tensor *leaf = NULL, *y = NULL, *gout = NULL, *g = NULL;
    OK(tsr_detach(x, &leaf));
    if (leaf)
        OK(tsr_tensor_set_requires_grad(leaf, true));
    if (leaf)
        OK(tsr_interpolate(leaf, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, scale, mode, align,
                           TSR_OPTION_NONE, &y));
    if (y)
        OK(tsr_to_backend(gout_r, where, &gout));
    if (y && gout)
        OK(tsr_autograd_grad((const tsr_tensor *const *)&y, 1, (const tsr_tensor *const *)&leaf, 1,
                             (const tsr_tensor *const *)&gout, 0, &g));
    tsr_tensor_release(leaf);
    tsr_tensor_release(y);
    tsr_tensor_release(gout);
    return g;
}

/* upsample_backward (a gather on the device) against the reference's
 * scatter-add, up and down, every mode. */
static void interpolate_gradient_matches_the_reference(void)
{
    static const struct {
        int mode, ndim;
    } modes[] = {{TSR_INTERPOLATE_NEAREST, 3},       {TSR_INTERPOLATE_NEAREST, 4},
                 {TSR_INTERPOLATE_NEAREST_EXACT, 5}, {TSR_INTERPOLATE_LINEAR, 3},
                 {TSR_INTERPOLATE_BILINEAR, 4},      {TSR_INTERPOLATE_BICUBIC, 4},
                 {TSR_INTERPOLATE_TRILINEAR, 5}};
    static const double scales[] = {2.0, 1.7, 0.6, 1.2, 3.5};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; ++m) {
        int nd = modes[m].ndim, mode = modes[m].mode;
        int64_t shape[5] = {2, 2, 5, 4, 3};
        tsr_tensor *r = NULL, *v = NULL;
        if (!make_pair(nd, shape, 31 + m, 1.0, &r, &v))
            continue;
        bool nearest = mode <= TSR_INTERPOLATE_NEAREST_EXACT;
        for (int align = 0; align < (nearest ? 1 : 2); ++align)
            for (size_t s = 0; s < sizeof scales / sizeof scales[0]; ++s) {
                int ac = nearest ? TSR_OPTION_NONE : align;
                tsr_tensor *y = NULL, *gout_r = NULL, *gout_v = NULL;
                OK(tsr_interpolate(r, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, &scales[s], mode, ac,
                                   TSR_OPTION_NONE, &y));
                if (!y || !make_pair(tsr_tensor_ndim(y), tsr_tensor_shape(y), 77 + s, 1.0, &gout_r,
                                     &gout_v)) {
                    tsr_tensor_release(y);
                    continue;
                }
                tsr_tensor *gr = input_gradient(r, gout_r, &scales[s], mode, ac, ref);
                tsr_tensor *gv = input_gradient(v, gout_r, &scales[s], mode, ac, vk);
                char what[96];
                snprintf(what, sizeof what, "gradient: mode %d, %dd, align %d, scale %g", mode, nd,
                         align, scales[s]);
                compare(what, gv, gr);
                tsr_tensor_release(gr);
                tsr_tensor_release(gv);
                tsr_tensor_release(gout_r);
                tsr_tensor_release(gout_v);
                tsr_tensor_release(y);
            }
        tsr_tensor_release(r);
        tsr_tensor_release(v);
    }
}

/* Past 2^16 output elements (several per invocation), and a gradient whose
 * gather would loop past llvmpipe's budget: refused there with a message,
 * never answered wrong. */
static void large_sizes_and_the_loop_budget(void)
{
    int64_t shape[4] = {1, 2, 150, 130}, size[2] = {300, 260};
    tsr_tensor *r = NULL, *v = NULL, *yr = NULL, *yv = NULL;
    if (make_pair(4, shape, 3, 1.0, &r, &v)) {
        OK(tsr_interpolate(r, 2, size, 0, NULL, TSR_INTERPOLATE_BILINEAR, TSR_OPTION_FALSE,
                           TSR_OPTION_NONE, &yr));
        OK(tsr_interpolate(v, 2, size, 0, NULL, TSR_INTERPOLATE_BILINEAR, TSR_OPTION_FALSE,
                           TSR_OPTION_NONE, &yv));
        compare("large bilinear", yv, yr);
        tsr_tensor_release(yr);
        tsr_tensor_release(yv);
        tsr_tensor_release(r);
        tsr_tensor_release(v);
    }
    int64_t tiny[3] = {1, 1, 2};
    double scale = 40000.0;
    if (!make_pair(3, tiny, 4, 1.0, &r, &v))
        return;
    tsr_tensor *gout_r = NULL, *gout_v = NULL, *y = NULL;
    OK(tsr_interpolate(r, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, &scale, TSR_INTERPOLATE_LINEAR,
                       TSR_OPTION_FALSE, TSR_OPTION_NONE, &y));
    if (y && make_pair(3, tsr_tensor_shape(y), 8, 1.0, &gout_r, &gout_v)) {
        tsr_tensor *gr =
            input_gradient(r, gout_r, &scale, TSR_INTERPOLATE_LINEAR, TSR_OPTION_FALSE, ref);
        tsr_tensor *leaf = NULL, *yv2 = NULL, *gv = NULL;
        OK(tsr_detach(v, &leaf));
        OK(tsr_tensor_set_requires_grad(leaf, true));
        OK(tsr_interpolate(leaf, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, &scale, TSR_INTERPOLATE_LINEAR,
                           TSR_OPTION_FALSE, TSR_OPTION_NONE, &yv2));
        int st =
            tsr_autograd_grad((const tsr_tensor *const *)&yv2, 1, (const tsr_tensor *const *)&leaf,
                              1, (const tsr_tensor *const *)&gout_v, 0, &gv);
        printf("note: the 40000-fold upscaling's gradient %s\n",
               st == TSR_OK ? "ran on the device" : "was refused (loop budget)");
        if (st == TSR_OK)
            compare("gradient of a 40000-fold upscaling", gv, gr);
        else
            EXPECT(st == TSR_ERR_UNIMPLEMENTED && strstr(tsr_last_error(), "65535"),
                   "over-budget gradient: %s", tsr_last_error());
        tsr_tensor_release(gv);
        tsr_tensor_release(yv2);
        tsr_tensor_release(leaf);
        tsr_tensor_release(gr);
    }
    tsr_tensor_release(gout_r);
    tsr_tensor_release(gout_v);
    tsr_tensor_release(y);
    tsr_tensor_release(r);
    tsr_tensor_release(v);
}

static void grid_sample_matches_the_reference(void)
{
    for (int k = 2; k <= 3; ++k) {
        int64_t xs[5] = {2, 3, 4, 5, 3}, gs[5] = {2, 3, 4, 2, 2};
        gs[k + 1] = k;
        tsr_tensor *xr = NULL, *xv = NULL, *gr = NULL, *gv = NULL;
        if (!make_pair(k + 2, xs, 5 + k, 1.0, &xr, &xv) ||
            !make_pair(k + 2, gs, 9 + k, 1.3, &gr, &gv)) {
            tsr_tensor_release(xr);
            tsr_tensor_release(xv);
            tsr_tensor_release(gr);
            tsr_tensor_release(gv);
            continue;
        }
        for (int mode = 0; mode < (k == 2 ? 3 : 2); ++mode) /* bicubic: 4-d only */
            for (int padding = 0; padding < 3; ++padding)
                for (int align = 0; align < 2; ++align) {
                    char what[96];
                    snprintf(what, sizeof what, "grid_sample %dd, mode %d, padding %d, align %d", k,
                             mode, padding, align);
                    tsr_tensor *yr = NULL, *yv = NULL;
                    OK(tsr_grid_sample(xr, gr, mode, padding, align, &yr));
                    OK(tsr_grid_sample(xv, gv, mode, padding, align, &yv));
                    compare(what, yv, yr);
                    tsr_tensor_release(yr);
                    tsr_tensor_release(yv);
                }
        tsr_tensor_release(xr);
        tsr_tensor_release(xv);
        tsr_tensor_release(gr);
        tsr_tensor_release(gv);
    }
}

int main(void)
{
    int loaded = get_reference_and_vulkan(&ref, &vk);
    if (loaded != 0)
        return loaded;
    interpolate_matches_the_reference();
    interpolate_gradient_matches_the_reference();
    grid_sample_matches_the_reference();
    large_sizes_and_the_loop_budget();
    EXPECT(tsr_backend_synchronize(vk) == TSR_OK, "synchronize: %s", tsr_last_error());
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("all resample checks passed\n");
    return 0;
}
