/* F.grid_sample (the grid_sampler kernel pair, with ATen's checks) and
 * F.affine_grid (a composite: a base grid of pixel centres times theta's
 * transpose, so its gradient is the matmul's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autograd/graph.h"
#include "ops/resample.h"
#include "ops/resample_grad.h"
#include "runtime/error.h"
#include "tensor/copy.h"
#include "tensor/launch.h"

static void format_shape(char *text, size_t cap, const tsr_tensor *t)
{
    size_t at = (size_t)snprintf(text, cap, "[");
    for (int i = 0; i < t->ndim && at < cap; i++)
        at +=
            (size_t)snprintf(text + at, cap - at, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
    if (at < cap)
        snprintf(text + at, cap - at, "]");
}

/* ATen's check_grid_sampler_common, _2d and _3d, in their order. */
static tsr_status check_grid_args(const tsr_tensor *input, const tsr_tensor *grid, int mode)
{
    char a[160], b[160];
    format_shape(a, sizeof a, input);
    format_shape(b, sizeof b, grid);
    if (input->storage->backend != grid->storage->backend)
        return tsr__set_error(TSR_ERR_DEVICE_MISMATCH, "grid_sampler(): expected input and grid "
                                                       "to be on same device");
    if (input->dtype != grid->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "grid_sampler(): expected input and grid to have same dtype, but "
                              "input has %s and grid has %s",
                              tsr_dtype_name(input->dtype), tsr_dtype_name(grid->dtype));
    if (input->ndim < 1 || grid->ndim < 1 || input->shape[0] != grid->shape[0])
        return tsr__set_error(TSR_ERR_SHAPE,
                              "grid_sampler(): expected grid and input to have same batch size, "
                              "but got input with sizes %s and grid with sizes %s",
                              a, b);
    if (grid->shape[grid->ndim - 1] != input->ndim - 2)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "grid_sampler(): expected grid to have size %d in last dimension, "
                              "but got grid with sizes %s",
                              input->ndim - 2, b);
    for (int i = 2; i < input->ndim; i++)
        if (input->shape[i] <= 0)
            return tsr__set_error(TSR_ERR_SHAPE,
                                  "grid_sampler(): expected input to have non-empty spatial "
                                  "dimensions, but input has sizes %s with dimension %d being "
                                  "empty",
                                  a, i);
    int want = input->ndim == 4 ? 4 : 5;
    if (input->ndim != want || grid->ndim != want)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "grid_sampler(): expected %dD input and grid with same number of "
                              "dimensions, but got input with sizes %s and grid with sizes %s",
                              want, a, b);
    if (mode == TSR_GRID_SAMPLE_BICUBIC && want == 5)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "grid_sampler(): bicubic interpolation only supports 4D input");
    return TSR_OK;
}

tsr_status tsr_grid_sample(const tsr_tensor *input, const tsr_tensor *grid, int mode,
                           int padding_mode, int align_corners, tsr_tensor **out)
{
    if (!input || !grid || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "grid_sample: input, grid and out must not be NULL");
    if (mode < TSR_GRID_SAMPLE_BILINEAR || mode > TSR_GRID_SAMPLE_BICUBIC)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "grid_sample: nn.functional.grid_sample(): expected mode to be "
                              "'bilinear', 'nearest' or 'bicubic', but got: %d",
                              mode);
    if (padding_mode < TSR_GRID_SAMPLE_ZEROS || padding_mode > TSR_GRID_SAMPLE_REFLECTION)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "grid_sample: nn.functional.grid_sample(): expected padding_mode "
                              "to be 'zeros', 'border', or 'reflection', but got: %d",
                              padding_mode);
    if (align_corners < TSR_OPTION_NONE || align_corners > TSR_OPTION_TRUE)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "grid_sample: align_corners is TSR_OPTION_NONE, _FALSE or _TRUE");
    tsr_status st = check_grid_args(input, grid, mode);
    if (st != TSR_OK)
        return st;
    if (input->dtype != TSR_FLOAT32 && input->dtype != TSR_FLOAT64)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "grid_sample: \"grid_sampler_%dd_cpu\" not "
                              "implemented for '%s'",
                              input->ndim - 2, tsr__resample_type_name(input->dtype));
    tsr_resample_attrs at = {
        .struct_size = sizeof at,
        .mode = mode == TSR_GRID_SAMPLE_NEAREST   ? TSR_RESAMPLE_NEAREST
                : mode == TSR_GRID_SAMPLE_BICUBIC ? TSR_RESAMPLE_CUBIC
                                                  : TSR_RESAMPLE_LINEAR,
        .align_corners = align_corners == TSR_OPTION_TRUE,
        .padding_mode = padding_mode == TSR_GRID_SAMPLE_BORDER       ? TSR_GRID_PAD_BORDER
                        : padding_mode == TSR_GRID_SAMPLE_REFLECTION ? TSR_GRID_PAD_REFLECTION
                                                                     : TSR_GRID_PAD_ZEROS,
    };
    int64_t shape[5] = {input->shape[0], input->shape[1]};
    for (int d = 2; d < input->ndim; d++)
        shape[d] = grid->shape[d - 1];
    tsr_tensor *y = NULL;
    st = tsr__tensor_empty("grid_sample", input->storage->backend, input->dtype, input->ndim, shape,
                           &y);
    if (st == TSR_OK) {
        const tsr_tensor *inputs[2] = {input, grid};
        st = tsr__launch(TSR_OP_GRID_SAMPLER, input->dtype, input->dtype, inputs, 2, &y, 1, &at);
    }
    if (st == TSR_OK)
        st = tsr__grad_record_grid_sampler(input, grid, &at, y);
    return tsr__deliver(st, y, out);
}

