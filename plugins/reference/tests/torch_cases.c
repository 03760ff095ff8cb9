/* Runs PyTorch's recorded answers (torch_cases.inc) through the plugin in
 * three layouts: contiguous, strided with gaps, and in place. Also checks
 * that the kernel table lists exactly the triples PyTorch supports. */
#include "torch_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

typedef struct torch_case {
    const char *label;
    int32_t op, dtype_in, dtype_out, mode;
    tsr_scalar scalar; /* alpha for add/sub, the value for fill */
    int32_t arity;
    int32_t count;
    const char *inputs[3]; /* hex of the raw elements */
    const char *expected;
    int exact;           /* bit-exact, beyond NaN payloads; otherwise within tolerance */
    tsr_scalar extra[2]; /* scalars[1] and [2] of ops with more parameters */
} torch_case;

typedef struct torch_triple {
    int32_t op, dtype_in, dtype_out;
} torch_triple;

#define ALPHA_NONE                                                                                 \
    {                                                                                              \
        TSR_SCALAR_INT, 0,                                                                         \
        {                                                                                          \
            .i = 1                                                                                 \
        }                                                                                          \
    }
#define ALPHA_INT(x)                                                                               \
    {                                                                                              \
        TSR_SCALAR_INT, 0,                                                                         \
        {                                                                                          \
            .i = (x)                                                                               \
        }                                                                                          \
    }
#define ALPHA_BOOL(x)                                                                              \
    {                                                                                              \
        TSR_SCALAR_BOOL, 0,                                                                        \
        {                                                                                          \
            .i = (x)                                                                               \
        }                                                                                          \
    }
#define ALPHA_FLOAT(x)                                                                             \
    {                                                                                              \
        TSR_SCALAR_FLOAT, 0,                                                                       \
        {                                                                                          \
            .f = (x)                                                                               \
        }                                                                                          \
    }
#define ALPHA_COMPLEX(re, im)                                                                      \
    {                                                                                              \
        TSR_SCALAR_COMPLEX, 0,                                                                     \
        {                                                                                          \
            .c = {(re), (im) }                                                                     \
        }                                                                                          \
    }
#define FILL_INT ALPHA_INT
#define FILL_BOOL ALPHA_BOOL
#define FILL_FLOAT ALPHA_FLOAT
#define FILL_COMPLEX ALPHA_COMPLEX

#include "torch_cases.inc"

enum { COUNT_OF_CASES = sizeof torch_cases / sizeof torch_cases[0] };
enum { CONTIGUOUS, STRIDED, IN_PLACE, LAYOUT_COUNT };
static const char *const layout_names[] = {"contiguous", "strided", "in place"};

static void hex_decode(const char *hex, unsigned char *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned value;
        sscanf(hex + 2 * i, "%2x", &value);
        out[i] = (unsigned char)value;
    }
}

static int32_t input_dtype(const torch_case *c, int32_t k)
{
    return c->op == TSR_OP_WHERE && k == 0 ? TSR_BOOL : c->dtype_in;
}

/* Relative tolerance for non-exact cases: a few units in the last place. */
static double tolerance(int32_t dtype)
{
    switch (dtype) {
    case TSR_FLOAT16:
        return 0x1p-9;
    case TSR_BFLOAT16:
        return 0x1p-6;
    case TSR_FLOAT32:
    case TSR_COMPLEX64:
        return 0x1p-20;
    default:
        return 0x1p-48;
    }
}

static int close_enough(double actual, double expected, double scale, double tol, int exact,
                        int check_zero_sign)
{
    if (isnan(actual) || isnan(expected)) {
        return isnan(actual) && isnan(expected);
    }
    if (actual == expected) {
        return !check_zero_sign || signbit(actual) == signbit(expected);
    }
    if (exact || isinf(actual) || isinf(expected)) {
        return 0;
    }
    return fabs(actual - expected) <= tol * scale;
}

