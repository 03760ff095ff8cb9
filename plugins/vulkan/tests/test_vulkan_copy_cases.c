/* Cases of test_vulkan_kernels about moving and converting data and about
 * memory: where, clamp, copy, fill, deferred frees, device copies, large
 * and high-rank tensors, empty tensors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

#define F32 TSR_FLOAT32

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

void where_with_a_broadcast_condition_moves_bits(void)
{
    uint8_t cond[4] = {1, 0, 0, 1};
    uint32_t x[12], y = 0x7fc12345u, got[12]; /* a NaN with a payload */
    for (int i = 0; i < 12; ++i)
        x[i] = i == 5 ? 0xffc00001u : bits_of((float)i);
    void *mc = upload(cond, sizeof cond), *mx = upload(x, sizeof x), *my = upload(&y, 4);
    void *mo = upload(NULL, sizeof got);
    struct view vc, vx, vy, vo;
    const int64_t shape[2] = {3, 4}, rows[2] = {4, 1}, row_bcast[2] = {0, 1}, all_bcast[2] = {0, 0};
    view_of(&vc, mc, TSR_BOOL, 2, shape, row_bcast, 0, 1);
    view_of(&vx, mx, F32, 2, shape, rows, 0, 4);
    view_of(&vy, my, F32, 2, shape, all_bcast, 0, 4);
    view_of(&vo, mo, F32, 2, shape, rows, 0, 4);
    const struct view *in[3] = {&vc, &vx, &vy};
    EXPECT(run(TSR_OP_WHERE, &vo, in, 3, NULL) == TSR_OK, "where: %s", last_error);
    download(mo, got, sizeof got);
    for (int i = 0; i < 12; ++i) {
        uint32_t want = cond[i % 4] ? x[i] : y;
        EXPECT(got[i] == want, "[%d] got 0x%08x want 0x%08x", i, got[i], want);
    }
    plugin->memory_free(backend, mc);
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, my);
    plugin->memory_free(backend, mo);
}

static float clamp_ref(float x, float lo, float hi, int mode)
{
    int both = TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX;
    int keep_nan = !(mode & TSR_CLAMP_SCALAR_BOUNDS) || (mode & both) == both;
    if (isnan(x))
        return x;
    if (mode & TSR_CLAMP_HAS_MIN) {
        if (isnan(lo) && keep_nan)
            return lo;
        if (!isnan(lo))
            x = x < lo ? lo : x;
    }
    if (mode & TSR_CLAMP_HAS_MAX) {
        if (isnan(hi) && keep_nan)
            return hi;
        if (!isnan(hi))
            x = hi < x ? hi : x;
    }
    return x;
}

void clamp_propagates_nan_and_applies_min_first(void)
{
    const float x[] = {-2, 0.5f, 3, NAN, 1, 2};
    const float lo[] = {0, 0, 0, 0, NAN, 3};
    const float hi[] = {1, 1, 1, 1, 1, 1};
    enum { N = sizeof x / sizeof x[0] };
    float got[N];
    struct view vx, vl, vh, vo;
    void *mx = upload_flat(&vx, x, F32, N, 4), *ml = upload_flat(&vl, lo, F32, N, 4);
    void *mh = upload_flat(&vh, hi, F32, N, 4), *mo = upload_flat(&vo, NULL, F32, N, 4);
    /* A lone Python-scalar NaN bound is ignored; with both bounds it is not. */
    const int modes[] = {TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX, TSR_CLAMP_HAS_MIN,
                         TSR_CLAMP_HAS_MAX, TSR_CLAMP_HAS_MIN | TSR_CLAMP_SCALAR_BOUNDS,
                         TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX | TSR_CLAMP_SCALAR_BOUNDS};
    for (int k = 0; k < 5; ++k) {
        /* An absent bound's descriptor repeats x and must be ignored. */
        const struct view *in[3] = {&vx, (modes[k] & TSR_CLAMP_HAS_MIN) ? &vl : &vx,
                                    (modes[k] & TSR_CLAMP_HAS_MAX) ? &vh : &vx};
        tsr_elementwise_attrs at = attrs_mode(modes[k]);
        EXPECT(run(TSR_OP_CLAMP, &vo, in, 3, &at) == TSR_OK, "clamp: %s", last_error);
        download(mo, got, sizeof got);
        for (int i = 0; i < N; ++i) {
            float want = clamp_ref(x[i], lo[i], hi[i], modes[k]);
            EXPECT(close_to(got[i], want, 0, 0), "mode %d clamp(%g, %g, %g) got %g want %g",
                   modes[k], x[i], lo[i], hi[i], got[i], want);
        }
    }
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, ml);
    plugin->memory_free(backend, mh);
    plugin->memory_free(backend, mo);
}

