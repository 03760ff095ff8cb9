/* Initialising backends and choosing the default (TESSERA_BACKEND). */
#include "runtime/backend.h"
#include "runtime/alloc.h"
#include "runtime/error.h"
#include "runtime/loader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tsr_backend *default_backend;
static char default_failure[1024];

/* Runs init and builds the registry; called with the loader lock held. */
static void initialise(tsr__plugin_record *r)
{
    if (r->state != TSR__PLUGIN_FOUND)
        return;
    tsr_backend *b = tsr__calloc(1, sizeof *b);
    if (!b) {
        snprintf(r->reason, sizeof r->reason, "out of memory");
        r->state = TSR__PLUGIN_FAILED;
        return;
    }
    b->plugin = r->plugin;
    snprintf(b->name, sizeof b->name, "%s", r->name);
    b->host_memory = (r->plugin->flags & TSR_PLUGIN_HOST_MEMORY) != 0;
    tsr_clear_error();
    int st = r->plugin->init(tsr__host_api(), &b->state);
    if (st != TSR_OK) {
        snprintf(r->reason, sizeof r->reason, "init failed: %s",
                 *tsr_last_error() ? tsr_last_error() : tsr_status_string(st));
    } else if (tsr__registry_build(b, r->path) != TSR_OK) {
        snprintf(r->reason, sizeof r->reason, "invalid kernel table: %s", tsr_last_error());
        r->plugin->shutdown(b->state);
        st = TSR_ERR_PLUGIN;
    }
    if (st != TSR_OK) {
        r->state = TSR__PLUGIN_FAILED;
        tsr__log("loader", "%s failed: %s", r->path, r->reason);
        free(b);
        return;
    }
    if (r->plugin->describe)
        r->plugin->describe(b->state, b->device, sizeof b->device);
    r->backend = b;
    r->state = TSR__PLUGIN_LOADED;
    tsr__log("loader", "loaded backend '%s' from %s%s%s", b->name, r->path,
             *b->device ? ": " : "", b->device);
}

static tsr__plugin_record *find_record(const char *name)
{
    for (size_t i = 0, n = tsr__plugin_record_count(); i < n; i++) {
        tsr__plugin_record *r = tsr__plugin_record_at(i);
        if (r->state != TSR__PLUGIN_REFUSED && strcmp(r->name, name) == 0)
            return r;
    }
    /* a refused file still explains why the name is unavailable */
    for (size_t i = 0, n = tsr__plugin_record_count(); i < n; i++) {
        tsr__plugin_record *r = tsr__plugin_record_at(i);
        if (strcmp(r->name, name) == 0)
            return r;
    }
    return NULL;
}

static tsr_status get_named(const char *name, tsr_backend **out)
{
    tsr__plugin_record *r = find_record(name);
    if (!r)
        return tsr__set_error(TSR_ERR_PLUGIN, "backend '%s': no plugin of that name was found "
                                              "(see TESSERA_LOG=loader)", name);
    initialise(r);
    if (r->state != TSR__PLUGIN_LOADED)
        return tsr__set_error(TSR_ERR_PLUGIN, "backend '%s' (%s) cannot be used: %s", name,
                              r->path, r->reason);
    *out = r->backend;
    return TSR_OK;
}

/* TESSERA_BACKEND is an ordered preference; an unknown name is an error, a
 * known one that fails gives way to the next with a warning. */
static tsr_status choose_from_env(const char *env, tsr_backend **out)
{
    char list[512], failures[1024] = "";
    if (strlen(env) >= sizeof list)
        return tsr__set_error(TSR_ERR_PLUGIN,
                              "TESSERA_BACKEND is %zu characters long; at most %zu are allowed",
                              strlen(env), sizeof list - 1);
    snprintf(list, sizeof list, "%s", env);
    char *save = NULL;
    for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        tsr__plugin_record *r = find_record(name);
        if (!r)
            return tsr__set_error(TSR_ERR_PLUGIN, "TESSERA_BACKEND names '%s', but no plugin of "
                                                  "that name was found", name);
        if (get_named(name, out) == TSR_OK) {
            if (*failures)
                fprintf(stderr, "tessera: TESSERA_BACKEND: using '%s' because%s\n", name,
                        failures);
            return TSR_OK;
        }
        size_t used = strlen(failures);
        snprintf(failures + used, sizeof failures - used, " [%s]", tsr_last_error());
    }
    return tsr__set_error(TSR_ERR_PLUGIN, "TESSERA_BACKEND='%s': no backend could be used:%s",
                          env, failures);
}

