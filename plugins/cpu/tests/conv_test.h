/* What the cpu convolution tests share: a convolution's geometry, the
 * geometries every kernel is checked on, and dense descriptors. The oneDNN
 * (float32, bfloat16) and im2col+dgemm (float64) tests run the same shapes
 * against the reference kernel. */
#ifndef TSR_CPU_CONV_TEST_H
#define TSR_CPU_CONV_TEST_H

#include <stdint.h>

#include "cpu_test.h"

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

#endif