static int element_matches(const torch_case *c, const unsigned char *actual,
                           const unsigned char *expected, double input_real)
{
    int32_t dtype = c->dtype_out;
    size_t size = test_dtype_size(dtype);
    if (dtype <= TSR_INT64) {
        return memcmp(actual, expected, size) == 0;
    }
    double re = test_element_real(dtype, expected);
    double im = test_element_imag(dtype, expected);
    double scale = fmax(fmax(fabs(re), fabs(im)), 0x1p-1022);
    if (c->op == TSR_OP_GELU) {
        /* x (1 + erf(x/sqrt 2)) / 2 cancels for negative x: PyTorch, computing
         * in float (bfloat16 in its scalar path), loses digits relative to x. */
        scale = fmax(scale, fabs(input_real));
    }
    double tol = tolerance(dtype);
    /* Complex signed zeros differ between PyTorch's own code paths. */
    int zero_sign = dtype != TSR_COMPLEX64 && dtype != TSR_COMPLEX128;
    return close_enough(test_element_real(dtype, actual), re, scale, tol, c->exact, zero_sign) &&
           close_enough(test_element_imag(dtype, actual), im, scale, tol, c->exact, zero_sign);
}

static void print_element(int32_t dtype, const unsigned char *element)
{
    if (dtype <= TSR_INT64) {
        fprintf(stderr, "%lld", (long long)test_element_int(dtype, element));
    } else if (dtype >= TSR_COMPLEX64) {
        fprintf(stderr, "(%.17g, %.17g)", test_element_real(dtype, element),
                test_element_imag(dtype, element));
    } else {
        fprintf(stderr, "%.17g", test_element_real(dtype, element));
    }
}

typedef struct case_buffers {
    test_tensor out;
    test_tensor in[3];
    unsigned char *expected;
} case_buffers;

/* Builds the tensors of one case in one layout and fills the inputs. */
static void case_setup(const torch_case *c, int layout, case_buffers *b)
{
    int64_t n = c->count;
    int64_t stride = layout == STRIDED ? 2 : 1;
    int64_t offset = layout == STRIDED ? 1 : 0;
    size_t storage = (size_t)(n * stride + offset);
    for (int32_t k = 0; k < c->arity; k++) {
        int32_t dtype = input_dtype(c, k);
        size_t size = test_dtype_size(dtype);
        test_tensor_init(&b->in[k], dtype, 1, &n, &stride, offset, storage);
        unsigned char *raw = malloc(size * (size_t)n + 1);
        hex_decode(c->inputs[k], raw, size * (size_t)n);
        for (int64_t i = 0; i < n; i++) {
            memcpy(test_tensor_at(&b->in[k], &i), raw + (size_t)i * size, size);
        }
        free(raw);
    }
    test_tensor_init(&b->out, c->dtype_out, 1, &n, &stride, offset, storage);
    b->expected = malloc(test_dtype_size(c->dtype_out) * (size_t)n + 1);
    hex_decode(c->expected, b->expected, test_dtype_size(c->dtype_out) * (size_t)n);
}

static void case_teardown(const torch_case *c, case_buffers *b)
{
    for (int32_t k = 0; k < c->arity; k++) {
        test_tensor_free(&b->in[k]);
    }
    test_tensor_free(&b->out);
    free(b->expected);
}

/* The input that serves as output IN_PLACE: the first of the output's
 * dtype; -1 when there is none. */
static int32_t in_place_input(const torch_case *c)
{
    for (int32_t k = 0; k < c->arity; k++) {
        if (input_dtype(c, k) == c->dtype_out) {
            return k;
        }
    }
    return -1;
}

static int report_mismatch(const torch_case *c, int layout, const case_buffers *b, int64_t i,
                           const unsigned char *actual)
{
    size_t size = test_dtype_size(c->dtype_out);
    fprintf(stderr, "FAIL torch case %s %s %s->%s mode %d (%s) element %lld: inputs", c->label,
            test_op_name(c->op), test_dtype_name(c->dtype_in), test_dtype_name(c->dtype_out),
            (int)c->mode, layout_names[layout], (long long)i);
    for (int32_t k = 0; k < c->arity; k++) {
        fprintf(stderr, " ");
        size_t in_size = test_dtype_size(input_dtype(c, k));
        unsigned char raw[16];
        hex_decode(c->inputs[k] + 2 * in_size * (size_t)i, raw, in_size);
        print_element(input_dtype(c, k), raw);
    }
    fprintf(stderr, ": got ");
    print_element(c->dtype_out, actual);
    fprintf(stderr, ", PyTorch gives ");
    print_element(c->dtype_out, b->expected + (size_t)i * size);
    fprintf(stderr, "\n");
    return 1;
}

