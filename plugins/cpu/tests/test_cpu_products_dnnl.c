/* The bfloat16 matrix product through oneDNN (products_dnnl.c).
 *
 * Exactness: with small integer operands every product and partial sum is
 * an integer below 2^24, so oneDNN's float32 accumulators hold the exact
 * sum, as the reference kernel's double does; both then round that same
 * value to bfloat16 once. alpha and beta are powers of two and c holds
 * integers, so alpha * sum + beta * c is exact too. The two kernels must
 * therefore agree bit for bit on every layout, which checks that strides,
 * transposes, broadcast batch dims, alpha, beta and c reach oneDNN right.
 * Random data checks the thread-count independence of the bits. */
#include <stdlib.h>
#include <string.h>

#include "cpu_dnnl.h"
#include "cpu_test.h"
#include "half.h"    /* tsr__ref_bfloat16_from_float */
#include "kernels.h" /* tsr__ref_kernel_matmul */

static tsr__cpu_backend *one_thread, *two_threads;

static uint16_t *bf16_buffer(int64_t count, uint64_t seed, int integers)
{
    float *f = malloc((size_t)count * sizeof *f + 1);
    uint16_t *x = malloc((size_t)count * sizeof *x + 1);
    if (f == NULL || x == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    test_fill_f32(f, count, seed, integers ? -3.0f : -1.0f, integers ? 4.0f : 1.0f);
    for (int64_t i = 0; i < count; i++) {
        x[i] = tsr__ref_bfloat16_from_float(integers ? (float)(int)f[i] - (f[i] < 0) : f[i]);
    }
    free(f);
    return x;
}

/* One product described by row-major-ish layouts: every operand is a view
 * into its own buffer with explicit shape and strides. */
typedef struct product {
    int32_t ndim;
    int64_t shape[4][4]; /* out, a, b, c */
    int64_t strides[4][4];
    int64_t elements[4]; /* buffer sizes */
    int has_c;
    double alpha, beta;
} product;

/* Runs `p` through the table's kernel on `backend` and through the
 * reference kernel; both outputs must hold the same bits. */
static void check_against_reference(const char *what, tsr__cpu_backend *backend, const product *p,
                                    int must_use_dnnl)
{
    uint16_t *buf[4], *expected = NULL;
    tsr_tensor_desc desc[4];
    for (int w = 0; w < 4; w++) {
        buf[w] = bf16_buffer(p->elements[w] > 0 ? p->elements[w] : 1, 40 + (uint64_t)w, 1);
        desc[w] = test_desc(buf[w], TSR_BFLOAT16, p->ndim, p->shape[w], (int64_t *)p->strides[w]);
    }
    expected = malloc((size_t)p->elements[0] * 2);
    memcpy(expected, buf[0], (size_t)p->elements[0] * 2);
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .mode = p->has_c};
    attrs.scalars[0] = (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = p->alpha};
    attrs.scalars[1] = (tsr_scalar){.kind = TSR_SCALAR_FLOAT, .v.f = p->beta};
    tsr_tensor_desc out_ref = desc[0];
    out_ref.data = expected;
    tsr_kernel_args args = {sizeof args, TSR_OP_MATMUL, 2 + p->has_c, 1,
                            &desc[1],    &out_ref,      &attrs};
    CHECK_OK(tsr__ref_kernel_matmul(backend, &args));
    CHECK_OK(test_run(backend, TSR_OP_MATMUL, TSR_BFLOAT16, TSR_BFLOAT16, &desc[1], 2 + p->has_c,
                      &desc[0], 1, &attrs));
    if (must_use_dnnl && tsr__cpu_dnnl_last_impl()[0] == '\0') {
        TEST_FAIL("%s: went to the reference kernel, not oneDNN", what);
    }
    printf("  %-34s oneDNN implementation: %s\n", what,
           tsr__cpu_dnnl_last_impl()[0] ? tsr__cpu_dnnl_last_impl() : "(reference kernel)");
    CHECK_SAME_BITS(what, buf[0], expected, p->elements[0], 2);
    for (int w = 0; w < 4; w++) {
        free(buf[w]);
    }
    free(expected);
}

