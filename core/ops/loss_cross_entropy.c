/* cross_entropy with class indices through a backend's fused kernel
 * (TSR_OP_CROSS_ENTROPY): one kernel call reads the logits once and writes
 * per-sample loss, logsumexp and target weight; the reductions are a sum
 * over N values. The composite in loss.c stays for backends without the
 * kernel and for class-probability targets, and TESSERA_FUSED_CROSS_ENTROPY=0
 * selects it everywhere, so that conformance runs can check both paths. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/backend.h"
#include "tensor/launch.h"
#include "runtime/error.h"
#include "ops/nn.h"
#include "ops/loss.h"
#include "ops/grad_expr.h"

/* -1 until the environment has been read; a race only reads it twice. */
static atomic_int fused_enabled = -1;

static bool fused_allowed(void)
{
    int v = atomic_load_explicit(&fused_enabled, memory_order_relaxed);
    if (v < 0) {
        const char *env = getenv("TESSERA_FUSED_CROSS_ENTROPY");
        v = !(env && strcmp(env, "0") == 0);
        atomic_store_explicit(&fused_enabled, v, memory_order_relaxed);
    }
    return v != 0;
}

bool tsr__cross_entropy_fused_available(const tsr_tensor *input)
{
    uint32_t flags = 0;
    return fused_allowed() && tsr__registry_find(input->storage->backend, TSR_OP_CROSS_ENTROPY,
                                                 input->dtype, input->dtype, &flags) != NULL;
}

/* The kernel's three outputs, shaped like the (at least 1-d) target. */
static void run_kernel(tsr__gx *x, const tsr__class_loss *c, const tsr_tensor *logits,
                       const tsr_tensor *target, const tsr_tensor *weight, tsr_tensor **outs)
{
    const char *name = "cross_entropy";
    tsr_backend *b = logits->storage->backend;
    for (int i = 0; i < 3; i++) {
        tsr_tensor *t = NULL;
        tsr_status st = x->status == TSR_OK ? tsr__tensor_empty(name, b, logits->dtype,
                                                                target->ndim, target->shape, &t)
                                            : x->status;
        outs[i] = tsr__gx_keep(x, st, t);
    }
    if (x->status != TSR_OK)
        return;
    tsr_cross_entropy_attrs attrs = {.struct_size = sizeof attrs,
                                     .ignore_index = c->ignore_index,
                                     .label_smoothing = c->smoothing};
    const tsr_tensor *inputs[3] = {logits, target, weight};
    x->status = tsr__launch(TSR_OP_CROSS_ENTROPY, logits->dtype, logits->dtype, inputs,
                            weight ? 3 : 2, outs, 3, &attrs);
}

tsr_status tsr__cross_entropy_fused(const tsr__class_loss *c, const tsr_tensor *input,
                                    const tsr_tensor *target, const tsr_tensor *weight,
                                    tsr_tensor **loss, tsr_tensor **log_probs)
{
    tsr__gx x = {0};
    const tsr_tensor *logits = input, *samples = target;
    if (input->ndim == 1) { /* [C] with a 0-d target: one sample */
        int64_t row[2] = {1, input->shape[0]}, one = 1;
        logits = tsr__nn_reshape(&x, input, 2, row);
        samples = tsr__nn_reshape(&x, target, 1, &one);
    }
    tsr_tensor *outs[3] = {NULL, NULL, NULL}; /* loss, lse, picked */
    run_kernel(&x, c, logits, samples, weight, outs);
    tsr_tensor *result;
    if (c->reduction == TSR_LOSS_NONE)
        result = tsr__nn_reshape(&x, outs[0], target->ndim, target->shape);
    else if (c->reduction == TSR_LOSS_SUM)
        result = tsr__nn_sum(&x, outs[0], NULL, 0, false);
    else /* the summed weights of the kept targets; 0 / 0 = NaN when none is */
        result = tsr__gx_div(&x, tsr__nn_sum(&x, outs[0], NULL, 0, false),
                             tsr__nn_sum(&x, outs[2], NULL, 0, false));
    tsr_tensor *lp = NULL;
    if (log_probs) /* log_softmax = x - lse, for the backward only */
        lp = tsr__nn_reshape(&x, tsr__gx_sub(&x, logits, tsr__nn_unsqueeze(&x, outs[1], 1)),
                             input->ndim, input->shape);
    tsr_tensor *kept_loss = NULL, *kept_lp = NULL;
    tsr__gx_result(&x, &kept_loss, result);
    tsr__gx_result(&x, &kept_lp, lp);
    tsr_status st = tsr__gx_finish(&x);
    if (st != TSR_OK) {
        tsr_tensor_release(kept_loss);
        tsr_tensor_release(kept_lp);
        return st;
    }
    *loss = kept_loss;
    if (log_probs)
        *log_probs = kept_lp;
    return TSR_OK;
}
