/* tessera: Optimisers (SGD, Adam, AdamW), parameter initialisation and saving
 * training state. Included by tessera/tessera.h; the conventions stated there
 * apply.
 *
 * As torch.optim and torch.nn.init of PyTorch 1.13: the same update formulas
 * in the same order of operations, the same bounds for initialisation, the
 * same argument checks. Everything here is written with public ops, so it
 * runs on any backend; parameters are updated in place with grad mode off
 * (their version goes up, as in PyTorch). Not thread-safe for one optimiser or
 * one parameter; distinct ones may be used from distinct threads. */
#ifndef TESSERA_OPTIM_H
#define TESSERA_OPTIM_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsr_optimizer tsr_optimizer;

/* ======================================================================== */
/* Options                                                                   */
/* ======================================================================== */

/* torch.optim.SGD's arguments. Start from tsr_sgd_options_default(lr). */
typedef struct tsr_sgd_options {
    uint32_t struct_size; /* sizeof(tsr_sgd_options) */
    double lr;            /* >= 0 */
    double momentum;      /* >= 0; 0 keeps no momentum buffer */
    double dampening;
    double weight_decay; /* >= 0; L2 penalty added to the gradient */
    bool nesterov;       /* needs momentum > 0 and dampening 0 */
    bool maximize;
} tsr_sgd_options;

/* torch.optim.Adam / AdamW's arguments. Start from tsr_adam_options_default()
 * or tsr_adamw_options_default(). */
typedef struct tsr_adam_options {
    uint32_t struct_size; /* sizeof(tsr_adam_options) */
    double lr;            /* >= 0; default 1e-3 */
    double beta1;         /* in [0, 1); default 0.9 */
    double beta2;         /* in [0, 1); default 0.999 */
    double eps;           /* >= 0; default 1e-8 */
    double weight_decay;  /* >= 0; default 0 (Adam), 1e-2 (AdamW) */
    bool amsgrad;         /* keep the maximum of the second moment */
    bool maximize;
} tsr_adam_options;

/* SGD's defaults with the given learning rate (PyTorch requires one). */
TSR_API tsr_sgd_options tsr_sgd_options_default(double lr);
/* torch.optim.Adam's defaults: lr 1e-3, betas (0.9, 0.999), eps 1e-8, no weight decay. */
TSR_API tsr_adam_options tsr_adam_options_default(void);
/* torch.optim.AdamW's defaults: Adam's, with weight_decay 1e-2. */
TSR_API tsr_adam_options tsr_adamw_options_default(void);

/* ======================================================================== */
/* Optimisers                                                                */
/* ======================================================================== */

/* Creates an optimiser over `count` parameters (one parameter group). Each
 * must be a floating point leaf (it need not require grad: one without a
 * .grad is skipped by step, as in PyTorch); a parameter listed twice is
 * refused. The optimiser keeps a reference to each parameter; release it with
 * tsr_optimizer_destroy. Options are copied; invalid ones fail with
 * TSR_ERR_VALUE and PyTorch's message ("Invalid learning rate: -1"). */
TSR_API tsr_status tsr_optimizer_create_sgd(tsr_tensor *const *params, size_t count,
                                            const tsr_sgd_options *options, tsr_optimizer **out);
/* torch.optim.Adam: L2 weight decay added to the gradient. */
TSR_API tsr_status tsr_optimizer_create_adam(tsr_tensor *const *params, size_t count,
                                             const tsr_adam_options *options, tsr_optimizer **out);
/* torch.optim.AdamW: decoupled weight decay, param *= 1 - lr * weight_decay. */
TSR_API tsr_status tsr_optimizer_create_adamw(tsr_tensor *const *params, size_t count,
                                              const tsr_adam_options *options, tsr_optimizer **out);
/* Releases the parameters and the optimiser's state. NULL is fine. */
TSR_API void tsr_optimizer_destroy(tsr_optimizer *optimizer);

