/* The optimiser object: creation with PyTorch's parameter checks, stepping
 * every parameter that has a gradient, zero_grad, and the queries. The
 * update rules live in optim_sgd.c and optim_adam.c. */
#include "optim/optim.h"
#include "runtime/alloc.h"
#include "runtime/error.h"

#include <stdlib.h>
#include <string.h>

tsr_status tsr__optimizer_create(tsr__optim_kind kind, const char *name,
                                 tsr__optim_update_fn update, int num_state,
                                 const char *const *state_names, tsr_tensor *const *params,
                                 size_t count, tsr_optimizer **out)
{
    if (!out || (count > 0 && !params))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "optimizer_create(%s): params and out must not be NULL", name);
    if (count == 0)
        return tsr__set_error(TSR_ERR_VALUE,
                              "optimizer_create(%s): optimizer got an empty "
                              "parameter list",
                              name);
    for (size_t i = 0; i < count; i++) {
        const tsr_tensor *p = params[i];
        if (!p)
            return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                  "optimizer_create(%s): params[%zu] is NULL", name, i);
        if (!tsr_dtype_is_floating(tsr_tensor_dtype(p)))
            return tsr__set_error(TSR_ERR_DTYPE,
                                  "optimizer_create(%s): params[%zu] is %s; only floating "
                                  "point tensors can be optimized",
                                  name, i, tsr_dtype_name(tsr_tensor_dtype(p)));
        if (!tsr_tensor_is_leaf(p))
            return tsr__set_error(TSR_ERR_VALUE,
                                  "optimizer_create(%s): params[%zu]: can't optimize a "
                                  "non-leaf Tensor",
                                  name, i);
        /* Quadratic, but parameter lists are short and this runs once. */
        for (size_t j = 0; j < i; j++)
            if (params[j] == p)
                return tsr__set_error(TSR_ERR_VALUE,
                                      "optimizer_create(%s): params[%zu] is params[%zu] again; "
                                      "a parameter may appear only once",
                                      name, i, j);
    }
    tsr_optimizer *opt = tsr__calloc(1, sizeof *opt);
    tsr__optim_param *slots = tsr__calloc(count, sizeof *slots);
    if (!opt || !slots) {
        free(opt);
        free(slots);
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "optimizer_create(%s): out of memory", name);
    }
    opt->kind = kind;
    opt->name = name;
    opt->update = update;
    opt->num_state = num_state;
    opt->state_names = state_names;
    opt->count = count;
    opt->params = slots;
    for (size_t i = 0; i < count; i++) {
        tsr_tensor_retain(params[i]);
        slots[i].param = params[i];
    }
    *out = opt;
    return TSR_OK;
}

void tsr_optimizer_destroy(tsr_optimizer *opt)
{
    if (!opt)
        return;
    for (size_t i = 0; i < opt->count; i++) {
        tsr_tensor_release(opt->params[i].param);
        for (int s = 0; s < TSR__OPTIM_MAX_STATE; s++)
            tsr_tensor_release(opt->params[i].state[s]);
    }
    free(opt->params);
    free(opt);
}

tsr_status tsr_optimizer_step(tsr_optimizer *opt)
{
    if (!opt)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "optimizer_step: optimizer is NULL");
    /* As torch.optim's @torch.no_grad: the updates must not be recorded. */
    bool prev = tsr_grad_mode_set(false);
    tsr_status st = TSR_OK;
    for (size_t i = 0; i < opt->count && st == TSR_OK; i++) {
        tsr__optim_param *p = &opt->params[i];
        tsr_tensor *grad = NULL;
        st = tsr_tensor_grad(p->param, &grad);
        if (st != TSR_OK || !grad)
            continue;
        st = opt->update(opt, p, grad);
        if (st != TSR_OK)
            tsr__prefix_error("optimizer_step(%s): parameter %zu", opt->name, i);
        tsr_tensor_release(grad);
    }
    tsr_grad_mode_set(prev);
    return st;
}

/* Zeroes one .grad in place, first cutting it from any graph as PyTorch's
 * zero_grad does (detach_ for a gradient with history, requires_grad_(False)
 * for a leaf). tessera has no in-place detach, so a gradient with history is
 * replaced by a detached alias of the same storage. */
