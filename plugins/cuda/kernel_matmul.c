/* matmul through cuBLAS (matmul_plan.h says how the call maps to
 * cublasGemmStridedBatchedEx). float16 and bfloat16 accumulate in float
 * (CUBLAS_COMPUTE_32F, tensor cores), float32 in float without TF32 unless
 * TESSERA_CUDA_TF32=1, float64 and complex128 in double. */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "kernel_elementwise.h"
#include "kernel_matmul.h"
#include "matmul_plan.h"

/* The library and a handle on the backend's stream, at the first matmul. */
static int ensure_cublas(struct tsr__cu_backend *b)
{
    if (b->cublas)
        return TSR_OK;
    char message[1200];
    tsr__cu_cublas *lib = calloc(1, sizeof *lib);
    if (!lib)
        return b->host->set_error(TSR_ERR_OUT_OF_MEMORY, "matmul: out of host memory");
    if (tsr__cu_cublas_open(NULL, lib, message, sizeof message) != 0) {
        free(lib);
        return b->host->set_error(TSR_ERR_BACKEND, "%s", message);
    }
    cublasStatus_t status = lib->create(&b->cublas_handle);
    if (status == CUBLAS_STATUS_SUCCESS)
        status = lib->set_stream(b->cublas_handle, b->stream);
    if (status != CUBLAS_STATUS_SUCCESS) {
        int code = b->host->set_error(TSR_ERR_BACKEND, "matmul: cuBLAS handle: %s",
                                      lib->status_string(status));
        if (b->cublas_handle)
            lib->destroy(b->cublas_handle);
        b->cublas_handle = NULL;
        tsr__cu_cublas_close(lib);
        free(lib);
        return code;
    }
    b->cublas = lib;
    b->tf32 = tsr__cu_tf32_enabled();
    return TSR_OK;
}

void tsr__cu_cublas_shutdown(struct tsr__cu_backend *b)
{
    if (!b->cublas)
        return;
    if (b->cublas_handle)
        b->cublas->destroy(b->cublas_handle);
    tsr__cu_cublas_close(b->cublas);
    free(b->cublas);
    b->cublas = NULL;
}

typedef struct gemm_types {
    cudaDataType data;
    cublasComputeType_t compute;
    union { /* alpha and beta in the compute type */
        float f[2];
        double d[2];
    } alpha, beta;
} gemm_types;

static gemm_types types_for(const tsr__cu_gemm_plan *p, int tf32)
{
    gemm_types t;
    const double ar = p->dtype >= TSR_COMPLEX64 ? p->alpha.c.re : p->alpha.f;
    const double ai = p->dtype >= TSR_COMPLEX64 ? p->alpha.c.im : 0.0;
    const double br = !p->has_c ? 0.0 : p->dtype >= TSR_COMPLEX64 ? p->beta.c.re : p->beta.f;
    const double bi = p->has_c && p->dtype >= TSR_COMPLEX64 ? p->beta.c.im : 0.0;
    const int wide = p->dtype == TSR_FLOAT64 || p->dtype == TSR_COMPLEX128;
    switch (p->dtype) {
    case TSR_FLOAT16:
        t.data = CUDA_R_16F;
        break;
    case TSR_BFLOAT16:
        t.data = CUDA_R_16BF;
        break;
    case TSR_FLOAT32:
        t.data = CUDA_R_32F;
        break;
    case TSR_FLOAT64:
        t.data = CUDA_R_64F;
        break;
    case TSR_COMPLEX64:
        t.data = CUDA_C_32F;
        break;
    default:
        t.data = CUDA_C_64F;
        break;
    }
    t.compute = wide                              ? CUBLAS_COMPUTE_64F
                : tf32 && p->dtype == TSR_FLOAT32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                  : CUBLAS_COMPUTE_32F;
    if (wide) {
        t.alpha.d[0] = ar, t.alpha.d[1] = ai, t.beta.d[0] = br, t.beta.d[1] = bi;
    } else {
        t.alpha.f[0] = (float)ar, t.alpha.f[1] = (float)ai;
        t.beta.f[0] = (float)br, t.beta.f[1] = (float)bi;
    }
    return t;
}

/* Contiguous strides of an operand's full shape. */
static void contiguous(const tsr_tensor_desc *d, int64_t *strides)
{
    int64_t step = 1;
    for (int32_t i = d->ndim - 1; i >= 0; i--) {
        strides[i] = step;
        step *= d->shape[i];
    }
}

static int64_t numel(const tsr_tensor_desc *d)
{
    int64_t n = 1;
    for (int32_t i = 0; i < d->ndim; i++)
        n *= d->shape[i];
    return n;
}

