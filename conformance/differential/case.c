/* Drafting in-memory cases for the differential mode. */
#define _POSIX_C_SOURCE 200809L

#include "differential/case.h"

#include "common/json_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void conf_draft_begin(conf_draft *d, conf_case *c, const char *op, const char *name,
                      conf_array_store *store, conf_rng *rng, tsr_dtype dtype, tsr_dtype dtype_out)
{
    memset(c, 0, sizeof *c);
    c->op = strdup(op);
    c->name = strdup(name);
    c->inputs = calloc(CONF_DRAFT_MAX_INPUTS, sizeof *c->inputs);
    c->args = cJSON_CreateObject();
    *d = (conf_draft){c, store, rng, dtype, dtype_out, 0, false};
}

static conf_input *next_input(conf_draft *d, const char *name, conf_input_kind kind)
{
    conf_case *c = d->c;
    if (!c->inputs || c->ninputs == CONF_DRAFT_MAX_INPUTS)
        return NULL;
    conf_input *in = &c->inputs[c->ninputs++];
    in->name = strdup(name);
    in->kind = kind;
    return in;
}

/* Draws the array `key` and fills ref with its name and view steps. */
static bool draft_ref(conf_draft *d, conf_tensor_ref *ref, const char *key, tsr_dtype dtype,
                      int ndim, const int64_t *shape, conf_value_spec values, conf_layout layout)
{
    int64_t base[TSR_MAX_DIMS];
    char *steps[4];
    int nsteps = 0;
    if (layout == CONF_LAYOUT_COUNT)
        layout = conf_random_layout(d->rng, true);
    conf_make_layout(d->rng, layout, ndim, shape, base, steps, &nsteps);
    ref->view = calloc(5, sizeof(char *));
    for (int i = 0; i < nsteps; i++) {
        if (ref->view)
            ref->view[ref->nview++] = steps[i];
        else
            free(steps[i]);
    }
    ref->file = strdup(key);
    conf_array *a = conf_array_store_add(d->store, key, dtype, ndim, base);
    if (!a || !ref->file || !ref->view)
        return false;
    conf_fill_values(d->rng, a, values);
    return true;
}

conf_input *conf_draft_tensor(conf_draft *d, const char *name, tsr_dtype dtype, int ndim,
                              const int64_t *shape, conf_value_spec values, conf_layout layout)
{
    conf_input *in = next_input(d, name, CONF_INPUT_TENSOR);
    int64_t numel = 1;
    for (int i = 0; i < ndim; i++)
        numel *= shape[i];
    if (d->large && numel > (1 << 20))
        layout = CONF_LAYOUT_CONTIGUOUS;
    /* A draw that combines the long dim with other drawn extents is not
     * drawn in --large (as if memory ran out): 2^24 + 3 times 5^3 int64
     * would be 16 GiB. */
    if (d->large && numel > ((int64_t)1 << 25))
        return NULL;
    if (!in || !draft_ref(d, &in->tensor, name, dtype, ndim, shape, values, layout))
        return NULL;
    return in;
}

conf_array *conf_draft_array(conf_draft *d, const conf_input *input)
{
    if (!input || input->kind != CONF_INPUT_TENSOR)
        return NULL;
    return (conf_array *)conf_array_store_find(d->store, input->tensor.file);
}

void conf_draft_scalar(conf_draft *d, const char *name, tsr_scalar value)
{
    conf_input *in = next_input(d, name, CONF_INPUT_SCALAR);
    if (in)
        in->scalar = value;
}

void conf_draft_list(conf_draft *d, const char *name, int n, tsr_dtype dtype, int ndim,
                     const int64_t (*shapes)[TSR_MAX_DIMS], conf_value_spec values)
{
    conf_input *in = next_input(d, name, CONF_INPUT_LIST);
    if (!in)
        return;
    in->list = calloc((size_t)n + 1, sizeof *in->list);
    if (!in->list)
        return;
    for (int i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "%s.%d", name, i);
        if (!draft_ref(d, &in->list[i], key, dtype, ndim, shapes[i], values, CONF_LAYOUT_COUNT))
            return;
        in->nlist++;
    }
}

/* ------------------------------------------------------------------------ */
/* Args                                                                      */
/* ------------------------------------------------------------------------ */

void conf_draft_arg_int(conf_draft *d, const char *name, int64_t value)
{
    cJSON_AddItemToObject(d->c->args, name, conf_json_create_int(value));
}

void conf_draft_arg_bool(conf_draft *d, const char *name, bool value)
{
    cJSON_AddItemToObject(d->c->args, name, cJSON_CreateBool(value));
}

