/* The pooling kernels of plugin.h's TSR_OP_LIST_POOL, plane by plane.
 *
 * Every call is seen as three spatial dims: a 1-d or 2-d call gets leading
 * spatial dims of size 1 (a one-tap window), which change neither the taps
 * nor the flat indices. Sums follow PyTorch 1.13's CPU kernels step by step
 * so that float32 results have its bits: the sum of the taps in window order
 * rounded to the accumulation type after every add (float for bfloat16,
 * half for float16, the dtype otherwise), then each division rounded too.
 * Backward kernels accumulate a plane in doubles rounded to the dtype after
 * every add, as PyTorch's += into the gradient does, and store it once. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "backend.h"
#include "kernels.h"
#include "wide.h"

typedef struct pool_call {
    tsr_op op;
    const tsr_pool_attrs *a;
    int64_t n, c;
    int64_t in[3], out[3];       /* spatial sizes, padded to three dims */
    int64_t k[3], s[3], p[3], dil[3];
    int64_t plane;               /* prod(in) */
    size_t x_size, y_size;       /* element sizes of the value input and output */
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
    tsr__ref_round_fn acc_round; /* the accumulation type */
    tsr__ref_round_fn round;     /* the dtype */
} pool_call;

/* One window along one dim: taps first, first + step, ... below end. */
typedef struct window {
    int64_t first, end, step;
    int64_t extent; /* avg: the padded size; adaptive: end - first */
} window;

static window window_at(const pool_call *pc, int k, int64_t o)
{
    window w = {0, 0, 1, 0};
    if (pc->op == TSR_OP_POOL_ADAPTIVE_AVG || pc->op == TSR_OP_POOL_ADAPTIVE_MAX ||
        pc->op == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD) {
        w.first = o * pc->in[k] / pc->out[k];
        w.end = ((o + 1) * pc->in[k] + pc->out[k] - 1) / pc->out[k];
        w.extent = w.end - w.first;
        return w;
    }
    int64_t start = o * pc->s[k] - pc->p[k];
    if (pc->op == TSR_OP_POOL_MAX) {
        w.step = pc->dil[k];
        w.end = start + (pc->k[k] - 1) * pc->dil[k] + 1;
        if (w.end > pc->in[k])
            w.end = pc->in[k];
        while (start < 0)
            start += pc->dil[k];
        w.first = start;
        return w;
    }
    int64_t end = start + pc->k[k];
    if (end > pc->in[k] + pc->p[k])
        end = pc->in[k] + pc->p[k];
    w.extent = end - start;
    w.first = start < 0 ? 0 : start;
    w.end = end > pc->in[k] ? pc->in[k] : end;
    return w;
}

static int64_t flat(const pool_call *pc, int64_t i0, int64_t i1, int64_t i2)
{
    return (i0 * pc->in[1] + i1) * pc->in[2] + i2;
}

static double load_f(const pool_call *pc, const char *base, const int64_t *st, int64_t i0,
                     int64_t i1, int64_t i2)
{
    tsr__ref_wide v;
    pc->load(base + (i0 * st[0] + i1 * st[1] + i2 * st[2]) * (int64_t)pc->x_size, &v);
    return v.f;
}

/* The avg divisor of a window (PyTorch's divide_factor). */
static int64_t avg_divisor(const pool_call *pc, const window *w)
{
    if (pc->a->divisor != 0)
        return pc->a->divisor;
    int64_t d = 1;
    for (int k = 0; k < 3; k++)
        d *= pc->a->count_include_pad ? w[k].extent : w[k].end - w[k].first;
    return d;
}

/* Strides of a descriptor's spatial dims, padded like the sizes. */
static void spatial_strides(const tsr_tensor_desc *t, int d, int64_t *out)
{
    for (int k = 0; k < 3; k++)
        out[k] = k < 3 - d ? 0 : t->strides[2 + k - (3 - d)];
}

static void windows_of(const pool_call *pc, int64_t o0, int64_t o1, int64_t o2, window *w)
{
    w[0] = window_at(pc, 0, o0);
    w[1] = window_at(pc, 1, o1);
    w[2] = window_at(pc, 2, o2);
}

