/* Adapter lookup and the typed accessors adapters bind cases with. */
#include "bindings/bind.h"

#include "bindings/bindings.h"
#include "common/json_values.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct adapter_table {
    const conf_adapter *entries;
    const size_t *count;
} adapter_table;

/* In this order: it is the order of --list-ops, and the differential mode
 * turns through the ops in it (a seed and a case index name an op by their
 * place), so a table moves only with the cases it would renumber. */
static const adapter_table adapter_tables[] = {
    {conf_bindings_elementwise, &conf_bindings_elementwise_count},
    {conf_bindings_copy_to, &conf_bindings_copy_to_count},
    {conf_bindings_elementwise2, &conf_bindings_elementwise2_count},
    {conf_bindings_ternary, &conf_bindings_ternary_count},
    {conf_bindings_inplace, &conf_bindings_inplace_count},
    {conf_bindings_copy_inplace, &conf_bindings_copy_inplace_count},
    {conf_bindings_creation, &conf_bindings_creation_count},
    {conf_bindings_views, &conf_bindings_views_count},
    {conf_bindings_copy, &conf_bindings_copy_count},
    {conf_bindings_join, &conf_bindings_join_count},
    {conf_bindings_mask, &conf_bindings_mask_count},
    {conf_bindings_index, &conf_bindings_index_count},
    {conf_bindings_scatter, &conf_bindings_scatter_count},
    {conf_bindings_rearrange, &conf_bindings_rearrange_count},
    {conf_bindings_sort, &conf_bindings_sort_count},
    {conf_bindings_unique, &conf_bindings_unique_count},
    {conf_bindings_softmax, &conf_bindings_softmax_count},
    {conf_bindings_norm, &conf_bindings_norm_count},
    {conf_bindings_loss, &conf_bindings_loss_count},
    {conf_bindings_nn, &conf_bindings_nn_count},
    {conf_bindings_attention, &conf_bindings_attention_count},
    {conf_bindings_products, &conf_bindings_products_count},
    {conf_bindings_reduce, &conf_bindings_reduce_count},
    {conf_bindings_scan, &conf_bindings_scan_count},
    {conf_bindings_pool, &conf_bindings_pool_count},
    {conf_bindings_conv, &conf_bindings_conv_count},
    {conf_bindings_products_vector, &conf_bindings_products_vector_count},
    {conf_bindings_resample, &conf_bindings_resample_count},
    {conf_bindings_fft, &conf_bindings_fft_count},
    {conf_bindings_linalg, &conf_bindings_linalg_count},
};

const conf_adapter *conf_adapter_at(size_t index)
{
    for (size_t t = 0; t < sizeof adapter_tables / sizeof adapter_tables[0]; t++) {
        if (index < *adapter_tables[t].count)
            return &adapter_tables[t].entries[index];
        index -= *adapter_tables[t].count;
    }
    return NULL;
}

