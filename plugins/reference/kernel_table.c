/* The kernel table, derived from the op tables so that it lists exactly
 * what is implemented: copy for every (input, output) dtype pair, fill and
 * where for every dtype, and each elementwise op for the computation dtypes
 * its entry names. Rows are ordered by op, then dtype. */
#include <stdlib.h>

#include "backend.h"
#include "elementwise.h"
#include "kernels.h"

/* Every kernel walks any strides, reads 0-stride inputs and tolerates an
 * output that is one of its inputs with the same layout. */
static const uint32_t KERNEL_FLAGS = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE;

typedef struct table_writer {
    tsr_kernel_entry *entries; /* NULL while counting */
    size_t count;
} table_writer;

static void add(table_writer *writer, int32_t op, int32_t dtype_in, int32_t dtype_out,
                tsr_kernel_fn fn)
{
    if (writer->entries != NULL) {
        writer->entries[writer->count] =
            (tsr_kernel_entry){op, dtype_in, dtype_out, KERNEL_FLAGS, fn};
    }
    writer->count++;
}

static void add_op(table_writer *writer, int32_t op)
{
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++) {
        switch (op) {
        case TSR_OP_COPY:
            for (int32_t out = 0; out < TSR_DTYPE_COUNT; out++) {
                add(writer, op, dtype, out, tsr__ref_kernel_copy);
            }
            break;
        case TSR_OP_FILL:
            add(writer, op, dtype, dtype, tsr__ref_kernel_fill);
            break;
        case TSR_OP_WHERE:
            add(writer, op, dtype, dtype, tsr__ref_kernel_where);
            break;
        default: {
            const tsr__ref_elementwise_op *entry = tsr__ref_elementwise_op_find(op);
            if (entry != NULL && (entry->dtypes & TSR__REF_DTYPE_BIT(dtype))) {
                add(writer, op, dtype, tsr__ref_elementwise_result_dtype(entry, dtype),
                    tsr__ref_kernel_elementwise);
            }
            break;
        }
        }
    }
}

static void write_table(table_writer *writer)
{
    for (int32_t op = 0; op < TSR_OP_COUNT; op++) {
        add_op(writer, op);
    }
}

int tsr__ref_kernel_table_build(tsr_kernel_entry **entries, size_t *count)
{
    table_writer counter = {NULL, 0};
    write_table(&counter);
    table_writer writer = {malloc(counter.count * sizeof(tsr_kernel_entry)), 0};
    if (writer.entries == NULL) {
        return TSR_ERR_OUT_OF_MEMORY;
    }
    write_table(&writer);
    *entries = writer.entries;
    *count = writer.count;
    return TSR_OK;
}