/* Forward of one plane: max (with indices) or avg, plain or adaptive. */
static void plane_forward(const pool_call *pc, const char *x, const int64_t *xs, char *y,
                          const int64_t *ys, char *idx, const int64_t *is)
{
    bool is_max = pc->op == TSR_OP_POOL_MAX || pc->op == TSR_OP_POOL_ADAPTIVE_MAX;
    for (int64_t o0 = 0; o0 < pc->out[0]; o0++)
        for (int64_t o1 = 0; o1 < pc->out[1]; o1++)
            for (int64_t o2 = 0; o2 < pc->out[2]; o2++) {
                window w[3];
                windows_of(pc, o0, o1, o2, w);
                tsr__ref_wide r;
                int64_t best_at = flat(pc, w[0].first, w[1].first, w[2].first);
                double acc = is_max ? -INFINITY : 0.0;
                for (int64_t i0 = w[0].first; i0 < w[0].end; i0 += w[0].step)
                    for (int64_t i1 = w[1].first; i1 < w[1].end; i1 += w[1].step)
                        for (int64_t i2 = w[2].first; i2 < w[2].end; i2 += w[2].step) {
                            double v = load_f(pc, x, xs, i0, i1, i2);
                            if (!is_max)
                                acc = pc->acc_round(acc + v);
                            else if (v > acc || isnan(v)) {
                                acc = v;
                                best_at = flat(pc, i0, i1, i2);
                            }
                        }
                if (pc->op == TSR_OP_POOL_AVG)
                    acc = pc->acc_round(acc / (double)avg_divisor(pc, w));
                else if (pc->op == TSR_OP_POOL_ADAPTIVE_AVG)
                    for (int k = 0; k < 3; k++)
                        acc = pc->acc_round(acc / (double)w[k].extent);
                int64_t off = o0 * ys[0] + o1 * ys[1] + o2 * ys[2];
                r.f = acc;
                pc->store(y + off * (int64_t)pc->y_size, &r);
                if (is_max)
                    ((int64_t *)idx)[o0 * is[0] + o1 * is[1] + o2 * is[2]] = best_at;
            }
}

/* avg_pool on int64: integer sums (wrapping, as PyTorch's) divided with
 * truncation. */
static void plane_forward_int(const pool_call *pc, const char *x, const int64_t *xs, char *y,
                              const int64_t *ys)
{
    const int64_t *xv = (const int64_t *)x;
    for (int64_t o0 = 0; o0 < pc->out[0]; o0++)
        for (int64_t o1 = 0; o1 < pc->out[1]; o1++)
            for (int64_t o2 = 0; o2 < pc->out[2]; o2++) {
                window w[3];
                windows_of(pc, o0, o1, o2, w);
                uint64_t sum = 0;
                for (int64_t i0 = w[0].first; i0 < w[0].end; i0++)
                    for (int64_t i1 = w[1].first; i1 < w[1].end; i1++)
                        for (int64_t i2 = w[2].first; i2 < w[2].end; i2++)
                            sum += (uint64_t)xv[i0 * xs[0] + i1 * xs[1] + i2 * xs[2]];
                int64_t div = avg_divisor(pc, w), s = (int64_t)sum;
                int64_t q = div == -1 ? (int64_t)(0 - sum) : s / div;
                ((int64_t *)y)[o0 * ys[0] + o1 * ys[1] + o2 * ys[2]] = q;
            }
}

/* Backward of one plane into buf (plane doubles, zeroed by the caller).
 * Returns the first out-of-range index for max, or -1. */
