/* What the pooling family's files share (internal): the geometry of one
 * call and the differentiable kernel steps the forwards and the backward
 * formulas are written with. Tensors here are batched, [N, C, s...]. */
#ifndef TSR_CORE_OPS_POOL_H
#define TSR_CORE_OPS_POOL_H

#include "tensor/tensor.h"

/* The kinds of pooling, for the checks that differ between them. */
typedef enum tsr__pool_kind {
    TSR__POOL_MAX,
    TSR__POOL_AVG,
    TSR__POOL_ADAPTIVE_AVG,
    TSR__POOL_ADAPTIVE_MAX,
} tsr__pool_kind;

/* One pooling call: the kernel's attributes and the batched input and
 * output shapes (ndim = 2 + attrs.spatial). */
typedef struct tsr__pool_geom {
    tsr_pool_attrs attrs;
    int ndim;
    int64_t in[5];
    int64_t out[5];
} tsr__pool_geom;

/* Runs `op` (a TSR_OP_POOL_* forward or backward) on x, whose shape is
 * geom's input side for a forward (output side for a backward), making
 * outputs of the other side's shape; *indices (int64) too for max ops.
 * No autograd. */
tsr_status tsr__pool_launch(const char *name, tsr_op op, const tsr_tensor *x,
                            const tsr_tensor *indices_in, const tsr__pool_geom *geom,
                            tsr_tensor **out, tsr_tensor **indices);

/* The differentiable steps (pool_grad.c); each records its node.
 * avg / adaptive avg forward and backward are each other's adjoints, so
 * recording either with the other as its gradient differentiates forever. */
tsr_status tsr__pool_avg_step(const char *name, tsr_op op, const tsr_tensor *x,
                              const tsr__pool_geom *geom, tsr_tensor **out);
/* grad_x of max pooling: grad_y scattered (summed) to its indices within
 * each plane of geom's input shape; its gradient is a gather. */
tsr_status tsr__pool_max_scatter(const tsr_tensor *grad_y, const tsr_tensor *indices,
                                 const tsr__pool_geom *geom, tsr_tensor **out);
/* Records max pooling's node on y: the gradient goes to the indices. */
tsr_status tsr__grad_record_pool_max(const char *name, const tsr_tensor *x,
                                     const tsr_tensor *indices, const tsr__pool_geom *geom,
                                     tsr_tensor *y);

/* Unbatched inputs: t with a leading size-1 dim (differentiable view), and
 * the reverse for results. */
tsr_status tsr__pool_batch(const tsr_tensor *t, bool batched, tsr_tensor **out);
tsr_status tsr__pool_unbatch(tsr_tensor *t, bool batched, tsr_tensor **out);

#endif
