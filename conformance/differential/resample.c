/* Differential draws for interpolate, grid_sample and affine_grid: small
 * [N, C, spatial...] inputs, a size or a (non-integer) scale factor, each
 * mode with its rank, grids reaching past [-1, 1]. Values are finite: a NaN
 * grid coordinate reads whatever pixel a backend's float-to-int conversion
 * gives (PyTorch's own CPU kernels disagree there), and an infinite pixel
 * times a zero weight is NaN or not depending on the summation. */
#include "differential/draw_helpers.h"

static const char *const MODES[] = {"nearest",  "nearest-exact", "linear",
                                    "bilinear", "bicubic",       "trilinear"};
static const int MODE_RANK[] = {0, 0, 3, 4, 4, 5};

/* [N, C, spatial...] with small sizes, N empty now and then. */
static void volume(conf_draft *d, const char *name, int ndim, int64_t *s)
{
    s[0] = pick(d, 0.1) ? 0 : range(d, 1, 2);
    s[1] = range(d, 1, 3);
    for (int i = 2; i < ndim; i++)
        s[i] = range(d, 1, ndim == 5 ? 3 : 5);
    conf_draft_tensor(d, name, d->dtype, ndim, s, conf_values_of(CONF_VALUES_FINITE),
                      CONF_LAYOUT_COUNT);
}

static bool draw_interpolate(conf_draft *d)
{
    int m = (int)range(d, 0, 5);
    int ndim = MODE_RANK[m] ? MODE_RANK[m] : (int)range(d, 3, 5);
    int64_t s[5];
    volume(d, "input", ndim, s);
    conf_draft_arg_string(d, "mode", MODES[m]);
    if (pick(d, 0.5)) {
        int64_t size[3];
        for (int i = 0; i < ndim - 2; i++)
            size[i] = range(d, 1, 7);
        conf_draft_arg_int_list(d, "size", ndim - 2, size);
    } else {
        static const double scales[] = {0.5, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0};
        conf_draft_arg_double(d, "scale_factor", scales[range(d, 0, 6)]);
        if (pick(d, 0.3))
            conf_draft_arg_bool(d, "recompute_scale_factor", true);
    }
    if (m >= 2)
        conf_draft_arg_bool(d, "align_corners", pick(d, 0.5));
    return true;
}

static bool draw_grid_sample(conf_draft *d)
{
    static const char *const paddings[] = {"zeros", "border", "reflection"};
    int ndim = pick(d, 0.7) ? 4 : 5;
    int64_t s[5], g[5];
    volume(d, "input", ndim, s);
    g[0] = s[0];
    for (int i = 1; i < ndim - 1; i++)
        g[i] = range(d, 1, 4);
    g[ndim - 1] = ndim - 2;
    conf_draft_tensor(d, "grid", d->dtype, ndim, g, conf_values_of(CONF_VALUES_FINITE),
                      CONF_LAYOUT_COUNT);
    conf_draft_arg_string(d, "mode", pick(d, 0.7) ? "bilinear" : "nearest");
    conf_draft_arg_string(d, "padding_mode", paddings[range(d, 0, 2)]);
    conf_draft_arg_bool(d, "align_corners", pick(d, 0.5));
    return true;
}

static bool draw_affine_grid(conf_draft *d)
{
    int k = pick(d, 0.7) ? 2 : 3;
    int64_t theta[3] = {range(d, 1, 3), k, k + 1}, size[5] = {theta[0], range(d, 1, 3)};
    for (int i = 0; i < k; i++)
        size[2 + i] = range(d, 1, 5);
    conf_draft_tensor(d, "theta", d->dtype, 3, theta, conf_values_of(CONF_VALUES_FINITE),
                      CONF_LAYOUT_COUNT);
    conf_draft_arg_int_list(d, "size", k + 2, size);
    conf_draft_arg_bool(d, "align_corners", pick(d, 0.5));
    return true;
}

const conf_diff_op conf_diff_draws_resample[] = {
    {"interpolate", draw_interpolate, 0},
    {"grid_sample", draw_grid_sample, 0},
    {"affine_grid", draw_affine_grid, 0},
};
const size_t conf_diff_draws_resample_count =
    sizeof conf_diff_draws_resample / sizeof conf_diff_draws_resample[0];
