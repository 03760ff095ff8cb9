/* matmul on the device (products.c, shaders/matmul.comp) for every
 * dtype it registers: integer products and sums wrap exactly as in the
 * element type, floating sums follow k = 0, 1, ..., K - 1 in the type the
 * shader accumulates in (so the expected bits are computed here, in the same
 * order), results do not depend on the operands' layout, BLAS's alpha 0 /
 * beta 0 skip rules hold, and a dtype mismatch is refused with the output
 * untouched. Linked with test_vulkan_kernels.c, which loads the plugin and
 * calls run_all_cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_vulkan_kernels.h"

/* Sizes that leave partial 16x16 tiles in M, N and K. */
enum { BATCH = 2, M = 19, K = 37, N = 21 };

static uint64_t next_bits(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int item_size(int dtype)
{
    static const int sizes[] = {
#define TSR__SIZE_(id, name, size) size,
        TSR_DTYPE_LIST(TSR__SIZE_)
#undef TSR__SIZE_
    };
    return sizes[dtype];
}

/* The operands of one product: a [BATCH, M, K], b [BATCH, K, N], c and the
 * output [BATCH, M, N], as raw little-endian element bytes. */
struct problem {
    int dtype;
    unsigned char a[BATCH * M * K * 8], b[BATCH * K * N * 8], c[BATCH * M * N * 8];
    unsigned char out[BATCH * M * N * 8];
};

/* Runs out = beta * c + alpha * (a @ b) (plain a @ b when attrs is NULL).
 * b_transposed keeps b in memory as [BATCH, N, K] and passes the transposed
 * view; a_broadcast reads a's first matrix for every batch (stride 0). */
static int device_matmul(struct problem *p, const tsr_elementwise_attrs *attrs, int b_transposed,
                         int a_broadcast)
{
    int size = item_size(p->dtype);
    unsigned char b_mem[sizeof p->b];
    for (int i = 0; i < BATCH; ++i)
        for (int k = 0; k < K; ++k)
            for (int j = 0; j < N; ++j) {
                size_t from = ((size_t)(i * K + k) * N + j) * size;
                size_t to = b_transposed ? ((size_t)(i * N + j) * K + k) * size : from;
                memcpy(b_mem + to, p->b + from, size);
            }
    void *am = upload(p->a, sizeof p->a), *bm = upload(b_mem, sizeof b_mem);
    void *cm = upload(p->c, sizeof p->c), *om = upload(p->out, sizeof p->out);
    struct view a, b, c, out;
    int64_t sb[3] = {BATCH, K, N}, so[3] = {BATCH, M, N};
    int64_t shape_a[3] = {BATCH, M, K};
    int64_t str_a[3] = {a_broadcast ? 0 : M * K, K, 1};
    int64_t str_b[3] = {K * N, b_transposed ? 1 : N, b_transposed ? K : 1};
    int64_t str_o[3] = {M * N, N, 1};
    view_of(&a, am, p->dtype, 3, shape_a, str_a, 0, size);
    view_of(&b, bm, p->dtype, 3, sb, str_b, 0, size);
    view_of(&c, cm, p->dtype, 3, so, str_o, 0, size);
    view_of(&out, om, p->dtype, 3, so, str_o, 0, size);
    const struct view *in[3] = {&a, &b, &c};
    int status = run(TSR_OP_MATMUL, &out, in, attrs && attrs->mode == 1 ? 3 : 2, attrs);
    EXPECT(status == TSR_OK, "matmul on %d: %s", p->dtype, last_error);
    download(om, p->out, sizeof p->out);
    plugin->memory_free(backend, am);
    plugin->memory_free(backend, bm);
    plugin->memory_free(backend, cm);
    plugin->memory_free(backend, om);
    return status;
}

static tsr_elementwise_attrs addmm_attrs(tsr_scalar alpha, tsr_scalar beta)
{
    tsr_elementwise_attrs at = attrs_mode(1);
    at.scalars[0] = alpha;
    at.scalars[1] = beta;
    return at;
}

static uint64_t load_bits(const unsigned char *base, size_t index, int size)
{
    uint64_t v = 0;
    memcpy(&v, base + index * size, size); /* little-endian host */
    return v;
}

/* ---- integers ------------------------------------------------------------- */

/* Expected bits of every output element, from 64-bit wrapping arithmetic
 * cut to the element's width: the low bits of a wrapped product or sum
 * depend only on the operands' low bits, so this equals PyTorch's wrap in
 * the narrow type, with alpha and beta truncated to it first. */
static void check_integer(const struct problem *p, uint64_t alpha, uint64_t beta, int a_broadcast)
{
    int size = item_size(p->dtype);
    uint64_t mask = size == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * size)) - 1;
    int bad = 0;
    for (int i = 0; i < BATCH; ++i)
        for (int r = 0; r < M; ++r)
            for (int j = 0; j < N; ++j) {
                uint64_t dot = 0;
                for (int k = 0; k < K; ++k)
                    dot += load_bits(p->a, (size_t)((a_broadcast ? 0 : i) * M + r) * K + k, size) *
                           load_bits(p->b, (size_t)(i * K + k) * N + j, size);
                size_t at = (size_t)(i * M + r) * N + j;
                uint64_t want = (alpha * dot + beta * load_bits(p->c, at, size)) & mask;
                uint64_t got = load_bits(p->out, at, size);
                bad += got != want;
                if (got != want && bad == 1)
                    printf("FAIL dtype %d [%d,%d,%d]: 0x%llx, want 0x%llx\n", p->dtype, i, r, j,
                           (unsigned long long)got, (unsigned long long)want);
            }
    EXPECT(bad == 0, "dtype %d: %d integer elements differ", p->dtype, bad);
}