static tsr_status zero_one_grad(tsr_tensor *param)
{
    tsr_tensor *g = NULL;
    tsr_status st = tsr_tensor_grad(param, &g);
    if (st != TSR_OK || !g)
        return st;
    if (!tsr_tensor_is_leaf(g)) {
        tsr_tensor *d = NULL;
        st = tsr_detach(g, &d);
        if (st == TSR_OK)
            st = tsr_tensor_set_grad(param, d);
        tsr_tensor_release(g);
        g = d;
    } else if (tsr_tensor_requires_grad(g)) {
        st = tsr_tensor_set_requires_grad(g, false);
    }
    if (st == TSR_OK)
        st = tsr_zero_(g);
    tsr_tensor_release(g);
    return st;
}

tsr_status tsr_optimizer_zero_grad(tsr_optimizer *opt, bool set_to_none)
{
    if (!opt)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "optimizer_zero_grad: optimizer is NULL");
    bool prev = tsr_grad_mode_set(false);
    tsr_status st = TSR_OK;
    for (size_t i = 0; i < opt->count && st == TSR_OK; i++)
        st = set_to_none ? tsr_tensor_zero_grad(opt->params[i].param)
                         : zero_one_grad(opt->params[i].param);
    tsr_grad_mode_set(prev);
    return st;
}

const char *tsr_optimizer_kind(const tsr_optimizer *opt)
{
    return opt ? opt->name : NULL;
}

size_t tsr_optimizer_param_count(const tsr_optimizer *opt)
{
    return opt ? opt->count : 0;
}

tsr_tensor *tsr_optimizer_param(const tsr_optimizer *opt, size_t index)
{
    return opt && index < opt->count ? opt->params[index].param : NULL;
}

double tsr_optimizer_lr(const tsr_optimizer *opt)
{
    if (!opt)
        return 0.0;
    return opt->kind == TSR__OPTIM_SGD ? opt->sgd.lr : opt->adam.lr;
}

tsr_status tsr_optimizer_set_lr(tsr_optimizer *opt, double lr)
{
    if (!opt)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "optimizer_set_lr: optimizer is NULL");
    if (!(lr >= 0.0))
        return tsr__set_error(TSR_ERR_VALUE, "optimizer_set_lr: Invalid learning rate: %g", lr);
    if (opt->kind == TSR__OPTIM_SGD)
        opt->sgd.lr = lr;
    else
        opt->adam.lr = lr;
    return TSR_OK;
}

int tsr__optimizer_state_slot(const tsr_optimizer *opt, const char *key)
{
    for (int s = 0; key && s < opt->num_state; s++)
        if (strcmp(opt->state_names[s], key) == 0)
            return s;
    return -1;
}

tsr_status tsr_optimizer_state(const tsr_optimizer *opt, size_t index, const char *key,
                               tsr_tensor **out)
{
    if (!opt || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "optimizer_state: optimizer and out must not be NULL");
    if (index >= opt->count)
        return tsr__set_error(TSR_ERR_INDEX,
                              "optimizer_state: index %zu is out of range for "
                              "%zu parameters",
                              index, opt->count);
    int slot = tsr__optimizer_state_slot(opt, key);
    if (slot < 0)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "optimizer_state: %s has no state \"%s\"",
                              opt->name, key ? key : "(null)");
    tsr_tensor *t = opt->params[index].state[slot];
    if (t)
        tsr_tensor_retain(t);
    *out = t;
    return TSR_OK;
}

tsr_status tsr_optimizer_step_count(const tsr_optimizer *opt, size_t index, int64_t *out)
{
    if (!opt || !out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "optimizer_step_count: optimizer and out must not be NULL");
    if (index >= opt->count)
        return tsr__set_error(TSR_ERR_INDEX,
                              "optimizer_step_count: index %zu is out of range "
                              "for %zu parameters",
                              index, opt->count);
    *out = opt->params[index].step;
    return TSR_OK;
}

tsr_status tsr__optim_zeros_like(const tsr_tensor *p, tsr_tensor **out)
{
    return tsr_zeros(tsr_tensor_ndim(p), tsr_tensor_shape(p), tsr_tensor_dtype(p),
                     tsr_tensor_backend(p), out);
}