/* Input 0 of element i, as recorded (the in-place run overwrites it). */
static double input_real(const torch_case *c, int64_t i)
{
    size_t size = test_dtype_size(input_dtype(c, 0));
    unsigned char raw[16];
    hex_decode(c->inputs[0] + 2 * size * (size_t)i, raw, size);
    return test_element_real(input_dtype(c, 0), raw);
}

/* Returns the number of mismatching elements (at most a few are printed). */
static int run_case(const torch_case *c, int layout)
{
    case_buffers b;
    case_setup(c, layout, &b);
    const test_tensor *out = &b.out;
    if (layout == IN_PLACE) {
        out = &b.in[in_place_input(c)];
    }
    tsr_elementwise_attrs attrs = {sizeof attrs, c->mode, {c->scalar, c->extra[0], c->extra[1]}};
    int status = test_run(c->op, c->dtype_in, out, b.in, c->arity, &attrs);
    int mismatches = 0;
    if (status != TSR_OK) {
        fprintf(stderr, "FAIL torch case %s %s %s->%s (%s): status %d: %s\n", c->label,
                test_op_name(c->op), test_dtype_name(c->dtype_in), test_dtype_name(c->dtype_out),
                layout_names[layout], status, test_last_error());
        mismatches = 1;
    }
    size_t size = test_dtype_size(c->dtype_out);
    for (int64_t i = 0; i < c->count && status == TSR_OK; i++) {
        const unsigned char *actual = test_tensor_at(out, &i);
        double input = c->arity > 0 ? input_real(c, i) : 0.0;
        if (!element_matches(c, actual, b.expected + (size_t)i * size, input) && mismatches++ < 4) {
            report_mismatch(c, layout, &b, i, actual);
        }
        /* The strided layout's gaps must stay untouched. */
        if (layout == STRIDED && out->memory[(size_t)(2 * i) * size] != 0xab) {
            fprintf(stderr, "FAIL %s: wrote into a gap before element %lld\n", c->label,
                    (long long)i);
            mismatches++;
        }
    }
    case_teardown(c, &b);
    return mismatches;
}

void test_torch_cases(void)
{
    test_current = "torch_cases";
    int failed_cases = 0;
    int runs = 0;
    for (int i = 0; i < COUNT_OF_CASES; i++) {
        const torch_case *c = &torch_cases[i];
        for (int layout = 0; layout < LAYOUT_COUNT; layout++) {
            if (layout == IN_PLACE && in_place_input(c) < 0) {
                continue;
            }
            runs++;
            if (run_case(c, layout) > 0) {
                failed_cases++;
            }
        }
    }
    printf("torch cases: %d runs of %d cases, %d failed\n", runs, (int)COUNT_OF_CASES,
           failed_cases);
    test_failures += failed_cases;
}

static int is_supported(const tsr_kernel_entry *e)
{
    for (size_t i = 0; i < sizeof torch_supported / sizeof torch_supported[0]; i++) {
        const torch_triple *t = &torch_supported[i];
        if (t->op == e->op && t->dtype_in == e->dtype_in && t->dtype_out == e->dtype_out) {
            return 1;
        }
    }
    return 0;
}

void test_kernel_table_equals_pytorch_support(void)
{
    test_current = "kernel_table_equals_pytorch_support";
    const uint32_t all = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE;
    for (size_t i = 0; i < sizeof torch_supported / sizeof torch_supported[0]; i++) {
        const torch_triple *t = &torch_supported[i];
        if (test_find_kernel(t->op, t->dtype_in, t->dtype_out) == NULL) {
            test_failures++;
            fprintf(stderr, "FAIL: PyTorch supports %s %s->%s, the table lacks it\n",
                    test_op_name(t->op), test_dtype_name(t->dtype_in),
                    test_dtype_name(t->dtype_out));
        }
    }
    for (size_t i = 0; i < plugin.kernel_count; i++) {
        const tsr_kernel_entry *e = &plugin.kernels[i];
        if (!is_supported(e)) {
            test_failures++;
            fprintf(stderr, "FAIL: the table lists %s %s->%s, PyTorch does not support it\n",
                    test_op_name(e->op), test_dtype_name(e->dtype_in),
                    test_dtype_name(e->dtype_out));
        }
        CHECK_INT(e->flags, all);
        CHECK_TRUE(test_find_kernel(e->op, e->dtype_in, e->dtype_out) == e); /* no duplicates */
    }
    CHECK_INT(plugin.kernel_count, sizeof torch_supported / sizeof torch_supported[0]);
}
