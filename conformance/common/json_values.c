/* Typed reads of manifest JSON values; see json_values.h for the integer tag. */
#include "common/json_values.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An integer literal becomes the JSON string "\u0001<digits>": a control
 * character no real string value starts with. */
#define CONF_INT_TAG '\x01'
#define CONF_INT_TAG_JSON "\\u0001"

static size_t number_length(const char *p)
{
    size_t n = 0;
    while (p[n] && strchr("+-0123456789.eE", p[n]))
        n++;
    return n;
}

/* Copies `text` to a new buffer, quoting integer literals outside strings. */
static char *tag_integers(const char *text)
{
    size_t len = strlen(text);
    char *out = malloc(9 * len + 1); /* "1" grows to "\"\\u00011\"": 9 bytes */
    if (!out)
        return NULL;
    size_t o = 0;
    bool in_string = false;
    for (size_t i = 0; i < len;) {
        char c = text[i];
        if (in_string) {
            out[o++] = c;
            if (c == '\\' && i + 1 < len)
                out[o++] = text[++i];
            else if (c == '"')
                in_string = false;
            i++;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t n = number_length(text + i);
            bool integer = strcspn(text + i, ".eE") >= n;
            if (integer) {
                memcpy(out + o, "\"" CONF_INT_TAG_JSON, 7);
                o += 7;
            }
            memcpy(out + o, text + i, n);
            o += n;
            if (integer)
                out[o++] = '"';
            i += n;
        } else {
            in_string = c == '"';
            out[o++] = c;
            i++;
        }
    }
    out[o] = '\0';
    return out;
}

cJSON *conf_json_parse(const char *text)
{
    char *tagged = tag_integers(text);
    if (!tagged)
        return NULL;
    cJSON *root = cJSON_Parse(tagged);
    free(tagged);
    return root;
}

cJSON *conf_json_create_int(int64_t value)
{
    char text[32];
    snprintf(text, sizeof text, "%c%lld", CONF_INT_TAG, (long long)value);
    return cJSON_CreateString(text);
}

bool conf_json_is_int(const cJSON *item)
{
    return cJSON_IsString(item) && item->valuestring[0] == CONF_INT_TAG;
}

bool conf_json_int(const cJSON *item, int64_t *out)
{
    if (conf_json_is_int(item)) {
        const char *digits = item->valuestring + 1;
        char *end = NULL;
        errno = 0;
        long long v = strtoll(digits, &end, 10);
        if (errno != 0 || end == digits || *end != '\0')
            return false;
        *out = v;
        return true;
    }
    if (cJSON_IsNumber(item)) {
        double d = item->valuedouble;
        if (d != floor(d) || fabs(d) > 9007199254740992.0)
            return false;
        *out = (int64_t)d;
        return true;
    }
    return false;
}

bool conf_json_double(const cJSON *item, double *out)
{
    int64_t i;
    if (conf_json_is_int(item) && conf_json_int(item, &i)) {
        *out = (double)i;
        return true;
    }
    if (cJSON_IsNumber(item)) {
        *out = item->valuedouble; /* keeps -0.0, which an integer path would lose */
        return true;
    }
    if (!cJSON_IsString(item))
        return false;
    if (strcmp(item->valuestring, "nan") == 0)
        *out = NAN;
    else if (strcmp(item->valuestring, "inf") == 0)
        *out = INFINITY;
    else if (strcmp(item->valuestring, "-inf") == 0)
        *out = -INFINITY;
    else
        return false;
    return true;
}

bool conf_json_scalar(const cJSON *item, tsr_scalar *out)
{
    int64_t i;
    double d;
    if (cJSON_IsBool(item)) {
        *out = tsr_scalar_bool(cJSON_IsTrue(item));
        return true;
    }
    if (conf_json_is_int(item) && conf_json_int(item, &i)) {
        *out = tsr_scalar_int(i);
        return true;
    }
    if (conf_json_double(item, &d)) {
        *out = tsr_scalar_float(d);
        return true;
    }
    return false;
}

bool conf_json_string(const cJSON *item, const char **out)
{
    if (!cJSON_IsString(item) || conf_json_is_int(item))
        return false;
    *out = item->valuestring;
    return true;
}

bool conf_json_int_list(const cJSON *item, int64_t *out, int capacity, int *count)
{
    if (conf_json_int(item, out) && capacity >= 1) {
        *count = 1;
        return true;
    }
    if (!cJSON_IsArray(item))
        return false;
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, item)
    {
        if (n == capacity || !conf_json_int(e, &out[n]))
            return false;
        n++;
    }
    *count = n;
    return true;
}

/* PyTorch's other spellings of dtype names. */
static const struct {
    const char *alias;
    tsr_dtype dtype;
} dtype_aliases[] = {
    {"float", TSR_FLOAT32},    {"double", TSR_FLOAT64},     {"half", TSR_FLOAT16},
    {"long", TSR_INT64},       {"int", TSR_INT32},          {"short", TSR_INT16},
    {"cfloat", TSR_COMPLEX64}, {"cdouble", TSR_COMPLEX128},
};

bool conf_dtype_from_string(const char *name, tsr_dtype *out)
{
    if (strncmp(name, "torch.", 6) == 0)
        name += 6;
    for (int d = 0; d < TSR_DTYPE_COUNT; d++) {
        const char *n = tsr_dtype_name((tsr_dtype)d);
        if (n && strcmp(n, name) == 0) {
            *out = (tsr_dtype)d;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof dtype_aliases / sizeof dtype_aliases[0]; i++) {
        if (strcmp(dtype_aliases[i].alias, name) == 0) {
            *out = dtype_aliases[i].dtype;
            return true;
        }
    }
    return false;
}

bool conf_json_dtype(const cJSON *item, tsr_dtype *out)
{
    const char *name;
    return conf_json_string(item, &name) && conf_dtype_from_string(name, out);
}
