/* The kernel table: the cpu backend claims exactly the reference backend's
 * (op, dtype_in, dtype_out) rows with the same flags; the slots it
 * optimises say so and the rest still hold the reference kernels; optimised
 * kernels give the reference kernels' bits for add, mul, div and copy on
 * contiguous, broadcast and strided (fallback) layouts. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cpu_test.h"
#include "elementwise.h"
#include "index_walk.h"
#include "kernels.h"

static tsr__cpu_backend *cpu;

static void the_table_has_exactly_the_reference_rows(void)
{
    tsr_kernel_entry *ref = NULL;
    size_t ref_count = 0;
    CHECK_OK(tsr__ref_kernel_table_build(&ref, &ref_count));
    CHECK_INT(cpu->ref.entry_count, ref_count);
    for (size_t i = 0; i < ref_count && i < cpu->ref.entry_count; i++) {
        const tsr_kernel_entry *a = &cpu->ref.entries[i], *b = &ref[i];
        if (a->op != b->op || a->dtype_in != b->dtype_in || a->dtype_out != b->dtype_out ||
            a->flags != b->flags) {
            TEST_FAIL("row %zu is (%d, %d, %d, 0x%x), reference has (%d, %d, %d, 0x%x)", i,
                      (int)a->op, (int)a->dtype_in, (int)a->dtype_out, (unsigned)a->flags,
                      (int)b->op, (int)b->dtype_in, (int)b->dtype_out, (unsigned)b->flags);
            break;
        }
    }
    free(ref);
}

static void optimised_slots_say_so(void)
{
    CHECK_INT(tsr__cpu_kernel_is_reference(cpu, TSR_OP_ADD, TSR_FLOAT32, TSR_FLOAT32), 0);
    CHECK_INT(tsr__cpu_kernel_is_reference(cpu, TSR_OP_MATMUL, TSR_FLOAT64, TSR_FLOAT64), 0);
    CHECK_INT(tsr__cpu_kernel_is_reference(cpu, TSR_OP_SUM, TSR_FLOAT32, TSR_FLOAT32), 0);
    CHECK_INT(tsr__cpu_kernel_is_reference(cpu, TSR_OP_ADD, TSR_INT32, TSR_INT32), 1);
    CHECK_INT(tsr__cpu_kernel_is_reference(cpu, TSR_OP_COPY, TSR_INT32, TSR_FLOAT32), 1);
    CHECK_INT(tsr__cpu_kernel_is_reference(cpu, TSR_OP_ADD, TSR_FLOAT32, TSR_BOOL), -1);
}

/* Runs `op` through the cpu table and through the reference kernel `ref`
 * on the same descriptors and compares the outputs' bits. */
static void compare_with_reference(const char *what, int32_t op, int32_t dtype, tsr_kernel_fn ref,
                                   tsr_tensor_desc *inputs, int32_t num_inputs,
                                   tsr_tensor_desc *out, int64_t count, const void *attrs)
{
    size_t size = dtype == TSR_FLOAT32 || dtype == TSR_INT32 ? 4 : 8;
    void *expected = calloc((size_t)count + 1, size);
    CHECK_OK(test_run(cpu, op, dtype, dtype, inputs, num_inputs, out, 1, attrs));
    void *got = out->data;
    tsr_tensor_desc ref_out = *out;
    ref_out.data = expected;
    tsr_kernel_args args = {sizeof args, op, num_inputs, 1, inputs, &ref_out, attrs};
    CHECK_OK(ref(cpu, &args));
    CHECK_SAME_BITS(what, got, expected, count, size);
    free(expected);
}

