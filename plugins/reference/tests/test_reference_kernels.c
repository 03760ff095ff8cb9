/* Standalone test of libtessera_reference.so: loads it with a minimal host
 * (no core), then runs kernels straight from its table.
 *
 * Usage: test_reference_kernels PATH_TO_PLUGIN
 *
 * The named tests below pin single rules; torch_cases.c replays PyTorch's
 * recorded answers for every supported op and dtype. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "torch_cases.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static void vector_of(test_tensor *t, int32_t dtype, int64_t n, const double *values)
{
    test_tensor_vector(t, dtype, n);
    for (int64_t i = 0; i < n; i++) {
        test_element_set(dtype, test_tensor_at(t, &i), values[i], 0.0);
    }
}

static void vector_of_ints(test_tensor *t, int32_t dtype, int64_t n, const int64_t *values)
{
    test_tensor_vector(t, dtype, n);
    for (int64_t i = 0; i < n; i++) {
        test_element_set_int(dtype, test_tensor_at(t, &i), values[i]);
    }
}

static double real_at(const test_tensor *t, int64_t i)
{
    return test_element_real(t->desc.dtype, test_tensor_at(t, &i));
}

static int64_t int_at(const test_tensor *t, int64_t i)
{
    return test_element_int(t->desc.dtype, test_tensor_at(t, &i));
}

static uint16_t bits16_at(const test_tensor *t, int64_t i)
{
    uint16_t bits;
    memcpy(&bits, test_tensor_at(t, &i), sizeof bits);
    return bits;
}

static tsr_elementwise_attrs attrs_mode(int32_t mode)
{
    tsr_elementwise_attrs attrs = {sizeof attrs, mode, {{TSR_SCALAR_INT, 0, {.i = 1}}, {0}}};
    return attrs;
}

/* Converts `values` (float64) with copy into `dtype`. */
static void copy_from_doubles(test_tensor *out, int32_t dtype, int64_t n, const double *values)
{
    test_tensor in;
    vector_of(&in, TSR_FLOAT64, n, values);
    test_tensor_vector(out, dtype, n);
    CHECK_INT(test_run(TSR_OP_COPY, TSR_FLOAT64, out, &in, 1, NULL), TSR_OK);
    test_tensor_free(&in);
}

/* ------------------------------------------------------------------------ */
/* Entry point and memory                                                    */
/* ------------------------------------------------------------------------ */

static void entry_refuses_other_major_abi(void)
{
    test_current = "entry_refuses_other_major_abi";
    test_clear_error();
    tsr_host_api host = test_host;
    host.abi_version = (uint32_t)(TSR_PLUGIN_ABI_MAJOR + 1) << 16;
    CHECK_TRUE(plugin.entry(&host, host.abi_version) == NULL);
    CHECK_INT(test_last_status(), TSR_ERR_PLUGIN);
    CHECK_TRUE(strstr(test_last_error(), "ABI") != NULL);
    /* An older or newer minor of the same major is fine. */
    CHECK_TRUE(plugin.entry(&test_host, TSR_PLUGIN_ABI_VERSION + 7) == plugin.table);
    CHECK_INT(plugin.table->flags, TSR_PLUGIN_HOST_MEMORY);
    CHECK_TRUE(strcmp(plugin.table->name, "reference") == 0);
}

static void memory_zero_bytes_gives_distinct_aligned_handles(void)
{
    test_current = "memory_zero_bytes_gives_distinct_aligned_handles";
    void *a = NULL, *b = NULL, *c = NULL;
    CHECK_INT(plugin.table->memory_alloc(plugin.backend, 0, &a), TSR_OK);
    CHECK_INT(plugin.table->memory_alloc(plugin.backend, 0, &b), TSR_OK);
    CHECK_INT(plugin.table->memory_alloc(plugin.backend, 3, &c), TSR_OK);
    CHECK_TRUE(a != NULL && b != NULL && a != b);
    CHECK_INT((uintptr_t)a % 64, 0);
    CHECK_INT((uintptr_t)c % 64, 0);
    plugin.table->memory_free(plugin.backend, a);
    plugin.table->memory_free(plugin.backend, b);
    plugin.table->memory_free(plugin.backend, c);
}

