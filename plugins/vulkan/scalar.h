/* A tsr_scalar converted to one element of a dtype, as PyTorch's fill_
 * converts its value: an out-of-range value is an error ("value cannot be
 * converted to type int8_t without overflow"), not a wrap. */
#ifndef TSR_VULKAN_SCALAR_H
#define TSR_VULKAN_SCALAR_H

#include <stddef.h>
#include <stdint.h>

#include <tessera/plugin.h>

/* Writes the element's bits to bits[0..1], little-endian, low bytes used
 * (complex128 uses both: real part, then imaginary). Returns TSR_OK, or
 * TSR_ERR_VALUE with `why` filled. */
int tsr__vk_scalar_bits(const tsr_scalar *value, int32_t dtype, uint64_t bits[2], char *why,
                        size_t capacity);

/* The scalar as a double / as an int64 (bool and int kinds exact, float
 * truncated toward zero when in range). */
double tsr__vk_scalar_as_double(const tsr_scalar *value);
int64_t tsr__vk_scalar_as_int(const tsr_scalar *value);

/* Op attributes (leaky_relu's slope, addcmul's value, ...) converted as
 * PyTorch's Scalar::to<scalar_t>() converts them, without fill_'s overflow
 * check: a floating value rounded to `dtype` (float16 and bfloat16 through
 * float32; too large gives an infinity), held in a double; an integer one
 * truncated and wrapped to the integer dtype's width. */
double tsr__vk_double_in_dtype(double v, int32_t dtype);
int64_t tsr__vk_scalar_in_int_dtype(const tsr_scalar *value, int32_t dtype);

#endif /* TSR_VULKAN_SCALAR_H */