static void integer_products_wrap_exactly(void)
{
    static const int dtypes[] = {TSR_UINT8, TSR_INT8, TSR_INT16, TSR_INT32, TSR_INT64};
    static struct problem p;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        p.dtype = dtypes[d];
        if (!has_kernel(TSR_OP_MATMUL, p.dtype, p.dtype)) {
            EXPECT(p.dtype == TSR_INT64 && !has_kernel(TSR_OP_COPY, TSR_INT64, TSR_INT64),
                   "no matmul on dtype %d", p.dtype);
            continue;
        }
        /* Full-range random bits: nearly every product and sum overflows. */
        for (size_t i = 0; i < sizeof p.a; ++i)
            p.a[i] = (unsigned char)next_bits(&seed);
        for (size_t i = 0; i < sizeof p.b; ++i)
            p.b[i] = (unsigned char)next_bits(&seed);
        for (size_t i = 0; i < sizeof p.c; ++i)
            p.c[i] = (unsigned char)next_bits(&seed);
        device_matmul(&p, NULL, 1, 0);
        check_integer(&p, 1, 0, 0);
        /* alpha 3 * 2^32 + 300 (int8: 44, int32: 300), beta -7; a broadcast. */
        int64_t alpha = ((int64_t)3 << 32) + 300, beta = -7;
        tsr_elementwise_attrs at = addmm_attrs((tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = alpha},
                                               (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = beta});
        device_matmul(&p, &at, 0, 1);
        check_integer(&p, (uint64_t)alpha, (uint64_t)beta, 1);
    }
}

/* Two hand-computed overflows: int32 65536 * 65536 + 3 * 5 = 2^32 + 15
 * wraps to 15; int8 100 * 3 + 100 * 3 = 600 wraps to 600 - 512 = 88. */
static void integer_overflow_by_hand(void)
{
    int32_t a32[2] = {65536, 3}, b32[2] = {65536, 5}, o32 = -1;
    int8_t a8[2] = {100, 100}, b8[2] = {3, 3}, o8 = -1;
    const void *as[2] = {a32, a8}, *bs[2] = {b32, b8};
    void *os[2] = {&o32, &o8};
    int dtypes[2] = {TSR_INT32, TSR_INT8}, sizes[2] = {4, 1};
    for (int t = 0; t < 2; ++t) {
        void *am = upload(as[t], 2 * sizes[t]), *bm = upload(bs[t], 2 * sizes[t]);
        void *om = upload(os[t], sizes[t]);
        struct view a, b, o;
        int64_t sha[2] = {1, 2}, stra[2] = {2, 1}, shb[2] = {2, 1}, strb[2] = {1, 1};
        int64_t sho[2] = {1, 1}, stro[2] = {1, 1};
        view_of(&a, am, dtypes[t], 2, sha, stra, 0, sizes[t]);
        view_of(&b, bm, dtypes[t], 2, shb, strb, 0, sizes[t]);
        view_of(&o, om, dtypes[t], 2, sho, stro, 0, sizes[t]);
        EXPECT(run2(TSR_OP_MATMUL, &o, &a, &b, NULL) == TSR_OK, "%s", last_error);
        download(om, os[t], sizes[t]);
        plugin->memory_free(backend, am);
        plugin->memory_free(backend, bm);
        plugin->memory_free(backend, om);
    }
    EXPECT(o32 == 15, "int32 wrap: %d, want 15", o32);
    EXPECT(o8 == 88, "int8 wrap: %d, want 88", o8);
}

/* ---- floating point ------------------------------------------------------- */

