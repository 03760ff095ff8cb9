/* Operands past maxStorageBufferRange are split into pieces (launch.c):
 * the same kernels on two instances of the plugin, one with its binding
 * limit lowered to TESSERA_VULKAN_MAX_BINDING bytes (64 KiB by default here),
 * so that small tensors cross it, and one with the device's limit, must
 * give the same bytes; the host's arithmetic checks both. Kernels that are
 * not tiled yet must refuse cleanly on the lowered instance.
 *
 * Uses test_vulkan_kernels.c's host and main (which sets up the unlowered
 * instance as `backend`). Exit 77 (skip) without a Vulkan device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tessera/plugin.h>

#include "test_vulkan_kernels.h"

#define F32 TSR_FLOAT32

/* A case uploads its inputs (from a fixed pattern), runs, and downloads the
 * whole output allocation into `got` (`bytes` long), on `backend`. */
typedef void (*tiling_case)(unsigned char *got, size_t bytes);

static uint32_t pattern(uint32_t i)
{
    uint32_t x = i * 2654435761u + 12345u;
    return x ^ (x >> 15);
}

static float value_at(uint32_t i)
{
    return (float)(pattern(i) % 2001u) / 8.0f - 125.0f;
}

static void *upload_floats(int64_t n)
{
    float *host = malloc((size_t)n * sizeof *host);
    for (int64_t i = 0; i < n; ++i)
        host[i] = value_at((uint32_t)i);
    void *mem = upload(host, (size_t)n * sizeof *host);
    free(host);
    return mem;
}

/* Rank 1 contiguous, in place: a += a * 3 (mul, then add on the result). */
enum { FLAT_N = 40009 };
static void flat_in_place(unsigned char *got, size_t bytes)
{
    struct view v;
    void *m = upload_floats(FLAT_N);
    flat(&v, m, F32, FLAT_N, 4);
    float three = 3.0f;
    struct view vs;
    const int64_t n = FLAT_N, zero = 0;
    void *ms = upload(&three, 4);
    view_of(&vs, ms, F32, 1, &n, &zero, 0, 4);
    EXPECT(run2(TSR_OP_MUL, &v, &v, &vs, NULL) == TSR_OK, "mul: %s", last_error);
    tsr_elementwise_attrs alpha = attrs_float(1.0);
    EXPECT(run2(TSR_OP_ADD, &v, &v, &v, &alpha) == TSR_OK, "add: %s", last_error);
    download(m, got, bytes);
    plugin->memory_free(backend, m);
    plugin->memory_free(backend, ms);
}

/* Rank 2: out [R, C] = a^T (a [C, R] transposed) - b, b a row broadcast
 * down the rows. One row of a^T spans more than the limit, so each row is
 * split again along the columns. */
enum { ROWS = 512, COLS = 48 };
static void transposed_minus_row(unsigned char *got, size_t bytes)
{
    void *ma = upload_floats(ROWS * COLS), *mb = upload_floats(COLS);
    void *mo = upload(NULL, bytes);
    struct view va, vb, vo;
    const int64_t shape[2] = {ROWS, COLS}, at[2] = {1, ROWS}, brow[2] = {0, 1}, c[2] = {COLS, 1};
    view_of(&va, ma, F32, 2, shape, at, 0, 4);
    view_of(&vb, mb, F32, 2, shape, brow, 0, 4);
    view_of(&vo, mo, F32, 2, shape, c, 0, 4);
    tsr_elementwise_attrs alpha = attrs_float(1.0);
    EXPECT(run2(TSR_OP_SUB, &vo, &va, &vb, &alpha) == TSR_OK, "sub: %s", last_error);
    download(mo, got, bytes);
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mo);
}

/* where(cond, x, y) with a bool condition (1-byte elements, windows starting
 * mid-word), then int8 -> float32 and float32 -> int16 conversions. */
