/* The fft primitives and their gradients: PyTorch 1.13's fft_c2c_backward,
 * fft_r2c_backward and fft_c2r_backward (FunctionsManual.cpp), with our
 * kernels' direction in place of PyTorch's fixed one (its hfft and ihfft
 * conjugate around a fixed-direction primitive; ours run the other
 * direction, which is the same map). With F_d the unnormalized DFT of
 * direction d over the dims and c the norm's real factor, F_d^H = F_-d, so
 *
 *   y = c F_d x (c2c)              gx = c F_-d g
 *   y = half(c F_d x), x real      gx = Re(c F_-d pad(g))  zeros for the
 *                                       missing half, as PyTorch pads
 *   y = c F_d herm(x), y real      gx = w * half(c F_-d g)  w = 2 at the
 *                                       bins 1 .. N - (N/2 + 1), whose mirror
 *                                       the hermitian fill added, else 1
 *
 * All three are linear, so each gradient is again a recorded primitive (or
 * pad, real part and a product with constant weights) and double backward
 * works. The formulas are right for complex values as written (conjugate
 * Wirtinger: the adjoint of a linear map), so the nodes allow complex. */
#include "ops/fft_grad.h"

#include <string.h>

#include "autograd/graph.h"
#include "ops/grad_expr.h"
#include "runtime/dispatch.h"
#include "tensor/launch.h"
#include "tessera/fft.h"
#include "tessera/rearrange.h"

static int highest_axis(uint32_t mask)
{
    int highest = 0;
    for (int d = 0; d < TSR_MAX_DIMS; d++)
        if (mask & (1u << d))
            highest = d;
    return highest;
}

static const char *primitive_name(int kind)
{
    return kind == TSR_OP_FFT_C2C ? "fft_c2c" : kind == TSR_OP_FFT_R2C ? "fft_r2c" : "fft_c2r";
}

typedef struct fft_node {
    tsr__fft_call call;
    int64_t in_points; /* r2c: the input's points along the halved dim */
} fft_node;

static tsr_status backward_c2c(const fft_node *fn, const tsr_tensor *g, tsr_tensor **gi)
{
    tsr__fft_call back = fn->call;
    back.direction = -fn->call.direction;
    return tsr__fft_primitive("fft_c2c_backward", &back, g, gi);
}

static tsr_status backward_r2c(const fft_node *fn, const tsr_tensor *g, tsr_tensor **gi)
{
    int at = highest_axis(fn->call.axes_mask);
    int64_t missing = fn->in_points - g->shape[at];
    tsr__gx x = {0};
    const tsr_tensor *full = g;
    if (missing > 0) {
        int64_t pad[2 * TSR_MAX_DIMS] = {0};
        int from_last = g->ndim - 1 - at; /* pad lists the last dim first */
        pad[2 * from_last + 1] = missing;
        tsr_tensor *padded = NULL;
        tsr_status st =
            tsr_pad(g, pad, 2 * (from_last + 1), TSR_PAD_CONSTANT, tsr_scalar_float(0.0), &padded);
        full = tsr__gx_keep(&x, st, padded);
    }
    tsr__fft_call back = {.kind = TSR_OP_FFT_C2C,
                          .direction = -fn->call.direction,
                          .norm = fn->call.norm,
                          .axes_mask = fn->call.axes_mask};
    tsr_tensor *c = NULL;
    if (x.status == TSR_OK) {
        tsr_status st = tsr__fft_primitive("fft_r2c_backward", &back, full, &c);
        tsr__gx_keep(&x, st, c);
    }
    tsr__gx_result(&x, gi, tsr__gx_real(&x, c));
    return tsr__gx_finish(&x);
}