/* out [batch, m, n] dense; a, b given as "normal" (row-major) or
 * "transposed" (column-major) with a padded leading dimension. */
static product make_product(int64_t batch, int64_t m, int64_t k, int64_t n, int a_trans,
                            int b_trans, int pad)
{
    product p = {.ndim = 3, .alpha = 1.0, .beta = 0.0};
    int64_t dims[3][2] = {{m, n}, {m, k}, {k, n}};
    int trans[3] = {0, a_trans, b_trans};
    for (int w = 0; w < 3; w++) {
        int64_t rows = dims[w][0], cols = dims[w][1], pd = w == 0 ? 0 : pad;
        int64_t ld = (trans[w] ? rows : cols) + pd, matrix = ld * (trans[w] ? cols : rows);
        int64_t shape[3] = {batch, rows, cols};
        int64_t strides[3] = {matrix, trans[w] ? 1 : ld, trans[w] ? ld : 1};
        memcpy(p.shape[w], shape, sizeof shape);
        memcpy(p.strides[w], strides, sizeof strides);
        p.elements[w] = batch * matrix;
    }
    return p;
}

static void layouts_give_the_reference_bits(void)
{
    for (int t = 0; t < 4; t++) {
        char what[64];
        snprintf(what, sizeof what, "2x37x53 @ 53x29, trans a %d b %d", t & 1, t >> 1);
        product p = make_product(2, 37, 53, 29, t & 1, t >> 1, 0);
        check_against_reference(what, two_threads, &p, 1);
        snprintf(what, sizeof what, "padded rows, trans a %d b %d", t & 1, t >> 1);
        p = make_product(3, 64, 96, 80, t & 1, t >> 1, 7);
        check_against_reference(what, two_threads, &p, 1);
    }
    /* Sums up to 9 * 300 = 2700 > 256: bfloat16 rounds them, identically. */
    product big = make_product(1, 128, 300, 128, 0, 0, 0);
    check_against_reference("128x300 @ 300x128 (rounded sums)", one_thread, &big, 1);
}

static void broadcast_batches_give_the_reference_bits(void)
{
    product p = make_product(4, 16, 24, 8, 0, 0, 0);
    p.strides[2][0] = 0; /* b shared by every batch element */
    check_against_reference("b broadcast over the batch", two_threads, &p, 1);
    p = make_product(4, 16, 24, 8, 1, 0, 0);
    p.strides[1][0] = 0; /* a shared, and transposed */
    check_against_reference("a broadcast over the batch", two_threads, &p, 1);
    p = make_product(1, 1, 40, 1, 0, 0, 0); /* a vector dot product */
    check_against_reference("1x40 @ 40x1", two_threads, &p, 1);
}

static void alpha_beta_and_c_give_the_reference_bits(void)
{
    product p = make_product(2, 20, 33, 18, 0, 1, 0);
    p.has_c = 1;
    p.alpha = 2.0;
    p.beta = 0.5;
    int64_t c_shape[3] = {2, 20, 18}, c_strides[3] = {0, 0, 1}; /* a broadcast bias row */
    memcpy(p.shape[3], c_shape, sizeof c_shape);
    memcpy(p.strides[3], c_strides, sizeof c_strides);
    p.elements[3] = 18;
    check_against_reference("2 * (a @ b^T) + 0.5 * bias row", two_threads, &p, 1);
    p.alpha = 0.0; /* the product is skipped: the reference kernel's job */
    check_against_reference("alpha 0", two_threads, &p, 0);
    p.alpha = -1.0;
    p.beta = 0.0; /* c is never read */
    check_against_reference("beta 0", two_threads, &p, 1);
}