enum { WHERE_N = 70001 };
static void where_and_conversions(unsigned char *got, size_t bytes)
{
    unsigned char *cond = malloc(WHERE_N);
    signed char *small = malloc(WHERE_N);
    for (int i = 0; i < WHERE_N; ++i) {
        cond[i] = (unsigned char)(pattern((uint32_t)i) & 1u);
        small[i] = (signed char)(pattern((uint32_t)i + 7u) & 0xffu);
    }
    struct view vc, vx, vy, vo, v8, v16;
    /* Views starting 3 elements in, so pieces start inside a word. */
    void *mc = upload(cond, WHERE_N), *m8 = upload(small, WHERE_N);
    void *mx = upload_floats(WHERE_N), *my = upload_floats(WHERE_N + 5);
    void *m16 = upload(NULL, 2 * WHERE_N);
    const int64_t n = WHERE_N - 3, one = 1;
    view_of(&vc, mc, TSR_BOOL, 1, &n, &one, 3, 1);
    view_of(&vx, mx, F32, 1, &n, &one, 3, 4);
    view_of(&vy, my, F32, 1, &n, &one, 5, 4);
    view_of(&v8, m8, TSR_INT8, 1, &n, &one, 3, 1);
    view_of(&v16, m16, TSR_INT16, 1, &n, &one, 3, 2);
    void *mo = upload(NULL, bytes);
    view_of(&vo, mo, F32, 1, &n, &one, 0, 4);
    const struct view *in[3] = {&vc, &vx, &vy};
    EXPECT(run(TSR_OP_WHERE, &vo, in, 3, NULL) == TSR_OK, "where: %s", last_error);
    /* out[1::2] = float(int8) over the odd positions, written in place. */
    struct view odd, odd8;
    const int64_t half = n / 2, two = 2;
    view_of(&odd, mo, F32, 1, &half, &two, 1, 4);
    view_of(&odd8, m8, TSR_INT8, 1, &half, &two, 4, 1);
    EXPECT(run1(TSR_OP_COPY, &odd, &odd8, NULL) == TSR_OK, "copy int8: %s", last_error);
    EXPECT(run1(TSR_OP_COPY, &v16, &vo, NULL) == TSR_OK, "copy to int16: %s", last_error);
    /* The int16 result goes into the tail of the downloaded bytes. */
    download(mo, got, 4 * (size_t)n);
    download(m16, got + 4 * (size_t)n, 2 * (size_t)WHERE_N);
    void *mems[] = {mc, m8, mx, my, m16, mo};
    for (size_t i = 0; i < sizeof mems / sizeof *mems; ++i)
        plugin->memory_free(backend, mems[i]);
    free(cond);
    free(small);
}

/* fill of every third float of a [3, 8000] tensor's middle row, clamp with
 * tensor bounds (a ternary op). */
static void fill_and_clamp(unsigned char *got, size_t bytes)
{
    void *m = upload_floats(3 * 8000), *lo = upload_floats(3 * 8000);
    struct view row, all, vlo, vhi;
    const int64_t n = 2667, three = 3, all_n = 3 * 8000, one = 1, zero = 0;
    view_of(&row, m, F32, 1, &n, &three, 8000, 4);
    tsr_elementwise_attrs value = attrs_float(-7.25);
    EXPECT(run(TSR_OP_FILL, &row, NULL, 0, &value) == TSR_OK, "fill: %s", last_error);
    float hi = 50.0f;
    void *mh = upload(&hi, 4);
    view_of(&all, m, F32, 1, &all_n, &one, 0, 4);
    view_of(&vlo, lo, F32, 1, &all_n, &one, 0, 4);
    view_of(&vhi, mh, F32, 1, &all_n, &zero, 0, 4);
    const struct view *in[3] = {&all, &vlo, &vhi};
    tsr_elementwise_attrs at = attrs_mode(TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX);
    EXPECT(run(TSR_OP_CLAMP, &all, in, 3, &at) == TSR_OK, "clamp: %s", last_error);
    download(m, got, bytes);
    plugin->memory_free(backend, m);
    plugin->memory_free(backend, lo);
    plugin->memory_free(backend, mh);
}