static int32_t x86_int32(float f)
{
    if (isnan(f) || f >= 2147483648.0f || f < -2147483648.0f)
        return INT32_MIN;
    return (int32_t)f;
}

static uint16_t bf16_of(float f)
{
    uint32_t x = bits_of(f);
    if (isnan(f))
        return 0x7fc0;
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/* Converts `src` (float32) into `dtype` on the device and returns the bytes. */
static void convert_float32(const float *src, int n, int dtype, int64_t item, void *out)
{
    void *mi = upload(src, (size_t)n * 4), *mo = upload(NULL, (size_t)n * (size_t)item);
    struct view vi, vo;
    flat(&vi, mi, F32, n, 4);
    flat(&vo, mo, dtype, n, item);
    EXPECT(run1(TSR_OP_COPY, &vo, &vi, NULL) == TSR_OK, "copy to %d: %s", dtype, last_error);
    download(mo, out, (size_t)n * (size_t)item);
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
}

void copy_converts_like_pytorch_on_x86(void)
{
    const float v[] = {NAN,      3e9f,      -3e9f, 300,   -1,    -129.5f, 2.7f,  -2.7f,
                       INFINITY, -INFINITY, 1e20f, 65520, 1e-8f, -0.0f,   65519, 1.00048828125f};
    enum { N = sizeof v / sizeof v[0] };
    int32_t i32[N];
    int8_t i8[N];
    uint8_t u8[N], b[N];
    int16_t i16[N];
    uint16_t h[N], bf[N];
    convert_float32(v, N, TSR_INT32, 4, i32);
    convert_float32(v, N, TSR_INT8, 1, i8);
    convert_float32(v, N, TSR_UINT8, 1, u8);
    convert_float32(v, N, TSR_INT16, 2, i16);
    convert_float32(v, N, TSR_BOOL, 1, b);
    convert_float32(v, N, TSR_FLOAT16, 2, h);
    convert_float32(v, N, TSR_BFLOAT16, 2, bf);
    for (int i = 0; i < N; ++i) {
        int32_t w = x86_int32(v[i]);
        EXPECT(i32[i] == w, "int32(%g) got %d want %d", v[i], i32[i], w);
        EXPECT(i8[i] == (int8_t)(uint8_t)w, "int8(%g) got %d", v[i], i8[i]);
        EXPECT(u8[i] == (uint8_t)w, "uint8(%g) got %d", v[i], u8[i]);
        EXPECT(i16[i] == (int16_t)(uint16_t)w, "int16(%g) got %d", v[i], i16[i]);
        EXPECT(b[i] == (v[i] != 0 || isnan(v[i])), "bool(%g) got %d", v[i], b[i]);
        uint16_t wh = to_half(v[i]);
        EXPECT(isnan(v[i]) ? (h[i] & 0x7fff) > 0x7c00 : h[i] == wh,
               "float16(%g) got 0x%04x want "
               "0x%04x",
               v[i], h[i], wh);
        EXPECT(bf[i] == bf16_of(v[i]), "bfloat16(%g) got 0x%04x want 0x%04x", v[i], bf[i],
               bf16_of(v[i]));
    }
    /* int32 -> float32 rounds to nearest even; int8 -> uint8 keeps the bits. */
    const int32_t ints[] = {16777217, -16777219, 7, -128};
    float f[4];
    void *mi = upload(ints, sizeof ints), *mo = upload(NULL, sizeof f);
    struct view vi, vo;
    flat(&vi, mi, TSR_INT32, 4, 4);
    flat(&vo, mo, F32, 4, 4);
    EXPECT(run1(TSR_OP_COPY, &vo, &vi, NULL) == TSR_OK, "%s", last_error);
    download(mo, f, sizeof f);
    for (int i = 0; i < 4; ++i)
        EXPECT(f[i] == (float)ints[i], "float(%d) got %.9g", ints[i], f[i]);
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
}

void copy_int64_and_float64_when_registered(void)
{
    if (!has_kernel(TSR_OP_COPY, TSR_FLOAT64, TSR_INT64)) {
        printf("note: no int64/float64 copies on this device\n");
        return;
    }
    const double d[] = {1e20, -3e9, 2.5, -2.5, NAN, 9007199254740993.0, 65520.0, 1e-300};
    enum { N = sizeof d / sizeof d[0] };
    int64_t i64[N];
    float f[N];
    uint16_t h[N];
    void *md = upload(d, sizeof d), *mi = upload(NULL, sizeof i64);
    void *mf = upload(NULL, sizeof f), *mh = upload(NULL, sizeof h);
    struct view vd, vi, vf, vh;
    flat(&vd, md, TSR_FLOAT64, N, 8);
    flat(&vi, mi, TSR_INT64, N, 8);
    flat(&vf, mf, F32, N, 4);
    flat(&vh, mh, TSR_FLOAT16, N, 2);
    EXPECT(run1(TSR_OP_COPY, &vi, &vd, NULL) == TSR_OK, "%s", last_error);
    EXPECT(run1(TSR_OP_COPY, &vf, &vd, NULL) == TSR_OK, "%s", last_error);
    EXPECT(run1(TSR_OP_COPY, &vh, &vd, NULL) == TSR_OK, "%s", last_error);
    download(mi, i64, sizeof i64);
    download(mf, f, sizeof f);
    download(mh, h, sizeof h);
    for (int i = 0; i < N; ++i) {
        int64_t w = isnan(d[i]) || fabs(d[i]) >= 9223372036854775808.0 ? INT64_MIN : (int64_t)d[i];
        EXPECT(i64[i] == w, "int64(%g) got %lld", d[i], (long long)i64[i]);
        EXPECT(close_to(f[i], (float)d[i], 0, 0), "float(%g) got %g", d[i], f[i]);
        uint16_t wh = to_half((float)d[i]); /* through float32, as c10::Half */
        EXPECT(isnan(d[i]) ? (h[i] & 0x7fff) > 0x7c00 : h[i] == wh, "half(%g) got 0x%04x", d[i],
               h[i]);
    }
    /* int64 -> float32 and int64 -> int32 (wraps). */
    const int64_t big[] = {(1LL << 53) + 1, -((1LL << 40) + 3), 0x1234567890LL, -1};
    int32_t w32[4];
    struct view vb, v32;
    void *mb = upload_flat(&vb, big, TSR_INT64, 4, 8);
    void *m32 = upload_flat(&v32, NULL, TSR_INT32, 4, 4);
    flat(&vf, mf, F32, 4, 4);
    EXPECT(run1(TSR_OP_COPY, &v32, &vb, NULL) == TSR_OK, "%s", last_error);
    EXPECT(run1(TSR_OP_COPY, &vf, &vb, NULL) == TSR_OK, "%s", last_error);
    download(m32, w32, sizeof w32);
    download(mf, f, 4 * sizeof *f);
    for (int i = 0; i < 4; ++i) {
        EXPECT(w32[i] == (int32_t)(uint32_t)big[i], "int32(%lld) got %d", (long long)big[i],
               w32[i]);
        EXPECT(f[i] == (float)big[i], "float(%lld) got %.9g", (long long)big[i], f[i]);
    }
    void *ms[] = {md, mi, mf, mh, mb, m32};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; ++i)
        plugin->memory_free(backend, ms[i]);
}

