/* tessera: Neural network functions: softmax, losses, normalisation, dropout, linear, attention.
 * Included by tessera/tessera.h; the conventions stated there apply.
 *
 * Every function follows torch.nn.functional of PyTorch 1.13 on CPU: its
 * dtypes, its shapes and broadcasting, its errors. rms_norm and
 * scaled_dot_product_attention, which 1.13 lacks, follow later PyTorch.
 * Composite functions record one autograd node with a hand-written gradient
 * where docs/autograd.md lists one. */
#ifndef TESSERA_NN_H
#define TESSERA_NN_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A loss's reduction: reduction='none', 'mean' (PyTorch's default), 'sum'. */
enum { TSR_LOSS_NONE = 0, TSR_LOSS_MEAN = 1, TSR_LOSS_SUM = 2 };

/* PyTorch's default ignore_index of cross_entropy and nll_loss. */
#define TSR_IGNORE_INDEX_DEFAULT (-100)

/* ======================================================================== */
/* Softmax                                                                   */
/* ======================================================================== */

/* F.softmax(t, dim, dtype): exp(x) / sum(exp(x)) along dim, shifted by the
 * row's maximum so large inputs do not overflow. dtype TSR_DTYPE_INFER keeps
 * t's dtype; another dtype converts t first (so integer tensors need one).
 * Kernels exist for bfloat16, float32 and float64. A row holding +inf or NaN,
 * or only -inf, gives NaN. */
TSR_API tsr_status tsr_softmax(const tsr_tensor *t, int64_t dim, tsr_dtype dtype, tsr_tensor **out);
/* F.log_softmax: (x - max) - log(sum(exp(x - max))), exact where
 * log(softmax(x)) would underflow to -inf. */
TSR_API tsr_status tsr_log_softmax(const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                                   tsr_tensor **out);

/* ======================================================================== */
/* Losses (reduction: TSR_LOSS_*)                                            */
/* ======================================================================== */

/* F.cross_entropy(input, target, weight, ignore_index, reduction,
 * label_smoothing). input is [C], [N, C] or [N, C, d1, ...] of logits. target
 * is either class indices (int64, of input's shape without the class dim;
 * each in [0, C) or equal to ignore_index) or class probabilities (floating,
 * input's shape; ignore_index must then be negative). weight (NULL for
 * none) is [C] of input's dtype. label_smoothing is in [0, 1]. 'mean' over
 * class indices divides by the summed weights of the targets not ignored,
 * as PyTorch (NaN when every target is ignored). */
TSR_API tsr_status tsr_cross_entropy(const tsr_tensor *input, const tsr_tensor *target,
                                     const tsr_tensor *weight, int64_t ignore_index, int reduction,
                                     double label_smoothing, tsr_tensor **out);
/* F.nll_loss(input, target, weight, ignore_index, reduction): -input[n,
 * target[n]] * weight[target[n]], for log-probabilities input [C], [N, C] or
 * [N, C, d1, ...] and int64 (or uint8) class indices target. */
TSR_API tsr_status tsr_nll_loss(const tsr_tensor *input, const tsr_tensor *target,
                                const tsr_tensor *weight, int64_t ignore_index, int reduction,
                                tsr_tensor **out);
/* F.mse_loss: (input - target)^2, operands broadcast and promoted. */
TSR_API tsr_status tsr_mse_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                                tsr_tensor **out);
/* F.l1_loss: |input - target| (real for complex operands). */
TSR_API tsr_status tsr_l1_loss(const tsr_tensor *input, const tsr_tensor *target, int reduction,
                               tsr_tensor **out);
/* F.smooth_l1_loss: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta;
 * beta >= 0, and beta 0 is l1_loss. */
TSR_API tsr_status tsr_smooth_l1_loss(const tsr_tensor *input, const tsr_tensor *target,
                                      int reduction, double beta, tsr_tensor **out);
/* F.binary_cross_entropy: -w (t log(x) + (1 - t) log(1 - x)), each log
 * clamped at -100 as PyTorch. input (probabilities in [0, 1]) and target have
 * one shape and dtype; weight (NULL for none) broadcasts to it. */
TSR_API tsr_status tsr_binary_cross_entropy(const tsr_tensor *input, const tsr_tensor *target,
                                            const tsr_tensor *weight, int reduction,
                                            tsr_tensor **out);
/* F.binary_cross_entropy_with_logits: the same loss of sigmoid(input),
 * computed stably from the logits; pos_weight (NULL for none) multiplies the
 * positive term and broadcasts along the last dim (one per class). */
TSR_API tsr_status tsr_binary_cross_entropy_with_logits(const tsr_tensor *input,
                                                        const tsr_tensor *target,
                                                        const tsr_tensor *weight,
                                                        const tsr_tensor *pos_weight, int reduction,
                                                        tsr_tensor **out);

/* ======================================================================== */
/* Normalisation                                                             */
/* ======================================================================== */

