/* Gradients of the pooling kernels, each a kernel step that records its own
 * node so that every gradient is differentiable again:
 *
 *   max pooling        gx = scatter-add of g to the indices (per plane)
 *   that scatter       its gradient: gather of gg at the indices
 *   avg / adaptive avg gx = the backward kernel, a linear map whose adjoint
 *                      is the forward kernel, and the other way round
 *
 * as PyTorch 1.13 (max_pool2d_with_indices_backward's own gradient is the
 * gather; avg_pool2d_backward's is avg_pool2d). */
#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "ops/nn.h"
#include "ops/pool.h"

typedef struct pool_node_attrs {
    tsr__pool_geom geom;
    tsr_op op; /* the op this node's backward runs */
} pool_node_attrs;

/* The node's gradient slot, with geom and name filled in. */
static tsr_status start_node(const char *name, tsr__backward_fn fn, const tsr_tensor *input,
                             int saved, const tsr__pool_geom *geom, tsr_op op,
                             const tsr_tensor *out, tsr__node **node)
{
    tsr_status st =
        tsr__grad_node_start(name, fn, &input, 1, saved, sizeof(pool_node_attrs), out, node);
    if (st == TSR_OK && *node) {
        pool_node_attrs *at = tsr__node_attrs(*node);
        at->geom = *geom;
        at->op = op;
    }
    return st;
}

/* ---- avg and adaptive avg: forward and backward kernels are adjoints ---- */

static tsr_op adjoint_of(tsr_op op)
{
    switch (op) {
    case TSR_OP_POOL_AVG: return TSR_OP_POOL_AVG_BACKWARD;
    case TSR_OP_POOL_AVG_BACKWARD: return TSR_OP_POOL_AVG;
    case TSR_OP_POOL_ADAPTIVE_AVG: return TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
    default: return TSR_OP_POOL_ADAPTIVE_AVG;
    }
}

static tsr_status avg_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const pool_node_attrs *at = tsr__node_attrs(node);
    return tsr__pool_avg_step(tsr__node_name(node), at->op, grads[0], &at->geom, &gi[0]);
}

tsr_status tsr__pool_avg_step(const char *name, tsr_op op, const tsr_tensor *x,
                              const tsr__pool_geom *geom, tsr_tensor **out)
{
    tsr_tensor *y = NULL;
    tsr_status st = tsr__pool_launch(name, op, x, NULL, geom, &y, NULL);
    tsr__node *node = NULL;
    if (st == TSR_OK)
        st = start_node(name, avg_backward, x, 0, geom, adjoint_of(op), y, &node);
    st = tsr__grad_node_finish(node, st, NULL, y);
    return tsr__deliver(st, y, out);
}

/* ---- max: a scatter to the indices, whose gradient is a gather ---------- */

/* gg [N, C, in...] at the indices [N, C, out...] of each plane. */
static tsr_status gather_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const tsr__pool_geom *g = &((const pool_node_attrs *)tsr__node_attrs(node))->geom;
    tsr__gx x = {0};
    tsr_tensor *indices = tsr__gx_saved(&x, node, 0);
    int64_t in_flat[3] = {g->in[0], g->in[1], -1}, out_flat[3] = {g->out[0], g->out[1], -1};
    tsr_tensor *src = tsr__nn_reshape(&x, grads[0], 3, in_flat);
    tsr_tensor *idx = tsr__nn_reshape(&x, indices, 3, out_flat);
    tsr_tensor *picked = NULL;
    if (x.status == TSR_OK) {
        tsr_status st = tsr_gather(src, 2, idx, &picked);
        picked = tsr__gx_keep(&x, st, picked);
    }
    tsr__gx_result(&x, &gi[0], tsr__nn_reshape(&x, picked, g->ndim, g->out));
    return tsr__gx_finish(&x);
}

tsr_status tsr__pool_max_scatter(const tsr_tensor *grad_y, const tsr_tensor *indices,
                                 const tsr__pool_geom *geom, tsr_tensor **out)
{
    const char *name = "max_pool_backward";
    tsr_tensor *gx = NULL;
    tsr_status st =
        tsr__pool_launch(name, TSR_OP_POOL_MAX_BACKWARD, grad_y, indices, geom, &gx, NULL);
    tsr__node *node = NULL;
    if (st == TSR_OK)
        st = start_node(name, gather_backward, grad_y, 1, geom, TSR_OP_POOL_MAX_BACKWARD, gx,
                        &node);
    st = tsr__grad_node_finish(node, st, indices, gx);
    return tsr__deliver(st, gx, out);
}

static tsr_status max_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const pool_node_attrs *at = tsr__node_attrs(node);
    tsr_tensor *indices = NULL;
    tsr_status st = tsr__node_saved(node, 0, &indices);
    if (st == TSR_OK)
        st = tsr__pool_max_scatter(grads[0], indices, &at->geom, &gi[0]);
    tsr_tensor_release(indices);
    return st;
}

tsr_status tsr__grad_record_pool_max(const char *name, const tsr_tensor *x,
                                     const tsr_tensor *indices, const tsr__pool_geom *geom,
                                     tsr_tensor *y)
{
    tsr__node *node = NULL;
    tsr_status st = start_node(name, max_backward, x, 1, geom, TSR_OP_POOL_MAX, y, &node);
    return tsr__grad_node_finish(node, st, indices, y);
}
