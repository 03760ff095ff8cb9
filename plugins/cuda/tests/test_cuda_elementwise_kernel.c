/* The elementwise kernels' whole body without a device: kernel arguments
 * on host memory (allocator blocks over host buffers) go through the same
 * elem_prepare.c the plugin uses, and the kernels' per-thread functions
 * (elem_params.h) run for every index on the host, as the grid would run
 * them; the output must equal the reference backend's kernel on the same
 * descriptors, bit for bit. Layouts take both paths and both index widths:
 * contiguous with a tail (vectorised), a broadcast scalar, transposed and
 * sliced inputs (strided), past 2^16 elements, 0-d, empty, in place. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIFORM_SEED 0xD1B54A32D192ED03ull
#include "cuda_host_test.h"
#include "allocator.h"
#include "elem_prepare.h"

#include "../../reference/elementwise.h"
#include "../../reference/kernels.h"

static char last_error[256];
static int set_error(int status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, args);
    va_end(args);
    return status;
}
static const tsr_host_api HOST = {sizeof HOST, TSR_PLUGIN_ABI_VERSION, NULL, set_error};

/* A host tensor seen twice: by the reference (data = the buffer) and by
 * the CUDA host code (data = an allocator block over the same buffer). */
typedef struct tensor {
    int32_t ndim;
    int64_t shape[4], strides[4];
    unsigned char *buffer;
    size_t bytes;
    tsr__cu_block block;
    tsr_tensor_desc ref, cu;
} tensor;

/* 64-byte aligned (the vectorised path's condition) and exactly `bytes`
 * long, so that AddressSanitizer sees a vector access past the end. */
static unsigned char *aligned_buffer(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes) != 0)
        abort();
    return p;
}

static void make(tensor *t, int32_t dtype, int32_t ndim, const int64_t *shape,
                 const int64_t *strides, int64_t elements)
{
    memset(t, 0, sizeof *t);
    t->ndim = ndim;
    for (int32_t d = 0; d < ndim; d++) {
        t->shape[d] = shape[d];
        t->strides[d] = strides[d];
    }
    int size = tsr__cu_dtype_size(dtype);
    t->bytes = (size_t)(elements > 0 ? elements : 1) * (size_t)size;
    t->buffer = aligned_buffer(t->bytes);
    for (int64_t i = 0; i < elements; i++) {
        tsr__cu_value v = tsr__cu_complex((uniform() - 0.5) * 200.0, (uniform() - 0.5) * 8.0);
        if (tsr__cu_dtype_category(dtype) != TSR__CU_COMPLEX)
            v.f = uniform() < 0.02 ? (double)NAN : (uniform() - 0.5) * 200.0;
        tsr__cu_store(dtype, TSR__CU_REAL, t->buffer + i * size, v);
        if (dtype == TSR_BOOL)
            t->buffer[i] = uniform() < 0.5;
    }
    t->block.ptr = t->buffer;
    t->ref = (tsr_tensor_desc){t->buffer, 0, dtype, ndim, t->shape, t->strides};
    t->cu = t->ref;
    t->cu.data = &t->block;
}

static void emulate(const tsr__cu_elem_params *p)
{
    if (p->vectorized)
        for (int64_t g = 0; g < tsr__cu_elem_vector_groups(p); g++)
            tsr__cu_elem_vector_group(p, g);
    else
        for (int64_t i = 0; i < p->count; i++)
            tsr__cu_elem_strided_one(p, i);
}

enum { COPY, WHERE, OP };

/* Runs `op` both ways: the reference into `want`, the emulated kernel into
 * `got` (a copy of want's initial bytes); `force` 1 re-runs the strided
 * path, 2 the 64-bit index width, and each must agree too. */
