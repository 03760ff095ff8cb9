/* torch.optim.SGD (PyTorch 1.13, _single_tensor_sgd): momentum, dampening,
 * Nesterov, L2 weight decay and maximize, in PyTorch's order of operations. */
#include "runtime/error.h"
#include "optim/optim.h"

static const char *const sgd_state_names[] = {"momentum_buffer"};

tsr_sgd_options tsr_sgd_options_default(double lr)
{
    tsr_sgd_options o = {0};
    o.struct_size = sizeof o;
    o.lr = lr;
    return o;
}

tsr_status tsr__sgd_options_check(const tsr_sgd_options *o)
{
    if (!o)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "sgd: options must not be NULL");
    if (o->struct_size < sizeof *o)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "sgd: options.struct_size is %u, expected %zu", o->struct_size,
                              sizeof *o);
    /* PyTorch's comparisons exactly, so NaN passes where it passes there. */
    if (o->lr < 0.0)
        return tsr__set_error(TSR_ERR_VALUE, "sgd: Invalid learning rate: %g", o->lr);
    if (o->momentum < 0.0)
        return tsr__set_error(TSR_ERR_VALUE, "sgd: Invalid momentum value: %g", o->momentum);
    if (o->weight_decay < 0.0)
        return tsr__set_error(TSR_ERR_VALUE, "sgd: Invalid weight_decay value: %g",
                              o->weight_decay);
    if (o->nesterov && (o->momentum <= 0.0 || o->dampening != 0.0))
        return tsr__set_error(TSR_ERR_VALUE,
                              "sgd: Nesterov momentum requires a momentum and zero dampening");
    return TSR_OK;
}

/* Replaces *t (owned) by the result of a call that read it. */
static tsr_status replace(tsr_status st, tsr_tensor **t, tsr_tensor *result)
{
    if (st == TSR_OK) {
        tsr_tensor_release(*t);
        *t = result;
    }
    return st;
}

static tsr_status sgd_update(tsr_optimizer *opt, tsr__optim_param *p, const tsr_tensor *grad)
{
    const tsr_sgd_options *o = &opt->sgd;
    tsr_tensor *d_p = NULL, *next = NULL;
    tsr_status st = TSR_OK;
    if (o->maximize) {
        st = tsr_unary(TSR_OP_NEG, grad, &d_p);
    } else {
        tsr_tensor_retain(grad);
        d_p = (tsr_tensor *)grad;
    }
    if (st == TSR_OK && o->weight_decay != 0.0) {
        st = tsr_add_scaled(tsr_operand_tensor(d_p), tsr_operand_tensor(p->param),
                            tsr_scalar_float(o->weight_decay), &next);
        st = replace(st, &d_p, next);
    }
    if (st == TSR_OK && o->momentum != 0.0) {
        tsr_tensor *buf = p->state[0];
        if (!buf) {
            /* torch.clone(d_p).detach(): the buffer never aliases .grad. */
            st = tsr_clone(d_p, &buf);
            if (st == TSR_OK)
                p->state[0] = buf;
        } else {
            st = tsr_binary_(TSR_OP_MUL, buf, tsr_operand_scalar(tsr_scalar_float(o->momentum)));
            if (st == TSR_OK)
                st = tsr_add_(buf, tsr_operand_tensor(d_p), tsr_scalar_float(1.0 - o->dampening));
        }
        if (st == TSR_OK && o->nesterov) {
            st = tsr_add_scaled(tsr_operand_tensor(d_p), tsr_operand_tensor(buf),
                                tsr_scalar_float(o->momentum), &next);
            st = replace(st, &d_p, next);
        } else if (st == TSR_OK) {
            tsr_tensor_retain(buf);
            st = replace(st, &d_p, buf);
        }
    }
    if (st == TSR_OK)
        st = tsr_add_(p->param, tsr_operand_tensor(d_p), tsr_scalar_float(-o->lr));
    if (st == TSR_OK)
        p->step++;
    tsr_tensor_release(d_p);
    return st;
}

tsr_status tsr_optimizer_create_sgd(tsr_tensor *const *params, size_t count,
                                    const tsr_sgd_options *options, tsr_optimizer **out)
{
    tsr_status st = tsr__sgd_options_check(options);
    if (st != TSR_OK)
        return st;
    tsr_optimizer *opt = NULL;
    st = tsr__optimizer_create(TSR__OPTIM_SGD, "sgd", sgd_update, 1, sgd_state_names, params, count,
                               &opt);
    if (st != TSR_OK)
        return st;
    opt->sgd = *options;
    opt->sgd.struct_size = sizeof opt->sgd;
    *out = opt;
    return TSR_OK;
}
