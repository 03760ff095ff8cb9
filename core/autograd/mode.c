/* Grad mode: whether ops on the calling thread record autograd nodes. */
#include "autograd/graph.h"

/* Stored inverted so that a thread's zero-initialised state means "on". */
static _Thread_local bool grad_disabled;

bool tsr_grad_mode_enabled(void)
{
    return !grad_disabled;
}

bool tsr_grad_mode_set(bool enabled)
{
    bool previous = !grad_disabled;
    grad_disabled = !enabled;
    return previous;
}

bool tsr__requires_grad(const tsr_tensor *t)
{
    if (t && t->autograd && t->autograd->requires_grad)
        return true;
    /* a stale view will read its value out of the base's new history */
    const tsr_tensor *base = t ? t->view_base : NULL;
    return tsr__view_is_stale(t) && base->autograd && base->autograd->requires_grad;
}

bool tsr__view_is_stale(const tsr_tensor *t)
{
    const tsr_tensor *base = t ? t->view_base : NULL;
    return base && (base->autograd ? base->autograd->history : 0) != t->view_history;
}

bool tsr__grad_wanted(const tsr_tensor *const *inputs, int count)
{
    if (grad_disabled)
        return false;
    for (int i = 0; i < count; i++) {
        if (tsr__requires_grad(inputs[i]) || tsr__view_is_stale(inputs[i]))
            return true;
    }
    return false;
}

bool tsr__grad_dtype(tsr_dtype dtype)
{
    return tsr_dtype_is_floating(dtype) || tsr_dtype_is_complex(dtype);
}