static float bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Round to nearest even (no NaN arises from these finite inputs). */
static uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* Loads element `index` widened to the type the shader sums in. */
static double load_real(const unsigned char *base, size_t index, int dtype)
{
    if (dtype == TSR_FLOAT64) {
        double d;
        memcpy(&d, base + index * 8, 8);
        return d;
    }
    if (dtype == TSR_BFLOAT16)
        return bf16_to_float((uint16_t)load_bits(base, index, 2));
    float f;
    memcpy(&f, base + index * 4, 4);
    return f;
}

static void store_real(unsigned char *base, size_t index, int dtype, double v)
{
    if (dtype == TSR_FLOAT64) {
        memcpy(base + index * 8, &v, 8);
    } else if (dtype == TSR_BFLOAT16) {
        uint16_t h = float_to_bf16((float)v);
        memcpy(base + index * 2, &h, 2);
    } else {
        float f = (float)v;
        memcpy(base + index * 4, &f, 4);
    }
}

/* Expected bits: float32 and bfloat16 sum in float, float64 in double,
 * k ascending; then alpha * sum (unless alpha is 1), plus beta * c (unless
 * beta is 0; not multiplied when 1); rounded once to the dtype. Built with
 * -ffp-contract=off, like the shader's precise arithmetic. */
static void check_real(const struct problem *p, double alpha, double beta, int mode)
{
    int dt = p->dtype, size = item_size(dt), bad = 0;
    for (int i = 0; i < BATCH; ++i)
        for (int r = 0; r < M; ++r)
            for (int j = 0; j < N; ++j) {
                size_t at = (size_t)(i * M + r) * N + j;
                unsigned char want[8];
                double dv = 0.0, dc = 0.0;
                float fv = 0.0f, fc = 0.0f;
                for (int k = 0; alpha != 0.0 && k < K; ++k) {
                    double x = load_real(p->a, (size_t)(i * M + r) * K + k, dt);
                    double y = load_real(p->b, (size_t)(i * K + k) * N + j, dt);
                    dv += x * y;
                    fv += (float)x * (float)y;
                }
                if (alpha != 0.0 && alpha != 1.0) {
                    dv = alpha * dv;
                    fv = (float)alpha * fv;
                }
                if (mode == 1 && beta != 0.0) {
                    dc = load_real(p->c, at, dt);
                    fc = (float)dc;
                    if (beta != 1.0) {
                        dc = beta * dc;
                        fc = (float)beta * fc;
                    }
                    dv = alpha == 0.0 ? dc : dv + dc;
                    fv = alpha == 0.0 ? fc : fv + fc;
                }
                store_real(want, 0, dt, dt == TSR_FLOAT64 ? dv : fv);
                bad += memcmp(want, p->out + at * size, size) != 0;
                if (bad == 1 && memcmp(want, p->out + at * size, size) != 0)
                    printf("FAIL dtype %d [%d,%d,%d]: %.17g, want %.17g\n", dt, i, r, j,
                           load_real(p->out, at, dt), load_real(want, 0, dt));
            }
    EXPECT(bad == 0, "dtype %d: %d elements differ from the ordered sum", dt, bad);
}

static void fill_real(struct problem *p, uint64_t *seed)
{
    size_t na = sizeof p->a / 8, nb = sizeof p->b / 8, nc = sizeof p->c / 8;
    for (size_t i = 0; i < na || i < nb || i < nc; ++i) {
        /* Uniform in [-4, 4): products and sums round in every type. */
        double u[3];
        for (int t = 0; t < 3; ++t)
            u[t] = (double)(next_bits(seed) >> 11) / 9007199254740992.0 * 8.0 - 4.0;
        if (i < na)
            store_real(p->a, i, p->dtype, u[0]);
        if (i < nb)
            store_real(p->b, i, p->dtype, u[1]);
        if (i < nc)
            store_real(p->c, i, p->dtype, u[2]);
    }
}

static void float_sums_follow_k_order(void)
{
    static const int dtypes[] = {TSR_FLOAT32, TSR_BFLOAT16, TSR_FLOAT64};
    static struct problem p, q;
    uint64_t seed = 12345;
    for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; ++d) {
        p.dtype = dtypes[d];
        if (!has_kernel(TSR_OP_MATMUL, p.dtype, p.dtype)) {
            EXPECT(p.dtype == TSR_FLOAT64 && !has_kernel(TSR_OP_COPY, TSR_FLOAT64, TSR_FLOAT64),
                   "no matmul on dtype %d", p.dtype);
            continue;
        }
        fill_real(&p, &seed);
        device_matmul(&p, NULL, 0, 0);
        check_real(&p, 1.0, 0.0, 0);
        /* Same bits from b's transposed layout. */
        q = p;
        device_matmul(&q, NULL, 1, 0);
        EXPECT(memcmp(p.out, q.out, sizeof p.out) == 0, "dtype %d: layout changed the bits",
               p.dtype);
        /* alpha 0.75 and beta -2.5 are exact in every dtype here. */
        tsr_elementwise_attrs at =
            addmm_attrs((tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = 0.75},
                        (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = -2.5});
        device_matmul(&p, &at, 0, 0);
        check_real(&p, 0.75, -2.5, 1);
    }
}

