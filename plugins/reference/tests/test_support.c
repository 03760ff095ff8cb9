/* Host, plugin loading, tensors and assertions for the standalone test. */
#include "test_support.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

test_plugin plugin;
int test_failures;
const char *test_current = "";

/* ------------------------------------------------------------------------ */
/* Host                                                                      */
/* ------------------------------------------------------------------------ */

static char last_error[512];
static int last_status;
static void *library;

static void host_log(int level, const char *name, const char *fmt, ...)
{
    (void)level;
    (void)name;
    (void)fmt;
}

static int host_set_error(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
    last_status = status;
    return status;
}

const tsr_host_api test_host = {sizeof(tsr_host_api), TSR_PLUGIN_ABI_VERSION, host_log,
                                host_set_error};

const char *test_last_error(void)
{
    return last_error;
}

int test_last_status(void)
{
    return last_status;
}

void test_clear_error(void)
{
    last_error[0] = '\0';
    last_status = 0;
}

int test_plugin_open(const char *path)
{
    library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        return -1;
    }
    void *symbol = dlsym(library, TSR_PLUGIN_ENTRY_SYMBOL);
    memcpy(&plugin.entry, &symbol, sizeof plugin.entry); /* object to function pointer */
    if (plugin.entry == NULL) {
        fprintf(stderr, "%s exports no %s\n", path, TSR_PLUGIN_ENTRY_SYMBOL);
        return -1;
    }
    plugin.table = plugin.entry(&test_host, TSR_PLUGIN_ABI_VERSION);
    if (plugin.table == NULL || plugin.table->init(&test_host, &plugin.backend) != TSR_OK) {
        fprintf(stderr, "plugin refused to start: %s\n", last_error);
        return -1;
    }
    if (plugin.table->kernels(plugin.backend, &plugin.kernels, &plugin.kernel_count) != TSR_OK) {
        fprintf(stderr, "no kernel table: %s\n", last_error);
        return -1;
    }
    return 0;
}

void test_plugin_close(void)
{
    plugin.table->shutdown(plugin.backend);
    dlclose(library);
}

