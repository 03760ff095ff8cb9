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
static void compare_with_reference(const char *what, int32_t op, int32_t dtype,
                                   tsr_kernel_fn ref, tsr_tensor_desc *inputs, int32_t num_inputs,
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
    compare_with_reference("transposed", TSR_OP_ADD, TSR_FLOAT32, tsr__ref_kernel_elementwise,
                           t_in, 2, &out, N, NULL);
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

int main(void)
{
    cpu = test_backend(2, tsr__cpu_isa_detect());
    RUN_TEST(the_table_has_exactly_the_reference_rows);
    RUN_TEST(optimised_slots_say_so);
    RUN_TEST(fast_kernels_give_the_reference_bits);
    RUN_TEST(integer_ops_are_the_reference_kernels);
    tsr__cpu_backend_destroy(cpu);
    return test_finish();
}
