/* float16 and bfloat16 as bit patterns, converted to and from float.
 *
 * PyTorch converts every wider value to these types through float (a double
 * is first rounded to float), so float is the only partner type here. All
 * roundings are to nearest, ties to even. */
#ifndef TSR_REFERENCE_HALF_H
#define TSR_REFERENCE_HALF_H

#include <stdint.h>

/* Exact: every float16 is a float. NaN payloads move to the top mantissa bits. */
float tsr__ref_half_to_float(uint16_t bits);
/* Rounds; overflow gives infinity, tiny values round to subnormals or zero,
 * NaN becomes the quiet NaN 0x7e00 with the input's sign (as c10::Half). */
uint16_t tsr__ref_half_from_float(float value);

/* Exact: a bfloat16 is the upper half of a float. */
float tsr__ref_bfloat16_to_float(uint16_t bits);
/* Rounds; NaN becomes 0x7fc0 (c10::BFloat16's scalar conversion). */
uint16_t tsr__ref_bfloat16_from_float(float value);

#endif /* TSR_REFERENCE_HALF_H */
