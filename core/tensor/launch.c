/* Launching a kernel on tensors: operands the kernel cannot take as they
 * are become contiguous copies (made with the raw copy kernel), outputs it
 * cannot write are staged, then one call on descriptors. */
#include "tensor/launch.h"

#include "runtime/error.h"
#include "tensor/copy.h"

tsr_status tsr__common_backend(const char *op, const tsr_tensor *const *tensors, int count,
                               tsr_backend **out)
{
    tsr_backend *b = NULL;
    for (int i = 0; i < count; i++) {
        if (!tensors[i])
            continue;
        tsr_backend *tb = tensors[i]->storage->backend;
        if (b && tb != b)
            return tsr__set_error(TSR_ERR_DEVICE_MISMATCH,
                                  "%s: operands live on different backends ('%s' and '%s'); "
                                  "move one with tsr_to_backend",
                                  op, b->name, tb->name);
        b = tb;
    }
    *out = b;
    return TSR_OK;
}

static void describe(const tsr_tensor *t, tsr_tensor_desc *d)
{
    d->data = t->storage->handle;
    d->byte_offset = t->offset * (int64_t)tsr_dtype_size(t->dtype);
    d->dtype = t->dtype;
    d->ndim = t->ndim;
    d->shape = t->shape;
    d->strides = t->strides;
}

static bool has_zero_stride(const tsr_tensor *t)
{
    for (int i = 0; i < t->ndim; i++) {
        if (t->strides[i] == 0 && t->shape[i] > 1)
            return true;
    }
    return false;
}

/* Replaces inputs the kernel cannot take as they are by contiguous copies,
 * listed in `copies` (NULL where the input is used as it is: the caller
 * holds it for the whole launch, so it needs no reference of its own). */
static tsr_status prepare_inputs(const char *op, uint32_t flags, const tsr_tensor *const *inputs,
                                 int n, const tsr_tensor **prepared, tsr_tensor **copies)
{
    for (int i = 0; i < n; i++) {
        const tsr_tensor *t = inputs[i];
        bool strided_ok = (flags & TSR_KERNEL_STRIDED) || tsr_tensor_is_contiguous(t);
        bool broadcast_ok = (flags & TSR_KERNEL_BROADCAST) || !has_zero_stride(t);
        copies[i] = NULL;
        prepared[i] = t;
        if (!strided_ok || !broadcast_ok) {
            tsr_status st = tsr__materialize(op, t, &copies[i]);
            if (st != TSR_OK) {
                for (int j = 0; j < i; j++)
                    tsr_tensor_release(copies[j]);
                return st;
            }
            prepared[i] = copies[i];
        }
    }
    return TSR_OK;
}

static bool output_needs_staging(uint32_t flags, const tsr_tensor *out,
                                 const tsr_tensor *const *inputs, int n)
{
    if (!(flags & TSR_KERNEL_STRIDED) && !tsr_tensor_is_contiguous(out))
        return true;
    if (flags & TSR_KERNEL_INPLACE)
        return false;
    for (int i = 0; i < n; i++) {
        if (inputs[i]->storage == out->storage)
            return true;
    }
    return false;
}

static tsr_status call_kernel(const char *op_name, tsr_backend *b, tsr_kernel_fn fn, tsr_op op,
                              const tsr_tensor *const *inputs, int num_inputs,
                              tsr_tensor *const *outputs, int num_outputs, const void *attrs)
{
    tsr_tensor_desc in_desc[TSR__MAX_OPERANDS], out_desc[TSR__MAX_OPERANDS];
    for (int i = 0; i < num_inputs; i++)
        describe(inputs[i], &in_desc[i]);
    for (int i = 0; i < num_outputs; i++)
        describe(outputs[i], &out_desc[i]);
    return tsr__kernel_call(op_name, b, fn, op, in_desc, num_inputs, out_desc, num_outputs,
                            attrs);
}

tsr_status tsr__launch(tsr_op op, tsr_dtype dtype_in, tsr_dtype dtype_out,
                       const tsr_tensor *const *inputs, int num_inputs, tsr_tensor *const *outputs,
                       int num_outputs, const void *attrs)
{
    const char *name = tsr_op_name(op);
    tsr_backend *b = outputs[0]->storage->backend;
    uint32_t flags = 0;
    tsr_kernel_fn fn = tsr__registry_find(b, op, dtype_in, dtype_out, &flags);
    if (!fn)
        return tsr__launch_fallback(op, dtype_in, dtype_out, inputs, num_inputs, outputs,
                                    num_outputs, attrs);
    if (tsr_tensor_numel(outputs[0]) == 0)
        return TSR_OK;
    const tsr_tensor *prepared[TSR__MAX_OPERANDS];
    tsr_tensor *copies[TSR__MAX_OPERANDS];
    tsr_status st = prepare_inputs(name, flags, inputs, num_inputs, prepared, copies);
    if (st != TSR_OK)
        return st;
    /* A kernel that cannot write in place or strided gets fresh outputs,
     * copied into the real ones afterwards. */
    tsr_tensor *staged[TSR__MAX_OPERANDS] = {NULL};
    tsr_tensor *targets[TSR__MAX_OPERANDS];
    for (int i = 0; i < num_outputs && st == TSR_OK; i++) {
        targets[i] = outputs[i];
        if (output_needs_staging(flags, outputs[i], prepared, num_inputs)) {
            st = tsr__tensor_empty(name, b, outputs[i]->dtype, outputs[i]->ndim,
                                   outputs[i]->shape, &staged[i]);
            targets[i] = staged[i];
        }
    }
    if (st == TSR_OK)
        st = call_kernel(name, b, fn, op, prepared, num_inputs, targets, num_outputs, attrs);
    for (int i = 0; i < num_outputs; i++) {
        if (staged[i] && st == TSR_OK)
            st = tsr__copy_same_backend(name, outputs[i], staged[i]);
        tsr_tensor_release(staged[i]);
    }
    for (int i = 0; i < num_inputs; i++)
        tsr_tensor_release(copies[i]);
    return st;
}
