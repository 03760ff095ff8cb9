/* manifest.jsonl → conf_case structs. */
#define _POSIX_C_SOURCE 200809L

#include "golden/manifest.h"

#include "common/json_values.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_problem(conf_case *c, const char *fmt, ...)
{
    if (c->problem)
        return; /* keep the first problem: later ones are usually its echo */
    char buf[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    c->problem = strdup(buf);
}

static char *copy_string(const cJSON *item)
{
    const char *s;
    return conf_json_string(item, &s) ? strdup(s) : NULL;
}

static void parse_view(const cJSON *view, conf_tensor_ref *ref, conf_case *c)
{
    if (!view)
        return;
    if (!cJSON_IsArray(view)) {
        set_problem(c, "'view' must be a list of strings");
        return;
    }
    int n = cJSON_GetArraySize(view);
    ref->view = calloc((size_t)n + 1, sizeof(char *));
    const cJSON *step;
    cJSON_ArrayForEach(step, view)
    {
        char *s = copy_string(step);
        if (!s) {
            set_problem(c, "view steps must be strings");
            return;
        }
        ref->view[ref->nview++] = s;
    }
}

static void parse_tensor_ref(const cJSON *entry, conf_tensor_ref *ref, conf_case *c)
{
    ref->file = copy_string(cJSON_GetObjectItemCaseSensitive(entry, "file"));
    if (!ref->file) {
        set_problem(c, "a tensor entry lacks its 'file'");
        return;
    }
    parse_view(cJSON_GetObjectItemCaseSensitive(entry, "view"), ref, c);
    ref->gauge = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(entry, "gauge"));
    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(entry, "dtype");
    if (dtype) {
        ref->has_dtype = conf_json_dtype(dtype, &ref->dtype);
        if (!ref->has_dtype)
            set_problem(c, "unknown dtype in the entry of %s", ref->file);
    }
}

static conf_tensor_ref *parse_tensor_list(const cJSON *array, int *count, conf_case *c)
{
    if (!cJSON_IsArray(array)) {
        set_problem(c, "expected a list of tensor entries");
        return NULL;
    }
    int n = cJSON_GetArraySize(array);
    conf_tensor_ref *refs = calloc((size_t)n + 1, sizeof *refs);
    int i = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, array)
    {
        parse_tensor_ref(entry, &refs[i++], c);
    }
    *count = n;
    return refs;
}

/* scalar_type decides the kind: 2 with "float" is 2.0, as Python would have it. */
static void parse_scalar(const cJSON *entry, conf_input *in, conf_case *c)
{
    const cJSON *value = cJSON_GetObjectItemCaseSensitive(entry, "scalar");
    const char *type = NULL;
    conf_json_string(cJSON_GetObjectItemCaseSensitive(entry, "scalar_type"), &type);
    tsr_scalar s;
    if (!conf_json_scalar(value, &s)) {
        set_problem(c, "input '%s': unreadable scalar", in->name);
        return;
    }
    double d = 0;
    conf_json_double(value, &d);
    if (type && strcmp(type, "float") == 0 && s.kind != TSR_SCALAR_BOOL)
        s = tsr_scalar_float(d);
    else if (type && strcmp(type, "int") == 0 && s.kind != TSR_SCALAR_INT)
        set_problem(c, "input '%s': scalar_type int with a non-integer value", in->name);
    else if (type && strcmp(type, "bool") == 0 && s.kind != TSR_SCALAR_BOOL)
        set_problem(c, "input '%s': scalar_type bool with a non-bool value", in->name);
    else if (type && strcmp(type, "float") && strcmp(type, "int") && strcmp(type, "bool"))
        set_problem(c, "input '%s': unknown scalar_type '%s'", in->name, type);
    in->kind = CONF_INPUT_SCALAR;
    in->scalar = s;
}

static void parse_input(const cJSON *entry, conf_input *in, conf_case *c)
{
    in->name = copy_string(cJSON_GetObjectItemCaseSensitive(entry, "name"));
    if (!in->name) {
        in->name = strdup("?");
        set_problem(c, "an input lacks its 'name'");
        return;
    }
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(entry, "list");
    if (cJSON_GetObjectItemCaseSensitive(entry, "scalar")) {
        parse_scalar(entry, in, c);
    } else if (list) {
        in->kind = CONF_INPUT_LIST;
        in->list = parse_tensor_list(list, &in->nlist, c);
    } else {
        in->kind = CONF_INPUT_TENSOR;
        parse_tensor_ref(entry, &in->tensor, c);
    }
}

