#version 450
#extension GL_GOOGLE_include_directive : require
// Pooling (OP: plugin.h's TSR_OP_LIST_POOL) on contiguous float32 operands,
// one invocation per element of the written operand, three spatial dims
// (1-d and 2-d calls have leading dims of size 1).
//
// Forwards write one output element each: max (MODE & 1: its int64 index
// instead of the value, a second dispatch; MODE & 2: see adaptive()), avg, adaptive avg, adaptive
// max. Backwards are gathers, one grad_x element each, summing over the
// output elements whose windows hold it in output order, which is the order
// the reference's scatter adds them in, so float32 bits agree: max backward
// adds grad_y where the index names the element, the avg backwards add
// grad_y over the window's divisor(s).
//
// Metadata (pool.c): a rank-1 walk, operand 0 (the written one) with
// stride 1, inputs with stride 0 (bases only); the fourth operand's stride
// words hold kernel[3], stride[3], padding[3], dilation[3], the input's
// spatial sizes[3] and the avg divisor (0: none). Push constants: numel,
// s0 = (out0, out1), s1 = (out2, count_include_pad). Sums are `precise`
// float adds and divisions tm_div's, correctly rounded as the reference's.

#define TSR_NO_ELEMENT_LOOP
#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#include "tm_math_f32.glsl"

int P(int j) { return int(meta[TSR_META_STRIDES + 3 * TSR_MAX_DIMS + j]); }

int KER(int k) { return P(k); }
int STR(int k) { return P(3 + k); }
int PAD(int k) { return P(6 + k); }
int DIL(int k) { return P(9 + k); }
int IN(int k) { return P(12 + k); }
int OUT(int k) { return k == 0 ? int(pc.s0.x) : k == 1 ? int(pc.s0.y) : int(pc.s1.x); }

// MODE & 2: a max backward of adaptive max pooling (its attributes carry no
// window), whose candidates are the adaptive windows.
bool adaptive() { return OP == TSR_OP_POOL_ADAPTIVE_AVG || OP == TSR_OP_POOL_ADAPTIVE_MAX ||
                         OP == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD || (MODE & 2) != 0; }

int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Window of output position o along dim k: taps first, first + step, ...
// below end; extent = the avg divisor's share (padded size, or adaptive
// extent).
struct Win {
    int first, end, step, extent;
};

Win window_at(int k, int o)
{
    Win w;
    w.step = 1;
    if (adaptive()) {
        w.first = (o * IN(k)) / OUT(k);
        w.end = ((o + 1) * IN(k) + OUT(k) - 1) / OUT(k);
        w.extent = w.end - w.first;
        return w;
    }
    int start = o * STR(k) - PAD(k);
    if (OP == TSR_OP_POOL_MAX) {
        w.step = DIL(k);
        w.end = min(start + (KER(k) - 1) * DIL(k) + 1, IN(k));
        while (start < 0)
            start += DIL(k);
        w.first = start;
        w.extent = 0;
        return w;
    }
    int end = min(start + KER(k), IN(k) + PAD(k));
    w.extent = end - start;
    w.first = max(start, 0);
    w.end = min(end, IN(k));
    return w;
}

int divisor(Win a, Win b, Win c)
{
    int d = P(15);
    if (d != 0)
        return d;
    if (pc.s1.y != 0u)
        return a.extent * b.extent * c.extent;
    return (a.end - a.first) * (b.end - b.first) * (c.end - c.first);
}

float load_x(int slot, uint base, int at) { return uintBitsToFloat(tsr_load_bits(slot, base + uint(at) * 4u, 4)); }

