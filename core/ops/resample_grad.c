/* Gradients of the resample family.
 *
 *   upsample           gx = upsample_backward(g)  (the adjoint: a scatter-add)
 *   upsample_backward  gx = upsample(g)
 * Both are linear in their input, so each is the other's gradient and
 * derivatives of every order exist.
 *
 *   grid_sampler       (gx, ggrid) = grid_sampler_backward(g, x, grid)
 * PyTorch 1.13 has no double backward for it either: the results carry an
 * "unimplemented" node when create_graph asks for one. */
#include "ops/resample_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "ops/resample.h"
#include "tensor/copy.h"
#include "tensor/launch.h"

typedef struct resample_node {
    tsr_resample_attrs attrs;
    bool backward;   /* the forward was upsample_backward */
    int64_t from[3]; /* the forward input's spatial sizes */
    tsr_dtype dtype; /* the forward's dtype */
} resample_node;

static tsr_status resample_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const resample_node *at = tsr__node_attrs(node);
    tsr_tensor *g = NULL;
    tsr_status st = tsr__convert_if_needed(at->backward ? "upsample_backward" : "upsample",
                                           grads[0], at->dtype, &g);
    if (st == TSR_OK)
        st = tsr__resample_apply(g, &at->attrs, !at->backward, at->from, &gi[0]);
    tsr_tensor_release(g);
    return st;
}

tsr_status tsr__grad_record_resample(const tsr_tensor *x, const tsr_resample_attrs *at,
                                     bool backward, tsr_tensor *y)
{
    tsr__node *node = NULL;
    tsr_status st =
        tsr__grad_node_start(backward ? "upsample_backward" : "upsample", resample_backward, &x, 1,
                             0, sizeof(resample_node), y, &node);
    if (st != TSR_OK || !node)
        return st;
    resample_node *rn = tsr__node_attrs(node);
    rn->attrs = *at;
    rn->backward = backward;
    rn->dtype = x->dtype;
    for (int d = 2; d < x->ndim && d < 5; d++)
        rn->from[d - 2] = x->shape[d];
    return tsr__grad_node_finish(node, TSR_OK, NULL, y);
}

typedef struct grid_node {
    tsr_resample_attrs attrs;
} grid_node;

static tsr_status grid_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const grid_node *gn = tsr__node_attrs(node);
    tsr_tensor *x = NULL, *grid = NULL, *g = NULL, *outs[2] = {NULL, NULL};
    tsr_status st = tsr__node_saved(node, 0, &x);
    if (st == TSR_OK)
        st = tsr__node_saved(node, 1, &grid);
    if (st == TSR_OK)
        st = tsr__convert_if_needed("grid_sampler_backward", grads[0], x->dtype, &g);
    if (st == TSR_OK)
        st = tsr__tensor_empty("grid_sampler_backward", x->storage->backend, x->dtype, x->ndim,
                               x->shape, &outs[0]);
    if (st == TSR_OK)
        st = tsr__tensor_empty("grid_sampler_backward", x->storage->backend, x->dtype, grid->ndim,
                               grid->shape, &outs[1]);
    if (st == TSR_OK) {
        const tsr_tensor *inputs[3] = {g, x, grid};
        st = tsr__launch(TSR_OP_GRID_SAMPLER_BACKWARD, x->dtype, x->dtype, inputs, 3, outs, 2,
                         &gn->attrs);
        for (int i = 0; i < 2 && st == TSR_OK; i++)
            st = tsr__grad_record_unimplemented("grid_sampler_backward", inputs, 3, outs[i]);
    }
    for (int i = 0; i < 2; i++) {
        if (st == TSR_OK && tsr__node_needs_grad(node, i))
            gi[i] = outs[i];
        else
            tsr_tensor_release(outs[i]);
    }
    tsr_tensor_release(x);
    tsr_tensor_release(grid);
    tsr_tensor_release(g);
    return st;
}

tsr_status tsr__grad_record_grid_sampler(const tsr_tensor *x, const tsr_tensor *grid,
                                         const tsr_resample_attrs *at, tsr_tensor *y)
{
    tsr__node *node = NULL;
    const tsr_tensor *inputs[2] = {x, grid};
    tsr_status st = tsr__grad_node_start("grid_sampler", grid_backward, inputs, 2, 2,
                                         sizeof(grid_node), y, &node);
    if (st != TSR_OK || !node)
        return st;
    ((grid_node *)tsr__node_attrs(node))->attrs = *at;
    st = tsr__node_save(node, 0, x, "input");
    if (st == TSR_OK)
        st = tsr__node_save(node, 1, grid, "grid");
    return tsr__grad_node_finish(node, st, NULL, y);
}