static tsr_status backward_c2r(const fft_node *fn, const tsr_tensor *g, tsr_tensor **gi)
{
    int at = highest_axis(fn->call.axes_mask);
    tsr__fft_call back = {.kind = TSR_OP_FFT_R2C,
                          .direction = -fn->call.direction,
                          .norm = fn->call.norm,
                          .axes_mask = fn->call.axes_mask};
    tsr__gx x = {0};
    tsr_tensor *half = NULL;
    tsr_status st = tsr__fft_primitive("fft_c2r_backward", &back, g, &half);
    tsr__gx_keep(&x, st, half);
    int64_t doubled = x.status == TSR_OK ? g->shape[at] - half->shape[at] : 0;
    if (doubled <= 0) {
        tsr__gx_result(&x, gi, half);
        return tsr__gx_finish(&x);
    }
    /* w = 2 on bins 1 .. doubled, 1 elsewhere, along the halved dim. */
    tsr_tensor *pos = tsr__gx_positions(&x, half->storage->backend, half->shape[at], at, g->ndim);
    tsr_tensor *inside =
        tsr__gx_compare(&x, TSR_OP_LE, pos, tsr_operand_scalar(tsr_scalar_int(doubled)));
    tsr_tensor *w = tsr__gx_where(&x, inside, tsr__gx_float(2.0), tsr__gx_float(1.0));
    tsr_tensor *zero = tsr__gx_compare(&x, TSR_OP_EQ, pos, tsr_operand_scalar(tsr_scalar_int(0)));
    w = w ? tsr__gx_where(&x, zero, tsr__gx_float(1.0), tsr_operand_tensor(w)) : NULL;
    tsr__gx_result(&x, gi, tsr__gx_mul(&x, half, w));
    return tsr__gx_finish(&x);
}

static tsr_status fft_backward(tsr__node *node, tsr_tensor *const *grads, tsr_tensor **gi)
{
    const fft_node *fn = tsr__node_attrs(node);
    if (!tsr__node_needs_grad(node, 0))
        return TSR_OK;
    if (fn->call.kind == TSR_OP_FFT_C2C)
        return backward_c2c(fn, grads[0], &gi[0]);
    if (fn->call.kind == TSR_OP_FFT_R2C)
        return backward_r2c(fn, grads[0], &gi[0]);
    return backward_c2r(fn, grads[0], &gi[0]);
}

static tsr_status record(const tsr__fft_call *call, const tsr_tensor *x, tsr_tensor *y)
{
    tsr__node *node = NULL;
    tsr_status st = tsr__grad_node_start(primitive_name(call->kind), fft_backward, &x, 1, 0,
                                         sizeof(fft_node), y, &node);
    if (st != TSR_OK || !node)
        return st;
    tsr__node_allow_complex(node);
    fft_node *fn = tsr__node_attrs(node);
    fn->call = *call;
    fn->in_points = x->shape[highest_axis(call->axes_mask)];
    return tsr__grad_node_finish(node, TSR_OK, NULL, y);
}

static tsr_dtype complex_of(tsr_dtype d)
{
    return d == TSR_FLOAT32 ? TSR_COMPLEX64 : TSR_COMPLEX128;
}

static tsr_dtype real_of(tsr_dtype d)
{
    return d == TSR_COMPLEX64 ? TSR_FLOAT32 : TSR_FLOAT64;
}

tsr_status tsr__fft_primitive(const char *name, const tsr__fft_call *call, const tsr_tensor *x,
                              tsr_tensor **out)
{
    int at = highest_axis(call->axes_mask);
    tsr_dtype in_dtype = x->dtype, out_dtype = x->dtype;
    int64_t shape[TSR_MAX_DIMS];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    if (call->kind == TSR_OP_FFT_R2C) {
        out_dtype = complex_of(in_dtype);
        shape[at] = shape[at] / 2 + 1;
    } else if (call->kind == TSR_OP_FFT_C2R) {
        out_dtype = real_of(in_dtype);
        shape[at] = call->last_points;
    }
    tsr_fft_attrs attrs = {.struct_size = sizeof attrs,
                           .direction = call->direction,
                           .norm = call->norm,
                           .axes_mask = call->axes_mask};
    tsr_backend *b = x->storage->backend;
    tsr_tensor *y = NULL;
    tsr_status st = tsr__require_kernel(name, b, call->kind, in_dtype, out_dtype);
    if (st == TSR_OK)
        st = tsr__tensor_empty(name, b, out_dtype, x->ndim, shape, &y);
    if (st == TSR_OK) {
        const tsr_tensor *inputs[1] = {x};
        st = tsr__launch(call->kind, in_dtype, out_dtype, inputs, 1, &y, 1, &attrs);
    }
    if (st == TSR_OK)
        st = record(call, x, y);
    return tsr__deliver(st, y, out);
}