/* Without a preference: the highest probe score that initialises. */
static tsr_status choose_best(tsr_backend **out)
{
    size_t n = tsr__plugin_record_count();
    bool tried[256] = {false};
    for (;;) {
        tsr__plugin_record *best = NULL;
        size_t best_i = 0;
        for (size_t i = 0; i < n && i < 256; i++) {
            tsr__plugin_record *r = tsr__plugin_record_at(i);
            if (tried[i] || r->state == TSR__PLUGIN_REFUSED || r->state == TSR__PLUGIN_FAILED ||
                r->score < 0)
                continue;
            if (!best || r->score > best->score)
                best = r, best_i = i;
        }
        if (!best)
            return tsr__set_error(TSR_ERR_PLUGIN, "no tessera backend could be loaded "
                                                  "(see TESSERA_LOG=loader or tessera-info)");
        tried[best_i] = true;
        initialise(best);
        if (best->state == TSR__PLUGIN_LOADED) {
            *out = best->backend;
            return TSR_OK;
        }
    }
}

tsr_status tsr_backend_get(const char *name, tsr_backend **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "backend_get: out must not be NULL");
    tsr_status st;
    tsr__loader_lock();
    if (name && *name) {
        st = get_named(name, out);
    } else if (default_backend) {
        *out = default_backend;
        st = TSR_OK;
    } else if (*default_failure) {
        st = tsr__set_error(TSR_ERR_PLUGIN, "%s", default_failure);
    } else {
        const char *env = getenv("TESSERA_BACKEND");
        st = env && *env ? choose_from_env(env, &default_backend) : choose_best(&default_backend);
        if (st == TSR_OK)
            *out = default_backend;
        else
            snprintf(default_failure, sizeof default_failure, "%s", tsr_last_error());
    }
    tsr__loader_unlock();
    return st;
}

tsr_status tsr_set_default_backend(tsr_backend *backend)
{
    tsr__loader_lock();
    default_backend = backend;
    default_failure[0] = '\0';
    tsr__loader_unlock();
    return TSR_OK;
}

tsr_status tsr__backend_resolve(const char *op, tsr_backend *backend, tsr_backend **out)
{
    if (backend) {
        *out = backend;
        return TSR_OK;
    }
    tsr_status st = tsr_backend_get(NULL, out);
    if (st != TSR_OK)
        tsr__prefix_error("%s", op);
    return st;
}

tsr_status tsr_plugin_count(size_t *count)
{
    if (!count)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "plugin_count: count must not be NULL");
    tsr__loader_lock();
    size_t n = tsr__plugin_record_count();
    for (size_t i = 0; i < n; i++)
        initialise(tsr__plugin_record_at(i));
    tsr__loader_unlock();
    *count = n;
    return TSR_OK;
}

tsr_status tsr_plugin_get_info(size_t index, tsr_plugin_info *info)
{
    if (!info || info->struct_size < sizeof(tsr_plugin_info))
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "plugin_get_info: info must be non-NULL with struct_size set");
    tsr__plugin_record *r = tsr__plugin_record_at(index);
    if (!r)
        return tsr__set_error(TSR_ERR_INDEX, "plugin_get_info: index %zu is out of range (%zu "
                                             "plugins)", index, tsr__plugin_record_count());
    tsr__loader_lock();
    initialise(r);
    tsr__loader_unlock();
    info->name = r->name;
    info->path = r->path;
    info->version = r->version;
    info->loaded = r->state == TSR__PLUGIN_LOADED;
    info->reason = info->loaded ? "" : r->reason;
    info->device = r->backend ? r->backend->device : r->probe_reason;
    info->score = r->score;
    info->backend = r->backend;
    return TSR_OK;
}