void fill_checks_overflow_and_fills_strided_views(void)
{
    void *m8 = upload(NULL, 4);
    struct view v8;
    flat(&v8, m8, TSR_INT8, 4, 1);
    tsr_elementwise_attrs big = attrs_int(300);
    last_error[0] = '\0';
    EXPECT(run(TSR_OP_FILL, &v8, NULL, 0, &big) == TSR_ERR_VALUE, "fill int8 with 300 accepted");
    EXPECT(strstr(last_error, "overflow") != NULL, "message: %s", last_error);
    plugin->memory_free(backend, m8);

    float buf[10], got[10];
    for (int i = 0; i < 10; ++i)
        buf[i] = -1.0f;
    void *mf = upload(buf, sizeof buf);
    struct view vf;
    const int64_t five = 5, two = 2;
    view_of(&vf, mf, F32, 1, &five, &two, 1, 4); /* elements 1, 3, 5, 7, 9 */
    tsr_elementwise_attrs value = attrs_float(7.5);
    EXPECT(run(TSR_OP_FILL, &vf, NULL, 0, &value) == TSR_OK, "%s", last_error);
    download(mf, got, sizeof got);
    for (int i = 0; i < 10; ++i)
        EXPECT(got[i] == (i % 2 ? 7.5f : -1.0f), "[%d] got %g", i, got[i]);
    plugin->memory_free(backend, mf);

    uint16_t h[3];
    void *mh = upload(NULL, sizeof h);
    struct view vh;
    flat(&vh, mh, TSR_FLOAT16, 3, 2);
    tsr_elementwise_attrs tie = attrs_float(1.0009765625 + 1.0 / 2048); /* rounds to even */
    EXPECT(run(TSR_OP_FILL, &vh, NULL, 0, &tie) == TSR_OK, "%s", last_error);
    download(mh, h, sizeof h);
    EXPECT(h[0] == 0x3c02 && h[2] == 0x3c02, "float16 fill got 0x%04x", h[0]);
    plugin->memory_free(backend, mh);

    uint8_t u[5];
    void *mu = upload(NULL, sizeof u);
    struct view vu;
    flat(&vu, mu, TSR_UINT8, 5, 1);
    tsr_elementwise_attrs minus_one = attrs_int(-1);
    EXPECT(run(TSR_OP_FILL, &vu, NULL, 0, &minus_one) == TSR_OK, "%s", last_error);
    download(mu, u, sizeof u);
    EXPECT(u[0] == 255 && u[4] == 255, "uint8 fill -1 got %d", u[0]);
    plugin->memory_free(backend, mu);
}

