/* The second elementwise family (plugin.h's TSR_OP_LIST_ELEMENTWISE2) on
 * the device against the same formulas computed on the host: attributes,
 * specials (NaN, infinities, signed zeros), float32 and float64, bfloat16
 * rounding of intermediate steps, ternary ops, integer shifts and bitwise
 * ops; and two conversions the family's callers need (bfloat16 div with
 * rounding mode trunc, complex64 <-> complex128). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

static const float specials[] = {NAN,   INFINITY, -INFINITY, 0.0f,  -0.0f, 0.3f,   -0.3f, 0.5f,
                                 -0.5f, 1.5f,     -2.5f,     2.75f, 7.25f, -11.0f, 1e-3f, 0.999f};
enum { NS = sizeof specials / sizeof specials[0] };

static tsr_elementwise_attrs attrs3(double a, double b, double c)
{
    tsr_elementwise_attrs at = {.struct_size = sizeof at};
    const double v[3] = {a, b, c};
    for (int k = 0; k < 3; ++k) {
        at.scalars[k].kind = TSR_SCALAR_FLOAT;
        at.scalars[k].v.f = v[k];
    }
    return at;
}

/* The op on x as PyTorch's CPU kernel computes it in float (f32) or double,
 * with the attributes the cases below pass. */
static double ref(int op, double x, int f32)
{
#define R(v) (f32 ? (double)(float)(v) : (v))
    switch (op) {
    case TSR_OP_SILU:
        return x / R(1.0 + R(exp(-x)));
    case TSR_OP_SOFTPLUS: /* beta 2, threshold 1 */
        return R(x * 2) > 1 ? x : R(log1p(R(exp(R(x * 2))))) / 2;
    case TSR_OP_LEAKY_RELU:
        return x > 0 ? x : x * R(0.2);
    case TSR_OP_ELU: /* alpha 0.5, scale 1, input_scale 1 */
        return x <= 0 ? R(R(exp(x)) - 1) * 0.5 : x;
    case TSR_OP_HARDTANH: /* min -0.5, max 0.75 */
        return isnan(x) ? x : x < -0.5 ? -0.5 : x > 0.75 ? 0.75 : x;
    case TSR_OP_FLOOR:
        return floor(x);
    case TSR_OP_CEIL:
        return ceil(x);
    case TSR_OP_TRUNC:
        return trunc(x);
    case TSR_OP_ROUND:
        return nearbyint(x);
    case TSR_OP_FRAC:
        return x - trunc(x);
    case TSR_OP_RECIPROCAL:
        return 1 / x;
    case TSR_OP_SQUARE:
        return x * x;
    case TSR_OP_NAN_TO_NUM: /* nan 1, posinf 2, neginf -3 */
        return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : -3) : x;
    case TSR_OP_EXP2:
        return exp2(x);
    case TSR_OP_LOG2:
        return log2(x);
    case TSR_OP_LOG10:
        return log10(x);
    case TSR_OP_TAN:
        return tan(x);
    case TSR_OP_ASIN:
        return asin(x);
    case TSR_OP_ACOS:
        return acos(x);
    case TSR_OP_ATAN:
        return atan(x);
    case TSR_OP_SINH:
        return sinh(x);
    case TSR_OP_COSH:
        return cosh(x);
    case TSR_OP_ASINH:
        return asinh(x);
    case TSR_OP_ACOSH:
        return acosh(x);
    case TSR_OP_ATANH:
        return atanh(x);
    case TSR_OP_ERFC:
        return erfc(x);
    case TSR_OP_ISNAN:
        return isnan(x) != 0;
    case TSR_OP_ISINF:
        return isinf(x) != 0;
    case TSR_OP_ISFINITE:
        return isfinite(x) != 0;
    }
    return NAN;
#undef R
}

static tsr_elementwise_attrs unary_attrs(int op)
{
    switch (op) {
    case TSR_OP_SOFTPLUS:
        return attrs3(2, 1, 0);
    case TSR_OP_LEAKY_RELU:
        return attrs_float(0.2);
    case TSR_OP_ELU:
        return attrs3(0.5, 1, 1);
    case TSR_OP_HARDTANH:
        return attrs3(-0.5, 0.75, 0);
    case TSR_OP_NAN_TO_NUM:
        return attrs3(1, 2, -3);
    }
    return attrs_mode(0);
}

