/* Gradient expressions: recording a node, and formulas written as chains
 * of public ops that stop at the first failure and release their
 * temporaries together. */
#include "ops/grad_expr.h"
#include "autograd/graph.h"

#include "ops/complex_parts.h"
#include "runtime/error.h"

tsr_status tsr__grad_node_start(const char *name, tsr__backward_fn fn,
                                const tsr_tensor *const *inputs, int count, int saved,
                                size_t attrs_size, const tsr_tensor *out, tsr__node **node)
{
    *node = NULL;
    if (!tsr__grad_wanted(inputs, count) || !tsr__grad_dtype(out->dtype))
        return TSR_OK;
    tsr_status st = tsr__node_create(name, fn, count, 1, saved, attrs_size, node);
    for (int i = 0; i < count && st == TSR_OK; i++)
        st = tsr__node_set_input(*node, i, inputs[i]);
    if (st != TSR_OK) {
        tsr__node_release(*node);
        *node = NULL;
    }
    return st;
}

tsr_status tsr__grad_node_finish(tsr__node *node, tsr_status st, const tsr_tensor *saved,
                                 tsr_tensor *out)
{
    if (!node)
        return st;
    if (st == TSR_OK && saved)
        st = tsr__node_save(node, 0, saved, "index");
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

tsr_status tsr__grad_zeros_for(tsr__node *node, int i, const tsr_tensor *g, tsr_tensor **out)
{
    const tsr__grad_meta *m = tsr__node_input_meta(node, i);
    return tsr_zeros(m->ndim, m->shape, tsr_tensor_dtype(g), tsr_tensor_backend(g), out);
}

tsr_status tsr__grad_retain(const tsr_tensor *g, tsr_tensor **out)
{
    tsr_tensor_retain(g);
    *out = (tsr_tensor *)g;
    return TSR_OK;
}

tsr_tensor *tsr__gx_keep(tsr__gx *x, tsr_status st, tsr_tensor *t)
{
    if (x->status != TSR_OK) { /* a step run after an earlier one failed */
        tsr_tensor_release(t);
        return NULL;
    }
    if (st != TSR_OK) {
        x->status = st;
        return NULL;
    }
    if (x->count == TSR__GX_MAX) {
        tsr_tensor_release(t);
        x->status = tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                                   "gradient formula uses more than %d temporaries", TSR__GX_MAX);
        return NULL;
    }
    x->temps[x->count++] = t;
    return t;
}

tsr_tensor *tsr__gx_saved(tsr__gx *x, tsr__node *node, int slot)
{
    tsr_tensor *t = NULL;
    if (x->status != TSR_OK)
        return NULL;
    tsr_status st = tsr__node_saved(node, slot, &t);
    return tsr__gx_keep(x, st, t);
}

tsr_tensor *tsr__gx_binary(tsr__gx *x, tsr_op op, tsr_operand a, tsr_operand b)
{
    /* a NULL tensor only comes from a failed step, after which nothing runs */
    if (x->status != TSR_OK || (!a.tensor && !b.tensor))
        return NULL;
    tsr_tensor *t = NULL;
    tsr_status st = tsr_binary(op, a, b, &t);
    return tsr__gx_keep(x, st, t);
}

tsr_tensor *tsr__gx_unary(tsr__gx *x, tsr_op op, const tsr_tensor *a)
{
    if (x->status != TSR_OK || !a)
        return NULL;
    tsr_tensor *t = NULL;
    tsr_status st = tsr_unary(op, a, &t);
    return tsr__gx_keep(x, st, t);
}

static tsr_tensor *tensors(tsr__gx *x, tsr_op op, const tsr_tensor *a, const tsr_tensor *b)
{
    if (!a || !b)
        return NULL;
    return tsr__gx_binary(x, op, tsr_operand_tensor(a), tsr_operand_tensor(b));
}

tsr_tensor *tsr__gx_mul(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    return tensors(x, TSR_OP_MUL, a, b);
}

tsr_tensor *tsr__gx_div(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    return tensors(x, TSR_OP_DIV, a, b);
}

tsr_tensor *tsr__gx_add(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    return tensors(x, TSR_OP_ADD, a, b);
}

tsr_tensor *tsr__gx_sub(tsr__gx *x, const tsr_tensor *a, const tsr_tensor *b)
{
    return tensors(x, TSR_OP_SUB, a, b);
}

tsr_tensor *tsr__gx_scale(tsr__gx *x, const tsr_tensor *a, double factor)
{
    if (!a)
        return NULL;
    return tsr__gx_binary(x, TSR_OP_MUL, tsr_operand_tensor(a),
                          tsr_operand_scalar(tsr_scalar_float(factor)));
}

tsr_tensor *tsr__gx_add_scalar(tsr__gx *x, const tsr_tensor *a, double value)
{
    if (!a)
        return NULL;
    return tsr__gx_binary(x, TSR_OP_ADD, tsr_operand_tensor(a),
                          tsr_operand_scalar(tsr_scalar_float(value)));
}

tsr_tensor *tsr__gx_rsub_scalar(tsr__gx *x, double value, const tsr_tensor *a)
{
    if (!a)
        return NULL;
    return tsr__gx_binary(x, TSR_OP_SUB, tsr_operand_scalar(tsr_scalar_float(value)),
                          tsr_operand_tensor(a));
}

