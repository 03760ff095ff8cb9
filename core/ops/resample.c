/* F.interpolate and the upsample aliases: PyTorch 1.13's argument rules
 * (functional.py, then ATen's upsample checks) in front of one kernel pair,
 * upsample / upsample_backward. */
#include <math.h>
#include <stdio.h>

#include "autograd/graph.h"
#include "ops/resample.h"
#include "ops/resample_grad.h"
#include "runtime/error.h"
#include "tensor/copy.h"
#include "tensor/launch.h"
#include "tessera/pool.h"

static const char *const MODE_NAMES[] = {"nearest", "nearest-exact", "linear", "bilinear",
                                         "bicubic", "trilinear",     "area"};

const char *tsr__resample_type_name(tsr_dtype dtype)
{
    static const char *const names[] = {"Bool",  "Byte",   "Char",         "Short",
                                        "Int",   "Long",   "Half",         "BFloat16",
                                        "Float", "Double", "ComplexFloat", "ComplexDouble"};
    return (int)dtype >= 0 && (int)dtype < TSR_DTYPE_COUNT ? names[dtype] : "invalid";
}

tsr_status tsr__resample_apply(const tsr_tensor *x, const tsr_resample_attrs *at, bool backward,
                               const int64_t *to, tsr_tensor **out)
{
    tsr_op op = backward ? TSR_OP_UPSAMPLE_BACKWARD : TSR_OP_UPSAMPLE;
    int64_t shape[5] = {x->shape[0], x->shape[1]};
    for (int d = 2; d < x->ndim; d++)
        shape[d] = to[d - 2];
    tsr_tensor *y = NULL;
    tsr_status st =
        tsr__tensor_empty(tsr_op_name(op), x->storage->backend, x->dtype, x->ndim, shape, &y);
    if (st == TSR_OK) {
        const tsr_tensor *inputs[1] = {x};
        st = tsr__launch(op, x->dtype, x->dtype, inputs, 1, &y, 1, at);
    }
    if (st == TSR_OK)
        st = tsr__grad_record_resample(x, at, backward, y);
    return tsr__deliver(st, y, out);
}

/* "[2, 3]" for the error messages that print lists. */
static void format_ints(char *text, size_t cap, const int64_t *v, int n)
{
    size_t at = (size_t)snprintf(text, cap, "[");
    for (int i = 0; i < n && at < cap; i++)
        at += (size_t)snprintf(text + at, cap - at, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (at < cap)
        snprintf(text + at, cap - at, "]");
}

static void format_doubles(char *text, size_t cap, const double *v, int n)
{
    size_t at = (size_t)snprintf(text, cap, "[");
    for (int i = 0; i < n && at < cap; i++)
        at += (size_t)snprintf(text + at, cap - at, "%s%g", i ? ", " : "", v[i]);
    if (at < cap)
        snprintf(text + at, cap - at, "]");
}

/* The mode's required rank, or the error functional.py raises. */
static tsr_status check_rank(int mode, int ndim)
{
    static const int needs[] = {0, 0, 3, 4, 4, 5, 0};
    if ((mode <= TSR_INTERPOLATE_NEAREST_EXACT || mode == TSR_INTERPOLATE_AREA) && ndim >= 3 &&
        ndim <= 5)
        return TSR_OK;
    if (needs[mode] == ndim)
        return TSR_OK;
    if (mode != TSR_INTERPOLATE_BICUBIC && needs[mode] && ndim >= 3 && ndim <= 5)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "interpolate: Got %dD input, but %s mode needs %dD input", ndim,
                              MODE_NAMES[mode], needs[mode]);
    return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                          "interpolate: Input Error: Only 3D, 4D and 5D input Tensors supported "
                          "(got %dD) for the modes: nearest | linear | bilinear | bicubic | "
                          "trilinear | area | nearest-exact (got %s)",
                          ndim, MODE_NAMES[mode]);
}

/* The ATen kernel name PyTorch's dtype error mentions. */
static tsr_status check_dtype(int mode, const tsr_tensor *t)
{
    static const char *const kernels[] = {"upsample_nearest", "_upsample_nearest_exact",
                                          "upsample_linear",  "upsample_bilinear",
                                          "upsample_bicubic", "upsample_trilinear"};
    tsr_dtype d = t->dtype;
    bool ok = d == TSR_FLOAT32 || d == TSR_FLOAT64 ||
              (d == TSR_BFLOAT16 && mode != TSR_INTERPOLATE_NEAREST_EXACT) ||
              (d == TSR_UINT8 && mode <= TSR_INTERPOLATE_NEAREST_EXACT);
    if (ok)
        return TSR_OK;
    return tsr__set_error(TSR_ERR_DTYPE, "interpolate: \"%s%dd\" not implemented for '%s'",
                          kernels[mode], t->ndim - 2, tsr__resample_type_name(d));
}

