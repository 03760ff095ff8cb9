/* tessera: Pooling: max_pool, max_unpool, avg_pool, adaptive_avg_pool,
 * adaptive_max_pool and lp_pool in 1, 2 and 3 spatial dims, pixel_shuffle and
 * pixel_unshuffle. Included by tessera/tessera.h; the conventions stated there apply.
 *
 * Every function follows torch.nn.functional of PyTorch 1.13 on CPU: an
 * input is batched [N, C, s...] or unbatched [C, s...] with d spatial dims
 * s (the result keeps the form), the dtypes are PyTorch's per op and rank
 * (max_pool1d/2d: bfloat16, float32, float64; max_pool3d: float32, float64;
 * avg_pool1d/2d: also int64; avg_pool3d: int64, float32, float64; ...), and
 * bad arguments are refused with PyTorch's reason. Every op records its
 * gradient; max_pool's and avg_pool's are differentiable again. */
#ifndef TESSERA_POOL_H
#define TESSERA_POOL_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The window of a pooling op, as PyTorch's int-or-tuple arguments: each
 * *_count is 0 (the argument is absent: its default), 1 (one int for every
 * spatial dim) or d (one per dim). kernel_size is required. Defaults:
 * stride = kernel_size, padding 0, dilation 1, and count_include_pad true
 * (TSR_POOL_OPTIONS_INIT sets it; a zeroed struct means false).
 * divisor_override applies when has_divisor (avg_pool2d/3d only). */
typedef struct tsr_pool_options {
    int64_t kernel_size[3];
    int kernel_count;
    int64_t stride[3];
    int stride_count;
    int64_t padding[3];
    int padding_count;
    int64_t dilation[3];
    int dilation_count;
    bool ceil_mode;
    bool count_include_pad;
    bool has_divisor;
    int64_t divisor_override;
} tsr_pool_options;

#define TSR_POOL_OPTIONS_INIT {.count_include_pad = true}

/* F.max_pool{1,2,3}d(input, kernel_size, stride, padding, dilation,
 * ceil_mode, return_indices): indices (int64, flat per plane) are returned
 * when `indices` is not NULL. NaN propagates; ties keep the first index. */
TSR_API tsr_status tsr_max_pool1d(const tsr_tensor *input, const tsr_pool_options *options,
                                  tsr_tensor **out, tsr_tensor **indices);
TSR_API tsr_status tsr_max_pool2d(const tsr_tensor *input, const tsr_pool_options *options,
                                  tsr_tensor **out, tsr_tensor **indices);
TSR_API tsr_status tsr_max_pool3d(const tsr_tensor *input, const tsr_pool_options *options,
                                  tsr_tensor **out, tsr_tensor **indices);

/* F.max_unpool{1,2,3}d(input, indices, kernel_size, stride, padding,
 * output_size): zeros of the output size with input's values placed at
 * their indices. output_size (NULL for none) has d or d + 2 entries
 * (output_size_count) and must lie within a stride of the default size. */
TSR_API tsr_status tsr_max_unpool1d(const tsr_tensor *input, const tsr_tensor *indices,
                                    const tsr_pool_options *options, const int64_t *output_size,
                                    int output_size_count, tsr_tensor **out);
TSR_API tsr_status tsr_max_unpool2d(const tsr_tensor *input, const tsr_tensor *indices,
                                    const tsr_pool_options *options, const int64_t *output_size,
                                    int output_size_count, tsr_tensor **out);
TSR_API tsr_status tsr_max_unpool3d(const tsr_tensor *input, const tsr_tensor *indices,
                                    const tsr_pool_options *options, const int64_t *output_size,
                                    int output_size_count, tsr_tensor **out);

/* F.avg_pool{1,2,3}d(input, kernel_size, stride, padding, ceil_mode,
 * count_include_pad, divisor_override); avg_pool1d has no divisor_override
 * and refuses one. dilation must be absent. */
TSR_API tsr_status tsr_avg_pool1d(const tsr_tensor *input, const tsr_pool_options *options,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_avg_pool2d(const tsr_tensor *input, const tsr_pool_options *options,
                                  tsr_tensor **out);
TSR_API tsr_status tsr_avg_pool3d(const tsr_tensor *input, const tsr_pool_options *options,
                                  tsr_tensor **out);

/* F.adaptive_avg_pool{1,2,3}d(input, output_size) and
 * F.adaptive_max_pool{1,2,3}d(input, output_size, return_indices):
 * output_size has 1 or d entries (count), each >= 0 (None entries are not
 * supported). indices as for max_pool, NULL when not wanted. */
TSR_API tsr_status tsr_adaptive_avg_pool1d(const tsr_tensor *input, const int64_t *output_size,
                                           int count, tsr_tensor **out);
TSR_API tsr_status tsr_adaptive_avg_pool2d(const tsr_tensor *input, const int64_t *output_size,
                                           int count, tsr_tensor **out);
TSR_API tsr_status tsr_adaptive_avg_pool3d(const tsr_tensor *input, const int64_t *output_size,
                                           int count, tsr_tensor **out);
TSR_API tsr_status tsr_adaptive_max_pool1d(const tsr_tensor *input, const int64_t *output_size,
                                           int count, tsr_tensor **out, tsr_tensor **indices);
TSR_API tsr_status tsr_adaptive_max_pool2d(const tsr_tensor *input, const int64_t *output_size,
                                           int count, tsr_tensor **out, tsr_tensor **indices);
TSR_API tsr_status tsr_adaptive_max_pool3d(const tsr_tensor *input, const int64_t *output_size,
                                           int count, tsr_tensor **out, tsr_tensor **indices);

/* F.lp_pool{1,2}d(input, norm_type, kernel_size, stride, ceil_mode), as
 * PyTorch composes it: (sign(a) * relu(|a|) * prod(kernel_size))^(1 / p)
 * with a = avg_pool(input^p). Only kernel_size, stride and ceil_mode of
 * options are read. */
TSR_API tsr_status tsr_lp_pool1d(const tsr_tensor *input, double norm_type,
                                 const tsr_pool_options *options, tsr_tensor **out);
TSR_API tsr_status tsr_lp_pool2d(const tsr_tensor *input, double norm_type,
                                 const tsr_pool_options *options, tsr_tensor **out);

/* F.pixel_shuffle(input, upscale_factor): [..., C r^2, H, W] ->
 * [..., C, H r, W r]; F.pixel_unshuffle(input, downscale_factor) is its
 * inverse. Every dtype; views and one copy. */
TSR_API tsr_status tsr_pixel_shuffle(const tsr_tensor *input, int64_t upscale_factor,
                                     tsr_tensor **out);
TSR_API tsr_status tsr_pixel_unshuffle(const tsr_tensor *input, int64_t downscale_factor,
                                       tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_POOL_H */
