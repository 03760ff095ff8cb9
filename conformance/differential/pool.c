/* Differential draws for the pooling family: random batched or unbatched
 * inputs, windows with stride, padding up to half the kernel, dilation and
 * ceil_mode, adaptive sizes below and above the input's. */
#include <string.h>

#include "differential/draw_helpers.h"

/* [N,] C, s... with d spatial sizes in [1, 7]; returns the spatial sizes. */
static void pool_input(conf_draft *d, int rank, bool empty_batch, int64_t *spatial)
{
    bool batched = pick(d, 0.7);
    int64_t shape[5];
    int n = 0;
    if (batched)
        shape[n++] = empty_batch && pick(d, 0.1) ? 0 : range(d, 1, 3);
    shape[n++] = range(d, 1, 3);
    for (int k = 0; k < rank; k++)
        shape[n++] = spatial[k] = range(d, 1, 7);
    conf_draft_tensor(d, "input", d->dtype, n, shape, general(), CONF_LAYOUT_COUNT);
}

static int rank_of(const conf_draft *d)
{
    size_t n = strlen(d->c->op);
    return d->c->op[n - 2] - '0';
}

/* kernel, stride, padding (<= kernel / 2) and, for max, dilation, fitting s. */
static void window(conf_draft *d, int rank, const int64_t *s, bool dilate)
{
    int64_t k[3], st[3], p[3], dil[3];
    for (int i = 0; i < rank; i++) {
        dil[i] = dilate && pick(d, 0.3) ? 2 : 1;
        k[i] = range(d, 1, 3);
        p[i] = range(d, 0, k[i] / 2);
        while (k[i] > 1 && dil[i] * (k[i] - 1) + 1 > s[i] + 2 * p[i]) {
            k[i]--;
            p[i] = k[i] / 2 < p[i] ? k[i] / 2 : p[i];
        }
        if (dil[i] * (k[i] - 1) + 1 > s[i] + 2 * p[i])
            dil[i] = 1;
        st[i] = range(d, 1, 3);
    }
    conf_draft_arg_int_list(d, "kernel_size", rank, k);
    if (pick(d, 0.7))
        conf_draft_arg_int_list(d, "stride", rank, st);
    conf_draft_arg_int_list(d, "padding", rank, p);
    if (dilate)
        conf_draft_arg_int_list(d, "dilation", rank, dil);
    conf_draft_arg_bool(d, "ceil_mode", pick(d, 0.5));
}

static bool draw_max_pool(conf_draft *d)
{
    int rank = rank_of(d);
    int64_t s[3];
    pool_input(d, rank, true, s);
    window(d, rank, s, true);
    conf_draft_arg_bool(d, "return_indices", pick(d, 0.5));
    return true;
}

static bool draw_avg_pool(conf_draft *d)
{
    int rank = rank_of(d);
    int64_t s[3];
    pool_input(d, rank, true, s);
    window(d, rank, s, false);
    conf_draft_arg_bool(d, "count_include_pad", pick(d, 0.5));
    if (rank > 1 && pick(d, 0.2))
        conf_draft_arg_int(d, "divisor_override", range(d, 1, 5));
    return true;
}

static bool draw_adaptive(conf_draft *d)
{
    int rank = rank_of(d);
    int64_t s[3], out[3];
    pool_input(d, rank, true, s);
    for (int i = 0; i < rank; i++)
        out[i] = range(d, 1, 8);
    conf_draft_arg_int_list(d, "output_size", rank, out);
    if (strncmp(d->c->op, "adaptive_max", 12) == 0)
        conf_draft_arg_bool(d, "return_indices", pick(d, 0.5));
    return true;
}

static bool draw_shuffle(conf_draft *d)
{
    int64_t r = range(d, 1, 3), shape[4] = {range(d, 0, 2), range(d, 1, 2), range(d, 1, 3),
                                            range(d, 1, 3)};
    if (strcmp(d->c->op, "pixel_shuffle") == 0) {
        shape[1] *= r * r;
        conf_draft_arg_int(d, "upscale_factor", r);
    } else {
        shape[2] *= r;
        shape[3] *= r;
        conf_draft_arg_int(d, "downscale_factor", r);
    }
    conf_draft_tensor(d, "input", d->dtype, 4, shape, general(), CONF_LAYOUT_COUNT);
    return true;
}

const conf_diff_op conf_diff_draws_pool[] = {
    {"max_pool1d", draw_max_pool, EXACT},
    {"max_pool2d", draw_max_pool, EXACT},
    {"max_pool3d", draw_max_pool, EXACT},
    {"avg_pool1d", draw_avg_pool, EXACT},
    {"avg_pool2d", draw_avg_pool, EXACT},
    {"avg_pool3d", draw_avg_pool, EXACT},
    {"adaptive_avg_pool1d", draw_adaptive, EXACT},
    {"adaptive_avg_pool2d", draw_adaptive, EXACT},
    {"adaptive_avg_pool3d", draw_adaptive, EXACT},
    {"adaptive_max_pool1d", draw_adaptive, EXACT},
    {"adaptive_max_pool2d", draw_adaptive, EXACT},
    {"adaptive_max_pool3d", draw_adaptive, EXACT},
    {"pixel_shuffle", draw_shuffle, EXACT},
    {"pixel_unshuffle", draw_shuffle, EXACT},
};
const size_t conf_diff_draws_pool_count =
    sizeof conf_diff_draws_pool / sizeof conf_diff_draws_pool[0];