/* The host's arithmetic for two of the cases (exact in float32). */
static void check_against_host(int which, const unsigned char *got)
{
    if (which == 0) {
        for (uint32_t i = 0; i < FLAT_N; ++i) {
            float x = value_at(i) * 3.0f, want = x + x, g;
            memcpy(&g, got + 4 * (size_t)i, 4);
            if (g != want) {
                EXPECT(0, "flat[%u] got %g want %g", i, g, want);
                return;
            }
        }
    } else if (which == 1) {
        for (int r = 0; r < ROWS; ++r)
            for (int c = 0; c < COLS; ++c) {
                float want = value_at((uint32_t)(c * ROWS + r)) - value_at((uint32_t)c), g;
                memcpy(&g, got + 4 * (size_t)(r * COLS + c), 4);
                if (g != want) {
                    EXPECT(0, "[%d, %d] got %g want %g", r, c, g, want);
                    return;
                }
            }
    }
}

/* Runs the case on both instances and compares the bytes. */
static void same_bits_tiled_and_untiled(int which, tiling_case fn, size_t bytes, void *whole,
                                        void *tiled)
{
    unsigned char *a = calloc(1, bytes), *b = calloc(1, bytes);
    backend = whole;
    fn(a, bytes);
    backend = tiled;
    int before = failures;
    fn(b, bytes);
    EXPECT(memcmp(a, b, bytes) == 0, "case %d: tiled bytes differ from untiled ones", which);
    if (failures == before)
        check_against_host(which, b);
    backend = whole;
    free(a);
    free(b);
}

/* ------------------------------------------------------------------------ */
/* Reductions                                                                */
/* ------------------------------------------------------------------------ */

static int reduce_kernel(int op, const struct view *in, const struct view *out,
                         const struct view *idx, uint32_t mask)
{
    tsr_kernel_fn fn = find_kernel(op, in->d.dtype, out->d.dtype);
    if (!fn)
        return TSR_ERR_UNIMPLEMENTED;
    tsr_reduce_attrs attrs = {sizeof attrs, mask, 1.0, 2.0};
    tsr_tensor_desc outs[2] = {out->d, idx ? idx->d : out->d};
    tsr_kernel_args args = {sizeof args, op, 1, idx ? 2 : 1, &in->d, outs, &attrs};
    last_error[0] = '\0';
    return fn(backend, &args);
}

/* One output of N terms: sum, mean, logsumexp (two passes), argmax (its
 * maximum late), all split along the terms on the lowered instance; an
 * int32 sum too. Output: 4 floats, then the argmax and the int32 sum. */
enum { LONG_N = 100003 };
static void long_outputs(unsigned char *got, size_t bytes)
{
    float *x = malloc(sizeof(float) * LONG_N);
    int32_t *xi = malloc(sizeof(int32_t) * LONG_N);
    for (int i = 0; i < LONG_N; ++i) {
        x[i] = value_at((uint32_t)i);
        xi[i] = (int32_t)pattern((uint32_t)i);
    }
    x[LONG_N - 17] = 1000.0f;
    struct view vx, vi, vo[4], varg, vsum;
    void *mx = upload_flat(&vx, x, F32, LONG_N, 4),
         *mi = upload_flat(&vi, xi, TSR_INT32, LONG_N, 4);
    void *mo = upload(NULL, bytes);
    const int64_t one = 1;
    for (int k = 0; k < 4; ++k)
        view_of(&vo[k], mo, F32, 1, &one, &one, k, 4);
    view_of(&varg, mo, TSR_INT64, 1, &one, &one, 2, 8);
    view_of(&vsum, mo, TSR_INT32, 1, &one, &one, 6, 4);
    const int ops[] = {TSR_OP_SUM, TSR_OP_MEAN, TSR_OP_LOGSUMEXP, TSR_OP_AMAX};
    for (int k = 0; k < 4; ++k)
        EXPECT(reduce_kernel(ops[k], &vx, &vo[k], NULL, 1u) == TSR_OK, "op %d: %s", ops[k],
               last_error);
    EXPECT(reduce_kernel(TSR_OP_ARGMAX, &vx, &varg, NULL, 1u) == TSR_OK, "argmax: %s", last_error);
    EXPECT(reduce_kernel(TSR_OP_SUM, &vi, &vsum, NULL, 1u) == TSR_OK, "int sum: %s", last_error);
    download(mo, got, bytes);
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mi);
    plugin->memory_free(backend, mo);
    free(x);
    free(xi);
}

