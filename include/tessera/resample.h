/* tessera: resampling: interpolate (and its upsample aliases), grid_sample
 * and affine_grid, as torch.nn.functional has them.
 * Included by tessera/nn.h (and so by tessera/tessera.h); the conventions stated there apply. */
#ifndef TESSERA_RESAMPLE_H
#define TESSERA_RESAMPLE_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* interpolate's mode= strings. */
typedef enum tsr_interpolate_mode {
    TSR_INTERPOLATE_NEAREST,       /* 'nearest' */
    TSR_INTERPOLATE_NEAREST_EXACT, /* 'nearest-exact' */
    TSR_INTERPOLATE_LINEAR,        /* 'linear' (3-d input) */
    TSR_INTERPOLATE_BILINEAR,      /* 'bilinear' (4-d) */
    TSR_INTERPOLATE_BICUBIC,       /* 'bicubic' (4-d) */
    TSR_INTERPOLATE_TRILINEAR,     /* 'trilinear' (5-d) */
    TSR_INTERPOLATE_AREA,          /* 'area': adaptive_avg_pool1d/2d/3d */
} tsr_interpolate_mode;

/* An optional bool argument (align_corners, recompute_scale_factor). */
enum { TSR_OPTION_NONE = -1, TSR_OPTION_FALSE = 0, TSR_OPTION_TRUE = 1 };

/* size= and scale_factor= take None (count 0, values NULL), a Python number
 * applied to every spatial dim (count TSR_RESAMPLE_ONE_FOR_ALL, one value)
 * or a list (count > 0 values, one per spatial dim). */
enum { TSR_RESAMPLE_ONE_FOR_ALL = -1 };

/* F.interpolate(input, size, scale_factor, mode, align_corners,
 * recompute_scale_factor) of PyTorch 1.13: input [N, C, d_1..d_k], k = 1,
 * 2 or 3 as the mode needs. Exactly one of size and scale_factor; with a
 * scale factor the output size is floor(d * scale) and, unless
 * recompute_scale_factor is true, the given scale (not the size ratio) maps
 * output to source coordinates. align_corners must be None for the nearest
 * modes and area. dtypes: nearest uint8, bfloat16, float32, float64;
 * nearest-exact uint8, float32, float64; the others bfloat16, float32,
 * float64. Differentiable in input (the backward is a deterministic
 * scatter-add, itself differentiable). Mode area is
 * adaptive_avg_pool1d/2d/3d to the output size, as in functional.py (its
 * dtypes, errors and gradient are the pool family's; see tessera/pool.h). */
TSR_API tsr_status tsr_interpolate(const tsr_tensor *input, int size_count, const int64_t *size,
                                   int scale_count, const double *scale_factor, int mode,
                                   int align_corners, int recompute_scale_factor, tsr_tensor **out);
/* F.upsample(input, size, scale_factor, mode, align_corners): interpolate. */
TSR_API tsr_status tsr_upsample(const tsr_tensor *input, int size_count, const int64_t *size,
                                int scale_count, const double *scale_factor, int mode,
                                int align_corners, tsr_tensor **out);
/* F.upsample_nearest(input, size, scale_factor): mode 'nearest'. */
TSR_API tsr_status tsr_upsample_nearest(const tsr_tensor *input, int size_count,
                                        const int64_t *size, int scale_count,
                                        const double *scale_factor, tsr_tensor **out);
/* F.upsample_bilinear(input, size, scale_factor): mode 'bilinear' with
 * align_corners=True. */
TSR_API tsr_status tsr_upsample_bilinear(const tsr_tensor *input, int size_count,
                                         const int64_t *size, int scale_count,
                                         const double *scale_factor, tsr_tensor **out);

/* grid_sample's mode= and padding_mode= strings. */
typedef enum tsr_grid_sample_mode {
    TSR_GRID_SAMPLE_BILINEAR, /* 'bilinear' (trilinear for 5-d input) */
    TSR_GRID_SAMPLE_NEAREST,  /* 'nearest' */
    TSR_GRID_SAMPLE_BICUBIC,  /* 'bicubic' (4-d input only) */
} tsr_grid_sample_mode;
typedef enum tsr_grid_sample_padding {
    TSR_GRID_SAMPLE_ZEROS,      /* 'zeros' */
    TSR_GRID_SAMPLE_BORDER,     /* 'border' */
    TSR_GRID_SAMPLE_REFLECTION, /* 'reflection' */
} tsr_grid_sample_padding;

/* F.grid_sample(input, grid, mode, padding_mode, align_corners): input
 * [N, C, H, W] with grid [N, H_out, W_out, 2] (x then y, in [-1, 1] across
 * the input) -> [N, C, H_out, W_out]; or 5-d input with grid [N, D_out,
 * H_out, W_out, 3]. float32 and float64, input and grid of one dtype.
 * align_corners None means False. Differentiable in input and grid (once). */
TSR_API tsr_status tsr_grid_sample(const tsr_tensor *input, const tsr_tensor *grid, int mode,
                                   int padding_mode, int align_corners, tsr_tensor **out);

/* F.affine_grid(theta, size, align_corners): theta [N, 2, 3] with size
 * (N, C, H, W) -> grid [N, H, W, 2]; theta [N, 3, 4] with size (N, C, D, H,
 * W) -> [N, D, H, W, 3]. The base grid of pixel centres times theta's
 * transpose: differentiable in theta. bfloat16, float32, float64. */
TSR_API tsr_status tsr_affine_grid(const tsr_tensor *theta, int size_count, const int64_t *size,
                                   int align_corners, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_RESAMPLE_H */