static void memory_copies_honour_offsets(void)
{
    test_current = "memory_copies_honour_offsets";
    void *handle = NULL;
    CHECK_INT(plugin.table->memory_alloc(plugin.backend, 16, &handle), TSR_OK);
    const char text[] = "abcdefgh";
    char back[9] = {0};
    CHECK_INT(plugin.table->copy_from_host(plugin.backend, handle, 4, text, 8), TSR_OK);
    CHECK_INT(plugin.table->copy_on_device(plugin.backend, handle, 0, handle, 6, 4), TSR_OK);
    CHECK_INT(plugin.table->copy_to_host(plugin.backend, back, handle, 0, 8), TSR_OK);
    CHECK_TRUE(memcmp(back, "cdefabcd", 8) == 0);
    plugin.table->memory_free(plugin.backend, handle);
}

/* ------------------------------------------------------------------------ */
/* Conversions                                                               */
/* ------------------------------------------------------------------------ */

static void copy_float_to_small_ints_truncates_then_wraps(void)
{
    test_current = "copy_float_to_small_ints_truncates_then_wraps";
    const double values[] = {300.0, -1.0, NAN, -2.5, 65543.0, 2147483653.0, INFINITY};
    const int64_t as_uint8[] = {44, 255, 0, 254, 7, 5, 0}; /* uint8 goes through int64 */
    const int64_t as_int16[] = {300, -1, 0, -2, 7, 0, 0};
    test_tensor u8, i16;
    copy_from_doubles(&u8, TSR_UINT8, 7, values);
    copy_from_doubles(&i16, TSR_INT16, 7, values);
    for (int64_t i = 0; i < 7; i++) {
        CHECK_INT(int_at(&u8, i), as_uint8[i]);
        CHECK_INT(int_at(&i16, i), as_int16[i]);
    }
    test_tensor_free(&u8);
    test_tensor_free(&i16);
}

static void copy_nan_and_out_of_range_give_int_min(void)
{
    test_current = "copy_nan_and_out_of_range_give_int_min";
    const double values[] = {NAN, INFINITY, -INFINITY, 3e9, 9.3e18, -2147483648.9};
    const int64_t as_int32[] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
    const int64_t as_int64[] = {INT64_MIN,  INT64_MIN, INT64_MIN,
                                3000000000, INT64_MIN, -2147483648};
    test_tensor i32, i64;
    copy_from_doubles(&i32, TSR_INT32, 6, values);
    copy_from_doubles(&i64, TSR_INT64, 6, values);
    for (int64_t i = 0; i < 6; i++) {
        CHECK_INT(int_at(&i32, i), as_int32[i]);
        CHECK_INT(int_at(&i64, i), as_int64[i]);
    }
    test_tensor_free(&i32);
    test_tensor_free(&i64);
}

static void copy_complex_to_bool_uses_real_part(void)
{
    test_current = "copy_complex_to_bool_uses_real_part";
    test_tensor in, out;
    test_tensor_vector(&in, TSR_COMPLEX128, 3);
    const double parts[3][2] = {{0.0, 1.0}, {NAN, 0.0}, {0.0, 0.0}};
    for (int64_t i = 0; i < 3; i++) {
        test_element_set(TSR_COMPLEX128, test_tensor_at(&in, &i), parts[i][0], parts[i][1]);
    }
    test_tensor_vector(&out, TSR_BOOL, 3);
    CHECK_INT(test_run(TSR_OP_COPY, TSR_COMPLEX128, &out, &in, 1, NULL), TSR_OK);
    CHECK_INT(int_at(&out, 0), 0); /* 1j is false: the imaginary part is dropped */
    CHECK_INT(int_at(&out, 1), 1);
    CHECK_INT(int_at(&out, 2), 0);
    test_tensor_free(&in);
    test_tensor_free(&out);
}