static void unary_on(int dtype)
{
    int f64 = dtype == TSR_FLOAT64;
    int64_t item = f64 ? 8 : 4;
    double in[NS], got[NS];
    float inf[NS], gotf[NS];
    unsigned char flags[NS];
    for (int i = 0; i < NS; ++i)
        inf[i] = specials[i], in[i] = specials[i];
    void *mi = upload(f64 ? (void *)in : (void *)inf, (size_t)(NS * item));
    void *mo = upload(NULL, NS * 8);
    struct view vi, vo, vb;
    flat(&vi, mi, dtype, NS, item);
    flat(&vo, mo, dtype, NS, item);
    flat(&vb, mo, TSR_BOOL, NS, 1);
    for (int op = TSR_OP_EXP2; op <= TSR_OP_NAN_TO_NUM; ++op) {
        int boolean = op >= TSR_OP_ISNAN && op <= TSR_OP_ISFINITE;
        if (!has_kernel(op, dtype, boolean ? TSR_BOOL : dtype))
            continue; /* not listed for this dtype (kernel_table.c) */
        tsr_elementwise_attrs at = unary_attrs(op);
        EXPECT(run1(op, boolean ? &vb : &vo, &vi, &at) == TSR_OK, "op %d dtype %d: %s", op, dtype,
               last_error);
        if (boolean)
            download(mo, flags, NS);
        else
            download(mo, f64 ? (void *)got : (void *)gotf, (size_t)(NS * item));
        /* exp/log1p-based ops carry the float32 math's few ulp, the
         * through-double ones 1e-15 in float64 (and may round the other way
         * at a near-tie in float32); the rest are exact */
        int approx = op == TSR_OP_SILU || op == TSR_OP_SOFTPLUS || op == TSR_OP_ELU;
        int through_double = op < TSR_OP_SILU;
        for (int i = 0; i < NS; ++i) {
            double want = ref(op, in[i], !f64);
            double g = boolean ? flags[i] : f64 ? got[i] : gotf[i];
            if (!f64 && !boolean)
                want = (float)want;
            double tol = approx           ? (f64 ? 1e-15 : 4e-7)
                         : through_double ? (f64 ? 1e-15 : 1.2e-7)
                                          : 0;
            if (op == TSR_OP_ERFC && f64) /* 1 - erf below 1 (test_vulkan_math.c) */
                tol = 5e-15;
            int same = (isnan(g) && isnan(want)) || g == want ||
                       (isfinite(want) && fabs(g - want) <= tol * fabs(want));
            EXPECT(same && (isnan(g) || signbit(g) == signbit(want)),
                   "op %d dtype %d x=%g: got %.17g want %.17g", op, dtype, in[i], g, want);
        }
    }
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
}

void family2_unary_ops_match_host_formulas(void)
{
    unary_on(TSR_FLOAT32);
    if (has_kernel(TSR_OP_SILU, TSR_FLOAT64, TSR_FLOAT64))
        unary_on(TSR_FLOAT64);
    else
        printf("note: float64 not registered on this device\n");
}

