/* What this backend claims: copy for every (input, output) dtype pair,
 * fill and where for every dtype, each op of elem_table.c for the
 * computation dtypes its entry names, the reductions of reduce_table.c and
 * matmul (cuBLAS) for the floating and complex dtypes. Everything else is "not
 * claimed" (the conformance runner says so). */
#include <stdlib.h>

#include "backend.h"
#include "elem_table.h"
#include "kernel_elementwise.h"
#include "kernel_matmul.h"
#include "kernel_reduce.h"
#include "matmul_plan.h"
#include "reduce_table.h"

/* Every kernel walks any strides, reads 0-stride inputs and tolerates an
 * output that is one of its inputs with the same layout. */
static const uint32_t KERNEL_FLAGS = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE;

static size_t add_rows(tsr_kernel_entry *rows)
{
    size_t n = 0;
#define ADD_(op, in, out, fn)                                                                      \
    do {                                                                                           \
        if (rows)                                                                                  \
            rows[n] = (tsr_kernel_entry){op, in, out, KERNEL_FLAGS, fn};                           \
        n++;                                                                                       \
    } while (0)
    for (int32_t in = 0; in < TSR_DTYPE_COUNT; in++)
        for (int32_t out = 0; out < TSR_DTYPE_COUNT; out++)
            ADD_(TSR_OP_COPY, in, out, tsr__cu_kernel_copy);
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++)
        ADD_(TSR_OP_WHERE, dtype, dtype, tsr__cu_kernel_where);
    const tsr__cu_elem_op *op;
    for (size_t i = 0; (op = tsr__cu_elem_op_at(i)) != NULL; i++)
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++)
            if (op->dtypes & TSR__CU_BIT(dtype))
                ADD_(op->op, dtype, tsr__cu_elem_result_dtype(op, dtype),
                     tsr__cu_kernel_elementwise);
    for (int32_t op = 0; op < TSR_OP_COUNT; op++)
        for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++) {
            int32_t out;
            if (tsr__cu_reduce_supports(op, dtype, &out))
                ADD_(op, dtype, out, tsr__cu_kernel_reduce);
        }
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++)
        if (tsr__cu_matmul_supports(dtype))
            ADD_(TSR_OP_MATMUL, dtype, dtype, tsr__cu_kernel_matmul);
#undef ADD_
    return n;
}

int tsr__cu_kernel_table_build(struct tsr__cu_backend *b)
{
    size_t count = add_rows(NULL);
    b->kernels = calloc(count, sizeof *b->kernels);
    if (!b->kernels)
        return b->host->set_error(TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    b->kernel_count = add_rows(b->kernels);
    return TSR_OK;
}