static void half_rounds_ties_to_even(void)
{
    test_current = "half_rounds_ties_to_even";
    const double values[] = {1.0 + 0x1p-11, 1.0 + 3 * 0x1p-11, 65519.0, 65520.0, 0x1p-25,
                             3 * 0x1p-25,   0x1.000002p-25,    -0.0,    NAN,     -NAN};
    const uint16_t bits[] = {0x3c00, 0x3c02, 0x7bff, 0x7c00, 0x0000,
                             0x0002, 0x0001, 0x8000, 0x7e00, 0xfe00};
    test_tensor h;
    copy_from_doubles(&h, TSR_FLOAT16, 10, values);
    for (int64_t i = 0; i < 10; i++) {
        CHECK_INT(bits16_at(&h, i), bits[i]);
    }
    test_tensor_free(&h);
}

static void bfloat16_rounds_ties_to_even_and_overflows_to_inf(void)
{
    test_current = "bfloat16_rounds_ties_to_even_and_overflows_to_inf";
    const double values[] = {1.0 + 0x1p-8, 1.0 + 3 * 0x1p-8, 3.4e38, 1e-40, -NAN, -INFINITY};
    const uint16_t bits[] = {0x3f80, 0x3f82, 0x7f80, 0x0001, 0x7fc0, 0xff80};
    test_tensor b;
    copy_from_doubles(&b, TSR_BFLOAT16, 6, values);
    for (int64_t i = 0; i < 6; i++) {
        CHECK_INT(bits16_at(&b, i), bits[i]);
    }
    test_tensor_free(&b);
}

/* PyTorch rounds double to float first, so the second rounding sees a tie. */
static void float64_to_half_rounds_through_float(void)
{
    test_current = "float64_to_half_rounds_through_float";
    const double values[] = {1.0 + 0x1p-11 + 0x1p-40};
    test_tensor h, b;
    copy_from_doubles(&h, TSR_FLOAT16, 1, values);
    CHECK_INT(bits16_at(&h, 0), 0x3c00);
    const double bvalues[] = {1.0 + 0x1p-8 + 0x1p-40};
    copy_from_doubles(&b, TSR_BFLOAT16, 1, bvalues);
    CHECK_INT(bits16_at(&b, 0), 0x3f80);
    test_tensor_free(&h);
    test_tensor_free(&b);
}

/* Through double, 2^60 + 2^36 + 1 would lose its last bit and then tie. */
static void int64_to_float32_rounds_once(void)
{
    test_current = "int64_to_float32_rounds_once";
    const int64_t values[] = {(INT64_C(1) << 60) + (INT64_C(1) << 36) + 1, 16777217};
    test_tensor in, out;
    vector_of_ints(&in, TSR_INT64, 2, values);
    test_tensor_vector(&out, TSR_FLOAT32, 2);
    CHECK_INT(test_run(TSR_OP_COPY, TSR_INT64, &out, &in, 1, NULL), TSR_OK);
    CHECK_SAME_DOUBLE(real_at(&out, 0), 0x1p60 + 0x1p37);
    CHECK_SAME_DOUBLE(real_at(&out, 1), 16777216.0);
    test_tensor_free(&in);
    test_tensor_free(&out);
}

/* ------------------------------------------------------------------------ */
/* Layouts                                                                   */
/* ------------------------------------------------------------------------ */

/* [3,1] + [4] -> [3,4]: the core passes both with the output's shape and
 * zero strides where they broadcast. */
static void add_reads_zero_strides(void)
{
    test_current = "add_reads_zero_strides";
    const int64_t shape[2] = {3, 4};
    const int64_t column_strides[2] = {1, 0};
    const int64_t row_strides[2] = {0, 1};
    test_tensor in[2], out;
    test_tensor_init(&in[0], TSR_INT32, 2, shape, column_strides, 0, 3);
    test_tensor_init(&in[1], TSR_INT32, 2, shape, row_strides, 0, 4);
    test_tensor_init(&out, TSR_INT32, 2, shape, NULL, 0, 12);
    for (int64_t i = 0; i < 3; i++) {
        int64_t column[2] = {i, 0};
        test_element_set_int(TSR_INT32, test_tensor_at(&in[0], column), 100 * (i + 1));
    }
    for (int64_t i = 0; i < 4; i++) {
        int64_t row[2] = {0, i};
        test_element_set_int(TSR_INT32, test_tensor_at(&in[1], row), i);
    }
    tsr_elementwise_attrs attrs = attrs_mode(0);
    CHECK_INT(test_run(TSR_OP_ADD, TSR_INT32, &out, in, 2, &attrs), TSR_OK);
    for (int64_t r = 0; r < 3; r++) {
        for (int64_t c = 0; c < 4; c++) {
            int64_t index[2] = {r, c};
            CHECK_INT(test_element_int(TSR_INT32, test_tensor_at(&out, index)), 100 * (r + 1) + c);
        }
    }
    test_tensor_free(&in[0]);
    test_tensor_free(&in[1]);
    test_tensor_free(&out);
}

