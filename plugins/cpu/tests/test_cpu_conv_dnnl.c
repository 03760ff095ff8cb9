/* The float32 and bfloat16 convolutions through oneDNN (conv_dnnl.c).
 *
 * Exactness: with small integer data every product and partial sum is an
 * integer below 2^24, so oneDNN's float32 accumulators hold the exact sum,
 * as the reference kernel's double does, and both round that value once:
 * the two kernels must agree bit for bit, which checks that every shape,
 * stride, group split, padding and dilation reaches oneDNN right, through
 * the reorders to and from its own layouts. Each call must run in oneDNN
 * (not fall back) when oneDNN loads. */
#include <stdlib.h>
#include <string.h>

#include "conv_test.h"
#include "cpu_dnnl.h"
#include "cpu_test.h"
#include "half.h"    /* tsr__ref_bfloat16_from_float */
#include "kernels.h" /* tsr__ref_kernel_convolution */

/* A buffer of small integers in `dtype` (float32 or bfloat16). */
static void *integers(int32_t dtype, int64_t n, uint64_t seed)
{
    float *f = malloc((size_t)n * sizeof *f + 4);
    test_fill_f32(f, n, seed, -3.0f, 4.0f);
    for (int64_t i = 0; i < n; i++) {
        f[i] = (float)(int)f[i];
    }
    if (dtype == TSR_FLOAT32) {
        return f;
    }
    uint16_t *h = malloc((size_t)n * sizeof *h + 2);
    for (int64_t i = 0; i < n; i++) {
        h[i] = tsr__ref_bfloat16_from_float(f[i]);
    }
    free(f);
    return h;
}

/* Each call must have run in oneDNN when oneDNN loads; says which. */
static void ran_dnnl(tsr__cpu_backend *backend, const geometry *g, int32_t op, int32_t dtype)
{
    (void)backend;
    const char *impl = tsr__cpu_dnnl_conv_last_impl();
    if (tsr__cpu_dnnl_available() && impl[0] == '\0') {
        TEST_FAIL("%s op %d dtype %d: went to the reference kernel, not oneDNN", g->name, op,
                  dtype);
    }
    printf("  %-26s op %d %-8s oneDNN: %s\n", g->name, op,
           dtype == TSR_FLOAT32 ? "float32" : "bfloat16", impl[0] ? impl : "(reference kernel)");
}

static void check_op(tsr__cpu_backend *backend, const geometry *g, int32_t op, int32_t dtype)
{
    conv_test_check_op(backend, g, op, dtype, dtype == TSR_FLOAT32 ? 4 : 2, integers, ran_dnnl);
}

static void convolutions_match_the_reference_bit_for_bit(void)
{
    tsr__cpu_backend *backends[2] = {test_backend(1, TSR__CPU_ISA_GENERIC),
                                     test_backend(2, TSR__CPU_ISA_GENERIC)};
    const int32_t ops[3] = {TSR_OP_CONVOLUTION, TSR_OP_CONVOLUTION_BACKWARD_DATA,
                            TSR_OP_CONVOLUTION_BACKWARD_WEIGHT};
    for (int t = 0; t < 2; t++) {
        for (size_t i = 0; i < sizeof GEOMETRIES / sizeof GEOMETRIES[0]; i++) {
            for (int o = 0; o < 3; o++) {
                check_op(backends[t], &GEOMETRIES[i], ops[o], TSR_FLOAT32);
                check_op(backends[t], &GEOMETRIES[i], ops[o], TSR_BFLOAT16);
            }
        }
    }
    tsr__cpu_backend_destroy(backends[0]);
    tsr__cpu_backend_destroy(backends[1]);
}

/* A negative padding_end (conv_transpose with output_padding past the
 * stride) is not oneDNN's: the reference kernel runs and is still right. */
static void negative_padding_end_goes_to_the_reference_kernel(void)
{
    tsr__cpu_backend *backend = test_backend(1, TSR__CPU_ISA_GENERIC);
    geometry g = {"negative_padding_end", 1, 1, 1, 1, 1, {6}, {2}, {1}, {0}, {-1}, {3}, 0};
    int64_t image[3] = {1, 1, 6}, weight[3] = {1, 1, 2}, win[3] = {1, 1, windows(&g, 0)};
    float *y = integers(TSR_FLOAT32, win[2], 5), *w = integers(TSR_FLOAT32, 2, 6);
    float got[6], expected[6];
    int64_t s0[3], s1[3], s2[3], s3[3];
    tsr_tensor_desc in[2] = {dense(y, TSR_FLOAT32, 3, win, s0),
                             dense(w, TSR_FLOAT32, 3, weight, s1)};
    tsr_tensor_desc out = dense(got, TSR_FLOAT32, 3, image, s2);
    tsr_tensor_desc ref = dense(expected, TSR_FLOAT32, 3, image, s3);
    tsr_conv_attrs attrs = {.struct_size = sizeof attrs,
                            .spatial_ndim = 1,
                            .groups = 1,
                            .kernel = {2},
                            .stride = {1},
                            .padding = {0},
                            .padding_end = {-1},
                            .dilation = {3}};
    tsr_kernel_args args = {sizeof args, TSR_OP_CONVOLUTION_BACKWARD_DATA, 2, 1, in, &ref, &attrs};
    CHECK_OK(tsr__ref_kernel_convolution(backend, &args));
    CHECK_OK(test_run(backend, TSR_OP_CONVOLUTION_BACKWARD_DATA, TSR_FLOAT32, TSR_FLOAT32, in, 2,
                      &out, 1, &attrs));
    CHECK_TRUE(tsr__cpu_dnnl_conv_last_impl()[0] == '\0');
    CHECK_SAME_BITS("negative padding_end", got, expected, 6, 4);
    CHECK_TRUE(expected[5] == 0.0f); /* position 5 is in no window */
    free(y);
    free(w);
    tsr__cpu_backend_destroy(backend);
}

int main(void)
{
    RUN_TEST(convolutions_match_the_reference_bit_for_bit);
    RUN_TEST(negative_padding_end_goes_to_the_reference_kernel);
    return test_finish();
}
