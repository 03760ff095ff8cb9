/* The host side of the reductions: the plan from the descriptors, scratch
 * for the block partials from the device pool, and the launch. */
#include <stdio.h>

#include "backend.h"
#include "elem_table.h"
#include "kernel_reduce.h"
#include "reduce_launch.h"
#include "reduce_table.h"

int tsr__cu_kernel_reduce(void *backend, const tsr_kernel_args *args)
{
    struct tsr__cu_backend *b = backend;
    if (args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 || !args->inputs)
        return b->host->set_error(TSR_ERR_INVALID_ARGUMENT, "%s takes 1 input",
                                  tsr__cu_op_name(args->op));
    const tsr_tensor_desc *input = &args->inputs[0];
    char *out[TSR__CU_RED_OUTPUTS] = {NULL, NULL};
    for (int32_t k = 0; k < args->num_outputs && k < TSR__CU_RED_OUTPUTS && args->outputs; k++)
        if (args->outputs[k].data)
            out[k] = tsr__cu_ptr(args->outputs[k].data, args->outputs[k].byte_offset);
    const char *in = input->data ? tsr__cu_ptr(input->data, input->byte_offset) : NULL;
    tsr__cu_reduce_plan plan;
    char message[200];
    int status = tsr__cu_reduce_plan_init(&plan, args->op, input, args->outputs, args->num_outputs,
                                          args->attrs, in, out, message, sizeof message);
    if (status != TSR_OK)
        return b->host->set_error(status, "%s", message);
    if (plan.out_count == 0)
        return TSR_OK;
    /* Partials, then the kept values, in one scratch block; freed at once
     * into the stream-ordered pool (its next user is queued after us). */
    size_t part_bytes = (size_t)(plan.out_count * plan.blocks) * sizeof(tsr__cu_partial);
    size_t bytes = part_bytes + (size_t)plan.out_count * sizeof(tsr__cu_value);
    pthread_mutex_lock(&b->lock);
    tsr__cu_block *scratch;
    if (tsr__cu_allocator_alloc(&b->device_pool, bytes, tsr__cu_fence_poll(b), &scratch)) {
        pthread_mutex_unlock(&b->lock);
        return b->host->set_error(TSR_ERR_OUT_OF_MEMORY,
                                  "%s: no device memory for %zu bytes of "
                                  "partial results",
                                  tsr__cu_op_name(args->op), bytes);
    }
    char *base = scratch->ptr;
    /* The kept values are read (unused) by phase 0 too: defined bytes. */
    cudaError_t err = cudaMemsetAsync(base + part_bytes, 0, bytes - part_bytes, b->stream);
    if (err == cudaSuccess)
        err = tsr__cu_launch_reduce(b->stream, &plan, (tsr__cu_partial *)base,
                                    (tsr__cu_value *)(base + part_bytes));
    tsr__cu_allocator_free(&b->device_pool, scratch, b->fences.next);
    pthread_mutex_unlock(&b->lock);
    if (err != cudaSuccess) {
        snprintf(message, sizeof message, "%s kernel launch", tsr__cu_op_name(args->op));
        return tsr__cu_error(b->host, err, message);
    }
    return TSR_OK;
}
