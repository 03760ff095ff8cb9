/* Gradients of tril, triu and the constant pad, as PyTorch's
 * derivatives.yaml writes them: the same triangle of the gradient, and the
 * pad that undoes the pad, both public ops so that the gradient is itself
 * differentiable. */
#include "ops/rearrange_grad.h"

#include "autograd/graph.h"
#include "ops/grad_expr.h"

#include <string.h>

/* ------------------------------------------------------------------------ */
/* tril, triu                                                                */
/* ------------------------------------------------------------------------ */

typedef struct triangle_attrs {
    bool lower;
    int64_t diagonal;
} triangle_attrs;

static tsr_status triangle_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const triangle_attrs *at = tsr__node_attrs(node);
    return at->lower ? tsr_tril(grads[0], at->diagonal, &gi[0])
                     : tsr_triu(grads[0], at->diagonal, &gi[0]);
}

tsr_status tsr__grad_record_triangle(tsr_op op, const tsr_tensor *t, int64_t diagonal,
                                     tsr_tensor *out)
{
    tsr__node *node;
    const char *name = op == TSR_OP_TRIL ? "tril" : "triu";
    tsr_status st =
        tsr__grad_node_start(name, triangle_backward, &t, 1, 0, sizeof(triangle_attrs), out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node) {
        triangle_attrs *at = tsr__node_attrs(node);
        at->lower = op == TSR_OP_TRIL;
        at->diagonal = diagonal;
    }
    return tsr__grad_node_finish(node, st, NULL, out);
}

/* ------------------------------------------------------------------------ */
/* pad                                                                       */
/* ------------------------------------------------------------------------ */

typedef struct pad_attrs {
    int npad;
    int64_t pad[2 * TSR_MAX_DIMS];
} pad_attrs;

/* The constant pad's gradient is the pad that undoes it. */
static tsr_status pad_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const pad_attrs *at = tsr__node_attrs(node);
    int64_t undo[2 * TSR_MAX_DIMS];
    for (int i = 0; i < at->npad; i++)
        undo[i] = -at->pad[i];
    return tsr_pad(grads[0], undo, at->npad, TSR_PAD_CONSTANT, tsr_scalar_int(0), &gi[0]);
}

tsr_status tsr__grad_record_pad(const tsr_tensor *t, const int64_t *pad, int npad, tsr_tensor *out)
{
    tsr__node *node;
    tsr_status st =
        tsr__grad_node_start("pad", pad_backward, &t, 1, 0, sizeof(pad_attrs), out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node) {
        pad_attrs *at = tsr__node_attrs(node);
        at->npad = npad;
        memcpy(at->pad, pad, (size_t)npad * sizeof *pad);
    }
    return tsr__grad_node_finish(node, st, NULL, out);
}