tsr_operand tsr__gx_float(double v)
{
    return tsr_operand_scalar(tsr_scalar_float(v));
}

tsr_tensor *tsr__gx_compare(tsr__gx *x, tsr_op op, const tsr_tensor *t, tsr_operand other)
{
    if (!t)
        return NULL;
    return tsr__gx_binary(x, op, tsr_operand_tensor(t), other);
}

tsr_tensor *tsr__gx_same(tsr__gx *x, const tsr_tensor *g)
{
    if (x->status != TSR_OK || !g)
        return NULL;
    tsr_tensor_retain(g);
    return tsr__gx_keep(x, TSR_OK, (tsr_tensor *)g);
}

tsr_tensor *tsr__gx_positions(tsr__gx *x, tsr_backend *backend, int64_t n, int at, int ndim)
{
    if (x->status != TSR_OK)
        return NULL;
    int64_t shape[TSR_MAX_DIMS];
    for (int d = 0; d < ndim; d++)
        shape[d] = d == at ? n : 1;
    tsr_tensor *range = NULL, *shaped = NULL;
    tsr_status st = tsr_arange(tsr_scalar_int(0), tsr_scalar_int(n), tsr_scalar_int(1), TSR_INT64,
                               backend, &range);
    tsr__gx_keep(x, st, range);
    if (st == TSR_OK) {
        st = tsr_view(range, ndim, shape, &shaped);
        tsr__gx_keep(x, st, shaped);
    }
    return shaped;
}

tsr_tensor *tsr__gx_where(tsr__gx *x, const tsr_tensor *condition, tsr_operand a, tsr_operand b)
{
    if (x->status != TSR_OK || !condition)
        return NULL;
    tsr_tensor *t = NULL;
    tsr_status st = tsr_where(condition, a, b, &t);
    return tsr__gx_keep(x, st, t);
}

tsr_tensor *tsr__gx_mask(tsr__gx *x, const tsr_tensor *condition, const tsr_tensor *a)
{
    if (!a)
        return NULL;
    return tsr__gx_where(x, condition, tsr_operand_tensor(a),
                         tsr_operand_scalar(tsr_scalar_int(0)));
}

tsr_tensor *tsr__gx_zeros_like(tsr__gx *x, const tsr_tensor *a)
{
    if (x->status != TSR_OK || !a)
        return NULL;
    tsr_tensor *t = NULL;
    tsr_status st = tsr_zeros(tsr_tensor_ndim(a), tsr_tensor_shape(a), tsr_tensor_dtype(a),
                              tsr_tensor_backend(a), &t);
    return tsr__gx_keep(x, st, t);
}

void tsr__gx_result(tsr__gx *x, tsr_tensor **slot, tsr_tensor *t)
{
    if (x->status != TSR_OK || !t)
        return;
    tsr_tensor_retain(t);
    tsr_tensor_release(*slot);
    *slot = t;
}

tsr_status tsr__gx_finish(tsr__gx *x)
{
    for (int i = 0; i < x->count; i++)
        tsr_tensor_release(x->temps[i]);
    x->count = 0;
    return x->status;
}

/* ---- complex tensors ---------------------------------------------------- */

tsr_tensor *tsr__gx_conj(tsr__gx *x, const tsr_tensor *t)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    if (!tsr_dtype_is_complex(tsr_tensor_dtype(t)))
        return (tsr_tensor *)t;
    tsr_tensor *c = NULL;
    tsr_status st = tsr__conj_physical(t, &c);
    return tsr__gx_keep(x, st, c);
}

tsr_scalar tsr__gx_conj_scalar(tsr_scalar s)
{
    if (s.kind == TSR_SCALAR_COMPLEX)
        s.v.c.im = -s.v.c.im;
    return s;
}

tsr_operand tsr__gx_conj_operand(tsr__gx *x, tsr_operand o)
{
    if (o.tensor)
        return tsr_operand_tensor(tsr__gx_conj(x, o.tensor));
    return tsr_operand_scalar(tsr__gx_conj_scalar(o.scalar));
}

tsr_tensor *tsr__gx_real(tsr__gx *x, const tsr_tensor *t)
{
    if (x->status != TSR_OK || !t)
        return NULL;
    if (!tsr_dtype_is_complex(tsr_tensor_dtype(t)))
        return (tsr_tensor *)t;
    tsr_tensor *r = NULL;
    tsr_status st = tsr__real_part(t, &r);
    return tsr__gx_keep(x, st, r);
}

tsr_tensor *tsr__gx_sgn(tsr__gx *x, const tsr_tensor *t)
{
    if (!t || !tsr_dtype_is_complex(tsr_tensor_dtype(t)))
        return tsr__gx_unary(x, TSR_OP_SIGN, t);
    tsr_tensor *magnitude = tsr__gx_unary(x, TSR_OP_ABS, t);
    tsr_tensor *zero = tsr__gx_compare(x, TSR_OP_EQ, magnitude, tsr__gx_float(0.0));
    tsr_tensor *unit = tsr__gx_div(x, t, magnitude);
    return tsr__gx_where(x, zero, tsr__gx_float(0.0), tsr_operand_tensor(unit));
}
