/* grid_sampler and grid_sampler_backward (TSR_OP_LIST_RESAMPLE in plugin.h).
 *
 * Each output location reads k normalised coordinates from the grid, maps
 * each to a source coordinate along its spatial dim (unnormalise, then the
 * padding mode), and blends the 2^k neighbours (bilinear, trilinear) or
 * takes the nearest one. Coordinates follow ATen's arithmetic in the
 * input's precision; the blends run in double and round once.
 *
 * The backward adds each grad_y element into the neighbours it read (in
 * row-major order of y, so deterministically) and writes the grid's
 * gradient: the blend's derivative along each coordinate, times the
 * derivative of the unnormalisation and of the padding. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "kernels.h"
#include "resample.h"
#include "wide.h"

enum { DIMS = TSR__REF_RESAMPLE_DIMS };

typedef struct grid_plan {
    const tsr_resample_attrs *at;
    int k;      /* spatial dims: 2 or 3 */
    int single; /* coordinates in float (a TSR__REF_PREC_*) */
    tsr__ref_volume x, y;
    char *grid;
    int64_t grid_step[2 + DIMS]; /* n, (unused), spatial dims; bytes */
    int64_t coord_step;
    tsr__ref_load_fn load;
    tsr__ref_store_fn store;
} grid_plan;

#define R_(v) tsr__ref_resample_round(p->single, (v))

/* reflect c into [low/2, high/2] (twice the bounds, as ATen passes them);
 * *grad receives d(result)/d(c). */
static double reflect(const grid_plan *p, double c, double twice_low, double twice_high,
                      double *grad)
{
    if (twice_low == twice_high) {
        *grad = 0;
        return 0;
    }
    double min = R_(twice_low / 2), span = R_((twice_high - twice_low) / 2);
    double sign = 1;
    c = R_(c - min);
    if (c < 0) {
        sign = -1;
        c = -c;
    }
    double extra = R_(fmod(c, span));
    int64_t flips = (int64_t)floor(R_(c / span));
    if (flips % 2 == 0) {
        *grad = sign;
        return R_(extra + min);
    }
    *grad = -sign;
    return R_(R_(span - extra) + min);
}

static double clip(double c, int64_t size, double *grad)
{
    double max = (double)(size - 1);
    if (c <= 0) {
        *grad = 0;
        return 0;
    }
    if (c >= max) {
        *grad = 0;
        return max;
    }
    *grad = 1;
    return c;
}

/* g in [-1, 1] to a pixel coordinate along a dim of `size`; *factor is the
 * derivative. */
static double unnormalize(const grid_plan *p, double g, int64_t size, double *factor)
{
    const tsr_resample_attrs *at = p->at;
    *factor = at->align_corners ? R_((double)(size - 1) / 2) : R_((double)size / 2);
    double c = R_(R_(g + 1) * *factor);
    return at->align_corners ? c : R_(c - 0.5);
}

/* The padding mode applied to pixel coordinate c (ATen's
 * compute_coordinates); *grad is d(result)/dc. */
static double pad(const grid_plan *p, double c, int64_t size, double *grad)
{
    const tsr_resample_attrs *at = p->at;
    double step = 1;
    *grad = 1;
    if (at->padding_mode == TSR_GRID_PAD_BORDER) {
        c = clip(c, size, grad);
    } else if (at->padding_mode == TSR_GRID_PAD_REFLECTION) {
        c = at->align_corners ? reflect(p, c, 0, 2.0 * (double)(size - 1), grad)
                              : reflect(p, c, -1, 2.0 * (double)size - 1, grad);
        c = clip(c, size, &step);
        *grad *= step;
    }
    if (!(c <= INT_MAX - 1 && c >= INT_MIN)) { /* infinite, NaN or huge: out of range */
        c = -100;
        *grad = 0;
    }
    return c;
}

/* The source coordinate of normalised g along a dim of `size`; *mult is
 * d(result)/d(g). */
