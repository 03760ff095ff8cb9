/* upsample, upsample_backward and grid_sampler on float32
 * (shaders/resample.comp, resample_backward.comp, resample_grid.comp), with
 * the dispatch of index.c. The scales are worked out here exactly as the
 * reference works them out (float arithmetic), so the shaders pick the
 * reference's pixels; the sums run in float. upsample_backward gathers (no
 * atomics: deterministic). grid_sampler_backward is not claimed: its input
 * gradient is a scatter through an arbitrary grid; the core runs it on the
 * fallback backend when TESSERA_FALLBACK names one. */
#include <string.h>

#include "host.h"
#include "kernels.h"
#include "launch_rows.h"

enum { EXTRA_K = 0, EXTRA_SIZES = 1, EXTRA_STRIDES = 4 };

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The reference's scale (plugins/reference/resample.c), in float. */
static float scale_of(int align_corners, int64_t in, int64_t out, double given)
{
    if (align_corners)
        return out > 1 ? (float)(in - 1) / (float)(out - 1) : 0.0f;
    if (given > 0)
        return (float)(1.0 / given);
    return (float)in / (float)out;
}

/* llvmpipe stops an invocation's loops after 65535 iterations in all
 * (launch_rows.h): refuse, naming the op, a dispatch whose invocations would
 * loop longer, `per_element` iterations for each element they take. */
static int loop_budget(struct tsr__vk_backend *b, const char *name, const struct tsr__vk_custom *c,
                       uint64_t per_element)
{
    uint64_t groups = c->groups < 65535 ? c->groups : 65535;
    uint64_t lanes = groups * b->pipelines.local_size;
    uint64_t each = lanes ? ((uint64_t)c->numel + lanes - 1) / lanes : 0;
    return tsr__vk_loop_budget(b, name, 1, (int64_t)c->numel, each * per_element);
}

/* Loop iterations of one upsample_backward element: per dim two binary
 * searches and a range of outputs whose taps may reach it (about the
 * upscaling factor times the taps), nested. */
static uint64_t backward_iterations(const tsr_tensor_desc *small, const tsr_tensor_desc *large,
                                    const tsr_resample_attrs *at)
{
    uint64_t nested = 1, flat = 0;
    for (int d = 0; d < small->ndim - 2; d++) {
        int64_t in = small->shape[2 + d], out = large->shape[2 + d];
        double factor = (double)out / (double)in;
        if (at->scales[d] > factor)
            factor = at->scales[d];
        double range = factor * 4 + 4;
        if (range > (double)out)
            range = (double)out;
        uint64_t bits = 1;
        while (((int64_t)1 << bits) < out)
            bits++;
        nested *= (uint64_t)range;
        flat += 2 * (bits + 1) * 4 + (uint64_t)range * 5;
    }
    return nested * 5 + flat + 16;
}

static int shapes_fit(const tsr_tensor_desc *x, const tsr_tensor_desc *y, int kmin, int kmax)
{
    int k = x->ndim - 2;
    return k >= kmin && k <= kmax && y->ndim == x->ndim && x->shape[0] == y->shape[0] &&
           x->shape[1] == y->shape[1];
}

/* upsample (forward: out = y, in = x) and upsample_backward (out = grad_x,
 * in = grad_y): the dispatch walks the output; the input is reached through
 * its (n, c) plane and the extra words (resample.comp's layout). */
int tsr__vk_kernel_upsample(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    int backward = args && args->op == TSR_OP_UPSAMPLE_BACKWARD;
    const char *name = backward ? "upsample_backward" : "upsample";
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 1 ||
        args->num_outputs != 1 || !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s: 1 input, 1 output", name);
    const tsr_resample_attrs *at = args->attrs;
    if (!at || at->struct_size < sizeof *at || at->mode < TSR_RESAMPLE_NEAREST ||
        at->mode > TSR_RESAMPLE_CUBIC)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "%s needs tsr_resample_attrs",
                             name);
    const tsr_tensor_desc *in = &args->inputs[0], *out = &args->outputs[0];
    const tsr_tensor_desc *small = backward ? out : in, *large = backward ? in : out;
    if (!shapes_fit(in, out, 1, 3))
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "%s: [N, C, spatial...] of 3 to 5 dims", name);
    if (in->dtype != TSR_FLOAT32 || out->dtype != TSR_FLOAT32)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "%s: float32 only here", name);
    int k = in->ndim - 2;
    for (int d = 0; d < k; ++d)
        if (small->shape[2 + d] <= 0 || small->shape[2 + d] > INT32_MAX ||
            large->shape[2 + d] > INT32_MAX)
            return tsr__vk_error(b->host, TSR_ERR_SHAPE, "%s: spatial size out of range", name);
    struct tsr__vk_custom c;
    tsr__vk_custom_over(&c, out);
    c.stride[1][0] = in->strides[0];
    c.stride[1][1] = in->strides[1];
    c.extra[EXTRA_K] = (uint32_t)k;
    int nearest = at->mode <= TSR_RESAMPLE_NEAREST_EXACT;
    for (int d = 0; d < k; ++d) {
        int64_t bytes = in->strides[2 + d] * 4;
        if (bytes < 0 || bytes > UINT32_MAX)
            return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "%s: stride too large", name);
        c.extra[EXTRA_SIZES + d] = (uint32_t)in->shape[2 + d];
        c.extra[EXTRA_STRIDES + d] = (uint32_t)bytes;
        c.extra[7 + d] = float_bits(scale_of(nearest ? 0 : at->align_corners, small->shape[2 + d],
                                             large->shape[2 + d], at->scales[d]));
    }
    c.extra[10] = (uint32_t)at->mode;
    c.extra[11] = at->align_corners ? 1u : 0u;
    struct tsr__vk_launch l = {.shader = backward ? TSR__VK_SHADER_RESAMPLE_BACKWARD
                                                  : TSR__VK_SHADER_RESAMPLE,
                               .spec = {args->op, in->dtype, in->dtype, 0},
                               .out = out,
                               .in = {in},
                               .num_in = 1};
    int status = tsr__vk_elements(b, tsr__vk_desc_numel(out), &c);
    if (status == TSR_OK)
        status = loop_budget(b, name, &c, backward ? backward_iterations(small, large, at) : 100);
    if (status != TSR_OK)
        return status;
    return tsr__vk_index_run(b, name, NULL, 0, 0, NULL, &l, &c);
}