static void elementwise_in_place_reads_before_writing(void)
{
    test_current = "elementwise_in_place_reads_before_writing";
    const double a[] = {1.0, 2.0, 3.0};
    const double b[] = {10.0, 20.0, 30.0};
    test_tensor in[2];
    vector_of(&in[0], TSR_FLOAT32, 3, a);
    vector_of(&in[1], TSR_FLOAT32, 3, b);
    tsr_elementwise_attrs attrs = attrs_mode(0);
    CHECK_INT(test_run(TSR_OP_MUL, TSR_FLOAT32, &in[0], in, 2, &attrs), TSR_OK);
    CHECK_INT(test_run(TSR_OP_SUB, TSR_FLOAT32, &in[1], in, 2, &attrs), TSR_OK);
    for (int64_t i = 0; i < 3; i++) {
        CHECK_SAME_DOUBLE(real_at(&in[0], i), a[i] * b[i]);
        CHECK_SAME_DOUBLE(real_at(&in[1], i), a[i] * b[i] - b[i]);
    }
    test_tensor_free(&in[0]);
    test_tensor_free(&in[1]);
}

/* A [2,3,4] view of a [4,2,3] tensor (permuted strides) copied out. */
static void copy_walks_permuted_3d_strides(void)
{
    test_current = "copy_walks_permuted_3d_strides";
    const int64_t shape[3] = {2, 3, 4};
    const int64_t permuted[3] = {3, 1, 6};
    test_tensor in, out;
    test_tensor_init(&in, TSR_INT16, 3, shape, permuted, 0, 24);
    test_tensor_init(&out, TSR_INT64, 3, shape, NULL, 0, 24);
    for (int64_t i = 0; i < 24; i++) {
        int64_t index[3] = {i / 12, i / 4 % 3, i % 4};
        test_element_set_int(TSR_INT16, test_tensor_at(&in, index), i - 12);
    }
    CHECK_INT(test_run(TSR_OP_COPY, TSR_INT16, &out, &in, 1, NULL), TSR_OK);
    for (int64_t i = 0; i < 24; i++) {
        /* out is contiguous: element i is at flat position i */
        CHECK_INT(test_element_int(TSR_INT64, out.memory + 8 * i), i - 12);
    }
    test_tensor_free(&in);
    test_tensor_free(&out);
}

static void zero_dim_tensor_is_one_element(void)
{
    test_current = "zero_dim_tensor_is_one_element";
    test_tensor in, out;
    test_tensor_init(&in, TSR_FLOAT64, 0, NULL, NULL, 0, 1);
    test_tensor_init(&out, TSR_FLOAT64, 0, NULL, NULL, 0, 1);
    test_element_set(TSR_FLOAT64, in.memory, -4.0, 0.0);
    CHECK_INT(test_run(TSR_OP_ABS, TSR_FLOAT64, &out, &in, 1, NULL), TSR_OK);
    CHECK_SAME_DOUBLE(test_element_real(TSR_FLOAT64, out.memory), 4.0);
    test_tensor_free(&in);
    test_tensor_free(&out);
}

static void empty_tensor_touches_nothing(void)
{
    test_current = "empty_tensor_touches_nothing";
    const int64_t shape[2] = {0, 3};
    tsr_tensor_desc in = {NULL, 0, TSR_INT64, 2, shape, shape};
    tsr_tensor_desc out = in;
    tsr_tensor_desc inputs[2] = {in, in};
    tsr_kernel_args args = {sizeof args, TSR_OP_FLOOR_DIVIDE, 2, 1, inputs, &out, NULL};
    const tsr_kernel_entry *e = test_find_kernel(TSR_OP_FLOOR_DIVIDE, TSR_INT64, TSR_INT64);
    CHECK_INT(e->fn(plugin.backend, &args), TSR_OK); /* no divisor to be zero */
}

