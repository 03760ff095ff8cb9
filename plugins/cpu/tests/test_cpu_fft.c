/* The cpu Fourier transforms give the same bits on 1, 2 and 3 threads and
 * on every instruction set the host has, on lines long enough that the
 * passes split over the pool (2^17 points, a real line of 2^18, a
 * Bluestein prime 65537), on batches split into line groups and on two
 * dims at once; and the kernel reports what the reference reports for a
 * call outside its contract. */
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"

enum { VARIANTS_MAX = 6 };
static tsr__cpu_backend *variants[VARIANTS_MAX];
static int variant_count;

typedef struct fft_case {
    const char *what;
    int32_t op, dtype_in, dtype_out, ndim;
    int64_t in_shape[2], out_shape[2];
    uint32_t axes;
    int direction, norm;
} fft_case;

static size_t dtype_size(int32_t dtype)
{
    return dtype == TSR_FLOAT32 ? 4 : dtype == TSR_FLOAT64 || dtype == TSR_COMPLEX64 ? 8 : 16;
}

static void same_bits_everywhere(const fft_case *c)
{
    int64_t in_count = 1, out_count = 1;
    for (int d = 0; d < c->ndim; d++) {
        in_count *= c->in_shape[d];
        out_count *= c->out_shape[d];
    }
    size_t in_size = dtype_size(c->dtype_in), out_size = dtype_size(c->dtype_out);
    void *x = malloc((size_t)in_count * in_size), *y = malloc((size_t)out_count * out_size);
    void *first = malloc((size_t)out_count * out_size);
    if (c->dtype_in == TSR_FLOAT32 || c->dtype_in == TSR_COMPLEX64) {
        test_fill_f32(x, in_count * (int64_t)(in_size / 4), 7, -1.0f, 1.0f);
    } else {
        test_fill_f64(x, in_count * (int64_t)(in_size / 8), 7, -1.0, 1.0);
    }
    int64_t in_strides[2], out_strides[2]; /* row-major: test_desc leaves them to us */
    for (int d = c->ndim - 1; d >= 0; d--) {
        in_strides[d] = d == c->ndim - 1 ? 1 : in_strides[d + 1] * c->in_shape[d + 1];
        out_strides[d] = d == c->ndim - 1 ? 1 : out_strides[d + 1] * c->out_shape[d + 1];
    }
    tsr_tensor_desc in = test_desc(x, c->dtype_in, c->ndim, c->in_shape, in_strides);
    tsr_tensor_desc out = test_desc(y, c->dtype_out, c->ndim, c->out_shape, out_strides);
    tsr_fft_attrs attrs = {sizeof attrs, c->axes, c->direction, c->norm};
    for (int v = 0; v < variant_count; v++) {
        memset(y, 0xcd, (size_t)out_count * out_size);
        CHECK_OK(test_run(variants[v], c->op, c->dtype_in, c->dtype_out, &in, 1, &out, 1, &attrs));
        if (v == 0) {
            memcpy(first, y, (size_t)out_count * out_size);
        } else {
            CHECK_SAME_BITS(c->what, y, first, out_count, out_size);
        }
    }
    free(x);
    free(y);
    free(first);
}

static void transforms_have_the_same_bits_on_any_threads_and_isa(void)
{
    const fft_case cases[] = {
        {"c2c 2^17", TSR_OP_FFT_C2C, TSR_COMPLEX64, TSR_COMPLEX64, 1, {1 << 17}, {1 << 17}, 1u,
         TSR_FFT_FORWARD, TSR_FFT_NORM_NONE},
        {"r2c 2^18", TSR_OP_FFT_R2C, TSR_FLOAT32, TSR_COMPLEX64, 1, {1 << 18}, {(1 << 17) + 1},
         1u, TSR_FFT_FORWARD, TSR_FFT_NORM_BY_SQRT_N},
        {"c2r 3 x 2^17", TSR_OP_FFT_C2R, TSR_COMPLEX128, TSR_FLOAT64, 2, {3, (1 << 16) + 1},
         {3, 1 << 17}, 2u, TSR_FFT_INVERSE, TSR_FFT_NORM_BY_N},
        {"c2c prime 65537", TSR_OP_FFT_C2C, TSR_COMPLEX128, TSR_COMPLEX128, 1, {65537}, {65537},
         1u, TSR_FFT_INVERSE, TSR_FFT_NORM_NONE},
        {"c2c 300 x 1000 batch", TSR_OP_FFT_C2C, TSR_COMPLEX64, TSR_COMPLEX64, 2, {300, 1000},
         {300, 1000}, 2u, TSR_FFT_FORWARD, TSR_FFT_NORM_NONE},
        {"c2c 2-d 240 x 360", TSR_OP_FFT_C2C, TSR_COMPLEX128, TSR_COMPLEX128, 2, {240, 360},
         {240, 360}, 3u, TSR_FFT_FORWARD, TSR_FFT_NORM_BY_SQRT_N},
        {"r2c 2-d 96 x 1001", TSR_OP_FFT_R2C, TSR_FLOAT64, TSR_COMPLEX128, 2, {96, 1001},
         {96, 501}, 3u, TSR_FFT_INVERSE, TSR_FFT_NORM_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        same_bits_everywhere(&cases[i]);
    }
}

static void calls_outside_the_contract_are_refused(void)
{
    float x[8] = {0};
    int64_t shape[1] = {8}, bad[1] = {4}, s1[1] = {1}, s2[1] = {1};
    tsr_tensor_desc in = test_desc(x, TSR_FLOAT32, 1, shape, s1);
    tsr_tensor_desc out = test_desc(x, TSR_COMPLEX64, 1, bad, s2);
    tsr_fft_attrs attrs = {sizeof attrs, 1u, TSR_FFT_FORWARD, TSR_FFT_NORM_NONE};
    CHECK_INT(test_run(variants[0], TSR_OP_FFT_R2C, TSR_FLOAT32, TSR_COMPLEX64, &in, 1, &out, 1,
                       &attrs),
              TSR_ERR_SHAPE);
    attrs.axes_mask = 2u; /* dim 1 of a 1-d tensor */
    CHECK_INT(test_run(variants[0], TSR_OP_FFT_C2C, TSR_COMPLEX64, TSR_COMPLEX64, &out, 1, &out,
                       1, &attrs),
              TSR_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    tsr__cpu_isa best = tsr__cpu_isa_detect();
    for (int threads = 1; threads <= 3; threads++) {
        variants[variant_count++] = test_backend(threads, best);
    }
    for (int isa = 0; isa < (int)best; isa++) {
        variants[variant_count++] = test_backend(2, (tsr__cpu_isa)isa);
    }
    RUN_TEST(transforms_have_the_same_bits_on_any_threads_and_isa);
    RUN_TEST(calls_outside_the_contract_are_refused);
    for (int v = 0; v < variant_count; v++) {
        tsr__cpu_backend_destroy(variants[v]);
    }
    return test_finish();
}
