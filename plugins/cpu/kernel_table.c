/* The cpu kernel table, BLIS-style: first the reference backend's complete
 * table (so the cpu backend claims exactly the ops and dtypes reference
 * claims, and every slot nobody optimised gives reference's bits), then the
 * cpu kernels written over the slots they implement. Each cpu kernel
 * handles the layouts it is fast for and hands every other call to the
 * reference kernel it replaced, so flags stay the reference rows' flags. */
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_dnnl.h"
#include "wide.h" /* TSR__REF_DTYPE_BIT and the dtype sets */

#define FLOATS (TSR__REF_DTYPE_BIT(TSR_FLOAT32) | TSR__REF_DTYPE_BIT(TSR_FLOAT64))
/* Complex products stay on the reference kernel: OpenBLAS's complex
 * multiply turns inf * finite into NaN where PyTorch's formula (and the
 * reference) keeps the infinity, which the differential test catches. */
#define BLAS_DTYPES FLOATS
/* oneDNN convolves float32 and bfloat16, im2col and OpenBLAS's dgemm
 * float64 (conv_gemm.c); complex stays on the reference's direct kernels. */
#define DNNL_CONV_DTYPES (TSR__REF_DTYPE_BIT(TSR_FLOAT32) | TSR__REF_SET_BFLOAT16)
/* The linalg kernels: float32, float64, complex64, complex128. */
#define LINALG_DTYPES (FLOATS | TSR__REF_SET_COMPLEX)

/* One override: `fn` takes the rows (op, d, d) for every dtype d in `dtypes`. */
typedef struct kernel_override {
    int32_t op;
    uint32_t dtypes;
    tsr_kernel_fn fn;
} kernel_override;

static const kernel_override overrides[] = {
    {TSR_OP_COPY, TSR__REF_SET_ALL, tsr__cpu_kernel_copy},
    {TSR_OP_FILL, TSR__REF_SET_ALL, tsr__cpu_kernel_fill},
    {TSR_OP_ADD, FLOATS, tsr__cpu_kernel_binary},
    {TSR_OP_SUB, FLOATS, tsr__cpu_kernel_binary},
    {TSR_OP_MUL, FLOATS, tsr__cpu_kernel_binary},
    {TSR_OP_DIV, FLOATS, tsr__cpu_kernel_binary},
    {TSR_OP_NEG, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_EXP, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_LOG, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_EXPM1, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_LOG1P, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_SQRT, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_SIN, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_COS, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_TANH, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_SIGMOID, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_GELU, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_ERF, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_SILU, FLOATS, tsr__cpu_kernel_unary},
    {TSR_OP_SUM, FLOATS, tsr__cpu_kernel_reduce},
    {TSR_OP_MEAN, FLOATS, tsr__cpu_kernel_reduce},
    {TSR_OP_LOGSUMEXP, FLOATS, tsr__cpu_kernel_reduce},
    {TSR_OP_MATMUL, BLAS_DTYPES, tsr__cpu_kernel_matmul},
#ifdef TSR_CPU_HAVE_DNNL
    {TSR_OP_MATMUL, TSR__REF_SET_BFLOAT16, tsr__cpu_kernel_matmul_dnnl},
#endif
    {TSR_OP_GATHER, TSR__REF_SET_ALL, tsr__cpu_kernel_gather},
    {TSR_OP_SORT, TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX, tsr__cpu_kernel_sort},
    {TSR_OP_SOFTMAX, FLOATS, tsr__cpu_kernel_softmax},
    {TSR_OP_LOG_SOFTMAX, FLOATS, tsr__cpu_kernel_softmax},
    {TSR_OP_LAYER_NORM, FLOATS, tsr__cpu_kernel_norm},
    {TSR_OP_RMS_NORM, FLOATS, tsr__cpu_kernel_norm},
    {TSR_OP_CROSS_ENTROPY, FLOATS, tsr__cpu_kernel_cross_entropy},
    {TSR_OP_POOL_MAX, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_POOL_MAX_BACKWARD, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_POOL_AVG, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_POOL_AVG_BACKWARD, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_POOL_ADAPTIVE_AVG, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_POOL_ADAPTIVE_MAX, FLOATS, tsr__cpu_kernel_pool},
    {TSR_OP_CONVOLUTION, TSR__REF_DTYPE_BIT(TSR_FLOAT64), tsr__cpu_kernel_convolution_gemm},
    {TSR_OP_CONVOLUTION_BACKWARD_DATA, TSR__REF_DTYPE_BIT(TSR_FLOAT64),
     tsr__cpu_kernel_convolution_gemm},
    {TSR_OP_CONVOLUTION_BACKWARD_WEIGHT, TSR__REF_DTYPE_BIT(TSR_FLOAT64),
     tsr__cpu_kernel_convolution_gemm},
#ifdef TSR_CPU_HAVE_DNNL
    {TSR_OP_CONVOLUTION, DNNL_CONV_DTYPES, tsr__cpu_kernel_convolution_dnnl},
    {TSR_OP_CONVOLUTION_BACKWARD_DATA, DNNL_CONV_DTYPES, tsr__cpu_kernel_convolution_dnnl},
    {TSR_OP_CONVOLUTION_BACKWARD_WEIGHT, DNNL_CONV_DTYPES, tsr__cpu_kernel_convolution_dnnl},
#endif
    {TSR_OP_UPSAMPLE, TSR__REF_DTYPE_BIT(TSR_UINT8) | TSR__REF_SET_BFLOAT16 | FLOATS,
     tsr__cpu_kernel_upsample},
#ifdef TSR_CPU_HAVE_LAPACKE
    {TSR_OP_LINALG_CHOLESKY, LINALG_DTYPES, tsr__cpu_kernel_linalg_cholesky},
    {TSR_OP_LINALG_LU, LINALG_DTYPES, tsr__cpu_kernel_linalg_lu},
    {TSR_OP_LINALG_SOLVE_TRIANGULAR, LINALG_DTYPES, tsr__cpu_kernel_linalg_solve_triangular},
    {TSR_OP_LINALG_QR, LINALG_DTYPES, tsr__cpu_kernel_linalg_qr},
    {TSR_OP_LINALG_EIGH, LINALG_DTYPES, tsr__cpu_kernel_linalg_eigh},
    {TSR_OP_LINALG_SVD, LINALG_DTYPES, tsr__cpu_kernel_linalg_svd},
    {TSR_OP_LINALG_GEQRF, LINALG_DTYPES, tsr__cpu_kernel_linalg_geqrf},
#endif
};