const conf_adapter *conf_adapter_find(const char *op)
{
    const conf_adapter *a;
    for (size_t i = 0; (a = conf_adapter_at(i)) != NULL; i++) {
        if (strcmp(a->op, op) == 0)
            return a;
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* The call                                                                  */
/* ------------------------------------------------------------------------ */

void conf_call_init(conf_call *call, const conf_case *c, tsr_backend *backend)
{
    memset(call, 0, sizeof *call);
    call->c = c;
    call->backend = backend;
    call->nvalues = c->ninputs;
    call->values = calloc((size_t)c->ninputs + 1, sizeof *call->values);
    for (int i = 0; i < c->ninputs; i++)
        call->values[i].spec = &c->inputs[i];
    call->args_used = calloc((size_t)cJSON_GetArraySize(c->args) + 1, sizeof(bool));
}

void conf_call_clear(conf_call *call)
{
    for (int i = 0; i < call->nvalues; i++) {
        conf_value *v = &call->values[i];
        tsr_tensor_release(v->base);
        tsr_tensor_release(v->tensor);
        for (int j = 0; j < v->nlist; j++) {
            tsr_tensor_release(v->bases[j]);
            tsr_tensor_release(v->list[j]);
        }
        free(v->bases);
        free(v->list);
    }
    free(call->values);
    free(call->args_used);
    for (int i = 0; i < call->noutputs; i++)
        tsr_tensor_release(call->outputs[i]);
    free(call->outputs);
    memset(call, 0, sizeof *call);
}

const char *conf_call_unused(const conf_call *call)
{
    for (int i = 0; i < call->nvalues; i++) {
        if (!call->values[i].used)
            return call->values[i].spec->name;
    }
    int i = 0;
    const cJSON *arg;
    cJSON_ArrayForEach(arg, call->c->args)
    {
        if (!call->args_used[i++] && !cJSON_IsNull(arg))
            return arg->string;
    }
    return NULL;
}

static bool bind_fail(conf_call *call, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(call->problem, sizeof call->problem, fmt, args);
    va_end(args);
    return false;
}

/* ------------------------------------------------------------------------ */
/* Inputs                                                                    */
/* ------------------------------------------------------------------------ */

static conf_value *find_value(conf_call *call, const char *name)
{
    const conf_input *in = conf_case_input(call->c, name);
    for (int i = 0; in && i < call->nvalues; i++) {
        if (call->values[i].spec == in)
            return &call->values[i];
    }
    return NULL;
}

bool conf_bind_tensor(conf_call *call, const char *name, tsr_tensor **out)
{
    conf_value *v = find_value(call, name);
    if (!v || v->spec->kind != CONF_INPUT_TENSOR)
        return bind_fail(call, "%s: input '%s' must be a tensor", call->c->op, name);
    v->used = true;
    *out = v->tensor;
    return true;
}

bool conf_bind_operand_opt(conf_call *call, const char *name, tsr_operand *out, bool *present)
{
    conf_value *v = find_value(call, name);
    *present = true;
    if (v && v->spec->kind == CONF_INPUT_TENSOR) {
        v->used = true;
        *out = tsr_operand_tensor(v->tensor);
        return true;
    }
    if (v && v->spec->kind == CONF_INPUT_SCALAR) {
        v->used = true;
        *out = tsr_operand_scalar(v->spec->scalar);
        return true;
    }
    if (v)
        return bind_fail(call, "%s: input '%s' must be a tensor or a scalar", call->c->op, name);
    tsr_scalar s;
    if (conf_arg_present(call, name)) {
        if (!conf_arg_scalar(call, name, &s))
            return false;
        *out = tsr_operand_scalar(s);
        return true;
    }
    *present = false;
    return true;
}

bool conf_bind_operand(conf_call *call, const char *name, tsr_operand *out)
{
    bool present = false;
    if (!conf_bind_operand_opt(call, name, out, &present))
        return false;
    return present || bind_fail(call, "%s: input '%s' is missing", call->c->op, name);
}

bool conf_bind_tensor_opt(conf_call *call, const char *name, tsr_tensor **out)
{
    tsr_operand o = {0};
    bool present = false;
    *out = NULL;
    if (!conf_bind_operand_opt(call, name, &o, &present))
        return false;
    if (present && !o.tensor) {
        snprintf(call->problem, sizeof call->problem, "%s: input '%s' must be a tensor",
                 call->c->op, name);
        return false;
    }
    *out = present ? (tsr_tensor *)o.tensor : NULL;
    return true;
}

/* ------------------------------------------------------------------------ */
/* Args                                                                      */
/* ------------------------------------------------------------------------ */

/* The arg's JSON value (marked used), or NULL when absent or null. */
static const cJSON *take_arg(conf_call *call, const char *name)
{
    int i = 0;
    const cJSON *arg;
    cJSON_ArrayForEach(arg, call->c->args)
    {
        if (arg->string && strcmp(arg->string, name) == 0) {
            call->args_used[i] = true;
            return cJSON_IsNull(arg) ? NULL : arg;
        }
        i++;
    }
    return NULL;
}

bool conf_arg_present(conf_call *call, const char *name)
{
    return take_arg(call, name) != NULL;
}

bool conf_arg_int(conf_call *call, const char *name, int64_t *out)
{
    const cJSON *v = take_arg(call, name);
    if (!v)
        return bind_fail(call, "%s: arg '%s' is missing", call->c->op, name);
    return conf_json_int(v, out) ||
           bind_fail(call, "%s: arg '%s' is not an integer", call->c->op, name);
}

bool conf_arg_int_or(conf_call *call, const char *name, int64_t fallback, int64_t *out)
{
    *out = fallback;
    const cJSON *v = take_arg(call, name);
    return !v || conf_json_int(v, out) ||
           bind_fail(call, "%s: arg '%s' is not an integer", call->c->op, name);
}

bool conf_arg_scalar(conf_call *call, const char *name, tsr_scalar *out)
{
    const cJSON *v = take_arg(call, name);
    if (!v)
        return bind_fail(call, "%s: arg '%s' is missing", call->c->op, name);
    return conf_json_scalar(v, out) ||
           bind_fail(call, "%s: arg '%s' is not a number", call->c->op, name);
}

bool conf_arg_scalar_or(conf_call *call, const char *name, tsr_scalar fallback, tsr_scalar *out)
{
    *out = fallback;
    const cJSON *v = take_arg(call, name);
    return !v || conf_json_scalar(v, out) ||
           bind_fail(call, "%s: arg '%s' is not a number", call->c->op, name);
}

bool conf_arg_bool_or(conf_call *call, const char *name, bool fallback, bool *out)
{
    tsr_scalar s;
    if (!conf_arg_scalar_or(call, name, tsr_scalar_bool(fallback), &s))
        return false;
    *out = s.kind == TSR_SCALAR_FLOAT ? s.v.f != 0 : s.v.i != 0;
    return true;
}

bool conf_arg_double_or(conf_call *call, const char *name, double fallback, double *out)
{
    tsr_scalar s;
    if (!conf_arg_scalar_or(call, name, tsr_scalar_float(fallback), &s))
        return false;
    *out = s.kind == TSR_SCALAR_FLOAT ? s.v.f : (double)s.v.i;
    return true;
}

bool conf_arg_int_list(conf_call *call, const char *name, int64_t *out, int *count)
{
    const cJSON *v = take_arg(call, name);
    if (!v)
        return bind_fail(call, "%s: arg '%s' is missing", call->c->op, name);
    return conf_json_int_list(v, out, TSR_MAX_DIMS, count) ||
           bind_fail(call, "%s: arg '%s' is not a list of at most %d integers", call->c->op, name,
                     TSR_MAX_DIMS);
}

bool conf_arg_int_array(conf_call *call, const char *name, int64_t **out, int *count)
{
    *out = NULL;
    const cJSON *v = take_arg(call, name);
    if (!v)
        return bind_fail(call, "%s: arg '%s' is missing", call->c->op, name);
    int cap = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 1;
    *out = malloc(((size_t)cap + 1) * sizeof **out);
    if (*out && conf_json_int_list(v, *out, cap, count))
        return true;
    free(*out);
    *out = NULL;
    return bind_fail(call, "%s: arg '%s' is not a list of integers", call->c->op, name);
}

bool conf_arg_dtype_or(conf_call *call, const char *name, tsr_dtype fallback, tsr_dtype *out)
{
    *out = fallback;
    const cJSON *v = take_arg(call, name);
    return !v || conf_json_dtype(v, out) ||
           bind_fail(call, "%s: arg '%s' is not a dtype tessera knows", call->c->op, name);
}

bool conf_arg_string_or(conf_call *call, const char *name, const char *fallback, const char **out)
{
    *out = fallback;
    const cJSON *v = take_arg(call, name);
    return !v || conf_json_string(v, out) ||
           bind_fail(call, "%s: arg '%s' is not a string", call->c->op, name);
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */
/* ------------------------------------------------------------------------ */

int conf_call_return(conf_call *call, int status, tsr_tensor *out)
{
    if (status != TSR_OK || !out)
        return status;
    if (call->noutputs == call->outputs_capacity) {
        int cap = call->outputs_capacity ? 2 * call->outputs_capacity : 8;
        tsr_tensor **grown = realloc(call->outputs, (size_t)cap * sizeof *grown);
        if (!grown) {
            tsr_tensor_release(out);
            snprintf(call->problem, sizeof call->problem, "%s: out of memory for outputs",
                     call->c->op);
            return TSR_ERR_OUT_OF_MEMORY;
        }
        call->outputs = grown;
        call->outputs_capacity = cap;
    }
    call->outputs[call->noutputs++] = out;
    return status;
}

int conf_call_return_self(conf_call *call, int status, tsr_tensor *self)
{
    if (status == TSR_OK)
        tsr_tensor_retain(self);
    return conf_call_return(call, status, status == TSR_OK ? self : NULL);
}

int conf_call_return_pair(conf_call *call, int status, tsr_tensor *first, tsr_tensor *second)
{
    conf_call_return(call, status, first);
    return conf_call_return(call, status, second);
}

/* ---- resample family: size= and scale_factor= (a number or a list) ---- */

bool conf_arg_number_or_list(conf_call *call, const char *name, double *out, int *count)
{
    *count = 0;
    const cJSON *v = take_arg(call, name);
    if (!v)
        return true;
    if (conf_json_double(v, &out[0])) {
        *count = -1;
        return true;
    }
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > TSR_MAX_DIMS)
        return bind_fail(call, "%s: arg '%s' is not a number or a list of numbers", call->c->op,
                         name);
    const cJSON *item;
    cJSON_ArrayForEach(item, v)
    {
        if (!conf_json_double(item, &out[*count]))
            return bind_fail(call, "%s: arg '%s' holds a non-number", call->c->op, name);
        (*count)++;
    }
    return true;
}
