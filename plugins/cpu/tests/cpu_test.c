/* Support for the cpu backend's unit tests (see cpu_test.h). */
#include "cpu_test.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int test_failures;
int test_checks;

static _Thread_local char last_error[512];

static void test_log(int level, const char *plugin, const char *fmt, ...)
{
    (void)level;
    (void)plugin;
    (void)fmt;
}

static int test_set_error(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
    return status;
}

const tsr_host_api test_host = {
    .struct_size = sizeof(tsr_host_api),
    .abi_version = TSR_PLUGIN_ABI_VERSION,
    .log = test_log,
    .set_error = test_set_error,
};

const char *test_last_error(void)
{
    return last_error;
}

int test_finish(void)
{
    printf("%d checks, %d failures\n", test_checks, test_failures);
    return test_failures == 0 ? 0 : 1;
}

static int is_nan_bits(const unsigned char *p, size_t size)
{
    if (size == 4) {
        float f;
        memcpy(&f, p, 4);
        return isnan(f);
    }
    if (size == 8) {
        double d;
        memcpy(&d, p, 8);
        return isnan(d);
    }
    return 0;
}

void test_check_bits(const char *file, int line, const char *what, const void *a, const void *b,
                     int64_t count, size_t size)
{
    test_checks++;
    const unsigned char *pa = a, *pb = b;
    for (int64_t i = 0; i < count; i++) {
        const unsigned char *ea = pa + (size_t)i * size, *eb = pb + (size_t)i * size;
        if (memcmp(ea, eb, size) == 0 || (is_nan_bits(ea, size) && is_nan_bits(eb, size))) {
            continue;
        }
        test_failures++;
        if (size == 4) {
            float x, y;
            memcpy(&x, ea, 4);
            memcpy(&y, eb, 4);
            fprintf(stderr, "%s:%d: %s: element %lld is %.9g, expected %.9g\n", file, line, what,
                    (long long)i, x, y);
        } else if (size == 8) {
            double x, y;
            memcpy(&x, ea, 8);
            memcpy(&y, eb, 8);
            fprintf(stderr, "%s:%d: %s: element %lld is %.17g, expected %.17g\n", file, line, what,
                    (long long)i, x, y);
        } else {
            fprintf(stderr, "%s:%d: %s: element %lld differs\n", file, line, what, (long long)i);
        }
        return;
    }
}

tsr__cpu_backend *test_backend(int threads, tsr__cpu_isa isa)
{
    tsr__cpu_options options = {
        .threads = threads, .isa = (int)isa + 1, .cache_limit_bytes = (size_t)256 << 20};
    tsr__cpu_backend *backend = NULL;
    if (tsr__cpu_backend_create(&test_host, &options, &backend) != TSR_OK) {
        fprintf(stderr, "cannot create a cpu backend: %s\n", last_error);
        exit(2);
    }
    return backend;
}

int test_run(tsr__cpu_backend *backend, int32_t op, int32_t dtype_in, int32_t dtype_out,
             const tsr_tensor_desc *inputs, int32_t num_inputs, const tsr_tensor_desc *outputs,
             int32_t num_outputs, const void *attrs)
{
    for (size_t i = 0; i < backend->ref.entry_count; i++) {
        const tsr_kernel_entry *e = &backend->ref.entries[i];
        if (e->op == op && e->dtype_in == dtype_in && e->dtype_out == dtype_out) {
            tsr_kernel_args args = {.struct_size = sizeof args,
                                    .op = op,
                                    .num_inputs = num_inputs,
                                    .num_outputs = num_outputs,
                                    .inputs = inputs,
                                    .outputs = outputs,
                                    .attrs = attrs};
            return e->fn(backend, &args);
        }
    }
    snprintf(last_error, sizeof last_error, "no kernel for op %d (%d -> %d)", (int)op,
             (int)dtype_in, (int)dtype_out);
    return TSR_ERR_UNIMPLEMENTED;
}

tsr_tensor_desc test_desc(void *data, int32_t dtype, int32_t ndim, const int64_t *shape,
                          int64_t *strides)
{
    tsr_tensor_desc desc = {
        .data = data, .dtype = dtype, .ndim = ndim, .shape = shape, .strides = strides};
    return desc;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}

void test_fill_f32(float *x, int64_t n, uint64_t seed, float lo, float hi)
{
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0; i < n; i++) {
        double u = (double)(next_random(&state) >> 11) / 9007199254740992.0;
        x[i] = (float)(lo + (hi - lo) * u);
    }
}

void test_fill_f64(double *x, int64_t n, uint64_t seed, double lo, double hi)
{
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0; i < n; i++) {
        double u = (double)(next_random(&state) >> 11) / 9007199254740992.0;
        x[i] = lo + (hi - lo) * u;
    }
}

/* Floats mapped to integers that count representable values in order. */
static int64_t ordered_f32(float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    return i < 0 ? (int64_t)INT32_MIN - i : i;
}

static int64_t ordered_f64(double d)
{
    int64_t i;
    memcpy(&i, &d, 8);
    return i < 0 ? INT64_MIN - i : i;
}

int64_t test_ulps_f32(float a, float b)
{
    if (isnan(a) || isnan(b)) {
        return isnan(a) && isnan(b) ? 0 : INT64_MAX;
    }
    int64_t d = ordered_f32(a) - ordered_f32(b);
    return d < 0 ? -d : d;
}

int64_t test_ulps_f64(double a, double b)
{
    if (isnan(a) || isnan(b)) {
        return isnan(a) && isnan(b) ? 0 : INT64_MAX;
    }
    if (a == b) {
        return 0;
    }
    /* Differences beyond 2^62 ulps saturate; tests only compare small ones. */
    int64_t oa = ordered_f64(a), ob = ordered_f64(b);
    if ((oa < 0) != (ob < 0)) {
        return INT64_MAX;
    }
    int64_t d = oa - ob;
    return d < 0 ? -d : d;
}
