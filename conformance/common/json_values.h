/* Typed reads of manifest JSON values.
 *
 * cJSON keeps every number as a double, which loses int64 values above 2^53
 * and cannot tell `2` from `2.0` — a difference PyTorch's type promotion
 * cares about (an int scalar keeps an int tensor int, a float scalar does not).
 * conf_json_parse() therefore rewrites each integer literal of the text into
 * a tagged string before cJSON sees it, and the readers below understand the
 * tag. Plain cJSON numbers (built in code) are read too. */
#ifndef CONF_JSON_VALUES_H
#define CONF_JSON_VALUES_H

#include "tessera/tessera.h"

#include <cjson/cJSON.h>

/* Parses one JSON text with integer literals tagged. NULL on a syntax error. */
cJSON *conf_json_parse(const char *text);

/* A new item that reads back as an integer literal (exact, and an int
 * rather than a float scalar), for cases built in code. */
cJSON *conf_json_create_int(int64_t value);

/* An integer: an integer literal, or an integral cJSON number up to 2^53. */
bool conf_json_int(const cJSON *item, int64_t *out);
/* Whether `item` was written as an integer literal (no '.', no exponent). */
bool conf_json_is_int(const cJSON *item);
/* A number, an integer literal, or one of the strings "nan", "inf", "-inf". */
bool conf_json_double(const cJSON *item, double *out);
/* A Python scalar: true/false give bool, integer literals int, the rest float. */
bool conf_json_scalar(const cJSON *item, tsr_scalar *out);
/* A plain string (not a tagged integer). */
bool conf_json_string(const cJSON *item, const char **out);
/* A list of integers of at most `capacity` entries; a lone integer is a list
 * of one. */
bool conf_json_int_list(const cJSON *item, int64_t *out, int capacity, int *count);
/* A dtype name as PyTorch prints it: "float32", "torch.float32", "float", ... */
bool conf_json_dtype(const cJSON *item, tsr_dtype *out);
bool conf_dtype_from_string(const char *name, tsr_dtype *out);

#endif
