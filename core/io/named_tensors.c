/* tsr_named_tensors_free: the one way to free the (names, tensors) arrays
 * that the file readers (safetensors, npz, saved state) return. */
#include "tessera/tessera.h"

#include <stdlib.h>

void tsr_named_tensors_free(char **names, tsr_tensor **tensors, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (names)
            free(names[i]);
        if (tensors)
            tsr_tensor_release(tensors[i]);
    }
    free(names);
    free(tensors);
}