static int64_t plane_backward(const pool_call *pc, const char *g, const int64_t *gs,
                              const char *idx, const int64_t *is, double *buf)
{
    for (int64_t o0 = 0; o0 < pc->out[0]; o0++)
        for (int64_t o1 = 0; o1 < pc->out[1]; o1++)
            for (int64_t o2 = 0; o2 < pc->out[2]; o2++) {
                double gv = load_f(pc, g, gs, o0, o1, o2);
                if (pc->op == TSR_OP_POOL_MAX_BACKWARD) {
                    int64_t at = ((const int64_t *)idx)[o0 * is[0] + o1 * is[1] + o2 * is[2]];
                    if (at < 0 || at >= pc->plane)
                        return at < 0 ? INT64_MAX : at;
                    buf[at] = pc->round(buf[at] + gv);
                    continue;
                }
                window w[3];
                windows_of(pc, o0, o1, o2, w);
                double delta = gv;
                if (pc->op == TSR_OP_POOL_AVG_BACKWARD)
                    delta = pc->acc_round(gv / (double)avg_divisor(pc, w));
                else
                    for (int k = 0; k < 3; k++)
                        delta = pc->acc_round(delta / (double)w[k].extent);
                for (int64_t i0 = w[0].first; i0 < w[0].end; i0++)
                    for (int64_t i1 = w[1].first; i1 < w[1].end; i1++)
                        for (int64_t i2 = w[2].first; i2 < w[2].end; i2++) {
                            double *cell = &buf[flat(pc, i0, i1, i2)];
                            *cell = pc->round(*cell + delta);
                        }
            }
    return -1;
}

static bool is_backward(tsr_op op)
{
    return op == TSR_OP_POOL_MAX_BACKWARD || op == TSR_OP_POOL_AVG_BACKWARD ||
           op == TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD;
}

static int check_call(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                      pool_call *pc)
{
    if (args == NULL || args->struct_size < sizeof(tsr_kernel_args) || args->inputs == NULL ||
        args->outputs == NULL) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "pooling: no arguments");
    }
    tsr_op op = (tsr_op)args->op;
    bool two_in = op == TSR_OP_POOL_MAX_BACKWARD;
    bool two_out = op == TSR_OP_POOL_MAX || op == TSR_OP_POOL_ADAPTIVE_MAX;
    const tsr_pool_attrs *a = args->attrs;
    if (args->num_inputs != (two_in ? 2 : 1) || args->num_outputs != (two_out ? 2 : 1) ||
        a == NULL || a->struct_size < sizeof(tsr_pool_attrs) || a->spatial < 1 ||
        a->spatial > 3) {
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "pooling: wrong operand count or attributes");
    }
    int d = a->spatial;
    const tsr_tensor_desc *small = is_backward(op) ? &args->inputs[0] : &args->outputs[0];
    const tsr_tensor_desc *big = is_backward(op) ? &args->outputs[0] : &args->inputs[0];
    if (small->ndim != 2 + d || big->ndim != 2 + d || small->shape[0] != big->shape[0] ||
        small->shape[1] != big->shape[1]) {
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "pooling: operand shapes do not match");
    }
    if (small->dtype != big->dtype || (two_out && args->outputs[1].dtype != TSR_INT64) ||
        (two_in && args->inputs[1].dtype != TSR_INT64)) {
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "pooling: unexpected dtypes");
    }
    *pc = (pool_call){.op = op, .a = a, .n = big->shape[0], .c = big->shape[1], .plane = 1};
    for (int k = 0; k < 3; k++) {
        int from = k - (3 - d);
        bool real = from >= 0;
        pc->in[k] = real ? big->shape[2 + from] : 1;
        pc->out[k] = real ? small->shape[2 + from] : 1;
        pc->k[k] = real ? a->kernel[from] : 1;
        pc->s[k] = real ? a->stride[from] : 1;
        pc->p[k] = real ? a->padding[from] : 0;
        pc->dil[k] = real && a->dilation[from] > 0 ? a->dilation[from] : 1;
        pc->plane *= pc->in[k];
        bool windowed = op == TSR_OP_POOL_MAX || op == TSR_OP_POOL_AVG ||
                        op == TSR_OP_POOL_AVG_BACKWARD;
        if (windowed && (pc->s[k] <= 0 || pc->k[k] <= 0)) {
            return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                                  "pooling: kernel and stride must be positive");
        }
    }
    int32_t dt = big->dtype;
    pc->x_size = tsr__ref_dtype_size(dt);
    pc->y_size = pc->x_size;
    pc->load = tsr__ref_loader(dt);
    pc->store = tsr__ref_storer(TSR__REF_REAL, dt);
    pc->round = tsr__ref_real_rounder(dt);
    pc->acc_round = tsr__ref_real_rounder(dt == TSR_BFLOAT16 ? TSR_FLOAT32 : dt);
    return TSR_OK;
}

