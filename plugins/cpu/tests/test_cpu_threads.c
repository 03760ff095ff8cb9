/* Results do not depend on the thread count: every kernel the cpu backend
 * parallelises gives the same bits with 1, 2 and 3 threads, sizes chosen so
 * that work is actually split (long sums span many 64-block groups, row
 * kernels many tasks). Sums also equal the reference kernel's bits. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"
#include "reduce.h" /* tsr__ref_kernel_reduce */

enum { THREAD_VARIANTS = 3 };
static tsr__cpu_backend *backends[THREAD_VARIANTS]; /* 1, 2 and 3 threads */

static void *alloc_or_die(size_t bytes)
{
    void *p = malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* Runs one call on every backend, writing output 0 into outs[t]; compares
 * each with the 1-thread result. */
static void compare_threads(const char *what, int32_t op, int32_t dtype, tsr_tensor_desc *inputs,
                            int32_t num_inputs, tsr_tensor_desc *outputs, int32_t num_outputs,
                            const void *attrs, int64_t count)
{
    size_t size = dtype == TSR_FLOAT32 ? 4 : 8;
    void *first = alloc_or_die((size_t)count * size + 1);
    for (int t = 0; t < THREAD_VARIANTS; t++) {
        memset(outputs[0].data, 0xcd, (size_t)count * size);
        CHECK_OK(test_run(backends[t], op, dtype, dtype, inputs, num_inputs, outputs, num_outputs,
                          attrs));
        if (t == 0) {
            memcpy(first, outputs[0].data, (size_t)count * size);
        } else {
            CHECK_SAME_BITS(what, outputs[0].data, first, count, size);
        }
    }
    free(first);
}

static void long_sums_have_the_same_bits_on_1_2_and_3_threads(void)
{
    int64_t n = 3 * 65536 * 4 + 12345; /* 12+ groups of 64 blocks, a partial block */
    float *x = alloc_or_die((size_t)n * sizeof *x);
    test_fill_f32(x, n, 21, -1.0f, 1.0f);
    int64_t shape[1] = {n}, out_shape[1] = {1}, strides[1], out_strides[1];
    float result;
    tsr_tensor_desc in = test_desc(x, TSR_FLOAT32, 1, shape, strides);
    tsr_tensor_desc out = test_desc(&result, TSR_FLOAT32, 1, out_shape, out_strides);
    strides[0] = out_strides[0] = 1;
    tsr_reduce_attrs attrs = {.struct_size = sizeof attrs, .dims_mask = 1};
    compare_threads("sum", TSR_OP_SUM, TSR_FLOAT32, &in, 1, &out, 1, &attrs, 1);
    compare_threads("mean", TSR_OP_MEAN, TSR_FLOAT32, &in, 1, &out, 1, &attrs, 1);
    /* The reference kernel's bits, through its own lane-order code. */
    float expected;
    tsr_tensor_desc ref_out = test_desc(&expected, TSR_FLOAT32, 1, out_shape, out_strides);
    tsr_kernel_args args = {sizeof args, TSR_OP_SUM, 1, 1, &in, &ref_out, &attrs};
    CHECK_OK(tsr__ref_kernel_reduce(backends[0], &args));
    CHECK_OK(test_run(backends[1], TSR_OP_SUM, TSR_FLOAT32, TSR_FLOAT32, &in, 1, &out, 1, &attrs));
    CHECK_SAME_BITS("sum against the reference kernel", &result, &expected, 1, 4);
    free(x);
}

static void row_sums_have_the_same_bits_on_1_2_and_3_threads(void)
{
    int64_t rows = 300, cols = 5000;
    double *x = alloc_or_die((size_t)(rows * cols) * sizeof *x);
    double *y = alloc_or_die((size_t)rows * sizeof *y), *expected = alloc_or_die((size_t)rows * 8);
    test_fill_f64(x, rows * cols, 22, -1.0, 1.0);
    int64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
    int64_t out_shape[2] = {rows, 1}, out_strides[2] = {1, 1};
    tsr_tensor_desc in = test_desc(x, TSR_FLOAT64, 2, shape, strides);
    tsr_tensor_desc out = test_desc(y, TSR_FLOAT64, 2, out_shape, out_strides);
    tsr_reduce_attrs attrs = {.struct_size = sizeof attrs, .dims_mask = 2};
    compare_threads("row sum", TSR_OP_SUM, TSR_FLOAT64, &in, 1, &out, 1, &attrs, rows);
    tsr_tensor_desc ref_out = test_desc(expected, TSR_FLOAT64, 2, out_shape, out_strides);
    tsr_kernel_args args = {sizeof args, TSR_OP_SUM, 1, 1, &in, &ref_out, &attrs};
    CHECK_OK(tsr__ref_kernel_reduce(backends[0], &args));
    CHECK_SAME_BITS("row sums against the reference kernel", y, expected, rows, 8);
    compare_threads("row logsumexp", TSR_OP_LOGSUMEXP, TSR_FLOAT64, &in, 1, &out, 1, &attrs, rows);
    free(x);
    free(y);
    free(expected);
}

static void elementwise_ops_have_the_same_bits_on_1_2_and_3_threads(void)
{
    int64_t rows = 700, cols = 1001, n = rows * cols;
    float *a = alloc_or_die((size_t)n * 4), *b = alloc_or_die((size_t)cols * 4);
    float *y = alloc_or_die((size_t)n * 4);
    test_fill_f32(a, n, 23, -3.0f, 3.0f);
    test_fill_f32(b, cols, 24, 0.5f, 2.0f);
    int64_t shape[2] = {rows, cols}, strides[2] = {cols, 1}, b_strides[2] = {0, 1};
    tsr_tensor_desc in[2] = {test_desc(a, TSR_FLOAT32, 2, shape, strides),
                             test_desc(b, TSR_FLOAT32, 2, shape, b_strides)};
    tsr_tensor_desc out = test_desc(y, TSR_FLOAT32, 2, shape, strides);
    tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs,
                                   .scalars = {{.kind = TSR_SCALAR_FLOAT, .v.f = 0.5}}};
    compare_threads("add with alpha", TSR_OP_ADD, TSR_FLOAT32, in, 2, &out, 1, &attrs, n);
    compare_threads("div", TSR_OP_DIV, TSR_FLOAT32, in, 2, &out, 1, NULL, n);
    compare_threads("exp", TSR_OP_EXP, TSR_FLOAT32, in, 1, &out, 1, NULL, n);
    compare_threads("gelu", TSR_OP_GELU, TSR_FLOAT32, in, 1, &out, 1, NULL, n);
    free(a);
    free(b);
    free(y);
}