void forward(uint i, uvec4 o)
{
    int o2 = int(i % uint(OUT(2))), rest = int(i / uint(OUT(2)));
    int o1 = rest % OUT(1), o0 = (rest / OUT(1)) % OUT(0);
    int plane = rest / OUT(1) / OUT(0), in_plane = IN(0) * IN(1) * IN(2);
    uint xbase = o.y + uint(plane) * uint(in_plane) * 4u;
    Win w0 = window_at(0, o0), w1 = window_at(1, o1), w2 = window_at(2, o2);
    bool is_max = OP == TSR_OP_POOL_MAX || OP == TSR_OP_POOL_ADAPTIVE_MAX;
    precise float acc = is_max ? uintBitsToFloat(0xff800000u) : 0.0;
    int best = (w0.first * IN(1) + w1.first) * IN(2) + w2.first;
    for (int i0 = w0.first; i0 < w0.end; i0 += w0.step)
        for (int i1 = w1.first; i1 < w1.end; i1 += w1.step)
            for (int i2 = w2.first; i2 < w2.end; i2 += w2.step) {
                int at = (i0 * IN(1) + i1) * IN(2) + i2;
                float v = load_x(0, xbase, at);
                if (!is_max) {
                    acc = acc + v;
                } else if (v > acc || tm_isnan(v)) {
                    acc = v;
                    best = at;
                }
            }
    if (OP == TSR_OP_POOL_AVG)
        acc = tm_div(acc, float(divisor(w0, w1, w2)));
    else if (OP == TSR_OP_POOL_ADAPTIVE_AVG)
        acc = tm_div(tm_div(tm_div(acc, float(w0.extent)), float(w1.extent)), float(w2.extent));
    if ((MODE & 1) != 0)
        tsr_store_bits64(o.x, uvec2(uint(best), 0u));
    else
        tsr_store_bits(o.x, 4, floatBitsToUint(acc));
}

// The output positions along dim k whose windows may hold input position
// i (a superset; the caller checks exactly).
void candidates(int k, int i, out int lo, out int hi)
{
    if (adaptive()) {
        lo = max(0, (i * OUT(k)) / IN(k) - 1);
        hi = min(OUT(k) - 1, ((i + 1) * OUT(k)) / IN(k) + 1);
        return;
    }
    int reach = OP == TSR_OP_POOL_MAX_BACKWARD ? (KER(k) - 1) * DIL(k) : KER(k) - 1;
    lo = max(0, floor_div(i + PAD(k) - reach + STR(k) - 1, STR(k)));
    hi = min(OUT(k) - 1, floor_div(i + PAD(k), STR(k)));
}

bool holds(Win w, int i) { return i >= w.first && i < w.end && (i - w.first) % w.step == 0; }

void backward(uint i, uvec4 o)
{
    int i2 = int(i % uint(IN(2))), rest = int(i / uint(IN(2)));
    int i1 = rest % IN(1), i0 = (rest / IN(1)) % IN(0);
    int plane = rest / IN(1) / IN(0), out_plane = OUT(0) * OUT(1) * OUT(2);
    int me = (i0 * IN(1) + i1) * IN(2) + i2;
    uint gbase = o.y + uint(plane) * uint(out_plane) * 4u;
    uint ibase = o.z + uint(plane) * uint(out_plane) * 8u;
    int lo0, hi0, lo1, hi1, lo2, hi2;
    candidates(0, i0, lo0, hi0);
    candidates(1, i1, lo1, hi1);
    candidates(2, i2, lo2, hi2);
    precise float acc = 0.0;
    for (int o0 = lo0; o0 <= hi0; ++o0)
        for (int o1 = lo1; o1 <= hi1; ++o1)
            for (int o2 = lo2; o2 <= hi2; ++o2) {
                int at = (o0 * OUT(1) + o1) * OUT(2) + o2;
                if (OP == TSR_OP_POOL_MAX_BACKWARD) {
                    if (int(tsr_load_bits(1, ibase + uint(at) * 8u, 4)) == me)
                        acc = acc + load_x(0, gbase, at);
                    continue;
                }
                Win w0 = window_at(0, o0), w1 = window_at(1, o1), w2 = window_at(2, o2);
                if (!holds(w0, i0) || !holds(w1, i1) || !holds(w2, i2))
                    continue;
                float g = load_x(0, gbase, at), delta;
                if (OP == TSR_OP_POOL_AVG_BACKWARD)
                    delta = tm_div(g, float(divisor(w0, w1, w2)));
                else
                    delta = tm_div(tm_div(tm_div(g, float(w0.extent)), float(w1.extent)),
                                   float(w2.extent));
                acc = acc + delta;
            }
    tsr_store_bits(o.x, 4, floatBitsToUint(acc));
}

void main()
{
    uint n = pc.numel;
    uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    bool is_backward = OP == TSR_OP_POOL_MAX_BACKWARD || OP == TSR_OP_POOL_AVG_BACKWARD ||
                       OP == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
        uvec4 o = tsr_offsets(i);
        if (is_backward)
            backward(i, o);
        else
            forward(i, o);
        if (n - i <= step) // i + step would pass n (or wrap)
            break;
    }
}
