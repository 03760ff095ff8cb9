/* upsample and upsample_backward (TSR_OP_LIST_RESAMPLE in plugin.h).
 *
 * Every mode is separable: for each spatial dim a table says which input
 * positions ("taps") an output position reads and with what weight, and an
 * output element is the nested weighted sum over the dims' taps, outermost
 * dim first as ATen nests it. The tables follow ATen's index arithmetic,
 * including its precision (float for nearest and for float32 and bfloat16
 * inputs), because a source coordinate rounded differently picks another
 * pixel; the sums themselves run in double and round once.
 *
 * The backward is the adjoint: each grad_y element, in row-major order,
 * adds its weighted value into the taps it read, accumulated in a double
 * buffer, so the result does not depend on any schedule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "kernels.h"
#include "resample.h"
#include "wide.h"

enum { MAX_TAPS = 4 };

typedef tsr__ref_resample_axis axis_taps;

static double scale_of(int prec, int align_corners, int64_t in, int64_t out, double given)
{
    if (align_corners)
        return out > 1 ? tsr__ref_resample_round(prec, (double)(in - 1) / (double)(out - 1)) : 0.0;
    if (given > 0)
        return tsr__ref_resample_round(prec, 1.0 / given);
    return tsr__ref_resample_round(prec, (double)in / (double)out);
}

/* Keys' cubic convolution weights for fraction t, A = -0.75 as ATen. */
static void cubic_weights(int prec, double t, double *w)
{
    const double a = -0.75;
#define R_(v) tsr__ref_resample_round(prec, (v))
    double x1 = R_(t + 1), x2 = t, x3 = R_(1 - t), x4 = R_(2 - t);
    /* conv1(x) = ((A + 2) x - (A + 3)) x x + 1; conv2(x) = ((A x - 5A) x + 8A) x - 4A */
    w[0] = R_(R_(R_(R_(R_(R_(a * x1) - 5 * a) * x1) + 8 * a) * x1) - 4 * a);
    w[1] = R_(R_(R_(R_(R_(1.25 * x2) - 2.25) * x2) * x2) + 1);
    w[2] = R_(R_(R_(R_(R_(1.25 * x3) - 2.25) * x3) * x3) + 1);
    w[3] = R_(R_(R_(R_(R_(R_(a * x4) - 5 * a) * x4) + 8 * a) * x4) - 4 * a);
#undef R_
}

static int64_t clamp_index(int64_t i, int64_t size)
{
    return i < 0 ? 0 : i >= size ? size - 1 : i;
}

/* align_corners ? j * scale : (j + 0.5) * scale - 0.5, in precision ip. */
static double source_coord(const tsr_resample_attrs *at, int ip, double scale, double jj)
{
    if (at->align_corners)
        return tsr__ref_resample_round(ip, scale * jj);
    return tsr__ref_resample_round(ip, tsr__ref_resample_round(ip, scale * (jj + 0.5)) - 0.5);
}