/* round(decimals): x * 10^d rounded to the element type first. */
void family2_round_decimals_and_bfloat16_steps(void)
{
    const float x[] = {1.25f, -2.675f, 0.05f, 123.456f, -0.0f, NAN};
    enum { N = sizeof x / sizeof x[0] };
    float got[N];
    void *mx = upload(x, sizeof x), *mo = upload(NULL, sizeof got);
    struct view vx, vo;
    flat(&vx, mx, TSR_FLOAT32, N, 4);
    flat(&vo, mo, TSR_FLOAT32, N, 4);
    const int decimals[] = {1, 2, -1};
    for (int k = 0; k < 3; ++k) {
        tsr_elementwise_attrs at = attrs_mode(decimals[k]);
        EXPECT(run1(TSR_OP_ROUND, &vo, &vx, &at) == TSR_OK, "round: %s", last_error);
        download(mo, got, sizeof got);
        float p = (float)pow(10, abs(decimals[k]));
        for (int i = 0; i < N; ++i) {
            float want = decimals[k] > 0 ? nearbyintf(x[i] * p) / p : nearbyintf(x[i] / p) * p;
            EXPECT(memcmp(&got[i], &want, 4) == 0 || (isnan(got[i]) && isnan(want)),
                   "round(%g, %d) got %.9g want %.9g", x[i], decimals[k], got[i], want);
        }
    }
    /* bfloat16 div trunc: 3 / 0.01171875 is 256 exactly, 3 / 0.0117797852
     * is 254.67.. in float32 but rounds to 255 in bfloat16 (8 bits) before
     * truncation, as PyTorch does. */
    uint16_t a[2] = {0x4040, 0x4040}, b[2] = {0x3c40, 0x3c41}, q[2];
    void *ma = upload(a, 4), *mb = upload(b, 4), *mq = upload(NULL, 4);
    struct view va, vb, vq;
    flat(&va, ma, TSR_BFLOAT16, 2, 2);
    flat(&vb, mb, TSR_BFLOAT16, 2, 2);
    flat(&vq, mq, TSR_BFLOAT16, 2, 2);
    tsr_elementwise_attrs trunc_mode = attrs_mode(TSR_ROUND_TRUNC);
    EXPECT(run2(TSR_OP_DIV, &vq, &va, &vb, &trunc_mode) == TSR_OK, "div: %s", last_error);
    download(mq, q, 4);
    for (int i = 0; i < 2; ++i) {
        uint32_t ua = (uint32_t)a[i] << 16, ub = (uint32_t)b[i] << 16;
        float fa, fb;
        memcpy(&fa, &ua, 4);
        memcpy(&fb, &ub, 4);
        float quotient = fa / fb; /* correctly rounded, then to bfloat16 */
        uint32_t uq;
        memcpy(&uq, &quotient, 4);
        uq = (uq + 0x7fffu + ((uq >> 16) & 1u)) & 0xffff0000u;
        memcpy(&quotient, &uq, 4);
        float want = truncf(quotient);
        uint32_t uw;
        memcpy(&uw, &want, 4);
        EXPECT(q[i] == (uint16_t)(uw >> 16), "bf16 div trunc [%d] got 0x%04x want 0x%04x", i, q[i],
               (unsigned)(uw >> 16));
    }
    void *ms[] = {mx, mo, ma, mb, mq};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; ++i)
        plugin->memory_free(backend, ms[i]);
}

/* lerp (tensor and scalar weight), addcmul and addcdiv on float32 with
 * PyTorch's step roundings and fused last steps; addcmul on int32 wraps. */
