/* Runs `tessera-info --json`, parses what it prints with cJSON and checks the
 * document's shape and the expectations given as arguments:
 *
 *   info_json_check TESSERA_INFO EXPECTATION...
 *     exit=0 | exit=nonzero      tessera-info's exit status
 *     default=NAME | default=null
 *     loaded=NAME                a plugin of that name loaded, with coverage
 *     covers=NAME:OP:DTYPE       its coverage lists DTYPE under OP
 *     refused=NAME:FRAGMENT      a plugin of that name did not load, FRAGMENT in its reason
 *     problem=FRAGMENT           the "problem" member contains FRAGMENT
 *
 * The environment (TESSERA_PLUGIN_PATH, TESSERA_BACKEND) is tessera-info's. */
#define _POSIX_C_SOURCE 200809L

#include <cJSON.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int failures;

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        failures++;                                                                                \
        fprintf(stderr, "info_json_check: ");                                                      \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fprintf(stderr, "\n");                                                                     \
    } while (0)

/* The whole stdout of `command`, and its exit status. */
static char *run(const char *command, int *exit_status)
{
    FILE *p = popen(command, "r");
    if (!p)
        return NULL;
    size_t len = 0, cap = 4096;
    char *text = malloc(cap);
    for (size_t n; text && (n = fread(text + len, 1, cap - len - 1, p)) > 0;) {
        len += n;
        if (cap - len < 2) {
            char *grown = realloc(text, cap *= 2);
            if (!grown)
                free(text);
            text = grown;
        }
    }
    int status = pclose(p);
    *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (text)
        text[len] = '\0';
    return text;
}

static bool is_string(const cJSON *object, const char *member)
{
    return cJSON_IsString(cJSON_GetObjectItemCaseSensitive(object, member));
}

static const char *string_of(const cJSON *object, const char *member)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, member);
    return cJSON_IsString(item) ? item->valuestring : "";
}

/* Every plugin entry has the members tessera-info documents, with their types. */
static void check_plugin_shape(const cJSON *plugin, int index)
{
    static const char *const strings[] = {"name", "path", "version", "reason", "device"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        if (!is_string(plugin, strings[i]))
            FAIL("plugins[%d].%s is missing or not a string", index, strings[i]);
    }
    const cJSON *loaded = cJSON_GetObjectItemCaseSensitive(plugin, "loaded");
    if (!cJSON_IsBool(loaded))
        FAIL("plugins[%d].loaded is missing or not a boolean", index);
    if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(plugin, "score")))
        FAIL("plugins[%d].score is missing or not a number", index);
    const cJSON *coverage = cJSON_GetObjectItemCaseSensitive(plugin, "coverage");
    if (cJSON_IsTrue(loaded) != cJSON_IsObject(coverage))
        FAIL("plugins[%d] (%s): coverage must be an object exactly when loaded", index,
             string_of(plugin, "name"));
    const cJSON *op;
    cJSON_ArrayForEach(op, coverage)
    {
        const cJSON *dtype;
        if (!cJSON_IsArray(op) || cJSON_GetArraySize(op) == 0)
            FAIL("plugins[%d].coverage.%s is not a non-empty array", index, op->string);
        cJSON_ArrayForEach(dtype, op)
        {
            if (!cJSON_IsString(dtype))
                FAIL("plugins[%d].coverage.%s holds a non-string", index, op->string);
        }
    }
}

static const cJSON *plugin_named(const cJSON *plugins, const char *name, size_t name_len)
{
    const cJSON *plugin;
    cJSON_ArrayForEach(plugin, plugins)
    {
        const char *n = string_of(plugin, "name");
        if (strlen(n) == name_len && strncmp(n, name, name_len) == 0)
            return plugin;
    }
    return NULL;
}

static bool covers(const cJSON *plugin, const char *op, const char *dtype)
{
    const cJSON *coverage = cJSON_GetObjectItemCaseSensitive(plugin, "coverage");
    const cJSON *dtypes = cJSON_GetObjectItemCaseSensitive(coverage, op), *d;
    cJSON_ArrayForEach(d, dtypes)
    {
        if (cJSON_IsString(d) && strcmp(d->valuestring, dtype) == 0)
            return true;
    }
    return false;
}

