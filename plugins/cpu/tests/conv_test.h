/* What the cpu convolution tests share: a convolution's geometry, the
 * geometries every kernel is checked on, and dense descriptors. The oneDNN
 * (float32, bfloat16) and im2col+dgemm (float64) tests run the same shapes
 * against the reference kernel. */
#ifndef TSR_CPU_CONV_TEST_H
#define TSR_CPU_CONV_TEST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"
#include "kernels.h" /* tsr__ref_kernel_convolution */

typedef struct geometry {
    const char *name;
    int nd;
    int64_t n, cin, cout, groups;
    int64_t in[3], k[3], stride[3], pad[3], pad_end[3], dil[3];
    int transposed_image; /* the image as a [N, spatial..., C] buffer viewed channels-first */
} geometry;

/* The number of output windows along spatial dim d. */
static int64_t windows(const geometry *g, int d)
{
    return (g->in[d] + g->pad[d] + g->pad_end[d] - g->dil[d] * (g->k[d] - 1) - 1) / g->stride[d] +
           1;
}

static int64_t count(const int64_t *shape, int rank)
{
    int64_t c = 1;
    for (int d = 0; d < rank; d++) {
        c *= shape[d];
    }
    return c;
}

/* A dense descriptor: row-major strides written into `strides`. */
static tsr_tensor_desc dense(void *data, int32_t dtype, int rank, const int64_t *shape,
                             int64_t *strides)
{
    int64_t step = 1;
    for (int d = rank - 1; d >= 0; d--) {
        strides[d] = step;
        step *= shape[d];
    }
    return test_desc(data, dtype, rank, shape, strides);
}

/* Plain, strided, dilated, grouped, depthwise, uneven padding, channels-last,
 * 1-d and 3-d convolutions, one with windows that see only padding. */
static const geometry GEOMETRIES[] = {
    {"conv2d_plain", 2, 2, 3, 4, 1, {7, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 0},
    {"conv2d_stride_dilation", 2, 1, 4, 6, 2, {9, 8}, {3, 2}, {2, 1}, {1, 0}, {1, 0}, {1, 2}, 0},
    {"conv2d_depthwise", 2, 2, 3, 6, 3, {6, 6}, {3, 3}, {1, 2}, {2, 1}, {2, 1}, {1, 1}, 0},
    {"conv2d_same_even_kernel", 2, 1, 2, 3, 1, {5, 6}, {4, 2}, {1, 1}, {1, 0}, {2, 1}, {1, 1}, 0},
    {"conv2d_channels_last", 2, 2, 8, 8, 1, {5, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1},
    {"conv1d", 1, 2, 3, 5, 1, {11}, {3}, {2}, {1}, {1}, {2}, 0},
    {"conv3d_padding_only_windows",
     3,
     1,
     2,
     3,
     1,
     {1, 1, 7},
     {1, 2, 3},
     {1, 2, 3},
     {2, 2, 0},
     {2, 2, 0},
     {1, 2, 1},
     0},
    {"conv3d", 3, 1, 2, 4, 2, {4, 5, 4}, {2, 3, 2}, {1, 2, 1}, {1, 0, 1}, {1, 0, 1}, {1, 1, 2}, 0},
};

/* Small integers of `dtype` (n elements, from `seed`): their sums are exact,
 * so kernels that add in different orders must agree bit for bit. */
typedef void *(*conv_test_values)(int32_t dtype, int64_t n, uint64_t seed);
/* Checks which implementation ran, after the table's call. */
typedef void (*conv_test_ran)(tsr__cpu_backend *backend, const geometry *g, int32_t op,
                              int32_t dtype);

/* Runs `op` with operands made from g through the table and through the
 * reference kernel and compares the outputs' bits (elements of `size`
 * bytes). */
static void conv_test_check_op(tsr__cpu_backend *backend, const geometry *g, int32_t op,
                               int32_t dtype, size_t size, conv_test_values integers,
                               conv_test_ran ran)
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
    ran(backend, g, op, dtype);
    CHECK_SAME_BITS(g->name, got, expected, out_count, size);
    free(x);
    free(w);
    free(y);
    free(b);
    free(expected);
    free(got);
}

#endif