static const char *at_elem(const tsr_tensor_desc *t, int64_t n, int64_t c)
{
    size_t size = tsr__ref_dtype_size(t->dtype);
    return (const char *)t->data + t->byte_offset +
           (n * t->strides[0] + c * t->strides[1]) * (int64_t)size;
}

static int run_backward(const tsr__ref_backend *backend, const tsr_kernel_args *args,
                        const pool_call *pc)
{
    const tsr_tensor_desc *g = &args->inputs[0], *gx = &args->outputs[0];
    const tsr_tensor_desc *idx = pc->op == TSR_OP_POOL_MAX_BACKWARD ? &args->inputs[1] : NULL;
    int d = pc->a->spatial;
    int64_t gs[3], is[3] = {0, 0, 0}, xs[3];
    spatial_strides(g, d, gs);
    spatial_strides(gx, d, xs);
    if (idx)
        spatial_strides(idx, d, is);
    double *buf = malloc((size_t)(pc->plane > 0 ? pc->plane : 1) * sizeof *buf);
    if (buf == NULL) {
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "pooling backward: out of memory");
    }
    int status = TSR_OK;
    for (int64_t n = 0; n < pc->n && status == TSR_OK; n++)
        for (int64_t c = 0; c < pc->c && status == TSR_OK; c++) {
            for (int64_t i = 0; i < pc->plane; i++)
                buf[i] = 0.0;
            int64_t bad = plane_backward(pc, at_elem(g, n, c), gs, idx ? at_elem(idx, n, c) : NULL,
                                         is, buf);
            if (bad >= 0) {
                status = tsr__ref_error(backend, TSR_ERR_INDEX,
                                        "pool_max_backward: index %lld is out of bounds for a "
                                        "plane of %lld elements",
                                        (long long)(bad == INT64_MAX ? -1 : bad),
                                        (long long)pc->plane);
                break;
            }
            char *out = (char *)at_elem(gx, n, c);
            for (int64_t i0 = 0; i0 < pc->in[0]; i0++)
                for (int64_t i1 = 0; i1 < pc->in[1]; i1++)
                    for (int64_t i2 = 0; i2 < pc->in[2]; i2++) {
                        tsr__ref_wide r = {.f = buf[flat(pc, i0, i1, i2)]};
                        pc->store(out + (i0 * xs[0] + i1 * xs[1] + i2 * xs[2]) *
                                            (int64_t)pc->y_size,
                                  &r);
                    }
        }
    free(buf);
    return status;
}

int tsr__ref_kernel_pool(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    pool_call pc;
    int status = check_call(backend, args, &pc);
    if (status != TSR_OK) {
        return status;
    }
    if (is_backward(pc.op)) {
        return run_backward(backend, args, &pc);
    }
    const tsr_tensor_desc *x = &args->inputs[0], *y = &args->outputs[0];
    const tsr_tensor_desc *idx = args->num_outputs == 2 ? &args->outputs[1] : NULL;
    int d = pc.a->spatial;
    int64_t xs[3], ys[3], is[3] = {0, 0, 0};
    spatial_strides(x, d, xs);
    spatial_strides(y, d, ys);
    if (idx)
        spatial_strides(idx, d, is);
    for (int64_t n = 0; n < pc.n; n++)
        for (int64_t c = 0; c < pc.c; c++) {
            char *yp = (char *)at_elem(y, n, c);
            if (x->dtype == TSR_INT64)
                plane_forward_int(&pc, at_elem(x, n, c), xs, yp, ys);
            else
                plane_forward(&pc, at_elem(x, n, c), xs, yp, ys,
                              idx ? (char *)at_elem(idx, n, c) : NULL, is);
        }
    return TSR_OK;
}

uint32_t tsr__ref_pool_dtypes(int32_t op)
{
    uint32_t floats = TSR__REF_SET_BFLOAT16 | TSR__REF_SET_FLOAT3264;
    switch (op) {
    case TSR_OP_POOL_AVG: /* avg_pool takes int64 too (no gradient there) */
        return floats | TSR__REF_DTYPE_BIT(TSR_INT64);
    case TSR_OP_POOL_ADAPTIVE_AVG: /* adaptive_avg_pool3d takes float16 */
    case TSR_OP_POOL_ADAPTIVE_AVG_BACKWARD:
        return floats | TSR__REF_SET_FLOAT16;
    default:
        return floats;
    }
}
