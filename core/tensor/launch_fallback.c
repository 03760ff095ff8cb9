/* Running a kernel the outputs' backend lacks on the fallback backend
 * (TESSERA_FALLBACK; the choice is runtime/fallback.c's).
 *
 * Every operand moves to the fallback whole, outputs included: some kernels
 * read their output first (scatter into a copy of self), and an output that
 * aliases an input becomes a separate buffer there, which the kernels'
 * contract already allows (the core stages such outputs for kernels without
 * TSR_KERNEL_INPLACE). Moves copy the storage span a view reaches, with no
 * kernel on either side, so the caller's backend needs nothing beyond its
 * memory functions. Autograd never sees the detour: the op records on the
 * caller's tensors, after the launch, as for any other kernel. */
#include "runtime/fallback.h"
#include "tensor/copy.h"
#include "tensor/launch.h"

static void release_all(tsr_tensor **tensors, int n)
{
    for (int i = 0; i < n; i++)
        tsr_tensor_release(tensors[i]);
}

static tsr_status move_all(const char *name, const tsr_tensor *const *tensors, int n,
                           tsr_backend *dst, tsr_tensor **moved)
{
    for (int i = 0; i < n; i++) {
        moved[i] = NULL;
        tsr_status st = tsr__move_view_across(name, tensors[i], dst, &moved[i]);
        if (st != TSR_OK) {
            release_all(moved, i);
            return st;
        }
    }
    return TSR_OK;
}

tsr_status tsr__launch_fallback(tsr_op op, tsr_dtype dtype_in, tsr_dtype dtype_out,
                                const tsr_tensor *const *inputs, int num_inputs,
                                tsr_tensor *const *outputs, int num_outputs, const void *attrs)
{
    const char *name = tsr_op_name(op);
    tsr_backend *b = outputs[0]->storage->backend, *fallback = NULL;
    tsr_status st = tsr__fallback_find(b, op, dtype_in, dtype_out, &fallback);
    if (st != TSR_OK || !fallback)
        return tsr__require_kernel(name, b, op, dtype_in, dtype_out); /* the error, worded */
    if (tsr_tensor_numel(outputs[0]) == 0)
        return TSR_OK;
    tsr__fallback_note(b, fallback, op, dtype_in, dtype_out);
    tsr_tensor *in[TSR__MAX_OPERANDS], *out[TSR__MAX_OPERANDS];
    if ((st = move_all(name, inputs, num_inputs, fallback, in)) != TSR_OK)
        return st;
    if ((st = move_all(name, (const tsr_tensor *const *)outputs, num_outputs, fallback, out)) !=
        TSR_OK) {
        release_all(in, num_inputs);
        return st;
    }
    st = tsr__launch(op, dtype_in, dtype_out, (const tsr_tensor *const *)in, num_inputs, out,
                     num_outputs, attrs);
    for (int i = 0; i < num_outputs && st == TSR_OK; i++)
        st = tsr__move_view_back(name, out[i], outputs[i]);
    release_all(in, num_inputs);
    release_all(out, num_outputs);
    return st;
}
