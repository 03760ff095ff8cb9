/* What a report says about the run itself, so that a published report can be
 * traced to what produced it: the library and plugin versions, each
 * backend's device, the case set, the date and the command line. */
#ifndef CONF_RUN_INFO_H
#define CONF_RUN_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct conf_backend_info {
    char *name;
    const char *role;    /* "tested", "reference" (differential mode); "" in a golden run */
    const char *version; /* the plugin's version; "" when unknown */
    const char *device;  /* the plugin's description of its device; "" when none */
    const char *path;    /* the plugin file; "" when unknown */
} conf_backend_info;

typedef struct conf_run_info {
    const char *tessera_version; /* tsr_version() */
    uint32_t plugin_abi;         /* major << 16 | minor */
    char date[32];               /* when the run started: UTC, ISO 8601 */
    char *command;               /* argv, quoted for a POSIX shell */
    const char *cases_dir;       /* --cases; NULL in the differential mode (borrowed) */
    size_t cases_total;          /* cases in the set, or cases drawn */
    size_t cases_selected;       /* of those, the ones --op selected */
    conf_backend_info *backends;
    size_t nbackends;
} conf_run_info;

/* Fills `info` for a run of `argc`/`argv`, starting now, on the
 * comma-separated `backends` (then `against`, when not NULL, as the
 * reference); the plugin details stay "" until conf_run_info_read_plugins.
 * False when out of memory. Free with conf_run_info_free. */
bool conf_run_info_init(conf_run_info *info, int argc, char **argv, const char *backends,
                        const char *against);
/* Reads each backend's plugin version, device and file from the loader,
 * once the run has loaded them. */
void conf_run_info_read_plugins(conf_run_info *info);
void conf_run_info_free(conf_run_info *info);

/* The backend of that name, or NULL. */
const conf_backend_info *conf_run_info_backend(const conf_run_info *info, const char *name);

#endif