/* One update of every parameter that has a .grad, in place, with grad mode
 * off for the duration. State tensors (momentum buffers, moments) are created
 * on first use with the parameter's shape, dtype and backend. On failure the
 * parameters before the failing one are already updated (as in PyTorch). */
TSR_API tsr_status tsr_optimizer_step(tsr_optimizer *optimizer);
/* optimizer.zero_grad(set_to_none): drops every parameter's .grad, or
 * (set_to_none false, PyTorch 1.13's default) zeroes it in place, detaching
 * it from any graph first. */
TSR_API tsr_status tsr_optimizer_zero_grad(tsr_optimizer *optimizer, bool set_to_none);

/* "sgd", "adam" or "adamw". */
TSR_API const char *tsr_optimizer_kind(const tsr_optimizer *optimizer);
TSR_API size_t tsr_optimizer_param_count(const tsr_optimizer *optimizer);
/* Parameter `index` (borrowed: valid while the optimiser lives). */
TSR_API tsr_tensor *tsr_optimizer_param(const tsr_optimizer *optimizer, size_t index);
/* The learning rate, and a new one (>= 0) for a schedule. */
TSR_API double tsr_optimizer_lr(const tsr_optimizer *optimizer);
TSR_API tsr_status tsr_optimizer_set_lr(tsr_optimizer *optimizer, double lr);
/* The state of parameter `index` under PyTorch's key: "momentum_buffer"
 * (SGD), "exp_avg", "exp_avg_sq", "max_exp_avg_sq" (Adam, AdamW). *out is a
 * new reference to the live state tensor (in-place writes change the
 * optimiser), or NULL when that state does not exist yet; an unknown key is
 * TSR_ERR_INVALID_ARGUMENT. */
TSR_API tsr_status tsr_optimizer_state(const tsr_optimizer *optimizer, size_t index,
                                       const char *key, tsr_tensor **out);
/* The number of steps parameter `index` has taken (Adam's state["step"]; SGD
 * counts them too). */
TSR_API tsr_status tsr_optimizer_step_count(const tsr_optimizer *optimizer, size_t index,
                                            int64_t *out);

/* ======================================================================== */
/* Initialisation (torch.nn.init)                                            */
/* ======================================================================== */

/* torch.nn.init.calculate_gain's nonlinearities (the conv names are linear). */
enum {
    TSR_NONLINEARITY_LINEAR = 0,
    TSR_NONLINEARITY_SIGMOID = 1,
    TSR_NONLINEARITY_TANH = 2,
    TSR_NONLINEARITY_RELU = 3,
    TSR_NONLINEARITY_LEAKY_RELU = 4,
    TSR_NONLINEARITY_SELU = 5,
};
/* Kaiming's mode: which fan keeps its variance. */
enum { TSR_FAN_IN = 0, TSR_FAN_OUT = 1 };

/* torch.nn.init.calculate_gain(nonlinearity, param): 1, 1, 5/3, sqrt(2),
 * sqrt(2 / (1 + slope^2)) (param is the negative slope; NULL means 0.01),
 * 3/4. */
TSR_API tsr_status tsr_init_calculate_gain(int nonlinearity, const double *param, double *out);
/* _calculate_fan_in_and_fan_out: fan_in = size(1) * receptive field,
 * fan_out = size(0) * receptive field, the receptive field being the product
 * of the sizes after the first two. Needs at least 2 dims. */
TSR_API tsr_status tsr_init_calculate_fans(const tsr_tensor *t, int64_t *fan_in, int64_t *fan_out);
/* The bound of kaiming_uniform_: gain(nonlinearity, a) * sqrt(3 / fan). A
 * fan of 0 is TSR_ERR_VALUE (PyTorch divides by zero). */
TSR_API tsr_status tsr_init_kaiming_uniform_bound(const tsr_tensor *t, double a, int mode,
                                                  int nonlinearity, double *bound);