/* The output's spatial sizes and the scales the kernel uses, after
 * functional.py's rules; *out_size and *scales have k entries. */
static tsr_status resolve_sizes(const tsr_tensor *t, int size_count, const int64_t *size,
                                int scale_count, const double *scale_factor, int recompute,
                                int64_t *out_size, double *scales)
{
    int k = t->ndim - 2;
    char a[96], b[160];
    bool has_size = size_count != 0, has_scale = scale_count != 0;
    if ((has_size && !size) || (has_scale && !scale_factor) || size_count < -1 || scale_count < -1)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: size and scale_factor need their values");
    if (has_size && has_scale)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: only one of size or scale_factor should be defined");
    if (!has_size && !has_scale)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: either size or scale_factor should be defined");
    format_ints(a, sizeof a, t->shape + 2, k > 0 ? k : 0);
    if (has_size && size_count > 0 && size_count != k) {
        format_ints(b, sizeof b, size, size_count);
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: Input and output must have the same number of spatial "
                              "dimensions, but got input with spatial dimensions of %s and output "
                              "size of %s. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                              "format and output size in (o1, o2, ...,oK) format.",
                              a, b);
    }
    if (has_scale && scale_count > 0 && scale_count != k) {
        format_doubles(b, sizeof b, scale_factor, scale_count);
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: Input and scale_factor must have the same number of "
                              "spatial dimensions, but got input with spatial dimensions of %s and "
                              "scale_factor of shape %s. Please provide input tensor in (N, C, d1, "
                              "d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.",
                              a, b);
    }
    if (recompute == TSR_OPTION_TRUE && has_size)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "interpolate: recompute_scale_factor is "
                                                        "not meaningful with an explicit size.");
    for (int d = 0; d < k && d < 3; d++) {
        scales[d] = 0;
        if (has_size) {
            out_size[d] = size[size_count > 0 ? d : 0];
            continue;
        }
        double s = scale_factor[scale_count > 0 ? d : 0];
        double o = floor((double)t->shape[2 + d] * s);
        if (!(fabs(o) < 9.2e18))
            return tsr__set_error(
                TSR_ERR_VALUE, "interpolate: scale_factor %g gives an output size out of range", s);
        out_size[d] = (int64_t)o;
        if (recompute != TSR_OPTION_TRUE)
            scales[d] = s;
    }
    return TSR_OK;
}

/* ATen's upsample_*d checks: a non-empty [N, C, ...] input (N may be 0) and
 * positive spatial sizes both ways. */
static tsr_status check_sizes(const tsr_tensor *t, const int64_t *out_size)
{
    int k = t->ndim - 2;
    int64_t inner = t->shape[1];
    bool positive = true;
    for (int d = 0; d < k; d++) {
        inner *= t->shape[2 + d];
        positive = positive && t->shape[2 + d] > 0 && out_size[d] > 0;
    }
    if (inner == 0 && tsr_tensor_numel(t) == 0) {
        char s[128];
        format_ints(s, sizeof s, t->shape, t->ndim);
        return tsr__set_error(TSR_ERR_SHAPE,
                              "interpolate: Non-empty %dD data tensor expected but got a tensor "
                              "with sizes %s",
                              t->ndim, s);
    }
    if (!positive) {
        static const char *const names[3][3] = {{"W"}, {"H", "W"}, {"D", "H", "W"}};
        char in[96], out[96];
        size_t ia = 0, oa = 0;
        for (int d = 0; d < k; d++) {
            ia += (size_t)snprintf(in + ia, sizeof in - ia, "%s%s: %lld", d ? ", " : "",
                                   names[k - 1][d], (long long)t->shape[2 + d]);
            oa += (size_t)snprintf(out + oa, sizeof out - oa, "%s%s: %lld", d ? ", " : "",
                                   names[k - 1][d], (long long)out_size[d]);
        }
        return tsr__set_error(TSR_ERR_SHAPE,
                              "interpolate: Input and output sizes should be greater than 0, but "
                              "got input (%s) output (%s)",
                              in, out);
    }
    return TSR_OK;
}

