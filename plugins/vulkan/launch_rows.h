/* Dispatches whose metadata a kernel lays out itself (launch_rows.c): the
 * row ops (softmax.c, norm.c), where one workgroup owns a row, and the
 * indexing ops (index.c, scatter.c, rearrange.c), whose operands do not
 * share the output's shape.
 *
 * The kernel names a common shape and, per operand, element strides over
 * it (0 where the operand does not move along a dim). Each operand is
 * bound as the window covering its whole descriptor, so a shader may reach
 * any of its elements, not only those the common shape walks (an index
 * names them). */
#ifndef TSR_VULKAN_LAUNCH_ROWS_H
#define TSR_VULKAN_LAUNCH_ROWS_H

#include <stdint.h>

#include "launch.h"

#define TSR__VK_CUSTOM_EXTRA TSR_MAX_DIMS

struct tsr__vk_custom {
    int ndim; /* 1..TSR_MAX_DIMS */
    int64_t shape[TSR_MAX_DIMS];
    int64_t stride[4][TSR_MAX_DIMS]; /* elements; operand 0 is l->out */
    /* With at most 3 operands, words for the fourth operand's stride slots
     * (a kernel's own parameters). */
    uint32_t extra[TSR__VK_CUSTOM_EXTRA];
    uint32_t numel;  /* push constant: elements or rows */
    uint64_t groups; /* workgroups (capped at 65535; shaders loop) */
};

/* Checks the operands, binds their windows, writes the metadata (bases,
 * shape, byte strides, extra) and records one dispatch. Operands with no
 * elements are bound to the output's window (never read). Push constants:
 * numel, ndim, l->scalar. */
int tsr__vk_launch_custom(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                          const struct tsr__vk_custom *c);

/* Whether a wide (double/int64) variant of the row and scatter shaders may
 * be used: the device must have it, and TESSERA_VULKAN_NARROW_ROWS=1 turns
 * them off so that the float/int32 variants are tested on such a device. */
int tsr__vk_rows_wide(const struct tsr__vk_device *dev, int shader);

/* Elements of a descriptor; -1 for a negative extent. */
int64_t tsr__vk_desc_numel(const tsr_tensor_desc *t);

/* Whether two descriptors name the same elements in the same layout. */
int tsr__vk_same_view(const tsr_tensor_desc *a, const tsr_tensor_desc *b);

/* ------------------------------------------------------------------------ */
/* The row ops (launch_rows.c)                                              */
/* ------------------------------------------------------------------------ */

/* The shader running `op` (softmax or norm family) on `dtype`, -1 if none. */
int tsr__vk_nn_shader(const struct tsr__vk_device *dev, int32_t op, int32_t dtype);
/* TSR_OK if the row op `op` runs on t's dtype here, else the error reported. */
int tsr__vk_nn_dtype(struct tsr__vk_backend *b, int32_t op, const char *name,
                     const tsr_tensor_desc *t);
/* Whether a's extents from dim `from` on equal b's first `count` extents. */
int tsr__vk_same_extents(const tsr_tensor_desc *a, const tsr_tensor_desc *b, int from, int count);
/* Rows of at most 2^32 - 1 elements, at most 2^32 - 1 of them. */
int tsr__vk_row_sizes(struct tsr__vk_backend *b, const char *name, int64_t rows, int64_t len);
/* llvmpipe (a CPU device) ends every loop of an invocation once all its
 * loops together have iterated 65535 times, silently: on such a device a
 * row op whose workgroups would loop more than this (per_row iterations for
 * each of the rows one workgroup takes) fails cleanly, naming the op,
 * instead of answering wrong. Other devices: always TSR_OK. */
#define TSR__VK_LOOP_BUDGET 64000u
int tsr__vk_loop_budget(struct tsr__vk_backend *b, const char *name, int64_t rows, int64_t len,
                        uint64_t per_row);

/* ------------------------------------------------------------------------ */
/* The indexing ops (index.c)                                               */
/* ------------------------------------------------------------------------ */

/* Argument block, attributes and descriptors (rank 1..TSR_MAX_DIMS, known
 * dtype, no negative extents or strides). */
int tsr__vk_index_args(struct tsr__vk_backend *b, const tsr_kernel_args *args, int inputs,
                       const tsr_index_attrs **attrs);
/* Reports that the operand shapes or dim do not fit. */
int tsr__vk_dims_error(struct tsr__vk_backend *b, const char *name);
/* A byte stride that shaders hold in 32 bits. */
int tsr__vk_byte_stride(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int dim,
                        uint32_t *out);
/* Sets c's numel and groups for n elements, one invocation each. */
int tsr__vk_elements(struct tsr__vk_backend *b, int64_t n, struct tsr__vk_custom *c);
/* c walking out's own shape, out's strides for operand 0, the rest zero. */
void tsr__vk_custom_over(struct tsr__vk_custom *c, const tsr_tensor_desc *out);
/* Under the lock, each step only once the one before has succeeded: the
 * index check (when `index` is given, against extent `size`), self copied
 * into the output (when `self` is given), the dispatch (when it has any
 * elements). */
int tsr__vk_index_run(struct tsr__vk_backend *b, const char *name, const tsr_tensor_desc *index,
                      int dim, int64_t size, const tsr_tensor_desc *self,
                      const struct tsr__vk_launch *l, const struct tsr__vk_custom *c);

#endif /* TSR_VULKAN_LAUNCH_ROWS_H */
