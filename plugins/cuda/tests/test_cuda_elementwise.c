/* The CUDA backend's per-element code, run on the host against the
 * reference backend's, bit for bit: the float16/bfloat16 conversions (every
 * pattern), copy between every dtype pair, fill, and every claimed
 * elementwise (op, dtype) with its attribute variants on values including
 * NaN, infinities, -0, subnormals and integer extremes. The same functions
 * (value.h, elem_ops.h, elem_table.c) are what the device kernels run;
 * what this cannot show is the device's own libm (see docs/backends/cuda.md). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elementwise_test.h"

#include "../../reference/half.h"

int failures;
long combinations;
static int reported;

/* The reference kernels report through their backend; plugin.c, which
 * defines this, is not linked here. */
int tsr__ref_error(const tsr__ref_backend *backend, int status, const char *fmt, ...)
{
    (void)backend;
    (void)fmt;
    return status;
}

void mismatch(const char *what, int op, int dtype, const unsigned char *want,
              const unsigned char *got, int size, const char *inputs)
{
    failures++;
    if (reported++ >= 40)
        return;
    fprintf(stderr, "%s op %d dtype %d inputs [%s]: reference", what, op, dtype, inputs);
    for (int i = size - 1; i >= 0; i--)
        fprintf(stderr, "%s%02x", i == size - 1 ? " " : "", want[i]);
    fprintf(stderr, ", cuda");
    for (int i = size - 1; i >= 0; i--)
        fprintf(stderr, "%s%02x", i == size - 1 ? " " : "", got[i]);
    fprintf(stderr, "\n");
}

/* ------------------------------------------------------------------------ */
/* Value pools: element bytes per dtype                                      */
/* ------------------------------------------------------------------------ */

static const int64_t INT_VALUES[] = {0,
                                     1,
                                     -1,
                                     2,
                                     -2,
                                     3,
                                     -3,
                                     5,
                                     7,
                                     -7,
                                     31,
                                     32,
                                     33,
                                     -33,
                                     63,
                                     64,
                                     65,
                                     100,
                                     -100,
                                     127,
                                     -128,
                                     128,
                                     255,
                                     256,
                                     32767,
                                     -32768,
                                     65535,
                                     1000003,
                                     INT32_MAX,
                                     INT32_MIN,
                                     (int64_t)INT32_MAX + 1,
                                     INT64_MAX,
                                     INT64_MIN,
                                     INT64_MIN + 1,
                                     0x123456789abcdefLL};

static double real_values(int i, int *count)
{
    const double values[] = {0.0,
                             -0.0,
                             1.0,
                             -1.0,
                             0.5,
                             -0.5,
                             1.5,
                             -1.5,
                             2.5,
                             -2.5,
                             3.0,
                             0.1,
                             -0.3,
                             0.7,
                             10.0,
                             100.7,
                             -7.25,
                             20.0,
                             21.0,
                             89.0,
                             90.0,
                             710.0,
                             -710.0,
                             300.0,
                             -129.0,
                             1e-5,
                             1e-40,
                             -1e-40,
                             1e-310,
                             5e-324,
                             1e-45,
                             6e-8,
                             65504.0,
                             65520.0,
                             70000.0,
                             1e38,
                             3.4e38,
                             3.5e38,
                             1e300,
                             -1e300,
                             1e307,
                             2147483648.0,
                             2147483653.0,
                             -2147483649.0,
                             9.3e18,
                             -9.3e18,
                             9223372036854775808.0,
                             4294967296.0,
                             0.9999999,
                             1.0000001,
                             1e-8,
                             3.14159265358979,
                             -2.718281828,
                             (double)INFINITY,
                             -(double)INFINITY,
                             (double)NAN,
                             -(double)NAN,
                             9.5,
                             10.5,
                             0.25,
                             -0.75,
                             1.0 / 3.0,
                             123456.789,
                             16777217.0,
                             6.1e-5,
                             -6.1e-5};
    *count = (int)(sizeof values / sizeof values[0]);
    return values[i];
}