static void fast_kernels_give_the_reference_bits(void)
{
    enum { R = 37, C = 129, N = R * C };
    static float a[N], b[N], y[N];
    test_fill_f32(a, N, 31, -2.0f, 2.0f);
    test_fill_f32(b, N, 32, 0.25f, 2.0f);
    int64_t shape[2] = {R, C}, dense[2] = {C, 1}, row[2] = {0, 1}, column[2] = {1, 0};
    int64_t scalar[2] = {0, 0}, transposed[2] = {1, R};
    tsr_tensor_desc out = test_desc(y, TSR_FLOAT32, 2, shape, dense);
    int64_t *layouts[4] = {dense, row, column, scalar};
    const char *names[4] = {"dense", "row broadcast", "column broadcast", "scalar"};
    tsr_elementwise_attrs alpha = {.struct_size = sizeof alpha,
                                   .scalars = {{.kind = TSR_SCALAR_FLOAT, .v.f = -1.5}}};
    for (int l = 0; l < 4; l++) {
        tsr_tensor_desc in[2] = {test_desc(a, TSR_FLOAT32, 2, shape, dense),
                                 test_desc(b, TSR_FLOAT32, 2, shape, layouts[l])};
        compare_with_reference(names[l], TSR_OP_ADD, TSR_FLOAT32, tsr__ref_kernel_elementwise, in,
                               2, &out, N, NULL);
        compare_with_reference(names[l], TSR_OP_SUB, TSR_FLOAT32, tsr__ref_kernel_elementwise, in,
                               2, &out, N, &alpha);
        compare_with_reference(names[l], TSR_OP_MUL, TSR_FLOAT32, tsr__ref_kernel_elementwise, in,
                               2, &out, N, NULL);
        compare_with_reference(names[l], TSR_OP_DIV, TSR_FLOAT32, tsr__ref_kernel_elementwise, in,
                               2, &out, N, NULL);
        compare_with_reference(names[l], TSR_OP_COPY, TSR_FLOAT32, tsr__ref_kernel_copy, &in[1], 1,
                               &out, N, NULL);
    }
    /* A transposed operand: not a fast layout, so the reference kernel runs. */
    tsr_tensor_desc t_in[2] = {test_desc(a, TSR_FLOAT32, 2, shape, dense),
                               test_desc(b, TSR_FLOAT32, 2, shape, transposed)};
    compare_with_reference("transposed", TSR_OP_ADD, TSR_FLOAT32, tsr__ref_kernel_elementwise, t_in,
                           2, &out, N, NULL);
    compare_with_reference("transposed copy", TSR_OP_COPY, TSR_FLOAT32, tsr__ref_kernel_copy,
                           &t_in[1], 1, &out, N, NULL);
}

static void integer_ops_are_the_reference_kernels(void)
{
    enum { N = 1000 };
    static int32_t a[N], b[N], y[N];
    for (int i = 0; i < N; i++) {
        a[i] = i * 7919 - 3000000;
        b[i] = INT32_MAX - i;
    }
    int64_t shape[1] = {N}, strides[1] = {1};
    tsr_tensor_desc in[2] = {test_desc(a, TSR_INT32, 1, shape, strides),
                             test_desc(b, TSR_INT32, 1, shape, strides)};
    tsr_tensor_desc out = test_desc(y, TSR_INT32, 1, shape, strides);
    compare_with_reference("int32 add wraps", TSR_OP_ADD, TSR_INT32, tsr__ref_kernel_elementwise,
                           in, 2, &out, N, NULL);
    compare_with_reference("int32 copy", TSR_OP_COPY, TSR_INT32, tsr__ref_kernel_copy, in, 1, &out,
                           N, NULL);
}

