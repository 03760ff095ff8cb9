/* One training step and the held-out accuracy of a digits classifier, for
 * the demos (train_digits.c, train_digits_cnn.c), which differ only in the
 * model their forward computes. */
#ifndef TESSERA_EXAMPLES_DIGITS_TRAIN_H
#define TESSERA_EXAMPLES_DIGITS_TRAIN_H

#include <tessera/tessera.h>

#include <stdint.h>

/* logits [n, 10] of the model for the images x. */
typedef tsr_status (*digits_forward_fn)(const void *model, const tsr_tensor *x,
                                        tsr_tensor **logits);

/* zero_grad, forward, mean cross_entropy against labels y, backward, step;
 * the batch's mean loss in *loss_value. */
tsr_status digits_train_step(digits_forward_fn forward, const void *model, tsr_optimizer *opt,
                             const tsr_tensor *x, const tsr_tensor *y, float *loss_value);

/* The fraction of the n rows of x whose largest logit is the label, with
 * grad mode off. */
tsr_status digits_evaluate(digits_forward_fn forward, const void *model, const tsr_tensor *x,
                           const int64_t *labels, int n, double *accuracy);

#endif /* TESSERA_EXAMPLES_DIGITS_TRAIN_H */