static void mismatched_arguments_are_reported(void)
{
    test_current = "mismatched_arguments_are_reported";
    test_tensor a, b, out, wrong;
    test_tensor_vector(&a, TSR_FLOAT32, 3);
    test_tensor_vector(&b, TSR_FLOAT32, 2);
    test_tensor_vector(&out, TSR_FLOAT32, 3);
    test_tensor_vector(&wrong, TSR_FLOAT64, 3);
    test_tensor pair[2] = {a, b};
    CHECK_INT(test_run(TSR_OP_MAXIMUM, TSR_FLOAT32, &out, pair, 2, NULL), TSR_ERR_SHAPE);
    pair[1] = wrong;
    CHECK_INT(test_run(TSR_OP_MAXIMUM, TSR_FLOAT32, &out, pair, 2, NULL), TSR_ERR_DTYPE);
    CHECK_TRUE(strstr(test_last_error(), "float64") != NULL);
    test_tensor_free(&a);
    test_tensor_free(&b);
    test_tensor_free(&out);
    test_tensor_free(&wrong);
}

/* ------------------------------------------------------------------------ */
/* Arithmetic rules                                                          */
/* ------------------------------------------------------------------------ */

/* Runs a binary op over int vectors of `dtype`; returns the status. */
static int binary_ints(int32_t op, int32_t dtype, int32_t mode, int64_t n, const int64_t *a,
                       const int64_t *b, test_tensor *out)
{
    test_tensor in[2];
    vector_of_ints(&in[0], dtype, n, a);
    vector_of_ints(&in[1], dtype, n, b);
    test_tensor_vector(out, dtype, n);
    tsr_elementwise_attrs attrs = attrs_mode(mode);
    int status = test_run(op, dtype, out, in, 2, &attrs);
    test_tensor_free(&in[0]);
    test_tensor_free(&in[1]);
    return status;
}

static void floor_divide_min_by_minus_one_wraps(void)
{
    test_current = "floor_divide_min_by_minus_one_wraps";
    const int64_t a32[] = {INT32_MIN, 7, -7, 7, -7};
    const int64_t a64[] = {INT64_MIN, 7, -7, 7, -7};
    const int64_t b[] = {-1, 2, 2, -2, -2};
    const int64_t floored[] = {0, 3, -4, -4, 3};
    const int64_t rest[] = {0, 1, 1, -1, -1};
    test_tensor out;
    for (int w = 0; w < 2; w++) {
        int32_t dtype = w ? TSR_INT64 : TSR_INT32;
        const int64_t *a = w ? a64 : a32;
        CHECK_INT(binary_ints(TSR_OP_FLOOR_DIVIDE, dtype, 0, 5, a, b, &out), TSR_OK);
        CHECK_INT(int_at(&out, 0), a[0]);
        for (int64_t i = 1; i < 5; i++) {
            CHECK_INT(int_at(&out, i), floored[i]);
        }
        test_tensor_free(&out);
        CHECK_INT(binary_ints(TSR_OP_REMAINDER, dtype, 0, 5, a, b, &out), TSR_OK);
        for (int64_t i = 0; i < 5; i++) {
            CHECK_INT(int_at(&out, i), rest[i]); /* the divisor's sign */
        }
        test_tensor_free(&out);
        CHECK_INT(binary_ints(TSR_OP_DIV, dtype, TSR_ROUND_TRUNC, 5, a, b, &out), TSR_OK);
        CHECK_INT(int_at(&out, 0), a[0]);
        CHECK_INT(int_at(&out, 2), -3);
        test_tensor_free(&out);
    }
}

