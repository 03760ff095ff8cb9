/* Conjugate, real part and imaginary part of complex tensors, for backward
 * formulas. Each reads the tensor's storage through a view of the real
 * dtype (every complex element is two reals, real part first), so no kernel
 * is needed and every backend runs them with its copy and neg kernels. */
#include "ops/complex_parts.h"

#include "autograd/graph.h"
#include "runtime/error.h"
#include "tensor/copy.h"

static tsr_dtype real_of(tsr_dtype complex)
{
    return complex == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64;
}

/* The real (part 0) or imaginary (part 1) elements of complex t, viewed in
 * t's storage. */
static tsr_status part_view(const tsr_tensor *t, int part, tsr_tensor **out)
{
    int64_t strides[TSR_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++)
        strides[d] = t->strides[d] * 2;
    return tsr__tensor_wrap(t->storage, real_of(t->dtype), t->ndim, t->shape, strides,
                            t->offset * 2 + part, out);
}

/* ---- recording ---------------------------------------------------------- */

static tsr_status conj_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    (void)node;
    return tsr__conj_physical(grads[0], &gi[0]);
}

static tsr_status real_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    (void)node; /* g is real; the engine converts it to the input's complex dtype */
    tsr_tensor_retain(grads[0]);
    gi[0] = grads[0];
    return TSR_OK;
}

static tsr_status imag_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    (void)node; /* d Im z: a real gradient g becomes g * 1i */
    return tsr_binary(TSR_OP_MUL, tsr_operand_tensor(grads[0]),
                      tsr_operand_scalar(tsr_scalar_complex(0, 1)), &gi[0]);
}

static tsr_status record(const char *name, tsr__backward_fn fn, const tsr_tensor *t,
                         tsr_tensor *out)
{
    if (!tsr__grad_wanted(&t, 1))
        return TSR_OK;
    tsr__node *node = NULL;
    tsr_status st = tsr__node_create(name, fn, 1, 1, 0, 0, &node);
    tsr__node_allow_complex(node);
    if (st == TSR_OK)
        st = tsr__node_set_input(node, 0, t);
    if (st == TSR_OK)
        st = tsr__node_attach(node, 0, out);
    tsr__node_release(node);
    return st;
}

/* ---- the ops ------------------------------------------------------------ */

tsr_status tsr__conj_physical(const tsr_tensor *t, tsr_tensor **out)
{
    if (!tsr_dtype_is_complex(t->dtype)) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    tsr_tensor *copy = NULL, *imag = NULL, *negated = NULL;
    bool grad_mode = tsr_grad_mode_set(false);
    tsr_status st = tsr__materialize("conj_physical", t, &copy);
    if (st == TSR_OK)
        st = part_view(copy, 1, &imag);
    if (st == TSR_OK)
        st = tsr_unary(TSR_OP_NEG, imag, &negated);
    if (st == TSR_OK)
        st = tsr_copy_(imag, negated);
    tsr_grad_mode_set(grad_mode);
    tsr_tensor_release(imag);
    tsr_tensor_release(negated);
    if (st == TSR_OK)
        st = record("conj_physical", conj_backward, t, copy);
    return tsr__deliver(st, copy, out);
}

static tsr_status part(const char *name, tsr__backward_fn fn, int which, const tsr_tensor *t,
                       tsr_tensor **out)
{
    tsr_tensor *view = NULL, *copy = NULL;
    tsr_status st = part_view(t, which, &view);
    if (st == TSR_OK)
        st = tsr__materialize(name, view, &copy);
    tsr_tensor_release(view);
    if (st == TSR_OK)
        st = record(name, fn, t, copy);
    return tsr__deliver(st, copy, out);
}

tsr_status tsr__real_part(const tsr_tensor *t, tsr_tensor **out)
{
    if (!tsr_dtype_is_complex(t->dtype)) {
        tsr_tensor_retain(t);
        *out = (tsr_tensor *)t;
        return TSR_OK;
    }
    return part("real", real_backward, 0, t, out);
}

tsr_status tsr__imag_part(const tsr_tensor *t, tsr_tensor **out)
{
    if (!tsr_dtype_is_complex(t->dtype))
        return tsr__set_error(TSR_ERR_DTYPE, "imag is not implemented for tensors with "
                                             "non-complex dtypes (got %s)",
                              tsr_dtype_name(t->dtype));
    return part("imag", imag_backward, 1, t, out);
}
