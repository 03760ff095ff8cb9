/* The fields of an autograd node (internal to autograd_*.c). */
#ifndef TSR_CORE_AUTOGRAD_NODE_H
#define TSR_CORE_AUTOGRAD_NODE_H

#include "autograd.h"

/* A tensor a node keeps for its backward, as a separate handle on the same
 * storage (so never the output itself: no output -> node -> output cycle). */
typedef struct tsr__saved {
    tsr_tensor *data; /* NULL when empty or released */
    uint64_t version; /* storage version when saved */
    tsr__edge edge;   /* strong: the saved input's history, for double backward */
    bool is_output;   /* an output of this node: its history is the node itself */
    int output_nr;
    const char *what; /* "self", "other", "result" */
} tsr__saved;

struct tsr__node {
    atomic_long refcount;
    const char *name; /* the forward op: "mul", or "AccumulateGrad" */
    tsr__backward_fn backward;
    tsr_tensor *leaf; /* AccumulateGrad only: the leaf (strong) */
    bool released;    /* saved tensors it held were freed after running */
    int num_inputs, num_outputs, num_saved;
    tsr__edge *next;         /* [num_inputs], strong */
    tsr__grad_meta *outputs; /* [num_outputs] */
    tsr__saved *saved;       /* [num_saved] */
    void *attrs;
};

/* Frees the saved tensors (after backward without retain_graph). */
void tsr__node_release_saved(tsr__node *node);
/* The AccumulateGrad backward (autograd_tensor.c). */
tsr_status tsr__accumulate_grad(tsr__node *node, tsr_tensor *const *grads,
                                tsr_tensor **grad_inputs);
/* Fills meta from t's geometry. */
void tsr__grad_meta_of(const tsr_tensor *t, tsr__grad_meta *meta);

#endif
