/* The cases of test_vulkan_kernels: each function is named after the rule
 * it pins and computes its expected values on the host. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

#define F32 TSR_FLOAT32
#define I32 TSR_INT32

uint16_t to_half(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t b;
    memcpy(&b, &h, sizeof b);
    return b;
}

float from_half(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return (float)h;
}

/* ---- arithmetic over views ------------------------------------------------------ */

static void add_float32_row_broadcast_with_alpha(void)
{
    float a[12], b[4], got[12];
    for (int i = 0; i < 12; ++i)
        a[i] = (float)i * 0.5f - 2.0f;
    for (int i = 0; i < 4; ++i)
        b[i] = (float)i + 0.25f;
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, sizeof got);
    struct view va, vb, vo;
    const int64_t shape[2] = {3, 4}, rows[2] = {4, 1}, bcast[2] = {0, 1};
    view_of(&va, ma, F32, 2, shape, rows, 0, 4);
    view_of(&vb, mb, F32, 2, shape, bcast, 0, 4);
    view_of(&vo, mo, F32, 2, shape, rows, 0, 4);
    tsr_elementwise_attrs alpha = attrs_float(2.5);
    EXPECT(run2(TSR_OP_ADD, &vo, &va, &vb, &alpha) == TSR_OK, "add: %s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < 12; ++i) {
        float want = a[i] + 2.5f * b[i % 4];
        EXPECT(got[i] == want, "[%d] got %.9g want %.9g", i, got[i], want);
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

static void sub_int32_reads_a_transposed_view(void)
{
    int32_t a[12], b[12], got[12];
    for (int i = 0; i < 12; ++i) {
        a[i] = i * 7 - 30;
        b[i] = 100 - i;
    }
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, sizeof got);
    struct view va, vb, vo;
    const int64_t shape[2] = {3, 4}, transposed[2] = {1, 3}, rows[2] = {4, 1};
    view_of(&va, ma, I32, 2, shape, transposed, 0, 4); /* a stored as [4, 3] */
    view_of(&vb, mb, I32, 2, shape, rows, 0, 4);
    view_of(&vo, mo, I32, 2, shape, rows, 0, 4);
    tsr_elementwise_attrs alpha = attrs_int(3);
    EXPECT(run2(TSR_OP_SUB, &vo, &va, &vb, &alpha) == TSR_OK, "sub: %s", last_error);
    download(mo, got, sizeof got);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
            int32_t want = a[c * 3 + r] - 3 * b[r * 4 + c];
            EXPECT(got[r * 4 + c] == want, "[%d,%d] got %d want %d", r, c, got[r * 4 + c], want);
        }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

static void mul_int8_wraps_and_writes_bytes_in_place(void)
{
    int8_t a[37], b[37], got[37];
    for (int i = 0; i < 37; ++i) {
        a[i] = (int8_t)(i * 9 - 100);
        b[i] = (int8_t)(i - 17);
    }
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b);
    struct view va, vb;
    flat(&va, ma, TSR_INT8, 37, 1);
    flat(&vb, mb, TSR_INT8, 37, 1);
    EXPECT(run2(TSR_OP_MUL, &va, &va, &vb, NULL) == TSR_OK, "mul: %s", last_error);
    download(ma, got, sizeof got);
    for (int i = 0; i < 37; ++i) {
        int8_t want = (int8_t)(uint8_t)((int)a[i] * (int)b[i]);
        EXPECT(got[i] == want, "[%d] got %d want %d", i, got[i], want);
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
}