const tsr_kernel_entry *test_find_kernel(int32_t op, int32_t dtype_in, int32_t dtype_out)
{
    for (size_t i = 0; i < plugin.kernel_count; i++) {
        const tsr_kernel_entry *e = &plugin.kernels[i];
        if (e->op == op && e->dtype_in == dtype_in && e->dtype_out == dtype_out) {
            return e;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Names                                                                     */
/* ------------------------------------------------------------------------ */

static const size_t dtype_sizes[] = {
#define TEST_DTYPE_SIZE_(id, name, size) size,
    TSR_DTYPE_LIST(TEST_DTYPE_SIZE_)
#undef TEST_DTYPE_SIZE_
};

static const char *const dtype_names[] = {
#define TEST_DTYPE_NAME_(id, name, size) name,
    TSR_DTYPE_LIST(TEST_DTYPE_NAME_)
#undef TEST_DTYPE_NAME_
};

static const char *const op_names[] = {
#define TEST_OP_NAME_(id, name) name,
    TSR_OP_LIST(TEST_OP_NAME_)
#undef TEST_OP_NAME_
};

size_t test_dtype_size(int32_t dtype)
{
    return dtype_sizes[dtype];
}

const char *test_dtype_name(int32_t dtype)
{
    return dtype >= 0 && dtype < TSR_DTYPE_COUNT ? dtype_names[dtype] : "?";
}

const char *test_op_name(int32_t op)
{
    return op >= 0 && op < TSR_OP_COUNT ? op_names[op] : "?";
}

/* ------------------------------------------------------------------------ */
/* Tensors                                                                   */
/* ------------------------------------------------------------------------ */

void test_tensor_init(test_tensor *t, int32_t dtype, int32_t ndim, const int64_t *shape,
                      const int64_t *strides, int64_t offset_elements, size_t storage_elements)
{
    memset(t, 0, sizeof *t);
    int64_t stride = 1;
    for (int32_t d = ndim - 1; d >= 0; d--) {
        t->shape[d] = shape[d];
        t->strides[d] = strides != NULL ? strides[d] : stride;
        stride *= shape[d];
    }
    size_t size = test_dtype_size(dtype);
    t->bytes = storage_elements * size;
    void *handle = NULL;
    if (plugin.table->memory_alloc(plugin.backend, t->bytes, &handle) != TSR_OK) {
        fprintf(stderr, "memory_alloc(%zu) failed: %s\n", t->bytes, last_error);
        exit(2);
    }
    t->memory = handle;
    memset(t->memory, 0xab, t->bytes);
    t->desc = (tsr_tensor_desc){t->memory, offset_elements * (int64_t)size, dtype, ndim, t->shape,
                                t->strides};
}

void test_tensor_vector(test_tensor *t, int32_t dtype, int64_t n)
{
    test_tensor_init(t, dtype, 1, &n, NULL, 0, (size_t)n);
}

void test_tensor_free(test_tensor *t)
{
    plugin.table->memory_free(plugin.backend, t->memory);
    t->memory = NULL;
}

unsigned char *test_tensor_at(const test_tensor *t, const int64_t *index)
{
    int64_t offset = t->desc.byte_offset;
    for (int32_t d = 0; d < t->desc.ndim; d++) {
        offset += index[d] * t->strides[d] * (int64_t)test_dtype_size(t->desc.dtype);
    }
    return t->memory + offset;
}

int test_run(int32_t op, int32_t dtype_in, const test_tensor *out, const test_tensor *inputs,
             int32_t num_inputs, const tsr_elementwise_attrs *attrs)
{
    const tsr_kernel_entry *entry = test_find_kernel(op, dtype_in, out->desc.dtype);
    if (entry == NULL) {
        return TSR_ERR_UNIMPLEMENTED;
    }
    tsr_tensor_desc in[3];
    for (int32_t k = 0; k < num_inputs; k++) {
        in[k] = inputs[k].desc;
    }
    tsr_kernel_args args = {sizeof args, op, num_inputs, 1, in, &out->desc, attrs};
    return entry->fn(plugin.backend, &args);
}

/* ------------------------------------------------------------------------ */
/* Element values                                                            */
/* ------------------------------------------------------------------------ */

/* Independent of the plugin's half.c: plain arithmetic on the fields. */
static double half_value(uint16_t h)
{
    int exponent = (h >> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    double v = exponent == 0    ? ldexp(mantissa, -24)
               : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                : ldexp(mantissa + 1024, exponent - 25);
    return (h & 0x8000) ? -v : v;
}

static double bfloat16_value(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static double part(int32_t dtype, const void *element, int imag)
{
    const unsigned char *p = element;
    uint16_t h;
    float f[2];
    double d[2];
    switch (dtype) {
    case TSR_FLOAT16:
        memcpy(&h, p, 2);
        return imag ? 0.0 : half_value(h);
    case TSR_BFLOAT16:
        memcpy(&h, p, 2);
        return imag ? 0.0 : bfloat16_value(h);
    case TSR_FLOAT32:
        memcpy(f, p, 4);
        return imag ? 0.0 : f[0];
    case TSR_FLOAT64:
        memcpy(d, p, 8);
        return imag ? 0.0 : d[0];
    case TSR_COMPLEX64:
        memcpy(f, p, 8);
        return f[imag];
    case TSR_COMPLEX128:
        memcpy(d, p, 16);
        return d[imag];
    default:
        return imag ? 0.0 : (double)test_element_int(dtype, element);
    }
}

double test_element_real(int32_t dtype, const void *element)
{
    return part(dtype, element, 0);
}

double test_element_imag(int32_t dtype, const void *element)
{
    return part(dtype, element, 1);
}

int64_t test_element_int(int32_t dtype, const void *element)
{
    uint8_t u8;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    switch (dtype) {
    case TSR_BOOL:
    case TSR_UINT8:
        memcpy(&u8, element, 1);
        return u8;
    case TSR_INT8:
        memcpy(&i8, element, 1);
        return i8;
    case TSR_INT16:
        memcpy(&i16, element, 2);
        return i16;
    case TSR_INT32:
        memcpy(&i32, element, 4);
        return i32;
    case TSR_INT64:
        memcpy(&i64, element, 8);
        return i64;
    default:
        return (int64_t)test_element_real(dtype, element);
    }
}

/* Exact values only: the half types search their 65536 patterns. */
static uint16_t half_pattern(int32_t dtype, double value)
{
    for (uint32_t bits = 0; bits <= 0xffff; bits++) {
        double v =
            dtype == TSR_FLOAT16 ? half_value((uint16_t)bits) : bfloat16_value((uint16_t)bits);
        if ((v == value && signbit(v) == signbit(value)) || (isnan(v) && isnan(value))) {
            return (uint16_t)bits;
        }
    }
    fprintf(stderr, "%g is not a %s\n", value, test_dtype_name(dtype));
    exit(2);
}

void test_element_set(int32_t dtype, void *element, double re, double im)
{
    float f[2] = {(float)re, (float)im};
    double d[2] = {re, im};
    uint16_t h;
    switch (dtype) {
    case TSR_FLOAT16:
    case TSR_BFLOAT16:
        h = half_pattern(dtype, re);
        memcpy(element, &h, 2);
        break;
    case TSR_FLOAT32:
    case TSR_COMPLEX64:
        memcpy(element, f, dtype == TSR_FLOAT32 ? 4 : 8);
        break;
    case TSR_FLOAT64:
    case TSR_COMPLEX128:
        memcpy(element, d, dtype == TSR_FLOAT64 ? 8 : 16);
        break;
    default:
        test_element_set_int(dtype, element, (int64_t)re);
        break;
    }
}

void test_element_set_int(int32_t dtype, void *element, int64_t value)
{
    uint8_t u8 = (uint8_t)value;
    int16_t i16 = (int16_t)value;
    int32_t i32 = (int32_t)value;
    switch (dtype) {
    case TSR_BOOL:
        u8 = value != 0;
        memcpy(element, &u8, 1);
        break;
    case TSR_UINT8:
    case TSR_INT8:
        memcpy(element, &u8, 1);
        break;
    case TSR_INT16:
        memcpy(element, &i16, 2);
        break;
    case TSR_INT32:
        memcpy(element, &i32, 4);
        break;
    case TSR_INT64:
        memcpy(element, &value, 8);
        break;
    default:
        test_element_set(dtype, element, (double)value, 0.0);
        break;
    }
}

/* ------------------------------------------------------------------------ */
/* Assertions                                                                */
/* ------------------------------------------------------------------------ */

void test_check_int(int64_t actual, int64_t expected, const char *what, const char *file, int line)
{
    if (actual != expected) {
        test_failures++;
        fprintf(stderr, "FAIL %s (%s:%d): %s is %lld, expected %lld\n", test_current, file, line,
                what, (long long)actual, (long long)expected);
    }
}

void test_check_same_double(double actual, double expected, const char *what, const char *file,
                            int line)
{
    int same = (isnan(actual) && isnan(expected)) ||
               (actual == expected && signbit(actual) == signbit(expected));
    if (!same) {
        test_failures++;
        fprintf(stderr, "FAIL %s (%s:%d): %s is %.17g, expected %.17g\n", test_current, file, line,
                what, actual, expected);
    }
}