/* c in the output's own memory (addmm_ in place): read before written. */
static void c_in_place_gives_the_reference_bits(void)
{
    int64_t m = 24, k = 40, n = 16, shape_o[2] = {m, n}, shape_a[2] = {m, k}, shape_b[2] = {k, n};
    int64_t st_o[2] = {n, 1}, st_a[2] = {k, 1}, st_b[2] = {n, 1};
    uint16_t *a = bf16_buffer(m * k, 1, 1), *b = bf16_buffer(k * n, 2, 1);
    uint16_t *out = bf16_buffer(m * n, 3, 1), *expected = bf16_buffer(m * n, 3, 1);
    uint16_t *c_copy = bf16_buffer(m * n, 3, 1);
    tsr_tensor_desc in[3] = {test_desc(a, TSR_BFLOAT16, 2, shape_a, st_a),
                             test_desc(b, TSR_BFLOAT16, 2, shape_b, st_b),
                             test_desc(out, TSR_BFLOAT16, 2, shape_o, st_o)};
    tsr_tensor_desc o = test_desc(out, TSR_BFLOAT16, 2, shape_o, st_o);
    tsr_tensor_desc e = test_desc(expected, TSR_BFLOAT16, 2, shape_o, st_o);
    tsr_tensor_desc in_ref[3] = {in[0], in[1], test_desc(c_copy, TSR_BFLOAT16, 2, shape_o, st_o)};
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .mode = 1};
    attrs.scalars[0] = (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 1};
    attrs.scalars[1] = (tsr_scalar){.kind = TSR_SCALAR_INT, .v.i = 2};
    tsr_kernel_args args = {sizeof args, TSR_OP_MATMUL, 3, 1, in_ref, &e, &attrs};
    CHECK_OK(tsr__ref_kernel_matmul(two_threads, &args));
    CHECK_OK(
        test_run(two_threads, TSR_OP_MATMUL, TSR_BFLOAT16, TSR_BFLOAT16, in, 3, &o, 1, &attrs));
    CHECK_TRUE(tsr__cpu_dnnl_last_impl()[0] != '\0');
    CHECK_SAME_BITS("c in place", out, expected, m * n, 2);
    free(a);
    free(b);
    free(out);
    free(expected);
    free(c_copy);
}

/* Shapes where a library might split k across threads: few output blocks,
 * a long k. */
static void random_products_have_the_same_bits_on_1_and_2_threads(void)
{
    static const int64_t shapes[][3] = {
        {512, 512, 512}, {8, 8192, 8}, {1, 4096, 64}, {64, 2048, 1024}, {2048, 64, 16}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int64_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        int64_t so[2] = {m, n}, sa[2] = {m, k}, sb[2] = {k, n};
        int64_t to[2] = {n, 1}, ta[2] = {k, 1}, tb[2] = {n, 1};
        uint16_t *a = bf16_buffer(m * k, 5 + s, 0), *b = bf16_buffer(k * n, 6 + s, 0);
        uint16_t *out[2] = {bf16_buffer(m * n, 7, 0), bf16_buffer(m * n, 8, 0)};
        tsr_tensor_desc in[2] = {test_desc(a, TSR_BFLOAT16, 2, sa, ta),
                                 test_desc(b, TSR_BFLOAT16, 2, sb, tb)};
        tsr__cpu_backend *backends[2] = {one_thread, two_threads};
        char impl[2][64];
        for (int t = 0; t < 2; t++) {
            tsr_tensor_desc o = test_desc(out[t], TSR_BFLOAT16, 2, so, to);
            CHECK_OK(test_run(backends[t], TSR_OP_MATMUL, TSR_BFLOAT16, TSR_BFLOAT16, in, 2, &o, 1,
                              NULL));
            snprintf(impl[t], sizeof impl[t], "%s", tsr__cpu_dnnl_last_impl());
            CHECK_TRUE(impl[t][0] != '\0');
        }
        char what[256];
        snprintf(what, sizeof what, "%lldx%lld @ %lldx%lld on 1 (%s) and 2 (%s) threads",
                 (long long)m, (long long)k, (long long)k, (long long)n, impl[0], impl[1]);
        printf("  %s\n", what);
        CHECK_SAME_BITS(what, out[0], out[1], m * n, 2);
        free(a);
        free(b);
        free(out[0]);
        free(out[1]);
    }
}

