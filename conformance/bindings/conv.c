/* Adapters for F.unfold, F.fold, F.conv1d/2d/3d and F.conv_transpose1d/2d/3d.
 * An int argument reads as a one-element list (applied to every spatial
 * dim), as in tsr_conv_params; conv's padding may also be 'valid' or 'same'. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bindings/bindings.h"
#include "common/json_values.h"

typedef struct conv_lists {
    int64_t stride[TSR_MAX_DIMS], padding[TSR_MAX_DIMS], dilation[TSR_MAX_DIMS];
    int64_t output_padding[TSR_MAX_DIMS];
} conv_lists;

/* An optional int-or-list arg into (list, count); absent is count 0. */
static bool optional_list(conf_call *call, const char *name, int64_t *list, int *count)
{
    *count = 0;
    return !conf_arg_present(call, name) || conf_arg_int_list(call, name, list, count);
}

/* stride, padding (numbers or a string), dilation, output_padding, groups. */
static bool read_params(conf_call *call, conv_lists *l, tsr_conv_params *p)
{
    *p = (tsr_conv_params){.stride = l->stride,
                           .padding = l->padding,
                           .dilation = l->dilation,
                           .output_padding = l->output_padding};
    const cJSON *pad = cJSON_GetObjectItemCaseSensitive(call->c->args, "padding");
    const char *text = NULL;
    if (pad && conf_json_string(pad, &text)) {
        const char *mode = NULL;
        if (!conf_arg_string_or(call, "padding", "", &mode))
            return false;
        /* An unknown string stays an unknown mode, which the library refuses. */
        p->padding_mode = strcmp(mode, "valid") == 0  ? TSR_CONV_PADDING_VALID
                          : strcmp(mode, "same") == 0 ? TSR_CONV_PADDING_SAME
                                                      : -1;
    } else if (!optional_list(call, "padding", l->padding, &p->npadding)) {
        return false;
    }
    return optional_list(call, "stride", l->stride, &p->nstride) &&
           optional_list(call, "dilation", l->dilation, &p->ndilation) &&
           optional_list(call, "output_padding", l->output_padding, &p->noutput_padding) &&
           conf_arg_int_or(call, "groups", 1, &p->groups);
}

typedef tsr_status (*conv_fn)(const tsr_tensor *, const tsr_tensor *, const tsr_tensor *,
                              const tsr_conv_params *, tsr_tensor **);

static int adapt_conv_with(conf_call *call, conv_fn fn)
{
    tsr_tensor *t, *weight, *bias, *out = NULL;
    conv_lists lists;
    tsr_conv_params params;
    if (!conf_bind_tensor(call, "input", &t) || !conf_bind_tensor(call, "weight", &weight) ||
        !conf_bind_tensor_opt(call, "bias", &bias) || !read_params(call, &lists, &params))
        return CONF_BIND_SKIP;
    int st = fn(t, weight, bias, &params, &out);
    return conf_call_return(call, st, out);
}

static int adapt_conv1d(conf_call *call)
{
    return adapt_conv_with(call, tsr_conv1d);
}
static int adapt_conv2d(conf_call *call)
{
    return adapt_conv_with(call, tsr_conv2d);
}
static int adapt_conv3d(conf_call *call)
{
    return adapt_conv_with(call, tsr_conv3d);
}
static int adapt_conv_transpose1d(conf_call *call)
{
    return adapt_conv_with(call, tsr_conv_transpose1d);
}
static int adapt_conv_transpose2d(conf_call *call)
{
    return adapt_conv_with(call, tsr_conv_transpose2d);
}
static int adapt_conv_transpose3d(conf_call *call)
{
    return adapt_conv_with(call, tsr_conv_transpose3d);
}

/* F.unfold(input, kernel_size, dilation=1, padding=0, stride=1). */
static int adapt_unfold(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    conv_lists lists;
    tsr_conv_params params;
    int64_t kernel[TSR_MAX_DIMS];
    int nkernel = 0;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int_list(call, "kernel_size", kernel, &nkernel) ||
        !read_params(call, &lists, &params))
        return CONF_BIND_SKIP;
    params.groups = 0;
    int st = tsr_unfold(t, kernel, nkernel, &params, &out);
    return conf_call_return(call, st, out);
}

/* F.fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1). */
static int adapt_fold(conf_call *call)
{
    tsr_tensor *t, *out = NULL;
    conv_lists lists;
    tsr_conv_params params;
    int64_t kernel[TSR_MAX_DIMS], size[TSR_MAX_DIMS];
    int nkernel = 0, nsize = 0;
    if (!conf_bind_tensor(call, "input", &t) ||
        !conf_arg_int_list(call, "output_size", size, &nsize) ||
        !conf_arg_int_list(call, "kernel_size", kernel, &nkernel) ||
        !read_params(call, &lists, &params))
        return CONF_BIND_SKIP;
    params.groups = 0;
    int st = tsr_fold(t, size, nsize, kernel, nkernel, &params, &out);
    return conf_call_return(call, st, out);
}

const conf_adapter conf_bindings_conv[] = {
    {"unfold", adapt_unfold, TSR_OP_IM2COL, 0},
    {"fold", adapt_fold, TSR_OP_COL2IM, 0},
    {"conv1d", adapt_conv1d, TSR_OP_IM2COL, 0},
    {"conv2d", adapt_conv2d, TSR_OP_IM2COL, 0},
    {"conv3d", adapt_conv3d, TSR_OP_IM2COL, 0},
    {"conv_transpose1d", adapt_conv_transpose1d, TSR_OP_COL2IM, 0},
    {"conv_transpose2d", adapt_conv_transpose2d, TSR_OP_COL2IM, 0},
    {"conv_transpose3d", adapt_conv_transpose3d, TSR_OP_COL2IM, 0},
};
const size_t conf_bindings_conv_count = sizeof conf_bindings_conv / sizeof conf_bindings_conv[0];
