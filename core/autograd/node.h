/* The fields of an autograd node (internal to autograd/). */
#ifndef TSR_CORE_AUTOGRAD_NODE_H
#define TSR_CORE_AUTOGRAD_NODE_H

#include "autograd/graph.h"

#include <pthread.h>

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

/* A tensor hook or a retain_grad entry, in a node's list (non-leaves) or a
 * leaf's autograd record; kept in registration order. */
struct tsr__hook {
    tsr__hook *next;
    int output_nr;
    tsr_tensor_hook_fn fn;          /* NULL for a retain_grad entry */
    void *user_data;                /* borrowed */
    tsr_hook_handle *handle;        /* shared with the user; NULL when none was asked for */
    tsr__autograd_meta *retain;     /* retain_grad: whose .grad to fill (weak) */
};

/* A hook's handle, shared by its entry and the user. */
struct tsr_hook_handle {
    atomic_long refcount; /* the hook's entry and the user */
    atomic_bool removed;
};

struct tsr__node {
    atomic_long refcount;
    const char *name; /* the forward op: "mul", or "AccumulateGrad" */
    tsr__backward_fn backward;
    tsr_tensor *leaf; /* AccumulateGrad only: the leaf (strong) */
    bool released;    /* saved tensors it held were freed after running */
    bool complex_ok;  /* tsr__node_allow_complex: the formula handles complex */
    int num_inputs, num_outputs, num_saved;
    tsr__edge *next;         /* [num_inputs], strong */
    tsr__grad_meta *outputs; /* [num_outputs] */
    tsr__saved *saved;       /* [num_saved] */
    void *attrs;
    tsr__hook *hooks; /* owned: hooks and retain_grad entries of its outputs */
};

/* Mutexes striped by a record's address, so that threads working on
 * different tensors rarely meet. Each user keeps its own set:
 * static tsr__lock_stripes locks = TSR__LOCK_STRIPES_INIT; */
enum { TSR__LOCK_STRIPES = 16 };
typedef struct tsr__lock_stripes {
    pthread_mutex_t mutex[TSR__LOCK_STRIPES];
} tsr__lock_stripes;
#define TSR__LOCK_STRIPE4_                                                                          PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,                  PTHREAD_MUTEX_INITIALIZER
#define TSR__LOCK_STRIPES_INIT                                                                      {{TSR__LOCK_STRIPE4_, TSR__LOCK_STRIPE4_, TSR__LOCK_STRIPE4_, TSR__LOCK_STRIPE4_}}

static inline pthread_mutex_t *tsr__lock_stripe(tsr__lock_stripes *locks, const void *key)
{
    uintptr_t h = (uintptr_t)key;
    return &locks->mutex[(h >> 6 ^ h >> 12) % TSR__LOCK_STRIPES];
}

/* Frees the saved tensors (after backward without retain_graph). */
void tsr__node_release_saved(tsr__node *node);
/* Fills meta from t's geometry. */
void tsr__grad_meta_of(const tsr_tensor *t, tsr__grad_meta *meta);

/* Records node `name` with one input and one output whose attributes are a
 * copy of `attrs` (autograd_views.c); the view gradients (grad_views.c) and
 * the as_strided remaps of views record theirs this way. */
tsr_status tsr__record_one_to_one(const char *name, tsr__backward_fn fn, const tsr_tensor *input,
                                  const void *attrs, size_t attrs_size, tsr_tensor *out);

/* Frees a hook list. */
void tsr__hooks_free(tsr__hook *list);
/* A tensor that retains its grad got a new grad_fn: its entry moves from
 * the old node to the new one (from tsr__node_attach). */
tsr_status tsr__retain_move(tsr__autograd_meta *meta, tsr__node *old_fn);
/* Forgets the retain_grad entry pointing at meta (the tensor is freed). */
void tsr__retain_forget(tsr__autograd_meta *meta);

#endif