/* 2^100 * 2^100 overflows float32: oneDNN would sum inf - inf = NaN, where
 * the reference kernel's double sum is exactly 0. Such a call must go to
 * the reference kernel. */
static void products_beyond_float_range_use_the_reference_kernel(void)
{
    enum { K = 40, AT = 21 }; /* the large terms inside the 16-lane scan */
    int64_t sa[2] = {1, K}, sb[2] = {K, 1}, so[2] = {1, 1}, ta[2] = {K, 1}, tb[2] = {1, 1};
    uint16_t one = tsr__ref_bfloat16_from_float(1.0f), big = tsr__ref_bfloat16_from_float(0x1p100f);
    uint16_t a[K], b[K], out = 0x7fc0;
    for (int i = 0; i < K; i++) {
        a[i] = b[i] = one;
    }
    a[AT] = a[AT + 1] = b[AT] = big;
    b[AT + 1] = (uint16_t)(big | 0x8000);
    tsr_tensor_desc in[2] = {test_desc(a, TSR_BFLOAT16, 2, sa, ta),
                             test_desc(b, TSR_BFLOAT16, 2, sb, tb)};
    tsr_tensor_desc o = test_desc(&out, TSR_BFLOAT16, 2, so, tb);
    CHECK_OK(test_run(two_threads, TSR_OP_MATMUL, TSR_BFLOAT16, TSR_BFLOAT16, in, 2, &o, 1, NULL));
    /* The reference kernel sums in k order in double: the 21 ones before
     * AT vanish in 21 + 2^200, which then cancels exactly against -2^200,
     * and the 17 ones after it remain. float32 would give inf - inf. */
    CHECK_INT(out, tsr__ref_bfloat16_from_float(17.0f));
    CHECK_TRUE(tsr__cpu_dnnl_last_impl()[0] == '\0');
}

/* A malformed call is reported, not run: dtype mismatch between operands. */
static void bad_calls_are_reported(void)
{
    int64_t shape[2] = {4, 4}, strides[2] = {4, 1};
    uint16_t a[16] = {0}, out[16] = {0};
    float b[16] = {0};
    tsr_tensor_desc in[2] = {test_desc(a, TSR_BFLOAT16, 2, shape, strides),
                             test_desc(b, TSR_FLOAT32, 2, shape, strides)};
    tsr_tensor_desc o = test_desc(out, TSR_BFLOAT16, 2, shape, strides);
    int st = test_run(two_threads, TSR_OP_MATMUL, TSR_BFLOAT16, TSR_BFLOAT16, in, 2, &o, 1, NULL);
    CHECK_INT(st, TSR_ERR_DTYPE);
    CHECK_TRUE(strstr(test_last_error(), "matmul") != NULL);
}

int main(void)
{
    one_thread = test_backend(1, tsr__cpu_isa_detect());
    two_threads = test_backend(2, tsr__cpu_isa_detect());
    /* The build found oneDNN's headers; its library ships with them. */
    CHECK_TRUE(tsr__cpu_dnnl_available());
    CHECK_INT(tsr__cpu_kernel_is_reference(two_threads, TSR_OP_MATMUL, TSR_BFLOAT16, TSR_BFLOAT16),
              0);
    RUN_TEST(layouts_give_the_reference_bits);
    RUN_TEST(broadcast_batches_give_the_reference_bits);
    RUN_TEST(alpha_beta_and_c_give_the_reference_bits);
    RUN_TEST(c_in_place_gives_the_reference_bits);
    RUN_TEST(random_products_have_the_same_bits_on_1_and_2_threads);
    RUN_TEST(products_beyond_float_range_use_the_reference_kernel);
    RUN_TEST(bad_calls_are_reported);
    tsr__cpu_backend_destroy(one_thread);
    tsr__cpu_backend_destroy(two_threads);
    return test_finish();
}