/* Mode 'area' is, as functional.py writes it, adaptive_avg_pool1d/2d/3d to
 * the output size (a scale factor always recomputes the size, floor(d *
 * scale)); the pool family then owns its dtypes, its errors and its gradient.
 * The upsample size checks do not apply: PyTorch never reaches them. */
static tsr_status interpolate_area(const tsr_tensor *input, const int64_t *out_size,
                                   tsr_tensor **out)
{
    switch (input->ndim) {
    case 3:
        return tsr_adaptive_avg_pool1d(input, out_size, 1, out);
    case 4:
        return tsr_adaptive_avg_pool2d(input, out_size, 2, out);
    default:
        return tsr_adaptive_avg_pool3d(input, out_size, 3, out);
    }
}

tsr_status tsr_interpolate(const tsr_tensor *input, int size_count, const int64_t *size,
                           int scale_count, const double *scale_factor, int mode, int align_corners,
                           int recompute_scale_factor, tsr_tensor **out)
{
    if (!input || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: input and out must not be NULL");
    if (mode < TSR_INTERPOLATE_NEAREST || mode > TSR_INTERPOLATE_AREA)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: mode %d is not a "
                              "tsr_interpolate_mode",
                              mode);
    if (align_corners < TSR_OPTION_NONE || align_corners > TSR_OPTION_TRUE ||
        recompute_scale_factor < TSR_OPTION_NONE || recompute_scale_factor > TSR_OPTION_TRUE)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: align_corners and recompute_scale_factor are "
                              "TSR_OPTION_NONE, _FALSE or _TRUE");
    bool nearest_like = mode <= TSR_INTERPOLATE_NEAREST_EXACT || mode == TSR_INTERPOLATE_AREA;
    if (nearest_like && align_corners != TSR_OPTION_NONE)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "interpolate: align_corners option can only be set with the "
                              "interpolating modes: linear | bilinear | bicubic | trilinear");
    int64_t out_size[3] = {0, 0, 0};
    double scales[3] = {0, 0, 0};
    tsr_status st = resolve_sizes(input, size_count, size, scale_count, scale_factor,
                                  recompute_scale_factor, out_size, scales);
    if (st == TSR_OK)
        st = check_rank(mode, input->ndim);
    if (st != TSR_OK)
        return st;
    if (mode == TSR_INTERPOLATE_AREA)
        return interpolate_area(input, out_size, out);
    if ((st = check_sizes(input, out_size)) != TSR_OK || (st = check_dtype(mode, input)) != TSR_OK)
        return st;
    static const int kernel_modes[] = {TSR_RESAMPLE_NEAREST, TSR_RESAMPLE_NEAREST_EXACT,
                                       TSR_RESAMPLE_LINEAR,  TSR_RESAMPLE_LINEAR,
                                       TSR_RESAMPLE_CUBIC,   TSR_RESAMPLE_LINEAR};
    tsr_resample_attrs at = {.struct_size = sizeof at,
                             .mode = kernel_modes[mode],
                             .align_corners = align_corners == TSR_OPTION_TRUE,
                             .padding_mode = TSR_GRID_PAD_ZEROS,
                             .scales = {scales[0], scales[1], scales[2]}};
    return tsr__resample_apply(input, &at, false, out_size, out);
}

tsr_status tsr_upsample(const tsr_tensor *input, int size_count, const int64_t *size,
                        int scale_count, const double *scale_factor, int mode, int align_corners,
                        tsr_tensor **out)
{
    return tsr_interpolate(input, size_count, size, scale_count, scale_factor, mode, align_corners,
                           TSR_OPTION_NONE, out);
}

tsr_status tsr_upsample_nearest(const tsr_tensor *input, int size_count, const int64_t *size,
                                int scale_count, const double *scale_factor, tsr_tensor **out)
{
    return tsr_interpolate(input, size_count, size, scale_count, scale_factor,
                           TSR_INTERPOLATE_NEAREST, TSR_OPTION_NONE, TSR_OPTION_NONE, out);
}

tsr_status tsr_upsample_bilinear(const tsr_tensor *input, int size_count, const int64_t *size,
                                 int scale_count, const double *scale_factor, tsr_tensor **out)
{
    return tsr_interpolate(input, size_count, size, scale_count, scale_factor,
                           TSR_INTERPOLATE_BILINEAR, TSR_OPTION_TRUE, TSR_OPTION_NONE, out);
}
