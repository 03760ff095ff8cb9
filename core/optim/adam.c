/* torch.optim.Adam and AdamW (PyTorch 1.13, _single_tensor_adam/_adamw):
 * bias-corrected moments computed on the host from the step count, amsgrad,
 * maximize, L2 (Adam) or decoupled (AdamW) weight decay, in PyTorch's order
 * of operations so float32 results round as PyTorch's do. */
#include "runtime/error.h"
#include "optim/optim.h"

#include <math.h>

enum { EXP_AVG, EXP_AVG_SQ, MAX_EXP_AVG_SQ };
static const char *const adam_state_names[] = {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"};

tsr_adam_options tsr_adam_options_default(void)
{
    tsr_adam_options o = {0};
    o.struct_size = sizeof o;
    o.lr = 1e-3;
    o.beta1 = 0.9;
    o.beta2 = 0.999;
    o.eps = 1e-8;
    return o;
}

tsr_adam_options tsr_adamw_options_default(void)
{
    tsr_adam_options o = tsr_adam_options_default();
    o.weight_decay = 1e-2;
    return o;
}

tsr_status tsr__adam_options_check(const tsr_adam_options *o)
{
    if (!o)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "adam: options must not be NULL");
    if (o->struct_size < sizeof *o)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "adam: options.struct_size is %u, expected %zu", o->struct_size,
                              sizeof *o);
    /* `not 0.0 <= x` as PyTorch writes it: NaN is refused. */
    if (!(o->lr >= 0.0))
        return tsr__set_error(TSR_ERR_VALUE, "adam: Invalid learning rate: %g", o->lr);
    if (!(o->eps >= 0.0))
        return tsr__set_error(TSR_ERR_VALUE, "adam: Invalid epsilon value: %g", o->eps);
    if (!(o->beta1 >= 0.0 && o->beta1 < 1.0))
        return tsr__set_error(TSR_ERR_VALUE, "adam: Invalid beta parameter at index 0: %g",
                              o->beta1);
    if (!(o->beta2 >= 0.0 && o->beta2 < 1.0))
        return tsr__set_error(TSR_ERR_VALUE, "adam: Invalid beta parameter at index 1: %g",
                              o->beta2);
    if (!(o->weight_decay >= 0.0))
        return tsr__set_error(TSR_ERR_VALUE, "adam: Invalid weight_decay value: %g",
                              o->weight_decay);
    return TSR_OK;
}

static tsr_status ensure_state(tsr__optim_param *p, int slot)
{
    if (p->state[slot])
        return TSR_OK;
    return tsr__optim_zeros_like(p->param, &p->state[slot]);
}

/* The moments' update, then param += -step_size * exp_avg / denom. */
static tsr_status adam_moments_and_param(const tsr_adam_options *o, tsr__optim_param *p,
                                         const tsr_tensor *grad)
{
    tsr_tensor *exp_avg = p->state[EXP_AVG], *exp_avg_sq = p->state[EXP_AVG_SQ];
    tsr_status st =
        tsr_binary_(TSR_OP_MUL, exp_avg, tsr_operand_scalar(tsr_scalar_float(o->beta1)));
    if (st == TSR_OK)
        st = tsr_add_(exp_avg, tsr_operand_tensor(grad), tsr_scalar_float(1.0 - o->beta1));
    if (st == TSR_OK)
        st = tsr_binary_(TSR_OP_MUL, exp_avg_sq, tsr_operand_scalar(tsr_scalar_float(o->beta2)));
    if (st == TSR_OK)
        st = tsr_addcmul_(exp_avg_sq, grad, grad, tsr_scalar_float(1.0 - o->beta2));
    if (st != TSR_OK)
        return st;

    /* PyTorch reads the step back as a Python float and computes the bias
     * corrections in double. */
    double step = (double)p->step;
    double bias_correction1 = 1.0 - pow(o->beta1, step);
    double bias_correction2 = 1.0 - pow(o->beta2, step);
    double step_size = o->lr / bias_correction1;
    double bias_correction2_sqrt = sqrt(bias_correction2);

    const tsr_tensor *second = exp_avg_sq;
    if (o->amsgrad) {
        second = p->state[MAX_EXP_AVG_SQ];
        st = tsr_binary_(TSR_OP_MAXIMUM, p->state[MAX_EXP_AVG_SQ], tsr_operand_tensor(exp_avg_sq));
    }
    tsr_tensor *denom = NULL;
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_SQRT, second, &denom);
    if (st == TSR_OK)
        st = tsr_div_(denom, tsr_operand_scalar(tsr_scalar_float(bias_correction2_sqrt)),
                      TSR_ROUND_NONE);
    if (st == TSR_OK)
        st = tsr_add_(denom, tsr_operand_scalar(tsr_scalar_float(o->eps)), tsr_scalar_int(1));
    if (st == TSR_OK)
        st = tsr_addcdiv_(p->param, exp_avg, denom, tsr_scalar_float(-step_size));
    tsr_tensor_release(denom);
    return st;
}