/* Rows are few hundred to a few thousand; a linear scan at init is fine. */
static void apply_override(tsr_kernel_entry *entries, size_t count, const kernel_override *o)
{
    for (size_t i = 0; i < count; i++) {
        tsr_kernel_entry *e = &entries[i];
        if (e->op == o->op && e->dtype_in == e->dtype_out && e->dtype_in >= 0 &&
            e->dtype_in < TSR_DTYPE_COUNT && (o->dtypes & TSR__REF_DTYPE_BIT(e->dtype_in))) {
            e->fn = o->fn;
        }
    }
}

int tsr__cpu_kernel_table_build(tsr__cpu_backend *backend)
{
    tsr_kernel_entry *entries = NULL;
    size_t count = 0;
    int status = tsr__ref_kernel_table_build(&entries, &count);
    if (status != TSR_OK) {
        return status;
    }
    tsr_kernel_entry *reference = malloc(count * sizeof *reference + 1);
    if (reference == NULL) {
        free(entries);
        return TSR_ERR_OUT_OF_MEMORY;
    }
    if (count > 0) {
        memcpy(reference, entries, count * sizeof *reference);
    }
    for (size_t o = 0; o < sizeof overrides / sizeof overrides[0]; o++) {
        apply_override(entries, count, &overrides[o]);
    }
    /* The Fourier transforms: r2c and c2r rows pair a real dtype with a
     * complex one, which the overrides above (dtype to itself) never match. */
    for (size_t i = 0; i < count; i++) {
        if (entries[i].op == TSR_OP_FFT_C2C || entries[i].op == TSR_OP_FFT_R2C ||
            entries[i].op == TSR_OP_FFT_C2R) {
            entries[i].fn = tsr__cpu_kernel_fft;
        }
    }
#ifdef TSR_CPU_HAVE_LAPACKE
    /* eig's rows pair a real dtype with a complex one, which the overrides
     * above (dtype_in == dtype_out) do not reach: every one of them here. */
    for (size_t i = 0; i < count; i++) {
        if (entries[i].op == TSR_OP_LINALG_EIG) {
            entries[i].fn = tsr__cpu_kernel_linalg_eig;
        }
    }
#endif
    backend->ref.entries = entries;
    backend->ref.entry_count = count;
    backend->reference_entries = reference;
    return TSR_OK;
}

int tsr__cpu_kernel_is_reference(const tsr__cpu_backend *backend, int32_t op, int32_t dtype_in,
                                 int32_t dtype_out)
{
    for (size_t i = 0; i < backend->ref.entry_count; i++) {
        const tsr_kernel_entry *e = &backend->ref.entries[i];
        if (e->op == op && e->dtype_in == dtype_in && e->dtype_out == dtype_out) {
            return e->fn == backend->reference_entries[i].fn;
        }
    }
    return -1;
}