static void run(const char *name, int kind, int32_t op, tensor *want, tensor *inputs, int arity,
                const tsr_elementwise_attrs *attrs, int expect_vector, int in_place)
{
    for (int force = 0; force < 3; force++) {
        tensor got = *want;
        got.buffer = aligned_buffer(want->bytes);
        memcpy(got.buffer, want->buffer, want->bytes);
        got.block.ptr = got.buffer;
        got.cu.data = &got.block;
        tsr_tensor_desc ref_in[3], cu_in[3];
        for (int k = 0; k < arity; k++) {
            ref_in[k] = inputs[k].ref;
            cu_in[k] = inputs[k].cu;
        }
        if (in_place) { /* the output is input 0 itself */
            memcpy(got.buffer, inputs[0].buffer, want->bytes);
            cu_in[0] = got.cu;
        }
        unsigned char *want_copy = malloc(want->bytes);
        memcpy(want_copy, in_place ? inputs[0].buffer : want->buffer, want->bytes);
        tsr_tensor_desc want_desc = want->ref;
        want_desc.data = want_copy;
        if (in_place)
            ref_in[0].data = want_copy;
        tsr_kernel_args ref_args = {sizeof ref_args, op, arity, 1, ref_in, &want_desc, attrs};
        tsr_kernel_args cu_args = {sizeof cu_args, op, arity, 1, cu_in, &got.cu, attrs};
        int ref_status = kind == COPY        ? tsr__ref_kernel_copy(NULL, &ref_args)
                         : kind == WHERE     ? tsr__ref_kernel_where(NULL, &ref_args)
                         : op == TSR_OP_FILL ? tsr__ref_kernel_fill(NULL, &ref_args)
                                             : tsr__ref_kernel_elementwise(NULL, &ref_args);
        tsr__cu_elem_params p;
        int zero = 0;
        int status = kind == COPY    ? tsr__cu_elem_build_copy(&HOST, &cu_args, &p)
                     : kind == WHERE ? tsr__cu_elem_build_where(&HOST, &cu_args, &p)
                                     : tsr__cu_elem_build_op(&HOST, &cu_args, &p, &zero);
        CHECK(ref_status == TSR_OK && status == TSR_OK);
        if (force == 0 && expect_vector >= 0 && p.vectorized != expect_vector) {
            fprintf(stderr, "%s: vectorised %d, expected %d\n", name, p.vectorized, expect_vector);
            failures++;
        }
        if (force == 1)
            p.vectorized = 0, p.broadcast_mask = 0;
        if (force == 2)
            p.use_int32 = 0;
        emulate(&p);
        if (memcmp(want_copy, got.buffer, want->bytes) != 0) {
            fprintf(stderr, "%s (force %d): the emulated kernel differs from the reference\n", name,
                    force);
            failures++;
        }
        free(want_copy);
        free(got.buffer);
    }
}

static int64_t contiguous(int32_t ndim, const int64_t *shape, int64_t *strides)
{
    int64_t step = 1;
    for (int32_t d = ndim - 1; d >= 0; d--) {
        strides[d] = step;
        step *= shape[d];
    }
    return step;
}