/* The taps of output position j of a dim from `in` to `out` positions. */
static void taps_at(const tsr_resample_attrs *at, int prec, int backward, int64_t in, int64_t out,
                    double given, int64_t j, int64_t *index, double *weight)
{
    if (backward && at->mode == TSR_RESAMPLE_NEAREST && (out == in || out == 2 * in)) {
        /* ATen's nearest backward (nearest_idx) takes these shortcuts and
         * its forward does not: with a scale factor that disagrees with the
         * sizes, PyTorch's gradient is not the forward's adjoint. */
        index[0] = out == in ? j : j >> 1;
        weight[0] = 1.0;
        return;
    }
    if (at->mode == TSR_RESAMPLE_NEAREST || at->mode == TSR_RESAMPLE_NEAREST_EXACT) {
        /* ATen computes nearest indices in float for every dtype. */
        double scale = scale_of(1, 0, in, out, given);
        double src = at->mode == TSR_RESAMPLE_NEAREST ? (double)(float)((double)(float)j * scale)
                                                      : (double)(float)(((double)j + 0.5) * scale);
        int64_t i = (int64_t)floor(src);
        index[0] = i < in - 1 ? i : in - 1;
        weight[0] = 1.0;
        return;
    }
    /* bfloat16: ATen rounds the scale and the weights to bfloat16 but
     * computes the coordinates in float */
    double scale = scale_of(prec, at->align_corners, in, out, given);
    int ip = prec == TSR__REF_PREC_BFLOAT16 ? TSR__REF_PREC_FLOAT : prec;
    double jj = (double)j;
    if (at->mode == TSR_RESAMPLE_LINEAR) {
        if (in == out) { /* ATen copies when the sizes agree, whatever the scale */
            index[0] = index[1] = j;
            weight[0] = 1.0;
            weight[1] = 0.0;
            return;
        }
        double src = source_coord(at, ip, scale, jj);
        if (!at->align_corners && src < 0)
            src = 0;
        int64_t i0 = (int64_t)src;
        double l1 = tsr__ref_resample_round(ip, src - (double)i0);
        l1 = tsr__ref_resample_round(prec, l1 < 0 ? 0 : l1 > 1 ? 1 : l1);
        index[0] = i0;
        index[1] = i0 + (i0 < in - 1 ? 1 : 0);
        weight[0] = tsr__ref_resample_round(prec, 1.0 - l1);
        weight[1] = l1;
        return;
    }
    double src = source_coord(at, ip, scale, jj);
    double fl = floor(src);
    /* the fraction and its weights are in the input's type (bfloat16 too) */
    double t = tsr__ref_resample_round(prec, tsr__ref_resample_round(ip, src - fl));
    cubic_weights(prec, t, weight);
    for (int k = 0; k < 4; k++)
        index[k] = clamp_index((int64_t)fl - 1 + k, in);
}

int tsr__ref_resample_prec(int32_t dtype)
{
    return dtype == TSR_FLOAT64    ? TSR__REF_PREC_DOUBLE
           : dtype == TSR_BFLOAT16 ? TSR__REF_PREC_BFLOAT16
                                   : TSR__REF_PREC_FLOAT;
}

void tsr__ref_resample_axis_free(tsr__ref_resample_axis *axis)
{
    free(axis->index);
    free(axis->weight);
    axis->index = NULL;
    axis->weight = NULL;
}

int tsr__ref_resample_axis_build(const tsr_resample_attrs *at, int prec, int backward, int64_t in,
                                 int64_t out, double given, int real_dim, axis_taps *axis)
{
    axis->taps = !real_dim || at->mode <= TSR_RESAMPLE_NEAREST_EXACT ? 1
                 : at->mode == TSR_RESAMPLE_LINEAR                   ? 2
                                                                     : 4;
    size_t n = (size_t)(out > 0 ? out : 1) * (size_t)axis->taps;
    axis->index = malloc(n * sizeof *axis->index);
    axis->weight = malloc(n * sizeof *axis->weight);
    if (!axis->index || !axis->weight)
        return TSR_ERR_OUT_OF_MEMORY;
    for (int64_t j = 0; j < out; j++) {
        if (!real_dim) {
            axis->index[j] = 0;
            axis->weight[j] = 1.0;
        } else {
            taps_at(at, prec, backward, in, out, given, j, axis->index + j * axis->taps,
                    axis->weight + j * axis->taps);
        }
    }
    return TSR_OK;
}

typedef struct upsample_plan {
    tsr__ref_volume small, large; /* input and output of the forward */
    axis_taps axes[TSR__REF_RESAMPLE_DIMS];
    int64_t esize;
    int32_t dtype;
    int sum_prec; /* bfloat16 sums round at every step, as ATen's do */
} upsample_plan;

static void plan_free(upsample_plan *p)
{
    for (int d = 0; d < TSR__REF_RESAMPLE_DIMS; d++)
        tsr__ref_resample_axis_free(&p->axes[d]);
}

