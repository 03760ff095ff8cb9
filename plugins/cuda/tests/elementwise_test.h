/* Shared by the two files of the cuda_elementwise host test. */
#ifndef TSR_CUDA_ELEMENTWISE_TEST_H
#define TSR_CUDA_ELEMENTWISE_TEST_H

#include <stdio.h>

#include "elem_table.h"

#include "../../reference/elementwise.h"

extern int failures;
extern long combinations; /* (op, dtype, attributes) runs compared */

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* Element bytes of one dtype: NaN, infinities, -0, subnormals, integer
 * extremes and ordinary values, made by the reference's storers. */
enum { POOL_MAX = 160 };
typedef struct pool {
    int count;
    unsigned char bytes[POOL_MAX][16];
} pool;
void pool_build(int32_t dtype, pool *p);

/* Counts a failure and prints the first few. */
void mismatch(const char *what, int op, int dtype, const unsigned char *want,
              const unsigned char *got, int size, const char *inputs);

void test_ops(void);
void test_bind_errors(void);

#endif
