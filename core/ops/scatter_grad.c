/* Gradients of the scatter family: scatter, scatter_add, index_add and
 * index_copy written with gather, index_select, scatter and pad (public
 * ops, so that each gradient is itself differentiable); scatter_reduce
 * (prod, mean, amax, amin) and scatter's reduce='multiply' as PyTorch
 * 1.13's scatter_reduce_backward; scatter with multiply is scatter_reduce's
 * prod including self (PyTorch 1.13 has no derivative for it; this is that
 * formula). */
#include "ops/scatter_grad.h"

#include "autograd/node.h"
#include "runtime/error.h"
#include "ops/grad_expr.h"

#include <string.h>

/* As PyTorch 1.13's scatter_reduce_backward. Saved: the index (slot 0),
 * self, src and the result (prod, amax, amin). */
enum { SR_INDEX, SR_SELF, SR_SRC, SR_RESULT, SR_COUNT };

static tsr_tensor *gx_gather(tsr__gx *x, const tsr_tensor *t, int dim, const tsr_tensor *index)
{
    if (x->status != TSR_OK || !t || !index)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_gather(t, dim, index, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_scatter_add(tsr__gx *x, const tsr_tensor *t, int dim, const tsr_tensor *index,
                                  const tsr_tensor *src)
{
    if (x->status != TSR_OK || !t || !src)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_scatter_add(t, dim, index, src, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_scatter_reduce(tsr__gx *x, const tsr_tensor *t, int dim,
                                     const tsr_tensor *index, const tsr_tensor *src, int reduce,
                                     bool include_self)
{
    if (x->status != TSR_OK || !t || !src)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_scatter_reduce(t, dim, index, src, reduce, include_self, &r);
    return tsr__gx_keep(x, st, r);
}

static tsr_tensor *gx_to(tsr__gx *x, const tsr_tensor *t, tsr_dtype dtype)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_to_dtype(t, dtype, &r);
    return tsr__gx_keep(x, st, r);
}

/* ones (or zeros) of t's shape in `dtype`. */
static tsr_tensor *gx_filled(tsr__gx *x, const tsr_tensor *t, double value, tsr_dtype dtype)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    tsr_tensor *r = NULL;
    tsr_status st = tsr_full(tsr_tensor_ndim(t), tsr_tensor_shape(t), tsr_scalar_float(value),
                             dtype, tsr_tensor_backend(t), &r);
    return tsr__gx_keep(x, st, r);
}

/* src cut to index's shape (src may be larger along any dim). */
static tsr_tensor *gx_src_part(tsr__gx *x, const tsr_tensor *src, const tsr_tensor *index)
{
    if (x->status != TSR_OK || !src)
        return NULL;
    tsr_tensor_retain(src);
    tsr_tensor *cur = tsr__gx_keep(x, TSR_OK, (tsr_tensor *)src);
    for (int d = 0; d < tsr_tensor_ndim(index) && cur; d++) {
        int64_t want = tsr_tensor_shape(index)[d];
        if (tsr_tensor_shape(cur)[d] == want)
            continue;
        tsr_tensor *r = NULL;
        tsr_status st = tsr_narrow(cur, d, 0, want, &r);
        cur = tsr__gx_keep(x, st, r);
    }
    return cur;
}

/* The gradient for self before the !include_self zeroing. */
static tsr_tensor *sr_self_grad(tsr__gx *x, const tsr__scatter_grad *at, const tsr_tensor *g,
                                const tsr_tensor *index, const tsr_tensor *self,
                                const tsr_tensor *src, const tsr_tensor *result,
                                const tsr_tensor *count)
{
    int dim = at->dim;
    switch (at->reduce) {
    case TSR_REDUCE_PROD: {
        tsr_tensor *self_zero =
            tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(self), tsr__gx_float(0.0));
        tsr_tensor *masked_self =
            self_zero ? tsr__gx_where(x, self_zero, tsr__gx_float(1.0), tsr_operand_tensor(self))
                      : NULL;
        tsr_tensor *masked_result =
            gx_scatter_reduce(x, masked_self, dim, index, src, TSR_REDUCE_PROD, at->include_self);
        return tsr__gx_div(x, tsr__gx_mul(x, g, masked_result), masked_self);
    }
    case TSR_REDUCE_MEAN:
        return tsr__gx_div(x, g, count);
    default: /* amax, amin: count is the number of elements equal to the result */
        return tsr__gx_mul(
            x, tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(self), tsr_operand_tensor(result)),
            tsr__gx_div(x, g, count));
    }
}

