/* A small assertion kit for tessera's tests: each failed check prints the
 * expression, both values and the library's last error, and the test keeps
 * going so one run shows every failure. */
#ifndef TSR_TESTS_CHECK_H
#define TSR_TESTS_CHECK_H

#include <tessera/tessera.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK_FAIL_(...)                                                                  \
    do {                                                                                  \
        check_failures++;                                                                 \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                   \
        fprintf(stderr, __VA_ARGS__);                                                     \
        fprintf(stderr, "\n");                                                            \
    } while (0)

/* The call must succeed. */
#define CHECK_OK(call)                                                                    \
    do {                                                                                  \
        check_count++;                                                                    \
        int st_ = (call);                                                                 \
        if (st_ != TSR_OK)                                                                \
            CHECK_FAIL_("%s returned %s: %s", #call, tsr_status_name(st_), tsr_last_error()); \
    } while (0)

/* The call must fail with `status` and a message containing `fragment`. */
#define CHECK_ERROR(call, status, fragment)                                               \
    do {                                                                                  \
        check_count++;                                                                    \
        int st_ = (call);                                                                 \
        if (st_ != (status))                                                              \
            CHECK_FAIL_("%s returned %s, expected %s (message: %s)", #call,               \
                        tsr_status_name(st_), tsr_status_name(status), tsr_last_error()); \
        else if (!strstr(tsr_last_error(), (fragment)))                                   \
            CHECK_FAIL_("%s: message \"%s\" lacks \"%s\"", #call, tsr_last_error(),        \
                        (fragment));                                                      \
    } while (0)

#define CHECK_INT(actual, expected)                                                       \
    do {                                                                                  \
        check_count++;                                                                    \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                   \
        if (a_ != e_)                                                                     \
            CHECK_FAIL_("%s is %lld, expected %lld", #actual, a_, e_);                    \
    } while (0)

#define CHECK_TRUE(cond)                                                                  \
    do {                                                                                  \
        check_count++;                                                                    \
        if (!(cond))                                                                      \
            CHECK_FAIL_("expected %s", #cond);                                            \
    } while (0)

#define CHECK_STR(actual, expected)                                                       \
    do {                                                                                  \
        check_count++;                                                                    \
        const char *a_ = (actual), *e_ = (expected);                                      \
        if (!a_ || strcmp(a_, e_) != 0)                                                   \
            CHECK_FAIL_("%s is \"%s\", expected \"%s\"", #actual, a_ ? a_ : "(null)", e_);  \
    } while (0)

/* Exact float comparison where NaN equals NaN; -0 and +0 differ when the
 * caller asks for bitwise equality through `signed_zero`. */
#define CHECK_DOUBLE(actual, expected, tolerance)                                         \
    do {                                                                                  \
        check_count++;                                                                    \
        double a_ = (actual), e_ = (expected);                                            \
        bool same_ = (isnan(a_) && isnan(e_)) || a_ == e_ || fabs(a_ - e_) <= (tolerance); \
        if (!same_)                                                                       \
            CHECK_FAIL_("%s is %.17g, expected %.17g", #actual, a_, e_);                  \
    } while (0)

#define RUN_TEST(fn)                                                                      \
    do {                                                                                  \
        int before_ = check_failures;                                                     \
        fn();                                                                             \
        fprintf(stderr, "%s %s\n", check_failures == before_ ? "ok  " : "FAIL", #fn);     \
    } while (0)

/* Tensors from host values on the default backend (NULL on failure, which
 * has already been counted). */
static inline tsr_tensor *make_tensor(tsr_dtype dtype, int ndim, const int64_t *shape,
                                       const void *values, size_t bytes)
{
    tsr_tensor *t = NULL;
    CHECK_OK(tsr_from_host(values, bytes, ndim, shape, dtype, NULL, &t));
    return t;
}

static inline tsr_tensor *make_f32(int ndim, const int64_t *shape, const float *values, size_t n)
{
    return make_tensor(TSR_FLOAT32, ndim, shape, values, n * sizeof(float));
}

static inline tsr_tensor *make_i64(int ndim, const int64_t *shape, const int64_t *values, size_t n)
{
    return make_tensor(TSR_INT64, ndim, shape, values, n * sizeof(int64_t));
}

static inline int check_summary(const char *suite)
{
    fprintf(stderr, "%s: %d checks, %d failed\n", suite, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
