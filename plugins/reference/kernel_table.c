/* The kernel table, derived from the op tables so that it lists exactly
 * what is implemented: copy for every (input, output) dtype pair, fill and
 * where for every dtype, and each elementwise op for the computation dtypes
 * its entry names. Rows are ordered by op, then dtype. */
#include <stdlib.h>

#include "backend.h"
#include "elementwise.h"
#include "index_walk.h"
#include "kernels.h"
#include "reduce.h"

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

/* softmax, layer_norm and friends: PyTorch 1.13 has CPU kernels for
 * bfloat16, float32 and float64 only. rms_norm is newer; its composite form
 * also runs in float16. */
static const uint32_t NN_DTYPES = TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264;
static const uint32_t RMS_NORM_DTYPES = TSR__REF_SET_REAL;
/* im2col and col2im as PyTorch 1.13 unfolds: every floating and complex
 * dtype; the direct convolutions as its convolutions (no float16). */
static const uint32_t CONV_DTYPES = TSR__REF_SET_REAL | TSR__REF_SET_COMPLEX;
static const uint32_t DIRECT_CONV_DTYPES =
    TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264 | TSR__REF_SET_COMPLEX;
/* Resampling: PyTorch 1.13's CPU upsample kernels take bfloat16, float32 and
 * float64 (nearest also uint8); grid_sampler float32 and float64. */