/* Many outputs: sum and var over dim 1 of [40, 3001] (runs of rows), sum
 * and max with indices over dim 0 of [30011, 3] (each column alone, along
 * its terms, a stride of 12 bytes). */
enum { WIDE_R = 40, WIDE_C = 3001, TALL_R = 30011 };
static void many_outputs(unsigned char *got, size_t bytes)
{
    void *mw = upload_floats(WIDE_R * WIDE_C), *mt = upload_floats(TALL_R * 3);
    void *mo = upload(NULL, bytes);
    struct view vw, vt, sw, vv, st, mx, mi;
    const int64_t wshape[2] = {WIDE_R, WIDE_C}, wstr[2] = {WIDE_C, 1};
    const int64_t tshape[2] = {TALL_R, 3}, tstr[2] = {3, 1};
    const int64_t rows[2] = {WIDE_R, 1}, col[2] = {1, 1}, cols[2] = {1, 3}, c3[2] = {3, 1};
    view_of(&vw, mw, F32, 2, wshape, wstr, 0, 4);
    view_of(&vt, mt, F32, 2, tshape, tstr, 0, 4);
    view_of(&sw, mo, F32, 2, rows, col, 0, 4);
    view_of(&vv, mo, F32, 2, rows, col, WIDE_R, 4);
    view_of(&st, mo, F32, 2, cols, c3, 2 * WIDE_R, 4);
    view_of(&mx, mo, F32, 2, cols, c3, 2 * WIDE_R + 3, 4);
    view_of(&mi, mo, TSR_INT64, 2, cols, c3, (2 * WIDE_R + 6) / 2, 8);
    EXPECT(reduce_kernel(TSR_OP_SUM, &vw, &sw, NULL, 2u) == TSR_OK, "rows: %s", last_error);
    EXPECT(reduce_kernel(TSR_OP_VAR, &vw, &vv, NULL, 2u) == TSR_OK, "var: %s", last_error);
    EXPECT(reduce_kernel(TSR_OP_SUM, &vt, &st, NULL, 1u) == TSR_OK, "cols: %s", last_error);
    EXPECT(reduce_kernel(TSR_OP_MAX_DIM, &vt, &mx, &mi, 1u) == TSR_OK, "max: %s", last_error);
    download(mo, got, bytes);
    plugin->memory_free(backend, mw);
    plugin->memory_free(backend, mt);
    plugin->memory_free(backend, mo);
}

/* matmul [6000, 8] @ [8, 3] (+ c with beta): the output, a and c split
 * into runs of rows, b bound whole. */