static void parse_inputs(const cJSON *inputs, conf_case *c)
{
    if (!inputs)
        return;
    if (!cJSON_IsArray(inputs)) {
        set_problem(c, "'inputs' must be a list");
        return;
    }
    c->ninputs = cJSON_GetArraySize(inputs);
    c->inputs = calloc((size_t)c->ninputs + 1, sizeof *c->inputs);
    int i = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, inputs)
    {
        parse_input(entry, &c->inputs[i++], c);
    }
}

static void parse_tolerances(const cJSON *root, conf_case *c)
{
    const cJSON *rtol = cJSON_GetObjectItemCaseSensitive(root, "rtol");
    const cJSON *atol = cJSON_GetObjectItemCaseSensitive(root, "atol");
    if (rtol && !(c->has_rtol = conf_json_double(rtol, &c->rtol)))
        set_problem(c, "'rtol' is not a number");
    if (atol && !(c->has_atol = conf_json_double(atol, &c->atol)))
        set_problem(c, "'atol' is not a number");
    /* a negative tolerance would fail every comparison, or pass them all
     * where the check is written the other way round */
    if (c->has_rtol && !(c->rtol >= 0))
        set_problem(c, "'rtol' is negative (%g)", c->rtol);
    if (c->has_atol && !(c->atol >= 0))
        set_problem(c, "'atol' is negative (%g)", c->atol);
    c->signed_zeros = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "signed_zeros"));
    const char *check = NULL;
    c->identity = conf_json_string(cJSON_GetObjectItemCaseSensitive(root, "check"), &check) &&
                  strcmp(check, "identity") == 0;
}

static void parse_grad_names(const cJSON *wrt, conf_grad *g, conf_case *scratch)
{
    if (!cJSON_IsArray(wrt)) {
        set_problem(scratch, "'wrt' must be a list of input names");
        return;
    }
    g->wrt = calloc((size_t)cJSON_GetArraySize(wrt) + 1, sizeof(char *));
    const cJSON *name;
    cJSON_ArrayForEach(name, wrt)
    {
        char *s = copy_string(name);
        if (!s) {
            set_problem(scratch, "'wrt' must be a list of input names");
            return;
        }
        g->wrt[g->nwrt++] = s;
    }
}

/* A malformed `grad` entry leaves the forward runnable: its problem is kept
 * in the entry (through a scratch case, since the helpers report to one). */
static void parse_grad(const cJSON *entry, conf_case *c)
{
    if (!entry)
        return;
    c->has_grad = true;
    c->grad = calloc(1, sizeof *c->grad);
    if (!c->grad)
        return;
    conf_case scratch = {0};
    if (!cJSON_IsObject(entry)) {
        set_problem(&scratch, "'grad' must be an object");
    } else {
        parse_grad_names(cJSON_GetObjectItemCaseSensitive(entry, "wrt"), c->grad, &scratch);
        c->grad->grad_outputs =
            parse_tensor_list(cJSON_GetObjectItemCaseSensitive(entry, "grad_outputs"),
                              &c->grad->ngrad_outputs, &scratch);
        c->grad->expected = parse_tensor_list(cJSON_GetObjectItemCaseSensitive(entry, "expected"),
                                              &c->grad->nexpected, &scratch);
    }
    c->grad->problem = scratch.problem;
}

static void parse_root(cJSON *root, conf_case *c)
{
    c->op = copy_string(cJSON_GetObjectItemCaseSensitive(root, "op"));
    c->name = copy_string(cJSON_GetObjectItemCaseSensitive(root, "case"));
    if (!c->op || !c->name)
        set_problem(c, "the line lacks 'op' or 'case'");
    parse_inputs(cJSON_GetObjectItemCaseSensitive(root, "inputs"), c);
    cJSON *args = cJSON_DetachItemFromObjectCaseSensitive(root, "args");
    if (args && !cJSON_IsObject(args) && !cJSON_IsNull(args))
        set_problem(c, "'args' must be an object");
    if (!cJSON_IsObject(args)) {
        cJSON_Delete(args);
        args = cJSON_CreateObject();
    }
    c->args = args;
    const cJSON *outputs = cJSON_GetObjectItemCaseSensitive(root, "outputs");
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
    if (outputs)
        c->outputs = parse_tensor_list(outputs, &c->noutputs, c);
    if (error) {
        c->error = copy_string(error);
        c->error_message = copy_string(cJSON_GetObjectItemCaseSensitive(root, "error_message"));
        if (!c->error)
            set_problem(c, "'error' must be a string");
    }
    if (!outputs && !error)
        set_problem(c, "the case has neither 'outputs' nor 'error'");
    if (outputs && error)
        set_problem(c, "the case has both 'outputs' and 'error'");
    parse_tolerances(root, c);
    parse_grad(cJSON_GetObjectItemCaseSensitive(root, "grad"), c);
}

