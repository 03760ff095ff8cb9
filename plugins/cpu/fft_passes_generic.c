/* The Stockham passes (fft_passes.inc) for the generic set, compiled with the
 * compiler's baseline. */
#include "fft_cpu.h"

#define FFT_T float
#define FFT_FN(name) generic##_##name##_f32
#include "fft_passes.inc"
#undef FFT_T
#undef FFT_FN

#define FFT_T double
#define FFT_FN(name) generic##_##name##_f64
#include "fft_passes.inc"
#undef FFT_T
#undef FFT_FN

const tsr__cpu_fft_passes *tsr__cpu_fft_passes_generic(void)
{
    static const tsr__cpu_fft_passes passes = {generic_pass_f32, generic_pass_f64};
    return &passes;
}