/* Non-finite floats are the strings the golden format uses. */
void conf_draft_arg_double(conf_draft *d, const char *name, double value)
{
    cJSON *item = isnan(value)   ? cJSON_CreateString("nan")
                  : isinf(value) ? cJSON_CreateString(value > 0 ? "inf" : "-inf")
                                 : cJSON_CreateNumber(value);
    cJSON_AddItemToObject(d->c->args, name, item);
}

void conf_draft_arg_string(conf_draft *d, const char *name, const char *value)
{
    cJSON_AddItemToObject(d->c->args, name, cJSON_CreateString(value));
}

void conf_draft_arg_int_list(conf_draft *d, const char *name, int n, const int64_t *values)
{
    cJSON *list = cJSON_CreateArray();
    for (int i = 0; list && i < n; i++)
        cJSON_AddItemToArray(list, conf_json_create_int(values[i]));
    cJSON_AddItemToObject(d->c->args, name, list);
}

void conf_draft_arg_dtype(conf_draft *d, const char *name, tsr_dtype dtype)
{
    conf_draft_arg_string(d, name, tsr_dtype_name(dtype));
}

conf_value_spec conf_values_of(conf_values kind)
{
    return (conf_value_spec){kind, 0, 0};
}

conf_value_spec conf_values_range(int64_t lo, int64_t hi)
{
    return (conf_value_spec){CONF_VALUES_RANGE, lo, hi};
}

/* ------------------------------------------------------------------------ */
/* Helpers for the draw functions                                            */
/* ------------------------------------------------------------------------ */

int conf_draft_rank(conf_draft *d, int lo, int hi)
{
    return conf_random_rank(d->rng, lo, hi);
}

void conf_draft_shape(conf_draft *d, int ndim, bool allow_empty, int64_t *shape)
{
    conf_random_shape(d->rng, ndim, allow_empty && d->long_dim == 0, shape);
    if (d->long_dim == 0 || ndim == 0)
        return;
    int k = (int)conf_rng_range(d->rng, 0, ndim - 1);
    for (int i = 0; i < ndim; i++)
        shape[i] = i == k ? d->long_dim : d->long_dim > (1 << 20) || shape[i] < 2 ? 1 : 2;
    d->long_dim = 0;
}

void conf_draft_broadcastable(conf_draft *d, int ndim, const int64_t *shape, int *out_ndim,
                              int64_t *out)
{
    int drop = ndim > 0 && conf_rng_chance(d->rng, 0.3) ? (int)conf_rng_range(d->rng, 1, ndim) : 0;
    *out_ndim = ndim - drop;
    for (int i = 0; i < *out_ndim; i++) {
        int64_t s = shape[drop + i];
        out[i] = conf_rng_chance(d->rng, 0.25) ? 1 : s;
    }
}

int64_t conf_draft_dim(conf_draft *d, int ndim)
{
    if (ndim == 0)
        return conf_rng_range(d->rng, -1, 0);
    int64_t dim = conf_rng_range(d->rng, 0, ndim - 1);
    return conf_rng_chance(d->rng, 0.25) ? dim - ndim : dim;
}

tsr_scalar conf_draft_scalar_value(conf_draft *d, tsr_dtype dtype, conf_value_spec values)
{
    /* one element drawn as an array of the dtype would be, read back */
    int64_t one = 1;
    conf_array_store scratch = {0};
    conf_array *a = conf_array_store_add(&scratch, "scalar", dtype, 1, &one);
    tsr_scalar s = tsr_scalar_int(0);
    if (!a)
        return s;
    conf_fill_values(d->rng, a, values);
    const unsigned char *p = a->data;
    if (dtype == TSR_BOOL) {
        s = tsr_scalar_bool(p[0] != 0);
    } else if (tsr_dtype_is_integral(dtype, false)) {
        int64_t v = 0;
        size_t size = tsr_dtype_size(dtype);
        memcpy(&v, p, size);
        if (dtype != TSR_UINT8 && size < 8 && (p[size - 1] & 0x80))
            v |= (int64_t)(~UINT64_C(0) << (8 * size)); /* sign-extend */
        s = tsr_scalar_int(v);
    } else {
        /* a Python float is a double: draw it as one */
        double v = conf_rng_chance(d->rng, 0.8) ? conf_rng_normal(d->rng) * 2.0
                   : conf_rng_chance(d->rng, 0.5)
                       ? NAN
                       : (conf_rng_chance(d->rng, 0.5) ? INFINITY : -0.0);
        if (values.kind == CONF_VALUES_RANGE)
            v = (double)conf_rng_range(d->rng, values.lo, values.hi);
        else if (values.kind == CONF_VALUES_FINITE && !isfinite(v))
            v = 0.5;
        s = tsr_dtype_is_complex(dtype) ? tsr_scalar_complex(v, conf_rng_normal(d->rng))
                                        : tsr_scalar_float(v);
    }
    conf_array_store_clear(&scratch);
    return s;
}
