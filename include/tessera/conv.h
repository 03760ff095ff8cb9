/* tessera: convolution: unfold (im2col), fold (col2im), conv1d/2d/3d and
 * conv_transpose1d/2d/3d.
 * Included by tessera/nn.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_CONV_H
#define TESSERA_CONV_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PyTorch's padding strings for conv1d/2d/3d. */
enum {
    TSR_CONV_PADDING_EXPLICIT = 0, /* the numbers in tsr_conv_params.padding */
    TSR_CONV_PADDING_VALID = 1,    /* padding='valid': no padding */
    TSR_CONV_PADDING_SAME = 2,     /* padding='same': the output keeps the input's size */
};

/* The keyword arguments of the convolution functions. Each list is a pointer
 * and a count: count 0 (pointer ignored) is PyTorch's default, count 1 is a
 * single int applied to every spatial dim, otherwise the count must equal
 * the number of spatial dims (a tuple). A zeroed struct, or NULL where a
 * function takes a pointer, means every default; groups 0 means 1. */
typedef struct tsr_conv_params {
    const int64_t *stride; /* default 1 */
    int nstride;
    const int64_t *padding; /* default 0; read with TSR_CONV_PADDING_EXPLICIT only */
    int npadding;
    int padding_mode;        /* TSR_CONV_PADDING_*: conv1d/2d/3d only */
    const int64_t *dilation; /* default 1 */
    int ndilation;
    const int64_t *output_padding; /* conv_transpose only; default 0 */
    int noutput_padding;
    int64_t groups; /* conv and conv_transpose only */
} tsr_conv_params;

/* F.unfold(input, kernel_size, dilation, padding, stride) (im2col): input
 * [N, C, H, W] (or unbatched [C, H, W]) -> [N, C*kh*kw, L] ([C*kh*kw, L]),
 * one column per sliding window, L the number of windows; padding is zeros.
 * params supplies dilation, padding and stride (NULL: defaults); its other
 * members must be defaults. floating and complex dtypes. */
TSR_API tsr_status tsr_unfold(const tsr_tensor *input, const int64_t *kernel_size, int nkernel,
                              const tsr_conv_params *params, tsr_tensor **out);
/* F.fold(input, output_size, kernel_size, dilation, padding, stride) (col2im,
 * the adjoint of unfold): input [N, C*kh*kw, L] (or [C*kh*kw, L]) -> [N, C,
 * output_size...], overlapping windows summed; L must equal the window count
 * of output_size. */
TSR_API tsr_status tsr_fold(const tsr_tensor *input, const int64_t *output_size, int noutput,
                            const int64_t *kernel_size, int nkernel, const tsr_conv_params *params,
                            tsr_tensor **out);

/* F.conv1d / conv2d / conv3d(input, weight, bias, stride, padding, dilation,
 * groups): input [N, Cin, spatial...] (or unbatched without N), weight [Cout,
 * Cin/groups, kernel...], bias [Cout] or NULL -> [N, Cout, out...]. Padding
 * 'same' pads d*(k-1) in total, the odd one at the end, as PyTorch; it needs
 * stride 1. float32, float64, bfloat16, complex64 and complex128 (input,
 * weight and bias of one dtype). */
TSR_API tsr_status tsr_conv1d(const tsr_tensor *input, const tsr_tensor *weight,
                              const tsr_tensor *bias, const tsr_conv_params *params,
                              tsr_tensor **out);
TSR_API tsr_status tsr_conv2d(const tsr_tensor *input, const tsr_tensor *weight,
                              const tsr_tensor *bias, const tsr_conv_params *params,
                              tsr_tensor **out);
TSR_API tsr_status tsr_conv3d(const tsr_tensor *input, const tsr_tensor *weight,
                              const tsr_tensor *bias, const tsr_conv_params *params,
                              tsr_tensor **out);

/* F.conv_transpose1d / 2d / 3d(input, weight, bias, stride, padding,
 * output_padding, groups, dilation): the adjoint of the convolution in its
 * input. input [N, Cin, spatial...] (or unbatched), weight [Cin, Cout/groups,
 * kernel...], bias [Cout] or NULL -> [N, Cout, out...] with out = (in - 1) *
 * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1;
 * output_padding must be smaller than stride or dilation. Numeric padding
 * only. float32, float64 and bfloat16. */
TSR_API tsr_status tsr_conv_transpose1d(const tsr_tensor *input, const tsr_tensor *weight,
                                        const tsr_tensor *bias, const tsr_conv_params *params,
                                        tsr_tensor **out);
TSR_API tsr_status tsr_conv_transpose2d(const tsr_tensor *input, const tsr_tensor *weight,
                                        const tsr_tensor *bias, const tsr_conv_params *params,
                                        tsr_tensor **out);
TSR_API tsr_status tsr_conv_transpose3d(const tsr_tensor *input, const tsr_tensor *weight,
                                        const tsr_tensor *bias, const tsr_conv_params *params,
                                        tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_CONV_H */
