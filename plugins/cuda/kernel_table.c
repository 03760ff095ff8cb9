/* What this backend claims, and the host side of each kernel: checking the
 * descriptors and queueing the launch. Only copy between equal dtypes so
 * far; the conformance runner reports every other op as not claimed. */
#include <stdlib.h>

#include "backend.h"
#include "kernels.h"

static const int32_t ELEMENT_SIZE[TSR_DTYPE_COUNT] = {
#define TSR_CU_SIZE_(id, name, size) size,
    TSR_DTYPE_LIST(TSR_CU_SIZE_)
#undef TSR_CU_SIZE_
};

static int to_strided(const tsr_host_api *host, const tsr_tensor_desc *desc, tsr__cu_strided *out,
                      int64_t *count)
{
    if (desc->ndim < 0 || desc->ndim > TSR_MAX_DIMS || desc->dtype < 0 ||
        desc->dtype >= TSR_DTYPE_COUNT)
        return host->set_error(TSR_ERR_INVALID_ARGUMENT, "a descriptor has rank %d, dtype %d",
                               (int)desc->ndim, (int)desc->dtype);
    *out = (tsr__cu_strided){0};
    out->data = tsr__cu_ptr(desc->data, desc->byte_offset);
    out->ndim = desc->ndim;
    *count = 1;
    for (int32_t d = 0; d < desc->ndim; d++) {
        if (desc->shape[d] < 0 || desc->strides[d] < 0)
            return host->set_error(TSR_ERR_INVALID_ARGUMENT, "dim %d: size %lld, stride %lld",
                                   (int)d, (long long)desc->shape[d], (long long)desc->strides[d]);
        out->shape[d] = desc->shape[d];
        out->strides[d] = desc->strides[d];
        *count *= desc->shape[d];
    }
    return TSR_OK;
}

static int kernel_copy(void *backend, const tsr_kernel_args *args)
{
    struct tsr__cu_backend *b = backend;
    if (args->num_inputs != 1 || args->num_outputs != 1)
        return b->host->set_error(TSR_ERR_INVALID_ARGUMENT, "copy takes 1 input and 1 output");
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    tsr__cu_strided src, dst;
    int64_t count, out_count;
    int status = to_strided(b->host, in, &src, &count);
    if (status == TSR_OK)
        status = to_strided(b->host, out, &dst, &out_count);
    if (status != TSR_OK)
        return status;
    if (in->dtype != out->dtype || count != out_count || in->ndim != out->ndim)
        return b->host->set_error(TSR_ERR_SHAPE, "input and output differ in dtype or shape");
    pthread_mutex_lock(&b->lock);
    cudaError_t err = tsr__cu_launch_copy(b->stream, dst, src, ELEMENT_SIZE[in->dtype], count);
    pthread_mutex_unlock(&b->lock);
    return err == cudaSuccess ? TSR_OK : tsr__cu_error(b->host, err, "copy kernel launch");
}

int tsr__cu_kernel_table_build(struct tsr__cu_backend *b)
{
    const uint32_t flags = TSR_KERNEL_STRIDED | TSR_KERNEL_BROADCAST | TSR_KERNEL_INPLACE;
    b->kernels = calloc(TSR_DTYPE_COUNT, sizeof *b->kernels);
    if (!b->kernels)
        return b->host->set_error(TSR_ERR_OUT_OF_MEMORY, "out of host memory");
    for (int32_t dtype = 0; dtype < TSR_DTYPE_COUNT; dtype++)
        b->kernels[b->kernel_count++] =
            (tsr_kernel_entry){TSR_OP_COPY, dtype, dtype, flags, kernel_copy};
    return TSR_OK;
}