/* The gradient for the part of src that index covers. */
static tsr_tensor *sr_src_grad(tsr__gx *x, const tsr__scatter_grad *at, const tsr_tensor *g,
                               const tsr_tensor *index, const tsr_tensor *self,
                               const tsr_tensor *src_part, const tsr_tensor *result,
                               const tsr_tensor *count)
{
    int dim = at->dim;
    switch (at->reduce) {
    case TSR_REDUCE_PROD: {
        tsr_tensor *src_zero =
            tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(src_part), tsr__gx_float(0.0));
        tsr_tensor *zeros = gx_filled(x, g, 0.0, tsr_tensor_dtype(self));
        tsr_tensor *zero_counts =
            gx_scatter_add(x, zeros, dim, index, gx_to(x, src_zero, tsr_tensor_dtype(self)));
        tsr_tensor *src_zeros = gx_gather(x, zero_counts, dim, index);
        tsr_tensor *one_zero =
            src_zeros
                ? tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(src_zeros), tsr__gx_float(1.0))
                : NULL;
        tsr_tensor *single =
            one_zero ? tsr__gx_binary(x, TSR_OP_LOGICAL_AND, tsr_operand_tensor(src_zero),
                                      tsr_operand_tensor(one_zero))
                     : NULL;
        tsr_tensor *masked_src =
            single ? tsr__gx_where(x, single, tsr__gx_float(1.0), tsr_operand_tensor(src_part))
                   : NULL;
        tsr_tensor *masked_result =
            gx_scatter_reduce(x, self, dim, index, masked_src, TSR_REDUCE_PROD, at->include_self);
        tsr_tensor *at_single = gx_gather(x, tsr__gx_mul(x, g, masked_result), dim, index);
        tsr_tensor *divisor =
            src_zero ? tsr__gx_where(x, src_zero, tsr__gx_float(1.0), tsr_operand_tensor(src_part))
                     : NULL;
        tsr_tensor *others =
            tsr__gx_div(x, gx_gather(x, tsr__gx_mul(x, g, result), dim, index), divisor);
        /* where several zeros of src meet, this is 0; its own derivative
         * is refused (refuse_double_backward) */
        return at_single ? tsr__gx_where(x, single, tsr_operand_tensor(at_single),
                                         tsr_operand_tensor(others))
                         : NULL;
    }
    case TSR_REDUCE_MEAN:
        return tsr__gx_div(x, gx_gather(x, g, dim, index), gx_gather(x, count, dim, index));
    default: {
        tsr_tensor *value = gx_gather(x, result, dim, index);
        tsr_tensor *src_is = value ? tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(src_part),
                                                    tsr_operand_tensor(value))
                                   : NULL;
        return tsr__gx_mul(x, src_is, gx_gather(x, tsr__gx_div(x, g, count), dim, index));
    }
    }
}

/* mean: how many values each position averaged (at least 1); amax, amin:
 * how many of self and src equal the result there. */
