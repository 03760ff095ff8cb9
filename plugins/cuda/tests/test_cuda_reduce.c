/* The CUDA reductions without a device: reduce_table.c's plan and the
 * kernels' sequence (tsr__cu_reduce_emulate: block partials in lane order,
 * the stride-doubling tree, the finish), run on host memory and compared
 * with the reference backend's reduction kernel on the same descriptors,
 * for every claimed (op, dtype): rows of one block, several blocks with a
 * short tail, more than 2^16 terms, strided and transposed inputs, several
 * reduced dims, all dims, an empty reduced dim, and NaN, inf and -0 terms.
 * Integer results must be identical; floating ones equal bit for bit too
 * (both run the fixed order in double), NaN sign and payload aside. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIFORM_SEED 0x9E3779B97F4A7C15ull
#include "cuda_host_test.h"
#include "elem_table.h"
#include "reduce_table.h"

#include "../../reference/reduce.h"
#include "../../reference/wide.h"

static int reported;

typedef struct shape_case {
    int32_t ndim;
    int64_t shape[3];
    uint32_t mask;
    int transpose; /* the input is a transposed view of its first two dims */
    int specials;  /* 1: NaN, inf, -0 among the terms; 2: terms near -1000 (exp underflows) */
} shape_case;

static const shape_case CASES[] = {
    {2, {3, 10}, 2, 0, 0},     /* one short block per output */
    {2, {4, 3000}, 2, 0, 1},   /* three blocks, a tail of 952 */
    {2, {2100, 3}, 1, 1, 0},   /* reduce a strided dim of a transposed view */
    {3, {2, 3, 700}, 5, 0, 1}, /* two reduced dims, 1400 terms */
    {2, {70, 50}, 3, 0, 0},    /* every dim: 3500 terms, one output */
    {2, {4, 0}, 2, 0, 0},      /* an empty reduced dim */
    {2, {0, 5}, 2, 0, 0},      /* no outputs */
    {1, {70001}, 1, 0, 0},     /* past 2^16 terms: 69 blocks */
    {2, {3, 40}, 2, 0, 2},     /* large negative terms: logsumexp's shift matters */
};

/* Element bytes for term i of a case, in `dtype`. */
static void make_term(int32_t dtype, int specials, unsigned char *dst)
{
    tsr__ref_wide w;
    tsr__ref_category cat = tsr__ref_dtype_category(dtype);
    double u = uniform();
    if (cat == TSR__REF_INTEGER) {
        w.i = (int64_t)(u * 200.0) - 100;
        if (u > 0.995)
            w.i = INT64_MAX - (int64_t)(u * 10);
        tsr__ref_storer(TSR__REF_INTEGER, dtype)(dst, &w);
        return;
    }
    double x = (uniform() - 0.5) * 20.0 - (specials == 2 ? 1000.0 : 0.0);
    if (specials == 1 && u > 0.997)
        x = u > 0.999 ? (double)NAN : u > 0.998 ? (double)INFINITY : -0.0;
    if (cat == TSR__REF_COMPLEX) {
        w.c = tsr__ref_complex_make(x, (uniform() - 0.5) * 4.0);
        tsr__ref_storer(TSR__REF_COMPLEX, dtype)(dst, &w);
    } else {
        w.f = x;
        tsr__ref_storer(TSR__REF_REAL, dtype)(dst, &w);
    }
}

static int same_bits_or_nan(int32_t dtype, const unsigned char *a, const unsigned char *b)
{
    int size = tsr__cu_dtype_size(dtype);
    if (memcmp(a, b, (size_t)size) == 0)
        return 1;
    tsr__cu_category cat = tsr__cu_dtype_category(dtype);
    tsr__cu_value x = tsr__cu_load(dtype, a), y = tsr__cu_load(dtype, b);
    if (cat == TSR__CU_REAL)
        return isnan(x.f) && isnan(y.f);
    if (cat == TSR__CU_COMPLEX)
        return (x.c.re == y.c.re || (isnan(x.c.re) && isnan(y.c.re))) &&
               (x.c.im == y.c.im || (isnan(x.c.im) && isnan(y.c.im)));
    return 0;
}

