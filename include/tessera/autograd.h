/* tessera: Reverse-mode automatic differentiation.
 * Included by tessera/tessera.h; the conventions stated there apply.
 *
 * As in PyTorch: a tensor that requires grad and was made by an op carries
 * the node of that op (its grad_fn); leaves are tensors the user marked with
 * tsr_tensor_set_requires_grad. tsr_backward walks the graph from a loss and
 * accumulates gradients into the leaves' .grad. Ops record nodes only while
 * grad mode is on (the default, per thread). See docs/autograd.md. */
#ifndef TESSERA_AUTOGRAD_H
#define TESSERA_AUTOGRAD_H

#include "tessera/tessera.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of tsr_backward and tsr_autograd_grad. */
enum {
    /* Keep the saved tensors so the graph can be walked again. Without it a
     * second walk through a node that saved tensors fails. */
    TSR_GRAD_RETAIN_GRAPH = 1u << 0,
    /* Record the backward computation itself (implies RETAIN_GRAPH), so the
     * gradients have a graph and can be differentiated again. */
    TSR_GRAD_CREATE_GRAPH = 1u << 1,
    /* tsr_autograd_grad: an input the outputs do not depend on gets a NULL
     * result instead of an error. */
    TSR_GRAD_ALLOW_UNUSED = 1u << 2,
};

/* ======================================================================== */
/* Grad mode                                                                 */
/* ======================================================================== */

/* Whether ops on this thread record nodes (true unless switched off). */
TSR_API bool tsr_grad_mode_enabled(void);
/* Switches recording on or off for the calling thread and returns the
 * previous setting, so a no-grad scope reads
 *     bool prev = tsr_grad_mode_set(false); ...; tsr_grad_mode_set(prev); */
TSR_API bool tsr_grad_mode_set(bool enabled);

/* ======================================================================== */
/* Tensors and their gradients                                               */
/* ======================================================================== */

/* Marks a leaf as requiring grad (or not). Only floating point and complex
 * tensors can require grad (complex gradients follow PyTorch's conjugate
 * Wirtinger convention, docs/autograd.md), and only leaves can be switched
 * off. Not thread-safe with
 * other calls on the same tensor. */
TSR_API tsr_status tsr_tensor_set_requires_grad(tsr_tensor *tensor, bool requires_grad);
TSR_API bool tsr_tensor_requires_grad(const tsr_tensor *tensor);
/* A leaf: made by the user, not by an op that recorded a node (every tensor
 * that does not require grad is a leaf, as in PyTorch). */
TSR_API bool tsr_tensor_is_leaf(const tsr_tensor *tensor);
/* The name of the op that made the tensor ("mul", "transpose"), or NULL for
 * leaves. Valid while the tensor lives. */
TSR_API const char *tsr_tensor_grad_fn_name(const tsr_tensor *tensor);

/* The accumulated gradient (.grad): a new reference the caller releases, or
 * NULL in *out when there is none. In-place writes to it change .grad. */
TSR_API tsr_status tsr_tensor_grad(const tsr_tensor *tensor, tsr_tensor **out);
/* Replaces .grad (NULL removes it); grad must have the tensor's shape and
 * dtype and live on its backend. The tensor keeps its own reference. */
TSR_API tsr_status tsr_tensor_set_grad(tsr_tensor *tensor, const tsr_tensor *grad);
/* Drops .grad, as PyTorch's zero_grad(set_to_none=True): the next backward
 * starts from nothing instead of adding to zeros. */
TSR_API tsr_status tsr_tensor_zero_grad(tsr_tensor *tensor);

/* A new tensor sharing t's storage (and its version counter) with no graph
 * and requires_grad false. */
TSR_API tsr_status tsr_detach(const tsr_tensor *t, tsr_tensor **out);

/* PyTorch's retain_grad: a non-leaf that requires grad gets its .grad filled
 * by tsr_backward like a leaf (added up across calls; out of place, so an
 * earlier tsr_tensor_grad result is not changed). A no-op on leaves; an
 * error on tensors that do not require grad. tsr_autograd_grad never fills
 * it. An in-place op on the tensor keeps it retaining (the new value's
 * gradient is retained). */
TSR_API tsr_status tsr_retain_grad(tsr_tensor *tensor);
/* Whether tsr_retain_grad was called on this non-leaf (false for leaves). */
TSR_API bool tsr_tensor_retains_grad(const tsr_tensor *tensor);

/* ======================================================================== */
/* Hooks on gradients                                                        */
/* ======================================================================== */