/* The bound of xavier_uniform_: gain * sqrt(6 / (fan_in + fan_out)). */
TSR_API tsr_status tsr_init_xavier_uniform_bound(const tsr_tensor *t, double gain, double *bound);

/* The fills below write t in place with grad mode off (t may be a leaf that
 * requires grad), drawing numel(t) uniforms in [0, 1) from `gen` in C order
 * and mapping u to low + (high - low) * u in t's dtype, so a seed gives the
 * same values on every backend. t must be floating point. */

/* torch.nn.init.uniform_(t, low, high). */
TSR_API tsr_status tsr_init_uniform_(tsr_tensor *t, tsr_generator *gen, double low, double high);
/* torch.nn.init.kaiming_uniform_(t, a, mode, nonlinearity): uniform on
 * [-bound, bound]. A tensor without elements is left alone (no draw). */
TSR_API tsr_status tsr_init_kaiming_uniform_(tsr_tensor *t, tsr_generator *gen, double a, int mode,
                                             int nonlinearity);
/* torch.nn.init.xavier_uniform_(t, gain). */
TSR_API tsr_status tsr_init_xavier_uniform_(tsr_tensor *t, tsr_generator *gen, double gain);
/* torch.nn.Linear.reset_parameters: kaiming_uniform_(weight, a=sqrt(5)),
 * then bias (NULL for none) uniform on +-1/sqrt(fan_in) (0 when fan_in is 0). */
TSR_API tsr_status tsr_init_linear_(tsr_tensor *weight, tsr_tensor *bias, tsr_generator *gen);
/* torch.nn.Linear(in_features, out_features, bias): a new weight
 * [out_features, in_features] and bias [out_features] (bias may be NULL: no
 * bias) of `dtype` on `backend` (NULL: the default), initialised by
 * tsr_init_linear_ and marked requires_grad. */
TSR_API tsr_status tsr_linear_params_create(int64_t in_features, int64_t out_features,
                                            tsr_dtype dtype, tsr_backend *backend,
                                            tsr_generator *gen, tsr_tensor **weight,
                                            tsr_tensor **bias);

/* ======================================================================== */
/* Saving and loading training state                                         */
/* ======================================================================== */

/* Writes parameters (and, when optimizer is not NULL, its hyperparameters,
 * step counts and state tensors) to directory `dir` (created if missing; an
 * existing index is replaced): one .npy file per tensor and a text index,
 * `index.txt`, naming each file with its shape and dtype. names[i] names
 * params[i] (no whitespace, unique); names NULL means "param0", "param1", ...
 * Files are written to their final names directly: a failure can leave a
 * partial directory, which loading then refuses. A `dir` ending in
 * ".safetensors" names one safetensors file instead (written through a
 * rename), holding every tensor ("param0", "opt0_exp_avg", ...) and the
 * index as __metadata__["tessera-state"]; tsr_load_safetensors reads it. */
TSR_API tsr_status tsr_state_save(const char *dir, const tsr_tensor *const *params,
                                  const char *const *names, size_t count,
                                  const tsr_optimizer *optimizer);
/* Reads what tsr_state_save wrote into existing parameters (copied in place
 * with grad mode off; their version goes up) and, when optimizer is not
 * NULL, into the optimiser (which must be of the same kind and over
 * parameters of the same shapes): its hyperparameters, steps and state.
 * Every file is read and checked before anything is written: a parameter
 * missing from the index, a shape or dtype that differs from the parameter's
 * (TSR_ERR_SHAPE / TSR_ERR_DTYPE naming it and both values), a file that
 * disagrees with the index, or an optimiser of another kind (TSR_ERR_VALUE)
 * fails and leaves every parameter and the optimiser untouched. Files are
 * read onto each parameter's backend. */
TSR_API tsr_status tsr_state_load(const char *dir, tsr_tensor *const *params,
                                  const char *const *names, size_t count, tsr_optimizer *optimizer);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_OPTIM_H */