static void run_case(int32_t op, int32_t dtype, const shape_case *c, double p, long *compared)
{
    int32_t out_dtype;
    CHECK(tsr__cu_reduce_supports(op, dtype, &out_dtype));
    int64_t numel = 1;
    for (int32_t d = 0; d < c->ndim; d++)
        numel *= c->shape[d];
    const int size = tsr__cu_dtype_size(dtype);
    unsigned char *data = calloc((size_t)(numel > 0 ? numel : 1), (size_t)size);
    for (int64_t i = 0; i < numel; i++)
        make_term(dtype, c->specials, data + i * size);
    /* Strides: contiguous, or the first two dims swapped in memory. */
    int64_t strides[3] = {0, 0, 0}, step = 1;
    for (int32_t d = c->ndim - 1; d >= 0; d--) {
        strides[d] = step;
        step *= c->shape[d];
    }
    if (c->transpose) {
        strides[1] = c->shape[0];
        strides[0] = 1;
    }
    tsr_tensor_desc input = {data, 0, dtype, c->ndim, c->shape, strides};
    const int outputs = op == TSR_OP_MAX_DIM || op == TSR_OP_MIN_DIM ? 2 : 1;
    int64_t out_shape[3], out_strides[3], out_numel = 1;
    for (int32_t d = 0; d < c->ndim; d++) {
        out_shape[d] = (c->mask >> d) & 1 ? 1 : c->shape[d];
        out_numel *= out_shape[d];
    }
    step = 1;
    for (int32_t d = c->ndim - 1; d >= 0; d--) {
        out_strides[d] = step;
        step *= out_shape[d];
    }
    unsigned char *want[2], *got[2];
    tsr_tensor_desc want_desc[2], got_desc[2];
    for (int k = 0; k < outputs; k++) {
        int32_t dt = k == 0 ? out_dtype : TSR_INT64;
        size_t bytes = (size_t)(out_numel > 0 ? out_numel : 1) * (size_t)tsr__cu_dtype_size(dt);
        want[k] = calloc(bytes, 1);
        got[k] = calloc(bytes, 1);
        want_desc[k] = (tsr_tensor_desc){want[k], 0, dt, c->ndim, out_shape, out_strides};
        got_desc[k] = (tsr_tensor_desc){got[k], 0, dt, c->ndim, out_shape, out_strides};
    }
    tsr_reduce_attrs attrs = {sizeof attrs, c->mask, 1.0, p};
    tsr_kernel_args args = {sizeof args, op, 1, outputs, &input, want_desc, &attrs};
    int ref_status = tsr__ref_kernel_reduce(NULL, &args);

    tsr__cu_reduce_plan plan;
    char message[200];
    char *outs[2] = {(char *)got[0], outputs > 1 ? (char *)got[1] : NULL};
    int status = tsr__cu_reduce_plan_init(&plan, op, &input, got_desc, outputs, &attrs,
                                          (const char *)data, outs, message, sizeof message);
    CHECK(status == ref_status);
    if (status == TSR_OK && ref_status == TSR_OK) {
        size_t nparts = (size_t)(plan.out_count * plan.blocks);
        tsr__cu_partial *parts = calloc(nparts > 0 ? nparts : 1, sizeof *parts);
        tsr__cu_value *kept =
            calloc((size_t)(plan.out_count > 0 ? plan.out_count : 1), sizeof *kept);
        tsr__cu_reduce_emulate(&plan, parts, kept);
        for (int k = 0; k < outputs; k++) {
            int32_t dt = k == 0 ? out_dtype : TSR_INT64;
            int s = tsr__cu_dtype_size(dt);
            for (int64_t i = 0; i < out_numel; i++, (*compared)++)
                if (!same_bits_or_nan(dt, want[k] + i * s, got[k] + i * s)) {
                    failures++;
                    if (reported++ < 30)
                        fprintf(stderr,
                                "%s dtype %d shape case %d p %g output %d element %lld differs\n",
                                tsr__cu_op_name(op), (int)dtype, (int)(c - CASES), p, k,
                                (long long)i);
                }
        }
        free(parts);
        free(kept);
    } else if (status != TSR_OK) {
        CHECK(strncmp(message, tsr__cu_op_name(op), strlen(tsr__cu_op_name(op))) == 0);
    }
    for (int k = 0; k < outputs; k++) {
        free(want[k]);
        free(got[k]);
    }
    free(data);
}

int main(void)
{
    long compared = 0;
    int claimed = 0;
    const double ords[] = {2.0, 1.0, 3.0, 0.5, (double)INFINITY, -(double)INFINITY, 0.0};
    for (int32_t op = 0; op < TSR_OP_COUNT; op++)
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++) {
            int32_t cu_out, ref_out;
            int cu = tsr__cu_reduce_supports(op, dtype, &cu_out);
            int ref = tsr__ref_reduce_supports(op, dtype, &ref_out);
            CHECK(cu == ref && (!cu || cu_out == ref_out)); /* the same claims */
            if (!cu)
                continue;
            claimed++;
            int nords = op == TSR_OP_NORM ? 7 : 1;
            for (int k = 0; k < nords; k++)
                for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++)
                    run_case(op, dtype, &CASES[c], ords[k], &compared);
        }
    CHECK(claimed > 100);
    /* A call without attrs is an error naming the op, not a crash. */
    int64_t shape[1] = {4}, strides[1] = {1};
    float values[4] = {0};
    tsr_tensor_desc in = {values, 0, TSR_FLOAT32, 1, shape, strides};
    tsr__cu_reduce_plan plan;
    char message[200] = "";
    char *outs[2] = {NULL, NULL};
    CHECK(tsr__cu_reduce_plan_init(&plan, TSR_OP_SUM, &in, &in, 1, NULL, (const char *)values, outs,
                                   message, sizeof message) == TSR_ERR_INVALID_ARGUMENT);
    CHECK(strncmp(message, "sum", 3) == 0);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("cuda reductions: %d (op, dtype) claims, %ld output elements equal the reference\n",
           claimed, compared);
    return 0;
}