/* Called with the gradient flowing into a tensor during backward (or
 * tsr_autograd_grad). Writing a new reference of the same shape, dtype and
 * backend to *replacement makes it the gradient from there on; leaving it
 * NULL keeps grad. Any status other than TSR_OK stops the backward with that
 * status (the message the hook left, if any, names the problem). */
typedef tsr_status (*tsr_tensor_hook_fn)(void *user_data, const tsr_tensor *grad,
                                         tsr_tensor **replacement);

/* Identifies a registered hook for tsr_remove_hook. */
typedef struct tsr_hook_handle tsr_hook_handle;

/* PyTorch's Tensor.register_hook. The tensor must require grad. Hooks run in
 * registration order, before a leaf's gradient is accumulated or a
 * non-leaf's gradient is passed to its grad_fn (and before retain_grad
 * stores it); only when some gradient actually flows into the tensor. A
 * non-leaf's hook belongs to the grad_fn it had when registered (an in-place
 * op later does not move it), as in PyTorch. user_data is borrowed: it must
 * outlive the hook (until tsr_remove_hook, or until the tensor and its graph
 * are released). handle may be NULL (the hook then stays for good); else
 * *handle must be passed to tsr_remove_hook exactly once, which frees it. */
TSR_API tsr_status tsr_register_hook(tsr_tensor *tensor, tsr_tensor_hook_fn fn, void *user_data,
                                     tsr_hook_handle **handle);
/* Unregisters the hook (if its tensor and graph still live) and frees the
 * handle. NULL is a no-op. */
TSR_API void tsr_remove_hook(tsr_hook_handle *handle);

/* ======================================================================== */
/* Running the graph backwards                                               */
/* ======================================================================== */

/* Accumulates d(loss)/d(leaf) into .grad of every leaf the loss depends on.
 * grad is d(final)/d(loss), of loss's shape; NULL means 1 and needs a loss
 * with one element. flags: TSR_GRAD_RETAIN_GRAPH, TSR_GRAD_CREATE_GRAPH (the
 * bool `retain_graph` of the PyTorch call fits: true is RETAIN_GRAPH).
 * On failure some leaves may already have been updated (as in PyTorch). */
TSR_API tsr_status tsr_backward(const tsr_tensor *loss, const tsr_tensor *grad, uint32_t flags);

/* torch.autograd.grad: writes d(sum_i <grad_outputs[i], outputs[i]>)/d(inputs[j])
 * to results[j] (new references) without touching any .grad. grad_outputs
 * may be NULL, or hold NULL entries, for outputs with one element (meaning 1).
 * flags: TSR_GRAD_RETAIN_GRAPH, TSR_GRAD_CREATE_GRAPH, TSR_GRAD_ALLOW_UNUSED.
 * Every input must require grad. results is left untouched on failure. */
TSR_API tsr_status tsr_autograd_grad(const tsr_tensor *const *outputs, size_t num_outputs,
                                     const tsr_tensor *const *inputs, size_t num_inputs,
                                     const tsr_tensor *const *grad_outputs, uint32_t flags,
                                     tsr_tensor **results);

/* ======================================================================== */
/* Checking gradients against finite differences                             */
/* ======================================================================== */

/* The function under test: reads inputs[0..n) and writes one new tensor. */
typedef tsr_status (*tsr_gradcheck_fn)(void *context, const tsr_tensor *const *inputs, int n,
                                       tsr_tensor **output);

typedef struct tsr_gradcheck_options {
    uint32_t struct_size; /* sizeof(tsr_gradcheck_options) */
    double eps;           /* finite difference step; 0 means 1e-6 */
    double atol;          /* 0 means 1e-5 */
    double rtol;          /* 0 means 1e-3 */
} tsr_gradcheck_options;

/* torch.autograd.gradcheck: compares the Jacobian that autograd computes for
 * fn with central finite differences, element by element, for every input
 * that requires grad (use float64 inputs). Returns TSR_OK when every entry
 * agrees within atol + rtol * |numerical|, TSR_ERR_AUTOGRAD naming the first
 * entry that does not, or the failure of fn. Complex inputs and outputs count
 * as their real and imaginary parts (PyTorch's complex gradcheck: the
 * Wirtinger derivatives in its conjugate convention are checked); use
 * complex128 for them. options may be NULL; max_error
 * (may be NULL) receives the largest |analytical - numerical|. The inputs are
 * not modified. */
TSR_API tsr_status tsr_gradcheck(tsr_gradcheck_fn fn, void *context,
                                 const tsr_tensor *const *inputs, int n,
                                 const tsr_gradcheck_options *options, double *max_error);

#ifdef __cplusplus
}
#endif

#endif /* TESSERA_AUTOGRAD_H */