static int plan_init(const tsr__ref_backend *backend, const tsr_kernel_args *args, upsample_plan *p)
{
    memset(p, 0, sizeof *p);
    const char *name =
        args && args->op == TSR_OP_UPSAMPLE_BACKWARD ? "upsample_backward" : "upsample";
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || !args->inputs || !args->outputs)
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT,
                              "%s takes one input and one output", name);
    const tsr_resample_attrs *at = args->attrs;
    if (!at || at->struct_size < sizeof *at || at->mode < TSR_RESAMPLE_NEAREST ||
        at->mode > TSR_RESAMPLE_CUBIC)
        return tsr__ref_error(backend, TSR_ERR_INVALID_ARGUMENT, "%s needs tsr_resample_attrs",
                              name);
    int backward = args->op == TSR_OP_UPSAMPLE_BACKWARD;
    const tsr_tensor_desc *small = backward ? &args->outputs[0] : &args->inputs[0];
    const tsr_tensor_desc *large = backward ? &args->inputs[0] : &args->outputs[0];
    int k = small->ndim - 2;
    if (k < 1 || k > 3 || large->ndim != small->ndim || small->shape[0] != large->shape[0] ||
        small->shape[1] != large->shape[1] || small->dtype != large->dtype)
        return tsr__ref_error(backend, TSR_ERR_SHAPE,
                              "%s needs [N, C, spatial...] tensors of 3 to 5 dims, one dtype",
                              name);
    int cat = tsr__ref_dtype_category(small->dtype);
    if (cat != TSR__REF_REAL &&
        !(cat == TSR__REF_INTEGER && !backward && at->mode <= TSR_RESAMPLE_NEAREST_EXACT))
        return tsr__ref_error(backend, TSR_ERR_DTYPE, "%s does not take %s in this mode", name,
                              tsr__ref_dtype_name(small->dtype));
    p->esize = (int64_t)tsr__ref_dtype_size(small->dtype);
    p->dtype = small->dtype;
    tsr__ref_volume_init(&p->small, small, p->esize);
    tsr__ref_volume_init(&p->large, large, p->esize);
    int prec = tsr__ref_resample_prec(small->dtype);
    p->sum_prec = prec == TSR__REF_PREC_BFLOAT16 ? prec : TSR__REF_PREC_DOUBLE;
    for (int d = 0; d < TSR__REF_RESAMPLE_DIMS; d++) {
        int real_dim = d >= TSR__REF_RESAMPLE_DIMS - k;
        int64_t in = p->small.size[2 + d], out = p->large.size[2 + d];
        if (real_dim && in <= 0 && out > 0) {
            plan_free(p);
            return tsr__ref_error(backend, TSR_ERR_SHAPE, "%s: empty spatial input", name);
        }
        double given = real_dim ? at->scales[d - (TSR__REF_RESAMPLE_DIMS - k)] : 0;
        if (tsr__ref_resample_axis_build(at, prec, backward, in, out, given, real_dim,
                                         &p->axes[d]) != TSR_OK) {
            plan_free(p);
            return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "%s: out of memory", name);
        }
    }
    return TSR_OK;
}

/* The byte offset of spatial position (i0, i1, i2) in v. */
static int64_t at3(const tsr__ref_volume *v, int64_t i0, int64_t i1, int64_t i2)
{
    return i0 * v->step[2] + i1 * v->step[3] + i2 * v->step[4];
}

#define S_(v) tsr__ref_resample_round(p->sum_prec, (v))

static void forward_plane(const upsample_plan *p, const char *src, char *dst, tsr__ref_load_fn load,
                          tsr__ref_store_fn store)
{
    const axis_taps *a0 = &p->axes[0], *a1 = &p->axes[1], *a2 = &p->axes[2];
    int nearest = a0->taps == 1 && a1->taps == 1 && a2->taps == 1;
    for (int64_t o0 = 0; o0 < p->large.size[2]; o0++)
        for (int64_t o1 = 0; o1 < p->large.size[3]; o1++)
            for (int64_t o2 = 0; o2 < p->large.size[4]; o2++) {
                char *out = dst + at3(&p->large, o0, o1, o2);
                if (nearest) { /* a copy of one element: exact for every dtype */
                    memcpy(out, src + at3(&p->small, a0->index[o0], a1->index[o1], a2->index[o2]),
                           (size_t)p->esize);
                    continue;
                }
                double acc0 = 0;
                for (int t0 = 0; t0 < a0->taps; t0++) {
                    double acc1 = 0;
                    for (int t1 = 0; t1 < a1->taps; t1++) {
                        double acc2 = 0;
                        for (int t2 = 0; t2 < a2->taps; t2++) {
                            tsr__ref_wide v;
                            load(src + at3(&p->small, a0->index[o0 * a0->taps + t0],
                                           a1->index[o1 * a1->taps + t1],
                                           a2->index[o2 * a2->taps + t2]),
                                 &v);
                            acc2 = S_(acc2 + S_(v.f * a2->weight[o2 * a2->taps + t2]));
                        }
                        acc1 = S_(acc1 + S_(acc2 * a1->weight[o1 * a1->taps + t1]));
                    }
                    acc0 = S_(acc0 + S_(acc1 * a0->weight[o0 * a0->taps + t0]));
                }
                tsr__ref_wide r = {.f = acc0};
                store(out, &r);
            }
}