enum { MM_M = 6000, MM_K = 8, MM_N = 3 };
static void matmul_rows(unsigned char *got, size_t bytes)
{
    void *ma = upload_floats(MM_M * MM_K), *mb = upload_floats(MM_K * MM_N);
    void *mc = upload_floats(MM_M * MM_N), *mo = upload(NULL, bytes);
    struct view va, vb, vc, vo;
    const int64_t sa[2] = {MM_M, MM_K}, ta[2] = {MM_K, 1}, sb[2] = {MM_K, MM_N}, tb[2] = {MM_N, 1};
    const int64_t so[2] = {MM_M, MM_N}, to[2] = {MM_N, 1};
    view_of(&va, ma, F32, 2, sa, ta, 0, 4);
    view_of(&vb, mb, F32, 2, sb, tb, 0, 4);
    view_of(&vc, mc, F32, 2, so, to, 0, 4);
    view_of(&vo, mo, F32, 2, so, to, 0, 4);
    EXPECT(run2(TSR_OP_MATMUL, &vo, &va, &vb, NULL) == TSR_OK, "matmul: %s", last_error);
    download(mo, got, bytes / 2);
    /* out = 0.5 c + 2 a b, in place over c. */
    tsr_elementwise_attrs at = {.struct_size = sizeof at, .mode = 1};
    at.scalars[0].kind = at.scalars[1].kind = TSR_SCALAR_FLOAT;
    at.scalars[0].v.f = 2.0;
    at.scalars[1].v.f = 0.5;
    const struct view *in[3] = {&va, &vb, &vc};
    EXPECT(run(TSR_OP_MATMUL, &vc, in, 3, &at) == TSR_OK, "addmm: %s", last_error);
    download(mc, got + bytes / 2, bytes / 2);
    plugin->memory_free(backend, ma);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mc);
    plugin->memory_free(backend, mo);
}

/* softmax and log_softmax of [40, 3001] along dim 1 (480 KB): composed
 * from tiled kernels on the lowered instance (softmax_long.c), the row
 * shader on the other; the orders differ, so within 2 float32 ulps. */
static void softmax_composed_matches_rows(void *whole, void *tiled)
{
    tsr_kernel_fn fn = find_kernel(TSR_OP_SOFTMAX, F32, F32);
    if (!fn)
        return;
    enum { N = WIDE_R * WIDE_C };
    float *got[2][2];
    for (int inst = 0; inst < 2; ++inst) {
        backend = inst ? tiled : whole;
        void *mx = upload_floats(N), *mo = upload(NULL, 4 * N);
        struct view vx, vo;
        const int64_t shape[2] = {WIDE_R, WIDE_C}, str[2] = {WIDE_C, 1};
        view_of(&vx, mx, F32, 2, shape, str, 0, 4);
        view_of(&vo, mo, F32, 2, shape, str, 0, 4);
        for (int lg = 0; lg < 2; ++lg) {
            int op = lg ? TSR_OP_LOG_SOFTMAX : TSR_OP_SOFTMAX;
            tsr_scan_attrs attrs = {.struct_size = sizeof attrs, .dim = 1};
            tsr_kernel_args args = {sizeof args, op, 1, 1, &vx.d, &vo.d, &attrs};
            last_error[0] = '\0';
            EXPECT(find_kernel(op, F32, F32)(backend, &args) == TSR_OK, "op %d: %s", op,
                   last_error);
            got[inst][lg] = malloc(4 * N);
            download(mo, got[inst][lg], 4 * N);
        }
        plugin->memory_free(backend, mx);
        plugin->memory_free(backend, mo);
    }
    backend = whole;
    for (int lg = 0; lg < 2; ++lg) {
        int bad = 0;
        for (int i = 0; i < N && bad < 3; ++i) {
            float a = got[0][lg][i], c = got[1][lg][i];
            if (!(fabsf(a - c) <= 2.4e-7f * fabsf(a))) {
                EXPECT(0, "%s[%d]: rows %.9g, composed %.9g", lg ? "log_softmax" : "softmax", i, a,
                       c);
                ++bad;
            }
        }
        free(got[0][lg]);
        free(got[1][lg]);
    }
}

/* What is not tiled refuses cleanly on the lowered instance: var of one
 * output (it shifts by the first term), a scan. */
