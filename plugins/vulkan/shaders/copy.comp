#version 450
#extension GL_GOOGLE_include_directive : require
// copy with dtype conversion (DT_IN to DT_OUT), PyTorch's rules (see
// tm_convert.glsl). Built three times: plain (no 64-bit types), with
// COPY_INT64 (int64 conversions, needs shaderInt64) and with COPY_FLOAT64
// as well (float64 conversions and complex64 <-> complex128, needs
// shaderFloat64). Same-dtype copies move bits and run in the plain build for
// every dtype.
#ifdef COPY_INT64
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define TM_INT64
#endif
#ifdef COPY_FLOAT64
#define TM_DOUBLE
#endif

#include "tsr_common.glsl"
#include "tm_prelude.glsl"
#ifdef TM_DOUBLE
#include "tm_math_f64.glsl"
#endif
#include "tm_convert.glsl"

bool narrow_int(int dtype)
{
    return dtype == TSR_UINT8 || dtype == TSR_INT8 || dtype == TSR_INT16 || dtype == TSR_INT32;
}

void store_from_int(uint addr, int v)
{
    if (DT_OUT == TSR_BOOL)
        tsr_store_bool(addr, v != 0);
    else if (narrow_int(DT_OUT))
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(v));
    else if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(float(v)));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(float(v)));
    else if (DT_OUT == TSR_FLOAT32)
        tsr_store_bits(addr, 4, floatBitsToUint(float(v)));
#ifdef TM_INT64
    else if (DT_OUT == TSR_INT64)
        tsr_store_bits64(addr, unpackUint2x32(uint64_t(int64_t(v))));
#endif
#ifdef TM_DOUBLE
    else if (DT_OUT == TSR_FLOAT64)
        tsr_store_bits64(addr, unpackDouble2x32(double(v)));
#endif
}

void store_from_float(uint addr, float v)
{
    if (DT_OUT == TSR_BOOL)
        tsr_store_bool(addr, (floatBitsToUint(v) & 0x7fffffffu) != 0u); // NaN is true
    else if (narrow_int(DT_OUT))
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(tm_f32_to_i32(v)));
    else if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(v));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(v));
    else if (DT_OUT == TSR_FLOAT32)
        tsr_store_bits(addr, 4, floatBitsToUint(v));
#ifdef TM_INT64
    else if (DT_OUT == TSR_INT64)
        tsr_store_bits64(addr, unpackUint2x32(uint64_t(tm_f32_to_i64(v))));
#endif
#ifdef TM_DOUBLE
    else if (DT_OUT == TSR_FLOAT64)
        tsr_store_bits64(addr, unpackDouble2x32(double(v)));
#endif
}

#ifdef TM_INT64
void store_from_int64(uint addr, int64_t v)
{
    if (DT_OUT == TSR_BOOL)
        tsr_store_bool(addr, v != 0);
    else if (narrow_int(DT_OUT))
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(uint64_t(v)));
    else if (DT_OUT == TSR_FLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_f16(float(v)));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(float(v)));
    else if (DT_OUT == TSR_FLOAT32)
        tsr_store_bits(addr, 4, floatBitsToUint(float(v)));
#ifdef TM_DOUBLE
    else if (DT_OUT == TSR_FLOAT64)
        tsr_store_bits64(addr, unpackDouble2x32(double(v)));
#endif
}
#endif

#ifdef TM_DOUBLE
void store_from_double(uint addr, double v)
{
    if (DT_OUT == TSR_BOOL)
        tsr_store_bool(addr, tm_dabsbits(v) != 0UL);
    else if (narrow_int(DT_OUT))
        tsr_store_bits(addr, tsr_size(DT_OUT), uint(tm_f64_to_i32(v)));
    else if (DT_OUT == TSR_INT64)
        tsr_store_bits64(addr, unpackUint2x32(uint64_t(tm_f64_to_i64(v))));
    else if (DT_OUT == TSR_FLOAT16) // through float32, as c10::Half(double) does
        tsr_store_bits(addr, 2, tm_f32_to_f16(float(v)));
    else if (DT_OUT == TSR_BFLOAT16)
        tsr_store_bits(addr, 2, tm_f32_to_bf16(float(v)));
    else if (DT_OUT == TSR_FLOAT32)
        tsr_store_bits(addr, 4, floatBitsToUint(float(v)));
}
#endif

void tsr_element(uvec4 o)
{
    if (DT_IN == DT_OUT) {
        tsr_move(o.x, 0, o.y, tsr_size(DT_IN));
    } else if (DT_IN == TSR_BOOL || DT_IN == TSR_UINT8) {
        store_from_int(o.x, int(tsr_load_bits(0, o.y, 1)));
    } else if (narrow_int(DT_IN)) {
        store_from_int(o.x, tsr_load_signed(0, o.y, tsr_size(DT_IN)));
    } else if (DT_IN == TSR_FLOAT16) {
        store_from_float(o.x, tm_f16_to_f32(tsr_load_bits(0, o.y, 2)));
    } else if (DT_IN == TSR_BFLOAT16) {
        store_from_float(o.x, tm_bf16_to_f32(tsr_load_bits(0, o.y, 2)));
    } else if (DT_IN == TSR_FLOAT32) {
        store_from_float(o.x, uintBitsToFloat(tsr_load_bits(0, o.y, 4)));
#ifdef TM_INT64
    } else if (DT_IN == TSR_INT64) {
        store_from_int64(o.x, int64_t(packUint2x32(tsr_load_bits64(0, o.y))));
#endif
#ifdef TM_DOUBLE
    } else if (DT_IN == TSR_FLOAT64) {
        store_from_double(o.x, packDouble2x32(tsr_load_bits64(0, o.y)));
    } else if (DT_IN == TSR_COMPLEX64) { // to complex128: each part widened exactly
        for (uint k = 0u; k < 2u; ++k) {
            float part = uintBitsToFloat(tsr_load_bits(0, o.y + 4u * k, 4));
            tsr_store_bits64(o.x + 8u * k, unpackDouble2x32(double(part)));
        }
    } else if (DT_IN == TSR_COMPLEX128) { // to complex64: each part rounded once
        for (uint k = 0u; k < 2u; ++k) {
            double part = packDouble2x32(tsr_load_bits64(0, o.y + 8u * k));
            tsr_store_bits(o.x + 4u * k, 4, floatBitsToUint(float(part)));
        }
#endif
    }
}
