/* The CUDA backend's kernel table, built without a device (init, which
 * builds it in the plugin, needs one): every row is one the reference
 * backend registers too, with the same output dtype (matmul in float16, which
 * PyTorch has on CUDA only, excepted); no row twice; copy, fill, where, the
 * reductions and the real and integer elementwise rows cover the
 * reference's; what is left out is complex elementwise rows and integer
 * matmul only. */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_host_test.h"
#include "backend.h"

#include "../../reference/backend.h"

static int set_error(int status, const char *fmt, ...)
{
    (void)fmt;
    return status;
}

/* The kernel functions are the device side's; only their addresses matter. */
int tsr__cu_kernel_copy(void *backend, const tsr_kernel_args *args);
int tsr__cu_kernel_where(void *backend, const tsr_kernel_args *args);
int tsr__cu_kernel_elementwise(void *backend, const tsr_kernel_args *args);
int tsr__cu_kernel_reduce(void *backend, const tsr_kernel_args *args);
int tsr__cu_kernel_matmul(void *backend, const tsr_kernel_args *args);
#define STUB_(name)                                                                                \
    int name(void *backend, const tsr_kernel_args *args)                                           \
    {                                                                                              \
        (void)backend;                                                                             \
        (void)args;                                                                                \
        return TSR_ERR_UNIMPLEMENTED;                                                              \
    }
STUB_(tsr__cu_kernel_copy)
STUB_(tsr__cu_kernel_where)
STUB_(tsr__cu_kernel_elementwise)
STUB_(tsr__cu_kernel_reduce)
STUB_(tsr__cu_kernel_matmul)

static const tsr_kernel_entry *find(const tsr_kernel_entry *rows, size_t count, int32_t op,
                                    int32_t in, int32_t out)
{
    for (size_t i = 0; i < count; i++)
        if (rows[i].op == op && rows[i].dtype_in == in && rows[i].dtype_out == out)
            return &rows[i];
    return NULL;
}

static int is_reduction(int32_t op)
{
    return op >= TSR_OP_SUM && op <= TSR_OP_COUNT_NONZERO;
}

static int is_elementwise(int32_t op)
{
    return (op >= TSR_OP_ADD && op <= TSR_OP_CLAMP && op != TSR_OP_WHERE) ||
           (op >= TSR_OP_FMOD && op <= TSR_OP_ADDCDIV);
}

int main(void)
{
    tsr_host_api host = {sizeof host, TSR_PLUGIN_ABI_VERSION, NULL, set_error};
    struct tsr__cu_backend b = {0};
    b.host = &host;
    CHECK(tsr__cu_kernel_table_build(&b) == TSR_OK);
    tsr_kernel_entry *ref = NULL;
    size_t ref_count = 0;
    CHECK(tsr__ref_kernel_table_build(&ref, &ref_count) == TSR_OK);
    const uint32_t needed = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST;
    for (size_t i = 0; i < b.kernel_count; i++) {
        const tsr_kernel_entry *row = &b.kernels[i];
        CHECK(row->op >= 0 && row->op < TSR_OP_COUNT);
        CHECK(row->dtype_in >= 0 && row->dtype_in < TSR_DTYPE_COUNT);
        CHECK((row->flags & needed) == needed && row->fn != NULL);
        CHECK(find(b.kernels, i, row->op, row->dtype_in, row->dtype_out) == NULL); /* once */
        int cuda_only = row->op == TSR_OP_MATMUL && row->dtype_in == TSR_FLOAT16;
        if (!cuda_only && !find(ref, ref_count, row->op, row->dtype_in, row->dtype_out)) {
            fprintf(stderr, "row (op %d, %d -> %d) is not the reference's\n", (int)row->op,
                    (int)row->dtype_in, (int)row->dtype_out);
            failures++;
        }
    }
    size_t left_out = 0;
    for (size_t i = 0; i < ref_count; i++) {
        const tsr_kernel_entry *row = &ref[i];
        int covered = row->op == TSR_OP_COPY || row->op == TSR_OP_FILL || row->op == TSR_OP_WHERE ||
                      /* not the (narrow integer, int64) sum/nansum/prod rows: without
                       * them the core widens the input first, as it does here */
                      (is_reduction(row->op) &&
                       !((row->op == TSR_OP_SUM || row->op == TSR_OP_NANSUM ||
                          row->op == TSR_OP_PROD) && row->dtype_in != row->dtype_out)) ||
                      (is_elementwise(row->op) && row->dtype_in != TSR_COMPLEX64 &&
                       row->dtype_in != TSR_COMPLEX128) ||
                      (row->op == TSR_OP_MATMUL && row->dtype_in >= TSR_BFLOAT16);
        int present =
            find(b.kernels, b.kernel_count, row->op, row->dtype_in, row->dtype_out) != NULL;
        if (covered && !present) {
            fprintf(stderr, "reference row (op %d, %d -> %d) missing\n", (int)row->op,
                    (int)row->dtype_in, (int)row->dtype_out);
            failures++;
        }
        left_out += !present && (is_elementwise(row->op) || row->op == TSR_OP_MATMUL);
    }
    CHECK(b.kernel_count > 800);
    free(ref);
    free(b.kernels);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("cuda kernel table: %zu rows, all the reference's; %zu elementwise/matmul rows of the "
           "reference not claimed (complex transcendental functions, integer matmul)\n",
           b.kernel_count, left_out);
    return 0;
}
