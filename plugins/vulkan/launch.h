/* Turning tensor descriptors into one recorded compute dispatch.
 *
 * Every elementwise-shaped kernel (copy, fill, the arithmetic families) goes
 * through tsr__vk_launch, which
 *  - checks that the operands share the output's shape and stay inside
 *    their memory records,
 *  - drops extent-1 dimensions and merges dimensions that are contiguous
 *    with each other in every operand (a contiguous tensor becomes rank 1),
 *  - binds each operand as the smallest aligned window of its block that
 *    covers it, so offsets inside a shader fit in 32 bits,
 *  - writes shape, byte strides and base offsets to a metadata record in
 *    the batch's arena (TSR_MAX_DIMS ranks do not fit in push constants),
 *  - and records bind, push constants, dispatch and the barrier after it.
 */
#ifndef TSR_VULKAN_LAUNCH_H
#define TSR_VULKAN_LAUNCH_H

#include <stdint.h>

#include "backend.h"
#include "meta.h"

/* Operands of one dispatch: the output and up to three inputs. */
#define TSR__VK_OPERANDS 4

struct tsr__vk_launch {
    int shader; /* enum tsr__vk_shader */
    struct tsr__vk_spec spec;
    const tsr_tensor_desc *out;
    const tsr_tensor_desc *in[3];
    int num_in;
    uint32_t scalar[4]; /* push-constant scalars, see struct tsr__vk_push */
    /* Nonzero for a shader whose result depends on the element's position
     * in the launch (index_check.comp reports it): such a launch is never
     * split into pieces and an operand past maxStorageBufferRange is
     * refused. Zero (the default) lets tsr__vk_launch tile. */
    int untiled;
};

/* Records the dispatch (nothing runs yet). Empty outputs record nothing.
 * An operand whose window would exceed maxStorageBufferRange, or more than
 * 2^32 - 1 elements, is split into pieces along the outermost merged
 * dimensions, each piece a dispatch of its own whose windows fit (every
 * element is computed independently, so the bits do not change).
 * Returns TSR_OK or a negative status after set_error. */
int tsr__vk_launch(struct tsr__vk_backend *b, const struct tsr__vk_launch *l);

/* Records a matrix product (shaders/matmul.comp, products_launch.c): out
 * [..., M, N], in[0] [..., M, K], in[1] [..., K, N], optional in[2] of the
 * output's shape, all of the output's rank; l->scalar[0..1] and [2..3] hold
 * alpha and beta in the shader variant's type (K goes in the push
 * constants' numel). Empty outputs record nothing. */
int tsr__vk_launch_matmul(struct tsr__vk_backend *b, const struct tsr__vk_launch *l);

/* Building blocks for kernels with their own metadata layout (reductions,
 * row ops): a window of one block bound to one binding, ... */
struct tsr__vk_window {
    struct tsr__vk_buffer *buffer;
    VkDeviceSize offset, range;
    uint32_t base; /* byte offset of the first element inside the window */
};

/* ... the smallest aligned window covering operand k (dims shape[0..ndim)
 * with byte strides stride[0..ndim), every extent >= 1), refusing one that
 * leaves its allocation or exceeds maxStorageBufferRange, ... */
int tsr__vk_window_for(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                       const int64_t *shape, const int64_t *stride, int ndim,
                       struct tsr__vk_window *w);

/* Whether operand k's window (as tsr__vk_window_for's) fits within
 * maxStorageBufferRange, in *fits; an operand leaving its allocation is an
 * error. For kernels that split such operands themselves. */
int tsr__vk_window_fits(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k,
                        const int64_t *shape, const int64_t *stride, int ndim, int *fits);

/* The most bytes a piece of an operand may span so that its window fits,
 * wherever its first element falls (alignment and word rounding). */
VkDeviceSize tsr__vk_piece_budget(const struct tsr__vk_backend *b);

/* ... and one recorded dispatch of `groups` workgroups (capped at 65535)
 * with a TSR__VK_META_WORDS-word metadata record; windows beyond `count`
 * repeat the output's. */
int tsr__vk_record_raw(struct tsr__vk_backend *b, const struct tsr__vk_launch *l,
                       const uint32_t *meta_words, const struct tsr__vk_window *windows,
                       int count, const struct tsr__vk_push *push_in, uint64_t groups);

/* Size in bytes of a dtype id, 0 for an unknown id. */
int64_t tsr__vk_dtype_size(int32_t dtype);

/* "float32" for TSR_FLOAT32, "?" for an unknown id. */
const char *tsr__vk_dtype_name(int32_t dtype);

/* Checks that operand k (named so in the message) has a known dtype and a
 * byte offset that is a whole, non-negative number of its elements, which
 * shaders indexing by element need. */
int tsr__vk_check_element_offset(struct tsr__vk_backend *b, const tsr_tensor_desc *t, int k);

#endif /* TSR_VULKAN_LAUNCH_H */
