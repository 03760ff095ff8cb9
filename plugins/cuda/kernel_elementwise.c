/* The host side of the elementwise kernels: parameters from
 * elem_prepare.c, then the launch on the backend's stream (copy between
 * any two dtypes, fill, where and every op of elem_table.c). */
#include <stdio.h>

#include "backend.h"
#include "elem_prepare.h"
#include "elem_table.h"
#include "elementwise_launch.h"
#include "kernel_elementwise.h"

static int launch(struct tsr__cu_backend *b, const tsr__cu_elem_params *p, const char *op)
{
    cudaError_t err = tsr__cu_launch_elementwise(b->stream, p);
    if (err != cudaSuccess) {
        char what[96];
        snprintf(what, sizeof what, "%s kernel launch", op);
        return tsr__cu_error(b->host, err, what);
    }
    return TSR_OK;
}

int tsr__cu_copy_layout(struct tsr__cu_backend *b, int32_t dtype, int32_t ndim,
                        const int64_t *shape, char *dst, const int64_t *dst_strides,
                        const char *src, const int64_t *src_strides)
{
    tsr__cu_elem_params p;
    tsr__cu_elem_copy_params(dtype, ndim, shape, dst, dst_strides, src, src_strides, &p);
    return launch(b, &p, "copy");
}

int tsr__cu_kernel_copy(void *backend, const tsr_kernel_args *args)
{
    struct tsr__cu_backend *b = backend;
    tsr__cu_elem_params p;
    int status = tsr__cu_elem_build_copy(b->host, args, &p);
    if (status != TSR_OK)
        return status;
    pthread_mutex_lock(&b->lock);
    status = launch(b, &p, "copy");
    pthread_mutex_unlock(&b->lock);
    return status;
}

int tsr__cu_kernel_where(void *backend, const tsr_kernel_args *args)
{
    struct tsr__cu_backend *b = backend;
    tsr__cu_elem_params p;
    int status = tsr__cu_elem_build_where(b->host, args, &p);
    if (status != TSR_OK)
        return status;
    pthread_mutex_lock(&b->lock);
    status = launch(b, &p, "where");
    pthread_mutex_unlock(&b->lock);
    return status;
}

/* Integer division: PyTorch raises before writing anything, so the divisor
 * is scanned on the device and the answer waited for (the one wait outside
 * synchronize and copy_to_host, paid by integer division only). */
static int check_divisor(struct tsr__cu_backend *b, const tsr_kernel_args *args, const char *op)
{
    tsr__cu_elem_params scan;
    tsr__cu_elem_divisor_params(args, &scan);
    *b->flag_host = 0;
    cudaError_t err = cudaMemsetAsync(b->flag_device, 0, sizeof(int), b->stream);
    if (err == cudaSuccess)
        err = tsr__cu_launch_zero_scan(b->stream, &scan, b->flag_device);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(b->flag_host, b->flag_device, sizeof(int), cudaMemcpyDeviceToHost,
                              b->stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(b->stream);
    if (err != cudaSuccess)
        return tsr__cu_error(b->host, err, "scanning the divisor for zeros");
    if (*b->flag_host)
        return b->host->set_error(TSR_ERR_VALUE, "%s: ZeroDivisionError (integer division by zero)",
                                  op);
    return TSR_OK;
}

int tsr__cu_kernel_elementwise(void *backend, const tsr_kernel_args *args)
{
    struct tsr__cu_backend *b = backend;
    const char *name = tsr__cu_op_name(args->op);
    tsr__cu_elem_params p;
    int check_zero = 0;
    int status = tsr__cu_elem_build_op(b->host, args, &p, &check_zero);
    if (status != TSR_OK)
        return status;
    pthread_mutex_lock(&b->lock);
    status = check_zero ? check_divisor(b, args, name) : TSR_OK;
    if (status == TSR_OK)
        status = launch(b, &p, name);
    pthread_mutex_unlock(&b->lock);
    return status;
}