static tsr_status adam_update_common(tsr_optimizer *opt, tsr__optim_param *p,
                                     const tsr_tensor *grad, bool decoupled)
{
    const tsr_adam_options *o = &opt->adam;
    tsr_tensor *g = NULL;
    tsr_status st = TSR_OK;
    st = ensure_state(p, EXP_AVG);
    if (st == TSR_OK)
        st = ensure_state(p, EXP_AVG_SQ);
    if (st == TSR_OK && o->amsgrad)
        st = ensure_state(p, MAX_EXP_AVG_SQ);
    if (st != TSR_OK)
        return st;
    p->step++; /* PyTorch counts the step before anything else */

    if (o->maximize) {
        st = tsr_unary(TSR_OP_NEG, grad, &g);
    } else {
        tsr_tensor_retain(grad);
        g = (tsr_tensor *)grad;
    }
    if (st == TSR_OK && !decoupled && o->weight_decay != 0.0) {
        tsr_tensor *with_decay = NULL;
        st = tsr_add_scaled(tsr_operand_tensor(g), tsr_operand_tensor(p->param),
                            tsr_scalar_float(o->weight_decay), &with_decay);
        if (st == TSR_OK) {
            tsr_tensor_release(g);
            g = with_decay;
        }
    }
    /* AdamW multiplies even when weight_decay is 0, as PyTorch does. */
    if (st == TSR_OK && decoupled)
        st = tsr_binary_(TSR_OP_MUL, p->param,
                         tsr_operand_scalar(tsr_scalar_float(1.0 - o->lr * o->weight_decay)));
    if (st == TSR_OK)
        st = adam_moments_and_param(o, p, g);
    tsr_tensor_release(g);
    return st;
}

static tsr_status adam_update(tsr_optimizer *opt, tsr__optim_param *p, const tsr_tensor *grad)
{
    return adam_update_common(opt, p, grad, false);
}

static tsr_status adamw_update(tsr_optimizer *opt, tsr__optim_param *p, const tsr_tensor *grad)
{
    return adam_update_common(opt, p, grad, true);
}

static tsr_status create(tsr__optim_kind kind, tsr_tensor *const *params, size_t count,
                         const tsr_adam_options *options, tsr_optimizer **out)
{
    tsr_status st = tsr__adam_options_check(options);
    if (st != TSR_OK)
        return st;
    bool decoupled = kind == TSR__OPTIM_ADAMW;
    tsr_optimizer *opt = NULL;
    st = tsr__optimizer_create(kind, decoupled ? "adamw" : "adam",
                               decoupled ? adamw_update : adam_update, 3, adam_state_names, params,
                               count, &opt);
    if (st != TSR_OK)
        return st;
    opt->adam = *options;
    opt->adam.struct_size = sizeof opt->adam;
    *out = opt;
    return TSR_OK;
}

tsr_status tsr_optimizer_create_adam(tsr_tensor *const *params, size_t count,
                                     const tsr_adam_options *options, tsr_optimizer **out)
{
    return create(TSR__OPTIM_ADAM, params, count, options, out);
}

tsr_status tsr_optimizer_create_adamw(tsr_tensor *const *params, size_t count,
                                      const tsr_adam_options *options, tsr_optimizer **out)
{
    return create(TSR__OPTIM_ADAMW, params, count, options, out);
}
