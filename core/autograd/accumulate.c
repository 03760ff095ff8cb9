/* Accumulating a leaf's gradient into its .grad: the work of the
 * AccumulateGrad nodes, which the engine runs itself (node->leaf set). */
#include "autograd/engine.h"

#include <pthread.h>

/* Threads may run backward into the same leaf at once (shared parameters):
 * each accumulation is a read-modify-write of .grad, done under the leaf
 * record's stripe of these locks. Apart from the accumulator locks of
 * node.c, which an accumulation may take (its ops may record nodes or free
 * them), so the order is always this lock, then that one. */
static tsr__lock_stripes grad_locks = TSR__LOCK_STRIPES_INIT;

static pthread_mutex_t *grad_lock(const tsr__autograd_meta *meta)
{
    return tsr__lock_stripe(&grad_locks, meta);
}

/* Whether nobody but the engine can see g, so .grad may take it as it is. */
static bool exclusive(const tsr_tensor *g)
{
    return atomic_load(&g->refcount) == 1 && atomic_load(&g->storage->refcount) == 1 &&
           !g->autograd && tsr_tensor_is_contiguous(g);
}

/* As PyTorch's AccumulateGrad: the first gradient becomes .grad (taken or
 * cloned), later ones are added in place, or out of place when a graph is
 * being built (create_graph) or .grad already has one. */
static tsr_status accumulate_locked(tsr__autograd_meta *meta, tsr_tensor *g)
{
    tsr_tensor *sum = NULL;
    bool create_graph = tsr_grad_mode_enabled();
    tsr_status st = TSR_OK;
    if (!meta->grad) {
        if (!create_graph && exclusive(g)) {
            tsr_tensor_retain(g);
            meta->grad = g;
            return TSR_OK;
        }
        if ((st = tsr_clone(g, &sum)) == TSR_OK)
            meta->grad = sum;
        return st;
    }
    if (create_graph || tsr__requires_grad(meta->grad)) {
        if ((st = tsr_add(meta->grad, g, &sum)) == TSR_OK) {
            tsr_tensor_release(meta->grad);
            meta->grad = sum;
        }
        return st;
    }
    return tsr_add_(meta->grad, tsr_operand_tensor(g), tsr_scalar_int(1));
}

tsr_status tsr__accumulate_grad(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **unused)
{
    (void)unused;
    tsr__autograd_meta *meta = node->leaf->autograd;
    pthread_mutex_lock(grad_lock(meta));
    tsr_status st = accumulate_locked(meta, grads[0]);
    pthread_mutex_unlock(grad_lock(meta));
    return st;
}