static void untiled_kernels_refuse_cleanly(void)
{
    struct view vx, vo;
    void *mx = upload_floats(LONG_N);
    flat(&vx, mx, F32, LONG_N, 4);
    void *mo = upload(NULL, 4 * LONG_N);
    const int64_t one = 1;
    view_of(&vo, mo, F32, 1, &one, &one, 0, 4);
    int status = reduce_kernel(TSR_OP_VAR, &vx, &vo, NULL, 1u);
    EXPECT(status == TSR_ERR_UNIMPLEMENTED && strstr(last_error, "var and std"),
           "var past the lowered limit gave %d (%s)", status, last_error);
    tsr_kernel_fn fn = find_kernel(TSR_OP_CUMSUM, F32, F32);
    if (fn) {
        flat(&vo, mo, F32, LONG_N, 4);
        tsr_scan_attrs attrs = {.struct_size = sizeof attrs, .dim = 0};
        tsr_kernel_args args = {sizeof args, TSR_OP_CUMSUM, 1, 1, &vx.d, &vo.d, &attrs};
        last_error[0] = '\0';
        status = fn(backend, &args);
        EXPECT(status == TSR_ERR_UNIMPLEMENTED && strstr(last_error, "binds at most"),
               "cumsum past the lowered limit gave %d (%s)", status, last_error);
    }
    /* matmul whose b alone spans more than a window: [2, 8] @ [8, 3000]. */
    void *mb = upload_floats(8 * 3000);
    struct view va, vb, vm;
    const int64_t sa[2] = {2, 8}, ta[2] = {8, 1}, sb[2] = {8, 3000}, tb[2] = {3000, 1};
    const int64_t so[2] = {2, 3000}, to[2] = {3000, 1};
    view_of(&va, mx, F32, 2, sa, ta, 0, 4);
    view_of(&vb, mb, F32, 2, sb, tb, 0, 4);
    view_of(&vm, mo, F32, 2, so, to, 0, 4);
    last_error[0] = '\0';
    status = run2(TSR_OP_MATMUL, &vm, &va, &vb, NULL);
    EXPECT(status == TSR_ERR_UNIMPLEMENTED && strstr(last_error, "operand 2") &&
               strstr(last_error, "binds at most"),
           "matmul with a b past the lowered limit gave %d (%s)", status, last_error);
    plugin->memory_free(backend, mb);
    plugin->memory_free(backend, mx);
    plugin->memory_free(backend, mo);
}

void run_all_cases(void)
{
    const char *limit = getenv("TESSERA_VULKAN_MAX_BINDING");
    if (!limit || !*limit)
        setenv("TESSERA_VULKAN_MAX_BINDING", "65536", 1);
    void *whole = backend, *tiled = NULL;
    int status = plugin->init(test_host(), &tiled);
    EXPECT(status == TSR_OK, "second instance: %s", last_error);
    if (status != TSR_OK)
        return;
    char text[1024];
    plugin->describe(tiled, text, sizeof text);
    printf("lowered instance (TESSERA_VULKAN_MAX_BINDING=%s): %s\n",
           getenv("TESSERA_VULKAN_MAX_BINDING"), text);
    const struct {
        tiling_case fn;
        size_t bytes;
    } cases[] = {
        {flat_in_place, 4 * FLAT_N},
        {transposed_minus_row, 4 * ROWS * COLS},
        {where_and_conversions, 4 * (WHERE_N - 3) + 2 * WHERE_N},
        {fill_and_clamp, 4 * 3 * 8000},
        {long_outputs, 4 * 4 + 8 + 4},
        {many_outputs, 4 * (2 * WIDE_R + 6 + 6)},
        {matmul_rows, 2 * 4 * MM_M * MM_N},
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof *cases); ++i)
        same_bits_tiled_and_untiled(i, cases[i].fn, cases[i].bytes, whole, tiled);
    softmax_composed_matches_rows(whole, tiled);
    backend = tiled;
    untiled_kernels_refuse_cleanly();
    EXPECT(plugin->synchronize(tiled) == TSR_OK, "synchronize: %s", last_error);
    backend = whole;
    plugin->shutdown(tiled);
}
