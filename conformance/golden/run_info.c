/* The run's identity for the reports: versions, devices, date, command. */
#define _POSIX_C_SOURCE 200809L

#include "golden/run_info.h"

#include <tessera/tessera.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Appends `arg` to `out` (at `*n`), single-quoted when the shell would
 * otherwise split or expand it, so the command line can be pasted back. */
static void append_quoted(char *out, size_t *n, const char *arg)
{
    bool plain = arg[0] != '\0';
    for (const char *s = arg; *s && plain; s++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                       "-_./,:=+@%",
                       *s) != NULL;
    if (plain) {
        memcpy(out + *n, arg, strlen(arg));
        *n += strlen(arg);
        return;
    }
    out[(*n)++] = '\'';
    for (const char *s = arg; *s; s++) {
        if (*s == '\'') {
            memcpy(out + *n, "'\\''", 4);
            *n += 4;
        } else {
            out[(*n)++] = *s;
        }
    }
    out[(*n)++] = '\'';
}

static char *command_line(int argc, char **argv)
{
    size_t cap = 1;
    for (int i = 0; i < argc; i++)
        cap += 4 * strlen(argv[i]) + 3; /* every quote may become '\'' */
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t n = 0;
    for (int i = 0; i < argc; i++) {
        if (i)
            out[n++] = ' ';
        append_quoted(out, &n, argv[i]);
    }
    out[n] = '\0';
    return out;
}

static bool add_backend(conf_run_info *info, const char *name, size_t len, const char *role)
{
    for (size_t i = 0; i < info->nbackends; i++) {
        conf_backend_info *b = &info->backends[i];
        if (strlen(b->name) != len || strncmp(b->name, name, len) != 0)
            continue;
        if (strcmp(b->role, role) != 0) /* --against itself, as a self-check */
            b->role = "tested, reference";
        return true;
    }
    conf_backend_info *grown =
        realloc(info->backends, (info->nbackends + 1) * sizeof *info->backends);
    if (!grown)
        return false;
    info->backends = grown;
    conf_backend_info *b = &info->backends[info->nbackends];
    *b = (conf_backend_info){strndup(name, len), role, "", "", ""};
    if (!b->name)
        return false;
    info->nbackends++;
    return true;
}

/* Each plugin's details from the loader. tsr_plugin_get_info starts every
 * plugin it describes, so the walk stops once the run's own backends are
 * found: a device the run did not ask for (a GPU driver) is left alone. */
void conf_run_info_read_plugins(conf_run_info *info)
{
    size_t missing = info->nbackends;
    for (size_t i = 0; missing > 0; i++) {
        tsr_plugin_info p = {.struct_size = sizeof p};
        if (tsr_plugin_get_info(i, &p) != TSR_OK)
            break;
        if (!p.loaded)
            continue;
        for (size_t k = 0; k < info->nbackends; k++) {
            conf_backend_info *b = &info->backends[k];
            if (strcmp(b->name, p.name) != 0 || b->path[0])
                continue;
            b->version = p.version ? p.version : "";
            b->device = p.device ? p.device : "";
            b->path = p.path ? p.path : "";
            missing--;
        }
    }
    tsr_clear_error();
}

bool conf_run_info_init(conf_run_info *info, int argc, char **argv, const char *backends,
                        const char *against)
{
    memset(info, 0, sizeof *info);
    info->tessera_version = tsr_version(&info->plugin_abi);
    time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc))
        strftime(info->date, sizeof info->date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    info->command = command_line(argc, argv);
    bool ok = info->command != NULL;
    const char *role = against ? "tested" : "";
    for (const char *s = backends ? backends : ""; ok && *s;) {
        size_t len = strcspn(s, ",");
        if (len > 0)
            ok = add_backend(info, s, len, role);
        s += len + (s[len] == ',');
    }
    if (ok && against)
        ok = add_backend(info, against, strlen(against), "reference");
    return ok;
}

void conf_run_info_free(conf_run_info *info)
{
    for (size_t i = 0; i < info->nbackends; i++)
        free(info->backends[i].name);
    free(info->backends);
    free(info->command);
    memset(info, 0, sizeof *info);
}

const conf_backend_info *conf_run_info_backend(const conf_run_info *info, const char *name)
{
    for (size_t i = 0; info && i < info->nbackends; i++) {
        if (strcmp(info->backends[i].name, name) == 0)
            return &info->backends[i];
    }
    return NULL;
}
