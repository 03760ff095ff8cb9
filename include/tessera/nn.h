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

#ifdef __cplusplus
}
#endif

#include "tessera/softmax.h"
#include "tessera/loss.h"
#include "tessera/norm.h"
#include "tessera/attention.h"
#include "tessera/conv.h"
#include "tessera/resample.h"

#endif /* TESSERA_NN_H */