void family2_ternary_ops(void)
{
    enum { N = 6 };
    const float s[N] = {1, -2, 0.5f, 1e30f, 3, -0.0f}, e[N] = {5, 4, -0.25f, -1e30f, 3, 0};
    const float w[N] = {0.25f, 0.75f, 0.5f, 0.1f, -1, 2};
    float got[N];
    struct view vs, ve, vw, vo;
    void *ms = upload_flat(&vs, s, TSR_FLOAT32, N, 4), *me = upload_flat(&ve, e, TSR_FLOAT32, N, 4);
    void *mw = upload_flat(&vw, w, TSR_FLOAT32, N, 4);
    void *mo = upload_flat(&vo, NULL, TSR_FLOAT32, N, 4);
    for (int scalar = 0; scalar < 2; ++scalar) {
        tsr_elementwise_attrs at = attrs_float(0.625);
        at.mode = scalar ? TSR_LERP_SCALAR_WEIGHT : 0;
        /* a scalar weight's input 2 repeats start and is not read */
        const struct view *in[3] = {&vs, &ve, scalar ? &vs : &vw};
        EXPECT(run(TSR_OP_LERP, &vo, in, 3, &at) == TSR_OK, "lerp: %s", last_error);
        download(mo, got, sizeof got);
        for (int i = 0; i < N; ++i) {
            float wi = scalar ? 0.625f : w[i], d = e[i] - s[i];
            float want = wi < 0.5f ? fmaf(wi, d, s[i]) : fmaf(-d, 1 - wi, e[i]);
            EXPECT(got[i] == want, "lerp(%g, %g, %g) got %.9g want %.9g", s[i], e[i], wi, got[i],
                   want);
        }
    }
    const struct view *in[3] = {&vs, &ve, &vw};
    tsr_elementwise_attrs value = attrs_float(-1.5);
    EXPECT(run(TSR_OP_ADDCMUL, &vo, in, 3, &value) == TSR_OK, "addcmul: %s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < N; ++i) {
        float want = fmaf(-1.5f * e[i], w[i], s[i]);
        EXPECT(got[i] == want, "addcmul [%d] got %.9g want %.9g", i, got[i], want);
    }
    EXPECT(run(TSR_OP_ADDCDIV, &vo, in, 3, &value) == TSR_OK, "addcdiv: %s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < N; ++i) {
        float want = s[i] + (-1.5f * e[i]) / w[i];
        EXPECT(got[i] == want, "addcdiv [%d] got %.9g want %.9g", i, got[i], want);
    }
    const int32_t a[3] = {INT32_MAX, -7, 100}, b[3] = {2, 3, -4}, c[3] = {3, 5, 6};
    int32_t igot[3];
    void *ma = upload(a, 12), *mb = upload(b, 12), *mc = upload(c, 12), *mi = upload(NULL, 12);
    struct view va, vb, vc, vi;
    flat(&va, ma, TSR_INT32, 3, 4);
    flat(&vb, mb, TSR_INT32, 3, 4);
    flat(&vc, mc, TSR_INT32, 3, 4);
    flat(&vi, mi, TSR_INT32, 3, 4);
    const struct view *iin[3] = {&va, &vb, &vc};
    tsr_elementwise_attrs ivalue = attrs_int(7);
    EXPECT(run(TSR_OP_ADDCMUL, &vi, iin, 3, &ivalue) == TSR_OK, "addcmul int: %s", last_error);
    download(mi, igot, 12);
    for (int i = 0; i < 3; ++i) {
        int32_t want = (int32_t)((uint32_t)a[i] + (uint32_t)7 * (uint32_t)b[i] * (uint32_t)c[i]);
        EXPECT(igot[i] == want, "addcmul int [%d] got %d want %d", i, igot[i], want);
    }
    void *mems[] = {ms, me, mw, mo, ma, mb, mc, mi};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i)
        plugin->memory_free(backend, mems[i]);
}

/* Shifts use the count's low 5 bits (6 for int64) and work in 32 bits for
 * int8, as PyTorch 1.13 on x86-64; bitwise_not of bool is logical; integer
 * fmod takes the dividend's sign. */