static void float16_add_rounds_once_from_float32(void)
{
    uint16_t a[33], b[33], got[33];
    for (int i = 0; i < 33; ++i) {
        a[i] = to_half(1.0f + (float)i / 1024.0f);
        b[i] = to_half((float)i * 3.0e-4f);
    }
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, sizeof got);
    struct view va, vb, vo;
    flat(&va, ma, TSR_FLOAT16, 33, 2);
    flat(&vb, mb, TSR_FLOAT16, 33, 2);
    flat(&vo, mo, TSR_FLOAT16, 33, 2);
    EXPECT(run2(TSR_OP_ADD, &vo, &va, &vb, NULL) == TSR_OK, "add f16: %s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < 33; ++i) {
        uint16_t want = to_half(from_half(a[i]) + from_half(b[i]));
        EXPECT(got[i] == want, "[%d] got 0x%04x want 0x%04x", i, got[i], want);
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

/* ---- division family -------------------------------------------------------------- */

static void div_float32_modes_match_pytorch(void)
{
    const float a[] = {6, -7, 7, -7, 1, -1, 0, 0.3f, 5, -5};
    const float b[] = {3, 2, -2, -2, 0, 0, 0, 0.1f, 3, 3};
    enum { N = sizeof a / sizeof a[0] };
    float got[N];
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, sizeof got);
    struct view va, vb, vo;
    flat(&va, ma, F32, N, 4);
    flat(&vb, mb, F32, N, 4);
    flat(&vo, mo, F32, N, 4);
    for (int mode = TSR_ROUND_NONE; mode <= TSR_ROUND_FLOOR; ++mode) {
        tsr_elementwise_attrs at = attrs_mode(mode);
        EXPECT(run2(TSR_OP_DIV, &vo, &va, &vb, &at) == TSR_OK, "div: %s", last_error);
        download(mo, got, sizeof got);
        for (int i = 0; i < N; ++i) {
            float q = a[i] / b[i], want = q;
            if (mode == TSR_ROUND_TRUNC)
                want = truncf(q);
            if (mode == TSR_ROUND_FLOOR && b[i] != 0) {
                float mod = fmodf(a[i], b[i]), d = (a[i] - mod) / b[i];
                if (mod != 0 && (b[i] < 0) != (mod < 0))
                    d -= 1;
                want = d == 0 ? copysignf(0, q) : floorf(d) + (d - floorf(d) > 0.5f);
            }
            EXPECT(close_to(got[i], want, 0, 0), "mode %d: %g / %g got %.9g want %.9g", mode, a[i],
                   b[i], got[i], want);
        }
    }
    EXPECT(run2(TSR_OP_REMAINDER, &vo, &va, &vb, NULL) == TSR_OK, "remainder: %s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < N; ++i) {
        float want = fmodf(a[i], b[i]);
        if (want != 0 && (b[i] < 0) != (want < 0))
            want += b[i];
        EXPECT(close_to(got[i], want, 0, 0), "%g %% %g got %.9g want %.9g", a[i], b[i], got[i],
               want);
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

static int32_t floor_div_i32(int32_t a, int32_t b)
{
    if (b == -1)
        return (int32_t)(0u - (uint32_t)a);
    int32_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static void floor_divide_int32_min_by_minus_one_wraps(void)
{
    const int32_t a[] = {7, -7, 7, -7, INT32_MIN, 5, -5, 0, 100};
    const int32_t b[] = {2, 2, -2, -2, -1, 3, 3, 4, -7};
    enum { N = sizeof a / sizeof a[0] };
    int32_t got[N];
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, sizeof got);
    struct view va, vb, vo;
    flat(&va, ma, I32, N, 4);
    flat(&vb, mb, I32, N, 4);
    flat(&vo, mo, I32, N, 4);
    EXPECT(run2(TSR_OP_FLOOR_DIVIDE, &vo, &va, &vb, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < N; ++i)
        EXPECT(got[i] == floor_div_i32(a[i], b[i]), "%d // %d got %d want %d", a[i], b[i], got[i],
               floor_div_i32(a[i], b[i]));
    EXPECT(run2(TSR_OP_REMAINDER, &vo, &va, &vb, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < N; ++i) {
        int32_t want = b[i] == -1 ? 0 : a[i] % b[i];
        if (want != 0 && (want < 0) != (b[i] < 0))
            want += b[i];
        EXPECT(got[i] == want, "%d %% %d got %d want %d", a[i], b[i], got[i], want);
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

static void integer_division_by_zero_fails_before_writing(void)
{
    const int32_t a[] = {1, 2, 3}, b[] = {1, 0, 1}, sentinel[] = {-7, -7, -7};
    int32_t got[3];
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(sentinel, sizeof a);
    struct view va, vb, vo;
    flat(&va, ma, I32, 3, 4);
    flat(&vb, mb, I32, 3, 4);
    flat(&vo, mo, I32, 3, 4);
    const int ops[] = {TSR_OP_FLOOR_DIVIDE, TSR_OP_REMAINDER, TSR_OP_DIV};
    for (int k = 0; k < 3; ++k) {
        tsr_elementwise_attrs trunc = attrs_mode(TSR_ROUND_TRUNC);
        last_error[0] = '\0';
        EXPECT(run2(ops[k], &vo, &va, &vb, &trunc) == TSR_ERR_VALUE, "op %d accepted a zero",
               ops[k]);
        EXPECT(strstr(last_error, "ZeroDivisionError") != NULL, "message: %s", last_error);
        EXPECT(run2(ops[k], &va, &va, &vb, &trunc) == TSR_ERR_VALUE, "in place: accepted");
    }
    download(mo, got, sizeof got);
    for (int i = 0; i < 3; ++i)
        EXPECT(got[i] == -7, "output [%d] written: %d", i, got[i]);
    download(ma, got, sizeof got);
    for (int i = 0; i < 3; ++i)
        EXPECT(got[i] == a[i], "in-place self [%d] written: %d", i, got[i]);
    EXPECT(plugin->synchronize(backend) == TSR_OK, "the error is reported once: %s", last_error);
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

static void pow_integer_negative_exponents_and_float(void)
{
    const int32_t a[] = {2, 1, -1, -1, 0, 3, 0, -3};
    const int32_t b[] = {-1, -1, -1, -2, -1, 21, 0, 5};
    enum { N = sizeof a / sizeof a[0] };
    const int32_t want[N] = {0, 1, -1, 1, 0, (int32_t)10460353203LL, 1, -243};
    int32_t got[N];
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, sizeof got);
    struct view va, vb, vo;
    flat(&va, ma, I32, N, 4);
    flat(&vb, mb, I32, N, 4);
    flat(&vo, mo, I32, N, 4);
    EXPECT(run2(TSR_OP_POW, &vo, &va, &vb, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < N; ++i)
        EXPECT(got[i] == want[i], "%d ** %d got %d want %d", a[i], b[i], got[i], want[i]);
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
    if (!has_kernel(TSR_OP_POW, F32, F32)) {
        printf("note: no float32 pow on this device (needs shaderFloat64)\n");
        return;
    }
    const float x[] = {2, -8, -8, 0, 0, 1, 10, 0.5f, 3};
    const float y[] = {0.5f, 2, 1.0f / 3, -1, 0, NAN, 15, -3, 2};
    enum { M = sizeof x / sizeof x[0] };
    float fg[M];
    void *mx = upload(x, sizeof x), *my = upload(y, sizeof y), *mf = upload(NULL, sizeof fg);
    flat(&va, mx, F32, M, 4);
    flat(&vb, my, F32, M, 4);
    flat(&vo, mf, F32, M, 4);
    EXPECT(run2(TSR_OP_POW, &vo, &va, &vb, NULL) == TSR_OK, "%s", last_error);
    download(mf, fg, sizeof fg);
    for (int i = 0; i < M; ++i)
        EXPECT(close_to(fg[i], powf(x[i], y[i]), 0, 0), "pow(%g, %g) got %.9g want %.9g", x[i],
               y[i], fg[i], powf(x[i], y[i]));
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, my);
    plugin->memory_free(backend, mf);
}

/* ---- comparisons, logical ops, maximum ---------------------------------------------- */

static void comparisons_write_bool_and_nan_is_only_not_equal(void)
{
    const float a[] = {1, 2, NAN, 3, -0.0f, 5};
    const float b[] = {1, 1, NAN, 4, 0.0f, NAN};
    enum { N = sizeof a / sizeof a[0] };
    uint8_t got[N];
    void *ma = upload(a, sizeof a), *mb = upload(b, sizeof b), *mo = upload(NULL, N);
    struct view va, vb, vo;
    flat(&va, ma, F32, N, 4);
    flat(&vb, mb, F32, N, 4);
    flat(&vo, mo, TSR_BOOL, N, 1);
    const int ops[] = {TSR_OP_EQ, TSR_OP_NE, TSR_OP_LT, TSR_OP_LE, TSR_OP_GT, TSR_OP_GE};
    for (int k = 0; k < 6; ++k) {
        EXPECT(run2(ops[k], &vo, &va, &vb, NULL) == TSR_OK, "op %d: %s", ops[k], last_error);
        download(mo, got, sizeof got);
        for (int i = 0; i < N; ++i) {
            int want = ops[k] == TSR_OP_EQ   ? a[i] == b[i]
                       : ops[k] == TSR_OP_NE ? a[i] != b[i]
                       : ops[k] == TSR_OP_LT ? a[i] < b[i]
                       : ops[k] == TSR_OP_LE ? a[i] <= b[i]
                       : ops[k] == TSR_OP_GT ? a[i] > b[i]
                                             : a[i] >= b[i];
            EXPECT(got[i] == want, "op %d on (%g, %g): got %d want %d", ops[k], a[i], b[i], got[i],
                   want);
        }
    }
    float m[N];
    void *mm = upload(NULL, sizeof m);
    struct view vm;
    flat(&vm, mm, F32, N, 4);
    EXPECT(run2(TSR_OP_MAXIMUM, &vm, &va, &vb, NULL) == TSR_OK, "%s", last_error);
    download(mm, m, sizeof m);
    for (int i = 0; i < N; ++i) {
        float want = isnan(a[i]) || isnan(b[i]) ? NAN : (a[i] < b[i] ? b[i] : a[i]);
        EXPECT(close_to(m[i], want, 0, 0), "maximum(%g, %g) got %g", a[i], b[i], m[i]);
    }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
    plugin->memory_free(backend, mm);
}

static void logical_ops_on_int8_and_bool_byte_views(void)
{
    /* 11 int8 values starting one byte into the buffer, every second read. */
    int8_t raw[24];
    for (int i = 0; i < 24; ++i)
        raw[i] = (int8_t)(i % 3 == 0 ? 0 : i - 12);
    uint8_t flags[11], got[11];
    for (int i = 0; i < 11; ++i)
        flags[i] = (uint8_t)(i % 2);
    void *mr = upload(raw, sizeof raw), *mf = upload(flags, sizeof flags);
    void *mo = upload(NULL, 13);
    struct view vr, vf, vo;
    const int64_t n = 11, two = 2, one = 1;
    view_of(&vr, mr, TSR_INT8, 1, &n, &two, 1, 1);
    flat(&vf, mf, TSR_BOOL, 11, 1);
    view_of(&vo, mo, TSR_BOOL, 1, &n, &one, 2, 1); /* output starts mid-word */
    uint8_t sentinel[13];
    memset(sentinel, 0xAA, sizeof sentinel);
    plugin->copy_from_host(backend, mo, 0, sentinel, sizeof sentinel);
    EXPECT(run1(TSR_OP_LOGICAL_NOT, &vo, &vr, NULL) == TSR_OK, "%s", last_error);
    uint8_t all[13];
    download(mo, all, sizeof all);
    EXPECT(all[0] == 0xAA && all[1] == 0xAA, "bytes before the view were touched");
    for (int i = 0; i < 11; ++i)
        EXPECT(all[2 + i] == (raw[1 + 2 * i] == 0), "not [%d] got %d", i, all[2 + i]);
    struct view vs;
    flat(&vs, mo, TSR_BOOL, 11, 1);
    EXPECT(run2(TSR_OP_LOGICAL_XOR, &vs, &vf, &vf, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < 11; ++i)
        EXPECT(got[i] == 0, "xor(x, x) [%d] = %d", i, got[i]);
    EXPECT(run2(TSR_OP_LOGICAL_OR, &vs, &vf, &vf, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < 11; ++i)
        EXPECT(got[i] == flags[i], "or [%d] = %d", i, got[i]);
    plugin->memory_free(backend, mr);
    plugin->memory_free(backend, mf);
    plugin->memory_free(backend, mo);
}

/* ---- unary ------------------------------------------------------------------------------ */

static double ref_unary(int op, int mode, double x)
{
    switch (op) {
    case TSR_OP_NEG:
        return -x;
    case TSR_OP_ABS:
        return fabs(x);
    case TSR_OP_SIGN:
        return x > 0 ? 1 : (x < 0 ? -1 : 0);
    case TSR_OP_EXP:
        return exp(x);
    case TSR_OP_LOG:
        return log(x);
    case TSR_OP_LOG1P:
        return log1p(x);
    case TSR_OP_EXPM1:
        return expm1(x);
    case TSR_OP_SQRT:
        return sqrt(x);
    case TSR_OP_RSQRT:
        return 1 / sqrt(x);
    case TSR_OP_SIN:
        return sin(x);
    case TSR_OP_COS:
        return cos(x);
    case TSR_OP_TANH:
        return tanh(x);
    case TSR_OP_SIGMOID:
        return 1 / (1 + exp(-x));
    case TSR_OP_RELU:
        return x < 0 ? 0 : x;
    case TSR_OP_ERF:
        return erf(x);
    case TSR_OP_GELU:
        if (mode == TSR_GELU_TANH)
            return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
        return 0.5 * x * (1 + erf(x * 0.7071067811865476));
    }
    return NAN;
}

/* Every unary float op on a strided view (every third element), float32
 * and, where registered, float64. */
static void unary_ops_on_a_strided_view_match_libm(int dtype)
{
    enum { N = 64 };
    double src[3 * N];
    for (int i = 0; i < 3 * N; ++i)
        src[i] = (i % 3 == 0) ? -6.0 + 12.0 * (i / 3) / (N - 1) : 1e30;
    src[3 * 5] = NAN;
    src[3 * 7] = 1000.0;
    src[3 * 9] = -0.0;
    size_t item = dtype == TSR_FLOAT64 ? 8 : 4;
    unsigned char host_in[3 * N * 8], host_out[N * 8];
    for (int i = 0; i < 3 * N; ++i) {
        float f = (float)src[i];
        if (dtype == TSR_FLOAT64)
            memcpy(host_in + i * 8, &src[i], 8);
        else
            memcpy(host_in + i * 4, &f, 4);
    }
    void *mi = upload(host_in, 3 * N * item), *mo = upload(NULL, N * item);
    struct view vi, vo;
    const int64_t n = N, three = 3;
    view_of(&vi, mi, dtype, 1, &n, &three, 0, (int64_t)item);
    flat(&vo, mo, dtype, N, (int64_t)item);
    const int ops[] = {TSR_OP_NEG,   TSR_OP_ABS,   TSR_OP_SIGN,    TSR_OP_EXP,   TSR_OP_LOG,
                       TSR_OP_LOG1P, TSR_OP_EXPM1, TSR_OP_SQRT,    TSR_OP_RSQRT, TSR_OP_SIN,
                       TSR_OP_COS,   TSR_OP_TANH,  TSR_OP_SIGMOID, TSR_OP_RELU,  TSR_OP_ERF,
                       TSR_OP_GELU,  TSR_OP_GELU};
    double rtol = dtype == TSR_FLOAT64 ? 1e-13 : 1e-6, atol = dtype == TSR_FLOAT64 ? 1e-13 : 1e-6;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
        int mode = k == sizeof ops / sizeof ops[0] - 1 ? TSR_GELU_TANH : TSR_GELU_NONE;
        tsr_elementwise_attrs at = attrs_mode(mode);
        EXPECT(run1(ops[k], &vo, &vi, &at) == TSR_OK, "op %d: %s", ops[k], last_error);
        download(mo, host_out, N * item);
        for (int i = 0; i < N; ++i) {
            double x = src[3 * i], got;
            if (dtype == TSR_FLOAT64) {
                memcpy(&got, host_out + i * 8, 8);
            } else {
                float g;
                memcpy(&g, host_out + i * 4, 4);
                got = g;
                x = (float)x;
            }
            double want = ref_unary(ops[k], mode, x);
            if (dtype != TSR_FLOAT64)
                want = (float)want;
            EXPECT(close_to(got, want, rtol, atol),
                   "%s op %d mode %d (%.17g): got %.17g want %.17g",
                   dtype == TSR_FLOAT64 ? "float64" : "float32", ops[k], mode, x, got, want);
        }
    }
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
}

static void unary_float32(void)
{
    unary_ops_on_a_strided_view_match_libm(F32);
}

static void unary_float64(void)
{
    if (!has_kernel(TSR_OP_EXP, TSR_FLOAT64, TSR_FLOAT64)) {
        printf("note: no float64 kernels on this device\n");
        return;
    }
    unary_ops_on_a_strided_view_match_libm(TSR_FLOAT64);
}

#define CASE(fn)                                                                                   \
    {                                                                                              \
#fn, fn                                                                                    \
    }

void run_all_cases(void)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } cases[] = {
        CASE(add_float32_row_broadcast_with_alpha),
        CASE(sub_int32_reads_a_transposed_view),
        CASE(mul_int8_wraps_and_writes_bytes_in_place),
        CASE(float16_add_rounds_once_from_float32),
        CASE(div_float32_modes_match_pytorch),
        CASE(floor_divide_int32_min_by_minus_one_wraps),
        CASE(integer_division_by_zero_fails_before_writing),
        CASE(pow_integer_negative_exponents_and_float),
        CASE(comparisons_write_bool_and_nan_is_only_not_equal),
        CASE(logical_ops_on_int8_and_bool_byte_views),
        CASE(unary_float32),
        CASE(unary_float64),
        CASE(binary_ops_on_every_registered_dtype),
        CASE(where_with_a_broadcast_condition_moves_bits),
        CASE(clamp_propagates_nan_and_applies_min_first),
        CASE(copy_converts_like_pytorch_on_x86),
        CASE(copy_int64_and_float64_when_registered),
        CASE(fill_checks_overflow_and_fills_strided_views),
        CASE(free_while_queued_keeps_memory_until_done),
        CASE(copy_on_device_handles_overlap),
        CASE(large_and_high_rank_tensors),
        CASE(complex_values_move_fill_and_select),
        CASE(empty_tensors_are_a_no_op),
        CASE(family2_unary_ops_match_host_formulas),
        CASE(family2_round_decimals_and_bfloat16_steps),
        CASE(family2_ternary_ops),
        CASE(family2_integer_ops),
        CASE(family2_complex_conversions),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int before = failures;
        cases[i].fn();
        EXPECT(plugin->synchronize(backend) == TSR_OK, "after %s: %s", cases[i].name, last_error);
        printf("%s %s\n", failures == before ? "ok  " : "FAIL", cases[i].name);
    }
}
