/* TESSERA_FALLBACK: an opt-in host backend for the kernels a backend lacks.
 *
 * The variable is read once per process, like the loader's, on the first
 * lookup that misses. An unusable setting is an error on that first use and
 * on every later one, not a warning: a misspelt name would otherwise leave
 * the program failing later with a "no kernel" error that points elsewhere,
 * and a library's error reaches the caller where a warning on stderr may be
 * lost. */
#include "runtime/fallback.h"

#include "runtime/alloc.h"
#include "runtime/dispatch.h"
#include "runtime/error.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static tsr_backend *fallback_backend; /* NULL when unset or unusable */
static int failure_status;            /* TSR_OK unless the setting is unusable */
static char failure[1200];

static void resolve(void)
{
    const char *name = getenv("TESSERA_FALLBACK");
    if (!name || !*name)
        return;
    tsr_backend *b = NULL;
    if (tsr_backend_get(name, &b) != TSR_OK) {
        failure_status = TSR_ERR_PLUGIN;
        snprintf(failure, sizeof failure, "TESSERA_FALLBACK names '%s', which cannot be used: %s",
                 name, tsr_last_error());
    } else if (!b->host_memory) {
        failure_status = TSR_ERR_PLUGIN;
        snprintf(failure, sizeof failure,
                 "TESSERA_FALLBACK names '%s', which keeps tensors in device memory; the "
                 "fallback must be a host-memory backend such as cpu or reference",
                 name);
    } else {
        fallback_backend = b;
        tsr__log("fallback", "kernels a backend lacks run on '%s' (TESSERA_FALLBACK)", b->name);
    }
}

static tsr_status configured(tsr_backend **out)
{
    pthread_once(&resolve_once, resolve);
    *out = fallback_backend;
    if (failure_status != TSR_OK)
        return tsr__set_error(failure_status, "%s", failure);
    return TSR_OK;
}

tsr_status tsr_fallback_backend(tsr_backend **out)
{
    if (!out)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "fallback_backend: out must not be NULL");
    return configured(out);
}

tsr_status tsr__fallback_find(tsr_backend *b, tsr_op op, tsr_dtype in, tsr_dtype out,
                              tsr_backend **fallback)
{
    tsr_backend *f;
    *fallback = NULL;
    tsr_status st = configured(&f);
    if (st != TSR_OK)
        return st;
    if (f && f != b && tsr__registry_find(f, op, in, out, NULL))
        *fallback = f;
    return TSR_OK;
}

/* (backend, op, in, out) rows already logged; grows only while the log is on. */
typedef struct logged_row {
    const tsr_backend *backend;
    tsr_op op;
    tsr_dtype in, out;
} logged_row;

static pthread_mutex_t logged_mutex = PTHREAD_MUTEX_INITIALIZER;
static logged_row *logged;
static size_t logged_count, logged_capacity;

/* Whether the row is new, remembering it; a row that cannot be remembered
 * counts as new, so memory pressure repeats a line rather than hides one. */
static bool first_time(const tsr_backend *b, tsr_op op, tsr_dtype in, tsr_dtype out)
{
    for (size_t i = 0; i < logged_count; i++) {
        const logged_row *r = &logged[i];
        if (r->backend == b && r->op == op && r->in == in && r->out == out)
            return false;
    }
    if (logged_count == logged_capacity) {
        size_t capacity = logged_capacity ? 2 * logged_capacity : 32;
        logged_row *grown = tsr__realloc(logged, capacity * sizeof *grown);
        if (!grown)
            return true;
        logged = grown;
        logged_capacity = capacity;
    }
    logged[logged_count++] = (logged_row){b, op, in, out};
    return true;
}

void tsr__fallback_note(const tsr_backend *b, const tsr_backend *fallback, tsr_op op,
                        tsr_dtype in, tsr_dtype out)
{
    if (!tsr__log_enabled("fallback"))
        return;
    pthread_mutex_lock(&logged_mutex);
    bool log = first_time(b, op, in, out);
    pthread_mutex_unlock(&logged_mutex);
    if (!log)
        return;
    char missing[256];
    tsr__describe_missing_kernel(missing, sizeof missing, b, op, in, out);
    tsr__log("fallback", "%s: running it on '%s'", missing, fallback->name);
}
