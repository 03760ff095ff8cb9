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

/* Runs `op` with operands made from g through the table and through the
 * reference kernel and compares the outputs' bits. */
static void check_op(tsr__cpu_backend *backend, const geometry *g, int32_t op, int32_t dtype)
{
    int nd = g->nd, rank = 2 + nd;
    int64_t image[5] = {g->n, g->cin}, weight[5] = {g->cout, g->cin / g->groups},
            win[5] = {g->n, g->cout}, image_strides[5];
    for (int d = 0; d < nd; d++) {
        image[2 + d] = g->in[d];
        weight[2 + d] = g->k[d];
        win[2 + d] = windows(g, d);
    }
    /* channels-last image: C has stride 1, spatial dims follow row-major */
    int64_t step = g->cin;
    image_strides[1] = 1;
    for (int d = nd - 1; d >= 0; d--) {
        image_strides[2 + d] = step;
        step *= g->in[d];
    }
    image_strides[0] = step;
    size_t size = sizeof(double);
    void *x = integers(dtype, count(image, rank), 1), *w = integers(dtype, count(weight, rank), 2);
    void *y = integers(dtype, count(win, rank), 3), *b = integers(dtype, g->cout, 4);
    int64_t xs[5], ws[5], ys[5], bs[1];
    tsr_tensor_desc dx = g->transposed_image ? test_desc(x, dtype, rank, image, image_strides)
                                             : dense(x, dtype, rank, image, xs);
    tsr_tensor_desc dw = dense(w, dtype, rank, weight, ws);
    tsr_tensor_desc dy = dense(y, dtype, rank, win, ys);
    tsr_tensor_desc db = dense(b, dtype, 1, &g->cout, bs);
    tsr_conv_attrs attrs = {.struct_size = sizeof attrs, .spatial_ndim = nd, .groups = g->groups};
    for (int d = 0; d < nd; d++) {
        attrs.kernel[d] = g->k[d];
        attrs.stride[d] = g->stride[d];
        attrs.padding[d] = g->pad[d];
        attrs.padding_end[d] = g->pad_end[d];
        attrs.dilation[d] = g->dil[d];
    }
    tsr_tensor_desc inputs[3], output;
    int num_inputs = 2;
    if (op == TSR_OP_CONVOLUTION) {
        inputs[0] = dx, inputs[1] = dw, inputs[2] = db, output = dy, num_inputs = 3;
    } else if (op == TSR_OP_CONVOLUTION_BACKWARD_DATA) {
        inputs[0] = dy, inputs[1] = dw, output = dx;
    } else {
        inputs[0] = dy, inputs[1] = dx, output = dw;
    }
    int64_t out_count = count(output.shape, rank);
    void *expected = calloc((size_t)out_count + 1, size);
    void *got = malloc(((size_t)out_count + 1) * size);
    memset(got, 0xff, ((size_t)out_count + 1) * size); /* NaN: every element must be written */
    /* both kernels write fresh dense buffers of the output's shape */
    int64_t out_strides[5];
    tsr_tensor_desc ref_out = dense(expected, dtype, rank, output.shape, out_strides);
    tsr_tensor_desc cpu_out = dense(got, dtype, rank, output.shape, out_strides);
    tsr_kernel_args args = {sizeof args, op, num_inputs, 1, inputs, &ref_out, &attrs};
    CHECK_OK(tsr__ref_kernel_convolution(backend, &args));
    CHECK_OK(test_run(backend, op, dtype, dtype, inputs, num_inputs, &cpu_out, 1, &attrs));
    CHECK_INT(tsr__cpu_kernel_is_reference(backend, op, dtype, dtype), 0);
    CHECK_SAME_BITS(g->name, got, expected, out_count, size);
    free(x);
    free(w);
    free(y);
    free(b);
    free(expected);
    free(got);
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
