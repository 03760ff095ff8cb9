/* The views and copy families' records (internal). */
#ifndef TSR_CORE_OPS_VIEWS_GRAD_H
#define TSR_CORE_OPS_VIEWS_GRAD_H

#include "autograd/graph.h"

/* The view ops (views.c) and their gradients. */
typedef enum tsr__view_kind {
    TSR__VIEW_RESHAPE,   /* view, reshape, squeeze, unsqueeze: reshape back */
    TSR__VIEW_TRANSPOSE, /* p[0], p[1]: the dims */
    TSR__VIEW_PERMUTE,   /* p[0..ndim): the permutation */
    TSR__VIEW_EXPAND,    /* sum back to the input's shape */
    TSR__VIEW_SLICE,     /* p = {dim, start, end, step}, normalised */
    TSR__VIEW_DIAGONAL,  /* p = {offset, dim1, dim2} */
} tsr__view_kind;

typedef struct tsr__view_args {
    tsr__view_kind kind;
    const char *name;
    int64_t p[TSR_MAX_DIMS];
} tsr__view_args;

/* Finishes a view op: makes result a view of t (or of t's base) and records
 * its node. */
tsr_status tsr__grad_view(tsr_status st, const tsr__view_args *args, const tsr_tensor *t,
                          tsr_tensor *result, bool is_view, tsr_tensor **out);
/* Finishes contiguous, clone, to(dtype), to(backend) (identity results skip). */
tsr_status tsr__grad_copy(tsr_status st, const char *name, const tsr_tensor *t, tsr_tensor *result,
                          tsr_tensor **out);

#endif