static double source_coord(const grid_plan *p, double g, int64_t size, double *mult)
{
    double factor, grad;
    double c = pad(p, unnormalize(p, g, size, &factor), size, &grad);
    *mult = factor * grad;
    return c;
}

/* One output location's neighbours: per dim the lower index and fraction. */
typedef struct location {
    int64_t base[DIMS];
    double frac[DIMS]; /* weight of base + 1 */
    double mult[DIMS];
    int corners; /* bit d of a corner set means base[d] + 1 along dim d */
} location;

static void locate(const grid_plan *p, int64_t n, const int64_t *o, location *loc)
{
    const char *g = p->grid + n * p->grid_step[0];
    for (int d = 0; d < DIMS; d++)
        g += o[d] * p->grid_step[2 + d];
    loc->corners = 0;
    for (int d = 0; d < DIMS; d++) {
        loc->base[d] = 0;
        loc->frac[d] = 0;
        loc->mult[d] = 0;
        int real = d >= DIMS - p->k;
        if (!real)
            continue;
        /* grid coordinate 0 addresses the last dim */
        tsr__ref_wide gv;
        p->load(g + (int64_t)(DIMS - 1 - d) * p->coord_step, &gv);
        if (p->at->mode == TSR_RESAMPLE_CUBIC) { /* padding applies to each tap */
            double c = unnormalize(p, R_(gv.f), p->x.size[2 + d], &loc->mult[d]);
            double fl = floor(c);
            loc->base[d] = (int64_t)fl;
            loc->frac[d] = R_(c - fl);
            continue;
        }
        double c = source_coord(p, R_(gv.f), p->x.size[2 + d], &loc->mult[d]);
        if (p->at->mode == TSR_RESAMPLE_NEAREST) {
            loc->base[d] = (int64_t)nearbyint(c);
        } else {
            double fl = floor(c);
            loc->base[d] = (int64_t)fl;
            loc->frac[d] = R_(c - fl);
            loc->corners |= 1 << d;
        }
    }
}

/* Whether corner `bits` of loc lies inside x; *offset its byte offset in a
 * plane, *weight its blend weight, dweight[d] the weight's derivative. */
static int corner(const grid_plan *p, const location *loc, int bits, int64_t *offset,
                  double *weight, double *dweight)
{
    *offset = 0;
    *weight = 1;
    for (int d = 0; d < DIMS; d++)
        dweight[d] = 1;
    for (int d = 0; d < DIMS; d++) {
        int up = (bits >> d) & 1;
        int64_t i = loc->base[d] + up;
        if (i < 0 || i >= p->x.size[2 + d])
            return 0;
        *offset += i * p->x.step[2 + d];
        if (!(loc->corners & (1 << d)))
            continue;
        double w = up ? loc->frac[d] : R_(1 - loc->frac[d]);
        *weight *= w;
        for (int e = 0; e < DIMS; e++)
            dweight[e] *= e == d ? (up ? 1.0 : -1.0) : w;
    }
    for (int d = 0; d < DIMS; d++)
        if (!(loc->corners & (1 << d)))
            dweight[d] = 0;
    return 1;
}

/* ---- bicubic (4-d only) -------------------------------------------------- */

/* Keys' cubic convolution weights (A = -0.75) of fraction t in the input's
 * precision, and their derivatives in t (ATen's get_cubic_coefficients_grad
 * gives the negated ones and subtracts). */
static void cubic(const grid_plan *p, double t, double *w, double *dw)
{
    const double a = -0.75;
    double x1 = R_(t + 1), x3 = R_(1 - t), x4 = R_(2 - t);
    w[0] = R_(R_(R_(R_(R_(R_(a * x1) - 5 * a) * x1) + 8 * a) * x1) - 4 * a);
    w[1] = R_(R_(R_(R_(R_(1.25 * t) - 2.25) * t) * t) + 1);
    w[2] = R_(R_(R_(R_(R_(1.25 * x3) - 2.25) * x3) * x3) + 1);
    w[3] = R_(R_(R_(R_(R_(R_(a * x4) - 5 * a) * x4) + 8 * a) * x4) - 4 * a);
    /* conv2'(x) = 3A x^2 - 10A x + 8A, conv1'(x) = 3(A + 2) x^2 - 2(A + 3) x */
    dw[0] = (3 * a * x1 - 10 * a) * x1 + 8 * a;
    dw[1] = (3 * 1.25 * t - 2 * 2.25) * t;
    dw[2] = -((3 * 1.25 * x3 - 2 * 2.25) * x3);
    dw[3] = -((3 * a * x4 - 10 * a) * x4 + 8 * a);
}

