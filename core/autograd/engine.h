/* The backward engine's own parts (internal to autograd/): what runs only
 * during backward and may call any op. */
#ifndef TSR_CORE_AUTOGRAD_ENGINE_H
#define TSR_CORE_AUTOGRAD_ENGINE_H

#include "autograd/node.h"

/* AccumulateGrad's work: adds grads[0] into node->leaf's .grad
 * (accumulate.c). The engine calls it for nodes with a leaf; the graph
 * layer, which makes those nodes, never needs to reach it. */
tsr_status tsr__accumulate_grad(tsr__node *node, tsr_tensor *const *grads,
                                tsr_tensor **grad_inputs);
/* Runs the hooks of node's outputs that received a gradient (buffer[k] not
 * NULL), replacing buffer[k] as they ask; then, when `retain`, fills the
 * .grad of tensors that retain theirs (hooks_run.c). */
tsr_status tsr__hooks_run(tsr__node *node, tsr_tensor **buffer, bool retain);

#endif