void free_while_queued_keeps_memory_until_done(void)
{
    enum { N = 1 << 16 };
    float *a = malloc(N * sizeof *a), *got = malloc(N * sizeof *got);
    for (int i = 0; i < N; ++i)
        a[i] = (float)i;
    void *ma = upload(a, N * sizeof *a), *mo = upload(NULL, N * sizeof *got);
    struct view va, vo;
    flat(&va, ma, F32, N, 4);
    flat(&vo, mo, F32, N, 4);
    EXPECT(run1(TSR_OP_NEG, &vo, &va, NULL) == TSR_OK, "%s", last_error);
    plugin->memory_free(backend, ma); /* the negation has not run yet */
    for (int i = 0; i < N; ++i)
        a[i] = 12345.0f;
    void *reuse = upload(a, N * sizeof *a); /* must not land on the freed range yet */
    download(mo, got, N * sizeof *got);
    int bad = 0;
    for (int i = 0; i < N && bad < 5; ++i)
        if (got[i] != -(float)i) {
            EXPECT(0, "[%d] got %g want %g", i, got[i], -(float)i);
            ++bad;
        }
    plugin->memory_free(backend, reuse);
    plugin->memory_free(backend, mo);
    free(a);
    free(got);
}

void copy_on_device_handles_overlap(void)
{
    uint8_t bytes[64], got[64];
    for (int i = 0; i < 64; ++i)
        bytes[i] = (uint8_t)i;
    void *m = upload(bytes, sizeof bytes), *other = upload(NULL, sizeof bytes);
    EXPECT(plugin->copy_on_device(backend, m, 8, m, 0, 32) == TSR_OK, "%s", last_error);
    EXPECT(plugin->copy_on_device(backend, other, 0, m, 0, 64) == TSR_OK, "%s", last_error);
    download(other, got, sizeof got);
    for (int i = 0; i < 64; ++i) {
        int want = i < 8 ? i : (i < 40 ? i - 8 : i);
        EXPECT(got[i] == want, "[%d] got %d want %d", i, got[i], want);
    }
    EXPECT(plugin->copy_on_device(backend, other, 60, m, 0, 8) == TSR_ERR_INDEX,
           "copy past the end accepted");
    plugin->memory_free(backend, m);
    plugin->memory_free(backend, other);
}