static tsr_tensor *sr_count(tsr__gx *x, const tsr__scatter_grad *at, const tsr_tensor *g,
                            const tsr_tensor *index, const tsr_tensor *self,
                            const tsr_tensor *src_part, const tsr_tensor *result)
{
    if (at->reduce == TSR_REDUCE_PROD || x->status != TSR_OK)
        return NULL;
    tsr_dtype dtype = tsr_tensor_dtype(g);
    if (at->reduce == TSR_REDUCE_MEAN) {
        tsr_tensor *start = gx_filled(x, g, at->include_self ? 1.0 : 0.0, dtype);
        tsr_tensor *n = gx_scatter_add(x, start, at->dim, index, gx_filled(x, index, 1.0, dtype));
        tsr_tensor *none =
            n ? tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(n), tsr__gx_float(0.0)) : NULL;
        return none ? tsr__gx_where(x, none, tsr__gx_float(1.0), tsr_operand_tensor(n)) : NULL;
    }
    tsr_dtype self_dtype = tsr_tensor_dtype(self);
    tsr_tensor *value = gx_gather(x, result, at->dim, index);
    tsr_tensor *self_is =
        gx_to(x, tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(self), tsr_operand_tensor(result)),
              self_dtype);
    tsr_tensor *src_is = value ? gx_to(x,
                                       tsr__gx_binary(x, TSR_OP_EQ, tsr_operand_tensor(src_part),
                                                      tsr_operand_tensor(value)),
                                       self_dtype)
                               : NULL;
    return gx_scatter_add(x, self_is, at->dim, index, src_is);
}

/* Whether two or more zeros of src_part land on one place of self. */
static tsr_status zeros_meet(const tsr__scatter_grad *at, const tsr_tensor *g,
                             const tsr_tensor *index, const tsr_tensor *src_part, bool *out)
{
    bool previous = tsr_grad_mode_set(false);
    tsr__gx x = {0};
    tsr_dtype dtype = tsr_tensor_dtype(g);
    tsr_tensor *zero = gx_to(
        &x, tsr__gx_binary(&x, TSR_OP_EQ, tsr_operand_tensor(src_part), tsr__gx_float(0.0)), dtype);
    tsr_tensor *counts = gx_scatter_add(&x, gx_filled(&x, g, 0.0, dtype), at->dim, index, zero);
    tsr_tensor *here = gx_gather(&x, counts, at->dim, index);
    tsr_tensor *many =
        here
            ? gx_to(&x, tsr__gx_binary(&x, TSR_OP_GT, tsr_operand_tensor(here), tsr__gx_float(1.0)),
                    dtype)
            : NULL;
    tsr_tensor *both = tsr__gx_mul(&x, zero, many), *total = NULL;
    double n = 0;
    if (both) {
        tsr_status st = tsr_sum(both, NULL, 0, false, TSR_FLOAT64, &total);
        if (st == TSR_OK)
            st = tsr_to_host(total, &n, sizeof n);
        tsr_tensor_release(total);
        if (st != TSR_OK)
            x.status = st;
    }
    tsr_grad_mode_set(previous);
    *out = n > 0;
    return tsr__gx_finish(&x);
}

static tsr_status delayed_error(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    (void)node, (void)grads, (void)gi;
    return tsr__set_error(TSR_ERR_AUTOGRAD, "scatter_reduce(): double backward is unsupported "
                                            "for src when more than one zero of src is "
                                            "scattered to the same position of self");
}

/* PyTorch's DelayedError: a src gradient built where zeros meet is correct,
 * but differentiating it again fails, so under create_graph it gets a node
 * that refuses instead of a formula that would be wrong. */
static tsr_status refuse_double_backward(const tsr__scatter_grad *at, const tsr_tensor *g,
                                         const tsr_tensor *index, const tsr_tensor *src_part,
                                         tsr_tensor *grad_src)
{
    bool meet = false;
    if (!tsr__requires_grad(grad_src))
        return TSR_OK;
    tsr_status st = zeros_meet(at, g, index, src_part, &meet);
    if (st != TSR_OK || !meet)
        return st;
    tsr__node *node = NULL;
    st = tsr__node_create("scatter_reduce", delayed_error, 1, 1, 0, 0, &node);
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, grad_src);
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, grad_src);
    tsr__node_release(node);
    return st;
}

