#version 450
#extension GL_GOOGLE_include_directive : require
// grid_sampler (TSR_OP_LIST_RESAMPLE) on float32: one invocation per output
// element (n, c, o...): the grid's coordinates at (n, o...) become source
// coordinates (unnormalised, then padded as padding_mode says) and the 2^k
// neighbours are blended (or the nearest taken) in the reference's order;
// bicubic (4-d) blends 4 x 4 taps with Keys' weights (resample_taps.glsl).
//
// Metadata (resample.c): the output's shape [N, C, o...], unmerged, with
// the byte strides of out, of x (input 0) along N and C only, and of the
// grid (input 1) along N and the o dims: o.y is x's (n, c) plane, o.z the
// grid's first coordinate at (n, o...). Extra words: k, x's spatial sizes
// [3], x's spatial byte strides [3], the grid's coordinate byte stride,
// mode, padding mode, align_corners.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"

const int EXTRA = TSR_META_STRIDES + 3 * TSR_MAX_DIMS;

#include "resample_taps.glsl"

float load_in(int slot, uint addr) { return uintBitsToFloat(tsr_load_bits(slot, addr, 4)); }

float clip(float c, int size) { return clamp(c, 0.0, float(size - 1)); }

// c reflected into [twice_low / 2, twice_high / 2].
float reflect_into(float c, float twice_low, float twice_high)
{
    if (twice_low == twice_high)
        return 0.0;
    precise float lo = twice_low / 2.0, span = (twice_high - twice_low) / 2.0;
    precise float a = abs(c - lo);
    precise float flips = floor(a / span);
    precise float extra = a - flips * span;
    precise float r = mod(flips, 2.0) == 0.0 ? extra + lo : span - extra + lo;
    return r;
}

float unnormalize(float g, int size, bool align)
{
    precise float factor = align ? float(size - 1) / 2.0 : float(size) / 2.0;
    precise float c = (g + 1.0) * factor;
    if (!align)
        c = c - 0.5;
    return c;
}

// The padding mode applied to pixel coordinate c (ATen's compute_coordinates).
float pad(float c, int size, bool align, int padding)
{
    precise float r = c;
    if (padding == TSR_GRID_PAD_BORDER) {
        r = clip(r, size);
    } else if (padding == TSR_GRID_PAD_REFLECTION) {
        r = align ? reflect_into(r, 0.0, 2.0 * float(size - 1))
                  : reflect_into(r, -1.0, 2.0 * float(size) - 1.0);
        r = clip(r, size);
    }
    if (!(r <= 2147483646.0 && r >= -2147483648.0)) // infinite, NaN, huge
        r = -100.0;
    return r;
}

float source(float g, int size, bool align, int padding)
{
    return pad(unnormalize(g, size, align), size, align, padding);
}

// Bicubic (k = 2): the 4 x 4 taps around the unnormalised (y, x), each
// tap's coordinates padded on their own; outside taps read 0.
float bicubic(uvec4 o, uint coord_step, bool align, int padding)
{
    int h = int(meta[EXTRA + 1]), w = int(meta[EXTRA + 2]);
    uint sh = meta[EXTRA + 4], sw = meta[EXTRA + 5];
    precise float cx = unnormalize(load_in(1, o.z), w, align);
    precise float cy = unnormalize(load_in(1, o.z + coord_step), h, align);
    precise float fx = floor(cx), fy = floor(cy);
    float wx[4], wy[4];
    cubic_weights(cx - fx, wx);
    cubic_weights(cy - fy, wy);
    float acc = 0.0;
    for (int dy = 0; dy < 4; ++dy) {
        int iy = int(pad(fy - 1.0 + float(dy), h, align, padding));
        float row = 0.0;
        for (int dx = 0; dx < 4; ++dx) {
            int ix = int(pad(fx - 1.0 + float(dx), w, align, padding));
            if (iy >= 0 && iy < h && ix >= 0 && ix < w)
                row += wx[dx] * load_in(0, o.y + uint(iy) * sh + uint(ix) * sw);
        }
        acc += wy[dy] * row;
    }
    return acc;
}

void main()
{
    int k = int(meta[EXTRA]), mode = int(meta[EXTRA + 8]), padding = int(meta[EXTRA + 9]);
    bool align = meta[EXTRA + 10] != 0u;
    uint coord_step = meta[EXTRA + 7];
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        if (mode == TSR_RESAMPLE_CUBIC) {
            tsr_store_bits(o.x, 4, floatBitsToUint(bicubic(o, coord_step, align, padding)));
            if (n - i <= step)
                break;
            continue;
        }
        int base[3];
        float frac[3];
        bool blend[3];
        int sizes[3];
        uint strides[3];
        for (int d = 0; d < 3; ++d) {
            base[d] = 0;
            frac[d] = 0.0;
            blend[d] = false;
            sizes[d] = 1;
            strides[d] = 0u;
            int real = d - (3 - k);
            if (real < 0)
                continue;
            sizes[d] = int(meta[EXTRA + 1 + real]);
            strides[d] = meta[EXTRA + 4 + real];
            float g = load_in(1, o.z + uint(k - 1 - real) * coord_step);
            precise float c = source(g, sizes[d], align, padding);
            if (mode == TSR_RESAMPLE_NEAREST) {
                base[d] = int(roundEven(c));
            } else {
                precise float fl = floor(c);
                base[d] = int(fl);
                frac[d] = c - fl;
                blend[d] = true;
            }
        }
        float acc = 0.0;
        for (int bits = 0; bits < 8; ++bits) {
            bool inside = true;
            float w = 1.0;
            uint at = o.y;
            for (int d = 0; d < 3; ++d) {
                int up = (bits >> d) & 1;
                if (up == 1 && !blend[d]) {
                    inside = false;
                    break;
                }
                int idx = base[d] + up;
                if (idx < 0 || idx >= sizes[d]) {
                    inside = false;
                    break;
                }
                at += uint(idx) * strides[d];
                if (blend[d])
                    w *= up == 1 ? frac[d] : 1.0 - frac[d];
            }
            if (inside)
                acc += w * load_in(0, at);
        }
        tsr_store_bits(o.x, 4, floatBitsToUint(acc));
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