/* 17M elements: more than one block, more than 65535 workgroups (the
 * shaders loop), uploads and downloads in several chunks. */
static void large_add_with_a_scalar_broadcast(void)
{
    const int64_t n = 17000000;
    float *a = malloc((size_t)n * sizeof *a), *got = malloc((size_t)n * sizeof *got);
    for (int64_t i = 0; i < n; ++i)
        a[i] = (float)(i % 1000);
    float s = 0.5f;
    void *ma = upload(a, (size_t)n * 4), *ms = upload(&s, 4), *mo = upload(NULL, (size_t)n * 4);
    struct view va, vs, vo;
    const int64_t zero = 0;
    flat(&va, ma, F32, n, 4);
    view_of(&vs, ms, F32, 1, &n, &zero, 0, 4);
    flat(&vo, mo, F32, n, 4);
    EXPECT(run2(TSR_OP_ADD, &vo, &va, &vs, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, (size_t)n * 4);
    int bad = 0;
    for (int64_t i = 0; i < n && bad < 5; ++i)
        if (got[i] != a[i] + 0.5f) {
            EXPECT(0, "[%lld] got %g want %g", (long long)i, got[i], a[i] + 0.5f);
            ++bad;
        }
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, ms);
    plugin->memory_free(backend, mo);
    free(a);
    free(got);
}