static tsr_status scatter_reduce_backward(tsr__node *node, tsr_tensor *const *grads,
                                          tsr_tensor **gi)
{
    const tsr__scatter_grad *at = tsr__node_attrs(node);
    const tsr_tensor *g = grads[0];
    bool values = at->reduce != TSR_REDUCE_MEAN;
    tsr__gx x = {0};
    tsr_tensor *index = tsr__gx_saved(&x, node, SR_INDEX);
    tsr_tensor *self = values ? tsr__gx_saved(&x, node, SR_SELF) : NULL;
    tsr_tensor *src = values ? tsr__gx_saved(&x, node, SR_SRC) : NULL;
    tsr_tensor *result = values ? tsr__gx_saved(&x, node, SR_RESULT) : NULL;
    tsr_tensor *src_part = values ? gx_src_part(&x, src, index) : NULL;
    tsr_tensor *count = sr_count(&x, at, g, index, self, src_part, result);
    if (tsr__node_needs_grad(node, 0)) {
        tsr__gx local = {0}, *l = &local;
        tsr_tensor *r = NULL;
        tsr__gx_result(l, &r, sr_self_grad(l, at, g, index, self, src, result, count));
        tsr_status st = tsr__gx_finish(l);
        r = tsr__gx_keep(&x, st, r);
        if (r && !at->include_self) {
            tsr_tensor *zeroed = NULL;
            st = tsr_scatter_value(r, at->dim, index, tsr_scalar_int(0), TSR_REDUCE_NONE, &zeroed);
            r = tsr__gx_keep(&x, st, zeroed);
        }
        tsr__gx_result(&x, &gi[0], r);
    }
    if (tsr__node_needs_grad(node, 1)) {
        tsr__gx local = {0}, *l = &local;
        tsr_tensor *r = NULL;
        tsr__gx_result(l, &r, sr_src_grad(l, at, g, index, self, src_part, result, count));
        tsr_status st = tsr__gx_finish(l);
        r = tsr__gx_keep(&x, st, r);
        if (r && at->reduce == TSR_REDUCE_PROD &&
            (st = refuse_double_backward(at, g, index, src_part, r)) != TSR_OK) {
            x.status = st; /* r is released with x's temporaries */
            r = NULL;
        }
        /* zero-padded to src's shape where src is larger than index */
        const tsr__grad_meta *m = tsr__node_input_meta(node, 1);
        int64_t pad[2 * TSR_MAX_DIMS];
        bool padded = false;
        for (int i = 0; r && i < m->ndim; i++) {
            pad[2 * i] = 0;
            pad[2 * i + 1] = m->shape[m->ndim - 1 - i] - tsr_tensor_shape(index)[m->ndim - 1 - i];
            padded = padded || pad[2 * i + 1] != 0;
        }
        if (r && padded) {
            tsr_tensor *p = NULL;
            st = tsr_pad(r, pad, 2 * m->ndim, TSR_PAD_CONSTANT, tsr_scalar_int(0), &p);
            r = tsr__gx_keep(&x, st, p);
        }
        tsr__gx_result(&x, &gi[1], r);
    }
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_scatter_reduce(const tsr__scatter_grad *info, const tsr_tensor *self,
                                           const tsr_tensor *index, const tsr_tensor *src,
                                           tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {self, src};
    if (!tsr__grad_wanted(inputs, 2) || !tsr__grad_dtype(out->dtype))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st =
        tsr__node_create(info->name, scatter_reduce_backward, 2, 1, SR_COUNT, sizeof *info, &node);
    for (int i = 0; i < 2 && st == TSR_OK; i++)
        st = tsr__node_set_input(node, i, inputs[i]);
    if (st != TSR_OK) {
        tsr__node_release(node);
        return st;
    }
    memcpy(tsr__node_attrs(node), info, sizeof *info);
    bool values = info->reduce != TSR_REDUCE_MEAN;
    if (st == TSR_OK)
        st = tsr__node_save(node, SR_INDEX, index, "index");
    if (st == TSR_OK && values)
        st = tsr__node_save(node, SR_SELF, self, "self");
    if (st == TSR_OK && values)
        st = tsr__node_save(node, SR_SRC, src, "src");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    if (st == TSR_OK && values)
        st = tsr__node_save_output(node, SR_RESULT, out, 0);
    tsr__node_release(node);
    return st;
}

/* ---- scatter(value, reduce=multiply) ----------------------------------- */

/* Each place of self is multiplied by value once per index naming it, so
 * its gradient is g * value^n with n those counts. Saved: the index. */
static tsr_status multiply_value_backward(tsr__node *node, tsr_tensor *const *grads,
                                          tsr_tensor **gi)
{
    const tsr__scatter_grad *at = tsr__node_attrs(node);
    const tsr_tensor *g = grads[0];
    tsr__gx x = {0};
    tsr_tensor *index = tsr__gx_saved(&x, node, 0);
    tsr_dtype dtype = tsr_tensor_dtype(g);
    tsr_tensor *n = gx_scatter_add(&x, gx_filled(&x, g, 0.0, dtype), at->dim, index,
                                   gx_filled(&x, index, 1.0, dtype));
    tsr_tensor *factor =
        n ? tsr__gx_binary(&x, TSR_OP_POW, tsr_operand_scalar(at->alpha), tsr_operand_tensor(n))
          : NULL;
    tsr__gx_result(&x, &gi[0], tsr__gx_mul(&x, g, factor));
    return tsr__gx_finish(&x);
}

tsr_status tsr__grad_record_scatter_multiply_value(const tsr__scatter_grad *info,
                                                   const tsr_tensor *self, const tsr_tensor *index,
                                                   tsr_tensor *out)
{
    if (!tsr__grad_wanted(&self, 1) || !tsr__grad_dtype(out->dtype))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st =
        tsr__node_create(info->name, multiply_value_backward, 1, 1, 1, sizeof *info, &node);
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, self);
    if (st == TSR_OK) {
        memcpy(tsr__node_attrs(node), info, sizeof *info);
        st = tsr__node_save(node, 0, index, "index");
    }
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

/* ---- scatter, scatter_add, scatter_reduce (sum), index_add, index_copy -- */

/* g gathered at index, zero-padded at the end of each dim to `shape` (src
 * may be larger than index). */
static tsr_status gather_padded(const tsr_tensor *g, int dim, const tsr_tensor *index,
                                const tsr__grad_meta *shape, tsr_tensor **out)
{
    tsr_tensor *picked = NULL;
    tsr_status st = tsr_gather(g, dim, index, &picked);
    int64_t pad[2 * TSR_MAX_DIMS];
    int n = shape->ndim;
    for (int i = 0; i < n; i++) {
        pad[2 * i] = 0;
        pad[2 * i + 1] = shape->shape[n - 1 - i] - tsr_tensor_shape(index)[n - 1 - i];
    }
    if (st == TSR_OK)
        st = tsr_pad(picked, pad, 2 * n, TSR_PAD_CONSTANT, tsr_scalar_int(0), out);
    tsr_tensor_release(picked);
    return st;
}

/* g with the slices index names along dim set to zero (index_copy's self). */
static tsr_status index_fill_zero(const tsr_tensor *g, int dim, const tsr_tensor *index,
                                  tsr_tensor **out)
{
    int ndim = tsr_tensor_ndim(g);
    int64_t shape[TSR_MAX_DIMS];
    memcpy(shape, tsr_tensor_shape(g), (size_t)ndim * sizeof *shape);
    if (ndim > 0)
        shape[dim] = tsr_tensor_numel(index);
    tsr_tensor *zeros = NULL;
    tsr_status st = tsr_zeros(ndim, shape, tsr_tensor_dtype(g), tsr_tensor_backend(g), &zeros);
    if (st == TSR_OK)
        st = tsr_index_copy(g, dim, index, zeros, out);
    tsr_tensor_release(zeros);
    return st;
}

/* The gradient for self of a scatter: g, or g with the scattered positions
 * zeroed when they did not keep (or reduce into) self's value. */
static tsr_status scatter_self_grad(const tsr__scatter_grad *at, const tsr_tensor *g,
                                    const tsr_tensor *index, tsr_tensor **out)
{
    bool replaced = at->reduce == TSR_REDUCE_NONE || !at->include_self;
    if (!replaced)
        return tsr__grad_retain(g, out);
    return tsr_scatter_value(g, at->dim, index, tsr_scalar_int(0), TSR_REDUCE_NONE, out);
}

static tsr_status scatter_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const tsr__scatter_grad *at = tsr__node_attrs(node);
    const tsr_tensor *g = grads[0];
    tsr_tensor *index = NULL;
    tsr_status st = tsr__node_saved(node, 0, &index);
    if (st == TSR_OK && tsr__node_needs_grad(node, 0))
        st = at->kernel == TSR_OP_SCATTER     ? scatter_self_grad(at, g, index, &gi[0])
             : at->kernel == TSR_OP_INDEX_ADD ? tsr__grad_retain(g, &gi[0])
                                              : index_fill_zero(g, at->dim, index, &gi[0]);
    if (st == TSR_OK && tsr__node_needs_grad(node, 1)) {
        if (at->kernel == TSR_OP_SCATTER) {
            st = gather_padded(g, at->dim, index, tsr__node_input_meta(node, 1), &gi[1]);
        } else {
            tsr_tensor *picked = NULL;
            st = tsr_index_select(g, at->dim, index, &picked);
            if (st == TSR_OK && at->kernel == TSR_OP_INDEX_ADD)
                st = tsr_binary(TSR_OP_MUL, tsr_operand_tensor(picked),
                                tsr_operand_scalar(at->alpha), &gi[1]);
            else if (st == TSR_OK)
                st = tsr__grad_retain(picked, &gi[1]);
            tsr_tensor_release(picked);
        }
    }
    tsr_tensor_release(index);
    return st;
}

