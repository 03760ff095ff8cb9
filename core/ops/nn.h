/* The neural-network family's shared internals: forward passes that return
 * what a gradient needs, and helpers the composite ops share. */
#ifndef TSR_CORE_NN_H
#define TSR_CORE_NN_H

#include "autograd/graph.h"
#include "tensor/tensor.h"
#include "ops/grad_expr.h"

/* softmax or log_softmax (op) of t along dim after converting to dtype
 * (TSR_DTYPE_INFER keeps t's), without recording autograd. */
tsr_status tsr__softmax_forward(tsr_op op, const tsr_tensor *t, int64_t dim, tsr_dtype dtype,
                                tsr_tensor **out);

/* layer_norm (mean non-NULL) or rms_norm (mean NULL) over the last `ndim`
 * dims with the kernel's outputs: y, and mean and rstd shaped like input with
 * those dims of size 1. weight and bias may be NULL (rms_norm takes no bias)
 * and must have input's dtype. No checks beyond the backend's. */
tsr_status tsr__norm_forward(const char *name, const tsr_tensor *input, int ndim,
                             const tsr_tensor *weight, const tsr_tensor *bias, double eps,
                             tsr_tensor **y, tsr_tensor **mean, tsr_tensor **rstd);

/* PyTorch's "expected scalar type Float but found Double" for a parameter. */
tsr_status tsr__nn_same_dtype(const char *name, const char *arg, const tsr_tensor *param,
                              tsr_dtype expected);

/* Releases the `count` tensors of an array (NULL entries are fine). */
void tsr__release_all(tsr_tensor **tensors, int count);

/* Public ops as steps of a tsr__gx chain (autograd.h): each returns NULL
 * once a step failed and keeps its result among x's temporaries. */
tsr_tensor *tsr__nn_sum(tsr__gx *x, const tsr_tensor *t, const int64_t *dims, int ndims,
                        bool keepdim);
tsr_tensor *tsr__nn_mean(tsr__gx *x, const tsr_tensor *t); /* over everything */
tsr_tensor *tsr__nn_amax(tsr__gx *x, const tsr_tensor *t, int64_t dim, bool keepdim);
tsr_tensor *tsr__nn_matmul(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b);
tsr_tensor *tsr__nn_reshape(tsr__gx *x, const tsr_tensor *t, int ndim, const int64_t *shape);
tsr_tensor *tsr__nn_transpose(tsr__gx *x, const tsr_tensor *t, int64_t dim0, int64_t dim1);
tsr_tensor *tsr__nn_unsqueeze(tsr__gx *x, const tsr_tensor *t, int64_t dim);
tsr_tensor *tsr__nn_narrow(tsr__gx *x, const tsr_tensor *t, int64_t dim, int64_t start,
                           int64_t length);
tsr_tensor *tsr__nn_to(tsr__gx *x, const tsr_tensor *t, tsr_dtype dtype);
tsr_tensor *tsr__nn_clamp_min(tsr__gx *x, const tsr_tensor *t, double min);

/* ---- attention (ops_attention.c) ---------------------------------------- */

enum { TSR__KEY_BLOCK = 64 }; /* keys per block of the online softmax */

/* scaled_dot_product_attention's operands, prepared. */
typedef struct tsr__attention {
    const tsr_tensor *q, *k, *v; /* in the computation dtype */
    const tsr_tensor *mask;      /* expanded to [..., L, S], bool or computation dtype; NULL */
    bool mask_is_bool;
    bool causal;
    double scale;
    double dropout_p;
    tsr_generator *gen;
    int64_t queries, keys;
} tsr__attention;

/* The scores of keys start..start+n: q k^T * scale, masked, [..., L, n]. */
tsr_status tsr__attention_scores(const tsr__attention *a, int64_t start, int64_t n,
                                 tsr_tensor **out);

/* ---- gradients (grad_nn.c, grad_attention.c) ---------------------------- */

/* Record one node each (nothing unless an input requires grad). */
tsr_status tsr__grad_record_softmax(tsr_op op, const tsr_tensor *t, int dim, tsr_tensor *y);
/* layer_norm (mean given) or rms_norm (mean NULL, bias NULL) over the last
 * ndim dims, from the kernel's statistics. */
tsr_status tsr__grad_record_norm(const tsr_tensor *input, int ndim, const tsr_tensor *weight,
                                 const tsr_tensor *bias, const tsr_tensor *mean,
                                 const tsr_tensor *rstd, tsr_tensor *y);

/* What a cross_entropy or nll_loss call computed, for its gradient. */
typedef struct tsr__class_loss {
    int reduction; /* TSR_LOSS_* */
    int64_t ignore_index;
    double smoothing;
    int class_dim;
    bool probabilities; /* target holds class probabilities */
    bool softmax;       /* cross_entropy: log_probs = log_softmax(input) */
    bool has_weight;
} tsr__class_loss;

/* log_probs: input itself for nll_loss, its log_softmax for cross_entropy. */
tsr_status tsr__grad_record_class_loss(const tsr__class_loss *loss, const tsr_tensor *input,
                                       const tsr_tensor *target, const tsr_tensor *weight,
                                       const tsr_tensor *log_probs, tsr_tensor *out);
/* cross_entropy with class indices (target int64, checked) through the
 * backend's fused kernel (ops_cross_entropy.c): available only where the
 * backend has one for input's dtype and TESSERA_FUSED_CROSS_ENTROPY is not
 * 0. *log_probs (when log_probs is not NULL) receives log_softmax for the
 * gradient. Records nothing. */
bool tsr__cross_entropy_fused_available(const tsr_tensor *input);
tsr_status tsr__cross_entropy_fused(const tsr__class_loss *c, const tsr_tensor *input,
                                    const tsr_tensor *target, const tsr_tensor *weight,
                                    tsr_tensor **loss, tsr_tensor **log_probs);
tsr_status tsr__grad_record_bce(const tsr_tensor *input, const tsr_tensor *target,
                                const tsr_tensor *weight, int reduction, tsr_tensor *out);
/* norm: 1 / numel of the broadcast operands for 'mean', else 1. */
tsr_status tsr__grad_record_smooth_l1(const tsr_tensor *input, const tsr_tensor *target,
                                      double beta, double norm, tsr_tensor *out);
/* Attention's node: query, key and value as the caller gave them; a's
 * tensors as prepared; the result before its final rounding (y) and the
 * rows' log-sum-exp (lse, NULL without keys). */
tsr_status tsr__grad_record_attention(const tsr__attention *a, const tsr_tensor *query,
                                      const tsr_tensor *key, const tsr_tensor *value,
                                      const tsr_tensor *y, const tsr_tensor *lse, tsr_tensor *out);

#endif
