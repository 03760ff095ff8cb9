/* Optimiser internals: the object behind tsr_optimizer, shared by the
 * update rules (optim_sgd.c, optim_adam.c), the common calls (optim.c) and
 * saving state (state_io.c). */
#ifndef TSR_CORE_OPTIM_H
#define TSR_CORE_OPTIM_H

#include "tessera/optim.h"

typedef enum tsr__optim_kind {
    TSR__OPTIM_SGD,
    TSR__OPTIM_ADAM,
    TSR__OPTIM_ADAMW,
} tsr__optim_kind;

/* State slots per parameter: SGD uses slot 0 (momentum_buffer); Adam uses
 * exp_avg, exp_avg_sq and, with amsgrad, max_exp_avg_sq. */
enum { TSR__OPTIM_MAX_STATE = 3 };

typedef struct tsr__optim_param {
    tsr_tensor *param;                       /* strong */
    tsr_tensor *state[TSR__OPTIM_MAX_STATE]; /* strong; NULL until first needed */
    int64_t step;                            /* steps taken with a gradient */
} tsr__optim_param;

/* One parameter's update, counting the step in p->step: grad is its .grad
 * (borrowed). Runs with grad mode off. */
typedef tsr_status (*tsr__optim_update_fn)(tsr_optimizer *opt, tsr__optim_param *p,
                                           const tsr_tensor *grad);

struct tsr_optimizer {
    tsr__optim_kind kind;
    const char *name; /* "sgd", "adam", "adamw" */
    tsr__optim_update_fn update;
    int num_state; /* state slots this kind may use */
    const char *const *state_names;
    tsr_sgd_options sgd;   /* SGD only */
    tsr_adam_options adam; /* Adam and AdamW */
    size_t count;
    tsr__optim_param *params;
};

/* Makes the optimiser object after checking the parameters (leaves,
 * floating, distinct); the kind's file fills in its options. */
tsr_status tsr__optimizer_create(tsr__optim_kind kind, const char *name,
                                 tsr__optim_update_fn update, int num_state,
                                 const char *const *state_names, tsr_tensor *const *params,
                                 size_t count, tsr_optimizer **out);
/* The slot of a state key for this optimiser, or -1. */
int tsr__optimizer_state_slot(const tsr_optimizer *opt, const char *key);
/* Zeros with p's shape, dtype and backend (zeros_like). */
tsr_status tsr__optim_zeros_like(const tsr_tensor *p, tsr_tensor **out);
/* Option checks shared by creation, set_lr and loading state. */
tsr_status tsr__sgd_options_check(const tsr_sgd_options *o);
tsr_status tsr__adam_options_check(const tsr_adam_options *o);

#endif
