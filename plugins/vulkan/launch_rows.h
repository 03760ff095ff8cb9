/* Dispatches whose metadata a kernel lays out itself (launch_rows.c): the
 * row ops (softmax, norms), where one workgroup owns a row, and the
 * indexing ops, whose operands do not share the output's shape.
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

#endif /* TSR_VULKAN_LAUNCH_ROWS_H */