static const uint32_t RESAMPLE_DTYPES = TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264;

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
        case TSR_OP_MATMUL:
            if (tsr__ref_matmul_dtypes & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_matmul);
            }
            break;
        case TSR_OP_SOFTMAX:
        case TSR_OP_LOG_SOFTMAX:
            if (NN_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_softmax);
            }
            break;
        case TSR_OP_LAYER_NORM:
        case TSR_OP_RMS_NORM: {
            uint32_t dtypes = op == TSR_OP_RMS_NORM ? RMS_NORM_DTYPES : NN_DTYPES;
            if (dtypes & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_norm);
            }
            break;
        }
        case TSR_OP_CROSS_ENTROPY: /* class indices are int64; dtype is the logits' */
            if (NN_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_cross_entropy);
            }
            break;
        case TSR_OP_SUM:
        case TSR_OP_NANSUM:
        case TSR_OP_PROD:
        case TSR_OP_MEAN:
        case TSR_OP_NANMEAN:
        case TSR_OP_AMAX:
        case TSR_OP_AMIN:
        case TSR_OP_MAX_DIM:
        case TSR_OP_MIN_DIM:
        case TSR_OP_ARGMAX:
        case TSR_OP_ARGMIN:
        case TSR_OP_VAR:
        case TSR_OP_STD:
        case TSR_OP_ALL:
        case TSR_OP_ANY:
        case TSR_OP_NORM:
        case TSR_OP_LOGSUMEXP:
        case TSR_OP_COUNT_NONZERO: {
            int32_t out;
            if (tsr__ref_reduce_supports(op, dtype, &out)) {
                add(writer, op, dtype, out, tsr__ref_kernel_reduce);
            }
            if (tsr__ref_reduce_widens(op, dtype)) {
                add(writer, op, dtype, TSR_INT64, tsr__ref_kernel_reduce);
            }
            break;
        }
        case TSR_OP_CUMSUM:
        case TSR_OP_CUMPROD:
        case TSR_OP_CUMMAX:
        case TSR_OP_CUMMIN:
        case TSR_OP_LOGCUMSUMEXP:
            if (tsr__ref_scan_supports(op, dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_scan);
            }
            break;
        case TSR_OP_INDEX_SELECT:
            add(writer, op, dtype, dtype, tsr__ref_kernel_index_select);
            break;
        case TSR_OP_GATHER:
            add(writer, op, dtype, dtype, tsr__ref_kernel_gather);
            break;
        case TSR_OP_SCATTER:
            add(writer, op, dtype, dtype, tsr__ref_kernel_scatter);
            break;
        case TSR_OP_INDEX_ADD:
        case TSR_OP_INDEX_COPY:
            add(writer, op, dtype, dtype, tsr__ref_kernel_index_put);
            break;
        case TSR_OP_NONZERO:
            add(writer, op, dtype, TSR_INT64, tsr__ref_kernel_nonzero);
            break;
        case TSR_OP_TRIL:
        case TSR_OP_TRIU:
            add(writer, op, dtype, dtype, tsr__ref_kernel_triangle);
            break;
        case TSR_OP_SORT:
            if (TSR__REF_SORT_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_sort);
            }
            break;
        case TSR_OP_SEARCHSORTED:
            if (TSR__REF_SEARCH_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, TSR_INT32, tsr__ref_kernel_searchsorted);
                add(writer, op, dtype, TSR_INT64, tsr__ref_kernel_searchsorted);
            }
            break;
        case TSR_OP_POOL_MAX:
        case TSR_OP_POOL_MAX_BACKWARD:
        case TSR_OP_POOL_AVG:
        case TSR_OP_POOL_AVG_BACKWARD:
        case TSR_OP_POOL_ADAPTIVE_AVG:
        case TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD:
        case TSR_OP_POOL_ADAPTIVE_MAX:
            if (tsr__ref_pool_dtypes(op) & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_pool);
            }
            break;
        case TSR_OP_IM2COL:
            if (CONV_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_im2col);
            }
            break;
        case TSR_OP_COL2IM:
            if (CONV_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_col2im);
            }
            break;
        case TSR_OP_CONVOLUTION:
        case TSR_OP_CONVOLUTION_BACKWARD_DATA:
        case TSR_OP_CONVOLUTION_BACKWARD_WEIGHT:
            if (DIRECT_CONV_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_convolution);
            }
            break;
        case TSR_OP_UPSAMPLE: /* the core refuses uint8 outside the nearest modes */
            if ((RESAMPLE_DTYPES | TSR__REF_DTYPE_BIT(TSR_UINT8)) & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_upsample);
            }
            break;
        case TSR_OP_UPSAMPLE_BACKWARD:
            if (RESAMPLE_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_upsample);
            }
            break;
        case TSR_OP_GRID_SAMPLER:
        case TSR_OP_GRID_SAMPLER_BACKWARD:
            if (TSR__REF_SET_FLOAT3264 & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype,
                    op == TSR_OP_GRID_SAMPLER ? tsr__ref_kernel_grid_sampler
                                              : tsr__ref_kernel_grid_sampler_backward);
            }
            break;
        case TSR_OP_FFT_C2C:
            if (dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128) {
                add(writer, op, dtype, dtype, tsr__ref_kernel_fft);
            }
            break;
        case TSR_OP_FFT_R2C:
            if (dtype == TSR_FLOAT32 || dtype == TSR_FLOAT64) {
                add(writer, op, dtype, dtype == TSR_FLOAT32 ? TSR_COMPLEX64 : TSR_COMPLEX128,
                    tsr__ref_kernel_fft);
            }
            break;
        case TSR_OP_FFT_C2R:
            if (dtype == TSR_COMPLEX64 || dtype == TSR_COMPLEX128) {
                add(writer, op, dtype, dtype == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64,
                    tsr__ref_kernel_fft);
            }
            break;
        case TSR_OP_LINALG_CHOLESKY:
        case TSR_OP_LINALG_LU:
        case TSR_OP_LINALG_SOLVE_TRIANGULAR:
            if (TSR__REF_LINALG_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype,
                    op == TSR_OP_LINALG_CHOLESKY ? tsr__ref_kernel_linalg_cholesky
                    : op == TSR_OP_LINALG_LU     ? tsr__ref_kernel_linalg_lu
                                                 : tsr__ref_kernel_linalg_solve_triangular);
            }
            break;
        case TSR_OP_LINALG_QR:
        case TSR_OP_LINALG_EIGH:
        case TSR_OP_LINALG_SVD:
        case TSR_OP_LINALG_GEQRF:
            if (TSR__REF_LINALG_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype, dtype,
                    op == TSR_OP_LINALG_QR     ? tsr__ref_kernel_linalg_qr
                    : op == TSR_OP_LINALG_EIGH ? tsr__ref_kernel_linalg_eigh
                    : op == TSR_OP_LINALG_SVD  ? tsr__ref_kernel_linalg_svd
                                               : tsr__ref_kernel_linalg_geqrf);
            }
            break;
        case TSR_OP_LINALG_EIG:
            if (TSR__REF_LINALG_DTYPES & TSR__REF_DTYPE_BIT(dtype)) {
                add(writer, op, dtype,
                    dtype == TSR_FLOAT32   ? TSR_COMPLEX64
                    : dtype == TSR_FLOAT64 ? TSR_COMPLEX128
                                           : dtype,
                    tsr__ref_kernel_linalg_eig);
            }
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
