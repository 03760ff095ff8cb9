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

/* The scalar as a float32: bool and int kinds rounded once, straight from
 * the integer (through double could round twice), the others through
 * double. */
float tsr__vk_scalar_as_float(const tsr_scalar *value);

/* A value's bit pattern, for push constants. */
uint64_t tsr__vk_float_bits(float f);
uint64_t tsr__vk_double_bits(double d);

/* 64 bits as two push-constant words, low word first. */
void tsr__vk_put64(uint32_t words[2], uint64_t bits);

/* Op attributes (leaky_relu's slope, addcmul's value, ...) converted as
 * PyTorch's Scalar::to<scalar_t>() converts them, without fill_'s overflow
 * check: a floating value rounded to `dtype` (float16 and bfloat16 through
 * float32; too large gives an infinity), held in a double; an integer one
 * truncated and wrapped to the integer dtype's width. */
double tsr__vk_double_in_dtype(double v, int32_t dtype);

/* The largest finite value of a real floating dtype (float16, bfloat16,
 * float32, float64); 0 for every other dtype, so callers can tell them
 * apart. */
double tsr__vk_float_largest(int32_t dtype);
int64_t tsr__vk_scalar_in_int_dtype(const tsr_scalar *value, int32_t dtype);

#endif /* TSR_VULKAN_SCALAR_H */
