/* copy between tensors of one dtype (contiguous, clone, expand and
 * materialised broadcasts) and fill: rows of bytes moved with memcpy, or
 * repeated from one element, split over the pool for large tensors. Moving
 * bytes unchanged is what the reference kernel does for equal dtypes, and
 * fill converts its scalar with the reference's own routine, so the bits
 * agree for every dtype. Conversions between dtypes and other layouts go to
 * the reference kernel. */
#include <stddef.h>
#include <string.h>

#include "cpu_backend.h"
#include "cpu_walk.h"
#include "kernels.h" /* tsr__ref_kernel_copy, tsr__ref_kernel_fill */
#include "wide.h"    /* tsr__ref_scalar_store */

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

typedef struct fill_run {
    int64_t elsize;
    int zero; /* every byte of the element is 0: memset */
    unsigned char element[16];
} fill_run;

static void fill_row(void *context, char *const *ptrs, const int64_t *steps, int64_t n)
{
    (void)steps;
    const fill_run *run = context;
    if (run->zero) {
        memset(ptrs[0], 0, (size_t)(n * run->elsize));
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        memcpy(ptrs[0] + i * run->elsize, run->element, (size_t)run->elsize);
    }
}

int tsr__cpu_kernel_fill(void *backend_ptr, const tsr_kernel_args *args)
{
    tsr__cpu_backend *backend = backend_ptr;
    tsr__cpu_walk walk;
    const tsr_elementwise_attrs *attrs = args != NULL ? args->attrs : NULL;
    size_t needed = offsetof(tsr_elementwise_attrs, scalars) + sizeof(tsr_scalar);
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 0 ||
        args->num_outputs != 1 || args->outputs == NULL || attrs == NULL ||
        attrs->struct_size < needed || !tsr__cpu_walk_init(&walk, &args->outputs[0], NULL, 0) ||
        walk.elsize[0] > 16) {
        return tsr__ref_kernel_fill(backend, args);
    }
    fill_run run = {.elsize = walk.elsize[0]};
    tsr__ref_scalar_store(&attrs->scalars[0], args->outputs[0].dtype, run.element);
    run.zero = 1;
    for (int64_t i = 0; i < run.elsize; i++) {
        run.zero &= run.element[i] == 0;
    }
    tsr__cpu_walk_run(backend, &walk, TSR__CPU_ELEMENTWISE_GRAIN * 4, fill_row, &run);
    return TSR_OK;
}