static void integer_division_by_zero_fails_before_writing(void)
{
    test_current = "integer_division_by_zero_fails_before_writing";
    const int64_t a[] = {1, 2, 3};
    const int64_t b[] = {1, 0, 1};
    const int32_t ops[] = {TSR_OP_FLOOR_DIVIDE, TSR_OP_REMAINDER, TSR_OP_DIV, TSR_OP_DIV};
    const int32_t modes[] = {0, 0, TSR_ROUND_TRUNC, TSR_ROUND_FLOOR};
    for (int k = 0; k < 4; k++) {
        test_tensor out;
        test_clear_error();
        CHECK_INT(binary_ints(ops[k], TSR_UINT8, modes[k], 3, a, b, &out), TSR_ERR_VALUE);
        CHECK_TRUE(strcmp(test_last_error(), "division by zero") == 0);
        CHECK_INT(int_at(&out, 0), 0xab); /* untouched */
        test_tensor_free(&out);
    }
}

static void division_modes_outside_pytorch_are_refused(void)
{
    test_current = "division_modes_outside_pytorch_are_refused";
    const int64_t a[] = {1};
    test_tensor out;
    CHECK_INT(binary_ints(TSR_OP_DIV, TSR_INT64, TSR_ROUND_NONE, 1, a, a, &out), TSR_ERR_DTYPE);
    test_tensor_free(&out);
    test_tensor in[2];
    test_tensor_vector(&in[0], TSR_COMPLEX64, 1);
    test_tensor_vector(&in[1], TSR_COMPLEX64, 1);
    test_tensor_vector(&out, TSR_COMPLEX64, 1);
    tsr_elementwise_attrs attrs = attrs_mode(TSR_ROUND_FLOOR);
    CHECK_INT(test_run(TSR_OP_DIV, TSR_COMPLEX64, &out, in, 2, &attrs), TSR_ERR_DTYPE);
    attrs.mode = 7;
    CHECK_INT(test_run(TSR_OP_DIV, TSR_COMPLEX64, &out, in, 2, &attrs), TSR_ERR_INVALID_ARGUMENT);
    test_tensor_free(&in[0]);
    test_tensor_free(&in[1]);
    test_tensor_free(&out);
}

static void floor_divide_keeps_signed_zeros_and_ieee_division_by_zero(void)
{
    test_current = "floor_divide_keeps_signed_zeros_and_ieee_division_by_zero";
    const double a[] = {-0.0, 5.0, -5.0, 0.0, 1.0};
    const double b[] = {3.0, -0.0, INFINITY, -INFINITY, -INFINITY};
    const double expected[] = {-0.0, -INFINITY, -1.0, -0.0, -1.0};
    test_tensor in[2], out;
    vector_of(&in[0], TSR_FLOAT64, 5, a);
    vector_of(&in[1], TSR_FLOAT64, 5, b);
    test_tensor_vector(&out, TSR_FLOAT64, 5);
    CHECK_INT(test_run(TSR_OP_FLOOR_DIVIDE, TSR_FLOAT64, &out, in, 2, NULL), TSR_OK);
    for (int64_t i = 0; i < 5; i++) {
        CHECK_SAME_DOUBLE(real_at(&out, i), expected[i]);
    }
    CHECK_INT(test_run(TSR_OP_REMAINDER, TSR_FLOAT64, &out, in, 2, NULL), TSR_OK);
    CHECK_SAME_DOUBLE(real_at(&out, 4), -INFINITY); /* 1 % -inf moves into the divisor's sign */
    test_tensor_free(&in[0]);
    test_tensor_free(&in[1]);
    test_tensor_free(&out);
}

