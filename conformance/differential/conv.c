/* Differential draws for convolution: random geometry (kernel, stride,
 * padding, dilation, groups) that always fits, so every draw computes. */
#include "differential/draw_helpers.h"

static bool conv_dtype(tsr_dtype dt, bool transposed)
{
    if (dt == TSR_FLOAT32 || dt == TSR_FLOAT64 || dt == TSR_BFLOAT16)
        return true;
    return !transposed && (dt == TSR_COMPLEX64 || dt == TSR_COMPLEX128);
}

/* A convolution of `nd` spatial dims; weight [Cout, Cin/g, k...] or, when
 * transposed, [Cin, Cout/g, k...]. */
static bool draw_conv(conf_draft *d, int nd, bool transposed)
{
    if (!conv_dtype(d->dtype, transposed))
        return false;
    int64_t g = pick(d, 0.3) ? range(d, 2, 3) : 1;
    int64_t cin = g * range(d, 1, 3), cout = g * range(d, 1, 3), n = range(d, 0, 2);
    int64_t x[2 + 3] = {n, cin},
                  w[2 + 3] = {transposed ? cin : cout, (transposed ? cout : cin) / g};
    int64_t stride[3], padding[3], dilation[3], output_padding[3];
    for (int i = 0; i < nd; i++) {
        int64_t k = range(d, 1, 3);
        stride[i] = range(d, 1, 3);
        dilation[i] = range(d, 1, 2);
        padding[i] = range(d, 0, 2);
        output_padding[i] = transposed ? range(d, 0, stride[i] - 1) : 0;
        int64_t span = dilation[i] * (k - 1) + 1;
        int64_t least = span - 2 * padding[i] > 1 ? span - 2 * padding[i] : 1;
        x[2 + i] = transposed ? range(d, 1 + 2 * padding[i], 4 + 2 * padding[i])
                              : range(d, least, least + 4);
        w[2 + i] = k;
    }
    /* Finite values: with an infinite weight, a window over padding gives
     * NaN (0 * inf) or not depending on whether the kernel multiplies the
     * padding, and PyTorch's own kernels differ there (im2col for float32,
     * oneDNN's direct kernel for bfloat16). The product bound covers the
     * order of summation. */
    conf_value_spec values = conf_values_of(CONF_VALUES_FINITE);
    conf_draft_tensor(d, "input", d->dtype, 2 + nd, x, values, CONF_LAYOUT_COUNT);
    conf_draft_tensor(d, "weight", d->dtype, 2 + nd, w, values, CONF_LAYOUT_COUNT);
    int64_t channels_out = cout;
    if (pick(d, 0.5))
        conf_draft_tensor(d, "bias", d->dtype, 1, &channels_out, values, CONF_LAYOUT_COUNT);
    conf_draft_arg_int_list(d, "stride", nd, stride);
    conf_draft_arg_int_list(d, "padding", nd, padding);
    conf_draft_arg_int_list(d, "dilation", nd, dilation);
    if (transposed)
        conf_draft_arg_int_list(d, "output_padding", nd, output_padding);
    conf_draft_arg_int(d, "groups", g);
    return true;
}

static bool draw_conv1d(conf_draft *d)
{
    return draw_conv(d, 1, false);
}
static bool draw_conv2d(conf_draft *d)
{
    return draw_conv(d, 2, false);
}
static bool draw_conv3d(conf_draft *d)
{
    return draw_conv(d, 3, false);
}
static bool draw_conv_transpose1d(conf_draft *d)
{
    return draw_conv(d, 1, true);
}
static bool draw_conv_transpose2d(conf_draft *d)
{
    return draw_conv(d, 2, true);
}
static bool draw_conv_transpose3d(conf_draft *d)
{
    return draw_conv(d, 3, true);
}

static bool float_or_complex(tsr_dtype dt)
{
    return is_float(dt) || dt == TSR_COMPLEX64 || dt == TSR_COMPLEX128;
}

/* unfold of [N, C, H, W], or fold of the columns such an unfold makes. */
static bool draw_unfold_fold(conf_draft *d, bool fold)
{
    if (!float_or_complex(d->dtype))
        return false;
    int64_t k[2], stride[2], padding[2], dilation[2], size[2], blocks = 1;
    for (int i = 0; i < 2; i++) {
        k[i] = range(d, 1, 3);
        stride[i] = range(d, 1, 2);
        padding[i] = range(d, 0, 2);
        dilation[i] = range(d, 1, 2);
        int64_t span = dilation[i] * (k[i] - 1) + 1;
        int64_t least = span - 2 * padding[i] > 1 ? span - 2 * padding[i] : 1;
        size[i] = range(d, least, least + 4);
        blocks *= (size[i] + 2 * padding[i] - span) / stride[i] + 1;
    }
    int64_t c = range(d, 1, 3);
    conf_value_spec values = conf_values_of(CONF_VALUES_NO_HUGE);
    if (fold) {
        int64_t shape[3] = {range(d, 0, 2), c * k[0] * k[1], blocks};
        conf_draft_tensor(d, "input", d->dtype, 3, shape, values, CONF_LAYOUT_COUNT);
        conf_draft_arg_int_list(d, "output_size", 2, size);
    } else {
        int64_t shape[4] = {range(d, 0, 2), c, size[0], size[1]};
        conf_draft_tensor(d, "input", d->dtype, 4, shape, values, CONF_LAYOUT_COUNT);
    }
    conf_draft_arg_int_list(d, "kernel_size", 2, k);
    conf_draft_arg_int_list(d, "stride", 2, stride);
    conf_draft_arg_int_list(d, "padding", 2, padding);
    conf_draft_arg_int_list(d, "dilation", 2, dilation);
    return true;
}

static bool draw_unfold(conf_draft *d)
{
    return draw_unfold_fold(d, false);
}
static bool draw_fold(conf_draft *d)
{
    return draw_unfold_fold(d, true);
}

const conf_diff_op conf_diff_draws_conv[] = {
    {"unfold", draw_unfold, CONF_DIFF_EXACT},
    {"fold", draw_fold, 0},
    {"conv1d", draw_conv1d, 0},
    {"conv2d", draw_conv2d, 0},
    {"conv3d", draw_conv3d, 0},
    {"conv_transpose1d", draw_conv_transpose1d, 0},
    {"conv_transpose2d", draw_conv_transpose2d, 0},
    {"conv_transpose3d", draw_conv_transpose3d, 0},
};
const size_t conf_diff_draws_conv_count =
    sizeof conf_diff_draws_conv / sizeof conf_diff_draws_conv[0];