int tsr__vk_kernel_grid_sampler(void *backend, const tsr_kernel_args *args)
{
    struct tsr__vk_backend *b = backend;
    if (!args || args->struct_size < sizeof(tsr_kernel_args) || args->num_inputs != 2 ||
        args->num_outputs != 1 || !args->inputs || !args->outputs)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT, "grid_sampler: 2 inputs, 1 output");
    const tsr_resample_attrs *at = args->attrs;
    if (!at || at->struct_size < sizeof *at ||
        (at->mode != TSR_RESAMPLE_NEAREST && at->mode != TSR_RESAMPLE_LINEAR &&
         at->mode != TSR_RESAMPLE_CUBIC) ||
        at->padding_mode < TSR_GRID_PAD_ZEROS || at->padding_mode > TSR_GRID_PAD_REFLECTION)
        return tsr__vk_error(b->host, TSR_ERR_INVALID_ARGUMENT,
                             "grid_sampler needs tsr_resample_attrs (nearest, linear, cubic)");
    const tsr_tensor_desc *x = &args->inputs[0], *grid = &args->inputs[1], *y = &args->outputs[0];
    int k = x->ndim - 2;
    int fits = shapes_fit(x, y, 2, 3) && grid->ndim == x->ndim && grid->shape[0] == x->shape[0] &&
               grid->shape[x->ndim - 1] == k;
    for (int d = 0; fits && d < k; ++d)
        fits = grid->shape[1 + d] == y->shape[2 + d] && x->shape[2 + d] > 0 &&
               x->shape[2 + d] <= INT32_MAX;
    if (!fits || (at->mode == TSR_RESAMPLE_CUBIC && k != 2))
        return tsr__vk_error(b->host, TSR_ERR_SHAPE, "grid_sampler: operand shapes do not agree");
    if (x->dtype != TSR_FLOAT32 || grid->dtype != TSR_FLOAT32 || y->dtype != TSR_FLOAT32)
        return tsr__vk_error(b->host, TSR_ERR_DTYPE, "grid_sampler: float32 only here");
    struct tsr__vk_custom c;
    tsr__vk_custom_over(&c, y);
    c.stride[1][0] = x->strides[0];
    c.stride[1][1] = x->strides[1];
    c.stride[2][0] = grid->strides[0];
    for (int d = 0; d < k; ++d)
        c.stride[2][2 + d] = grid->strides[1 + d];
    c.extra[EXTRA_K] = (uint32_t)k;
    int64_t coord = grid->strides[x->ndim - 1] * 4;
    for (int d = 0; d < k; ++d) {
        int64_t bytes = x->strides[2 + d] * 4;
        if (bytes < 0 || bytes > UINT32_MAX || coord < 0 || coord > UINT32_MAX)
            return tsr__vk_error(b->host, TSR_ERR_UNIMPLEMENTED, "grid_sampler: stride too large");
        c.extra[EXTRA_SIZES + d] = (uint32_t)x->shape[2 + d];
        c.extra[EXTRA_STRIDES + d] = (uint32_t)bytes;
    }
    c.extra[7] = (uint32_t)coord;
    c.extra[8] = (uint32_t)at->mode;
    c.extra[9] = (uint32_t)at->padding_mode;
    c.extra[10] = at->align_corners ? 1u : 0u;
    struct tsr__vk_launch l = {.shader = TSR__VK_SHADER_RESAMPLE_GRID,
                               .spec = {args->op, x->dtype, x->dtype, 0},
                               .out = y,
                               .in = {x, grid},
                               .num_in = 2};
    int status = tsr__vk_elements(b, tsr__vk_desc_numel(y), &c);
    if (status == TSR_OK)
        status = loop_budget(b, "grid_sampler", &c, 100);
    if (status != TSR_OK)
        return status;
    return tsr__vk_index_run(b, "grid_sampler", NULL, 0, 0, NULL, &l, &c);
}