static void pool_add(pool *p, const unsigned char *bytes, int size)
{
    for (int i = 0; i < p->count; i++)
        if (memcmp(p->bytes[i], bytes, (size_t)size) == 0)
            return;
    if (p->count < POOL_MAX) {
        memset(p->bytes[p->count], 0, 16);
        memcpy(p->bytes[p->count++], bytes, (size_t)size);
    }
}

/* Elements of `dtype` made by the reference's own storers. */
void pool_build(int32_t dtype, pool *p)
{
    int size = (int)tsr__ref_dtype_size(dtype);
    unsigned char e[16];
    tsr__ref_wide w;
    p->count = 0;
    for (size_t i = 0; i < sizeof INT_VALUES / sizeof INT_VALUES[0]; i++) {
        w.i = INT_VALUES[i];
        tsr__ref_storer(TSR__REF_INTEGER, dtype)(e, &w);
        pool_add(p, e, size);
    }
    int n;
    real_values(0, &n);
    for (int i = 0; i < n; i++) {
        w.f = real_values(i, &n);
        tsr__ref_storer(TSR__REF_REAL, dtype)(e, &w);
        pool_add(p, e, size);
    }
    if (tsr__ref_dtype_category(dtype) == TSR__REF_COMPLEX) {
        for (int i = 0; i < n; i += 3) {
            int j = (i * 7 + 5) % n;
            w.c = tsr__ref_complex_make(real_values(i, &n), real_values(j, &n));
            tsr__ref_storer(TSR__REF_COMPLEX, dtype)(e, &w);
            pool_add(p, e, size);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* float16 and bfloat16                                                      */
/* ------------------------------------------------------------------------ */

static uint32_t bits_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static void test_half_conversions(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        bad += bits_of(tsr__cu_half_to_float((uint16_t)h)) !=
               bits_of(tsr__ref_half_to_float((uint16_t)h));
        bad += bits_of(tsr__cu_bfloat16_to_float((uint16_t)h)) !=
               bits_of(tsr__ref_bfloat16_to_float((uint16_t)h));
    }
    /* Every 61st float pattern, plus every half's neighbourhood. */
    for (uint64_t x = 0; x <= UINT32_MAX; x += 61) {
        float f;
        uint32_t b = (uint32_t)x;
        memcpy(&f, &b, sizeof f);
        bad += tsr__cu_half_from_float(f) != tsr__ref_half_from_float(f);
        bad += tsr__cu_bfloat16_from_float(f) != tsr__ref_bfloat16_from_float(f);
    }
    for (uint32_t h = 0; h < 0x10000; h++) {
        uint32_t b = (h << 13) | (h & 0x8000u ? 0x80000000u : 0u);
        for (int32_t d = -2; d <= 2; d++) {
            float f;
            uint32_t v = b + (uint32_t)(d * 4096);
            memcpy(&f, &v, sizeof f);
            bad += tsr__cu_half_from_float(f) != tsr__ref_half_from_float(f);
        }
    }
    CHECK(bad == 0);
}

/* ------------------------------------------------------------------------ */
/* copy between every pair, fill                                             */
/* ------------------------------------------------------------------------ */

static void ref_convert(int32_t from, int32_t to, const unsigned char *src, unsigned char *dst)
{
    tsr__ref_wide w;
    tsr__ref_loader(from)(src, &w);
    tsr__ref_category cat = tsr__ref_dtype_category(from);
    tsr__ref_store_fn store = tsr__ref_storer(cat, to);
    if (!store) {
        tsr__ref_wide_real_part(&w);
        store = tsr__ref_storer(TSR__REF_REAL, to);
    }
    store(dst, &w);
}

static void test_conversions(void)
{
    int pairs = 0;
    for (int32_t from = 0; from < TSR_DTYPE_COUNT; from++) {
        pool p;
        pool_build(from, &p);
        int size = tsr__cu_dtype_size(from);
        for (int i = 0; i < p.count; i++) {
            unsigned char raw[16] = {0};
            tsr__cu_store_raw(size, raw, tsr__cu_load_raw(size, p.bytes[i]));
            if (memcmp(raw, p.bytes[i], (size_t)size) != 0)
                mismatch("raw move", TSR_OP_COPY, from, p.bytes[i], raw, size, "");
        }
        for (int32_t to = 0; to < TSR_DTYPE_COUNT; to++, pairs++) {
            for (int i = 0; i < p.count; i++) {
                unsigned char want[16] = {0}, got[16] = {0};
                ref_convert(from, to, p.bytes[i], want);
                tsr__cu_store(to, tsr__cu_dtype_category(from), got,
                              tsr__cu_load(from, p.bytes[i]));
                if (memcmp(want, got, (size_t)tsr__cu_dtype_size(to)) != 0) {
                    char text[32];
                    snprintf(text, sizeof text, "from %d, value %d", (int)from, i);
                    mismatch("copy", TSR_OP_COPY, to, want, got, tsr__cu_dtype_size(to), text);
                }
            }
        }
    }
    CHECK(pairs == TSR_DTYPE_COUNT * TSR_DTYPE_COUNT);
}

static void test_fill(void)
{
    const tsr__cu_elem_op *fill = tsr__cu_elem_op_find(TSR_OP_FILL);
    CHECK(fill != NULL);
    tsr_scalar scalars[12];
    memset(scalars, 0, sizeof scalars);
    const double reals[] = {0.0, -0.0, 2.5, -1e300, (double)NAN, (double)INFINITY, 65519.0, 300.7};
    const int64_t ints[] = {0, 1, -1, 300, INT64_MIN};
    int n = 0;
    for (int i = 0; i < 8; i++, n++) {
        scalars[n].kind = TSR_SCALAR_FLOAT;
        scalars[n].v.f = reals[i];
    }
    for (int i = 0; i < 3; i++, n++) {
        scalars[n].kind = i == 1 ? TSR_SCALAR_BOOL : TSR_SCALAR_INT;
        scalars[n].v.i = ints[i + (i == 2 ? 2 : 0)];
    }
    scalars[n].kind = TSR_SCALAR_COMPLEX;
    scalars[n].v.c.re = -3.5;
    scalars[n++].v.c.im = 7.0;
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++) {
        for (int s = 0; s < n; s++) {
            tsr_elementwise_attrs attrs = {sizeof attrs, 0, {scalars[s]}};
            tsr__cu_elem_ctx ctx;
            int check_zero;
            char message[128];
            CHECK(tsr__cu_elem_bind(fill, dtype, &attrs, &ctx, &check_zero, message,
                                    sizeof message) == TSR_OK);
            unsigned char want[16] = {0}, got[16] = {0};
            tsr__ref_scalar_store(&scalars[s], dtype, want);
            tsr__cu_store(dtype, tsr__cu_dtype_category(dtype), got,
                          tsr__cu_elem_apply(&ctx, NULL));
            if (memcmp(want, got, (size_t)tsr__cu_dtype_size(dtype)) != 0)
                mismatch("fill", TSR_OP_FILL, dtype, want, got, tsr__cu_dtype_size(dtype), "");
        }
        /* No value: an error, not a crash. */
        tsr__cu_elem_ctx ctx;
        int check_zero;
        char message[128] = "";
        CHECK(tsr__cu_elem_bind(fill, dtype, NULL, &ctx, &check_zero, message, sizeof message) ==
              TSR_ERR_INVALID_ARGUMENT);
        CHECK(strstr(message, "fill") != NULL);
    }
}

int main(void)
{
    test_half_conversions();
    test_conversions();
    test_fill();
    test_ops();
    test_bind_errors();
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("cuda elementwise host checks passed (%ld op/dtype/attribute combinations)\n",
           (long)combinations);
    return 0;
}
