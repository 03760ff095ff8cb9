/* The cpu upsample kernel against the reference kernel it must match bit
 * for bit: nearest, nearest-exact and linear (1-, 2- and 3-d), given and
 * size-ratio scales, align_corners both ways, up and down, float32 and
 * float64 (nearest also uint8 and bfloat16), on 1, 2 and 3 threads, with
 * outputs past 2^16 elements so that the rows split over several tasks;
 * and a strided input, which the cpu kernel hands to the reference. */
#include <stdlib.h>
#include <string.h>

#include "cpu_test.h"
#include "kernels.h" /* tsr__ref_kernel_upsample */

typedef struct up_case {
    int32_t dtype, mode, align;
    int ndim;
    int64_t in[5], out[5];
    double scale; /* the given scale of every dim, or 0 */
} up_case;

static size_t esize(int32_t dtype)
{
    return dtype == TSR_UINT8 ? 1 : dtype == TSR_BFLOAT16 ? 2 : dtype == TSR_FLOAT32 ? 4 : 8;
}

static int64_t count(const int64_t *shape, int ndim)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++)
        n *= shape[d];
    return n;
}

/* Deterministic bytes of any dtype: floats in [-3, 3) for the float dtypes. */
static void *filled(int32_t dtype, int64_t n, uint64_t seed)
{
    void *p = calloc((size_t)n * esize(dtype) + 8, 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    if (dtype == TSR_FLOAT32) {
        test_fill_f32(p, n, seed, -3.0f, 3.0f);
    } else if (dtype == TSR_FLOAT64) {
        test_fill_f64(p, n, seed, -3.0, 3.0);
    } else {
        for (int64_t i = 0; i < n * (int64_t)esize(dtype); i++)
            ((unsigned char *)p)[i] = (unsigned char)((i * 131 + seed * 7) % 251);
    }
    return p;
}

/* Row-major strides of shape. */
static int64_t *contiguous(const int64_t *shape, int ndim, int64_t *strides)
{
    int64_t step = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = step;
        step *= shape[d];
    }
    return strides;
}

static void run_case(tsr__cpu_backend *cpu, tsr__cpu_backend *single, const up_case *k,
                     const char *what)
{
    int64_t nin = count(k->in, k->ndim), nout = count(k->out, k->ndim);
    void *x = filled(k->dtype, nin, 5), *want = filled(k->dtype, nout, 1);
    void *got = filled(k->dtype, nout, 2);
    int64_t sx[5], sy[5];
    tsr_tensor_desc in = test_desc(x, k->dtype, k->ndim, k->in, contiguous(k->in, k->ndim, sx));
    tsr_tensor_desc out_want =
        test_desc(want, k->dtype, k->ndim, k->out, contiguous(k->out, k->ndim, sy));
    tsr_tensor_desc out_got = test_desc(got, k->dtype, k->ndim, k->out, sy);
    tsr_resample_attrs at = {.struct_size = sizeof at, .mode = k->mode, .align_corners = k->align};
    for (int d = 0; d < 3; d++)
        at.scales[d] = k->scale;
    tsr_kernel_args args = {.struct_size = sizeof args,
                            .op = TSR_OP_UPSAMPLE,
                            .num_inputs = 1,
                            .num_outputs = 1,
                            .inputs = &in,
                            .outputs = &out_want,
                            .attrs = &at};
    CHECK_OK(tsr__ref_kernel_upsample(single, &args));
    CHECK_OK(test_run(cpu, TSR_OP_UPSAMPLE, k->dtype, k->dtype, &in, 1, &out_got, 1, &at));
    CHECK_SAME_BITS(what, got, want, nout, esize(k->dtype));
    free(x);
    free(want);
    free(got);
}

