/* The indexing, scattering, sorting and triangle kernels (index.c,
 * scatter.c, sort.c, rearrange.c) and the small N-d walk they share.
 *
 * These kernels move whole elements to places named by data (an index
 * tensor, a sort order), so they cannot use the row walk of strided_loop.h:
 * they visit coordinates one element at a time with an odometer and compute
 * each operand's address from its own strides. Slow but plain; the
 * reference backend is the yardstick, not the fast path. */
#ifndef TSR_REFERENCE_INDEX_WALK_H
#define TSR_REFERENCE_INDEX_WALK_H

#include <stdint.h>
#include <string.h>

#include <tessera/plugin.h>

#include "backend.h"
#include "wide.h"

/* ------------------------------------------------------------------------ */
/* Kernels and their dtypes                                                  */
/* ------------------------------------------------------------------------ */

/* index_select, gather, scatter, index_add, index_copy, nonzero, tril and
 * triu take every dtype, as in PyTorch 1.13. sort orders everything but
 * complex numbers; searchsorted neither complex numbers nor bool. */
#define TSR__REF_SORT_DTYPES (TSR__REF_SET_ALL & ~TSR__REF_SET_COMPLEX)
#define TSR__REF_SEARCH_DTYPES (TSR__REF_SET_INTEGER | TSR__REF_SET_REAL)

/* index.c */
int tsr__ref_kernel_index_select(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_gather(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_nonzero(void *backend, const tsr_kernel_args *args);
/* rearrange.c: tril and triu (args->op says which). */
int tsr__ref_kernel_triangle(void *backend, const tsr_kernel_args *args);
/* scatter.c: scatter (every reduce), index_add and index_copy. */
int tsr__ref_kernel_scatter(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_index_put(void *backend, const tsr_kernel_args *args);
/* sort.c */
int tsr__ref_kernel_sort(void *backend, const tsr_kernel_args *args);
int tsr__ref_kernel_searchsorted(void *backend, const tsr_kernel_args *args);

/* ------------------------------------------------------------------------ */
/* Shared by the kernels above (index.c)                                     */
/* ------------------------------------------------------------------------ */

/* Checks the argument block (sizes, operand counts, descriptors: valid
 * dtype, rank 1 to TSR_MAX_DIMS, non-negative extents, data unless empty)
 * and returns the attributes through *attrs. Errors are reported. */
int tsr__ref_index_args(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                        int32_t num_inputs, int32_t num_outputs, const tsr_index_attrs **attrs);

/* Elements of a descriptor (the product of its extents). */
int64_t tsr__ref_desc_numel(const tsr_tensor_desc *desc);

/* The address of the element at coords (one per dim). */
static inline char *tsr__ref_desc_at(const tsr_tensor_desc *desc, const int64_t *coords)
{
    int64_t offset = 0;
    for (int32_t d = 0; d < desc->ndim; d++) {
        offset += coords[d] * desc->strides[d];
    }
    return (char *)desc->data + desc->byte_offset +
           offset * (int64_t)tsr__ref_dtype_size(desc->dtype);
}

/* The int64 at coords of an index descriptor. */
static inline int64_t tsr__ref_index_at(const tsr_tensor_desc *desc, const int64_t *coords)
{
    int64_t value;
    memcpy(&value, tsr__ref_desc_at(desc, coords), sizeof value);
    return value;
}

/* Advances coords through shape in C order; 0 once every position was seen. */
static inline int tsr__ref_next_coords(int64_t *coords, const int64_t *shape, int32_t ndim)
{
    for (int32_t d = ndim - 1; d >= 0; d--) {
        if (++coords[d] < shape[d]) {
            return 1;
        }
        coords[d] = 0;
    }
    return 0;
}

/* Copies `input` into `output` (same shape and dtype) element by element,
 * unless both describe the same memory. */
void tsr__ref_copy_desc(const tsr_tensor_desc *output, const tsr_tensor_desc *input);

/* Whether two descriptors name the same elements in the same layout. */
int tsr__ref_same_desc(const tsr_tensor_desc *a, const tsr_tensor_desc *b);

/* Checks that every value of the int64 `index` lies in [0, size); reports
 * the first that does not. */
int tsr__ref_check_indices(const tsr__ref_backend *backend, const tsr_tensor_desc *index,
                           int32_t dim, int64_t size);

#endif /* TSR_REFERENCE_INDEX_WALK_H */