#undef S_

/* Adds plane grad_y (`src`, laid out as p->large) into `acc`, a dense
 * double plane of the input's spatial shape. */
static void backward_plane(const upsample_plan *p, const char *src, double *acc,
                           tsr__ref_load_fn load)
{
    const axis_taps *a0 = &p->axes[0], *a1 = &p->axes[1], *a2 = &p->axes[2];
    int64_t s1 = p->small.size[3], s2 = p->small.size[4];
    for (int64_t o0 = 0; o0 < p->large.size[2]; o0++)
        for (int64_t o1 = 0; o1 < p->large.size[3]; o1++)
            for (int64_t o2 = 0; o2 < p->large.size[4]; o2++) {
                tsr__ref_wide g;
                load(src + at3(&p->large, o0, o1, o2), &g);
                for (int t0 = 0; t0 < a0->taps; t0++) {
                    double w0 = a0->weight[o0 * a0->taps + t0] * g.f;
                    int64_t i0 = a0->index[o0 * a0->taps + t0];
                    for (int t1 = 0; t1 < a1->taps; t1++) {
                        double w1 = a1->weight[o1 * a1->taps + t1] * w0;
                        int64_t i1 = a1->index[o1 * a1->taps + t1];
                        for (int t2 = 0; t2 < a2->taps; t2++) {
                            int64_t i2 = a2->index[o2 * a2->taps + t2];
                            acc[(i0 * s1 + i1) * s2 + i2] += a2->weight[o2 * a2->taps + t2] * w1;
                        }
                    }
                }
            }
}

int tsr__ref_kernel_upsample(void *backend_ptr, const tsr_kernel_args *args)
{
    const tsr__ref_backend *backend = backend_ptr;
    upsample_plan p;
    int status = plan_init(backend, args, &p);
    if (status != TSR_OK)
        return status;
    int backward = args->op == TSR_OP_UPSAMPLE_BACKWARD;
    tsr__ref_load_fn load = tsr__ref_loader(p.dtype);
    tsr__ref_store_fn store = tsr__ref_storer(TSR__REF_REAL, p.dtype);
    int64_t plane = p.small.size[2] * p.small.size[3] * p.small.size[4];
    double *acc = NULL;
    if (backward && !(acc = malloc((size_t)(plane > 0 ? plane : 1) * sizeof *acc))) {
        plan_free(&p);
        return tsr__ref_error(backend, TSR_ERR_OUT_OF_MEMORY, "upsample_backward: out of memory");
    }
    for (int64_t n = 0; n < p.small.size[0]; n++)
        for (int64_t c = 0; c < p.small.size[1]; c++) {
            char *s = p.small.base + n * p.small.step[0] + c * p.small.step[1];
            char *l = p.large.base + n * p.large.step[0] + c * p.large.step[1];
            if (!backward) {
                forward_plane(&p, s, l, load, store);
                continue;
            }
            for (int64_t i = 0; i < plane; i++)
                acc[i] = 0;
            backward_plane(&p, l, acc, load);
            int64_t i = 0;
            for (int64_t i0 = 0; i0 < p.small.size[2]; i0++)
                for (int64_t i1 = 0; i1 < p.small.size[3]; i1++)
                    for (int64_t i2 = 0; i2 < p.small.size[4]; i2++) {
                        tsr__ref_wide r = {.f = acc[i++]};
                        store(s + at3(&p.small, i0, i1, i2), &r);
                    }
        }
    free(acc);
    plan_free(&p);
    return TSR_OK;
}