int main(void)
{
    tsr_elementwise_attrs alpha = {sizeof alpha, 0, {{TSR_SCALAR_FLOAT, 0, {.f = 2.5}}}};
    int64_t s1[1] = {1027}, c1[1], n1 = contiguous(1, s1, c1), zero1[1] = {0};
    tensor out, in[3];

    /* add: contiguous with a 3-element tail, then b a broadcast scalar, then in place */
    make(&out, TSR_FLOAT32, 1, s1, c1, n1);
    make(&in[0], TSR_FLOAT32, 1, s1, c1, n1);
    make(&in[1], TSR_FLOAT32, 1, s1, c1, n1);
    run("add contiguous", OP, TSR_OP_ADD, &out, in, 2, &alpha, 1, 0);
    run("add in place", OP, TSR_OP_ADD, &out, in, 2, &alpha, 1, 1);
    free(in[1].buffer);
    make(&in[1], TSR_FLOAT32, 1, s1, zero1, 1);
    run("add broadcast scalar", OP, TSR_OP_ADD, &out, in, 2, &alpha, 1, 0);
    free(in[0].buffer), free(in[1].buffer), free(out.buffer);

    /* mul int64 with a transposed input: the strided path */
    int64_t s2[2] = {37, 29}, c2[2], n2 = contiguous(2, s2, c2), t2[2] = {1, 37};
    make(&out, TSR_INT64, 2, s2, c2, n2);
    make(&in[0], TSR_INT64, 2, s2, t2, n2);
    make(&in[1], TSR_INT64, 2, s2, c2, n2);
    run("mul transposed", OP, TSR_OP_MUL, &out, in, 2, NULL, 0, 0);
    free(in[0].buffer), free(in[1].buffer), free(out.buffer);

    /* eq float32 -> bool, contiguous: vectorised with 1- and 4-byte operands */
    int64_t s3[2] = {10, 103}, c3[2], n3 = contiguous(2, s3, c3);
    make(&out, TSR_BOOL, 2, s3, c3, n3);
    make(&in[0], TSR_FLOAT32, 2, s3, c3, n3);
    make(&in[1], TSR_FLOAT32, 2, s3, c3, n3);
    memcpy(in[1].buffer, in[0].buffer, 400); /* some equal elements */
    run("eq to bool", OP, TSR_OP_EQ, &out, in, 2, NULL, 1, 0);
    free(in[0].buffer), free(in[1].buffer), free(out.buffer);

    /* copy float64 -> float16 past 2^16 elements; complex64 -> int32 from a slice */
    int64_t s4[1] = {70001}, c4[1], n4 = contiguous(1, s4, c4), step2[1] = {2};
    make(&out, TSR_FLOAT16, 1, s4, c4, n4);
    make(&in[0], TSR_FLOAT64, 1, s4, c4, n4);
    run("copy float64 to float16", COPY, TSR_OP_COPY, &out, in, 1, NULL, 1, 0);
    free(in[0].buffer), free(out.buffer);
    make(&out, TSR_INT32, 1, s1, c1, n1);
    make(&in[0], TSR_COMPLEX64, 1, s1, step2, 2 * n1);
    run("copy complex64 slice to int32", COPY, TSR_OP_COPY, &out, in, 1, NULL, 0, 0);
    free(in[0].buffer), free(out.buffer);

    /* where with a condition broadcast along a dim: bits move (NaNs kept) */
    int64_t s5[2] = {5, 7}, c5[2], n5 = contiguous(2, s5, c5), b5[2] = {1, 0};
    make(&out, TSR_FLOAT32, 2, s5, c5, n5);
    make(&in[0], TSR_BOOL, 2, s5, b5, 5);
    make(&in[1], TSR_FLOAT32, 2, s5, c5, n5);
    make(&in[2], TSR_FLOAT32, 2, s5, c5, n5);
    run("where", WHERE, TSR_OP_WHERE, &out, in, 3, NULL, 0, 0);
    free(in[0].buffer), free(in[1].buffer), free(in[2].buffer), free(out.buffer);

    /* fill bfloat16 with NaN; neg of a 0-d tensor; an empty tensor */
    tsr_elementwise_attrs nan_value = {sizeof nan_value, 0, {{TSR_SCALAR_FLOAT, 0, {.f = NAN}}}};
    int64_t s6[1] = {33}, c6[1], n6 = contiguous(1, s6, c6);
    make(&out, TSR_BFLOAT16, 1, s6, c6, n6);
    run("fill", OP, TSR_OP_FILL, &out, in, 0, &nan_value, 1, 0);
    free(out.buffer);
    make(&out, TSR_FLOAT64, 0, NULL, NULL, 1);
    make(&in[0], TSR_FLOAT64, 0, NULL, NULL, 1);
    run("neg 0-d", OP, TSR_OP_NEG, &out, in, 1, NULL, -1, 0);
    free(in[0].buffer), free(out.buffer);
    int64_t s7[2] = {0, 5}, c7[2] = {5, 1};
    make(&out, TSR_INT16, 2, s7, c7, 0);
    make(&in[0], TSR_INT16, 2, s7, c7, 0);
    run("abs empty", OP, TSR_OP_ABS, &out, in, 1, NULL, -1, 0);

    /* Bad calls: an error naming the op, nothing planned. */
    tsr__cu_elem_params p;
    int zero;
    int64_t other[2] = {0, 6};
    in[0].cu.shape = other;
    tsr_kernel_args bad = {sizeof bad, TSR_OP_ABS, 1, 1, &in[0].cu, &out.cu, NULL};
    CHECK(tsr__cu_elem_build_op(&HOST, &bad, &p, &zero) == TSR_ERR_SHAPE);
    if (strncmp(last_error, "abs: an input has size", 22) != 0)
        fprintf(stderr, "message: %s\n", last_error);
    CHECK(strncmp(last_error, "abs: an input has size", 22) == 0);
    in[0].cu.shape = in[0].shape;
    in[0].cu.dtype = TSR_INT32;
    CHECK(tsr__cu_elem_build_op(&HOST, &bad, &p, &zero) == TSR_ERR_DTYPE);
    CHECK(strncmp(last_error, "abs: output has dtype", 21) == 0);
    bad.num_inputs = 2;
    CHECK(tsr__cu_elem_build_op(&HOST, &bad, &p, &zero) == TSR_ERR_INVALID_ARGUMENT);
    /* An input with elements but no data: an error, not a dereference. */
    int64_t s8[1] = {3}, c8[1] = {1};
    tensor full, nodata;
    make(&full, TSR_FLOAT32, 1, s8, c8, 3);
    make(&nodata, TSR_FLOAT32, 1, s8, c8, 3);
    nodata.cu.data = NULL;
    tsr_kernel_args null_data = {sizeof null_data, TSR_OP_NEG, 1, 1, &nodata.cu, &full.cu, NULL};
    CHECK(tsr__cu_elem_build_op(&HOST, &null_data, &p, &zero) == TSR_ERR_INVALID_ARGUMENT);
    CHECK(strstr(last_error, "no data") != NULL);
    free(full.buffer), free(nodata.buffer);
    free(in[0].buffer), free(out.buffer);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("cuda elementwise kernels (emulated on the host): all layouts equal the reference\n");
    return 0;
}
