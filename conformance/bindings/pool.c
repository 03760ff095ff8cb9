/* Adapters for the pooling family: F.max_pool{1,2,3}d, F.max_unpool*,
 * F.avg_pool*, F.adaptive_{avg,max}_pool*, F.lp_pool{1,2}d,
 * F.pixel_shuffle and F.pixel_unshuffle. The op name's last two characters
 * give the spatial rank. */
#include <string.h>

#include "bindings/bindings.h"

static int spatial_rank(const conf_call *call)
{
    size_t n = strlen(call->c->op);
    return call->c->op[n - 2] - '0';
}

/* An int-or-tuple arg into (values, count); absent (or null) is count 0. */
static bool tuple_arg(conf_call *call, const char *name, int64_t *values, int *count)
{
    *count = 0;
    if (!conf_arg_present(call, name))
        return true;
    int64_t buf[TSR_MAX_DIMS];
    int n = 0;
    if (!conf_arg_int_list(call, name, buf, &n))
        return false;
    if (n > 3)
        n = 4; /* more than any rank: the library refuses it */
    for (int i = 0; i < n && i < 3; i++)
        values[i] = buf[i];
    *count = n;
    return true;
}

static bool window_args(conf_call *call, tsr_pool_options *o)
{
    *o = (tsr_pool_options)TSR_POOL_OPTIONS_INIT;
    int64_t divisor = 0;
    if (!tuple_arg(call, "kernel_size", o->kernel_size, &o->kernel_count) ||
        !tuple_arg(call, "stride", o->stride, &o->stride_count) ||
        !tuple_arg(call, "padding", o->padding, &o->padding_count) ||
        !tuple_arg(call, "dilation", o->dilation, &o->dilation_count) ||
        !conf_arg_bool_or(call, "ceil_mode", false, &o->ceil_mode) ||
        !conf_arg_bool_or(call, "count_include_pad", true, &o->count_include_pad))
        return false;
    if (conf_arg_present(call, "divisor_override")) {
        if (!conf_arg_int(call, "divisor_override", &divisor))
            return false;
        o->has_divisor = true;
        o->divisor_override = divisor;
    }
    return true;
}

/* Records (out, indices) with return_indices, else out alone. */
static int return_max(conf_call *call, int st, bool with_indices, tsr_tensor *out,
                      tsr_tensor *indices)
{
    if (with_indices)
        return conf_call_return_pair(call, st, out, indices);
    return conf_call_return(call, st, out);
}

static int adapt_max_pool(conf_call *call)
{
    tsr_tensor *t, *out = NULL, *indices = NULL;
    tsr_pool_options o;
    bool with_indices;
    if (!conf_bind_tensor(call, "input", &t) || !window_args(call, &o) ||
        !conf_arg_bool_or(call, "return_indices", false, &with_indices))
        return CONF_BIND_SKIP;
    tsr_tensor **idx = with_indices ? &indices : NULL;
    int d = spatial_rank(call), st;
    if (d == 1)
        st = tsr_max_pool1d(t, &o, &out, idx);
    else if (d == 2)
        st = tsr_max_pool2d(t, &o, &out, idx);
    else
        st = tsr_max_pool3d(t, &o, &out, idx);
    return return_max(call, st, with_indices, out, indices);
}

static int adapt_max_unpool(conf_call *call)
{
    tsr_tensor *t, *indices, *out = NULL;
    tsr_pool_options o;
    int64_t size[TSR_MAX_DIMS];
    int count = 0;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "indices", &indices) ||
        !window_args(call, &o))
        return CONF_BIND_SKIP;
    if (conf_arg_present(call, "output_size") &&
        !conf_arg_int_list(call, "output_size", size, &count))
        return CONF_BIND_SKIP;
    const int64_t *given = count ? size : NULL;
    int d = spatial_rank(call), st;
    if (d == 1)
        st = tsr_max_unpool1d(t, indices, &o, given, count, &out);
    else if (d == 2)
        st = tsr_max_unpool2d(t, indices, &o, given, count, &out);
    else
        st = tsr_max_unpool3d(t, indices, &o, given, count, &out);
    return conf_call_return(call, st, out);
}

static int adapt_avg_pool(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_pool_options o;
    if (!conf_bind_tensor(call, "input", &t) || !window_args(call, &o))
        return CONF_BIND_SKIP;
    int d = spatial_rank(call), st;
    if (d == 1)
        st = tsr_avg_pool1d(t, &o, &out);
    else if (d == 2)
        st = tsr_avg_pool2d(t, &o, &out);
    else
        st = tsr_avg_pool3d(t, &o, &out);
    return conf_call_return(call, st, out);
}