/* Runs the plan's calls; the caller holds the lock and frees `scratch`. */
static int run(struct tsr__cu_backend *b, const tsr_kernel_args *args, const tsr__cu_gemm_plan *p,
               tsr__cu_block **scratch)
{
    const tsr_tensor_desc *descs[3] = {&args->outputs[0], &args->inputs[0], &args->inputs[1]};
    const int size = tsr__cu_dtype_size(p->dtype);
    char *base[3];
    int64_t packed[TSR_MAX_DIMS];
    for (int i = 0; i < 3; i++) {
        base[i] = tsr__cu_ptr(descs[i]->data, descs[i]->byte_offset);
        if (!p->operand[i].pack)
            continue;
        size_t bytes = (size_t)numel(descs[i]) * (size_t)size;
        if (tsr__cu_allocator_alloc(&b->device_pool, bytes, tsr__cu_fence_poll(b), &scratch[i]))
            return b->host->set_error(TSR_ERR_OUT_OF_MEMORY,
                                      "matmul: no device memory for %zu bytes of scratch", bytes);
        contiguous(descs[i], packed);
        int status = TSR_OK;
        if (i != TSR__CU_MM_OUT)
            status = tsr__cu_copy_layout(b, p->dtype, descs[i]->ndim, descs[i]->shape,
                                         scratch[i]->ptr, packed, base[i], descs[i]->strides);
        if (status != TSR_OK)
            return status;
        base[i] = scratch[i]->ptr;
    }
    const tsr_tensor_desc *out = descs[TSR__CU_MM_OUT];
    int64_t out_strides[TSR_MAX_DIMS];
    if (p->operand[TSR__CU_MM_OUT].pack)
        contiguous(out, out_strides);
    else
        for (int32_t d = 0; d < out->ndim; d++)
            out_strides[d] = out->strides[d];
    if (p->has_c) { /* beta * c: c goes where cuBLAS reads and writes C */
        const tsr_tensor_desc *c = &args->inputs[2];
        int status =
            tsr__cu_copy_layout(b, p->dtype, out->ndim, out->shape, base[TSR__CU_MM_OUT],
                                out_strides, tsr__cu_ptr(c->data, c->byte_offset), c->strides);
        if (status != TSR_OK)
            return status;
    }
    const gemm_types t = types_for(p, b->tf32);
    const tsr__cu_gemm_operand *oa = &p->operand[TSR__CU_MM_A], *ob = &p->operand[TSR__CU_MM_B];
    for (int64_t outer = 0; outer < p->outer_count; outer++) {
        int64_t off[3];
        tsr__cu_gemm_outer_offsets(p, outer, off);
        /* out^T = b^T a^T, column-major: cuBLAS's A is b, its B is a. */
        cublasStatus_t status = b->cublas->gemm_strided_batched(
            b->cublas_handle, ob->transpose ? CUBLAS_OP_T : CUBLAS_OP_N,
            oa->transpose ? CUBLAS_OP_T : CUBLAS_OP_N, (int)p->n, (int)p->m, (int)p->k, &t.alpha,
            base[TSR__CU_MM_B] + off[TSR__CU_MM_B] * size, t.data, (int)ob->ld,
            tsr__cu_gemm_inner_stride(p, TSR__CU_MM_B),
            base[TSR__CU_MM_A] + off[TSR__CU_MM_A] * size, t.data, (int)oa->ld,
            tsr__cu_gemm_inner_stride(p, TSR__CU_MM_A), &t.beta,
            base[TSR__CU_MM_OUT] + off[TSR__CU_MM_OUT] * size, t.data,
            (int)p->operand[TSR__CU_MM_OUT].ld, tsr__cu_gemm_inner_stride(p, TSR__CU_MM_OUT),
            (int)p->inner_count, t.compute, CUBLAS_GEMM_DEFAULT);
        if (status != CUBLAS_STATUS_SUCCESS)
            return b->host->set_error(TSR_ERR_BACKEND, "matmul: cublasGemmStridedBatchedEx: %s",
                                      b->cublas->status_string(status));
    }
    if (p->operand[TSR__CU_MM_OUT].pack)
        return tsr__cu_copy_layout(b, p->dtype, out->ndim, out->shape,
                                   tsr__cu_ptr(out->data, out->byte_offset), out->strides,
                                   base[TSR__CU_MM_OUT], out_strides);
    return TSR_OK;
}

/* Whether the output must be computed in scratch: it shares a block with a
 * or b, or with c in another layout (c in the output's own layout is
 * in-place addmm_, copied onto itself). */
static int out_overlaps(const tsr_kernel_args *args)
{
    if (args->num_outputs != 1 || !args->outputs || args->num_inputs < 2 || !args->inputs)
        return 0;
    const tsr_tensor_desc *out = &args->outputs[0];
    if (out->data == args->inputs[0].data || out->data == args->inputs[1].data)
        return 1;
    if (args->num_inputs < 3 || out->data != args->inputs[2].data)
        return 0;
    const tsr_tensor_desc *c = &args->inputs[2];
    if (c->byte_offset != out->byte_offset || c->ndim != out->ndim || !c->strides || !out->strides)
        return 1;
    for (int32_t d = 0; d < out->ndim; d++)
        if (c->strides[d] != out->strides[d])
            return 1;
    return 0;
}

int tsr__cu_kernel_matmul(void *backend, const tsr_kernel_args *args)
{
    struct tsr__cu_backend *b = backend;
    const int shares = out_overlaps(args);
    tsr__cu_gemm_plan plan;
    char message[256];
    int status = tsr__cu_gemm_plan_init(&plan, args, shares, message, sizeof message);
    if (status != TSR_OK)
        return b->host->set_error(status, "%s", message);
    if (plan.m == 0 || plan.n == 0 || plan.inner_count == 0)
        return TSR_OK;
    pthread_mutex_lock(&b->lock);
    status = ensure_cublas(b);
    tsr__cu_block *scratch[3] = {NULL, NULL, NULL};
    if (status == TSR_OK)
        status = run(b, args, &plan, scratch);
    for (int i = 0; i < 3; i++) /* stream-ordered: reusable by later work at once */
        if (scratch[i])
            tsr__cu_allocator_free(&b->device_pool, scratch[i], b->fences.next);
    pthread_mutex_unlock(&b->lock);
    return status;
}
