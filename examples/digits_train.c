/* The training step and the held-out accuracy both digits demos run
 * (digits_train.h); the model is the caller's, reached through its forward. */
#include "digits_train.h"

#include <stdlib.h>

/* zero_grad, forward, cross_entropy, backward, step; the batch's mean loss. */
tsr_status digits_train_step(digits_forward_fn forward, const void *model, tsr_optimizer *opt,
                             const tsr_tensor *x, const tsr_tensor *y, float *loss_value)
{
    tsr_tensor *logits = NULL, *loss = NULL;
    tsr_status st = tsr_optimizer_zero_grad(opt, true);
    if (st == TSR_OK)
        st = forward(model, x, &logits);
    if (st == TSR_OK)
        st =
            tsr_cross_entropy(logits, y, NULL, TSR_IGNORE_INDEX_DEFAULT, TSR_LOSS_MEAN, 0.0, &loss);
    if (st == TSR_OK)
        st = tsr_backward(loss, NULL, 0);
    if (st == TSR_OK)
        st = tsr_optimizer_step(opt);
    if (st == TSR_OK)
        st = tsr_to_host(loss, loss_value, sizeof *loss_value);
    tsr_tensor_release(logits);
    tsr_tensor_release(loss);
    return st;
}

/* The fraction of rows whose largest logit is the label, with grad mode off. */
tsr_status digits_evaluate(digits_forward_fn forward, const void *model, const tsr_tensor *x,
                           const int64_t *labels, int n, double *accuracy)
{
    bool prev = tsr_grad_mode_set(false);
    tsr_tensor *logits = NULL, *pred = NULL;
    int64_t *host = malloc((size_t)n * sizeof *host);
    int64_t dim = 1;
    tsr_status st = host ? forward(model, x, &logits) : TSR_ERR_OUT_OF_MEMORY;
    if (st == TSR_OK)
        st = tsr_argmax(logits, &dim, 1, false, &pred);
    if (st == TSR_OK)
        st = tsr_to_host(pred, host, (size_t)n * sizeof *host);
    int correct = 0;
    for (int i = 0; st == TSR_OK && i < n; i++)
        correct += host[i] == labels[i];
    if (st == TSR_OK)
        *accuracy = (double)correct / n;
    tsr_grad_mode_set(prev);
    tsr_tensor_release(logits);
    tsr_tensor_release(pred);
    free(host);
    return st;
}