static int adapt_adaptive(conf_call *call)
{
    tsr_tensor *t, *out = NULL, *indices = NULL;
    int64_t size[TSR_MAX_DIMS];
    int count = 0;
    bool with_indices = false;
    bool is_max = strncmp(call->c->op, "adaptive_max", 12) == 0;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int_list(call, "output_size", size, &count) ||
        (is_max && !conf_arg_bool_or(call, "return_indices", false, &with_indices)))
        return CONF_BIND_SKIP;
    tsr_tensor **idx = with_indices ? &indices : NULL;
    int d = spatial_rank(call), st;
    if (!is_max) {
        if (d == 1)
            st = tsr_adaptive_avg_pool1d(t, size, count, &out);
        else if (d == 2)
            st = tsr_adaptive_avg_pool2d(t, size, count, &out);
        else
            st = tsr_adaptive_avg_pool3d(t, size, count, &out);
        return conf_call_return(call, st, out);
    }
    if (d == 1)
        st = tsr_adaptive_max_pool1d(t, size, count, &out, idx);
    else if (d == 2)
        st = tsr_adaptive_max_pool2d(t, size, count, &out, idx);
    else
        st = tsr_adaptive_max_pool3d(t, size, count, &out, idx);
    return return_max(call, st, with_indices, out, indices);
}

static int adapt_lp_pool(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    tsr_pool_options o;
    double p;
    if (!conf_bind_tensor(call, "input", &t) || !conf_arg_double_or(call, "norm_type", 2.0, &p) ||
        !window_args(call, &o))
        return CONF_BIND_SKIP;
    int st = spatial_rank(call) == 1 ? tsr_lp_pool1d(t, p, &o, &out)
                                     : tsr_lp_pool2d(t, p, &o, &out);
    return conf_call_return(call, st, out);
}

static int adapt_shuffle(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    int64_t r;
    bool up = strcmp(call->c->op, "pixel_shuffle") == 0;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int(call, up ? "upscale_factor" : "downscale_factor", &r))
        return CONF_BIND_SKIP;
    int st = up ? tsr_pixel_shuffle(t, r, &out) : tsr_pixel_unshuffle(t, r, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_pool[] = {
    {"max_pool1d", adapt_max_pool, TSR_OP_POOL_MAX, 0},
    {"max_pool2d", adapt_max_pool, TSR_OP_POOL_MAX, 0},
    {"max_pool3d", adapt_max_pool, TSR_OP_POOL_MAX, 0},
    {"max_unpool1d", adapt_max_unpool, TSR_OP_SCATTER, 0},
    {"max_unpool2d", adapt_max_unpool, TSR_OP_SCATTER, 0},
    {"max_unpool3d", adapt_max_unpool, TSR_OP_SCATTER, 0},
    {"avg_pool1d", adapt_avg_pool, TSR_OP_POOL_AVG, 0},
    {"avg_pool2d", adapt_avg_pool, TSR_OP_POOL_AVG, 0},
    {"avg_pool3d", adapt_avg_pool, TSR_OP_POOL_AVG, 0},
    {"adaptive_avg_pool1d", adapt_adaptive, TSR_OP_POOL_ADAPTIVE_AVG, 0},
    {"adaptive_avg_pool2d", adapt_adaptive, TSR_OP_POOL_ADAPTIVE_AVG, 0},
    {"adaptive_avg_pool3d", adapt_adaptive, TSR_OP_POOL_ADAPTIVE_AVG, 0},
    {"adaptive_max_pool1d", adapt_adaptive, TSR_OP_POOL_ADAPTIVE_MAX, 0},
    {"adaptive_max_pool2d", adapt_adaptive, TSR_OP_POOL_ADAPTIVE_MAX, 0},
    {"adaptive_max_pool3d", adapt_adaptive, TSR_OP_POOL_ADAPTIVE_MAX, 0},
    {"lp_pool1d", adapt_lp_pool, TSR_OP_POOL_AVG, 0},
    {"lp_pool2d", adapt_lp_pool, TSR_OP_POOL_AVG, 0},
    {"pixel_shuffle", adapt_shuffle, TSR_OP_COPY, CONF_ADAPTER_COPY},
    {"pixel_unshuffle", adapt_shuffle, TSR_OP_COPY, CONF_ADAPTER_COPY},
};
const size_t conf_bindings_pool_count = sizeof conf_bindings_pool / sizeof conf_bindings_pool[0];
