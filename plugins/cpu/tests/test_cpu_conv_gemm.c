/* The float64 convolutions through im2col and OpenBLAS's dgemm
 * (conv_gemm.c).
 *
 * Exactness: with small integer data every product and partial sum is an
 * integer far below 2^53, so dgemm's sums are exact in any order, as the
 * reference kernel's are: the two kernels must agree bit for bit, which
 * checks that every shape, stride, group split, padding and dilation reaches
 * im2col, col2im and dgemm right (a channels-last image included). */
#include <stdlib.h>
#include <string.h>

#include "conv_test.h"
#include "cpu_test.h"
#include "kernels.h" /* tsr__ref_kernel_convolution */

/* A buffer of small integers as float64. */
static void *integers(int32_t dtype, int64_t n, uint64_t seed)
{
    (void)dtype;
    double *f = malloc((size_t)n * sizeof *f + 8);
    test_fill_f64(f, n, seed, -3.0, 4.0);
    for (int64_t i = 0; i < n; i++) {
        f[i] = (double)(int)f[i];
    }
    return f;
}

/* The table's float64 rows are the im2col + dgemm kernel, not the reference's. */
static void ran_gemm(tsr__cpu_backend *backend, const geometry *g, int32_t op, int32_t dtype)
{
    (void)g;
    CHECK_INT(tsr__cpu_kernel_is_reference(backend, op, dtype, dtype), 0);
}

static void check_op(tsr__cpu_backend *backend, const geometry *g, int32_t op, int32_t dtype)
{
    conv_test_check_op(backend, g, op, dtype, sizeof(double), integers, ran_gemm);
}

static void float64_convolutions_match_the_reference_bit_for_bit(void)
{
    tsr__cpu_backend *backends[2] = {test_backend(1, TSR__CPU_ISA_GENERIC),
                                     test_backend(2, TSR__CPU_ISA_GENERIC)};
    const int32_t ops[3] = {TSR_OP_CONVOLUTION, TSR_OP_CONVOLUTION_BACKWARD_DATA,
                            TSR_OP_CONVOLUTION_BACKWARD_WEIGHT};
    for (int t = 0; t < 2; t++) {
        for (size_t i = 0; i < sizeof GEOMETRIES / sizeof GEOMETRIES[0]; i++) {
            for (int o = 0; o < 3; o++) {
                check_op(backends[t], &GEOMETRIES[i], ops[o], TSR_FLOAT64);
            }
        }
    }
    tsr__cpu_backend_destroy(backends[0]);
    tsr__cpu_backend_destroy(backends[1]);
}

int main(void)
{
    RUN_TEST(float64_convolutions_match_the_reference_bit_for_bit);
    return test_finish();
}