tsr_status tsr__grad_record_scatter(const tsr__scatter_grad *info, const tsr_tensor *self,
                                    const tsr_tensor *index, const tsr_tensor *src, tsr_tensor *out)
{
    const tsr_tensor *inputs[2] = {self, src};
    /* scatter_reduce's prod, mean, amax and amin; scatter's reduce=multiply
     * with a value. scatter's multiply with a src tensor is scatter_reduce's
     * prod including self, but stays unimplemented as in PyTorch 1.13 (the
     * conformance runner's tests use it as their unimplemented backward). */
    bool scatter_reduce = strncmp(info->name, "scatter_reduce", 14) == 0;
    if (info->kernel == TSR_OP_SCATTER && info->reduce != TSR_REDUCE_NONE &&
        info->reduce != TSR_REDUCE_SUM) {
        if (src && scatter_reduce)
            return tsr__grad_record_scatter_reduce(info, self, index, src, out);
        if (!src)
            return tsr__grad_record_scatter_multiply_value(info, self, index, out);
        return tsr__grad_record_unimplemented(info->name, inputs, 2, out);
    }
    tsr__node *node;
    tsr_status st =
        tsr__grad_node_start(info->name, scatter_backward, inputs, 2, 1, sizeof *info, out, &node);
    tsr__node_allow_complex(node); /* linear in positions: no conjugate */
    if (node)
        memcpy(tsr__node_attrs(node), info, sizeof *info);
    return tsr__grad_node_finish(node, st, index, out);
}