void family2_integer_ops(void)
{
    const int8_t a[4] = {1, -128, 5, -7}, b[4] = {9, 33, -1, 3};
    int8_t got[4];
    void *ma = upload(a, 4), *mb = upload(b, 4), *mo = upload(NULL, 4);
    struct view va, vb, vo;
    flat(&va, ma, TSR_INT8, 4, 1);
    flat(&vb, mb, TSR_INT8, 4, 1);
    flat(&vo, mo, TSR_INT8, 4, 1);
    const int ops[] = {TSR_OP_BITWISE_LEFT_SHIFT, TSR_OP_BITWISE_RIGHT_SHIFT, TSR_OP_FMOD,
                       TSR_OP_BITWISE_XOR};
    for (int k = 0; k < 4; ++k) {
        EXPECT(run2(ops[k], &vo, &va, &vb, NULL) == TSR_OK, "op %d: %s", ops[k], last_error);
        download(mo, got, 4);
        for (int i = 0; i < 4; ++i) {
            int32_t x = a[i], n = b[i] & 31, want;
            if (ops[k] == TSR_OP_BITWISE_LEFT_SHIFT)
                want = (int8_t)(uint8_t)((uint32_t)x << n);
            else if (ops[k] == TSR_OP_BITWISE_RIGHT_SHIFT)
                want = (int8_t)(x >> n);
            else if (ops[k] == TSR_OP_FMOD)
                want = b[i] == -1 ? 0 : x % b[i];
            else
                want = (int8_t)(x ^ b[i]);
            EXPECT(got[i] == want, "op %d (%d, %d) got %d want %d", ops[k], a[i], b[i], got[i],
                   want);
        }
    }
    const uint8_t flags[3] = {0, 1, 0};
    uint8_t notted[3];
    void *mf = upload(flags, 3), *mn = upload(NULL, 3);
    struct view vf, vn;
    flat(&vf, mf, TSR_BOOL, 3, 1);
    flat(&vn, mn, TSR_BOOL, 3, 1);
    EXPECT(run1(TSR_OP_BITWISE_NOT, &vn, &vf, NULL) == TSR_OK, "not: %s", last_error);
    download(mn, notted, 3);
    EXPECT(notted[0] == 1 && notted[1] == 0 && notted[2] == 1, "bool not got %d %d %d", notted[0],
           notted[1], notted[2]);
    /* The elementwise kernel called for a pair the table does not list
     * (bitwise_and on float32) refuses it and leaves the output alone. */
    const float fa[1] = {1.5f};
    float fgot = 0;
    void *mfa = upload(fa, 4), *mfo = upload(fa, 4);
    struct view vfa, vfo;
    flat(&vfa, mfa, TSR_FLOAT32, 1, 4);
    flat(&vfo, mfo, TSR_FLOAT32, 1, 4);
    tsr_tensor_desc ins[2] = {vfa.d, vfa.d};
    tsr_kernel_args args = {.struct_size = sizeof args,
                            .op = TSR_OP_BITWISE_AND,
                            .num_inputs = 2,
                            .num_outputs = 1,
                            .inputs = ins,
                            .outputs = &vfo.d};
    tsr_kernel_fn fn = find_kernel(TSR_OP_BITWISE_AND, TSR_INT32, TSR_INT32);
    EXPECT(fn && fn(backend, &args) == TSR_ERR_DTYPE, "bitwise_and on float32 was accepted");
    download(mfo, &fgot, 4);
    EXPECT(fgot == 1.5f, "refused call wrote %g", fgot);
    void *mems[] = {ma, mb, mo, mf, mn, mfa, mfo};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i)
        plugin->memory_free(backend, mems[i]);
}

/* complex64 <-> complex128 converts each part (fill_ with a complex tensor
 * value converts it to complex128 first). */
void family2_complex_conversions(void)
{
    if (!has_kernel(TSR_OP_COPY, TSR_COMPLEX64, TSR_COMPLEX128)) {
        printf("note: complex64 -> complex128 not registered on this device\n");
        return;
    }
    const float z[4] = {1.5f, -2.25f, 0.1f, NAN};
    double wide[4];
    float back[4];
    struct view vz, vw, vb; /* two complex elements each */
    void *mz = upload_flat(&vz, z, TSR_COMPLEX64, 2, 8);
    void *mw = upload_flat(&vw, NULL, TSR_COMPLEX128, 2, 16);
    void *mb = upload_flat(&vb, NULL, TSR_COMPLEX64, 2, 8);
    EXPECT(run1(TSR_OP_COPY, &vw, &vz, NULL) == TSR_OK, "c64->c128: %s", last_error);
    EXPECT(run1(TSR_OP_COPY, &vb, &vw, NULL) == TSR_OK, "c128->c64: %s", last_error);
    download(mw, wide, sizeof wide);
    download(mb, back, sizeof back);
    for (int i = 0; i < 4; ++i)
        EXPECT((wide[i] == (double)z[i] || (isnan(wide[i]) && isnan(z[i]))) &&
                   (back[i] == z[i] || (isnan(back[i]) && isnan(z[i]))),
               "part %d: %g -> %.17g -> %g", i, z[i], wide[i], back[i]);
    plugin->memory_free(backend, mz);
    plugin->memory_free(backend, mw);
    plugin->memory_free(backend, mb);
}