static void check_expectation(const cJSON *doc, int exit_status, const char *e)
{
    const cJSON *plugins = cJSON_GetObjectItemCaseSensitive(doc, "plugins");
    const char *value = strchr(e, '=');
    if (!value) {
        FAIL("malformed expectation '%s'", e);
        return;
    }
    value++;
    const char *colon = strchr(value, ':');
    size_t name_len = colon ? (size_t)(colon - value) : strlen(value);
    const cJSON *plugin = plugin_named(plugins, value, name_len);
    if (strncmp(e, "exit=", 5) == 0) {
        bool want_zero = strcmp(value, "0") == 0;
        if (want_zero != (exit_status == 0))
            FAIL("tessera-info exited with %d, expected %s", exit_status, value);
    } else if (strncmp(e, "default=", 8) == 0) {
        const cJSON *def = cJSON_GetObjectItemCaseSensitive(doc, "default");
        bool ok = strcmp(value, "null") == 0
                      ? cJSON_IsNull(def)
                      : cJSON_IsString(def) && strcmp(def->valuestring, value) == 0;
        if (!ok)
            FAIL("default is not %s", value);
    } else if (strncmp(e, "loaded=", 7) == 0) {
        if (!plugin || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(plugin, "loaded")))
            FAIL("no loaded plugin named '%s'", value);
    } else if (strncmp(e, "covers=", 7) == 0) {
        char op[64] = "";
        const char *dtype = colon ? strchr(colon + 1, ':') : NULL;
        if (colon && dtype)
            snprintf(op, sizeof op, "%.*s", (int)(dtype - colon - 1), colon + 1);
        if (!plugin || !dtype || !covers(plugin, op, dtype + 1))
            FAIL("expectation '%s' does not hold", e);
    } else if (strncmp(e, "refused=", 8) == 0) {
        if (!plugin || !colon ||
            !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(plugin, "loaded")) ||
            !strstr(string_of(plugin, "reason"), colon + 1))
            FAIL("expectation '%s' does not hold (reason: \"%s\")", e,
                 plugin ? string_of(plugin, "reason") : "no such plugin");
    } else if (strncmp(e, "problem=", 8) == 0) {
        if (!strstr(string_of(doc, "problem"), value))
            FAIL("problem \"%s\" lacks \"%s\"", string_of(doc, "problem"), value);
    } else {
        FAIL("unknown expectation '%s'", e);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: info_json_check TESSERA_INFO EXPECTATION...\n");
        return 2;
    }
    char command[4096];
    snprintf(command, sizeof command, "'%s' --json", argv[1]);
    int exit_status = -1;
    char *text = run(command, &exit_status);
    if (!text) {
        FAIL("cannot run %s", command);
        return 1;
    }
    cJSON *doc = cJSON_Parse(text);
    if (!doc) {
        FAIL("output is not JSON (error near: %.40s)\n--- output ---\n%s", cJSON_GetErrorPtr(),
             text);
        free(text);
        return 1;
    }
    const cJSON *plugins = cJSON_GetObjectItemCaseSensitive(doc, "plugins"), *plugin;
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(doc, "default");
    if (!cJSON_IsArray(plugins))
        FAIL("\"plugins\" is missing or not an array");
    if (!cJSON_IsString(def) && !cJSON_IsNull(def))
        FAIL("\"default\" is neither a string nor null");
    if (!is_string(doc, "problem"))
        FAIL("\"problem\" is missing or not a string");
    int index = 0;
    cJSON_ArrayForEach(plugin, plugins)
    {
        check_plugin_shape(plugin, index++);
    }
    for (int i = 2; i < argc; i++)
        check_expectation(doc, exit_status, argv[i]);
    if (failures)
        fprintf(stderr, "--- tessera-info --json ---\n%s", text);
    cJSON_Delete(doc);
    free(text);
    fprintf(stderr, "info_json_check: %d expectation%s, %d failure%s\n", argc - 2,
            argc == 3 ? "" : "s", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