/* Tap (dy, dx) of loc's 4 x 4 neighbourhood, its coordinates padded one by
 * one (ATen's get_value_bounded): whether it lies inside x, its byte
 * offset in a plane and its dense index. */
static int cubic_tap(const grid_plan *p, const location *loc, int dy, int dx, int64_t *offset,
                     int64_t *dense)
{
    double unused;
    int64_t h = p->x.size[3], w = p->x.size[4];
    int64_t iy = (int64_t)pad(p, (double)(loc->base[1] - 1 + dy), h, &unused);
    int64_t ix = (int64_t)pad(p, (double)(loc->base[2] - 1 + dx), w, &unused);
    if (iy < 0 || iy >= h || ix < 0 || ix >= w)
        return 0;
    *offset = iy * p->x.step[3] + ix * p->x.step[4];
    *dense = iy * w + ix;
    return 1;
}

static double load_f(const grid_plan *p, const char *at);

static double cubic_sample(const grid_plan *p, const location *loc, const char *plane)
{
    double wy[4], wx[4], unused[4];
    cubic(p, loc->frac[1], wy, unused);
    cubic(p, loc->frac[2], wx, unused);
    double acc = 0;
    for (int dy = 0; dy < 4; dy++) {
        double row = 0;
        for (int dx = 0; dx < 4; dx++) {
            int64_t off, dense;
            if (cubic_tap(p, loc, dy, dx, &off, &dense))
                row += wx[dx] * load_f(p, plane + off);
        }
        acc += wy[dy] * row;
    }
    return acc;
}

/* Adds g times the taps' weights into grad_x's dense plane `acc` and the
 * blend's derivatives along y and x into gcoord[1], gcoord[2]. */
static void cubic_backward(const grid_plan *p, const location *loc, const char *plane, double g,
                           double *acc, double *gcoord)
{
    double wy[4], wx[4], dwy[4], dwx[4];
    cubic(p, loc->frac[1], wy, dwy);
    cubic(p, loc->frac[2], wx, dwx);
    for (int dy = 0; dy < 4; dy++)
        for (int dx = 0; dx < 4; dx++) {
            int64_t off, dense;
            if (!cubic_tap(p, loc, dy, dx, &off, &dense))
                continue;
            acc[dense] += g * wx[dx] * wy[dy];
            double v = load_f(p, plane + off) * g;
            gcoord[2] += v * dwx[dx] * wy[dy];
            gcoord[1] += v * wx[dx] * dwy[dy];
        }
}

