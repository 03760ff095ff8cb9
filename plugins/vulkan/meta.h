/* Constants shared by the C side and the shaders: the layout of the
 * per-dispatch metadata record and the bits of the status word.
 * gen_shader_ids.c turns them, the op ids and the dtype ids into a GLSL
 * header, so the shaders never restate a number. */
#ifndef TSR_VULKAN_META_H
#define TSR_VULKAN_META_H

#include <tessera/plugin.h>

/* Metadata record, in 32-bit words: the base byte offset of the four
 * operands (output, inputs 0..2) in their bound windows, the merged shape,
 * then each operand's byte strides, TSR_MAX_DIMS words per operand. */
#define TSR__VK_META_BASE 0
#define TSR__VK_META_SHAPE 4
#define TSR__VK_META_STRIDES (4 + TSR_MAX_DIMS)
#define TSR__VK_META_WORDS (4 + 5 * TSR_MAX_DIMS)

/* Bits a shader may set in the status word (binding 5 of every set). */
#define TSR__VK_STATUS_INT_DIV_BY_ZERO 1u

/* A mode bit (above every op's own modes): the integer shaders only look
 * for zero divisors and set TSR__VK_STATUS_INT_DIV_BY_ZERO, writing nothing. */
#define TSR__VK_MODE_CHECK_DIVISOR (1 << 16)

#endif /* TSR_VULKAN_META_H */
