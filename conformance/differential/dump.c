/* Writing a drawn case as a golden case (--dump DIR): its arrays as .npy
 * files, a manifest.jsonl line, and the reference's outputs as the expected
 * ones, so the case runs on its own with --cases DIR and can be read,
 * edited, or sent to the plugin's authors. */
#define _POSIX_C_SOURCE 200809L

#include "differential/dump.h"

#include "common/json_values.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool make_dir(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

/* Saves `t` as DIR/<op>/<stem>.npy and returns its manifest entry. */
static cJSON *save(const char *dir, const char *op, const char *stem, const tsr_tensor *t)
{
    char rel[256], path[4352];
    snprintf(rel, sizeof rel, "%s/%s.npy", op, stem);
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    if (tsr_save_npy(path, t) != TSR_OK)
        return NULL;
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "file", rel);
    if (tsr_tensor_dtype(t) == TSR_BFLOAT16)
        cJSON_AddStringToObject(entry, "dtype", "bfloat16");
    return entry;
}

static cJSON *tensor_entry(const char *dir, const conf_case *c, const char *name,
                           const conf_array_store *store, tsr_backend *backend,
                           const conf_tensor_ref *ref)
{
    const conf_array *a = conf_array_store_find(store, ref->file);
    tsr_tensor *t = NULL;
    if (!a)
        return NULL;
    size_t bytes = tsr_dtype_size(a->dtype);
    for (int d = 0; d < a->ndim; d++)
        bytes *= (size_t)a->shape[d];
    if (tsr_from_host(a->data, bytes, a->ndim, a->shape, a->dtype, backend, &t) != TSR_OK)
        return NULL;
    char stem[128];
    snprintf(stem, sizeof stem, "%s_%s", name, ref->file);
    cJSON *entry = save(dir, c->op, stem, t);
    tsr_tensor_release(t);
    if (entry && ref->nview > 0) {
        cJSON *view = cJSON_AddArrayToObject(entry, "view");
        for (int i = 0; i < ref->nview; i++)
            cJSON_AddItemToArray(view, cJSON_CreateString(ref->view[i]));
    }
    return entry;
}

static bool add_scalar(cJSON *entry, tsr_scalar s)
{
    if (s.kind == TSR_SCALAR_BOOL) {
        cJSON_AddBoolToObject(entry, "scalar", s.v.i != 0);
        cJSON_AddStringToObject(entry, "scalar_type", "bool");
    } else if (s.kind == TSR_SCALAR_INT) {
        char digits[32];
        snprintf(digits, sizeof digits, "%lld", (long long)s.v.i);
        cJSON_AddRawToObject(entry, "scalar", digits);
        cJSON_AddStringToObject(entry, "scalar_type", "int");
    } else if (s.kind == TSR_SCALAR_FLOAT) {
        if (isfinite(s.v.f))
            cJSON_AddNumberToObject(entry, "scalar", s.v.f);
        else
            cJSON_AddStringToObject(entry, "scalar",
                                    isnan(s.v.f) ? "nan"
                                    : s.v.f > 0  ? "inf"
                                                 : "-inf");
        cJSON_AddStringToObject(entry, "scalar_type", "float");
    } else {
        return false; /* the format has no complex scalars */
    }
    return true;
}

