// The taps of one output position along one spatial dim of upsample, as
// the reference computes them (plugins/reference/resample.c) in float:
// `precise` keeps every multiply and add rounded on its own (no fused
// multiply-add), so a source coordinate rounds as in the reference and the
// same pixels are read. Included by resample.comp and
// resample_backward.comp after tsr_common.glsl.
//
// One axis: `in` input and `out` output positions, the scale (computed on
// the host as the reference does), the kernel mode and align_corners, and
// whether the taps serve the backward (ATen's nearest backward shortcuts).

struct axis {
    int in_size, out_size, mode;
    float scale;
    bool align, backward;
};

// Keys' cubic convolution weights, A = -0.75.
void cubic_weights(float t, out float w[4])
{
    const float A = -0.75;
    precise float x1 = t + 1.0, x3 = 1.0 - t, x4 = 2.0 - t;
    precise float w0 = ((A * x1 - 5.0 * A) * x1 + 8.0 * A) * x1 - 4.0 * A;
    precise float w1 = ((1.25 * t - 2.25) * t) * t + 1.0;
    precise float w2 = ((1.25 * x3 - 2.25) * x3) * x3 + 1.0;
    precise float w3 = ((A * x4 - 5.0 * A) * x4 + 8.0 * A) * x4 - 4.0 * A;
    w[0] = w0;
    w[1] = w1;
    w[2] = w2;
    w[3] = w3;
}

// Writes the count, input positions and weights of output position j.
int axis_taps(axis a, int j, out int at[4], out float w[4])
{
    for (int t = 0; t < 4; ++t) {
        at[t] = 0;
        w[t] = 0.0;
    }
    w[0] = 1.0;
    precise float fj = float(j);
    if (a.backward && a.mode == TSR_RESAMPLE_NEAREST &&
        (a.out_size == a.in_size || a.out_size == 2 * a.in_size)) {
        at[0] = a.out_size == a.in_size ? j : j >> 1;
        return 1;
    }
    if (a.mode == TSR_RESAMPLE_NEAREST || a.mode == TSR_RESAMPLE_NEAREST_EXACT) {
        precise float src = a.mode == TSR_RESAMPLE_NEAREST ? fj * a.scale : (fj + 0.5) * a.scale;
        at[0] = min(int(floor(src)), a.in_size - 1);
        return 1;
    }
    if (a.mode == TSR_RESAMPLE_LINEAR) {
        if (a.in_size == a.out_size) {
            at[0] = j;
            return 1;
        }
        precise float src = a.align ? fj * a.scale : max((fj + 0.5) * a.scale - 0.5, 0.0);
        int i0 = int(src);
        precise float l1 = clamp(src - float(i0), 0.0, 1.0);
        precise float l0 = 1.0 - l1;
        at[0] = i0;
        at[1] = i0 + (i0 < a.in_size - 1 ? 1 : 0);
        w[0] = l0;
        w[1] = l1;
        return 2;
    }
    precise float src = a.align ? fj * a.scale : (fj + 0.5) * a.scale - 0.5;
    precise float fl = floor(src);
    cubic_weights(src - fl, w);
    for (int t = 0; t < 4; ++t)
        at[t] = clamp(int(fl) - 1 + t, 0, a.in_size - 1);
    return 4;
}
