/* The conformance runner's unit tests share one check: it prints where and
 * what failed, with a formatted explanation, counts the failure and leaves
 * the test function, whose later steps usually depend on the failed one. */
#ifndef TSR_CONFORMANCE_TESTS_CHECK_H
#define TSR_CONFORMANCE_TESTS_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: %s: check failed: %s\n  ", __FILE__, __LINE__, __func__,       \
                    #cond);                                                                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#endif /* TSR_CONFORMANCE_TESTS_CHECK_H */