static cJSON *inputs_json(const char *dir, const conf_case *c, const char *name,
                          const conf_array_store *store, tsr_backend *backend)
{
    cJSON *inputs = cJSON_CreateArray();
    for (int i = 0; inputs && i < c->ninputs; i++) {
        const conf_input *in = &c->inputs[i];
        cJSON *entry = NULL;
        if (in->kind == CONF_INPUT_TENSOR) {
            entry = tensor_entry(dir, c, name, store, backend, &in->tensor);
        } else if (in->kind == CONF_INPUT_SCALAR) {
            entry = cJSON_CreateObject();
            if (!add_scalar(entry, in->scalar)) {
                cJSON_Delete(entry);
                entry = NULL;
            }
        } else {
            entry = cJSON_CreateObject();
            cJSON *list = cJSON_AddArrayToObject(entry, "list");
            for (int j = 0; j < in->nlist; j++) {
                cJSON *item = tensor_entry(dir, c, name, store, backend, &in->list[j]);
                if (!item) {
                    cJSON_Delete(entry);
                    entry = NULL;
                    break;
                }
                cJSON_AddItemToArray(list, item);
            }
        }
        if (!entry) {
            cJSON_Delete(inputs);
            return NULL;
        }
        cJSON_AddItemToObjectCS(entry, "name", cJSON_CreateString(in->name));
        cJSON_AddItemToArray(inputs, entry);
    }
    return inputs;
}

/* The args with tagged integers written back as integer literals. */
static cJSON *plain_json(const cJSON *item)
{
    int64_t v;
    if (conf_json_is_int(item) && conf_json_int(item, &v)) {
        char digits[32];
        snprintf(digits, sizeof digits, "%lld", (long long)v);
        return cJSON_CreateRaw(digits);
    }
    if (cJSON_IsArray(item) || cJSON_IsObject(item)) {
        cJSON *copy = cJSON_IsArray(item) ? cJSON_CreateArray() : cJSON_CreateObject();
        const cJSON *child;
        cJSON_ArrayForEach(child, item)
        {
            cJSON *c = plain_json(child);
            if (cJSON_IsArray(item))
                cJSON_AddItemToArray(copy, c);
            else
                cJSON_AddItemToObject(copy, child->string, c);
        }
        return copy;
    }
    return cJSON_Duplicate(item, true);
}

bool conf_diff_dump(const char *dir, const char *name, const conf_case *c,
                    const conf_array_store *store, tsr_backend *backend, tsr_tensor *const *outputs,
                    int noutputs, const char *error, char *message, size_t capacity)
{
    char sub[4352];
    snprintf(sub, sizeof sub, "%s/%s", dir, c->op);
    if (!make_dir(dir) || !make_dir(sub)) {
        snprintf(message, capacity, "cannot make %s", sub);
        return false;
    }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "op", c->op);
    cJSON_AddStringToObject(root, "case", name);
    cJSON *inputs = inputs_json(dir, c, name, store, backend);
    cJSON *outs = error ? NULL : cJSON_CreateArray();
    bool ok = inputs != NULL;
    for (int i = 0; ok && outs && i < noutputs; i++) {
        char stem[128];
        snprintf(stem, sizeof stem, "%s_out%d", name, i);
        cJSON *entry = save(dir, c->op, stem, outputs[i]);
        ok = entry != NULL;
        cJSON_AddItemToArray(outs, entry);
    }
    if (ok) {
        cJSON_AddItemToObject(root, "inputs", inputs);
        cJSON_AddItemToObject(root, "args", plain_json(c->args));
        if (error)
            cJSON_AddStringToObject(root, "error", error);
        else
            cJSON_AddItemToObject(root, "outputs", outs);
        if (c->has_rtol)
            cJSON_AddNumberToObject(root, "rtol", c->rtol);
        if (c->has_atol)
            cJSON_AddNumberToObject(root, "atol", c->atol);
        if (c->signed_zeros)
            cJSON_AddBoolToObject(root, "signed_zeros", true);
    } else {
        cJSON_Delete(inputs);
        cJSON_Delete(outs);
    }
    char *line = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    snprintf(sub, sizeof sub, "%s/manifest.jsonl", dir);
    FILE *f = line ? fopen(sub, "a") : NULL;
    ok = f && fprintf(f, "%s\n", line) > 0;
    if (f)
        ok = fclose(f) == 0 && ok;
    cJSON_free(line);
    if (!ok)
        snprintf(message, capacity,
                 "cannot write the case to %s (or it has a complex scalar, which the golden "
                 "format cannot hold)",
                 dir);
    return ok;
}
