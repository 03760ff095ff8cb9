/* Support for the cpu backend's unit tests: a minimal host, backends with
 * pinned thread counts and SIMD sets, kernel calls through the table,
 * descriptors, deterministic data and checks that print both values. The
 * tests link the backend's objects directly (no dlopen, no core). */
#ifndef TSR_CPU_TEST_H
#define TSR_CPU_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <tessera/plugin.h>

#include "cpu_backend.h"

extern int test_failures;
extern int test_checks;

#define TEST_FAIL(...)                                                                             \
    do {                                                                                           \
        test_failures++;                                                                           \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                            \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n");                                                                     \
    } while (0)

#define CHECK_TRUE(cond)                                                                           \
    do {                                                                                           \
        test_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            TEST_FAIL("expected %s", #cond);                                                       \
        }                                                                                          \
    } while (0)

#define CHECK_INT(actual, expected)                                                                \
    do {                                                                                           \
        test_checks++;                                                                             \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                            \
        if (a_ != e_) {                                                                            \
            TEST_FAIL("%s is %lld, expected %lld", #actual, a_, e_);                               \
        }                                                                                          \
    } while (0)

#define CHECK_OK(call)                                                                             \
    do {                                                                                           \
        test_checks++;                                                                             \
        int st_ = (call);                                                                          \
        if (st_ != TSR_OK) {                                                                       \
            TEST_FAIL("%s returned %d: %s", #call, st_, test_last_error());                        \
        }                                                                                          \
    } while (0)

/* Two buffers of `count` elements of `size` bytes must hold the same bits
 * (NaNs of any payload count as equal); prints the first difference. */
#define CHECK_SAME_BITS(what, a, b, count, size)                                                   \
    test_check_bits(__FILE__, __LINE__, what, a, b, count, size)

#define RUN_TEST(fn)                                                                               \
    do {                                                                                           \
        int before_ = test_failures;                                                               \
        fn();                                                                                      \
        printf("%s %s\n", test_failures == before_ ? "ok  " : "FAIL", #fn);                        \
    } while (0)

/* Prints the summary; returns the process exit status. */
int test_finish(void);

void test_check_bits(const char *file, int line, const char *what, const void *a, const void *b,
                     int64_t count, size_t size);

/* ------------------------------------------------------------------------ */
/* Backends and kernels                                                      */
/* ------------------------------------------------------------------------ */

extern const tsr_host_api test_host;
const char *test_last_error(void);

/* A backend with exactly `threads` threads and `isa` (which must be
 * supported); aborts the test program when it cannot be made. */
tsr__cpu_backend *test_backend(int threads, tsr__cpu_isa isa);

/* Runs the table's kernel for (op, dtype_in, dtype_out) on the descriptors. */
int test_run(tsr__cpu_backend *backend, int32_t op, int32_t dtype_in, int32_t dtype_out,
             const tsr_tensor_desc *inputs, int32_t num_inputs, const tsr_tensor_desc *outputs,
             int32_t num_outputs, const void *attrs);

/* A descriptor over `data`; strides NULL means contiguous (filled into
 * the caller's `strides` array). */
tsr_tensor_desc test_desc(void *data, int32_t dtype, int32_t ndim, const int64_t *shape,
                          int64_t *strides);

/* ------------------------------------------------------------------------ */
/* Data                                                                      */
/* ------------------------------------------------------------------------ */

/* Deterministic values in [lo, hi). */
void test_fill_f32(float *x, int64_t n, uint64_t seed, float lo, float hi);
void test_fill_f64(double *x, int64_t n, uint64_t seed, double lo, double hi);

/* Distance in units in the last place between two floats (0 for equal,
 * both NaN, or +0/-0; INT64_MAX when only one is NaN). */
int64_t test_ulps_f32(float a, float b);
int64_t test_ulps_f64(double a, double b);

#endif /* TSR_CPU_TEST_H */