static int plan_init(const tsr__ref_backend *backend, const tsr_kernel_args *args, grid_plan *p)
{
    memset(p, 0, sizeof *p);
    int backward = args && args->op == TSR_OP_GRID_SAMPLER_BACKWARD;
    const char *name = backward ? "grid_sampler_backward" : "grid_sampler";
    if (!args || args->struct_size < sizeof(tsr_kernel_args) ||
        args->num_inputs != (backward ? 3 : 2) || args->num_outputs != (backward ? 2 : 1) ||
        !args->inputs || !args->outputs)
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "%s: wrong operand count", name);
    const tsr_resample_attrs *at = args->attrs;
    if (!at || at->struct_size < sizeof *at ||
        (at->mode != TSR_RESAMPLE_NEAREST && at->mode != TSR_RESAMPLE_LINEAR &&
         at->mode != TSR_RESAMPLE_CUBIC) ||
        at->padding_mode < TSR_GRID_PAD_ZEROS || at->padding_mode > TSR_GRID_PAD_REFLECTION)
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "%s needs tsr_resample_attrs with mode nearest, linear or cubic",
                              name);
    const tsr_tensor_desc *x = &args->inputs[backward ? 1 : 0];
    const tsr_tensor_desc *grid = &args->inputs[backward ? 2 : 1];
    const tsr_tensor_desc *y = backward ? &args->inputs[0] : &args->outputs[0];
    int k = x->ndim - 2;
    int ok = (k == 2 || k == 3) && grid->ndim == x->ndim && y->ndim == x->ndim &&
             grid->shape[x->ndim - 1] == k && grid->shape[0] == x->shape[0] &&
             y->shape[0] == x->shape[0] && y->shape[1] == x->shape[1];
    for (int d = 0; ok && d < k; d++)
        ok = y->shape[2 + d] == grid->shape[1 + d];
    if (!ok || (at->mode == TSR_RESAMPLE_CUBIC && k != 2))
        return tsr__ref_error(backend, TSR_ERR_SHAPE, "%s: operand shapes do not agree", name);
    if (tsr__ref_dtype_category(x->dtype) != TSR__REF_REAL || grid->dtype != x->dtype ||
        y->dtype != x->dtype)
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "%s takes one floating dtype", name);
    int64_t esize = (int64_t)tsr__ref_dtype_size(x->dtype);
    p->at = at;
    p->k = k;
    p->single = x->dtype != TSR_FLOAT64;
    tsr__ref_volume_init(&p->x, x, esize);
    tsr__ref_volume_init(&p->y, y, esize);
    p->grid = (char *)grid->data + grid->byte_offset;
    for (int d = 0; d < 2 + DIMS; d++)
        p->grid_step[d] = 0;
    p->grid_step[0] = grid->strides[0] * esize;
    for (int d = 0; d < k; d++)
        p->grid_step[2 + DIMS - k + d] = grid->strides[1 + d] * esize;
    p->coord_step = grid->strides[x->ndim - 1] * esize;
    p->load = tsr__ref_loader(x->dtype);
    p->store = tsr__ref_storer(TSR__REF_REAL, x->dtype);
    return TSR_OK;
}

static double load_f(const grid_plan *p, const char *at)
{
    tsr__ref_wide v;
    p->load(at, &v);
    return v.f;
}

static void store_f(const grid_plan *p, char *at, double value)
{
    tsr__ref_wide v = {.f = value};
    p->store(at, &v);
}

int tsr__ref_kernel_grid_sampler(void *backend_ptr, const tsr_kernel_args *args)
{
    grid_plan p;
    int status = plan_init(backend_ptr, args, &p);
    if (status != TSR_OK)
        return status;
    int64_t o[DIMS];
    for (int64_t n = 0; n < p.y.size[0]; n++)
        for (o[0] = 0; o[0] < p.y.size[2]; o[0]++)
            for (o[1] = 0; o[1] < p.y.size[3]; o[1]++)
                for (o[2] = 0; o[2] < p.y.size[4]; o[2]++) {
                    location loc;
                    locate(&p, n, o, &loc);
                    int64_t out_at = n * p.y.step[0] + o[0] * p.y.step[2] + o[1] * p.y.step[3] +
                                     o[2] * p.y.step[4];
                    for (int64_t c = 0; c < p.y.size[1]; c++) {
                        const char *plane = p.x.base + n * p.x.step[0] + c * p.x.step[1];
                        double acc = 0, dw[DIMS];
                        if (p.at->mode == TSR_RESAMPLE_CUBIC) {
                            store_f(&p, p.y.base + out_at + c * p.y.step[1],
                                    cubic_sample(&p, &loc, plane));
                            continue;
                        }
                        for (int bits = 0; bits < (1 << DIMS); bits++) {
                            int64_t off;
                            double w;
                            if ((bits & ~loc.corners) == 0 && corner(&p, &loc, bits, &off, &w, dw))
                                acc += w * load_f(&p, plane + off);
                        }
                        store_f(&p, p.y.base + out_at + c * p.y.step[1], acc);
                    }
                }
    return TSR_OK;
}

