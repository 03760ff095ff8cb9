/* Adapters for F.interpolate, its upsample aliases, F.grid_sample and
 * F.affine_grid. */
#include "bindings/bindings.h"

#include <string.h>

/* A mode name as an index of `names`, or -1 (which the library refuses). */
static int name_index(const char *name, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

/* An optional bool: None (absent or null) is TSR_OPTION_NONE. */
static bool arg_option(conf_call *call, const char *name, int *out)
{
    bool value = false;
    *out = TSR_OPTION_NONE;
    if (!conf_arg_present(call, name))
        return true;
    if (!conf_arg_bool_or(call, name, false, &value))
        return false;
    *out = value ? TSR_OPTION_TRUE : TSR_OPTION_FALSE;
    return true;
}

typedef struct size_args {
    int size_count, scale_count;
    int64_t size[TSR_MAX_DIMS];
    double scale[TSR_MAX_DIMS];
} size_args;

static bool arg_sizes(conf_call *call, size_args *s)
{
    double sizes[TSR_MAX_DIMS];
    if (!conf_arg_number_or_list(call, "size", sizes, &s->size_count) ||
        !conf_arg_number_or_list(call, "scale_factor", s->scale, &s->scale_count))
        return false;
    int n = s->size_count < 0 ? 1 : s->size_count;
    for (int i = 0; i < n; i++)
        s->size[i] = (int64_t)sizes[i];
    return true;
}

/* F.interpolate(input, size, scale_factor, mode='nearest', align_corners,
 * recompute_scale_factor) and F.upsample (the same without recompute). */
static int adapt_interpolate(conf_call *call)
{
    static const char *const modes[] = {"nearest", "nearest-exact", "linear", "bilinear",
                                        "bicubic", "trilinear",     "area"};
    tsr_tensor *t, *out = NULL;
    const char *mode;
    int align, recompute = TSR_OPTION_NONE;
    size_args s;
    bool interpolate = strcmp(call->adapter->op, "interpolate") == 0;
    if (!conf_bind_tensor(call, "input", &t) || !arg_sizes(call, &s) ||
        !conf_arg_string_or(call, "mode", "nearest", &mode) ||
        !arg_option(call, "align_corners", &align) ||
        (interpolate && !arg_option(call, "recompute_scale_factor", &recompute)))
        return CONF_BIND_SKIP;
    int m = name_index(mode, modes, 7);
    int st =
        tsr_interpolate(t, s.size_count, s.size, s.scale_count, s.scale, m, align, recompute, &out);
    return conf_call_return(call, st, out);
}

/* F.upsample_nearest / F.upsample_bilinear(input, size, scale_factor). */
static int adapt_upsample_alias(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    size_args s;
    if (!conf_bind_tensor(call, "input", &t) || !arg_sizes(call, &s))
        return CONF_BIND_SKIP;
    int st = strcmp(call->adapter->op, "upsample_nearest") == 0
                 ? tsr_upsample_nearest(t, s.size_count, s.size, s.scale_count, s.scale, &out)
                 : tsr_upsample_bilinear(t, s.size_count, s.size, s.scale_count, s.scale, &out);
    return conf_call_return(call, st, out);
}

/* F.grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners). */
static int adapt_grid_sample(conf_call *call)
{
    static const char *const modes[] = {"bilinear", "nearest", "bicubic"};
    static const char *const paddings[] = {"zeros", "border", "reflection"};
    tsr_tensor *t, *grid, *out = NULL;
    const char *mode, *padding;
    int align;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "grid", &grid) ||
        !conf_arg_string_or(call, "mode", "bilinear", &mode) ||
        !conf_arg_string_or(call, "padding_mode", "zeros", &padding) ||
        !arg_option(call, "align_corners", &align))
        return CONF_BIND_SKIP;
    int st = tsr_grid_sample(t, grid, name_index(mode, modes, 3), name_index(padding, paddings, 3),
                             align, &out);
    return conf_call_return(call, st, out);
}

/* F.affine_grid(theta, size, align_corners). */
static int adapt_affine_grid(conf_call *call)
{
    tsr_tensor *theta, *out = NULL;
    int64_t size[TSR_MAX_DIMS];
    int count = 0, align;
    if (!conf_bind_tensor(call, "theta", &theta) ||
        !conf_arg_int_list(call, "size", size, &count) ||
        !arg_option(call, "align_corners", &align))
        return CONF_BIND_SKIP;
    int st = tsr_affine_grid(theta, count, size, align, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_resample[] = {
    {"interpolate", adapt_interpolate, TSR_OP_UPSAMPLE, 0},
    {"upsample", adapt_interpolate, TSR_OP_UPSAMPLE, 0},
    {"upsample_nearest", adapt_upsample_alias, TSR_OP_UPSAMPLE, 0},
    {"upsample_bilinear", adapt_upsample_alias, TSR_OP_UPSAMPLE, 0},
    {"grid_sample", adapt_grid_sample, TSR_OP_GRID_SAMPLER, 0},
    {"affine_grid", adapt_affine_grid, TSR_OP_MATMUL, 0},
};
const size_t conf_bindings_resample_count =
    sizeof conf_bindings_resample / sizeof conf_bindings_resample[0];