/* fill converts its scalar as the reference does, for every dtype. */
static void fills_give_the_reference_bits(void)
{
    enum { N = 70001 };
    static unsigned char got[N * 16], want[N * 16];
    static const tsr_scalar values[] = {{.kind = TSR_SCALAR_FLOAT, .v.f = -0.0},
                                        {.kind = TSR_SCALAR_FLOAT, .v.f = 3.7},
                                        {.kind = TSR_SCALAR_INT, .v.i = 0},
                                        {.kind = TSR_SCALAR_INT, .v.i = -300},
                                        {.kind = TSR_SCALAR_BOOL, .v.i = 1}};
    int64_t shape[1] = {N}, strides[1] = {1};
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++) {
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            tsr_elementwise_attrs attrs = {.struct_size = sizeof attrs, .scalars = {values[v]}};
            tsr_tensor_desc out = test_desc(got, dtype, 1, shape, strides);
            tsr_tensor_desc ref_out = test_desc(want, dtype, 1, shape, strides);
            memset(got, 0x5a, sizeof got);
            memset(want, 0xa5, sizeof want);
            CHECK_OK(test_run(cpu, TSR_OP_FILL, dtype, dtype, NULL, 0, &out, 1, &attrs));
            tsr_kernel_args args = {sizeof args, TSR_OP_FILL, 0, 1, NULL, &ref_out, &attrs};
            CHECK_OK(tsr__ref_kernel_fill(cpu, &args));
            test_checks++;
            static const size_t sizes[TSR_DTYPE_COUNT] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16};
            size_t bytes = (size_t)N * sizes[dtype];
            if (memcmp(got, want, bytes) != 0) {
                TEST_FAIL("fill of dtype %d with value %zu differs from the reference", (int)dtype,
                          v);
            }
        }
    }
}

/* gather moves elements: the reference's bits, and its error for an index
 * out of range (the output untouched). */
static void gathers_give_the_reference_result(void)
{
    enum { R = 300, C = 97, K = 5 };
    static double x[R * C];
    static double got[R * K];
    static int64_t index[R * K];
    test_fill_f64(x, R * C, 50, -1.0, 1.0);
    for (int i = 0; i < R * K; i++) {
        index[i] = (i * 31) % C;
    }
    int64_t shape[2] = {R, C}, strides[2] = {C, 1}, ishape[2] = {R, K}, istrides[2] = {K, 1};
    tsr_tensor_desc in[2] = {test_desc(x, TSR_FLOAT64, 2, shape, strides),
                             test_desc(index, TSR_INT64, 2, ishape, istrides)};
    tsr_tensor_desc out = test_desc(got, TSR_FLOAT64, 2, ishape, istrides);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .dim = 1};
    compare_with_reference("gather", TSR_OP_GATHER, TSR_FLOAT64, tsr__ref_kernel_gather, in, 2,
                           &out, R * K, &attrs);
    index[17] = C;
    memset(got, 0, sizeof got);
    test_checks++;
    if (test_run(cpu, TSR_OP_GATHER, TSR_FLOAT64, TSR_FLOAT64, in, 2, &out, 1, &attrs) !=
            TSR_ERR_INDEX ||
        strstr(test_last_error(), "out of bounds") == NULL) {
        TEST_FAIL("an index out of range must give TSR_ERR_INDEX, got: %s", test_last_error());
    }
}

/* Sorting is stable, so its result is unique: the radix sort must give the
 * reference merge sort's values and indices exactly, NaNs, signed zeros,
 * infinities and ties included, in both directions and for every length
 * class (insertion sort, one radix row per task, the chunked long row). */