int tsr__ref_kernel_grid_sampler_backward(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    grid_plan p;
    int status = plan_init(backend, args, &p);
    if (status != TSR_OK)
        return status;
    int64_t esize = (int64_t)tsr__ref_dtype_size(args->inputs[0].dtype);
    tsr__ref_volume gx;
    tsr__ref_volume_init(&gx, &args->outputs[0], esize);
    const tsr_tensor_desc *gg = &args->outputs[1];
    int64_t plane = p.x.size[2] * p.x.size[3] * p.x.size[4];
    size_t count = (size_t)(p.x.size[0] * p.x.size[1] * plane);
    double *acc = calloc(count > 0 ? count : 1, sizeof *acc);
    if (!acc)
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY,
                              "grid_sampler_backward: out of memory");
    int64_t o[DIMS];
    for (int64_t n = 0; n < p.y.size[0]; n++)
        for (o[0] = 0; o[0] < p.y.size[2]; o[0]++)
            for (o[1] = 0; o[1] < p.y.size[3]; o[1]++)
                for (o[2] = 0; o[2] < p.y.size[4]; o[2]++) {
                    location loc;
                    locate(&p, n, o, &loc);
                    double gcoord[DIMS] = {0, 0, 0};
                    int64_t out_at = n * p.y.step[0] + o[0] * p.y.step[2] + o[1] * p.y.step[3] +
                                     o[2] * p.y.step[4];
                    for (int64_t c = 0; c < p.y.size[1]; c++) {
                        double g = load_f(&p, p.y.base + out_at + c * p.y.step[1]);
                        const char *xplane = p.x.base + n * p.x.step[0] + c * p.x.step[1];
                        double *aplane = acc + (n * p.x.size[1] + c) * plane;
                        if (p.at->mode == TSR_RESAMPLE_CUBIC) {
                            cubic_backward(&p, &loc, xplane, g, aplane, gcoord);
                            continue;
                        }
                        for (int bits = 0; bits < (1 << DIMS); bits++) {
                            int64_t off;
                            double w, dw[DIMS];
                            if ((bits & ~loc.corners) != 0 || !corner(&p, &loc, bits, &off, &w, dw))
                                continue;
                            int64_t dense = 0;
                            for (int d = 0; d < DIMS; d++) {
                                int64_t i = loc.base[d] + ((bits >> d) & 1);
                                dense = dense * p.x.size[2 + d] + i;
                            }
                            aplane[dense] += w * g;
                            double v = load_f(&p, xplane + off);
                            for (int d = 0; d < DIMS; d++)
                                gcoord[d] += v * g * dw[d];
                        }
                    }
                    char *gg_at = (char *)gg->data + gg->byte_offset + n * gg->strides[0] * esize;
                    for (int d = 0; d < p.k; d++)
                        gg_at += o[DIMS - p.k + d] * gg->strides[1 + d] * esize;
                    for (int d = DIMS - p.k; d < DIMS; d++)
                        store_f(&p,
                                gg_at + (int64_t)(DIMS - 1 - d) * gg->strides[gg->ndim - 1] * esize,
                                gcoord[d] * loc.mult[d]);
                }
    double *a = acc;
    for (int64_t n = 0; n < gx.size[0]; n++)
        for (int64_t c = 0; c < gx.size[1]; c++)
            for (int64_t i0 = 0; i0 < gx.size[2]; i0++)
                for (int64_t i1 = 0; i1 < gx.size[3]; i1++)
                    for (int64_t i2 = 0; i2 < gx.size[4]; i2++)
                        store_f(&p,
                                gx.base + n * gx.step[0] + c * gx.step[1] + i0 * gx.step[2] +
                                    i1 * gx.step[3] + i2 * gx.step[4],
                                *a++);
    free(acc);
    return TSR_OK;
}