static const up_case CASES[] = {
    {TSR_FLOAT32, TSR_RESAMPLE_LINEAR, 0, 4, {2, 3, 37, 29}, {2, 3, 150, 131}, 0},
    {TSR_FLOAT32, TSR_RESAMPLE_LINEAR, 1, 4, {2, 3, 37, 29}, {2, 3, 150, 131}, 0},
    {TSR_FLOAT64, TSR_RESAMPLE_LINEAR, 0, 4, {1, 2, 40, 30}, {1, 2, 68, 51}, 1.7},
    {TSR_FLOAT32, TSR_RESAMPLE_LINEAR, 0, 4, {1, 2, 40, 30}, {1, 2, 24, 18}, 0.6},
    {TSR_FLOAT32, TSR_RESAMPLE_LINEAR, 1, 3, {3, 4, 1000}, {3, 4, 3001}, 0},
    {TSR_FLOAT64, TSR_RESAMPLE_LINEAR, 0, 5, {1, 2, 5, 6, 7}, {1, 2, 9, 13, 11}, 0},
    {TSR_FLOAT32, TSR_RESAMPLE_NEAREST, 0, 4, {2, 3, 37, 29}, {2, 3, 150, 131}, 0},
    {TSR_FLOAT64, TSR_RESAMPLE_NEAREST, 0, 4, {1, 2, 40, 30}, {1, 2, 80, 60}, 2.0},
    {TSR_UINT8, TSR_RESAMPLE_NEAREST, 0, 5, {1, 2, 5, 6, 7}, {1, 2, 9, 13, 11}, 0},
    {TSR_BFLOAT16, TSR_RESAMPLE_NEAREST_EXACT, 0, 3, {2, 2, 33}, {2, 2, 70}, 0},
    {TSR_FLOAT32, TSR_RESAMPLE_NEAREST_EXACT, 0, 4, {1, 3, 40, 30}, {1, 3, 23, 47}, 0},
};

static void matches_the_reference_on_1_2_and_3_threads(void)
{
    tsr__cpu_backend *single = test_backend(1, tsr__cpu_isa_detect());
    for (int threads = 1; threads <= 3; threads++) {
        tsr__cpu_backend *cpu = test_backend(threads, tsr__cpu_isa_detect());
        for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
            char what[64];
            snprintf(what, sizeof what, "case %zu on %d threads", i, threads);
            run_case(cpu, single, &CASES[i], what);
        }
        tsr__cpu_backend_destroy(cpu);
    }
    tsr__cpu_backend_destroy(single);
}

/* A transposed input: the cpu kernel passes it to the reference. */
static void strided_input_takes_the_reference_path(void)
{
    tsr__cpu_backend *cpu = test_backend(2, tsr__cpu_isa_detect());
    int64_t shape[4] = {2, 3, 7, 5}, strides[4] = {105, 1, 15, 3}, out_shape[4] = {2, 3, 9, 11};
    float *x = filled(TSR_FLOAT32, 210, 3), *want = filled(TSR_FLOAT32, 594, 1);
    float *got = filled(TSR_FLOAT32, 594, 2);
    int64_t sy[4];
    tsr_tensor_desc in = test_desc(x, TSR_FLOAT32, 4, shape, strides);
    tsr_tensor_desc out_want =
        test_desc(want, TSR_FLOAT32, 4, out_shape, contiguous(out_shape, 4, sy));
    tsr_tensor_desc out_got = test_desc(got, TSR_FLOAT32, 4, out_shape, sy);
    tsr_resample_attrs at = {.struct_size = sizeof at, .mode = TSR_RESAMPLE_LINEAR};
    tsr_kernel_args args = {.struct_size = sizeof args,
                            .op = TSR_OP_UPSAMPLE,
                            .num_inputs = 1,
                            .num_outputs = 1,
                            .inputs = &in,
                            .outputs = &out_want,
                            .attrs = &at};
    CHECK_OK(tsr__ref_kernel_upsample(cpu, &args));
    CHECK_OK(test_run(cpu, TSR_OP_UPSAMPLE, TSR_FLOAT32, TSR_FLOAT32, &in, 1, &out_got, 1, &at));
    CHECK_SAME_BITS("strided", got, want, 594, 4);
    free(x);
    free(want);
    free(got);
    tsr__cpu_backend_destroy(cpu);
}

int main(void)
{
    RUN_TEST(matches_the_reference_on_1_2_and_3_threads);
    RUN_TEST(strided_input_takes_the_reference_path);
    return test_finish();
}
