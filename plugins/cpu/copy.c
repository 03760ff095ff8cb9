/* copy between tensors of one dtype (contiguous, clone, expand and
 * materialised broadcasts): rows of bytes moved with memcpy or repeated
 * from a broadcast element, split over the pool for large tensors. Moving
 * bytes unchanged is what the reference kernel does for equal dtypes, so
 * the bits agree for every dtype. Conversions between dtypes and other
 * layouts go to the reference kernel. */
#include <string.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "kernels.h" /* tsr__ref_kernel_copy */

typedef struct copy_run {
    int64_t elsize;
} copy_run;

static void copy_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    const copy_run *run = context;
    if (steps[1] == 1) {
        memmove(ptrs[0], ptrs[1], (size_t)(n * run->elsize));
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        memcpy(ptrs[0] + i * run->elsize, ptrs[1], (size_t)run->elsize);
    }
}

int tsr__cpu_kernel_copy(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    tsr__cpu_walk walk;
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || args->inputs == NULL || args->outputs == NULL ||
        args->inputs[0].dtype != args->outputs[0].dtype ||
        !tsr__cpu_walk_init(&walk, &args->outputs[0], args->inputs, 1)) {
        return tsr__ref_kernel_copy(backend, args);
    }
    copy_run run = {walk.elsize[0]};
    tsr__cpu_walk_run(backend, &walk, TSR__CPU_ELEMENTWISE_GRAIN * 4, copy_row, &run);
    return TSR_OK;
}