/* alpha 0 never reads a @ b and beta 0 never reads c, so NaN there does
 * not reach the output (BLAS, which PyTorch calls). */
static void zero_coefficients_skip_nan(void)
{
    static struct problem p;
    uint64_t seed = 777;
    p.dtype = TSR_FLOAT32;
    fill_real(&p, &seed);
    float nan_value = NAN, one = 1.0f;
    memcpy(p.a + 4 * 5, &nan_value, 4);
    tsr_elementwise_attrs at = addmm_attrs((tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 0},
                                           (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = 0.5});
    device_matmul(&p, &at, 0, 0);
    check_real(&p, 0.0, 0.5, 1); /* 0.5 * c everywhere, row 0 included */
    memcpy(p.a + 4 * 5, &one, 4);
    memcpy(p.c + 4 * 7, &nan_value, 4);
    at = addmm_attrs((tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 1},
                     (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 0});
    device_matmul(&p, &at, 0, 0);
    check_real(&p, 1.0, 0.0, 1);
    float seventh;
    memcpy(&seventh, p.out + 4 * 7, 4);
    EXPECT(!isnan(seventh), "beta 0 let c's NaN through");
}

static void refusals_leave_the_output_alone(void)
{
    EXPECT(!has_kernel(TSR_OP_MATMUL, TSR_BOOL, TSR_BOOL), "bool matmul registered");
    EXPECT(!has_kernel(TSR_OP_MATMUL, TSR_FLOAT16, TSR_FLOAT16), "float16 matmul registered");
    EXPECT(!has_kernel(TSR_OP_MATMUL, TSR_COMPLEX64, TSR_COMPLEX64), "complex matmul registered");
    tsr_kernel_fn fn = find_kernel(TSR_OP_MATMUL, TSR_INT32, TSR_INT32);
    EXPECT(fn != NULL, "no int32 matmul");
    if (!fn)
        return;
    float af[4] = {1, 2, 3, 4};
    int32_t before[4] = {7, 7, 7, 7}, after[4];
    void *am = upload(af, sizeof af), *om = upload(before, sizeof before);
    struct view a, o;
    int64_t shape[2] = {2, 2}, strides[2] = {2, 1};
    view_of(&a, am, TSR_FLOAT32, 2, shape, strides, 0, 4);
    view_of(&o, om, TSR_INT32, 2, shape, strides, 0, 4);
    tsr_tensor_desc in[2] = {a.d, a.d};
    tsr_kernel_args args = {sizeof args, TSR_OP_MATMUL, 2, 1, in, &o.d, NULL};
    last_error[0] = 0;
    EXPECT(fn(backend, &args) == TSR_ERR_DTYPE, "float32 inputs to an int32 product accepted");
    EXPECT(strstr(last_error, "matmul") && strstr(last_error, "float32"), "message: %s",
           last_error);
    /* A mismatched inner dimension: a [2, 2] @ b [3, 2]. */
    int32_t bi[6] = {0};
    void *bm = upload(bi, sizeof bi);
    struct view ai, b;
    int64_t shape_b[2] = {3, 2};
    view_of(&ai, om, TSR_INT32, 2, shape, strides, 0, 4);
    view_of(&b, bm, TSR_INT32, 2, shape_b, strides, 0, 4);
    EXPECT(run2(TSR_OP_MATMUL, &o, &ai, &b, NULL) == TSR_ERR_SHAPE, "bad K accepted");
    download(om, after, sizeof after);
    EXPECT(memcmp(before, after, sizeof after) == 0, "a refused call wrote the output");
    plugin->memory_free(backend, am);
    plugin->memory_free(backend, bm);
    plugin->memory_free(backend, om);
}

void run_all_cases(void)
{
    if (!has_kernel(TSR_OP_MATMUL, TSR_FLOAT32, TSR_FLOAT32)) {
        printf("FAIL no matmul registered (local size other than 256?)\n");
        ++failures;
        return;
    }
    integer_products_wrap_exactly();
    integer_overflow_by_hand();
    float_sums_follow_k_order();
    zero_coefficients_skip_nan();
    refusals_leave_the_output_alone();
}
