/* Reading a JSON data file written by a torch script, for tests that
 * compare with recorded PyTorch values. */
#ifndef TSR_TESTS_CHECK_JSON_H
#define TSR_TESTS_CHECK_JSON_H

#include "check.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

/* The parsed file, or NULL after a counted failure naming the path. */
static inline cJSON *check_load_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        CHECK_FAIL_("cannot open %s", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = text ? fread(text, 1, (size_t)n, f) : 0;
    fclose(f);
    cJSON *root = NULL;
    if (text && got == (size_t)n) {
        text[n] = '\0';
        root = cJSON_Parse(text);
    }
    free(text);
    if (!root)
        CHECK_FAIL_("cannot parse %s", path);
    return root;
}

#endif