static void maximum_and_clamp_propagate_nan(void)
{
    test_current = "maximum_and_clamp_propagate_nan";
    const double x[] = {NAN, 1.0, 5.0, 5.0};
    const double lo[] = {0.0, NAN, 0.0, 3.0};
    const double hi[] = {1.0, 2.0, NAN, 1.0};
    test_tensor in[3], out;
    vector_of(&in[0], TSR_BFLOAT16, 4, x);
    vector_of(&in[1], TSR_BFLOAT16, 4, lo);
    vector_of(&in[2], TSR_BFLOAT16, 4, hi);
    test_tensor_vector(&out, TSR_BFLOAT16, 4);
    CHECK_INT(test_run(TSR_OP_MAXIMUM, TSR_BFLOAT16, &out, in, 2, NULL), TSR_OK);
    CHECK_TRUE(isnan(real_at(&out, 0)) && isnan(real_at(&out, 1)));
    tsr_elementwise_attrs attrs = attrs_mode(TSR_CLAMP_HAS_MIN | TSR_CLAMP_HAS_MAX);
    CHECK_INT(test_run(TSR_OP_CLAMP, TSR_BFLOAT16, &out, in, 3, &attrs), TSR_OK);
    CHECK_TRUE(isnan(real_at(&out, 0)) && isnan(real_at(&out, 1)) && isnan(real_at(&out, 2)));
    CHECK_SAME_DOUBLE(real_at(&out, 3), 1.0); /* min above max gives max */
    for (int k = 0; k < 3; k++) {
        test_tensor_free(&in[k]);
    }
    test_tensor_free(&out);
}

static void integer_arithmetic_wraps(void)
{
    test_current = "integer_arithmetic_wraps";
    const int64_t a[] = {-128, 127, 3, -1, 2};
    const int64_t b[] = {1, 1, 5, -3, 7};
    test_tensor out;
    CHECK_INT(binary_ints(TSR_OP_MUL, TSR_INT8, 0, 5, a, a, &out), TSR_OK);
    CHECK_INT(int_at(&out, 0), 0);
    CHECK_INT(int_at(&out, 1), 1);
    test_tensor_free(&out);
    CHECK_INT(binary_ints(TSR_OP_POW, TSR_INT8, 0, 5, a, b, &out), TSR_OK);
    CHECK_INT(int_at(&out, 2), -13); /* 243 wraps */
    CHECK_INT(int_at(&out, 3), -1);  /* (-1)^-3 */
    CHECK_INT(int_at(&out, 4), -128);
    test_tensor_free(&out);
    test_tensor in, neg;
    vector_of_ints(&in, TSR_INT8, 5, a);
    test_tensor_vector(&neg, TSR_INT8, 5);
    CHECK_INT(test_run(TSR_OP_ABS, TSR_INT8, &neg, &in, 1, NULL), TSR_OK);
    CHECK_INT(int_at(&neg, 0), -128);
    CHECK_INT(test_run(TSR_OP_NEG, TSR_INT8, &neg, &in, 1, NULL), TSR_OK);
    CHECK_INT(int_at(&neg, 0), -128);
    test_tensor_free(&in);
    test_tensor_free(&neg);
}

static void add_alpha_is_rounded_to_the_dtype_and_wraps(void)
{
    test_current = "add_alpha_is_rounded_to_the_dtype_and_wraps";
    const int64_t a[] = {250, 1};
    const int64_t b[] = {3, 2};
    test_tensor in[2], out;
    vector_of_ints(&in[0], TSR_UINT8, 2, a);
    vector_of_ints(&in[1], TSR_UINT8, 2, b);
    test_tensor_vector(&out, TSR_UINT8, 2);
    tsr_elementwise_attrs attrs = {sizeof attrs, 0, {{TSR_SCALAR_INT, 0, {.i = -1}}, {0}}};
    CHECK_INT(test_run(TSR_OP_ADD, TSR_UINT8, &out, in, 2, &attrs), TSR_OK);
    CHECK_INT(int_at(&out, 0), 247);
    CHECK_INT(int_at(&out, 1), 255);
    CHECK_INT(test_run(TSR_OP_SUB, TSR_UINT8, &out, in, 2, &attrs), TSR_OK);
    CHECK_INT(int_at(&out, 0), 253);
    for (int k = 0; k < 2; k++) {
        test_tensor_free(&in[k]);
    }
    test_tensor_free(&out);
}

static void fill_converts_like_copy(void)
{
    test_current = "fill_converts_like_copy";
    test_tensor out;
    test_tensor_vector(&out, TSR_UINT8, 3);
    tsr_elementwise_attrs attrs = {sizeof attrs, 0, {{TSR_SCALAR_FLOAT, 0, {.f = 300.7}}, {0}}};
    CHECK_INT(test_run(TSR_OP_FILL, TSR_UINT8, &out, NULL, 0, &attrs), TSR_OK);
    CHECK_INT(int_at(&out, 2), 44);
    CHECK_INT(test_run(TSR_OP_FILL, TSR_UINT8, &out, NULL, 0, NULL), TSR_ERR_INVALID_ARGUMENT);
    test_tensor_free(&out);
}

