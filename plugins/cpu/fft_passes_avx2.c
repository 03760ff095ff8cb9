/* The Stockham passes (fft_passes.inc) for the avx2 set, compiled with its
 * instruction-set flags in this file only (plugins/cpu/CMakeLists.txt). */
#include "fft_cpu.h"

#define FFT_T float
#define FFT_FN(name) avx2##_##name##_f32
#include "fft_passes.inc"
#undef FFT_T
#undef FFT_FN

#define FFT_T double
#define FFT_FN(name) avx2##_##name##_f64
#include "fft_passes.inc"
#undef FFT_T
#undef FFT_FN

const tsr__cpu_fft_passes *tsr__cpu_fft_passes_avx2(void)
{
    static const tsr__cpu_fft_passes passes = {avx2_pass_f32, avx2_pass_f64};
    return &passes;
}
