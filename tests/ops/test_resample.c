/* The resample family: interpolate (and the upsample aliases), grid_sample
 * and affine_grid. Values derived by hand, PyTorch's errors and messages,
 * large sizes through the kernels' loops, and float64 gradchecks of every
 * gradient (upsample's double backward included). */
#include "check_values.h"

#include <math.h>

enum { NONE = TSR_OPTION_NONE, NO = TSR_OPTION_FALSE, YES = TSR_OPTION_TRUE };

/* A float64 tensor with values sin(salt + 0.7 i) * scale (+ requires grad). */
static tsr_tensor *wave(int ndim, const int64_t *shape, int salt, double scale, bool leaf)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = sin(salt + 0.7 * (double)i) * scale;
    tsr_tensor *t = from_doubles(v, ndim, shape, TSR_FLOAT64);
    free(v);
    if (leaf)
        CHECK_OK(tsr_tensor_set_requires_grad(t, true));
    return t;
}

/* ---- values ------------------------------------------------------------ */

static void nearest_scale_two_repeats_each_element(void)
{
    tsr_tensor *x = from_doubles((double[]){1, 2, 3}, 3, (int64_t[]){1, 1, 3}, TSR_FLOAT32),
               *y = NULL;
    CHECK_OK(tsr_interpolate(x, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, (double[]){2.0},
                             TSR_INTERPOLATE_NEAREST, NONE, NONE, &y));
    check_values(y, (double[]){1, 1, 2, 2, 3, 3}, 6, 0);
    tsr_tensor_release(y);
    /* nearest-exact samples pixel centres: 3 -> 2 takes floor((j + 0.5) * 1.5) = 0, 2 */
    CHECK_OK(tsr_interpolate(x, 1, (int64_t[]){2}, 0, NULL, TSR_INTERPOLATE_NEAREST_EXACT, NONE,
                             NONE, &y));
    check_values(y, (double[]){1, 3}, 2, 0);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

static void given_scale_maps_coordinates_unless_recomputed(void)
{
    /* scale 1.2 on 3 pixels gives 3 outputs; nearest then reads floor(j / 1.2)
     * = 0, 0, 1, while the recomputed scale (1.0) reads 0, 1, 2. */
    tsr_tensor *x = from_doubles((double[]){10, 20, 30}, 3, (int64_t[]){1, 1, 3}, TSR_FLOAT64);
    tsr_tensor *y = NULL;
    CHECK_OK(tsr_interpolate(x, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, (double[]){1.2},
                             TSR_INTERPOLATE_NEAREST, NONE, NONE, &y));
    check_values(y, (double[]){10, 10, 20}, 3, 0);
    tsr_tensor_release(y);
    CHECK_OK(tsr_interpolate(x, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, (double[]){1.2},
                             TSR_INTERPOLATE_NEAREST, NONE, YES, &y));
    check_values(y, (double[]){10, 20, 30}, 3, 0);
    tsr_tensor_release(y);
    /* linear copies when the sizes agree, whatever the scale (as ATen) */
    CHECK_OK(tsr_interpolate(x, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, (double[]){1.2},
                             TSR_INTERPOLATE_LINEAR, NO, NONE, &y));
    check_values(y, (double[]){10, 20, 30}, 3, 0);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

static void linear_blends_neighbours_both_ways_of_align_corners(void)
{
    tsr_tensor *x = from_doubles((double[]){0, 4}, 3, (int64_t[]){1, 1, 2}, TSR_FLOAT64), *y = NULL;
    /* corners aligned: positions 0, 0.5, 1 of the input */
    CHECK_OK(tsr_interpolate(x, 1, (int64_t[]){3}, 0, NULL, TSR_INTERPOLATE_LINEAR, YES, NONE, &y));
    check_values(y, (double[]){0, 2, 4}, 3, 1e-15);
    tsr_tensor_release(y);
    /* half-pixel centres: (j + 0.5) * 2/4 - 0.5 = -0.25 (clamped to 0), 0.25, 0.75, 1.25 */
    CHECK_OK(tsr_interpolate(x, 1, (int64_t[]){4}, 0, NULL, TSR_INTERPOLATE_LINEAR, NO, NONE, &y));
    check_values(y, (double[]){0, 1, 3, 4}, 4, 1e-15);
    tsr_tensor_release(y);
    /* upsample_bilinear means align_corners=True */
    tsr_tensor *x2 = from_doubles((double[]){0, 4, 8, 12}, 4, (int64_t[]){1, 1, 2, 2}, TSR_FLOAT64);
    CHECK_OK(tsr_upsample_bilinear(x2, 2, (int64_t[]){3, 3}, 0, NULL, &y));
    check_values(y, (double[]){0, 2, 4, 4, 6, 8, 8, 10, 12}, 9, 1e-15);
    tsr_tensor_release(y);
    tsr_tensor_release(x2);
    tsr_tensor_release(x);
}

static void bicubic_reproduces_a_linear_ramp_inside(void)
{
    /* Keys' kernel reproduces linear functions away from the clamped border. */
    double v[36];
    for (int i = 0; i < 36; i++)
        v[i] = 3.0 * (i / 6) + (i % 6);
    tsr_tensor *x = from_doubles(v, 4, (int64_t[]){1, 1, 6, 6}, TSR_FLOAT64), *y = NULL;
    CHECK_OK(tsr_interpolate(x, 2, (int64_t[]){11, 11}, 0, NULL, TSR_INTERPOLATE_BICUBIC, YES, NONE,
                             &y));
    double *got = to_doubles(y);
    CHECK_TRUE(got != NULL);
    for (int o0 = 2; got && o0 < 8; o0++)
        for (int o1 = 2; o1 < 8; o1++)
            CHECK_DOUBLE(got[o0 * 11 + o1], 3.0 * o0 * 0.5 + o1 * 0.5, 1e-12);
    free(got);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

static void uint8_nearest_copies_bytes_and_linear_refuses_it(void)
{
    uint8_t v[4] = {0, 255, 7, 128};
    tsr_tensor *x = NULL, *y = NULL;
    CHECK_OK(tsr_from_host(v, sizeof v, 4, (int64_t[]){1, 1, 2, 2}, TSR_UINT8, NULL, &x));
    CHECK_OK(
        tsr_interpolate(x, 2, (int64_t[]){4, 4}, 0, NULL, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y));
    check_values(y, (double[]){0, 0, 255, 255, 0, 0, 255, 255, 7, 7, 128, 128, 7, 7, 128, 128}, 16,
                 0);
    tsr_tensor_release(y);
    CHECK_ERROR(
        tsr_interpolate(x, 2, (int64_t[]){4, 4}, 0, NULL, TSR_INTERPOLATE_BILINEAR, NO, NONE, &y),
        TSR_ERR_DTYPE, "\"upsample_bilinear2d\" not implemented for 'Byte'");
    tsr_tensor_release(x);
}

static void empty_batch_gives_an_empty_result(void)
{
    tsr_tensor *x = NULL, *y = NULL;
    CHECK_OK(tsr_zeros(4, (int64_t[]){0, 2, 3, 3}, TSR_FLOAT32, NULL, &x));
    CHECK_OK(
        tsr_interpolate(x, 2, (int64_t[]){5, 4}, 0, NULL, TSR_INTERPOLATE_BILINEAR, NO, NONE, &y));
    check_shape(y, 4, (int64_t[]){0, 2, 5, 4});
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

/* A (1, 1, 256, 256) ramp (2^16 elements) to 512 x 512 (2^18): with aligned
 * corners the ramp i + 2j is reproduced at the scaled positions. */
static void large_bilinear_upsampling_keeps_a_ramp(void)
{
    int64_t n = 256;
    double *v = malloc((size_t)(n * n) * sizeof *v);
    for (int64_t i = 0; i < n * n; i++)
        v[i] = (double)(i / n) + 2.0 * (double)(i % n);
    tsr_tensor *x = from_doubles(v, 4, (int64_t[]){1, 1, n, n}, TSR_FLOAT64), *y = NULL;
    free(v);
    CHECK_OK(tsr_interpolate(x, 2, (int64_t[]){512, 512}, 0, NULL, TSR_INTERPOLATE_BILINEAR, YES,
                             NONE, &y));
    double *got = to_doubles(y), s = 255.0 / 511.0, worst = 0;
    CHECK_TRUE(got != NULL);
    for (int64_t i = 0; got && i < 512 * 512; i++) {
        double e = (double)(i / 512) * s + 2.0 * (double)(i % 512) * s;
        worst = fmax(worst, fabs(got[i] - e));
    }
    CHECK_DOUBLE(worst, 0.0, 1e-9);
    free(got);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
}

static void identity_affine_grid_samples_the_input_back(void)
{
    int64_t shape[4] = {2, 3, 4, 5};
    tsr_tensor *x = wave(4, shape, 3, 1.0, false), *theta = NULL, *grid = NULL, *y = NULL;
    double id[12] = {1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0};
    theta = from_doubles(id, 3, (int64_t[]){2, 2, 3}, TSR_FLOAT64);
    for (int align = 0; align < 2; align++) {
        CHECK_OK(tsr_affine_grid(theta, 4, shape, align, &grid));
        check_shape(grid, 4, (int64_t[]){2, 4, 5, 2});
        CHECK_OK(
            tsr_grid_sample(x, grid, TSR_GRID_SAMPLE_BILINEAR, TSR_GRID_SAMPLE_ZEROS, align, &y));
        double *want = to_doubles(x);
        check_values(y, want, 2 * 3 * 4 * 5, 1e-12);
        free(want);
        tsr_tensor_release(y);
        tsr_tensor_release(grid);
    }
    tsr_tensor_release(theta);
    tsr_tensor_release(x);
}

/* Keys' kernel (A = -0.75) reproduces a linear ramp where the fraction is
 * 0 (weights 0, 1, 0, 0) or 1/2 (symmetric weights), whatever A. */
static void bicubic_grid_sample_reproduces_a_ramp_at_symmetric_points(void)
{
    double v[48];
    for (int i = 0; i < 48; i++)
        v[i] = 2.0 * (i / 8) - 0.5 * (i % 8);
    tsr_tensor *x = from_doubles(v, 4, (int64_t[]){1, 1, 6, 8}, TSR_FLOAT64);
    /* without align_corners, pixel = ((g + 1) * size - 1) / 2: (x, y) = (3.5, 2.5), (4.5, 4) */
    double gv[4] = {0, 0, 0.25, 0.5};
    tsr_tensor *g = from_doubles(gv, 4, (int64_t[]){1, 1, 2, 2}, TSR_FLOAT64), *y = NULL;
    CHECK_OK(tsr_grid_sample(x, g, TSR_GRID_SAMPLE_BICUBIC, TSR_GRID_SAMPLE_ZEROS, NO, &y));
    check_values(y, (double[]){2.0 * 2.5 - 0.5 * 3.5, 2.0 * 4 - 0.5 * 4.5}, 2, 1e-12);
    tsr_tensor_release(y);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
}

static void grid_outside_the_input_follows_the_padding_mode(void)
{
    /* 1 x 3 row [1, 2, 4], align_corners=True: x = 2 maps to pixel 3 (past the end),
     * x = -1.5 to pixel -0.5. */
    tsr_tensor *x = from_doubles((double[]){1, 2, 4}, 4, (int64_t[]){1, 1, 1, 3}, TSR_FLOAT64);
    tsr_tensor *g =
        from_doubles((double[]){2, 0, -1.5, 0}, 4, (int64_t[]){1, 1, 2, 2}, TSR_FLOAT64);
    tsr_tensor *y = NULL;
    CHECK_OK(tsr_grid_sample(x, g, TSR_GRID_SAMPLE_BILINEAR, TSR_GRID_SAMPLE_ZEROS, YES, &y));
    check_values(y, (double[]){0, 0.5}, 2, 1e-15); /* -0.5: half of pixel 0 */
    tsr_tensor_release(y);
    CHECK_OK(tsr_grid_sample(x, g, TSR_GRID_SAMPLE_BILINEAR, TSR_GRID_SAMPLE_BORDER, YES, &y));
    check_values(y, (double[]){4, 1}, 2, 1e-15);
    tsr_tensor_release(y);
    /* reflection about the corner pixels: 3 -> 1, -0.5 -> 0.5 */
    CHECK_OK(tsr_grid_sample(x, g, TSR_GRID_SAMPLE_BILINEAR, TSR_GRID_SAMPLE_REFLECTION, YES, &y));
    check_values(y, (double[]){2, 1.5}, 2, 1e-15);
    tsr_tensor_release(y);
    CHECK_OK(tsr_grid_sample(x, g, TSR_GRID_SAMPLE_NEAREST, TSR_GRID_SAMPLE_BORDER, YES, &y));
    check_values(y, (double[]){4, 1}, 2, 0);
    tsr_tensor_release(y);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
}

/* ---- errors ------------------------------------------------------------ */

static void interpolate_refuses_bad_arguments_as_pytorch(void)
{
    tsr_tensor *x = NULL, *y = NULL;
    CHECK_OK(tsr_zeros(4, (int64_t[]){1, 2, 3, 3}, TSR_FLOAT32, NULL, &x));
    int64_t s2[2] = {4, 4};
    double two = 2.0;
    CHECK_ERROR(tsr_interpolate(x, 2, s2, -1, &two, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
                TSR_ERR_INVALID_ARGUMENT, "only one of size or scale_factor should be defined");
    CHECK_ERROR(tsr_interpolate(x, 0, NULL, 0, NULL, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
                TSR_ERR_INVALID_ARGUMENT, "either size or scale_factor should be defined");
    CHECK_ERROR(tsr_interpolate(x, 1, s2, 0, NULL, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
                TSR_ERR_INVALID_ARGUMENT, "spatial dimensions of [3, 3] and output size of [4]");
    CHECK_ERROR(tsr_interpolate(x, 0, NULL, 1, &two, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
                TSR_ERR_INVALID_ARGUMENT, "scale_factor of shape [2]");
    CHECK_ERROR(tsr_interpolate(x, 2, s2, 0, NULL, TSR_INTERPOLATE_NEAREST, NO, NONE, &y),
                TSR_ERR_INVALID_ARGUMENT, "align_corners option can only be set");
    CHECK_ERROR(tsr_interpolate(x, 2, s2, 0, NULL, TSR_INTERPOLATE_BILINEAR, NO, YES, &y),
                TSR_ERR_INVALID_ARGUMENT, "recompute_scale_factor is not meaningful");
    CHECK_ERROR(tsr_interpolate(x, -1, s2, 0, NULL, TSR_INTERPOLATE_LINEAR, NO, NONE, &y),
                TSR_ERR_UNIMPLEMENTED, "Got 4D input, but linear mode needs 3D input");
    CHECK_ERROR(tsr_interpolate(x, -1, s2, 0, NULL, TSR_INTERPOLATE_TRILINEAR, NO, NONE, &y),
                TSR_ERR_UNIMPLEMENTED, "trilinear mode needs 5D input");
    CHECK_ERROR(
        tsr_interpolate(x, 2, (int64_t[]){0, 4}, 0, NULL, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
        TSR_ERR_SHAPE, "output (H: 0, W: 4)");
    double small = 0.2;
    CHECK_ERROR(tsr_interpolate(x, 0, NULL, -1, &small, TSR_INTERPOLATE_BICUBIC, NO, NONE, &y),
                TSR_ERR_SHAPE, "Input and output sizes should be greater than 0");
    CHECK_ERROR(tsr_interpolate(x, 2, s2, 0, NULL, TSR_INTERPOLATE_AREA, NO, NONE, &y),
                TSR_ERR_INVALID_ARGUMENT, "align_corners option can only be set");
    tsr_tensor *h = NULL;
    CHECK_OK(tsr_zeros(4, (int64_t[]){1, 2, 3, 3}, TSR_FLOAT16, NULL, &h));
    CHECK_ERROR(tsr_interpolate(h, 2, s2, 0, NULL, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
                TSR_ERR_DTYPE, "not implemented for 'Half'");
    tsr_tensor *c0 = NULL;
    CHECK_OK(tsr_zeros(4, (int64_t[]){1, 0, 3, 3}, TSR_FLOAT32, NULL, &c0));
    CHECK_ERROR(tsr_interpolate(c0, 2, s2, 0, NULL, TSR_INTERPOLATE_NEAREST, NONE, NONE, &y),
                TSR_ERR_SHAPE, "Non-empty 4D data tensor expected");
    CHECK_TRUE(y == NULL);
    tsr_tensor_release(c0);
    tsr_tensor_release(h);
    tsr_tensor_release(x);
}

static void grid_sample_and_affine_grid_refuse_mismatches(void)
{
    tsr_tensor *x = NULL, *g = NULL, *g64 = NULL, *g3 = NULL, *y = NULL;
    CHECK_OK(tsr_zeros(4, (int64_t[]){2, 1, 3, 3}, TSR_FLOAT32, NULL, &x));
    CHECK_OK(tsr_zeros(4, (int64_t[]){1, 2, 2, 2}, TSR_FLOAT32, NULL, &g));
    CHECK_OK(tsr_zeros(4, (int64_t[]){2, 2, 2, 2}, TSR_FLOAT64, NULL, &g64));
    CHECK_OK(tsr_zeros(4, (int64_t[]){2, 2, 2, 3}, TSR_FLOAT32, NULL, &g3));
    CHECK_ERROR(tsr_grid_sample(x, g, 0, 0, NO, &y), TSR_ERR_SHAPE,
                "expected grid and input to have same batch size");
    CHECK_ERROR(tsr_grid_sample(x, g64, 0, 0, NO, &y), TSR_ERR_DTYPE,
                "expected input and grid to have same dtype");
    CHECK_ERROR(tsr_grid_sample(x, g3, 0, 0, NO, &y), TSR_ERR_SHAPE,
                "expected grid to have size 2 in last dimension");
    CHECK_ERROR(tsr_grid_sample(x, g3, 7, 0, NO, &y), TSR_ERR_INVALID_ARGUMENT, "mode");
    CHECK_ERROR(tsr_grid_sample(x, g3, 0, 9, NO, &y), TSR_ERR_INVALID_ARGUMENT, "padding_mode");
    tsr_tensor *x5 = NULL, *g5 = NULL;
    CHECK_OK(tsr_zeros(5, (int64_t[]){1, 1, 2, 2, 2}, TSR_FLOAT32, NULL, &x5));
    CHECK_OK(tsr_zeros(5, (int64_t[]){1, 2, 2, 2, 3}, TSR_FLOAT32, NULL, &g5));
    CHECK_ERROR(tsr_grid_sample(x5, g5, TSR_GRID_SAMPLE_BICUBIC, 0, NO, &y),
                TSR_ERR_INVALID_ARGUMENT, "bicubic interpolation only supports 4D input");
    tsr_tensor_release(x5);
    tsr_tensor_release(g5);
    tsr_tensor *theta = NULL, *itheta = NULL;
    CHECK_OK(tsr_zeros(3, (int64_t[]){1, 3, 4}, TSR_FLOAT32, NULL, &theta));
    CHECK_ERROR(tsr_affine_grid(theta, 4, (int64_t[]){1, 1, 2, 2}, NO, &y), TSR_ERR_SHAPE,
                "Expected a batch of 2D affine matrices of shape Nx2x3");
    CHECK_ERROR(tsr_affine_grid(theta, 5, (int64_t[]){1, 1, 2, 0, 2}, NO, &y), TSR_ERR_VALUE,
                "Expected non-zero, positive output size");
    CHECK_ERROR(tsr_affine_grid(theta, 3, (int64_t[]){1, 1, 2}, NO, &y), TSR_ERR_UNIMPLEMENTED,
                "affine_grid only supports 4D and 5D sizes");
    CHECK_OK(tsr_zeros(3, (int64_t[]){1, 2, 3}, TSR_INT64, NULL, &itheta));
    CHECK_ERROR(tsr_affine_grid(itheta, 4, (int64_t[]){1, 1, 2, 2}, NO, &y), TSR_ERR_DTYPE,
                "Expected theta to have floating point type");
    CHECK_TRUE(y == NULL);
    tsr_tensor_release(itheta);
    tsr_tensor_release(theta);
    tsr_tensor_release(g3);
    tsr_tensor_release(g64);
    tsr_tensor_release(g);
    tsr_tensor_release(x);
}

/* ---- gradients --------------------------------------------------------- */

typedef struct interp_case {
    int mode, align, ndim;
    int64_t size[3];
    double scale; /* used when size[0] is 0 */
} interp_case;

static tsr_status f_interpolate(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    const interp_case *ic = c;
    if (ic->size[0] == 0)
        return tsr_interpolate(in[0], 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, &ic->scale, ic->mode,
                               ic->align, NONE, out);
    return tsr_interpolate(in[0], ic->ndim - 2, ic->size, 0, NULL, ic->mode, ic->align, NONE, out);
}

/* Mode 'area' averages adaptive_avg_pool's windows [floor(i n / m),
 * ceil((i + 1) n / m)): 5 -> 3 overlaps them; a scale factor becomes the
 * size floor(5 * 0.6) = 3. Its gradient is the pool's, checked in float64. */
static void area_averages_adaptive_windows_and_has_their_gradient(void)
{
    tsr_tensor *x = from_doubles((double[]){1, 2, 3, 4, 5}, 3, (int64_t[]){1, 1, 5}, TSR_FLOAT32),
               *y = NULL;
    CHECK_OK(tsr_interpolate(x, 1, (int64_t[]){3}, 0, NULL, TSR_INTERPOLATE_AREA, NONE, NONE, &y));
    check_values(y, (double[]){1.5, 3, 4.5}, 3, 1e-6);
    tsr_tensor_release(y);
    CHECK_OK(tsr_interpolate(x, 0, NULL, TSR_RESAMPLE_ONE_FOR_ALL, (double[]){0.6},
                             TSR_INTERPOLATE_AREA, NONE, NONE, &y));
    check_values(y, (double[]){1.5, 3, 4.5}, 3, 1e-6);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
    const interp_case cases[] = {
        {TSR_INTERPOLATE_AREA, NONE, 3, {3}, 0},
        {TSR_INTERPOLATE_AREA, NONE, 4, {3, 2}, 0},
        {TSR_INTERPOLATE_AREA, NONE, 5, {2, 2, 2}, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t shape[5] = {2, 2, 5, 3, 3};
        tsr_tensor *w = wave(cases[i].ndim, shape, (int)i, 1.0, true);
        CHECK_OK(tsr_gradcheck(f_interpolate, (void *)&cases[i], (const tsr_tensor *const *)&w, 1,
                               NULL, NULL));
        tsr_tensor_release(w);
    }
}

static void interpolate_gradients_pass_gradcheck_in_every_mode(void)
{
    const interp_case cases[] = {
        {TSR_INTERPOLATE_NEAREST, NONE, 3, {7}, 0},
        {TSR_INTERPOLATE_NEAREST, NONE, 4, {0}, 1.7},
        {TSR_INTERPOLATE_NEAREST_EXACT, NONE, 5, {3, 2, 5}, 0},
        {TSR_INTERPOLATE_LINEAR, NO, 3, {0}, 0.6},
        {TSR_INTERPOLATE_LINEAR, YES, 3, {9}, 0},
        {TSR_INTERPOLATE_BILINEAR, NO, 4, {5, 2}, 0},
        {TSR_INTERPOLATE_BILINEAR, YES, 4, {0}, 2.5},
        {TSR_INTERPOLATE_BICUBIC, NO, 4, {6, 3}, 0},
        {TSR_INTERPOLATE_BICUBIC, YES, 4, {2, 7}, 0},
        {TSR_INTERPOLATE_TRILINEAR, NO, 5, {3, 4, 2}, 0},
        {TSR_INTERPOLATE_TRILINEAR, YES, 5, {0}, 1.5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t shape[5] = {2, 2, 4, 3, 3};
        if (cases[i].ndim == 3)
            shape[2] = 5;
        tsr_tensor *x = wave(cases[i].ndim, shape, (int)i, 1.0, true);
        CHECK_OK(tsr_gradcheck(f_interpolate, (void *)&cases[i], (const tsr_tensor *const *)&x, 1,
                               NULL, NULL));
        tsr_tensor *y = NULL;
        CHECK_OK(f_interpolate((void *)&cases[i], (const tsr_tensor *const *)&x, 1, &y));
        CHECK_STR(y ? tsr_tensor_grad_fn_name(y) : NULL, "upsample");
        tsr_tensor_release(y);
        tsr_tensor_release(x);
    }
}

/* d(interpolate)/dx applied to gout = in[1], as a function of gout: its
 * gradient runs upsample_backward's own backward (double backward). x is a
 * fresh leaf each time: the vjp does not depend on its values. */
static tsr_status f_interpolate_vjp(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    bool previous = tsr_grad_mode_set(true); /* gradcheck's probes run without it */
    tsr_tensor *x = NULL, *y = NULL;
    tsr_status st = tsr_detach(in[0], &x);
    if (st == TSR_OK)
        st = tsr_tensor_set_requires_grad(x, true);
    if (st == TSR_OK)
        st = f_interpolate(c, (const tsr_tensor *const *)&x, 1, &y);
    if (st == TSR_OK)
        st = tsr_autograd_grad((const tsr_tensor *const *)&y, 1, (const tsr_tensor *const *)&x, 1,
                               &in[1], TSR_GRAD_CREATE_GRAPH, out);
    tsr_grad_mode_set(previous);
    tsr_tensor_release(y);
    tsr_tensor_release(x);
    return st;
}

static void interpolate_double_backward_passes_gradcheck(void)
{
    const interp_case cases[] = {{TSR_INTERPOLATE_BICUBIC, NO, 4, {5, 2}, 0},
                                 {TSR_INTERPOLATE_NEAREST, NONE, 3, {0}, 2.5}};
    for (int i = 0; i < 2; i++) {
        int64_t xs[4] = {1, 2, 3, 4}, gs[4] = {1, 2, 5, 2};
        if (i == 1) {
            xs[2] = gs[2] = 3;
            gs[2] = 7; /* floor(3 * 2.5) */
        }
        tsr_tensor *in[2] = {wave(cases[i].ndim, xs, 1, 1.0, false),
                             wave(cases[i].ndim, gs, 2, 1.0, true)};
        CHECK_OK(tsr_gradcheck(f_interpolate_vjp, (void *)&cases[i], (const tsr_tensor *const *)in,
                               2, NULL, NULL));
        tsr_tensor_release(in[0]);
        tsr_tensor_release(in[1]);
    }
}

typedef struct grid_case {
    int mode, padding, align;
} grid_case;

static tsr_status f_grid_sample(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    const grid_case *gc = c;
    return tsr_grid_sample(in[0], in[1], gc->mode, gc->padding, gc->align, out);
}

static void grid_sample_gradients_reach_input_and_grid(void)
{
    for (int k = 2; k <= 3; k++)
        for (int padding = 0; padding < 3; padding++)
            for (int mode = 0; mode < (k == 2 ? 3 : 2); mode++) /* bicubic: 4-d only */
                for (int align = 0; align < 2; align++) {
                    grid_case gc = {mode, padding, align};
                    int64_t xs[5] = {2, 2, 3, 4, 3}, gs[5] = {2, 2, 3, 2, 3};
                    gs[k + 1] = k;
                    /* grid values reach past [-1, 1] and avoid pixel boundaries */
                    tsr_tensor *in[2] = {wave(k + 2, xs, k + padding, 1.0, true),
                                         wave(k + 2, gs, 7 + mode, 1.37, true)};
                    tsr_status st = tsr_gradcheck(f_grid_sample, &gc, (const tsr_tensor *const *)in,
                                                  2, NULL, NULL);
                    if (st != TSR_OK)
                        fprintf(stderr, "grid_sample k=%d padding=%d mode=%d align=%d\n", k,
                                padding, mode, align);
                    CHECK_OK(st);
                    tsr_tensor_release(in[0]);
                    tsr_tensor_release(in[1]);
                }
}

static tsr_status f_affine_grid(void *c, const tsr_tensor *const *in, int n, tsr_tensor **out)
{
    (void)n;
    const int64_t *size = c;
    return tsr_affine_grid(in[0], size[0] == 4 ? 4 : 5, size + 1, NO, out);
}

static void affine_grid_gradient_reaches_theta(void)
{
    int64_t two_d[5] = {4, 2, 1, 3, 4}, three_d[6] = {5, 2, 1, 2, 3, 2};
    tsr_tensor *t2 = wave(3, (int64_t[]){2, 2, 3}, 1, 1.0, true);
    tsr_tensor *t3 = wave(3, (int64_t[]){2, 3, 4}, 2, 1.0, true);
    CHECK_OK(tsr_gradcheck(f_affine_grid, two_d, (const tsr_tensor *const *)&t2, 1, NULL, NULL));
    CHECK_OK(tsr_gradcheck(f_affine_grid, three_d, (const tsr_tensor *const *)&t3, 1, NULL, NULL));
    tsr_tensor_release(t2);
    tsr_tensor_release(t3);
}

int main(void)
{
    RUN_TEST(nearest_scale_two_repeats_each_element);
    RUN_TEST(given_scale_maps_coordinates_unless_recomputed);
    RUN_TEST(linear_blends_neighbours_both_ways_of_align_corners);
    RUN_TEST(bicubic_reproduces_a_linear_ramp_inside);
    RUN_TEST(uint8_nearest_copies_bytes_and_linear_refuses_it);
    RUN_TEST(empty_batch_gives_an_empty_result);
    RUN_TEST(large_bilinear_upsampling_keeps_a_ramp);
    RUN_TEST(identity_affine_grid_samples_the_input_back);
    RUN_TEST(grid_outside_the_input_follows_the_padding_mode);
    RUN_TEST(bicubic_grid_sample_reproduces_a_ramp_at_symmetric_points);
    RUN_TEST(interpolate_refuses_bad_arguments_as_pytorch);
    RUN_TEST(area_averages_adaptive_windows_and_has_their_gradient);
    RUN_TEST(grid_sample_and_affine_grid_refuse_mismatches);
    RUN_TEST(interpolate_gradients_pass_gradcheck_in_every_mode);
    RUN_TEST(interpolate_double_backward_passes_gradcheck);
    RUN_TEST(grid_sample_gradients_reach_input_and_grid);
    RUN_TEST(affine_grid_gradient_reaches_theta);
    return check_summary("test_resample");
}