/* out = a @ b written over a itself, then out = c + a @ b over c: the
 * kernel computes into scratch memory where the output overlaps a or b. */
static void matmul_output_may_alias_an_input(void)
{
    test_current = "matmul_output_may_alias_an_input";
    const int64_t shape[2] = {2, 2};
    const double a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8}, c[] = {0.5, -1, 100, 2};
    test_tensor in[3];
    for (int k = 0; k < 3; k++) {
        test_tensor_init(&in[k], TSR_FLOAT64, 2, shape, NULL, 0, 4);
        for (int64_t i = 0; i < 4; i++) {
            int64_t index[2] = {i / 2, i % 2};
            const double *v = k == 0 ? a : k == 1 ? b : c;
            test_element_set(TSR_FLOAT64, test_tensor_at(&in[k], index), v[i], 0.0);
        }
    }
    tsr_elementwise_attrs attrs = {sizeof attrs, 1, {{TSR_SCALAR_INT, 0, {.i = 1}},
                                                    {TSR_SCALAR_INT, 0, {.i = 1}}}};
    CHECK_INT(test_run(TSR_OP_MATMUL, TSR_FLOAT64, &in[2], in, 3, &attrs), TSR_OK);
    const double with_c[] = {19.5, 21, 143, 52};
    for (int64_t i = 0; i < 4; i++) {
        int64_t index[2] = {i / 2, i % 2};
        CHECK_SAME_DOUBLE(test_element_real(TSR_FLOAT64, test_tensor_at(&in[2], index)),
                          with_c[i]);
    }
    attrs.mode = 0;
    CHECK_INT(test_run(TSR_OP_MATMUL, TSR_FLOAT64, &in[0], in, 2, &attrs), TSR_OK);
    const double product[] = {19, 22, 43, 50};
    for (int64_t i = 0; i < 4; i++) {
        int64_t index[2] = {i / 2, i % 2};
        CHECK_SAME_DOUBLE(test_element_real(TSR_FLOAT64, test_tensor_at(&in[0], index)),
                          product[i]);
    }
    for (int k = 0; k < 3; k++) {
        test_tensor_free(&in[k]);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_libtessera_reference.so\n", argv[0]);
        return 2;
    }
    if (test_plugin_open(argv[1]) != 0) {
        return 1;
    }
    entry_refuses_other_major_abi();
    memory_zero_bytes_gives_distinct_aligned_handles();
    memory_copies_honour_offsets();
    copy_float_to_small_ints_truncates_then_wraps();
    copy_nan_and_out_of_range_give_int_min();
    copy_complex_to_bool_uses_real_part();
    half_rounds_ties_to_even();
    bfloat16_rounds_ties_to_even_and_overflows_to_inf();
    float64_to_half_rounds_through_float();
    int64_to_float32_rounds_once();
    add_reads_zero_strides();
    elementwise_in_place_reads_before_writing();
    copy_walks_permuted_3d_strides();
    zero_dim_tensor_is_one_element();
    empty_tensor_touches_nothing();
    mismatched_arguments_are_reported();
    floor_divide_min_by_minus_one_wraps();
    integer_division_by_zero_fails_before_writing();
    division_modes_outside_pytorch_are_refused();
    floor_divide_keeps_signed_zeros_and_ieee_division_by_zero();
    maximum_and_clamp_propagate_nan();
    integer_arithmetic_wraps();
    add_alpha_is_rounded_to_the_dtype_and_wraps();
    fill_converts_like_copy();
    matmul_output_may_alias_an_input();
    test_kernel_table_equals_pytorch_support();
    test_torch_cases();
    test_plugin_close();
    if (test_failures > 0) {
        printf("%d failure(s)\n", test_failures);
        return 1;
    }
    printf("all reference kernel tests passed\n");
    return 0;
}