/* F.layer_norm(input, normalized_shape, weight, bias, eps): normalises over
 * the last normalized_ndim (>= 1) dims, which must equal normalized_shape;
 * weight and bias (each NULL for none) have that shape and input's dtype. */
TSR_API tsr_status tsr_layer_norm(const tsr_tensor *input, int normalized_ndim,
                                  const int64_t *normalized_shape, const tsr_tensor *weight,
                                  const tsr_tensor *bias, double eps, tsr_tensor **out);
/* rms_norm (as F.rms_norm of later PyTorch): x / sqrt(mean(x^2) + eps) over
 * the last normalized_ndim dims, times weight (NULL for none; the result
 * takes the promoted dtype of input and weight). eps NULL means
 * torch.finfo(input's dtype).eps. Kernels for float16 too. */
TSR_API tsr_status tsr_rms_norm(const tsr_tensor *input, int normalized_ndim,
                                const int64_t *normalized_shape, const tsr_tensor *weight,
                                const double *eps, tsr_tensor **out);
/* F.batch_norm(input, running_mean, running_var, weight, bias, training,
 * momentum, eps) over input [N, C, ...] per channel C. Not training: uses the
 * running statistics, which are then required. Training: uses the batch's
 * mean and biased variance, and updates running_mean and running_var (when
 * given) in place: r = (1 - momentum) r + momentum s, with the unbiased
 * variance for running_var. Parameters are [C] of input's dtype, NULL for
 * none. Not thread-safe with other uses of the running statistics. */
TSR_API tsr_status tsr_batch_norm(const tsr_tensor *input, tsr_tensor *running_mean,
                                  tsr_tensor *running_var, const tsr_tensor *weight,
                                  const tsr_tensor *bias, bool training, double momentum,
                                  double eps, tsr_tensor **out);
/* F.group_norm(input, num_groups, weight, bias, eps) over input [N, C, ...]:
 * C splits into num_groups groups, each normalised over its channels and the
 * spatial dims; weight and bias are [C] (NULL for none). */
TSR_API tsr_status tsr_group_norm(const tsr_tensor *input, int64_t num_groups,
                                  const tsr_tensor *weight, const tsr_tensor *bias, double eps,
                                  tsr_tensor **out);

/* ======================================================================== */
/* Dropout, linear layers                                                    */
/* ======================================================================== */

/* F.dropout(input, p, training): zeroes each element with probability p,
 * drawn from `gen`, and multiplies the kept ones by 1 / (1 - p). p must lie
 * in [0, 1]. Not training, p = 0 or an empty input: input itself (a new
 * reference; gen may then be NULL), or when input requires grad a tensor
 * sharing its storage through which the gradient passes. p = 1: input * 0.
 * The same seed gives the same mask on every backend. */
TSR_API tsr_status tsr_dropout(const tsr_tensor *input, double p, bool training, tsr_generator *gen,
                               tsr_tensor **out);
/* F.linear(input, weight, bias): input @ weight^T + bias, weight [out, in] (or
 * [in], giving one output less dim), bias NULL or broadcastable. */
TSR_API tsr_status tsr_linear(const tsr_tensor *input, const tsr_tensor *weight,
                              const tsr_tensor *bias, tsr_tensor **out);
/* F.bilinear(input1, input2, weight, bias): out[..., o] = sum_ij
 * input1[..., i] weight[o, i, j] input2[..., j] + bias[o]; the inputs share
 * their leading dims; weight is [out, in1, in2], bias [out] or NULL. */
TSR_API tsr_status tsr_bilinear(const tsr_tensor *input1, const tsr_tensor *input2,
                                const tsr_tensor *weight, const tsr_tensor *bias, tsr_tensor **out);

/* ======================================================================== */
/* Attention                                                                 */
/* ======================================================================== */

/* F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p,
 * is_causal, scale) of later PyTorch: softmax(q k^T * scale + mask) v for
 * query [..., L, E], key [..., S, E], value [..., S, Ev] of one floating
 * dtype (leading dims broadcast), giving [..., L, Ev]. attn_mask (NULL for
 * none) broadcasts to [..., L, S]: bool (true = may attend) or of query's
 * dtype (added to the scores). is_causal lets query i see keys 0..i (top-left
 * aligned) and excludes attn_mask. scale NULL means 1 / sqrt(E). dropout_p
 * in [0, 1] drops attention weights with `gen` (NULL is fine when 0).
 * Computed with an online softmax over blocks of 64 keys, so no L x S score
 * matrix is ever held; a query that may attend to no key gives NaN, as
 * PyTorch. float16 and bfloat16 accumulate in float32. The gradient is
 * computed block by block too; with 0 < dropout_p < 1 backward is refused,
 * as the dropout mask is not kept. */
TSR_API tsr_status tsr_scaled_dot_product_attention(const tsr_tensor *query, const tsr_tensor *key,
                                                    const tsr_tensor *value,
                                                    const tsr_tensor *attn_mask, double dropout_p,
                                                    bool is_causal, const double *scale,
                                                    tsr_generator *gen, tsr_tensor **out);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_NN_H */