static void sorts_give_the_reference_values_and_indices(void)
{
    static const int64_t lengths[] = {1, 5, 48, 49, 1000, 70000, 300000};
    static const float specials[] = {NAN, -0.0f, 0.0f, INFINITY, -INFINITY, 1.0f, -1.0f, 2.5f};
    for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
        int64_t n = lengths[l], rows = n < 1000 ? 3 : 1;
        float *x = malloc((size_t)(rows * n) * 4), *v = malloc((size_t)(rows * n) * 4);
        float *rv = malloc((size_t)(rows * n) * 4);
        int64_t *ix = malloc((size_t)(rows * n) * 8), *rix = malloc((size_t)(rows * n) * 8);
        test_fill_f32(x, rows * n, 40 + l, -3.0f, 3.0f);
        for (int64_t i = 0; i < rows * n; i++) {
            if (i % 3 == 0) {
                x[i] = specials[(i / 3) % 8];
            } else if (i % 5 == 0) {
                x[i] = (float)(int)x[i]; /* ties */
            }
        }
        int64_t shape[2] = {rows, n}, strides[2] = {n, 1};
        tsr_tensor_desc in = test_desc(x, TSR_FLOAT32, 2, shape, strides);
        for (int descending = 0; descending < 2; descending++) {
            tsr_index_attrs attrs = {.struct_size = sizeof attrs,
                                     .dim = 1,
                                     .flags = descending ? TSR_INDEX_DESCENDING : 0};
            tsr_tensor_desc out[2] = {test_desc(v, TSR_FLOAT32, 2, shape, strides),
                                      test_desc(ix, TSR_INT64, 2, shape, strides)};
            tsr_tensor_desc ref_out[2] = {test_desc(rv, TSR_FLOAT32, 2, shape, strides),
                                          test_desc(rix, TSR_INT64, 2, shape, strides)};
            CHECK_OK(test_run(cpu, TSR_OP_SORT, TSR_FLOAT32, TSR_FLOAT32, &in, 1, out, 2, &attrs));
            tsr_kernel_args args = {sizeof args, TSR_OP_SORT, 1, 2, &in, ref_out, &attrs};
            CHECK_OK(tsr__ref_kernel_sort(cpu, &args));
            CHECK_SAME_BITS("sorted values", v, rv, rows * n, 4);
            test_checks++;
            if (memcmp(ix, rix, (size_t)(rows * n) * 8) != 0) {
                TEST_FAIL("sort indices differ from the reference kernel's (n %lld, descending %d)",
                          (long long)n, descending);
            }
        }
        free(x);
        free(v);
        free(rv);
        free(ix);
        free(rix);
    }
}

static void integer_sorts_give_the_reference_result(void)
{
    enum { N = 5000 };
    static int16_t x[N], v[N], rv[N];
    static int64_t ix[N], rix[N];
    for (int i = 0; i < N; i++) {
        x[i] = (int16_t)((i * 7919) % 601 - 300);
    }
    int64_t shape[1] = {N}, strides[1] = {1};
    tsr_tensor_desc in = test_desc(x, TSR_INT16, 1, shape, strides);
    tsr_index_attrs attrs = {.struct_size = sizeof attrs, .dim = 0, .flags = TSR_INDEX_DESCENDING};
    tsr_tensor_desc out[2] = {test_desc(v, TSR_INT16, 1, shape, strides),
                              test_desc(ix, TSR_INT64, 1, shape, strides)};
    tsr_tensor_desc ref_out[2] = {test_desc(rv, TSR_INT16, 1, shape, strides),
                                  test_desc(rix, TSR_INT64, 1, shape, strides)};
    CHECK_OK(test_run(cpu, TSR_OP_SORT, TSR_INT16, TSR_INT16, &in, 1, out, 2, &attrs));
    tsr_kernel_args args = {sizeof args, TSR_OP_SORT, 1, 2, &in, ref_out, &attrs};
    CHECK_OK(tsr__ref_kernel_sort(cpu, &args));
    CHECK_SAME_BITS("int16 values", v, rv, N, 2);
    CHECK_SAME_BITS("int16 indices", ix, rix, N, 8);
}

int main(void)
{
    cpu = test_backend(2, tsr__cpu_isa_detect());
    RUN_TEST(the_table_has_exactly_the_reference_rows);
    RUN_TEST(optimised_slots_say_so);
    RUN_TEST(fast_kernels_give_the_reference_bits);
    RUN_TEST(integer_ops_are_the_reference_kernels);
    RUN_TEST(fills_give_the_reference_bits);
    RUN_TEST(gathers_give_the_reference_result);
    RUN_TEST(sorts_give_the_reference_values_and_indices);
    RUN_TEST(integer_sorts_give_the_reference_result);
    tsr__cpu_backend_destroy(cpu);
    return test_finish();
}