bool conf_case_parse(const char *line, int line_number, conf_case *out)
{
    memset(out, 0, sizeof *out);
    out->line = line_number;
    cJSON *root = conf_json_parse(line);
    if (!root || !cJSON_IsObject(root)) {
        set_problem(out, "line %d is not a JSON object", line_number);
        out->args = cJSON_CreateObject();
    } else {
        parse_root(root, out);
    }
    cJSON_Delete(root);
    if (!out->op)
        out->op = strdup("(manifest)");
    if (!out->name) {
        char buf[32];
        snprintf(buf, sizeof buf, "line%d", line_number);
        out->name = strdup(buf);
    }
    return out->op && out->name && out->args;
}

static void free_tensor_ref(conf_tensor_ref *ref)
{
    free(ref->file);
    for (int i = 0; i < ref->nview; i++)
        free(ref->view[i]);
    free(ref->view);
}

void conf_case_free(conf_case *c)
{
    for (int i = 0; i < c->ninputs; i++) {
        conf_input *in = &c->inputs[i];
        free(in->name);
        free_tensor_ref(&in->tensor);
        for (int j = 0; j < in->nlist; j++)
            free_tensor_ref(&in->list[j]);
        free(in->list);
    }
    free(c->inputs);
    for (int i = 0; i < c->noutputs; i++)
        free_tensor_ref(&c->outputs[i]);
    free(c->outputs);
    if (c->grad) {
        for (int i = 0; i < c->grad->nwrt; i++)
            free(c->grad->wrt[i]);
        free(c->grad->wrt);
        for (int i = 0; i < c->grad->ngrad_outputs; i++)
            free_tensor_ref(&c->grad->grad_outputs[i]);
        free(c->grad->grad_outputs);
        for (int i = 0; i < c->grad->nexpected; i++)
            free_tensor_ref(&c->grad->expected[i]);
        free(c->grad->expected);
        free(c->grad->problem);
        free(c->grad);
    }
    cJSON_Delete(c->args);
    free(c->op);
    free(c->name);
    free(c->error);
    free(c->error_message);
    free(c->problem);
    memset(c, 0, sizeof *c);
}

static bool blank(const char *line)
{
    return line[strspn(line, " \t\r\n")] == '\0';
}

static bool append_case(conf_manifest *m, size_t *capacity, const char *line, int number)
{
    if (m->count == *capacity) {
        size_t cap = *capacity ? *capacity * 2 : 256;
        conf_case *grown = realloc(m->cases, cap * sizeof *grown);
        if (!grown)
            return false;
        m->cases = grown;
        *capacity = cap;
    }
    return conf_case_parse(line, number, &m->cases[m->count++]);
}

bool conf_manifest_load(const char *dir, conf_manifest *out, char *message, size_t capacity)
{
    memset(out, 0, sizeof *out);
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(message, capacity, "cannot open %s", path);
        return false;
    }
    char *line = NULL;
    size_t line_capacity = 0, cases_capacity = 0;
    bool ok = true;
    for (int number = 1; ok && getline(&line, &line_capacity, f) >= 0; number++) {
        if (!blank(line))
            ok = append_case(out, &cases_capacity, line, number);
    }
    free(line);
    fclose(f);
    if (!ok)
        snprintf(message, capacity, "out of memory reading %s", path);
    return ok;
}

void conf_manifest_free(conf_manifest *m)
{
    for (size_t i = 0; i < m->count; i++)
        conf_case_free(&m->cases[i]);
    free(m->cases);
    memset(m, 0, sizeof *m);
}

const conf_input *conf_case_input(const conf_case *c, const char *name)
{
    bool self_like = strcmp(name, "self") == 0 || strcmp(name, "input") == 0;
    for (int i = 0; i < c->ninputs; i++) {
        const char *n = c->inputs[i].name;
        if (strcmp(n, name) == 0 ||
            (self_like && (strcmp(n, "self") == 0 || strcmp(n, "input") == 0)))
            return &c->inputs[i];
    }
    return NULL;
}
