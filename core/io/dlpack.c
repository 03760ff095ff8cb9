/* DLPack: tensors handed to and taken from other frameworks without a copy.
 *
 * Export lends the storage: the DLManagedTensor holds a reference to the
 * tensor (and so to its storage) until the consumer calls its deleter.
 * Import wraps the producer's memory in storage that does not own it; the
 * storage's last release calls the producer's deleter, once. Only host
 * memory crosses: a device backend's memory handles are opaque to the core
 * (plugin.h), so there is nothing a consumer could be given for them. */
#include "io/blob.h"
#include "runtime/alloc.h"

#include "runtime/backend.h"
#include "runtime/error.h"
#include "tensor/tensor.h"

#include <dlpack/dlpack.h>

#include <stdlib.h>
#include <string.h>

/* DLPack 0.8's bool code; 0.6 (Debian 12) has none. */
enum { TSR_DL_BOOL = 6 };

typedef struct dl_code {
    tsr_dtype dtype;
    uint8_t code, bits;
} dl_code;

/* The first row for a dtype is what export writes: bool as kDLUInt 8, as
 * PyTorch 1.13 exports it. The last row is read only. */
static const dl_code dl_codes[] = {
    {TSR_BOOL, kDLUInt, 8},      {TSR_UINT8, kDLUInt, 8},         {TSR_INT8, kDLInt, 8},
    {TSR_INT16, kDLInt, 16},     {TSR_INT32, kDLInt, 32},         {TSR_INT64, kDLInt, 64},
    {TSR_FLOAT16, kDLFloat, 16}, {TSR_BFLOAT16, kDLBfloat, 16},   {TSR_FLOAT32, kDLFloat, 32},
    {TSR_FLOAT64, kDLFloat, 64}, {TSR_COMPLEX64, kDLComplex, 64}, {TSR_COMPLEX128, kDLComplex, 128},
    {TSR_BOOL, TSR_DL_BOOL, 8},
};

enum { DL_CODES = sizeof dl_codes / sizeof dl_codes[0] };

/* What a managed tensor from tsr_to_dlpack points into. */
typedef struct dl_export {
    DLManagedTensor managed;
    int64_t shape[TSR_MAX_DIMS];
    int64_t strides[TSR_MAX_DIMS];
    const tsr_tensor *tensor; /* the reference the consumer holds */
} dl_export;

static void dl_export_delete(DLManagedTensor *self)
{
    dl_export *e = self ? self->manager_ctx : NULL;
    if (!e)
        return;
    tsr_tensor_release(e->tensor);
    free(e);
}

tsr_status tsr_to_dlpack(const tsr_tensor *tensor, DLManagedTensor **out)
{
    if (!tensor || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tsr_to_dlpack: tensor and out must not be NULL");
    tsr_backend *b = tensor->storage->backend;
    if (!b->host_memory)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "tsr_to_dlpack: tensor: backend '%s' keeps device memory that the "
                              "plugin ABI cannot export (no kDLVulkan handle); copy it to a host "
                              "backend first (tsr_to_backend)",
                              b->name);
    /* bool is the first row too, then uint8: each dtype's first row wins */
    const dl_code *c = NULL;
    for (size_t i = 0; i < DL_CODES && !c; i++)
        if (dl_codes[i].dtype == tensor->dtype)
            c = &dl_codes[i];
    if (!c)
        return tsr__set_error(TSR_ERR_DTYPE, "tsr_to_dlpack: tensor: dtype %d has no DLPack code",
                              (int)tensor->dtype);
    /* queued kernels must be done before another framework reads the memory */
    tsr_status st = tsr_backend_synchronize(b);
    if (st != TSR_OK) {
        tsr__prefix_error("tsr_to_dlpack");
        return st;
    }
    dl_export *e = tsr__calloc(1, sizeof *e);
    if (!e)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "tsr_to_dlpack: out of memory");
    if (tensor->ndim > 0) {
        memcpy(e->shape, tensor->shape, sizeof(int64_t) * (size_t)tensor->ndim);
        memcpy(e->strides, tensor->strides, sizeof(int64_t) * (size_t)tensor->ndim);
    }
    tsr_tensor_retain(tensor);
    e->tensor = tensor;
    DLTensor *dl = &e->managed.dl_tensor;
    dl->data = tensor->storage->handle;
    dl->device = (DLDevice){kDLCPU, 0};
    dl->ndim = tensor->ndim;
    dl->dtype = (DLDataType){c->code, c->bits, 1};
    dl->shape = e->shape;
    dl->strides = e->strides;
    dl->byte_offset = (uint64_t)tensor->offset * tsr_dtype_size(tensor->dtype);
    e->managed.manager_ctx = e;
    e->managed.deleter = dl_export_delete;
    *out = &e->managed;
    return TSR_OK;
}

/* The deleter runs when the wrapping storage goes. */
static void dl_import_release(void *context)
{
    DLManagedTensor *managed = context;
    if (managed->deleter)
        managed->deleter(managed);
}

static tsr_status dl_dtype(const DLDataType *t, tsr_dtype *out)
{
    if (t->lanes != 1)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "tsr_from_dlpack: managed: %u-lane vector dtypes are not supported",
                              (unsigned)t->lanes);
    /* uint8 before bool: kDLUInt 8 is uint8 on import, as in PyTorch */
    for (size_t i = 1; i < DL_CODES; i++) {
        if (dl_codes[i].code == t->code && dl_codes[i].bits == t->bits) {
            *out = dl_codes[i].dtype;
            return TSR_OK;
        }
    }
    return tsr__set_error(TSR_ERR_DTYPE,
                          "tsr_from_dlpack: managed: DLPack dtype code %u with %u bits has no "
                          "tessera dtype",
                          (unsigned)t->code, (unsigned)t->bits);
}

tsr_status tsr_from_dlpack(DLManagedTensor *managed, tsr_backend *backend, tsr_tensor **out)
{
    if (!managed || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "tsr_from_dlpack: managed and out must not be NULL");
    const DLTensor *dl = &managed->dl_tensor;
    if (dl->device.device_type != kDLCPU && dl->device.device_type != kDLCUDAHost)
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "tsr_from_dlpack: managed: device type %d is not host memory "
                              "(kDLCPU); only host memory can be wrapped",
                              (int)dl->device.device_type);
    if (dl->ndim < 0 || dl->ndim > TSR_MAX_DIMS)
        return tsr__set_error(TSR_ERR_SHAPE, "tsr_from_dlpack: managed: ndim %d is not 0 to %d",
                              dl->ndim, TSR_MAX_DIMS);
    tsr_dtype dtype = TSR_FLOAT32;
    tsr_status st = dl_dtype(&dl->dtype, &dtype);
    if (st != TSR_OK)
        return st;
    if (!dl->data)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "tsr_from_dlpack: managed: data is NULL");
    char *data = (char *)dl->data + dl->byte_offset;
    st = tsr__blob_wrap("tsr_from_dlpack", data, dl->ndim, dl->shape, dl->strides, dtype,
                        dl_import_release, managed, backend, out);
    return st;
}