static void row_kernels_have_the_same_bits_on_1_2_and_3_threads(void)
{
    int64_t rows = 257, cols = 1000, n = rows * cols;
    float *x = alloc_or_die((size_t)n * 4), *y = alloc_or_die((size_t)n * 4);
    float *w = alloc_or_die((size_t)cols * 4), *b = alloc_or_die((size_t)cols * 4);
    float mean[257], rstd[257];
    test_fill_f32(x, n, 25, -5.0f, 5.0f);
    test_fill_f32(w, cols, 26, 0.5f, 1.5f);
    test_fill_f32(b, cols, 27, -0.5f, 0.5f);
    int64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
    int64_t wshape[1] = {cols}, wstrides[1] = {1}, sshape[2] = {rows, 1}, sstrides[2] = {1, 1};
    tsr_tensor_desc in[3] = {test_desc(x, TSR_FLOAT32, 2, shape, strides),
                             test_desc(w, TSR_FLOAT32, 1, wshape, wstrides),
                             test_desc(b, TSR_FLOAT32, 1, wshape, wstrides)};
    tsr_tensor_desc out[3] = {test_desc(y, TSR_FLOAT32, 2, shape, strides),
                              test_desc(mean, TSR_FLOAT32, 2, sshape, sstrides),
                              test_desc(rstd, TSR_FLOAT32, 2, sshape, sstrides)};
    tsr_scan_attrs scan = {.struct_size = sizeof scan, .dim = 1};
    compare_threads("softmax", TSR_OP_SOFTMAX, TSR_FLOAT32, in, 1, out, 1, &scan, n);
    compare_threads("log_softmax", TSR_OP_LOG_SOFTMAX, TSR_FLOAT32, in, 1, out, 1, &scan, n);
    tsr_index_attrs norm = {.struct_size = sizeof norm, .offset = 1, .eps = 1e-5};
    compare_threads("layer_norm", TSR_OP_LAYER_NORM, TSR_FLOAT32, in, 3, out, 3, &norm, n);
    compare_threads("rms_norm", TSR_OP_RMS_NORM, TSR_FLOAT32, in, 2, out, 2, &norm, n);
    free(x);
    free(y);
    free(w);
    free(b);
}