/* ATen's linspace_from_neg_one: n points over [-1, 1] (0 for n <= 1),
 * shrunk to the pixel centres by (n - 1) / n without align_corners. */
static double base_coord(int64_t i, int64_t n, bool align_corners, bool single)
{
    if (n <= 1)
        return 0;
    double step = (1.0 - -1.0) / (double)(n - 1);
    if (single)
        step = (float)step;
    /* linspace fills the first half forwards from -1, the rest backwards from 1 */
    double v = i < n / 2 ? -1.0 + step * (double)i : 1.0 - step * (double)(n - 1 - i);
    if (single)
        v = (float)v;
    if (!align_corners) {
        v = v * (double)(n - 1);
        if (single)
            v = (float)v;
        v = v / (double)n;
    }
    return v;
}

/* The base grid [points, k + 1]: x, y(, z), 1 per output location in
 * row-major order of (D,) H, W; on t's backend in t's dtype. */
static tsr_status base_grid(const tsr_tensor *theta, int k, const int64_t *spatial,
                            bool align_corners, tsr_tensor **out)
{
    int64_t points = 1;
    for (int d = 0; d < k; d++)
        points *= spatial[d];
    double *v = malloc((size_t)(points * (k + 1)) * sizeof *v);
    if (!v)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "affine_grid: out of memory");
    bool single = theta->dtype != TSR_FLOAT64;
    for (int64_t p = 0; p < points; p++) {
        int64_t rest = p;
        for (int d = k - 1; d >= 0; d--) { /* coordinate 0 follows the last dim */
            int64_t i = rest % spatial[d];
            rest /= spatial[d];
            v[p * (k + 1) + (k - 1 - d)] = base_coord(i, spatial[d], align_corners, single);
        }
        v[p * (k + 1) + k] = 1.0;
    }
    tsr_tensor *b = NULL;
    int64_t shape[2] = {points, k + 1};
    tsr_status st = tsr_from_host(v, (size_t)(points * (k + 1)) * sizeof *v, 2, shape, TSR_FLOAT64,
                                  theta->storage->backend, &b);
    free(v);
    if (st == TSR_OK)
        st = tsr__convert_if_needed("affine_grid", b, theta->dtype, out);
    tsr_tensor_release(b);
    return st;
}

tsr_status tsr_affine_grid(const tsr_tensor *theta, int size_count, const int64_t *size,
                           int align_corners, tsr_tensor **out)
{
    if (!theta || !out || (size_count > 0 && !size))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "affine_grid: theta, size and out must not be NULL");
    char s[128] = "[", t[128];
    for (int i = 0; i < size_count && i < 8; i++)
        snprintf(s + strlen(s), sizeof s - strlen(s), "%s%lld", i ? ", " : "", (long long)size[i]);
    snprintf(s + strlen(s), sizeof s - strlen(s), "]");
    format_shape(t, sizeof t, theta);
    if (!tsr_dtype_is_floating(theta->dtype))
        return tsr__set_error(TSR_ERR_DTYPE,
                              "affine_grid: Expected theta to have floating point type, but got "
                              "torch.%s",
                              tsr_dtype_name(theta->dtype));
    if (size_count != 4 && size_count != 5)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "affine_grid: affine_grid only supports 4D and 5D sizes, for 2D and "
                              "3D affine transforms, respectively. Got size %s.",
                              s);
    int k = size_count - 2;
    if (theta->ndim != 3 || theta->shape[1] != k || theta->shape[2] != k + 1)
        return tsr__set_error(TSR_ERR_SHAPE,
                              "affine_grid: Expected a batch of %dD affine matrices of shape "
                              "Nx%dx%d for size %s. Got %s.",
                              k, k, k + 1, s, t);
    for (int i = 0; i < size_count; i++)
        if (size[i] <= 0)
            return tsr__set_error(
                TSR_ERR_VALUE, "affine_grid: Expected non-zero, positive output size. Got %s", s);
    if (theta->shape[0] != size[0])
        return tsr__set_error(TSR_ERR_SHAPE,
                              "affine_grid: Expected size for first two dimensions of batch2 "
                              "tensor to be: [%lld, %d] but got: [%lld, %d].",
                              (long long)size[0], k + 1, (long long)theta->shape[0], k + 1);
    if (theta->dtype == TSR_FLOAT16)
        return tsr__set_error(TSR_ERR_DTYPE, "affine_grid: \"bmm\" not implemented for 'Half'");
    tsr_tensor *base = NULL, *theta_t = NULL, *flat = NULL;
    tsr_status st = base_grid(theta, k, size + 2, align_corners == TSR_OPTION_TRUE, &base);
    if (st == TSR_OK)
        st = tsr_transpose(theta, 1, 2, &theta_t);
    if (st == TSR_OK)
        st = tsr_matmul(base, theta_t, &flat); /* [N, points, k] */
    if (st == TSR_OK) {
        int64_t shape[5] = {size[0]};
        for (int d = 0; d < k; d++)
            shape[1 + d] = size[2 + d];
        shape[1 + k] = k;
        st = tsr_reshape(flat, k + 2, shape, out);
    }
    tsr_tensor_release(base);
    tsr_tensor_release(theta_t);
    tsr_tensor_release(flat);
    return st;
}