/* Rank 16, every extent 2, strides reversed: no dimension merges. */
static void rank16_reversed_strides(void)
{
    enum { D = TSR_MAX_DIMS, N = 1 << D };
    int32_t *src = malloc(N * sizeof *src), *got = malloc(N * sizeof *got);
    for (int i = 0; i < N; ++i)
        src[i] = i * 3 + 1;
    int64_t shape[D], rev[D], rows[D];
    for (int d = 0; d < D; ++d) {
        shape[d] = 2;
        rev[d] = (int64_t)1 << d;
        rows[d] = (int64_t)1 << (D - 1 - d);
    }
    void *mi = upload(src, N * 4), *mo = upload(NULL, N * 4);
    struct view vi, vo;
    view_of(&vi, mi, TSR_INT32, D, shape, rev, 0, 4);
    view_of(&vo, mo, TSR_INT32, D, shape, rows, 0, 4);
    EXPECT(run2(TSR_OP_ADD, &vo, &vi, &vi, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, N * 4);
    int bad = 0;
    for (int i = 0; i < N && bad < 5; ++i) {
        int r = 0; /* the bit-reversed index */
        for (int d = 0; d < D; ++d)
            r |= ((i >> d) & 1) << (D - 1 - d);
        if (got[i] != 2 * src[r]) {
            EXPECT(0, "[%d] got %d want %d", i, got[i], 2 * src[r]);
            ++bad;
        }
    }
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
    free(src);
    free(got);
}

void large_and_high_rank_tensors(void)
{
    large_add_with_a_scalar_broadcast();
    rank16_reversed_strides();
}

/* complex64 and complex128 only move: same-dtype copies, fill, where. */
void complex_values_move_fill_and_select(void)
{
    double z[12], got[12]; /* 6 complex128 values as (re, im) */
    for (int i = 0; i < 12; ++i)
        z[i] = i * 1.5 - 4;
    void *mz = upload(z, sizeof z), *mo = upload(NULL, sizeof got);
    struct view vz, vo;
    const int64_t shape[2] = {2, 3}, transposed[2] = {1, 2}, rows[2] = {3, 1};
    view_of(&vz, mz, TSR_COMPLEX128, 2, shape, transposed, 0, 16);
    view_of(&vo, mo, TSR_COMPLEX128, 2, shape, rows, 0, 16);
    EXPECT(run1(TSR_OP_COPY, &vo, &vz, NULL) == TSR_OK, "%s", last_error);
    download(mo, got, sizeof got);
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 2; ++k)
                EXPECT(got[(r * 3 + c) * 2 + k] == z[(c * 2 + r) * 2 + k], "[%d,%d].%d got %g", r,
                       c, k, got[(r * 3 + c) * 2 + k]);
    tsr_elementwise_attrs value = {.struct_size = sizeof value};
    value.scalars[0].kind = TSR_SCALAR_COMPLEX;
    value.scalars[0].v.c.re = 2.5;
    value.scalars[0].v.c.im = -1.25;
    struct view every_other;
    const int64_t three = 3, two = 2;
    view_of(&every_other, mo, TSR_COMPLEX128, 1, &three, &two, 0, 16);
    EXPECT(run(TSR_OP_FILL, &every_other, NULL, 0, &value) == TSR_OK, "%s", last_error);
    double filled[12];
    download(mo, filled, sizeof filled);
    for (int i = 0; i < 6; ++i) {
        int set = i % 2 == 0;
        EXPECT(filled[2 * i] == (set ? 2.5 : got[2 * i]) &&
                   filled[2 * i + 1] == (set ? -1.25 : got[2 * i + 1]),
               "fill [%d] got (%g, %g)", i, filled[2 * i], filled[2 * i + 1]);
    }
    float c64[4] = {1, 2, 3, 4}, c64_got[4];
    uint8_t cond[2] = {0, 1};
    void *mc = upload(c64, sizeof c64), *mk = upload(cond, 2), *mr = upload(NULL, sizeof c64);
    struct view vc, vk, vr, vy;
    const int64_t n = 2, one = 1, zero = 0;
    view_of(&vc, mc, TSR_COMPLEX64, 1, &n, &one, 0, 8);
    view_of(&vy, mc, TSR_COMPLEX64, 1, &n, &zero, 1, 8); /* broadcast the second value */
    flat(&vk, mk, TSR_BOOL, 2, 1);
    flat(&vr, mr, TSR_COMPLEX64, 2, 8);
    const struct view *in[3] = {&vk, &vc, &vy};
    EXPECT(run(TSR_OP_WHERE, &vr, in, 3, NULL) == TSR_OK, "%s", last_error);
    download(mr, c64_got, sizeof c64_got);
    EXPECT(c64_got[0] == 3 && c64_got[1] == 4 && c64_got[2] == 3 && c64_got[3] == 4,
           "where complex64 got (%g,%g) (%g,%g)", c64_got[0], c64_got[1], c64_got[2], c64_got[3]);
    void *ms[] = {mz, mo, mc, mk, mr};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; ++i)
        plugin->memory_free(backend, ms[i]);
}

void empty_tensors_are_a_no_op(void)
{
    void *m1 = NULL, *m2 = NULL;
    EXPECT(plugin->memory_alloc(backend, 0, &m1) == TSR_OK, "%s", last_error);
    EXPECT(plugin->memory_alloc(backend, 0, &m2) == TSR_OK, "%s", last_error);
    EXPECT(m1 && m2 && m1 != m2, "zero-byte allocations must be distinct");
    struct view v;
    const int64_t shape[2] = {0, 5}, strides[2] = {5, 1};
    view_of(&v, m1, F32, 2, shape, strides, 0, 4);
    EXPECT(run2(TSR_OP_ADD, &v, &v, &v, NULL) == TSR_OK, "empty add: %s", last_error);
    EXPECT(plugin->copy_to_host(backend, NULL, m1, 0, 0) == TSR_OK, "empty download");
    plugin->memory_free(backend, m1);
    plugin->memory_free(backend, m2);
}