static void matmul_has_the_same_bits_on_1_2_and_3_threads(void)
{
    int64_t m = 300, k = 257, n = 301, batch = 3;
    float *a = alloc_or_die((size_t)(batch * m * k) * 4), *b = alloc_or_die((size_t)(k * n) * 4);
    float *y = alloc_or_die((size_t)(batch * m * n) * 4);
    test_fill_f32(a, batch * m * k, 28, -1.0f, 1.0f);
    test_fill_f32(b, k * n, 29, -1.0f, 1.0f);
    int64_t ashape[3] = {batch, m, k}, astrides[3] = {m * k, k, 1};
    int64_t bshape[3] = {batch, k, n}, bstrides[3] = {0, n, 1}; /* broadcast over the batch */
    int64_t yshape[3] = {batch, m, n}, ystrides[3] = {m * n, n, 1};
    tsr_tensor_desc in[2] = {test_desc(a, TSR_FLOAT32, 3, ashape, astrides),
                             test_desc(b, TSR_FLOAT32, 3, bshape, bstrides)};
    tsr_tensor_desc out = test_desc(y, TSR_FLOAT32, 3, yshape, ystrides);
    compare_threads("matmul", TSR_OP_MATMUL, TSR_FLOAT32, in, 2, &out, 1, NULL, batch * m * n);
    /* b transposed through its strides, small products spread over tasks. */
    int64_t small_b_strides[3] = {0, 1, k};
    int64_t sm = 20, sshape_a[3] = {batch, sm, k}, syshape[3] = {batch, sm, n};
    int64_t sy_strides[3] = {sm * n, n, 1}, sa_strides[3] = {sm * k, k, 1};
    int64_t sb_shape[3] = {batch, k, n};
    tsr_tensor_desc sin[2] = {test_desc(a, TSR_FLOAT32, 3, sshape_a, sa_strides),
                              test_desc(b, TSR_FLOAT32, 3, sb_shape, small_b_strides)};
    tsr_tensor_desc sout = test_desc(y, TSR_FLOAT32, 3, syshape, sy_strides);
    compare_threads("transposed matmul", TSR_OP_MATMUL, TSR_FLOAT32, sin, 2, &sout, 1, NULL,
                    batch * sm * n);
    free(a);
    free(b);
    free(y);
}

/* Two user threads calling kernels on one backend at once: one gets the
 * pool, the other runs its loops on its own thread; both get the bits a
 * lone caller gets. */
typedef struct caller {
    tsr__cpu_backend *backend;
    const float *x;
    int64_t n;
    float results[20];
} caller;

static void *call_sums(void *arg)
{
    caller *c = arg;
    int64_t shape[1] = {c->n}, strides[1] = {1}, one[1] = {1}, one_stride[1] = {1};
    tsr_tensor_desc in = test_desc((void *)c->x, TSR_FLOAT32, 1, shape, strides);
    tsr_reduce_attrs attrs = {.struct_size = sizeof attrs, .dims_mask = 1};
    for (int i = 0; i < 20; i++) {
        tsr_tensor_desc out = test_desc(&c->results[i], TSR_FLOAT32, 1, one, one_stride);
        if (test_run(c->backend, TSR_OP_SUM, TSR_FLOAT32, TSR_FLOAT32, &in, 1, &out, 1, &attrs) !=
            TSR_OK) {
            c->results[i] = -1.0f;
        }
    }
    return NULL;
}

static void concurrent_callers_get_the_same_bits(void)
{
    int64_t n = 2 * 65536 * 5 + 99;
    float *x = alloc_or_die((size_t)n * 4);
    test_fill_f32(x, n, 33, -1.0f, 1.0f);
    caller a = {backends[1], x, n, {0}}, b = {backends[1], x, n, {0}},
           alone = {backends[0], x, n, {0}};
    call_sums(&alone);
    pthread_t ta, tb;
    pthread_create(&ta, NULL, call_sums, &a);
    pthread_create(&tb, NULL, call_sums, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    for (int i = 0; i < 20; i++) {
        CHECK_SAME_BITS("concurrent sum (first caller)", &a.results[i], &alone.results[0], 1, 4);
        CHECK_SAME_BITS("concurrent sum (second caller)", &b.results[i], &alone.results[0], 1, 4);
    }
    free(x);
}

int main(void)
{
    for (int t = 0; t < THREAD_VARIANTS; t++) {
        backends[t] = test_backend(t + 1, tsr__cpu_isa_detect());
    }
    RUN_TEST(long_sums_have_the_same_bits_on_1_2_and_3_threads);
    RUN_TEST(row_sums_have_the_same_bits_on_1_2_and_3_threads);
    RUN_TEST(elementwise_ops_have_the_same_bits_on_1_2_and_3_threads);
    RUN_TEST(row_kernels_have_the_same_bits_on_1_2_and_3_threads);
    RUN_TEST(matmul_has_the_same_bits_on_1_2_and_3_threads);
    RUN_TEST(concurrent_callers_get_the_same_bits);
    for (int t = 0; t < THREAD_VARIANTS; t++) {
        tsr__cpu_backend_destroy(backends[t]);
    }
    return test_finish();
}
