/* sort: the reference kernel for now. */
#include "cpu_backend.h"
#include "indexing.h" /* tsr__ref_kernel_sort */

int tsr__cpu_kernel_sort(void *backend, const tsr_kernel_args *args)
{
    return tsr__ref_kernel_sort(backend, args);
}
